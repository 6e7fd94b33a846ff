//! A call through the paths kept: walked with the trial's dice, or run and added (see the module above).

use ahash::AHashMap as HashMap;
use std::cell::RefCell;
use std::hash::Hasher;
use std::rc::Rc;

use rhai::{Dynamic, EvalAltResult, Position};

use super::{Call, DicePaths, End, KeptCalls, MOST_ENDS, MOST_NAMED_HASHES, MOST_NAMES, Path};
use crate::dice::{DiceError, Die, RollSource};
use crate::script::compiled::code::Function;
use crate::script::compiled::runner::{Caller, Seam};
use crate::script::compiled::runner::{Runner, Slots};
use crate::script::fingerprint::{hash_value_without_decks, same_value};
use crate::script::handles::{LeaderRef, UnitRef, new_state_name};
use crate::script::mode::Mode;
use crate::script::plain::any_within;
use crate::script::world::World;

type R<T> = Result<T, Box<EvalAltResult>>;

impl Seam for KeptCalls {
    fn call(
        &self,
        runner: &mut Runner,
        _index: usize,
        f: &Rc<Function>,
        args: &mut Slots,
        pos: Position,
        caller: Caller,
    ) -> Option<R<Dynamic>> {
        // A call the study's own code makes, of a function (not a method), in an untraced trial.
        let taken = caller == Caller::Rhai && !f.method && {
            let st = runner.state.borrow();
            st.mode.studying() && !st.tracing
        };
        taken.then(|| call(&self.0, runner, f, args, pos))
    }
}

/// Calls `f` on `args` as `runner.call` would, through the paths kept (see the module).
fn call(
    paths: &RefCell<DicePaths>,
    runner: &mut Runner,
    f: &Rc<Function>,
    args: &mut Slots,
    pos: Position,
) -> R<Dynamic> {
    let procedure = Rc::as_ptr(f) as usize;
    if !paths.borrow().looks_up(procedure) {
        return runner.call(f, args, pos);
    }
    let standing = runner.state.borrow().standing_as();
    // The call found last, when this is it again: a study's trial mostly makes the calls the
    // trial before made, on the units standing as they stood then.
    let again = standing.and_then(|name| {
        let kept = paths.borrow();
        let kept_calls = kept.procedures.get(&procedure)?;
        let (hash, at) = kept_calls.last?;
        let call = kept_calls.calls.get(&hash)?.get(at)?;
        (call.names.contains(&name) && same_args(&call.args, args)).then_some((hash, at))
    });
    let (hash, again) = match again {
        Some((hash, at)) => (hash, Some(at)),
        None => match hash_of(runner, paths, standing, args) {
            Some(hash) => (hash, None),
            None => return runner.call(f, args, pos),
        },
    };

    // Down the path kept, with the trial's own dice.
    let mut drawn: Vec<i64> = Vec::new();
    let known = {
        let mut kept = paths.borrow_mut();
        let entry = kept.procedures.entry(procedure).or_default();
        let at = again.or_else(|| {
            entry.calls.get(&hash)?.iter().position(|c| {
                same_args(&c.args, args)
                    && (standing.is_some_and(|name| c.names.contains(&name)) || c.world.is_standing(runner.state))
            })
        });
        if let Some(at) = at {
            entry.last = Some((hash, at));
        }
        let call = at.and_then(|at| {
            let call = entry.calls.get_mut(&hash)?.get_mut(at)?;
            // Compared unit by unit once for each named state: known by its name after.
            if let Some(name) = standing
                && !call.names.contains(&name)
                && call.names.len() < MOST_NAMES
            {
                call.names.push(name);
            }
            Some(&*call)
        });
        match call {
            None => None,
            Some(call) => {
                let mut at = call.paths.as_ref();
                loop {
                    match at {
                        None => break None,
                        Some(Path::End(end)) => break Some(end.clone()),
                        Some(Path::Roll { die, next }) => {
                            let face = draw(runner, *die)?;
                            drawn.push(face);
                            at = next.get(&face);
                        }
                    }
                }
            }
        }
    };
    if let Some(p) = paths.borrow_mut().procedures.get_mut(&procedure) {
        p.looked_up(known.is_some());
    }
    if let Some(end) = known {
        runner.meter.spend_at(end.operations, pos)?;
        let value = end.world.install_changed_by_id(runner.state, &end.changed, &end.value, end.holds_handles);
        runner.state.borrow_mut().stand_as(end.name);
        return Ok(value);
    }

    // Not kept: run, with the faces drawn on the way given back first, and keep how it went.
    let kept_args: Vec<Dynamic> = args.iter().cloned().collect();
    let world = World::capture(runner.state, args.iter(), None);
    let rolled = Rc::new(RefCell::new(Vec::new()));
    let inner = Rc::new(RefCell::new(None));
    {
        let mut st = runner.state.borrow_mut();
        let Mode::Studying(source) = &mut st.mode else { return runner.call(f, args, pos) };
        *inner.borrow_mut() = Some(std::mem::replace(source, Box::new(Taken)));
        st.mode = Mode::Studying(Box::new(Recorder {
            given: drawn.into_iter().rev().collect(),
            inner: inner.clone(),
            rolled: rolled.clone(),
        }));
    }
    let spent = runner.meter.spent();
    let result = runner.call(f, args, pos);
    let operations = runner.meter.spent() - spent;
    if let Some(source) = inner.borrow_mut().take() {
        runner.state.borrow_mut().mode = Mode::Studying(source);
    }
    let value = result?;
    let mut kept = paths.borrow_mut();
    if kept.ends >= MOST_ENDS {
        return Ok(value);
    }
    let after = World::capture(runner.state, std::iter::once(&value).chain(args.iter()), None);
    if after.has_decks() || !World::same_ids_and_counts(&world, &after) {
        return Ok(value);
    }
    let holds_handles = any_within(&value, &|v| v.is::<UnitRef>() || v.is::<LeaderRef>());
    let name = new_state_name();
    runner.state.borrow_mut().stand_as(name);
    let changed = after.changed_from(&world);
    let end = Rc::new(End { value: value.clone(), world: after, name, changed, operations, holds_handles });
    let entry = kept.procedures.entry(procedure).or_default();
    let calls = entry.calls.entry(hash).or_default();
    let at =
        match calls.iter().position(|c| same_args(&c.args, &kept_args) && World::same_ids_and_values(&c.world, &world))
        {
            Some(i) => i,
            None => {
                calls.push(Call { args: kept_args, world, paths: None, names: standing.into_iter().collect() });
                calls.len() - 1
            }
        };
    let rolled = rolled.borrow();
    if add(&mut calls[at].paths, &rolled, end) {
        kept.ends += 1;
    }
    Ok(value)
}

