//! Troop units, leaders, sides and their organisation, as plain serde data.
//!
//! The kernel fixes the shape, not the words: which arms, formations, orders
//! and grades exist comes from each ruleset's vocabulary.

mod error;
mod leader;
mod marker_kind;
mod order_of_battle;
mod side;
#[allow(clippy::module_inception)]
mod unit;
mod vocabulary;

pub use error::UnitError;
pub use leader::Leader;
pub use marker_kind::{KIND_EXAMPLE, MarkerKind, shown as shown_marker};
pub use order_of_battle::{Command, OrderOfBattle};
pub use side::Side;
pub use unit::{Marker, Placement, Unit};
pub use vocabulary::{FieldFault, FieldKind, FieldSpec, MarkerFault, UnitDefaults, Vocabulary};

#[cfg(test)]
mod tests;
