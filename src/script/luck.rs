//! How lucky a roll was, for a trace: the chance of rolling its total or more, for a roll that
//! asks yes or no the chance of a yes, and for a table read on that one roll plus modifiers, the
//! chance of reading its result or a higher one.

use num_traits::ToPrimitive;

use super::trace::{Step, Trace};
use crate::dice::{DiceConventions, DiceExpr, DiceLimits, Odds, Roll, exact_odds, parse_with};
use crate::rules::{Cell, RowKey, Table};

/// The chance of `roll`'s total or more on its dice; none for a roll that asks yes or no,
/// counts hits, or is too large to work out at once.
pub fn of_roll(expr: &DiceExpr, roll: &Roll) -> Option<f64> {
    if !a_total(roll) {
        return None;
    }
    let Ok(Odds::Totals(totals)) = exact_odds(expr, &DiceLimits::default()) else { return None };
    totals.at_least(roll.total).to_f64()
}

/// The chance that `roll`, a roll that asks yes or no (`1d20 = 13`, `2d6 >= 8`), answers yes:
/// what a player reads of a question, where the chance of its total or more would mislead (a 13
/// on `1d20 = 13` is one face in twenty, not the eight faces from 13 up). None for any other
/// roll, or one too large to work out at once.
pub fn of_question(expr: &DiceExpr, roll: &Roll) -> Option<f64> {
    if roll.success.is_none() || roll.hits.is_some() || roll.faces_unknown {
        return None;
    }
    let Ok(Odds::Chance(yes)) = exact_odds(expr, &DiceLimits::default()) else { return None };
    yes.probability(&true).to_f64()
}

/// The chance that the table read `reading` or a result higher on it: when the trace since the
/// last table read holds one roll, the total read is that roll plus what the modifiers came to,
/// and each total the roll could have made is read the same way.
pub fn of_reading(
    trace: &Trace,
    conventions: &DiceConventions,
    table: &Table,
    row: Option<&RowKey>,
    reading: &Cell,
) -> Option<f64> {
    table.roll.as_ref()?;
    let mut rolls = trace.steps.iter().rev().take_while(|s| !matches!(s, Step::Table { .. })).filter_map(|s| match s {
        Step::Roll { roll, .. } => Some(roll),
        _ => None,
    });
    let (Some(roll), None) = (rolls.next(), rolls.next()) else { return None };
    if !a_total(roll) {
        return None;
    }
    let offset = reading.total.checked_sub(roll.total)?;
    let parsed = parse_with(&roll.expr, conventions, &DiceLimits::default()).ok()?;
    let Ok(Odds::Totals(totals)) = exact_odds(&parsed, &DiceLimits::default()) else { return None };
    let here = reading.result.as_ref()?.id.clone();
    let read = |total: i64| match row {
        None => table.read_bands(total).ok(),
        Some(row) => table.read_grid(row, total).ok(),
    };
    // Bands run upward: a total past this one reads this result or a higher one.
    let at_least = totals.chance(|x| {
        let Some(total) = x.checked_add(offset) else { return false };
        total >= reading.total || read(total).and_then(|c| c.result.map(|r| r.id == here)).unwrap_or(false)
    });
    at_least.to_f64()
}

/// Whether `roll` is a total of faces known: not a yes-or-no, not a count of hits, not a walk's
/// value standing for its faces.
fn a_total(roll: &Roll) -> bool {
    roll.success.is_none() && roll.hits.is_none() && !roll.faces_unknown
}
