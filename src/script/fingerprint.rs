//! Hashing and comparing script values, to merge states whose values are the same.
//!
//! A value of a kind this does not know is never the same as another: the
//! states holding it are followed apart, which is slower but never wrong.

use std::hash::Hash;

use ahash::AHasher;

use rhai::Dynamic;

use crate::dice::Roll;
use crate::rules::Cell;
use crate::script::bindings::unseen::Unseen;
use crate::script::handles::DeckRef;
use crate::script::handles::{LeaderRef, UnitRef};
use crate::script::modifiers::Modifiers;
use crate::script::plain;

/// Feeds `value` to `hasher`; false for a value of a kind that cannot be compared.
pub fn hash_value(value: &Dynamic, hasher: &mut AHasher) -> bool {
    plain::hash(value, hasher, &hash_other)
}

/// `hash_value`, but false also for a value that holds a deck, at any depth.
pub fn hash_value_without_decks(value: &Dynamic, hasher: &mut AHasher) -> bool {
    plain::hash(value, hasher, &|v, h| !v.is::<DeckRef>() && hash_other(v, h))
}

/// The kinds beside the plain ones that a state may hold, hashed.
fn hash_other(value: &Dynamic, hasher: &mut AHasher) -> bool {
    if value.is_shared() {
        return false;
    }
    if let Some(unit) = value.read_lock::<UnitRef>() {
        // A unit is its id: its values are the world's.
        (8u8, unit.0.borrow().id.as_str()).hash(hasher);
    } else if let Some(leader) = value.read_lock::<LeaderRef>() {
        (9u8, leader.0.borrow().id.as_str()).hash(hasher);
    } else if let Some(deck) = value.read_lock::<DeckRef>() {
        (10u8, std::rc::Rc::as_ptr(&deck.0) as usize).hash(hasher);
    } else if let Some(roll) = value.read_lock::<Roll>() {
        (11u8, roll.total, roll.hits, roll.success, roll.against, roll.expr.as_ref()).hash(hasher);
        roll.dice.iter().for_each(|d| (d.natural, d.kept, d.replaced, d.exploded).hash(hasher));
    } else if let Some(reading) = value.read_lock::<Cell>() {
        (12u8, reading.table.as_ref(), reading.row.as_deref(), reading.total, reading.read_as).hash(hasher);
        reading.result.as_ref().map(|r| r.id.as_str()).hash(hasher);
    } else if let Some(mods) = value.read_lock::<Modifiers>() {
        (13u8, mods.list.as_ref(), mods.total, &mods.halve, &mods.double).hash(hasher);
        mods.applied.iter().for_each(|a| a.as_ref().hash(hasher));
    } else if let Some(unseen) = value.read_lock::<Unseen>() {
        (14u8, &*unseen).hash(hasher);
    } else {
        return false;
    }
    true
}

/// Whether two values are the same and hold the very same handles (units, leaders, decks).
pub fn same_with_handles(a: &Dynamic, b: &Dynamic) -> bool {
    if !same_value(a, b) {
        return false;
    }
    if let (Some(x), Some(y)) = (a.read_lock::<UnitRef>(), b.read_lock::<UnitRef>()) {
        return std::rc::Rc::ptr_eq(&x.0, &y.0);
    }
    if let (Some(x), Some(y)) = (a.read_lock::<LeaderRef>(), b.read_lock::<LeaderRef>()) {
        return std::rc::Rc::ptr_eq(&x.0, &y.0);
    }
    if let (Some(x), Some(y)) = (a.read_lock::<rhai::Array>(), b.read_lock::<rhai::Array>()) {
        return x.iter().zip(y.iter()).all(|(p, q)| same_with_handles(p, q));
    }
    if let (Some(x), Some(y)) = (a.read_lock::<rhai::Map>(), b.read_lock::<rhai::Map>()) {
        return x.values().zip(y.values()).all(|(p, q)| same_with_handles(p, q));
    }
    true
}

/// Whether two values are the same, for the kinds `hash_value` knows.
pub fn same_value(a: &Dynamic, b: &Dynamic) -> bool {
    plain::same(a, b, &same_other)
}

/// The kinds beside the plain ones that a state may hold, compared (the same type each).
fn same_other(a: &Dynamic, b: &Dynamic) -> bool {
    // One handle is one id (a study's trials pass the very units its setup made).
    if let (Some(x), Some(y)) = (a.read_lock::<UnitRef>(), b.read_lock::<UnitRef>()) {
        return std::rc::Rc::ptr_eq(&x.0, &y.0) || x.0.borrow().id == y.0.borrow().id;
    }
    if let (Some(x), Some(y)) = (a.read_lock::<LeaderRef>(), b.read_lock::<LeaderRef>()) {
        return std::rc::Rc::ptr_eq(&x.0, &y.0) || x.0.borrow().id == y.0.borrow().id;
    }
    if let (Some(x), Some(y)) = (a.read_lock::<DeckRef>(), b.read_lock::<DeckRef>()) {
        return std::rc::Rc::ptr_eq(&x.0, &y.0);
    }
    if let (Some(x), Some(y)) = (a.read_lock::<Roll>(), b.read_lock::<Roll>()) {
        return *x == *y;
    }
    if let (Some(x), Some(y)) = (a.read_lock::<Cell>(), b.read_lock::<Cell>()) {
        return *x == *y;
    }
    if let (Some(x), Some(y)) = (a.read_lock::<Modifiers>(), b.read_lock::<Modifiers>()) {
        return x.list == y.list
            && x.total == y.total
            && x.halve == y.halve
            && x.double == y.double
            && x.applied == y.applied;
    }
    if let (Some(x), Some(y)) = (a.read_lock::<Unseen>(), b.read_lock::<Unseen>()) {
        return *x == *y;
    }
    false
}
