//! Exact odds of whole procedures: each compiled procedure call is worked out once, over merged states, and becomes one weighted choice.
//!
//! An `odds` walk replays the code it was given (Rhai's) once for every way
//! its dice fall. Under this engine, a call of a compiled procedure is not
//! replayed face by face: its whole distribution (what it returns, and the
//! units, leaders, decks and observations it leaves) is worked out by `flow`,
//! statement by statement over merged states, kept for the rest of the walk
//! (the same call on the same world is not worked out twice), and the walk
//! then branches once over its outcomes. See docs/odds.md.
//!
//! Where the engine cannot go on (a value it cannot compare would make it
//! follow states apart without end, a loop with too many states), it says so
//! with `unsupported`, and the caller falls back to replaying.

mod branching;
mod chance;
pub(crate) mod fingerprint;
mod flow;
mod liveness;
mod markov;
pub mod projection;
pub mod pure;
mod quiet;
mod states;
pub(crate) mod world;

use ahash::AHashMap as HashMap;
use std::cell::{Cell, RefCell};
use std::hash::Hasher;
use std::rc::Rc;
use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::One;
use rhai::{Dynamic, EvalAltResult, Position};

use crate::dice::{DiceError, DiceExpr, DiceLimits, Odds, Weights, exact_odds};
use crate::script::compiled::Table;
use crate::script::compiled::code::Function;
use crate::script::compiled::run::{Runner, Slots};
use crate::script::state::DiceMode;
use chance::Chance;
use fingerprint::{hash_value, same_value, same_with_handles};
use liveness::Liveness;
use world::World;

type R<T> = Result<T, Box<EvalAltResult>>;

/// The text that marks an error as the engine giving up (the caller then replays instead).
pub(crate) const UNSUPPORTED: &str = "grognard: the exact engine cannot walk this: ";

/// One way a procedure call ends: the value it returns, the world it leaves, and a method's receiver.
pub struct Outcome {
    pub value: Dynamic,
    pub world: Rc<World>,
    pub receiver: Option<Dynamic>,
}

/// One procedure call's exact outcomes, and their chances.
pub struct CallOdds {
    outcomes: Vec<Outcome>,
    /// Each outcome's chance over a common total; a last one for the chance cut off, if any.
    weights: Rc<Weights>,
    cut_off: bool,
}

impl CallOdds {
    fn new(ends: Vec<(Outcome, Chance)>, residual: Chance) -> CallOdds {
        let mut chances: Vec<Chance> = ends.iter().map(|e| e.1.clone()).collect();
        let cut_off = residual != Chance::zero();
        if cut_off {
            chances.push(residual);
        }
        let outcomes = ends.into_iter().map(|(outcome, _)| outcome).collect();
        CallOdds { outcomes, weights: Rc::new(weights_of(&chances)), cut_off }
    }
}

/// `chances` as counts over a common total: in words while the total fits in one.
fn weights_of(chances: &[Chance]) -> Weights {
    let small: Option<Vec<(u64, u64)>> = chances
        .iter()
        .map(|c| match c {
            Chance::Small { num, den } => Some((*num, *den)),
            Chance::Big(_) => None,
        })
        .collect();
    let total = |small: &[(u64, u64)]| {
        small
            .iter()
            .try_fold(1u64, |lcm, &(_, den)| u64::try_from(u128::from(lcm / lcm.gcd(&den)) * u128::from(den)).ok())
    };
    if let Some(small) = small
        && let Some(total) = total(&small)
    {
        let counts = small.iter().map(|&(num, den)| BigUint::from(u128::from(num) * u128::from(total / den))).collect();
        return Weights { counts, total: BigUint::from(total) };
    }
    let chances: Vec<BigRational> = chances.iter().map(Chance::big).collect();
    let total = chances.iter().fold(BigInt::one(), |lcm, p| lcm.lcm(p.denom()));
    let counts = chances.iter().map(|p| (p.numer() * (&total / p.denom())).to_biguint().unwrap_or_default()).collect();
    let total = total.to_biguint().unwrap_or_else(BigUint::one);
    Weights { counts, total }
}

