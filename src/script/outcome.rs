//! `Outcome`: a procedure's result as a key of a distribution, and `ProcedureOdds`: the distribution itself.

use std::fmt;

use rhai::Dynamic;

use crate::dice::Distribution;
use crate::rules::Reading;

/// What a run returned, reduced to something countable: a table cell's
/// result, a map's `result` field, or the plain value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Nothing,
    Flag(bool),
    Number(i64),
    Word(String),
}

impl Outcome {
    pub fn of(value: &Dynamic) -> Outcome {
        if value.is_unit() {
            return Outcome::Nothing;
        }
        if let Ok(b) = value.as_bool() {
            return Outcome::Flag(b);
        }
        if let Ok(n) = value.as_int() {
            return Outcome::Number(n);
        }
        if let Some(reading) = value.clone().try_cast::<Reading>() {
            return reading.result.map_or(Outcome::Nothing, |r| Outcome::Word(r.id.clone()));
        }
        if value.is_map() {
            let map = value.clone().cast::<rhai::Map>();
            if let Some(result) = map.get("result") {
                return Outcome::of(result);
            }
        }
        Outcome::Word(value.to_string())
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Nothing => f.write_str("(nothing)"),
            Outcome::Flag(b) => write!(f, "{b}"),
            Outcome::Number(n) => write!(f, "{n}"),
            Outcome::Word(w) => f.write_str(w),
        }
    }
}

/// The distribution of a procedure's results.
#[derive(Clone, Debug)]
pub struct ProcedureOdds {
    pub distribution: Distribution<Outcome>,
    /// True when every dice outcome was walked; false when sampled.
    pub exact: bool,
    /// How many runs of the procedure it took.
    pub runs: u64,
    /// Why and how it was sampled, when it was.
    pub sampled: Option<String>,
    /// The number of dice after which outcomes were cut off (their chance is
    /// the distribution's residual), when some were.
    pub cut_off_at: Option<usize>,
}
