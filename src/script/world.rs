//! `World`: what a script can change outside its local variables (units, leaders, decks, a study's observations), captured and put back.
//!
//! An exact walk follows many states at once, but the bindings act on one set
//! of units: before a step runs for a state, its world is installed into the
//! shared handles; after, the world is captured again. A step that changed
//! nothing keeps the world it had (the same `Rc`), so most comparisons are one
//! pointer.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use rhai::Dynamic;

use crate::cards::Deck;
use crate::script::handles::DeckRef;
use crate::script::handles::{LeaderRef, UnitRef, edits};
use crate::script::state::{Observations, Shared};
use crate::unit::{Leader, Unit};

/// Every unit, leader and deck a state can reach, with their values, and what the study counted.
#[derive(Debug)]
pub struct World {
    units: BTreeMap<String, UnitRef>,
    leaders: BTreeMap<String, LeaderRef>,
    unit_values: Vec<Unit>,
    leader_values: Vec<Leader>,
    /// Decks reached from the state's values (they are in no registry), each with its cards.
    decks: Vec<(DeckRef, Deck)>,
    observations: Observations,
    hash: u64,
    /// Which world this is, for `LIVE`.
    id: u64,
}

thread_local! {
    /// The world the shared handles hold now, by id, and the count of writes then
    /// (`handles::edits`): while neither moves, capturing or installing it again is free.
    static LIVE: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
    /// The last world id given.
    static IDS: Cell<u64> = const { Cell::new(0) };
    /// The world `LIVE` names, while it is kept.
    static LIVE_WORLD: std::cell::RefCell<std::rc::Weak<World>> = const { std::cell::RefCell::new(std::rc::Weak::new()) };
}

fn next_id() -> u64 {
    IDS.with(|ids| {
        ids.set(ids.get() + 1);
        ids.get()
    })
}

fn live_is(id: u64) -> bool {
    LIVE.with(Cell::get) == (id, edits())
}

fn set_live(id: u64) {
    LIVE.with(|live| live.set((id, edits())));
}

fn set_live_world(world: &Rc<World>) {
    set_live(world.id);
    LIVE_WORLD.with(|w| *w.borrow_mut() = Rc::downgrade(world));
}