/// The values a roll of several dice can take, and their chances: a walk branches over
/// these, not over the faces (`24d6 hits 4+` is 25 branches, not 6^24).
pub struct PoolOdds {
    pub values: Vec<i64>,
    pub weights: Rc<Weights>,
}

/// What one exact walk keeps: the calls worked out so far, and each function's liveness.
#[derive(Default)]
pub struct Walk {
    pools: RefCell<HashMap<Arc<str>, Option<Rc<PoolOdds>>>>,
    memo: RefCell<HashMap<u64, Vec<Memo>>>,
    liveness: RefCell<HashMap<usize, Rc<Liveness>>>,
    branching: RefCell<HashMap<usize, bool>>,
    /// Whether each compiled procedure (by index) may branch.
    procedures: RefCell<HashMap<usize, bool>>,
    /// Calls being worked out, one inside another.
    nesting: Cell<usize>,
    /// Whether each compiled procedure (by index) is pure, and the pure calls made so far (see `pure`).
    pure: RefCell<HashMap<usize, bool>>,
    pure_calls: RefCell<HashMap<u64, Vec<pure::Kept>>>,
    /// What the walk's code reads of its one call, if that is all it does (see `projection`).
    projection: Option<projection::Projection>,
}

struct Memo {
    function: usize,
    /// Whether `odds` are the walk's call, its outcomes merged by what the code reads of them.
    projected: bool,
    args: Slots,
    world: Rc<World>,
    odds: Rc<CallOdds>,
}

impl Walk {
    /// A walk of code that reads only what `projection` says of its one call (none: anything).
    pub fn reading(projection: Option<projection::Projection>) -> Walk {
        Walk { projection, ..Walk::default() }
    }

    /// The values `expr` (written `written`) can take, when the walk branches over them: a
    /// sum with no comparison of more than one die, or of dice rolled again or exploding.
    /// None for a roll walked face by face (one plain die; a comparison; odds past the work limit).
    pub fn pool_odds(&self, expr: &DiceExpr, written: &Arc<str>) -> Option<Rc<PoolOdds>> {
        if let Some(known) = self.pools.borrow().get(written) {
            return known.clone();
        }
        let dice: u32 = expr.pools().map(|p| p.count).sum();
        let by_value =
            expr.comparison.is_none() && (dice > 1 || expr.pools().any(|p| p.reroll.is_some() || p.explode.is_some()));
        let odds = match by_value.then(|| exact_odds(expr, &DiceLimits::default())) {
            Some(Ok(Odds::Totals(dist))) => {
                let (values, counts): (Vec<i64>, Vec<BigUint>) = dist.counts().map(|(v, c)| (*v, c.clone())).unzip();
                let weights = Rc::new(Weights { counts, total: dist.denominator().clone() });
                Some(Rc::new(PoolOdds { values, weights }))
            }
            _ => None,
        };
        self.pools.borrow_mut().insert(written.clone(), odds.clone());
        odds
    }

    /// Whether `stmt` may branch (see `branching`), worked out once a statement.
    fn may_branch(&self, table: &Table, stmt: &crate::script::compiled::code::Code) -> bool {
        let key = stmt as *const _ as usize;
        if let Some(known) = self.branching.borrow().get(&key) {
            return *known;
        }
        let answer = branching::may_branch(stmt, &|i| self.procedure_may_branch(table, i));
        self.branching.borrow_mut().insert(key, answer);
        answer
    }

    /// Whether `guard` may branch.
    fn guard_may_branch(&self, table: &Table, guard: &crate::script::compiled::code::Ex) -> bool {
        branching::ex_may_branch(guard, &|i| self.procedure_may_branch(table, i))
    }

