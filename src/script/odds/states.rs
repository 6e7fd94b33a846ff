//! The states an exact walk carries through a compiled function: one state (`St`: its slots,
//! its world, its chance), and states merged when alike: after each statement the slots nobody
//! reads again are cleared, and states that are then the same add their chances.

use std::hash::Hasher;
use std::rc::Rc;

use ahash::AHashMap as HashMap;
use rhai::Dynamic;

use super::chance::Chance;
use super::liveness::Slots as LiveSlots;
use crate::script::compiled::code::Ex;
use crate::script::compiled::runner::{Flow, Slots};
use crate::script::fingerprint::{hash_value, same_value};
use crate::script::world::World;

/// One state of a function being walked: its slots, its world, its chance, and the value of
/// the statement just run (kept only for the last statement of a block: it may be the block's value).
#[derive(Clone)]
pub struct St {
    pub slots: Slots,
    pub world: Rc<World>,
    pub weight: Chance,
    pub value: Dynamic,
}

/// Whether working out `ex` can neither change the world nor any slot, nor branch: constants,
/// variables, properties, operators (which no script can define again) and the like; no call
/// of a procedure or a function by name.
pub(super) fn world_blind(ex: &Ex) -> bool {
    match ex {
        Ex::Const(_) | Ex::Var(_) => true,
        Ex::Move(_) | Ex::Block(_) | Ex::Method(..) => false,
        Ex::Call(crate::script::compiled::code::Callee::Other(name, None), ..) if super::pure::is_operator(name) => {
            !ex.any_child(&mut |e| !world_blind(e))
        }
        Ex::Call(..) => false,
        _ => !ex.any_child(&mut |e| !world_blind(e)),
    }
}

/// `st` with the slots nobody reads again cleared.
pub(super) fn cleared(mut st: St, live: Option<&LiveSlots>) -> St {
    if let Some(live) = live {
        for (i, v) in st.slots.iter_mut().enumerate() {
            if !live.contains(i) && !v.is_unit() {
                *v = Dynamic::UNIT;
            }
        }
    }
    st
}

/// A hash of a state's slots, value and world; none when a value cannot be compared.
pub(super) fn state_hash(st: &St) -> Option<u64> {
    let mut hasher = ahash::AHasher::default();
    hasher.write_u64(st.world.hash());
    let comparable = st.slots.iter().all(|v| hash_value(v, &mut hasher)) && hash_value(&st.value, &mut hasher);
    comparable.then(|| hasher.finish())
}

pub(super) fn same_state(a: &St, b: &St) -> bool {
    a.slots.len() == b.slots.len()
        && World::same(&a.world, &b.world)
        && same_value(&a.value, &b.value)
        && a.slots.iter().zip(&b.slots).all(|(x, y)| same_value(x, y))
}

/// The outcomes of one state's `let`, those that are the same merged: found by the new
/// variable's value (every other slot and the world came from the one state).
pub(super) fn merge_by_slot(outcomes: Vec<(St, Flow)>, slot: usize) -> Vec<(St, Flow)> {
    let mut kept = Kept::with_capacity(outcomes.len());
    for (st, flow) in outcomes {
        let hash = match (&flow, st.slots.get(slot)) {
            (Flow::Value(_), Some(value)) => {
                let mut hasher = ahash::AHasher::default();
                hash_value(value, &mut hasher).then(|| hasher.finish())
            }
            _ => None,
        };
        if let Some((i, (st, _))) = kept.find_or_keep(hash, (st, flow), |a, b| same_state(&a.0, &b.0)) {
            kept.items[i].0.weight.add(&st.weight);
        }
    }
    kept.items
}

/// Items kept in the order first seen, each found again by its hash, then by comparing.
pub(super) struct Kept<T> {
    pub(super) items: Vec<T>,
    /// The first item kept with each hash, and after each item the next kept with its hash.
    pub(super) first: HashMap<u64, usize>,
    pub(super) next: Vec<Option<usize>>,
}

