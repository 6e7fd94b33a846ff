//! The exact engine at the compiled runner's seam: a call that may branch is worked out whole and the walk branches once over its outcomes; a pure call is answered from the walk's memory.

use std::hash::Hasher;
use std::rc::Rc;

use rhai::{Dynamic, EvalAltResult, Position};

use super::call_odds::{Outcome, merged_by_projection};
use super::flow;
use super::pure::plain;
use super::walk::{Memo, PureCall, Walk};
use crate::dice::DiceError;
use crate::script::compiled::code::Function;
use crate::script::compiled::runner::{Caller, Seam};
use crate::script::compiled::runner::{R, Runner, Slots};
use crate::script::error::unsupported_reason;
use crate::script::fingerprint::{hash_value, same_value, same_with_handles};
use crate::script::world::World;

impl Seam for Walk {
    fn call(
        &self,
        runner: &mut Runner,
        index: usize,
        f: &Rc<Function>,
        args: &mut Slots,
        pos: Position,
        caller: Caller,
    ) -> Option<R<Dynamic>> {
        // The walk steers the dice only while the command walks them.
        runner.state.borrow().mode.walking()?;
        if self.procedure_may_branch(runner.table, index) {
            Some(worked_out(self, runner, f, args, pos))
        } else if caller == Caller::Compiled {
            Some(remembered(self, runner, index, f, args, pos))
        } else {
            None
        }
    }
}

/// A compiled procedure called during an exact walk: its distribution, worked out once,
/// and one of its outcomes taken by the walk's current branch. `args` are left as they were,
/// but a method's receiver (the first), which is the outcome's.
fn worked_out(walk: &Walk, runner: &mut Runner, f: &Rc<Function>, args: &mut Slots, pos: Position) -> R<Dynamic> {
    let engine = runner.ctx.engine();
    if crate::script::syntax::call_level(runner.ctx) + walk.nesting.get() > engine.max_call_levels() {
        return Err(EvalAltResult::ErrorStackOverflow(pos).into());
    }
    runner.meter.tick_at(pos)?;
    let key = f.as_ref() as *const Function as usize;
    let world = World::current(runner.state, args.iter());
    // The walk's own call, made by its code and not from inside a procedure.
    let projected = walk.nesting.get() == 0
        && runner.depth == 0
        && walk.projection.as_ref().is_some_and(|p| p.applies(&f.name, args.len()));
    let mut hasher = ahash::AHasher::default();
    hasher.write_usize(key);
    hasher.write_u8(projected as u8);
    hasher.write_u64(world.hash());
    let hashed = args.iter().all(|a| hash_value(a, &mut hasher));
    let hash = hasher.finish();
    let known = hashed
        .then(|| {
            walk.memo.borrow().get(&hash).and_then(|memos| {
                memos
                    .iter()
                    .find(|m| {
                        m.function == key
                            && m.projected == projected
                            && m.args.len() == args.len()
                            && m.args.iter().zip(args.iter()).all(|(a, b)| same_value(a, b))
                            && World::same(&m.world, &world)
                            && World::same_decks(&m.world, &world)
                    })
                    .map(|m| {
                        let same = World::same_handles(&m.world, &world)
                            && m.args.iter().zip(args.iter()).all(|(a, b)| same_with_handles(a, b));
                        (m.odds.clone(), same)
                    })
            })
        })
        .flatten();
    let (odds, same_handles) = match known {
        Some(found) => found,
        None => {
            walk.nesting.set(walk.nesting.get() + 1);
            let engine = flow::Engine::new(runner.ctx, runner.table, runner.state, runner.meter, walk);
            let odds = engine.distribution(f, args.clone());
            walk.nesting.set(walk.nesting.get() - 1);
            let odds = odds.map_err(|err| wrap(err, f, runner, pos))?;
            let odds = Rc::new(match (&walk.projection, projected) {
                (Some(projection), true) => merged_by_projection(odds, projection),
                _ => odds,
            });
            if hashed {
                let memo =
                    Memo { function: key, projected, args: args.clone(), world: world.clone(), odds: odds.clone() };
                walk.memo.borrow_mut().entry(hash).or_default().push(memo);
            }
            (odds, true)
        }
    };
    let chosen = walk.dice.borrow_mut().choose(&odds.weights);
    let chosen = match chosen {
        Ok(i) => i,
        Err(err) => return Err(dice_error(runner, err)),
    };
    if odds.cut_off && chosen == odds.outcomes.len() {
        // The chance cut off inside the call is cut off here too.
        let err = walk.dice.borrow_mut().cut();
        return Err(dice_error(runner, err));
    }
    let Outcome { value, world, receiver } = &odds.outcomes[chosen];
    if same_handles {
        world.install(runner.state);
        if let (Some(receiver), Some(first)) = (receiver, args.first_mut()) {
            *first = receiver.clone();
        }
        Ok(value.clone())
    } else {
        // Worked out for other handles of the same units (a replay that made them afresh).
        let Some(receiver) = receiver else { return Ok(world.install_by_id(runner.state, value)) };
        let both = world.install_by_id(runner.state, &Dynamic::from_array(vec![value.clone(), receiver.clone()]));
        let mut both = both.into_array().unwrap_or_default().into_iter();
        if let (Some(receiver), Some(first)) = (both.nth(1), args.first_mut()) {
            *first = receiver;
        }
        Ok(both.next().unwrap_or_default())
    }
}