    /// Whether calling the compiled procedure `index` may branch: it rolls, draws, or calls
    /// what may; worked out once a walk. One left to Rhai may.
    fn procedure_may_branch(&self, table: &Table, index: usize) -> bool {
        if let Some(known) = self.procedures.borrow().get(&index) {
            return *known;
        }
        // While it is being worked out (it calls itself, at some depth), it may: the safe guess.
        self.procedures.borrow_mut().insert(index, true);
        let answer = table.function(index).is_none_or(|f| {
            f.body.iter().any(|stmt| branching::may_branch(stmt, &|i| self.procedure_may_branch(table, i)))
        });
        self.procedures.borrow_mut().insert(index, answer);
        answer
    }

    /// Whether the compiled procedure `index` is pure (see `pure`): worked out once a walk.
    fn procedure_is_pure(&self, runner: &Runner, index: usize) -> bool {
        if let Some(known) = self.pure.borrow().get(&index) {
            return *known;
        }
        // While it is being worked out (it calls itself, at some depth), it is not: the safe guess.
        self.pure.borrow_mut().insert(index, false);
        let answer = !self.procedure_may_branch(runner.table, index)
            && runner.table.function(index).is_some_and(|f| {
                pure::is_pure(&f, &|i| self.procedure_is_pure(runner, i), &|script| runner.redefined(script))
            });
        self.pure.borrow_mut().insert(index, answer);
        answer
    }

    /// The liveness of `f`'s slots in this walk, with the quiet notes it skips (none while tracing).
    fn liveness(&self, f: &Function, table: &Table, ctx: &rhai::NativeCallContext, tracing: bool) -> Rc<Liveness> {
        let key = f as *const Function as usize;
        if let Some(known) = self.liveness.borrow().get(&key) {
            return known.clone();
        }
        let redefined = |script: u64| ctx.namespaces().iter().any(|m| m.contains_fn(script));
        let quiet =
            |stmt: &crate::script::compiled::code::Code| !tracing && quiet::is_quiet(stmt, f, table, &redefined);
        let live = Rc::new(Liveness::of(f, &quiet));
        self.liveness.borrow_mut().insert(key, live.clone());
        live
    }
}

/// Whether `err` is the engine giving up, and why.
pub fn unsupported_reason(err: &EvalAltResult) -> Option<String> {
    let mut inner = err;
    while let EvalAltResult::ErrorInFunctionCall(_, _, next, _) = inner {
        inner = next;
    }
    match inner {
        EvalAltResult::ErrorRuntime(value, _) => {
            value.read_lock::<rhai::ImmutableString>().and_then(|s| s.strip_prefix(UNSUPPORTED).map(str::to_string))
        }
        _ => None,
    }
}

/// The engine gives up: the caller replays every face instead.
pub fn unsupported(why: String) -> Box<EvalAltResult> {
    EvalAltResult::ErrorRuntime(format!("{UNSUPPORTED}{why}").into(), Position::NONE).into()
}

/// Whether a call of the compiled procedure `index` is worked out as a distribution (`call`):
/// during a walk, when it may branch. One that cannot is simply run.
pub fn works_out(runner: &Runner, index: usize) -> bool {
    let walk = runner.state.borrow().walk.clone();
    walk.is_some_and(|walk| walk.procedure_may_branch(runner.table, index))
}

