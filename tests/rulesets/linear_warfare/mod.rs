//! Linear Warfare (seed 003), helper A's part: the maneuver table, the card
//! draw and turn sequence, movement and reactions, rally, army withdrawal,
//! making it happen, doctrine.

mod army_withdrawal;
mod card_odds;
mod cards;
mod doctrine;

mod maneuver;
mod movement;
mod tables;

use grognard::script::Host;
use rhai::{Map, Scope};

use crate::host;

/// A fresh linear-warfare host.
pub fn lw() -> Host {
    host(&["linear-warfare"])
}

/// Evaluates `code` and returns its map, or panics with the error.
pub fn eval_map(host: &Host, code: &str) -> Map {
    match host.eval(&mut Scope::new(), code) {
        Ok(e) => e.value.cast::<Map>(),
        Err(e) => panic!("`{code}` failed: {e:?}"),
    }
}

/// Evaluates `code` and returns the error's message, or panics if it succeeds.
pub fn eval_err(host: &Host, code: &str) -> String {
    match host.eval(&mut Scope::new(), code) {
        Ok(e) => panic!("`{code}` should fail, gave {:?}", e.value),
        Err(e) => format!("{e:?}"),
    }
}

/// A string field of a map.
pub fn text(map: &Map, key: &str) -> String {
    map.get(key).unwrap_or_else(|| panic!("no `{key}` in {map:?}")).to_string()
}

/// An integer field of a map.
pub fn int(map: &Map, key: &str) -> i64 {
    map.get(key).unwrap_or_else(|| panic!("no `{key}` in {map:?}")).as_int().unwrap()
}
