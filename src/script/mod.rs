//! The Rhai host: the only place where the kernel and the rules meet Rhai.
//!
//! One engine per `Host` (and so per thread) registers the kernel (dice,
//! lengths, units and leaders) and the loaded ruleset (tables, modifier
//! lists, options and interpretations, effects), compiles the ruleset's
//! procedures and conditions once, runs them in a sandbox, records a
//! `Trace` of every resolution, and can walk every dice outcome of a call
//! for its exact distribution.

mod attribution;
mod base_calls;
mod bindings;
mod brackets;
mod budget;
mod call_checks;
mod check;
mod comparison;
mod compiled;
mod condition;
mod condition_reason;
mod contracted;
mod dice_paths;
mod error;
mod fields;
mod fingerprint;
mod handles;
mod host;
mod luck;
mod marker_kinds;
mod marker_values;
mod mode;
mod modifier_engine;
mod modifiers;
mod observed;
mod odds;
mod outcome;
mod overlay_check;
mod plain;
mod procedure_odds;
mod properties;
mod replayed;
mod roll_readings;
mod sandbox;
mod seen;
mod state;
mod sweep;
mod switch_cases;
mod syntax;
mod trace;
mod type_checks;
mod type_flow;
mod unread;
mod value_compare;
mod words;
mod world;

pub use attribution::{Attribution, Removal};
pub use brackets::open_brackets;
pub use budget::Stop;
pub use check::check;
pub use comparison::{Change, Comparison};
pub use condition::CONDITION_NAMES;
pub use error::ScriptError;
pub use fields::FieldOdds;
pub use handles::{LeaderRef, UnitRef};
pub use host::{Argument, CallShape, Evaluation, Host, Kept, Reach, Setup};
pub use modifiers::Modifiers;
pub use observed::{ExactObservations, KeyOdds, ObservedOdds};
pub use outcome::{Outcome, display_order};
pub use procedure_odds::ProcedureOdds;
pub use sandbox::{Limits, SCRIPT_STACK, fix_hashing};
pub use seen::Seen;
pub use state::Observations;
pub use sweep::{Axis, CellFailed, Sweep, SweepCell};
pub use trace::{Step, Trace};

/// The files that read Rhai's internals (see `syntax`), for the test that holds the list true.
#[cfg(test)]
pub(crate) fn syntax_readers() -> &'static [&'static str] {
    syntax::READERS
}

#[cfg(test)]
mod tests;
