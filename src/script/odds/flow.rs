//! Running a compiled function over a weighted set of states: each statement once for each distinct state, states merged after each.
//!
//! A statement runs for one state under an enumerator of its own: replayed for
//! every way its dice (and the procedures it calls) can fall, each replay from
//! the state as it was. So the work before a roll is done once per state, not
//! once per face. After each statement, the slots nobody reads again are
//! cleared and states that are then the same are merged, adding their
//! chances. A loop is a chain over the states at its head: each distinct head
//! state is run through the body once, and the chances of leaving the loop
//! are solved from those steps (see `markov`), a loop back to a state seen
//! before included.

use std::hash::Hasher;
use std::rc::Rc;

use rhai::{Dynamic, EvalAltResult, NativeCallContext, Position};

use super::call_odds::{CallOdds, Outcome};
use super::chance::Chance;
use super::liveness::{Liveness, Slots as LiveSlots, Writes, writes};
use super::markov::Chain;
use super::states::{
    Kept, St, clear_and_merge, clear_and_merge_among, cleared, merge, merge_by_slot, same_state, state_hash,
    world_blind,
};
use super::walk::Walk;
use crate::dice::{DiceError, Enumerator};
use crate::script::budget::Meter;
use crate::script::compiled::Table;
use crate::script::compiled::code::{Code, Ex, Function};
use crate::script::compiled::runner::{Flow, Runner, Slots};
use crate::script::fingerprint::{hash_value, same_value};
use crate::script::state::Shared;
use crate::script::world::World;

type R<T> = Result<T, Box<EvalAltResult>>;

/// Most dice one statement may roll for one state before its replays are cut off.
const STEP_DEPTH: usize = 64;

/// Most replays of one statement for one state.
const STEP_OUTCOMES: u64 = 2_000_000;

/// Most distinct states at the head of one loop.
const LOOP_STATES: usize = 20_000;

/// The states leaving a block, by how they left.
#[derive(Default)]
struct Flows {
    normal: Vec<St>,
    breaks: Vec<St>,
    continues: Vec<St>,
    returns: Vec<St>,
    /// Whether states that were different may have become the same: a state branched, its
    /// world changed, or a statement wrote more than a new variable. Else merging can find nothing.
    joined: bool,
}

impl Flows {
    fn absorb(&mut self, other: Flows) {
        self.normal.extend(other.normal);
        self.breaks.extend(other.breaks);
        self.continues.extend(other.continues);
        self.returns.extend(other.returns);
        self.joined |= other.joined;
    }
}

/// What a walk of one function needs: the calling context, the compiled functions, the shared state.
pub struct Engine<'a, 'c> {
    pub ctx: &'a NativeCallContext<'c>,
    pub table: &'a Table,
    pub state: &'a Shared,
    pub meter: &'a Meter,
    pub walk: &'a Walk,
    /// The chance cut off by replays that rolled too many dice.
    residual: std::cell::RefCell<Chance>,
}

impl<'a, 'c> Engine<'a, 'c> {
    pub fn new(
        ctx: &'a NativeCallContext<'c>,
        table: &'a Table,
        state: &'a Shared,
        meter: &'a Meter,
        walk: &'a Walk,
    ) -> Self {
        Engine { ctx, table, state, meter, walk, residual: std::cell::RefCell::new(Chance::zero()) }
    }

    /// The exact distribution of what `f` returns on `args`, and of the world it leaves.
    pub fn distribution(&self, f: &Function, args: Slots) -> R<CallOdds> {
        let tracing = self.state.borrow().tracing;
        let live = self.walk.liveness(f, self.table, self.ctx, tracing);
        let mut slots = args;
        slots.resize(f.slots, Dynamic::UNIT);
        let world = World::current(self.state, slots.iter());
        let start = St { slots, world, weight: Chance::one(), value: Dynamic::UNIT };
        let flows = self.block(&live, &f.body, vec![start])?;
        let mut ends: Vec<St> = Vec::new();
        // What goes back to the caller: the value, and a method's receiver (its slot 0).
        let kept = usize::from(f.method);
        for mut st in flows.normal.into_iter().chain(flows.returns) {
            st.slots.truncate(kept);
            ends.push(st);
        }
        for mut st in flows.breaks.into_iter().chain(flows.continues) {
            st.slots.truncate(kept);
            st.value = Dynamic::UNIT;
            ends.push(st);
        }
        let ends = merge(ends, None);
        let residual = self.residual.borrow().clone();
        let ends = ends.into_iter().map(|mut st| {
            let receiver = st.slots.pop();
            (Outcome { value: st.value, world: st.world, receiver }, st.weight)
        });
        Ok(CallOdds::new(ends.collect(), residual))
    }

