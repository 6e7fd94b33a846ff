//! What `run --exact` shows beside the script's value: the exact tallies and records of the walk, or the sampled summary when it sampled.

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use serde_json::{Value, json};

use crate::dice::{fraction, to_f64};
use crate::present::odds::{BAR_WIDTH, Chances, outcome_json, percent, render_rows, render_table, table_json};
use crate::rules::Ruleset;
use crate::run::Summary;
use crate::script::{ExactObservations, KeyOdds, ObservedOdds, Outcome, ProcedureOdds, display_order};

/// Most distinct numbers a record may take for its distribution to be shown as a table.
const RECORD_ROWS: usize = 20;

/// The tallies and records of `odds`, as tables a player reads (empty when the script counted nothing).
pub fn render(odds: &ProcedureOdds, ruleset: &Ruleset) -> Result<String, crate::error::Error> {
    if odds.observed.is_empty() {
        return Ok(String::new());
    }
    match &odds.observed {
        ObservedOdds::Exact(exact) => {
            let reached = odds.distribution.total();
            let cut = odds.distribution.residual();
            let mut s = if cut.is_zero() {
                String::from("\ntallies and records, exact:\n")
            } else {
                // A run cut off has no end, so nothing it counted is counted.
                format!(
                    "\ntallies and records, exact, of the trials not cut off ({} were cut off and counted nothing):\n",
                    percent(&cut)
                )
            };
            for (key, tally) in &exact.tallies {
                s += &format!("\n{key} ({})\n", how_often("tallied", exact, tally, &reached));
                s += &render_table(
                    "outcome",
                    &tally_rows(exact, tally, ruleset),
                    &reached_by(exact, tally),
                    None,
                    BAR_WIDTH,
                    Chances::Fractions,
                );
            }
            for (key, record) in &exact.records {
                s += &format!("\n{key} ({})\n", how_often("recorded", exact, record, &reached));
                let numbers = record_numbers(record);
                if let Some(rows) = record_rows(exact, record) {
                    s += &render_rows("value", &rows, &reached_by(exact, record), None, BAR_WIDTH, Chances::Fractions);
                    s += "\n";
                }
                s += &format!(
                    "mean {:.4} (exactly {}), standard deviation {:.4}, min {}, max {}\n",
                    to_f64(&numbers.mean),
                    fraction(&numbers.mean),
                    numbers.spread,
                    number(&numbers.min),
                    number(&numbers.max)
                );
            }
            Ok(s)
        }
        ObservedOdds::Sampled { trials, observed } => {
            let summary = sampled_summary(*trials, observed, ruleset)?;
            let render = summary.render();
            // The summary's first line counts the trials, which the heading says already.
            let tables = render.split_once('\n').map_or("", |(_, rest)| rest);
            Ok(format!(
                "\ntallies and records, sampled ({trials} trials), not exact: percent with 95% intervals\n{tables}"
            ))
        }
    }
}

/// The tallies and records of `odds` put into `value`: exact, `tallies` and `records` by key;
/// sampled, `summary` as `run --json` gives a study's.
pub fn put_json(value: &mut Value, odds: &ProcedureOdds, ruleset: &Ruleset) -> Result<(), crate::error::Error> {
    match &odds.observed {
        ObservedOdds::Exact(exact) => {
            let reached = odds.distribution.total();
            let mut tallies = serde_json::Map::new();
            for (key, tally) in &exact.tallies {
                let per_trial = tally.per_trial(&reached);
                let mut v = json!({
                    "once_a_trial": exact.once(tally),
                    "per_trial": to_f64(&per_trial),
                    "per_trial_exact": fraction(&per_trial),
                });
                let rows = tally_rows(exact, tally, ruleset);
                table_json(&mut v, "value", &rows, &reached_by(exact, tally), None);
                tallies.insert(key.clone(), v);
            }
            let mut records = serde_json::Map::new();
            for (key, record) in &exact.records {
                let per_trial = record.per_trial(&reached);
                let numbers = record_numbers(record);
                let mut v = json!({
                    "once_a_trial": exact.once(record),
                    "per_trial": to_f64(&per_trial),
                    "per_trial_exact": fraction(&per_trial),
                });
                if let Some(rows) = record_rows(exact, record) {
                    table_json(&mut v, "value", &rows, &reached_by(exact, record), None);
                }
                // The exact mean's float, not the table's (a table is shown for few values only).
                v["mean"] = json!(to_f64(&numbers.mean));
                v["mean_exact"] = json!(fraction(&numbers.mean));
                v["standard_deviation"] = json!(numbers.spread);
                v["min"] = number_json(&numbers.min);
                v["max"] = number_json(&numbers.max);
                records.insert(key.clone(), v);
            }
            value["tallies"] = Value::Object(tallies);
            value["records"] = Value::Object(records);
        }
        ObservedOdds::Sampled { trials, observed } => {
            value["summary"] = json!(sampled_summary(*trials, observed, ruleset)?);
        }
    }
    Ok(())
}

