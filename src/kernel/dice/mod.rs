//! Dice: notation, rolls that keep every natural face, roll sources, and exact odds.

mod ast;
mod conventions;
mod distribution;
mod enumerate;
mod error;
mod faces;
mod odds;
mod parse;
mod roll;
mod source;

pub use ast::{
    Comparison, DEFAULT_EXPLODE_DEPTH, DiceExpr, DicePool, Die, Explode, FaceTest, Keep, MAX_EXPLODE_DEPTH, Reroll,
    Scale, SignedTerm, Sum, Term,
};
pub use conventions::{D10Reading, D66Reading, DiceConventions, DiceLimits, die_name_problem};
pub use distribution::{Distribution, fraction, to_f64};
pub use enumerate::{EnumLimits, Enumerator, RunEnd, Weights, enumerate};
pub use error::DiceError;
pub use odds::{Odds, estimate_work, exact_odds};
pub use parse::{parse, parse_with};
pub use roll::{DieRoll, Roll};
pub use source::{RollSource, Seeded, Supplied};

#[cfg(test)]
mod tests;