    fn block(&self, live: &Liveness, code: &[Code], states: Vec<St>) -> R<Flows> {
        let mut flows = Flows::default();
        let mut current = states;
        if code.is_empty() {
            for st in &mut current {
                st.value = Dynamic::UNIT;
            }
        }
        // While the states all come from one state in one world, through statements that kept
        // the world and wrote only these slots, they can differ only there: merging compares those.
        let mut varying = (current.len() == 1).then(LiveSlots::default);
        let mut i = 0;
        while let Some(stmt) = code.get(i) {
            if current.is_empty() {
                break;
            }
            if let (Some(v), Some(second)) = (&mut varying, code.get(i + 1))
                && let Some(states) = self.fused(live, stmt, second, &current, v)?
            {
                current = states;
                i += 2;
                continue;
            }
            i += 1;
            let world = current[0].world.clone();
            // A quiet note is skipped: its value is nothing, as a note's.
            let mut out = if live.is_quiet(stmt) {
                for st in &mut current {
                    st.value = Dynamic::UNIT;
                }
                Flows { normal: current, ..Flows::default() }
            } else {
                self.stmt(live, stmt, current)?
            };
            current = std::mem::take(&mut out.normal);
            let joined = std::mem::take(&mut out.joined);
            flows.absorb(out);
            if i < code.len() {
                for st in &mut current {
                    st.value = Dynamic::UNIT;
                }
            }
            varying = match (varying, writes(stmt)) {
                (Some(_), _) if current.iter().any(|st| !Rc::ptr_eq(&st.world, &world)) => None,
                (Some(v), Writes::Nothing) => Some(v),
                (Some(mut v), Writes::Slot(slot)) => {
                    v.insert(slot);
                    Some(v)
                }
                _ => None,
            };
            current = match &varying {
                Some(varying) => clear_and_merge_among(current, live.after(stmt), varying, joined),
                None if joined => merge(current, live.after(stmt)),
                None => clear_and_merge(current, live.after(stmt)),
            };
        }
        flows.normal = current;
        Ok(flows)
    }

    fn stmt(&self, live: &Liveness, stmt: &Code, states: Vec<St>) -> R<Flows> {
        let mut flows = Flows::default();
        match stmt {
            Code::If(guard, then, otherwise, pos) => {
                let (yes, no) = self.split(states, guard, *pos)?;
                flows.absorb(self.block(live, then, yes)?);
                flows.absorb(self.block(live, otherwise, no)?);
                // A state from each arm may meet.
                flows.joined = true;
            }
            Code::While(guard, body, pos) => {
                flows = self.looped(live, stmt, guard.as_ref(), body, *pos, states)?;
                flows.joined = true;
            }
            Code::Block(code) => {
                flows = self.block(live, code, states)?;
                flows.joined = true;
            }
            Code::Break => flows.breaks = states,
            Code::Continue => flows.continues = states,
            _ => {
                let branches = self.walk.may_branch(self.table, stmt);
                // Distinct states stay distinct through a `let` of a new variable that leaves
                // the world as it was: only the outcomes of one state, by the new variable,
                // can be the same.
                let new_slot = match stmt {
                    Code::Let(slot, _) => Some(*slot),
                    _ => None,
                };
                flows.joined = new_slot.is_none();
                // A `let` that rolls, for states alike in what it reads: worked out once.
                let mut shared = match (new_slot, live.let_reads(stmt)) {
                    (Some(slot), Some(reads)) if branches && states.len() > 1 => Some(LetKinds::new(slot, reads)),
                    _ => None,
                };
                for st in states {
                    let world = st.world.clone();
                    let mut outcomes = match &mut shared {
                        Some(shared) => shared.outcomes(self, st, |r, slots| r.stmt(stmt, slots))?,
                        None => self.replay(st, branches, |r, slots| r.stmt(stmt, slots))?,
                    };
                    let same_world = outcomes.iter().all(|(n, _)| Rc::ptr_eq(&n.world, &world));
                    flows.joined |= !same_world || (new_slot.is_none() && outcomes.len() > 1);
                    if let (Some(slot), true) = (new_slot, same_world && outcomes.len() > 1 && shared.is_none()) {
                        outcomes = merge_by_slot(outcomes, slot);
                    }
                    for (mut next, flow) in outcomes {
                        match flow {
                            Flow::Value(v) => {
                                next.value = v;
                                flows.normal.push(next);
                            }
                            Flow::Break => flows.breaks.push(next),
                            Flow::Continue => flows.continues.push(next),
                            Flow::Return(v) => {
                                next.value = v;
                                flows.returns.push(next);
                            }
                        }
                    }
                }
            }
        }
        Ok(flows)
    }