/// The summary a study of the sampled trials gives (trials that counted nothing count as trials).
fn sampled_summary(
    trials: u64,
    observed: &[crate::script::Observations],
    ruleset: &Ruleset,
) -> Result<Summary, crate::error::Error> {
    let summary =
        Summary::of(observed, Some(ruleset)).map_err(|why| crate::error::Error::TooManyValues(why.to_string()))?;
    Ok(Summary { trials, ..summary })
}

/// How often a trial observed the key, as the heading of its table says it.
fn how_often<T: Ord>(verb: &str, exact: &ExactObservations, key: &KeyOdds<T>, reached: &BigRational) -> String {
    if exact.once(key) {
        return format!("{verb} once a trial: the chance of each");
    }
    let per_trial = key.per_trial(reached);
    format!(
        "{verb} {:.4} times a trial on average ({}): the share of each among them",
        to_f64(&per_trial),
        fraction(&per_trial)
    )
}

/// The chance the rows of `key` add up to: what was not cut off when they are chances per
/// trial, else all of the key's observations.
fn reached_by<T: Ord>(exact: &ExactObservations, key: &KeyOdds<T>) -> BigRational {
    if exact.once(key) { key.values.total() } else { BigRational::from_integer(1.into()) }
}

/// A tally's values as outcomes, in the order the chart of the ruleset prints them (numbers in order).
fn tally_rows(exact: &ExactObservations, tally: &KeyOdds<String>, ruleset: &Ruleset) -> Vec<(Outcome, BigRational)> {
    let mut rows: Vec<(Outcome, BigRational)> =
        tally.rows(exact.once(tally)).into_iter().map(|(v, p)| (Outcome::of_tallied(v), p)).collect();
    let order = display_order(ruleset, rows.iter().map(|(o, _)| o));
    rows.sort_by_key(|(o, _)| order.iter().position(|x| x == o));
    rows
}

/// A record's numbers as rows, when they are few enough to show.
fn record_rows(exact: &ExactObservations, record: &KeyOdds<BigRational>) -> Option<Vec<(Outcome, BigRational)>> {
    let rows = record.rows(exact.once(record));
    (rows.len() <= RECORD_ROWS).then(|| rows.into_iter().map(|(v, p)| (number_outcome(v), p)).collect())
}

/// A recorded number as an outcome: whole, or not.
fn number_outcome(x: &BigRational) -> Outcome {
    match x.is_integer().then(|| x.to_integer().to_i64()).flatten() {
        Some(n) => Outcome::Number(n),
        None => Outcome::Decimal(x.clone()),
    }
}

/// The exact mean, the spread and the range of the numbers a record took.
struct Numbers {
    mean: BigRational,
    spread: f64,
    min: BigRational,
    max: BigRational,
}

fn record_numbers(record: &KeyOdds<BigRational>) -> Numbers {
    let all = record.values.total();
    let zero = BigRational::zero;
    let mean =
        if all.is_zero() { zero() } else { record.values.iter().map(|(v, w)| v * w).fold(zero(), |a, b| a + b) / &all };
    let variance = if all.is_zero() {
        zero()
    } else {
        record.values.iter().map(|(v, w)| (v - &mean) * (v - &mean) * w).fold(zero(), |a, b| a + b) / &all
    };
    let min = record.values.iter().next().map_or_else(zero, |(v, _)| v.clone());
    let max = record.values.iter().last().map_or_else(zero, |(v, _)| v.clone());
    Numbers { mean, spread: to_f64(&variance).sqrt(), min, max }
}

/// `3` for a whole number, else as a float.
fn number(x: &BigRational) -> String {
    number_outcome(x).to_string()
}

fn number_json(x: &BigRational) -> Value {
    outcome_json(&number_outcome(x))
}
