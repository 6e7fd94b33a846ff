//! The units and leaders a run may change, kept before it and put back after (an `odds`
//! walk leaves the session's units as they were; the REPL's `:undo` takes a line back).

use ahash::AHashMap as HashMap;
use std::cell::RefCell;
use std::rc::Rc;

use rhai::{Dynamic, Scope};

use super::Host;
use crate::script::handles::{DeckRef, LeaderRef, UnitRef};

/// Every unit and leader a run may change, as they were: the scope's (in
/// arrays and maps too) and the session's, and which units and leaders the
/// session knew. Restoring puts each handle's unit back in place, so handles
/// shared between variables stay shared. (Boxed: a table of whole units is a large
/// allocation, which costs glibc a consolidation at every snapshot.)
pub(super) struct Snapshot {
    units: Vec<(UnitRef, Box<crate::unit::Unit>)>,
    leaders: Vec<(LeaderRef, Box<crate::unit::Leader>)>,
    unit_registry: std::collections::BTreeMap<String, UnitRef>,
    leader_registry: std::collections::BTreeMap<String, LeaderRef>,
    /// The name of the state kept (see `State::stand_as`): while the units stand as it, there
    /// is nothing to put back.
    name: u64,
    /// Whether every unit and leader kept is in the registries kept (none only in the scope).
    all_registered: bool,
    /// For each named state met standing in the very registries kept, which units and
    /// leaders (by their place above) differed from those kept: only they are put back when
    /// the units stand in that state again (a study's trial after the same kept call ended).
    differs: RefCell<HashMap<u64, Differed>>,
}

/// The places of the units and of the leaders that differed from those kept.
type Differed = (Vec<usize>, Vec<usize>);

/// Most named states whose differences a snapshot keeps.
const MOST_DIFFERENCES: usize = 256;

/// Keeps every unit and leader `value` holds (in arrays and maps too), each once however many
/// variables hold it. Each level is read in place: copying it to read it cost a REPL session
/// the square of a value's depth on every line. Past the deepest a value may nest
/// (`sandbox::MAX_DEPTH`) there is nothing to look for (only a value that holds itself
/// through a captured variable goes on).
fn collect(value: &Dynamic, snapshot: &mut Snapshot, depth: usize) {
    if depth > crate::script::sandbox::MAX_DEPTH {
        return;
    }
    if let Some(unit) = value.read_lock::<UnitRef>() {
        if !snapshot.units.iter().any(|(u, _)| Rc::ptr_eq(&u.0, &unit.0)) {
            let saved = Box::new(unit.0.borrow().clone());
            snapshot.units.push((unit.clone(), saved));
        }
    } else if let Some(leader) = value.read_lock::<LeaderRef>() {
        if !snapshot.leaders.iter().any(|(l, _)| Rc::ptr_eq(&l.0, &leader.0)) {
            let saved = Box::new(leader.0.borrow().clone());
            snapshot.leaders.push((leader.clone(), saved));
        }
    } else if let Some(array) = value.read_lock::<rhai::Array>() {
        for item in array.iter() {
            collect(item, snapshot, depth + 1);
        }
    } else if let Some(map) = value.read_lock::<rhai::Map>() {
        for item in map.values() {
            collect(item, snapshot, depth + 1);
        }
    }
}

impl Host {
    pub(super) fn snapshot(&self, scope: &Scope) -> Snapshot {
        let st = self.state.borrow();
        let mut snapshot = Snapshot {
            units: Vec::new(),
            leaders: Vec::new(),
            unit_registry: st.units.clone(),
            leader_registry: st.leaders.clone(),
            name: crate::script::handles::new_state_name(),
            all_registered: false,
            differs: RefCell::default(),
        };
        for unit in st.units.values() {
            snapshot.units.push((unit.clone(), Box::new(unit.0.borrow().clone())));
        }
        for leader in st.leaders.values() {
            snapshot.leaders.push((leader.clone(), Box::new(leader.0.borrow().clone())));
        }
        let registered = (snapshot.units.len(), snapshot.leaders.len());
        for (_, _, value) in scope.iter_raw() {
            collect(value, &mut snapshot, 0);
        }
        snapshot.all_registered = registered == (snapshot.units.len(), snapshot.leaders.len());
        drop(st);
        self.state.borrow_mut().stand_as(snapshot.name);
        snapshot
    }

