//! Calls a walk replayed face by face need not make again: the `modifiers` of a call made after the same faces as an earlier run's.
//!
//! A walk replayed face by face (one fire: ten runs, one for each face of the
//! musketry die) runs the same code from the same state each time, and a run is
//! decided by the faces it has taken so far: that is what lets the enumerator
//! replay at all. So the n-th `modifiers(..)` of a run, made after the same faces
//! as the n-th of an earlier run, is the same call on the same values, and comes
//! to the same. Its answer is kept by those faces and that n: the fire's
//! modifiers, read before its die, are worked out once, not ten times.
//!
//! Only an answer worked out natively is kept: a condition that Rhai evaluates
//! may call a procedure that does more than answer (tally, change a unit), which
//! a kept answer would skip.

use std::collections::HashMap;

use smallvec::SmallVec;

use super::modifiers::Modifiers;
use crate::dice::Enumerator;

/// The faces a run had taken when it made a call, and which of its calls it was.
pub type Key = (u32, SmallVec<[u32; 8]>);

/// The kept answers of one walk.
#[derive(Default)]
pub struct Replayed {
    /// How many `modifiers` calls the run under way has made.
    made: u32,
    kept: HashMap<Key, Modifiers>,
}

impl Replayed {
    /// A run begins: its calls are counted from the first again.
    pub fn begin_run(&mut self) {
        self.made = 0;
    }

    /// The key of the call the run makes now (counted as made).
    pub fn next_key(&mut self, walk: &Enumerator) -> Key {
        let key = (self.made, walk.taken().collect());
        self.made += 1;
        key
    }

    /// The answer kept for `key`, if any.
    pub fn get(&self, key: &Key) -> Option<&Modifiers> {
        self.kept.get(key)
    }

    /// Keeps `mods` as the answer of `key`.
    pub fn keep(&mut self, key: Key, mods: Modifiers) {
        self.kept.insert(key, mods);
    }
}