impl<T> Kept<T> {
    pub(super) fn with_capacity(n: usize) -> Self {
        Kept { items: Vec::with_capacity(n), first: HashMap::with_capacity(n), next: Vec::with_capacity(n) }
    }

    /// The index of the item kept already that `same` finds equal to `item`, with `item`
    /// given back; else `item` is kept (one without a hash is never found again).
    pub(super) fn find_or_keep(
        &mut self,
        hash: Option<u64>,
        item: T,
        same: impl Fn(&T, &T) -> bool,
    ) -> Option<(usize, T)> {
        match self.find(hash, |kept| same(kept, &item)) {
            Some(i) => Some((i, item)),
            None => {
                self.keep(hash, item);
                None
            }
        }
    }

    /// The index of the item kept with `hash` that `same` holds for.
    pub(super) fn find(&self, hash: Option<u64>, same: impl Fn(&T) -> bool) -> Option<usize> {
        let mut at = self.first.get(&hash?).copied();
        while let Some(i) = at {
            if same(&self.items[i]) {
                return Some(i);
            }
            at = self.next[i];
        }
        None
    }

    /// Keeps `item`, one not found already.
    pub(super) fn keep(&mut self, hash: Option<u64>, item: T) {
        let at = self.items.len();
        self.items.push(item);
        self.next.push(None);
        let Some(hash) = hash else { return };
        match self.first.get(&hash).copied() {
            None => {
                self.first.insert(hash, at);
            }
            Some(mut last) => {
                while let Some(next) = self.next[last] {
                    last = next;
                }
                self.next[last] = Some(at);
            }
        }
    }
}

/// The states with dead slots cleared; merged only when clearing changed one (they were distinct).
pub(super) fn clear_and_merge(mut states: Vec<St>, live: Option<&LiveSlots>) -> Vec<St> {
    let Some(live) = live else { return states };
    let dying = |st: &St| st.slots.iter().enumerate().any(|(i, v)| !live.contains(i) && !v.is_unit());
    if states.len() > 1 && states.iter().any(dying) {
        return merge(states, Some(live));
    }
    if states.len() == 1 {
        states = merge(states, Some(live));
    }
    states
}

/// The states with dead slots cleared, and merged when they are several: states that differ
/// only in the `varying` slots (and the value of the statement just run) are compared there.
pub(super) fn clear_and_merge_among(
    states: Vec<St>,
    live: Option<&LiveSlots>,
    varying: &LiveSlots,
    joined: bool,
) -> Vec<St> {
    // States that differ in a live slot stay apart, unless a statement's outcomes may have met.
    let dying = |st: &St| live.is_some_and(|live| varying.iter().any(|i| !live.contains(i) && !st.slots[i].is_unit()));
    if states.len() < 2 || !joined && !states.iter().any(dying) {
        return states.into_iter().map(|st| cleared(st, live)).collect();
    }
    let mut kept = Kept::with_capacity(states.len());
    for st in states {
        let st = cleared(st, live);
        let mut hasher = ahash::AHasher::default();
        let hashed =
            varying.iter().all(|i| hash_value(&st.slots[i], &mut hasher)) && hash_value(&st.value, &mut hasher);
        let same = |a: &St, b: &St| {
            same_value(&a.value, &b.value) && varying.iter().all(|i| same_value(&a.slots[i], &b.slots[i]))
        };
        if let Some((i, st)) = kept.find_or_keep(hashed.then(|| hasher.finish()), st, same) {
            kept.items[i].weight.add(&st.weight);
        }
    }
    kept.items
}

/// The states with dead slots cleared, the same ones merged (their chances added), in first-seen order.
pub fn merge(states: Vec<St>, live: Option<&LiveSlots>) -> Vec<St> {
    if states.len() < 2 {
        return states.into_iter().map(|st| cleared(st, live)).collect();
    }
    let mut kept = Kept::with_capacity(states.len());
    for st in states {
        let st = cleared(st, live);
        let hash = state_hash(&st);
        if let Some((i, st)) = kept.find_or_keep(hash, st, same_state) {
            kept.items[i].weight.add(&st.weight);
        }
    }
    kept.items
}