impl World {
    /// The world as it stands now, for a state whose values are `values`. When it equals
    /// `before` in every part, `before` itself is returned.
    pub fn capture<'a>(
        state: &Shared,
        values: impl Iterator<Item = &'a Dynamic>,
        before: Option<&Rc<World>>,
    ) -> Rc<World> {
        // Nothing written since `before` was put in place or taken: it is still what stands.
        // (A new deck counts as a write: see `DeckRef::new`.)
        if let Some(before) = before
            && live_is(before.id)
        {
            return before.clone();
        }
        let st = state.borrow();
        // A deck once reached stays in the world: a branch that drew from it must find it put back.
        let mut decks: Vec<(DeckRef, Deck)> =
            before.map_or_else(Vec::new, |b| b.decks.iter().map(|(d, _)| (d.clone(), d.0.borrow().clone())).collect());
        for value in values {
            collect_decks(value, &mut decks);
        }
        if let Some(before) = before
            && before.units.len() == st.units.len()
            && before.leaders.len() == st.leaders.len()
            && before.units.iter().zip(&st.units).all(|(a, b)| a.0 == b.0 && Rc::ptr_eq(&a.1.0, &b.1.0))
            && before.leaders.iter().zip(&st.leaders).all(|(a, b)| a.0 == b.0 && Rc::ptr_eq(&a.1.0, &b.1.0))
            && before.units.values().zip(&before.unit_values).all(|(h, v)| *h.0.borrow() == *v)
            && before.leaders.values().zip(&before.leader_values).all(|(h, v)| *h.0.borrow() == *v)
            && before.decks.len() == decks.len()
            && before.decks.iter().zip(&decks).all(|(a, b)| Rc::ptr_eq(&a.0.0, &b.0.0) && a.1 == b.1)
            && before.observations == st.observations
        {
            drop(st);
            set_live_world(before);
            return before.clone();
        }
        let unit_values: Vec<Unit> = st.units.values().map(|u| u.0.borrow().clone()).collect();
        let leader_values: Vec<Leader> = st.leaders.values().map(|l| l.0.borrow().clone()).collect();
        let mut world = World {
            units: st.units.clone(),
            leaders: st.leaders.clone(),
            unit_values,
            leader_values,
            decks,
            observations: st.observations.clone(),
            hash: 0,
            id: next_id(),
        };
        world.hash = world.content_hash();
        let world = Rc::new(world);
        set_live_world(&world);
        world
    }

    /// The world as it stands now, for `values`: the one last put in place or taken, when
    /// nothing was written since and it holds every deck `values` reach; else taken afresh.
    pub fn current<'a>(state: &Shared, values: impl Iterator<Item = &'a Dynamic> + Clone) -> Rc<World> {
        let known = LIVE_WORLD.with(|w| w.borrow().upgrade()).filter(|w| live_is(w.id));
        if let Some(world) = known {
            let mut decks = Vec::new();
            for value in values.clone() {
                collect_decks(value, &mut decks);
            }
            if decks.iter().all(|(d, _)| world.decks.iter().any(|(w, _)| Rc::ptr_eq(&w.0, &d.0))) {
                return world;
            }
        }
        World::capture(state, values, None)
    }

    /// Puts this world's values back into the shared handles and registries.
    pub fn install(self: &Rc<Self>, state: &Shared) {
        if live_is(self.id) {
            return;
        }
        for (handle, value) in self.units.values().zip(&self.unit_values) {
            let mut unit = handle.edit();
            if *unit != *value {
                unit.clone_from(value);
            }
        }
        for (handle, value) in self.leaders.values().zip(&self.leader_values) {
            let mut leader = handle.edit();
            if *leader != *value {
                leader.clone_from(value);
            }
        }
        for (handle, value) in &self.decks {
            let mut deck = handle.edit();
            if *deck != *value {
                deck.clone_from(value);
            }
        }
        let mut st = state.borrow_mut();
        if !same_registry(&st.units, &self.units) {
            st.units = self.units.clone();
        }
        if !same_registry(&st.leaders, &self.leaders) {
            st.leaders = self.leaders.clone();
        }
        if st.observations != self.observations {
            st.observations = self.observations.clone();
        }
        crate::script::handles::units_written();
        drop(st);
        set_live_world(self);
    }

    /// Puts this world's values into the units and leaders of the same ids that stand now (a
    /// call worked out once, put back in a replay that made its units afresh); returns
    /// `value` with its units and leaders read as those. Decks must be the same handles.
    pub fn install_by_id(&self, state: &Shared, value: &Dynamic) -> Dynamic {
        let (units, leaders) = {
            let st = state.borrow();
            let units: BTreeMap<String, UnitRef> =
                self.units.iter().map(|(id, h)| (id.clone(), st.units.get(id).unwrap_or(h).clone())).collect();
            let leaders: BTreeMap<String, LeaderRef> =
                self.leaders.iter().map(|(id, h)| (id.clone(), st.leaders.get(id).unwrap_or(h).clone())).collect();
            (units, leaders)
        };
        for (handle, value) in units.values().zip(&self.unit_values) {
            *handle.edit() = value.clone();
        }
        for (handle, value) in leaders.values().zip(&self.leader_values) {
            *handle.edit() = value.clone();
        }
        for (handle, value) in &self.decks {
            *handle.edit() = value.clone();
        }
        let value = rehandle(value, &units, &leaders);
        let mut st = state.borrow_mut();
        st.units = units;
        st.leaders = leaders;
        st.observations = self.observations.clone();
        crate::script::handles::units_written();
        value
    }

    /// Whether two worlds hold units and leaders of the same ids and values (what they counted
    /// and their decks are not compared).
    pub fn same_ids_and_values(a: &World, b: &World) -> bool {
        a.units.keys().eq(b.units.keys())
            && a.leaders.keys().eq(b.leaders.keys())
            && a.unit_values == b.unit_values
            && a.leader_values == b.leader_values
    }

    /// Whether two worlds hold units and leaders of the same ids, and decks, and counted the
    /// same: `after` is what a call left of `before` when it made, removed or counted nothing.
    pub fn same_ids_and_counts(before: &World, after: &World) -> bool {
        before.units.keys().eq(after.units.keys())
            && before.leaders.keys().eq(after.leaders.keys())
            && before.decks.len() == after.decks.len()
            && before.observations == after.observations
    }

    /// Whether the world holds any deck.
    pub fn has_decks(&self) -> bool {
        !self.decks.is_empty()
    }

    /// Whether the units and leaders that stand now are this world's, under the same ids and of
    /// the same values, and this world holds no deck (what was counted is not compared): read
    /// where they stand, nothing copied.
    pub fn is_standing(&self, state: &Shared) -> bool {
        let st = state.borrow();
        self.decks.is_empty()
            && st.units.len() == self.units.len()
            && st.leaders.len() == self.leaders.len()
            && st
                .units
                .iter()
                .zip(self.units.keys().zip(&self.unit_values))
                .all(|((id, h), (my_id, v))| id == my_id && *h.0.borrow() == *v)
            && st
                .leaders
                .iter()
                .zip(self.leaders.keys().zip(&self.leader_values))
                .all(|((id, h), (my_id, v))| id == my_id && *h.0.borrow() == *v)
    }

    /// `units_hash` of the units and leaders that stand now.
    pub fn standing_hash(state: &Shared) -> u64 {
        let st = state.borrow();
        let mut hasher = ahash::AHasher::default();
        for unit in st.units.values() {
            hash_unit(&unit.0.borrow(), &mut hasher);
        }
        st.leaders.len().hash(&mut hasher);
        hasher.finish()
    }

    /// Which units and leaders (by their place in this world) hold other values than in
    /// `before`, a world of the same ids.
    pub fn changed_from(&self, before: &World) -> (Vec<usize>, Vec<usize>) {
        let units = self.unit_values.iter().zip(&before.unit_values).enumerate();
        let leaders = self.leader_values.iter().zip(&before.leader_values).enumerate();
        (
            units.filter(|(_, (a, b))| a != b).map(|(i, _)| i).collect(),
            leaders.filter(|(_, (a, b))| a != b).map(|(i, _)| i).collect(),
        )
    }

    /// Puts this world's units and leaders at the places `changed` gives (see `changed_from`)
    /// into those of the same ids that stand now, leaving the others and what was counted as
    /// they are; returns `value` with its units and leaders read as those (`value` itself when
    /// it holds none).
    pub fn install_changed_by_id(
        &self,
        state: &Shared,
        changed: &(Vec<usize>, Vec<usize>),
        value: &Dynamic,
        holds_handles: bool,
    ) -> Dynamic {
        let st = state.borrow();
        // Walked in place (a kept call ends so in every trial): nothing gathered.
        for (i, (id, unit)) in self.units.keys().zip(&self.unit_values).enumerate() {
            if changed.0.contains(&i)
                && let Some(handle) = st.units.get(id)
            {
                handle.edit().clone_from(unit);
            }
        }
        for (i, (id, leader)) in self.leaders.keys().zip(&self.leader_values).enumerate() {
            if changed.1.contains(&i)
                && let Some(handle) = st.leaders.get(id)
            {
                handle.edit().clone_from(leader);
            }
        }
        crate::script::handles::units_written();
        if holds_handles { rehandle(value, &st.units, &st.leaders) } else { value.clone() }
    }

    /// What the study counted in this world.
    pub fn observations(&self) -> &Observations {
        &self.observations
    }

    /// A hash of the world's content (not of which handles hold it).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether two worlds hold the same units, leaders, decks and observations.
    pub fn same(a: &Rc<World>, b: &Rc<World>) -> bool {
        Rc::ptr_eq(a, b)
            || (a.hash == b.hash
                && a.units.keys().eq(b.units.keys())
                && a.leaders.keys().eq(b.leaders.keys())
                && a.unit_values == b.unit_values
                && a.leader_values == b.leader_values
                && a.decks.len() == b.decks.len()
                && a.decks.iter().zip(&b.decks).all(|(x, y)| x.1 == y.1)
                && a.observations == b.observations)
    }

    /// Whether two worlds hold their units, leaders and decks in the very same handles: a
    /// call worked out in one may then stand for the same call in the other (a replay that
    /// made its units afresh holds other handles, with the same values).
    pub fn same_handles(a: &World, b: &World) -> bool {
        same_registry(&a.units, &b.units) && same_registry(&a.leaders, &b.leaders) && World::same_decks(a, b)
    }

    /// Whether two worlds hold the very same decks.
    pub fn same_decks(a: &World, b: &World) -> bool {
        a.decks.len() == b.decks.len() && a.decks.iter().zip(&b.decks).all(|(x, y)| Rc::ptr_eq(&x.0.0, &y.0.0))
    }

    /// A hash of what most often tells worlds apart (stands, formations, orders, markers, leaders'
    /// states, decks' sizes, the observations' count): equal worlds are then compared whole.
    fn content_hash(&self) -> u64 {
        let mut hasher = ahash::AHasher::default();
        for unit in &self.unit_values {
            hash_unit(unit, &mut hasher);
            unit.markers.keys().for_each(|k| k.hash(&mut hasher));
        }
        for leader in &self.leader_values {
            let mut text = HashWriter(&mut hasher);
            let _ = write!(text, "{leader:?}");
        }
        for (_, deck) in &self.decks {
            (deck.face_down(), deck.in_play().len()).hash(&mut hasher);
        }
        (self.observations.tallies.len(), self.observations.records.len()).hash(&mut hasher);
        hasher.finish()
    }
}