    /// `let a = roll(..); let b = f(a, ..)` where `a` (or another variable that differs from
    /// state to state) dies after `b`: the states after both, merged, without making a state for
    /// each way the roll falls. The roll's outcomes are worked out once for each kind of state
    /// (`LetKinds`); `b` is worked out for each of them in one scratch copy of the state, and a
    /// state is made only for each distinct set of values still read. None where this does not
    /// apply (the second `let` may branch, call, change the world or a slot beside its own, or
    /// nothing that differs dies), and the two run one after the other. The two variables
    /// join `varying` when it applies.
    fn fused(
        &self,
        live: &Liveness,
        first: &Code,
        second: &Code,
        states: &[St],
        varying: &mut LiveSlots,
    ) -> R<Option<Vec<St>>> {
        let (Code::Let(s1, _), Code::Let(s2, value)) = (first, second) else { return Ok(None) };
        let (Some(reads), Some(after)) = (live.let_reads(first), live.after(second)) else { return Ok(None) };
        if !self.walk.may_branch(self.table, first)
            || self.walk.may_branch(self.table, second)
            || !world_blind(value)
            || !varying.iter().chain([*s1]).any(|slot| !after.contains(slot))
        {
            return Ok(None);
        }
        let world = states[0].world.clone();
        let mut kinds = LetKinds::new(*s1, reads);
        let mut at = Vec::with_capacity(states.len());
        for st in states {
            at.push(kinds.kind_of(self, st, |r, slots| r.stmt(first, slots))?);
        }
        let kept_world = kinds.kinds.items.iter().all(|k| {
            k.outcomes.iter().all(|(next, flow)| Rc::ptr_eq(&next.world, &world) && matches!(flow, Flow::Value(_)))
        });
        if !kept_world {
            return Ok(None);
        }
        varying.insert(*s1);
        varying.insert(*s2);
        let keys: Vec<usize> = varying.iter().filter(|&slot| after.contains(slot)).collect();
        let saved = std::mem::replace(&mut *self.walk.dice.borrow_mut(), Enumerator::new(STEP_DEPTH));
        world.install(self.state);
        let mut runner = Runner {
            ctx: self.ctx,
            table: self.table,
            state: self.state,
            meter: self.meter,
            depth: 0,
            seam: Some(self.walk),
        };
        let mut out: Kept<St> = Kept::with_capacity(states.len());
        let mut result = Ok(());
        'states: for (st, &at) in states.iter().zip(&at) {
            let kind = &kinds.kinds.items[at];
            if kind.cut != Chance::zero() {
                self.residual.borrow_mut().add(&st.weight.times(&kind.cut));
            }
            let mut scratch = st.slots.clone();
            for (next, _) in &kind.outcomes {
                scratch[*s1] = next.slots[*s1].clone();
                if let Err(err) = runner.stmt(second, &mut scratch) {
                    result = Err(err);
                    break 'states;
                }
                let mut hasher = ahash::AHasher::default();
                let hashed = keys.iter().all(|&i| hash_value(&scratch[i], &mut hasher));
                let weight = st.weight.times(&next.weight);
                let same = |kept: &St| keys.iter().all(|&i| same_value(&kept.slots[i], &scratch[i]));
                let hash = hashed.then(|| hasher.finish());
                match out.find(hash, same) {
                    Some(i) => out.items[i].weight.add(&weight),
                    None => {
                        let made = St { slots: scratch.clone(), world: world.clone(), weight, value: Dynamic::UNIT };
                        out.keep(hash, cleared(made, Some(after)));
                    }
                }
            }
        }
        let branched = self.walk.dice.borrow_mut().branched();
        *self.walk.dice.borrow_mut() = saved;
        result?;
        if branched {
            return Err(crate::script::error::unsupported("a step thought not to roll rolled".to_string()));
        }
        if !Rc::ptr_eq(&World::capture(self.state, std::iter::empty(), Some(&world)), &world) {
            return Err(crate::script::error::unsupported(
                "a step thought not to change the world changed it".to_string(),
            ));
        }
        Ok(Some(out.items))
    }

    /// The states after working out `guard` for each of `states`: those where it held, and the others.
    fn split(&self, states: Vec<St>, guard: &Ex, pos: Position) -> R<(Vec<St>, Vec<St>)> {
        let (mut yes, mut no) = (Vec::new(), Vec::new());
        let branches = self.walk.guard_may_branch(self.table, guard);
        for st in states {
            for (next, flow) in
                self.replay(st, branches, |r, slots| r.guard(guard, slots, pos).map(|b| Flow::Value(Dynamic::from(b))))?
            {
                match flow {
                    Flow::Value(v) if v.as_bool() == Ok(true) => yes.push(next),
                    _ => no.push(next),
                }
            }
        }
        Ok((yes, no))
    }

    /// `while` and `loop`: a chain over the distinct states at the loop's head.
    fn looped(
        &self,
        live: &Liveness,
        stmt: &Code,
        guard: Option<&(Ex, Position)>,
        body: &[Code],
        pos: Position,
        states: Vec<St>,
    ) -> R<Flows> {
        let head_live = live.at_loop_head(stmt);
        let mut chain = Chain::default();
        // The ways out of the loop from each head state, each with its chance from one visit.
        let mut exits: Vec<(usize, St)> = Vec::new();
        let mut leaves: Vec<(usize, St)> = Vec::new();
        // Each distinct head state once, with a chance of 1: it is run through the body from there.
        let mut heads: Kept<St> = Kept::with_capacity(states.len());
        let find = |st: St, heads: &mut Kept<St>| -> (usize, bool) {
            let mut st = cleared(st, head_live);
            st.value = Dynamic::UNIT;
            let hash = state_hash(&st);
            match heads.find_or_keep(hash, St { weight: Chance::one(), ..st }, same_state) {
                Some((at, _)) => (at, false),
                None => (heads.items.len() - 1, true),
            }
        };
        let mut queue = std::collections::VecDeque::new();
        for st in states {
            let weight = st.weight.clone();
            let (at, new) = find(st, &mut heads);
            chain.start(at, weight.big());
            if new {
                queue.push_back(at);
            }
        }
        while let Some(at) = queue.pop_front() {
            if heads.items.len() > LOOP_STATES {
                return Err(crate::script::error::unsupported(format!(
                    "a loop reaches more than {LOOP_STATES} different states"
                )));
            }
            self.meter.tick_at(pos)?;
            let head = heads.items[at].clone();
            let (go, stop) = match guard {
                None => (vec![head], Vec::new()),
                Some((guard, at_guard)) => self.split(vec![head], guard, *at_guard)?,
            };
            let flows = self.block(live, body, go)?;
            for mut st in stop.into_iter().chain(flows.breaks) {
                st.value = Dynamic::UNIT;
                exits.push((at, st));
            }
            for st in flows.returns {
                leaves.push((at, st));
            }
            for st in flows.normal.into_iter().chain(flows.continues) {
                let weight = st.weight.clone();
                let (next, new) = find(st, &mut heads);
                chain.step(at, next, weight.big());
                if new {
                    queue.push_back(next);
                }
            }
        }
        // Each way out happens as often as its head state is visited.
        let visits = chain.visits(heads.items.len()).map_err(crate::script::error::unsupported)?;
        let visits: Vec<Option<Chance>> =
            visits.into_iter().map(|v| (!num_traits::Zero::is_zero(&v)).then(|| Chance::from_big(v))).collect();
        let weighed = |ways: Vec<(usize, St)>| -> Vec<St> {
            ways.into_iter()
                .filter_map(|(from, st)| visits[from].as_ref().map(|v| St { weight: st.weight.times(v), ..st }))
                .collect()
        };
        let mut flows = Flows { normal: weighed(exits), returns: weighed(leaves), ..Flows::default() };
        flows.normal = merge(flows.normal, None);
        Ok(flows)
    }

    /// Runs `step` for `st` once for every way its dice and choices fall; each run starts from
    /// `st` as it is, and yields the state it leaves, with its chance, and how the step ended.
    /// A step that cannot branch (`branches` false) runs once, on `st` itself: should it
    /// branch all the same, the walk gives up rather than guess.
    fn replay(
        &self,
        st: St,
        branches: bool,
        mut step: impl FnMut(&mut Runner, &mut [Dynamic]) -> R<Flow>,
    ) -> R<Vec<(St, Flow)>> {
        let saved = std::mem::replace(&mut *self.walk.dice.borrow_mut(), Enumerator::new(STEP_DEPTH));
        let result = if branches { self.replay_all(&st, &mut step) } else { self.run_once(st, &mut step) };
        *self.walk.dice.borrow_mut() = saved;
        result
    }

    /// `replay` of a step that cannot branch: once, on the state itself.
    fn run_once(&self, st: St, step: &mut dyn FnMut(&mut Runner, &mut [Dynamic]) -> R<Flow>) -> R<Vec<(St, Flow)>> {
        let St { mut slots, world, weight, .. } = st;
        world.install(self.state);
        let mut runner = Runner {
            ctx: self.ctx,
            table: self.table,
            state: self.state,
            meter: self.meter,
            depth: 0,
            seam: Some(self.walk),
        };
        let flow = step(&mut runner, &mut slots);
        let branched = self.walk.dice.borrow_mut().branched();
        if branched {
            return Err(crate::script::error::unsupported("a step thought not to roll rolled".to_string()));
        }
        let flow = flow?;
        let world = World::capture(self.state, slots.iter().chain(flow.value()), Some(&world));
        Ok(vec![(St { slots, world, weight, value: Dynamic::UNIT }, flow)])
    }

    fn replay_all(&self, st: &St, step: &mut dyn FnMut(&mut Runner, &mut [Dynamic]) -> R<Flow>) -> R<Vec<(St, Flow)>> {
        let mut out = Vec::new();
        let mut runs = 0u64;
        loop {
            self.walk.dice.borrow_mut().begin_run();
            st.world.install(self.state);
            let mut slots = st.slots.clone();
            let mut runner = Runner {
                ctx: self.ctx,
                table: self.table,
                state: self.state,
                meter: self.meter,
                depth: 0,
                seam: Some(self.walk),
            };
            let flow = step(&mut runner, &mut slots);
            let end = self.walk.dice.borrow_mut().end_run();
            let end = match end {
                Ok(end) => end,
                Err(err) => return Err(dice_error(self.state, err)),
            };
            // Most steps roll nothing: their state keeps its chance as it is.
            let weight = if end.weight_num == end.weight_den {
                st.weight.clone()
            } else {
                st.weight.times(&Chance::ratio(&end.weight_num, &end.weight_den))
            };
            if end.cut_off {
                self.residual.borrow_mut().add(&weight);
            } else {
                let flow = flow?;
                // A deck made and returned (`new_deck(cards)` as the last statement) is in the world too.
                let world = World::capture(self.state, slots.iter().chain(flow.value()), Some(&st.world));
                out.push((St { slots, world, weight, value: Dynamic::UNIT }, flow));
            }
            runs += 1;
            let more = self.walk.dice.borrow_mut().advance();
            if !more {
                return Ok(out);
            }
            if runs >= STEP_OUTCOMES {
                return Err(crate::script::error::unsupported(format!(
                    "one step has more than {STEP_OUTCOMES} outcomes"
                )));
            }
        }
    }
}

