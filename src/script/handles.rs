//! Units, leaders and decks as Rhai sees them: shared handles, so a procedure's effects reach the caller's unit.

use std::cell::{Cell, RefCell, RefMut};
use std::fmt;
use std::rc::Rc;

use crate::cards::Deck;
use crate::unit::{Leader, Unit};

thread_local! {
    /// How many times units, leaders, decks, their registries or a study's observations
    /// have been written on this thread: an exact walk (`script::odds`) knows the world has
    /// not changed while the count has not moved, and need not compare it unit by unit.
    static EDITS: Cell<u64> = const { Cell::new(0) };
    /// How many times units, leaders or their registries have been written on this thread.
    static UNIT_WRITES: Cell<u64> = const { Cell::new(0) };
    /// The last state name given.
    static NAMES: Cell<u64> = const { Cell::new(0) };
}

/// The count of writes so far (see `EDITS`).
pub fn edits() -> u64 {
    EDITS.with(Cell::get)
}

/// Counts one write to units, leaders, decks, registries or observations. Every such write
/// calls this (through `edit`), or an exact walk may take a changed world for the old one.
pub fn edited() {
    EDITS.with(|e| e.set(e.get() + 1));
}

/// Counts one write to units, leaders or their registries (and so to the world, `edited`).
pub fn units_written() {
    UNIT_WRITES.with(|w| w.set(w.get() + 1));
    edited();
}

/// The count of writes to units, leaders and their registries so far (see `UNIT_WRITES`).
pub fn unit_writes() -> u64 {
    UNIT_WRITES.with(Cell::get)
}

/// A new name for a state of the units that will not change: what the units and leaders
/// (and their registries) hold when a study's setup put them back, or when a call kept by
/// its dice ended (see `State::stand_as`).
pub fn new_state_name() -> u64 {
    NAMES.with(|n| {
        n.set(n.get() + 1);
        n.get()
    })
}

/// A unit shared between Rhai and the host. Rhai passes values by copy; a
/// handle's copies all point at one unit, so `fire(a, b, ...)` changes `b`.
#[derive(Clone, Debug)]
pub struct UnitRef(pub Rc<RefCell<Unit>>);

/// A leader shared between Rhai and the host.
#[derive(Clone, Debug)]
pub struct LeaderRef(pub Rc<RefCell<Leader>>);

impl UnitRef {
    pub fn new(unit: Unit) -> Self {
        UnitRef(Rc::new(RefCell::new(unit)))
    }

    /// The unit, to change it: every write goes through here (see `units_written`).
    pub fn edit(&self) -> RefMut<'_, Unit> {
        units_written();
        self.0.borrow_mut()
    }

    /// The unit's name, for traces.
    pub fn name(&self) -> String {
        self.0.borrow().name.clone()
    }

    /// The unit's id.
    pub fn id(&self) -> String {
        self.0.borrow().id.clone()
    }
}

impl LeaderRef {
    pub fn new(leader: Leader) -> Self {
        LeaderRef(Rc::new(RefCell::new(leader)))
    }

    /// The leader, to change it: every write goes through here (see `units_written`).
    pub fn edit(&self) -> RefMut<'_, Leader> {
        units_written();
        self.0.borrow_mut()
    }

    pub fn name(&self) -> String {
        self.0.borrow().name.clone()
    }

    /// The leader's id.
    pub fn id(&self) -> String {
        self.0.borrow().id.clone()
    }
}

impl fmt::Display for UnitRef {
    /// `4e Ligne (infantry, column, good order, 6 stands)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let u = self.0.borrow();
        write!(
            f,
            "{} ({}, {}, {}, {} stand{}",
            u.name,
            u.arm,
            u.formation.replace('_', " "),
            u.order.replace('_', " "),
            u.stands,
            if u.stands == 1 { "" } else { "s" }
        )?;
        if u.stands_lost() > 0 {
            write!(f, " of {}", u.starting_stands())?;
        }
        let markers: Vec<String> = u
            .markers
            .iter()
            .filter(|(_, v)| v.is_set())
            .map(|(k, v)| match v {
                crate::unit::Marker::Flag(_) => k.clone(),
                crate::unit::Marker::Count(n) => format!("{k} {n}"),
                crate::unit::Marker::Text(t) => format!("{k} {t}"),
            })
            .collect();
        if !markers.is_empty() {
            write!(f, "; {}", markers.join(", "))?;
        }
        write!(f, ")")
    }
}

impl fmt::Display for LeaderRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = self.0.borrow();
        write!(f, "{}", l.name)?;
        if let Some(rating) = &l.rating {
            write!(f, " ({rating})")?;
        }
        let markers: Vec<&str> = l.markers.iter().filter(|(_, v)| v.is_set()).map(|(k, _)| k.as_str()).collect();
        if !markers.is_empty() {
            write!(f, " [{}]", markers.join(", "))?;
        }
        Ok(())
    }
}

/// A deck shared between Rhai and the host: every copy of the handle is the
/// same deck, so a procedure that draws changes the caller's deck.
#[derive(Clone, Debug)]
pub struct DeckRef(pub Rc<RefCell<Deck>>);

impl DeckRef {
    /// A new deck; counted as a write, so that an exact walk takes the world afresh.
    pub fn new(deck: Deck) -> DeckRef {
        edited();
        DeckRef(Rc::new(RefCell::new(deck)))
    }

    /// The deck, to change it: every write goes through here (see `handles::edited`).
    pub fn edit(&self) -> RefMut<'_, Deck> {
        edited();
        self.0.borrow_mut()
    }
}
