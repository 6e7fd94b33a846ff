//! Per-ruleset dice conventions (how a d10 and a d66 are read, the dice a ruleset names) and the limits every expression obeys.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::ast::Die;

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

/// How a `d66` is read. Games differ, so a ruleset (or `--d66`) must say; unsaid, `d66` is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub enum D66Reading {
    /// Two d6, the first read as tens and the second as units: 11 to 66, 36 results.
    #[serde(rename = "tens-and-units")]
    TensAndUnits,
    /// One die of 66 faces, 1 to 66.
    #[serde(rename = "1-66")]
    Sides,
}

impl std::str::FromStr for D66Reading {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "tens-and-units" => Ok(D66Reading::TensAndUnits),
            "1-66" => Ok(D66Reading::Sides),
            other => Err(format!("a d66 reads `tens-and-units` or `1-66`, not `{other}`")),
        }
    }
}

/// Dice conventions chosen by a ruleset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiceConventions {
    pub d10: D10Reading,
    /// How `d66` is read; none: it is refused with a hint.
    pub d66: Option<D66Reading>,
    /// Dice the ruleset names (`avg`), written by name: `avg`, `2avg`, `2d{avg}kh1`.
    pub named: BTreeMap<String, Die>,
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

/// Words that dice notation uses itself, which no die may be named.
const RESERVED_DIE_NAMES: [&str; 3] = ["hits", "reroll", "misses"];

/// Why `name` cannot name a die, if it cannot: it must read as a name in dice notation
/// (a letter, then letters, digits or `_`), and not as dice already (`d6`, `d%`, `d{...}`).
pub fn die_name_problem(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let starts_with_letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    if !starts_with_letter || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Some(format!(
            "`{name}` cannot name a die: a name is a letter, then letters, digits or `_` (such as `avg`)"
        ));
    }
    let after_d = name.strip_prefix(['d', 'D']).and_then(|rest| rest.chars().next());
    if after_d.is_some_and(|c| c.is_ascii_digit()) {
        return Some(format!("`{name}` is already dice notation (a die of that many faces): choose another name"));
    }
    if RESERVED_DIE_NAMES.iter().any(|w| w.eq_ignore_ascii_case(name)) {
        return Some(format!("`{name}` is a word of dice notation: choose another name"));
    }
    None
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