/// The hash a call is kept by: of its arguments and the units as they stand (none when an
/// argument cannot be hashed, and the call is not kept).
fn hash_of(runner: &Runner, paths: &RefCell<DicePaths>, standing: Option<u64>, args: &Slots) -> Option<u64> {
    let mut hasher = ahash::AHasher::default();
    if !args.iter().all(|a| hash_value_without_decks(a, &mut hasher)) {
        return None;
    }
    let known = standing.and_then(|name| paths.borrow().hashes.get(&name).copied());
    let units_hash = known.unwrap_or_else(|| {
        let hash = World::standing_hash(runner.state);
        if let Some(name) = standing {
            let mut kept = paths.borrow_mut();
            if kept.hashes.len() >= MOST_NAMED_HASHES {
                kept.hashes.clear();
            }
            kept.hashes.insert(name, hash);
        }
        hash
    });
    hasher.write_u64(units_hash);
    Some(hasher.finish())
}

/// Adds the path of `rolled` faces ending in `end`; false when it was there already (or the
/// tree disagrees with it, which a procedure that reads only its arguments and units cannot).
fn add(path: &mut Option<Path>, rolled: &[(Die, i64)], end: Rc<End>) -> bool {
    match (path.as_mut(), rolled.split_first()) {
        (None, _) => {
            *path = Some(made(rolled, end));
            true
        }
        (Some(Path::Roll { die, next }), Some(((asked, face), rest))) if die == asked => {
            let mut deeper = next.remove(face);
            let added = add(&mut deeper, rest, end);
            if let Some(deeper) = deeper {
                next.insert(*face, deeper);
            }
            added
        }
        _ => false,
    }
}

/// The path of `rolled` faces alone, ending in `end`.
fn made(rolled: &[(Die, i64)], end: Rc<End>) -> Path {
    match rolled.split_first() {
        None => Path::End(end),
        Some(((die, face), rest)) => Path::Roll { die: *die, next: HashMap::from([(*face, made(rest, end))]) },
    }
}

/// Whether the arguments of a call kept are those of a call now.
fn same_args(kept: &[Dynamic], now: &[Dynamic]) -> bool {
    kept.len() == now.len() && kept.iter().zip(now).all(|(a, b)| same_value(a, b))
}

/// One face from the trial's dice, as a roll draws it.
fn draw(runner: &Runner, die: Die) -> R<i64> {
    let face = runner.state.borrow_mut().mode.face(die);
    face.map_err(|err: DiceError| {
        let message = err.to_string();
        runner.state.borrow_mut().dice_error = Some(err);
        EvalAltResult::ErrorRuntime(message.into(), Position::NONE).into()
    })
}

/// The dice while a call runs to be kept: the faces already drawn for it first, then the
/// trial's own; every face it rolls is written down.
struct Recorder {
    /// Faces to give first, the next one last.
    given: Vec<i64>,
    inner: Rc<RefCell<Option<Box<dyn RollSource>>>>,
    rolled: Rc<RefCell<Vec<(Die, i64)>>>,
}

impl RollSource for Recorder {
    fn face(&mut self, die: Die) -> Result<i64, DiceError> {
        let face = match self.given.pop() {
            Some(face) => face,
            None => match self.inner.borrow_mut().as_mut() {
                Some(source) => source.face(die)?,
                None => return Taken.face(die),
            },
        };
        self.rolled.borrow_mut().push((die, face));
        Ok(face)
    }
}

/// Where the dice stood while a recorder held them: never rolled.
struct Taken;

impl RollSource for Taken {
    fn face(&mut self, die: Die) -> Result<i64, DiceError> {
        Err(DiceError::OutOfFaces { die: format!("{die:?}"), used: 0, what: "a call being kept".into() })
    }
}
