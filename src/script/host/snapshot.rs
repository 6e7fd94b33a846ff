//! The units and leaders a run may change, kept before it and put back after (an `odds`
//! walk leaves the session's units as they were; the REPL's `:undo` takes a line back).

use rhai::{Dynamic, Scope};

use super::Host;
use crate::script::handles::{LeaderRef, UnitRef};

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
}

fn collect(value: &Dynamic, snapshot: &mut Snapshot) {
    if let Some(unit) = value.clone().try_cast::<UnitRef>() {
        let saved = Box::new(unit.0.borrow().clone());
        snapshot.units.push((unit, saved));
    } else if let Some(leader) = value.clone().try_cast::<LeaderRef>() {
        let saved = Box::new(leader.0.borrow().clone());
        snapshot.leaders.push((leader, saved));
    } else if value.is_array() {
        for item in value.clone().cast::<rhai::Array>() {
            collect(&item, snapshot);
        }
    } else if value.is_map() {
        for (_, item) in value.clone().cast::<rhai::Map>() {
            collect(&item, snapshot);
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
        };
        for unit in st.units.values() {
            snapshot.units.push((unit.clone(), Box::new(unit.0.borrow().clone())));
        }
        for leader in st.leaders.values() {
            snapshot.leaders.push((leader.clone(), Box::new(leader.0.borrow().clone())));
        }
        for (_, _, value) in scope.iter() {
            collect(&value, &mut snapshot);
        }
        snapshot
    }

    pub(super) fn restore(&self, snapshot: &Snapshot) {
        // A unit the run left as it was is not copied again (most runs change one or none).
        for (handle, unit) in &snapshot.units {
            if *handle.0.borrow() != **unit {
                handle.edit().clone_from(&**unit);
            }
        }
        for (handle, leader) in &snapshot.leaders {
            if *handle.0.borrow() != **leader {
                handle.edit().clone_from(&**leader);
            }
        }
        let mut st = self.state.borrow_mut();
        st.units = snapshot.unit_registry.clone();
        crate::script::handles::edited();
        st.leaders = snapshot.leader_registry.clone();
    }
}

/// The units and leaders as they stood, and where the dice were, kept to go back to.
pub struct Kept {
    snapshot: Snapshot,
    dice: Option<u128>,
}

impl Host {
    /// The units and leaders of `scope` and of the session as they stand now, and the dice's place.
    pub fn keep(&self, scope: &Scope) -> Kept {
        use crate::dice::RollSource;
        Kept { snapshot: self.snapshot(scope), dice: self.state.borrow().dice.position() }
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
            || st.dice.position() != kept.dice
    }

    /// Puts the units and leaders back as they were kept, and the dice (when they can go back).
    pub fn put_back(&self, kept: &Kept) {
        use crate::dice::RollSource;
        self.restore(&kept.snapshot);
        if let Some(position) = kept.dice {
            self.state.borrow_mut().dice.set_position(position);
        }
    }
}
