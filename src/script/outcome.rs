//! `Outcome`: a procedure's result as a key of a distribution, in the order to show it.

use std::cmp::Ordering;
use std::fmt;

use num_rational::BigRational;
use num_traits::ToPrimitive;
use rhai::Dynamic;

use crate::dice::Distribution;
use crate::rules::Cell;

/// What a run returned, reduced to something countable: a table cell's
/// result, a map's `result` field, or the plain value. Outcomes order as they are shown:
/// nothing, flags, numbers by value (whole or not), then words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Nothing,
    Flag(bool),
    Number(i64),
    /// A number that is not whole (`fire_points: 4.5`), as the exact fraction the float is,
    /// so that it orders, compares and averages exactly.
    Decimal(BigRational),
    Word(String),
}

impl Ord for Outcome {
    fn cmp(&self, other: &Self) -> Ordering {
        use Outcome::*;
        let rank = |o: &Outcome| match o {
            Nothing => 0,
            Flag(_) => 1,
            Number(_) | Decimal(_) => 2,
            Word(_) => 3,
        };
        match (self, other) {
            (Flag(a), Flag(b)) => a.cmp(b),
            (Number(a), Number(b)) => a.cmp(b),
            (Decimal(a), Decimal(b)) => a.cmp(b),
            // By value; 4 and 4.0 are two outcomes (Rhai tells them apart), the whole one first.
            (Number(a), Decimal(b)) => BigRational::from_integer((*a).into()).cmp(b).then(Ordering::Less),
            (Decimal(a), Number(b)) => a.cmp(&BigRational::from_integer((*b).into())).then(Ordering::Greater),
            (Word(a), Word(b)) => a.cmp(b),
            _ => rank(self).cmp(&rank(other)),
        }
    }
}

impl PartialOrd for Outcome {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
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
        if let Some(exact) = value.as_float().ok().and_then(BigRational::from_float) {
            return Outcome::Decimal(exact);
        }
        if let Some(reading) = value.clone().try_cast::<Cell>() {
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

    /// The number this outcome is, exactly (a whole number, or a fraction a float was), when
    /// it is one.
    pub fn number(&self) -> Option<BigRational> {
        match self {
            Outcome::Number(n) => Some(BigRational::from_integer((*n).into())),
            Outcome::Decimal(x) => Some(x.clone()),
            _ => None,
        }
    }

    /// A value `tally` counted, as its text reads: `3` a number, `true` a flag, `(nothing)`
    /// nothing (as `tally` writes it), any other text a word. Only for ordering and showing:
    /// a number tallied and the same digits tallied as text are one value to a study.
    pub fn of_tallied(text: &str) -> Outcome {
        match text {
            "(nothing)" => Outcome::Nothing,
            "true" => Outcome::Flag(true),
            "false" => Outcome::Flag(false),
            // Only numbers that read back the same: `007`, `+3` and `1e3` stay as written.
            _ => match (text.parse::<i64>(), text.parse::<f64>().ok().and_then(BigRational::from_float)) {
                (Ok(n), _) if n.to_string() == text => Outcome::Number(n),
                (_, Some(x)) if Outcome::Decimal(x.clone()).to_string() == text => Outcome::Decimal(x),
                _ => Outcome::Word(text.to_string()),
            },
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Nothing => f.write_str("(nothing)"),
            Outcome::Flag(b) => write!(f, "{b}"),
            Outcome::Number(n) => write!(f, "{n}"),
            // As Rhai writes a float: `4.5`, `6.0`.
            Outcome::Decimal(x) => write!(f, "{:?}", x.to_f64().unwrap_or(f64::NAN)),
            Outcome::Word(w) => f.write_str(w),
        }
    }
}

/// The outcomes of `dist` with their chances, in the order of `order` (those not in it last).
pub fn ordered_rows(dist: &Distribution<Outcome>, order: &[Outcome]) -> Vec<(Outcome, num_rational::BigRational)> {
    let mut rows: Vec<(Outcome, num_rational::BigRational)> = dist.iter().map(|(o, p)| (o.clone(), p)).collect();
    rows.sort_by_key(|(o, _)| order.iter().position(|x| x == o).unwrap_or(usize::MAX));
    rows
}

/// The order to show `outcomes` in: nothing, then flags, then numbers in order, then words,
/// those a table of `ruleset` gives (the one giving most of them) in its chart's order first.
pub fn display_order<'a>(ruleset: &crate::rules::Ruleset, outcomes: impl Iterator<Item = &'a Outcome>) -> Vec<Outcome> {
    let mut outcomes: Vec<Outcome> = outcomes.cloned().collect();
    let words: Vec<&str> = outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Word(w) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    let chart = ruleset.chart_order(&words).to_vec();
    outcomes.sort_by(|a, b| match (a, b) {
        (Outcome::Word(x), Outcome::Word(y)) => {
            let at = |w: &str| chart.iter().position(|r| r == w).unwrap_or(usize::MAX);
            (at(x), x).cmp(&(at(y), y))
        }
        _ => a.cmp(b),
    });
    outcomes
}