/// Runs `f` (the compiled procedure `index`) on `args`, or gives the value it gave on the same
/// arguments earlier in the walk, when it is pure (see `pure`).
fn remembered(
    walk: &Walk,
    runner: &mut Runner,
    index: usize,
    f: &Function,
    args: &mut Slots,
    pos: Position,
) -> R<Dynamic> {
    if !walk.procedure_is_pure(runner, index) {
        return runner.call(f, args, pos);
    }
    let key = f as *const Function as usize;
    let mut hasher = ahash::AHasher::default();
    hasher.write_usize(key);
    if !args.iter().all(|a| plain(a) && hash_value(a, &mut hasher)) {
        return runner.call(f, args, pos);
    }
    let hash = hasher.finish();
    let found = walk.pure_calls.borrow().get(&hash).and_then(|kept| {
        kept.iter()
            .find(|k| {
                k.function == key
                    && k.args.len() == args.len()
                    && k.args.iter().zip(args.iter()).all(|(a, b)| same_value(a, b))
            })
            .map(|k| k.value.clone())
    });
    if let Some(value) = found {
        // As the call itself would: the depth limit, then one operation.
        if crate::script::syntax::call_level(runner.ctx) + runner.depth > runner.ctx.engine().max_call_levels() {
            return Err(rhai::EvalAltResult::ErrorStackOverflow(pos).into());
        }
        runner.meter.tick_at(pos)?;
        return Ok(value);
    }
    let given = args.clone();
    let value = runner.call(f, args, pos)?;
    let kept = PureCall { function: key, args: given, value: value.clone() };
    walk.pure_calls.borrow_mut().entry(hash).or_default().push(kept);
    Ok(value)
}

/// An error inside a procedure, wrapped as Rhai wraps one from a script function.
fn wrap(err: Box<EvalAltResult>, f: &Function, runner: &Runner, pos: Position) -> Box<EvalAltResult> {
    if unsupported_reason(&err).is_some() || err.is_system_exception() {
        return err;
    }
    EvalAltResult::ErrorInFunctionCall(f.name.to_string(), runner.ctx.call_source().unwrap_or("").to_string(), err, pos)
        .into()
}

fn dice_error(runner: &Runner, err: DiceError) -> Box<EvalAltResult> {
    let message = err.to_string();
    runner.state.borrow_mut().dice_error = Some(err);
    EvalAltResult::ErrorRuntime(message.into(), Position::NONE).into()
}