    pub(super) fn restore(&self, snapshot: &Snapshot) {
        let (standing, same_registries) = {
            let st = self.state.borrow();
            let same = st.units.len() == snapshot.unit_registry.len()
                && st.leaders.len() == snapshot.leader_registry.len()
                && st.units.values().zip(snapshot.unit_registry.values()).all(|(a, b)| Rc::ptr_eq(&a.0, &b.0))
                && st.leaders.values().zip(snapshot.leader_registry.values()).all(|(a, b)| Rc::ptr_eq(&a.0, &b.0));
            (st.standing_as(), same)
        };
        // Nothing written since the units stood as kept: nothing to put back.
        if standing == Some(snapshot.name) {
            return;
        }
        // Standing in a state met before, in the very units kept: what differed then differs now.
        if let (Some(name), true) = (standing, same_registries && snapshot.all_registered)
            && let Some((units, leaders)) = snapshot.differs.borrow().get(&name)
        {
            for &i in units {
                let (handle, unit) = &snapshot.units[i];
                handle.edit().clone_from(&**unit);
            }
            for &i in leaders {
                let (handle, leader) = &snapshot.leaders[i];
                handle.edit().clone_from(&**leader);
            }
            crate::script::handles::units_written();
            self.state.borrow_mut().stand_as(snapshot.name);
            return;
        }
        // A unit the run left as it was is not copied again (most runs change one or none).
        let mut differed: Differed = (Vec::new(), Vec::new());
        for (i, (handle, unit)) in snapshot.units.iter().enumerate() {
            if *handle.0.borrow() != **unit {
                handle.edit().clone_from(&**unit);
                differed.0.push(i);
            }
        }
        for (i, (handle, leader)) in snapshot.leaders.iter().enumerate() {
            if *handle.0.borrow() != **leader {
                handle.edit().clone_from(&**leader);
                differed.1.push(i);
            }
        }
        if let (Some(name), true) = (standing, same_registries && snapshot.all_registered) {
            let mut differs = snapshot.differs.borrow_mut();
            if differs.len() < MOST_DIFFERENCES {
                differs.insert(name, differed);
            }
        }
        let mut st = self.state.borrow_mut();
        st.units = snapshot.unit_registry.clone();
        crate::script::handles::units_written();
        st.leaders = snapshot.leader_registry.clone();
        st.stand_as(snapshot.name);
    }
}

/// The units and leaders as they stood, the decks of cards, and where the dice were, kept to
/// go back to.
pub struct Kept {
    snapshot: Snapshot,
    dice: Option<u128>,
    /// Every deck the scope holds (in lists and maps too), as it was: a line taken back puts
    /// back the cards it drew.
    decks: Vec<(DeckRef, crate::cards::Deck)>,
}

/// Keeps every deck `value` holds, each once.
fn collect_decks(value: &Dynamic, decks: &mut Vec<(DeckRef, crate::cards::Deck)>, depth: usize) {
    if depth > crate::script::sandbox::MAX_DEPTH {
        return;
    }
    if let Some(deck) = value.read_lock::<DeckRef>() {
        if !decks.iter().any(|(d, _)| Rc::ptr_eq(&d.0, &deck.0)) {
            decks.push((deck.clone(), deck.0.borrow().clone()));
        }
    } else if let Some(array) = value.read_lock::<rhai::Array>() {
        for item in array.iter() {
            collect_decks(item, decks, depth + 1);
        }
    } else if let Some(map) = value.read_lock::<rhai::Map>() {
        for item in map.values() {
            collect_decks(item, decks, depth + 1);
        }
    }
}

impl Host {
    /// The units and leaders of `scope` and of the session as they stand now, its decks, and
    /// the dice's place.
    pub fn keep(&self, scope: &Scope) -> Kept {
        use crate::dice::RollSource;
        let mut decks = Vec::new();
        for (_, _, value) in scope.iter_raw() {
            collect_decks(value, &mut decks, 0);
        }
        Kept { snapshot: self.snapshot(scope), dice: self.state.borrow().mode.position(), decks }
    }

    /// Whether any unit or leader, or the dice's place, differs from what was kept: whether a
    /// line did anything `:undo` could take back.
    pub fn changed_since(&self, kept: &Kept) -> bool {
        use crate::dice::RollSource;
        let st = self.state.borrow();
        kept.snapshot.units.iter().any(|(handle, unit)| *handle.0.borrow() != **unit)
            || kept.snapshot.leaders.iter().any(|(handle, leader)| *handle.0.borrow() != **leader)
            || st.units.len() != kept.snapshot.unit_registry.len()
            || st.leaders.len() != kept.snapshot.leader_registry.len()
            || st.mode.position() != kept.dice
            || kept.decks.iter().any(|(handle, deck)| *handle.0.borrow() != *deck)
    }

    /// Puts the units and leaders back as they were kept, and the dice (when they can go back).
    pub fn put_back(&self, kept: &Kept) {
        use crate::dice::RollSource;
        self.restore(&kept.snapshot);
        for (handle, deck) in &kept.decks {
            if *handle.0.borrow() != *deck {
                handle.edit().clone_from(deck);
            }
        }
        if let Some(position) = kept.dice {
            self.state.borrow_mut().mode.set_position(position);
        }
    }
}