/// The outcomes of one `let` that rolls, for states alike in the slots it reads and in their
/// world: those behave alike, so the `let` is replayed once for each kind of state, from a
/// chance of 1, and its outcomes are given to every state of that kind, the new variable's
/// value beside the state's own slots, at the state's chance.
struct LetKinds<'r> {
    slot: usize,
    reads: &'r [usize],
    /// Each kind of state met, found by a hash of the world and the slots read.
    kinds: Kept<Kind>,
}

/// A kind of state for a `let`: a state of it, the `let`'s outcomes from it (merged by the new
/// variable, from a chance of 1), and the chance its replays cut off.
struct Kind {
    state: St,
    outcomes: Vec<(St, Flow)>,
    cut: Chance,
}

impl<'r> LetKinds<'r> {
    fn new(slot: usize, reads: &'r [usize]) -> Self {
        LetKinds { slot, reads, kinds: Kept::with_capacity(4) }
    }

    /// The kind of `st`, its `let` worked out when it is the first of its kind.
    fn kind_of(
        &mut self,
        engine: &Engine,
        st: &St,
        step: impl FnMut(&mut Runner, &mut [Dynamic]) -> R<Flow>,
    ) -> R<usize> {
        let mut hasher = ahash::AHasher::default();
        hasher.write_usize(Rc::as_ptr(&st.world) as usize);
        let hashed = self.reads.iter().all(|&i| hash_value(&st.slots[i], &mut hasher));
        let reads = self.reads;
        let hash = hashed.then(|| hasher.finish());
        let alike = |kind: &Kind| {
            Rc::ptr_eq(&kind.state.world, &st.world)
                && reads.iter().all(|&i| same_value(&kind.state.slots[i], &st.slots[i]))
        };
        if let Some(at) = self.kinds.find(hash, alike) {
            return Ok(at);
        }
        // Replayed from a chance of 1: what it cuts off is kept aside, then weighed by each state.
        let first = St { weight: Chance::one(), value: Dynamic::UNIT, ..st.clone() };
        let residual = std::mem::take(&mut *engine.residual.borrow_mut());
        let replayed = engine.replay(first.clone(), true, step);
        let cut = std::mem::replace(&mut *engine.residual.borrow_mut(), residual);
        let mut outcomes = replayed?;
        if outcomes.len() > 1 {
            outcomes = merge_by_slot(outcomes, self.slot);
        }
        self.kinds.keep(hash, Kind { state: first, outcomes, cut });
        Ok(self.kinds.items.len() - 1)
    }

    fn outcomes(
        &mut self,
        engine: &Engine,
        st: St,
        step: impl FnMut(&mut Runner, &mut [Dynamic]) -> R<Flow>,
    ) -> R<Vec<(St, Flow)>> {
        let at = self.kind_of(engine, &st, step)?;
        let Kind { outcomes, cut, .. } = &self.kinds.items[at];
        if *cut != Chance::zero() {
            engine.residual.borrow_mut().add(&st.weight.times(cut));
        }
        Ok(outcomes
            .iter()
            .map(|(next, flow)| {
                let mut slots = st.slots.clone();
                slots[self.slot] = next.slots[self.slot].clone();
                let value = next.value.clone();
                let weight = st.weight.times(&next.weight);
                (St { slots, world: next.world.clone(), weight, value }, flow.clone())
            })
            .collect())
    }
}

/// A dice error from the walk, kept whole for the report.
fn dice_error(state: &Shared, err: DiceError) -> Box<EvalAltResult> {
    let message = err.to_string();
    state.borrow_mut().dice_error = Some(err);
    EvalAltResult::ErrorRuntime(message.into(), Position::NONE).into()
}
