//! The kernel: dice, measurement, troop units and cards. It knows nothing of YAML, Rhai or terminals.

pub mod cards;
pub mod dice;
pub mod measure;
pub mod memory;
pub mod unit;

pub(crate) mod spelling;
pub(crate) mod syntax_span;
