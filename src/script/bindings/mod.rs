//! Registers the kernel and the loaded ruleset with a Rhai engine.

pub mod cards;
pub mod contract;
pub(crate) mod dice;
pub(crate) mod measure;
pub mod rules;
mod scenario;
mod study;
pub(crate) mod unit;
pub mod unseen;

use rhai::Engine;

use super::state::Shared;

/// Registers every binding, each sharing `state`.
pub fn register(engine: &mut Engine, state: &Shared) {
    dice::register(engine, state);
    cards::register(engine, state);
    unseen::register(engine, state);
    rules::register(engine, state);
    unit::register(engine, state);
    measure::register(engine, state);
    study::register(engine, state);
    scenario::register(engine, state);
    contract::register(engine, state);
}
