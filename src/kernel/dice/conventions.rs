//! Per-ruleset dice conventions (how a d10 is numbered) and the limits every expression obeys.

use serde::{Deserialize, Serialize};

/// How a ten-sided die is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum D10Reading {
    /// Faces 1-10, a printed "0" read as 10 (the F&F convention).
    #[default]
    #[serde(rename = "1-10")]
    OneToTen,
    /// Faces 0-9, as printed (so the 18th-century "0-4" band is a half chance).
    #[serde(rename = "0-9")]
    ZeroToNine,
}

impl std::str::FromStr for D10Reading {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "1-10" => Ok(D10Reading::OneToTen),
            "0-9" => Ok(D10Reading::ZeroToNine),
            other => Err(format!("a d10 reads `1-10` or `0-9`, not `{other}`")),
        }
    }
}

/// Dice conventions chosen by a ruleset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiceConventions {
    #[serde(default)]
    pub d10: D10Reading,
}

impl DiceConventions {
    /// The number on the lowest face of a die with `sides` faces.
    pub fn first_face(&self, sides: u32) -> i64 {
        match (sides, self.d10) {
            (10, D10Reading::ZeroToNine) => 0,
            _ => 1,
        }
    }
}

/// Limits on what one expression may ask for, so that no input hangs,
/// overflows or exhausts memory. Each refusal names the limit it hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiceLimits {
    /// Dice in one expression, all pools together.
    pub max_dice: u32,
    /// Faces on one die.
    pub max_sides: u32,
    /// Largest constant term.
    pub max_constant: i64,
    /// Work allowed for an exact distribution, in elementary steps.
    pub max_exact_work: u64,
}

impl Default for DiceLimits {
    fn default() -> Self {
        DiceLimits { max_dice: 1_000, max_sides: 10_000, max_constant: 1_000_000_000, max_exact_work: 20_000_000 }
    }
}