/// What most often tells units apart: id, stands, formation, order and how many markers.
fn hash_unit(unit: &Unit, hasher: &mut ahash::AHasher) {
    (&unit.id, unit.stands, &unit.formation, &unit.order, unit.markers.len()).hash(hasher);
}

/// Whether two registries hold the same handles under the same ids.
fn same_registry<T: HandlePtr>(a: &BTreeMap<String, T>, b: &BTreeMap<String, T>) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0 == y.0 && x.1.same_handle(y.1))
}

trait HandlePtr {
    fn same_handle(&self, other: &Self) -> bool;
}

impl HandlePtr for UnitRef {
    fn same_handle(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl HandlePtr for LeaderRef {
    fn same_handle(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// `value` with each unit and leader it holds read as the handle of its id in `units` and `leaders`.
fn rehandle(value: &Dynamic, units: &BTreeMap<String, UnitRef>, leaders: &BTreeMap<String, LeaderRef>) -> Dynamic {
    if let Some(unit) = value.read_lock::<UnitRef>() {
        let id = unit.0.borrow().id.clone();
        return units.get(&id).map_or_else(|| value.clone(), |h| Dynamic::from(h.clone()));
    }
    if let Some(leader) = value.read_lock::<LeaderRef>() {
        let id = leader.0.borrow().id.clone();
        return leaders.get(&id).map_or_else(|| value.clone(), |h| Dynamic::from(h.clone()));
    }
    if let Some(array) = value.read_lock::<rhai::Array>() {
        return Dynamic::from_array(array.iter().map(|v| rehandle(v, units, leaders)).collect());
    }
    if let Some(map) = value.read_lock::<rhai::Map>() {
        return Dynamic::from_map(map.iter().map(|(k, v)| (k.clone(), rehandle(v, units, leaders))).collect());
    }
    value.clone()
}

/// Every deck `value` holds, however deep, once each.
fn collect_decks(value: &Dynamic, decks: &mut Vec<(DeckRef, Deck)>) {
    if let Some(deck) = value.read_lock::<DeckRef>() {
        if !decks.iter().any(|(d, _)| Rc::ptr_eq(&d.0, &deck.0)) {
            let cards = deck.0.borrow().clone();
            decks.push((deck.clone(), cards));
        }
    } else if let Some(array) = value.read_lock::<rhai::Array>() {
        array.iter().for_each(|v| collect_decks(v, decks));
    } else if let Some(map) = value.read_lock::<rhai::Map>() {
        map.values().for_each(|v| collect_decks(v, decks));
    }
}

/// Feeds formatted text to a hasher without making a string.
struct HashWriter<'a, H: Hasher>(&'a mut H);

impl<H: Hasher> std::fmt::Write for HashWriter<'_, H> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}