/// A compiled procedure called during an exact walk: its distribution, worked out once,
/// and one of its outcomes taken by the walk's current branch. `args` are left as they were,
/// but a method's receiver (the first), which is the outcome's.
pub fn call(runner: &mut Runner, f: &Rc<Function>, args: &mut Slots, pos: Position) -> R<Dynamic> {
    let walk = runner.state.borrow().walk.clone().expect("called only while walking");
    let engine = runner.ctx.engine();
    if runner.ctx.global_runtime_state().level + walk.nesting.get() > engine.max_call_levels() {
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
            let engine = flow::Engine::new(runner.ctx, runner.table, runner.state, runner.meter, &walk);
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
    let chosen = match &mut runner.state.borrow_mut().dice {
        DiceMode::Walk(e) => e.choose(&odds.weights),
        DiceMode::Source(_) => unreachable!("a walk owns the dice"),
    };
    let chosen = match chosen {
        Ok(i) => i,
        Err(err) => return Err(dice_error(runner, err)),
    };
    if odds.cut_off && chosen == odds.outcomes.len() {
        // The chance cut off inside the call is cut off here too.
        let err = match &mut runner.state.borrow_mut().dice {
            DiceMode::Walk(e) => e.cut(),
            DiceMode::Source(_) => unreachable!("a walk owns the dice"),
        };
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

/// `odds` with the outcomes alike in what the walk's code reads of them (and in what the
/// study counted) made one, their chances added: the first one's world stands for them all.
fn merged_by_projection(odds: CallOdds, projection: &projection::Projection) -> CallOdds {
    let CallOdds { outcomes, weights, cut_off } = odds;
    let mut counts = weights.counts.clone();
    let residual = if cut_off { counts.pop() } else { None };
    let mut kept: Vec<Outcome> = Vec::new();
    let mut kept_counts: Vec<BigUint> = Vec::new();
    let mut by_hash: HashMap<u64, Vec<usize>> = HashMap::default();
    for (Outcome { value, world, receiver }, count) in outcomes.into_iter().zip(counts) {
        let value = projection.project(&value);
        let mut hasher = ahash::AHasher::default();
        let hash = hash_value(&value, &mut hasher).then(|| hasher.finish());
        let found = hash.and_then(|h| {
            by_hash.get(&h).and_then(|at| {
                at.iter().copied().find(|&i| {
                    same_with_handles(&kept[i].value, &value)
                        && kept[i].world.observations() == world.observations()
                        && receiver.is_none()
                        && kept[i].receiver.is_none()
                })
            })
        });
        match found {
            Some(i) => kept_counts[i] += count,
            None => {
                if let Some(h) = hash {
                    by_hash.entry(h).or_default().push(kept.len());
                }
                kept.push(Outcome { value, world, receiver });
                kept_counts.push(count);
            }
        }
    }
    kept_counts.extend(residual);
    CallOdds {
        outcomes: kept,
        weights: Rc::new(Weights { counts: kept_counts, total: weights.total.clone() }),
        cut_off,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each count over the total is the chance it stands for, and the total is the least
    /// common multiple of the chances' denominators (worked out with big numbers here).
    fn check(chances: &[Chance]) {
        let weights = weights_of(chances);
        let lcm = chances.iter().fold(BigInt::one(), |lcm, c| lcm.lcm(c.big().denom()));
        assert_eq!(BigInt::from(weights.total.clone()), lcm);
        for (count, chance) in weights.counts.iter().zip(chances) {
            let share = BigRational::new(BigInt::from(count.clone()), BigInt::from(weights.total.clone()));
            assert_eq!(share, chance.big());
        }
    }

    #[test]
    fn chances_become_counts_over_their_least_common_total_in_words_and_past_them() {
        let small = |num, den| Chance::Small { num, den };
        // In words: sixths, tenths and fifteenths over 30.
        check(&[small(1, 6), small(1, 10), small(4, 15), small(7, 15)]);
        let weights = weights_of(&[small(1, 6), small(1, 10), small(4, 15)]);
        assert_eq!(weights.total, BigUint::from(30u32));
        assert_eq!(weights.counts, vec![BigUint::from(5u32), BigUint::from(3u32), BigUint::from(8u32)]);
        // Two large primes: each fits in a word, their product does not.
        check(&[small(1, 4_294_967_291), small(4_294_967_278, 4_294_967_279)]);
        // A chance already past a word.
        let tiny = Chance::Big(BigRational::new(BigInt::one(), BigInt::from(10u32).pow(30)));
        check(&[small(1, 2), tiny]);
    }
}
