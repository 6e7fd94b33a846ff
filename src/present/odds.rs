//! Odds as a person or a program reads them: dice odds and a procedure's odds as tables with bars,
//! at-least and at-most columns and means, and the same as JSON.

use num_rational::BigRational;
use num_traits::Zero;
use serde_json::{Value, json};

use crate::dice::{Distribution, Odds, fraction, to_f64};
use crate::script::{Outcome, ProcedureOdds};

/// Width of the longest bar, in characters.
pub const BAR_WIDTH: usize = 30;

/// The odds as a human reads them: a row per outcome with chance, percent, a bar,
/// and (for totals) the at-least and at-most columns and the mean.
pub fn render_odds(label: &str, odds: &Odds) -> String {
    match odds {
        Odds::Totals(dist) => render_totals(label, dist),
        Odds::Chance(dist) => render_chance(label, dist),
    }
}

fn render_totals(label: &str, dist: &Distribution<i64>) -> String {
    let rows: Vec<(i64, BigRational)> = dist.iter().map(|(v, p)| (*v, p)).collect();
    let biggest = rows.iter().map(|(_, p)| to_f64(p)).fold(0.0, f64::max);
    let chances: Vec<String> = rows.iter().map(|(_, p)| fraction(p)).collect();
    let value_w = rows.iter().map(|(v, _)| v.to_string().len()).max().unwrap_or(1).max(5);
    let chance_w = chances.iter().map(String::len).max().unwrap_or(1).max(6);
    let mut s = format!("{label}: exact odds, {} outcomes\n\n", dist.denominator());
    s += &format!(
        "{:>value_w$}  {:>chance_w$}  {:>8}  {:>8}  {:>8}\n",
        "total", "chance", "percent", "at least", "at most"
    );
    let mut at_most = BigRational::zero();
    let mut at_least = dist.total();
    for ((value, p), chance) in rows.iter().zip(&chances) {
        at_most += p;
        s += &format!(
            "{value:>value_w$}  {chance:>chance_w$}  {:>8}  {:>8}  {:>8}  {}\n",
            percent(p),
            percent(&at_least),
            percent(&at_most),
            bar(to_f64(p), biggest),
        );
        at_least -= p;
    }
    let mean = dist.mean();
    s += &format!("\nmean {} ({:.4})\n", fraction(&mean), to_f64(&mean));
    s
}

fn render_chance(label: &str, dist: &Distribution<bool>) -> String {
    let yes = dist.probability(&true);
    let no = dist.probability(&false);
    let biggest = to_f64(&yes).max(to_f64(&no));
    let (yes_f, no_f) = (fraction(&yes), fraction(&no));
    let w = yes_f.len().max(no_f.len());
    let mut s = format!("{label}: chance {yes_f} ({})\n\n", percent(&yes));
    s += &format!("  yes  {yes_f:>w$}  {:>8}  {}\n", percent(&yes), bar(to_f64(&yes), biggest));
    s += &format!("  no   {no_f:>w$}  {:>8}  {}\n", percent(&no), bar(to_f64(&no), biggest));
    s
}

/// The odds as one JSON object; each probability as `"num/den"` and as a float.
pub fn odds_json(label: &str, odds: &Odds) -> Value {
    match odds {
        Odds::Totals(dist) => {
            let mut at_most = BigRational::zero();
            let mut at_least = dist.total();
            let outcomes: Vec<Value> = dist
                .iter()
                .map(|(v, p)| {
                    at_most += &p;
                    let row = json!({
                        "total": v,
                        "probability": fraction(&p),
                        "p": to_f64(&p),
                        "at_least": fraction(&at_least),
                        "at_least_p": to_f64(&at_least),
                        "at_most": fraction(&at_most),
                        "at_most_p": to_f64(&at_most),
                    });
                    at_least -= &p;
                    row
                })
                .collect();
            let mean = dist.mean();
            json!({
                "expr": label,
                "kind": "totals",
                "outcomes_counted": dist.denominator().to_string(),
                "mean": fraction(&mean),
                "mean_f": to_f64(&mean),
                "distribution": outcomes,
            })
        }
        Odds::Chance(dist) => {
            let yes = dist.probability(&true);
            let no = dist.probability(&false);
            json!({
                "expr": label,
                "kind": "chance",
                "outcomes_counted": dist.denominator().to_string(),
                "chance": fraction(&yes),
                "p": to_f64(&yes),
                "distribution": [
                    { "outcome": true, "probability": fraction(&yes), "p": to_f64(&yes) },
                    { "outcome": false, "probability": fraction(&no), "p": to_f64(&no) },
                ],
            })
        }
    }
}

/// `41.67%`; a chance too small to show at two decimals reads `<0.01%` rather than `0.00%`.
pub fn percent(p: &BigRational) -> String {
    let pct = to_f64(p) * 100.0;
    if pct > 0.0 && pct < 0.005 { "<0.01%".to_string() } else { format!("{pct:.2}%") }
}

/// A bar as long as `p` is against the biggest probability, in eighths of a character.
fn bar(p: f64, biggest: f64) -> String {
    bar_of(p, biggest, BAR_WIDTH)
}

/// `bar`, the biggest `width` characters long.
fn bar_of(p: f64, biggest: f64, width: usize) -> String {
    const EIGHTHS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    if biggest <= 0.0 || width == 0 {
        return String::new();
    }
    let eighths = (p / biggest * (width * 8) as f64).round() as usize;
    let mut s = "█".repeat(eighths / 8);
    s += EIGHTHS[eighths % 8];
    s
}

/// A procedure's results as a table, in display order (numbers in order, a table's results
/// as its chart prints them): exact, each with its chance and percent, and for numbers the
/// at-least and at-most columns and the mean; sampled, each with its percent and 95% interval.
/// Each field asked for (`--field`) follows in a table of its own, in the same form.
pub fn render_procedure(label: &str, odds: &ProcedureOdds) -> String {
    render_procedure_with(label, odds, BAR_WIDTH, Chances::Fractions)
}

/// How a table of exact odds gives each chance: as a fraction beside its percent, or as a
/// percent alone to three significant figures (what a player at the table reads at a glance).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chances {
    Fractions,
    Percents,
}

/// `render_procedure` fitted to a terminal `width` when one is given: the bars shortened until
/// every row fits (a long exact fraction leaves them less room), never wrapped; each chance
/// as `chances` says.
pub fn render_procedure_within(label: &str, odds: &ProcedureOdds, width: Option<usize>, chances: Chances) -> String {
    let full = render_procedure_with(label, odds, BAR_WIDTH, chances);
    let Some(width) = width else { return full };
    let widest = full.lines().filter(|l| l.contains('█')).map(|l| l.chars().count()).max().unwrap_or(0);
    if widest <= width {
        return full;
    }
    render_procedure_with(label, odds, BAR_WIDTH.saturating_sub(widest - width), chances)
}

/// The odds a player asks first, when the rules say what a call's results mean for the sides
/// (a contract's `outcomes:`): each meaning with the chance of the results that bring it
/// about, and the rest as they are; none when no result has a meaning.
///
/// ```text
/// the attackers carry the position  69.6%
/// the assault is held               30.4%
/// ```
pub fn render_outcomes(outcomes: &[(String, Vec<String>)], odds: &ProcedureOdds, chances: Chances) -> Option<String> {
    let rows = &odds.rows();
    // Sampled odds are shares of the trials, never exact fractions.
    let chances = if odds.sampled.is_some() { Chances::Percents } else { chances };
    let word = |o: &Outcome| match o {
        Outcome::Word(w) => Some(w.clone()),
        _ => None,
    };
    let meaning_of = |w: &str| outcomes.iter().position(|(_, results)| results.iter().any(|r| r == w));
    if !rows.iter().any(|(o, _)| word(o).is_some_and(|w| meaning_of(&w).is_some())) {
        return None;
    }
    let mut lines: Vec<(String, BigRational)> =
        outcomes.iter().map(|(meaning, _)| (meaning.clone(), BigRational::zero())).collect();
    for (outcome, p) in rows {
        match word(outcome).and_then(|w| meaning_of(&w)) {
            Some(i) => lines[i].1 += p,
            None => lines.push((outcome.to_string(), p.clone())),
        }
    }
    let width = lines.iter().map(|(m, _)| m.chars().count()).max().unwrap_or(0);
    let mut s = String::new();
    for (meaning, p) in lines {
        let shown = match chances {
            Chances::Percents => percent3(&p),
            Chances::Fractions => format!("{} ({})", fraction(&p), percent(&p)),
        };
        s += &format!("{meaning}{}  {shown}\n", " ".repeat(width - meaning.chars().count()));
    }
    Some(s)
}

/// A chance as a percent to three significant figures: `69.6%`, `4.49%`, `0.123%`; `100%`.
pub fn percent3(p: &BigRational) -> String {
    let pct = to_f64(p) * 100.0;
    if pct <= 0.0 {
        return "0%".to_string();
    }
    if pct >= 100.0 {
        return "100%".to_string();
    }
    if pct < 0.001 {
        return "<0.001%".to_string();
    }
    // Rounded to three figures first, so that 9.996% reads 10.0%, not 10.00%.
    let magnitude = pct.log10().floor() as i32;
    let scale = 10f64.powi(2 - magnitude);
    let rounded = (pct * scale).round() / scale;
    // Never 100% for what may fail: a hair short of it reads 99.9%.
    if rounded >= 100.0 {
        return "99.9%".to_string();
    }
    let decimals = (2 - rounded.log10().floor() as i32).max(0) as usize;
    format!("{rounded:.decimals$}%")
}

fn render_procedure_with(label: &str, odds: &ProcedureOdds, bar_width: usize, chances: Chances) -> String {
    let dist = &odds.distribution;
    let mut s = match &odds.sampled {
        // The walk's branches: dice, and procedure calls worked out whole (docs/odds.md).
        None => format!("{label}\nexact odds ({} branches walked)\n\n", odds.runs),
        Some(note) => format!("{label}\nestimated odds, not exact: {note}\n\n"),
    };
    let sampled = odds.sampled.is_some().then_some(odds.runs);
    s += &render_table("result", &odds.rows(), &dist.total(), sampled, bar_width, chances);
    if !dist.residual().is_zero() {
        let depth = odds.cut_off_at.map(|d| format!(" after {d} dice")).unwrap_or_default();
        let why = match (odds.cut_by_outcomes, odds.cut_off_at) {
            (Some(limit), _) => format!("walking deeper would pass --max-outcomes {limit}"),
            (None, Some(d)) => format!("--max-depth {d}: a loop that goes on"),
            (None, None) => "a loop that goes on".to_string(),
        };
        s += &format!("\ncut off{depth} ({why}): {} ({})\n", fraction(&dist.residual()), percent(&dist.residual()));
    }
    for field in &odds.fields {
        s += "\n";
        s += &render_table(&field.name, &field.rows(), &field.distribution.total(), sampled, bar_width, chances);
    }
    s
}

/// One distribution as a table whose first column is headed `column` (see `render_rows`),
/// and for numbers their mean and spread; each exact chance as `chances` says.
pub fn render_table(
    column: &str,
    rows: &[(Outcome, BigRational)],
    total: &BigRational,
    sampled_runs: Option<u64>,
    bar_width: usize,
    chances: Chances,
) -> String {
    let mut s = render_rows(column, rows, total, sampled_runs, bar_width, chances);
    if all_numbers(rows) {
        let (mean, spread) = mean_and_spread(rows);
        s += &format!("\nmean {mean:.4}, standard deviation {spread:.4}\n");
    }
    s
}

/// One distribution's rows under a heading whose first column is `column`: `rows` in display
/// order, `total` their chance together (less than 1 when some was cut off). Exact, each with
/// its chance and percent, and for numbers the at-least and at-most columns; sampled
/// (`sampled_runs`), each with its percent and 95% interval; the longest bar `bar_width` long.
/// Each exact chance as `chances` says: a fraction beside its percent, or the percent alone.
pub fn render_rows(
    column: &str,
    rows: &[(Outcome, BigRational)],
    total: &BigRational,
    sampled_runs: Option<u64>,
    bar_width: usize,
    chances: Chances,
) -> String {
    let bar = |p: f64, biggest: f64| bar_of(p, biggest, bar_width);
    let numeric = all_numbers(rows);
    let names: Vec<String> = rows.iter().map(|(o, _)| o.to_string()).collect();
    let biggest = rows.iter().map(|(_, p)| to_f64(p)).fold(0.0, f64::max);
    let name_w = names.iter().map(|n| n.chars().count()).max().unwrap_or(6).max(6).max(column.chars().count());
    // Padding by characters: a field or a result may be written in more than ASCII.
    let pad = |text: &str| format!("{text}{}", " ".repeat(name_w.saturating_sub(text.chars().count())));
    let mut s = String::new();
    if let Some(runs) = sampled_runs {
        s += &format!("{}  {:>8}  {:>17}\n", pad(column), "percent", "95% interval");
        for ((_, p), name) in rows.iter().zip(&names) {
            let (lo, hi) = wilson(to_f64(p), runs);
            let interval = format!("{}-{}", percent_f(lo), percent_f(hi));
            s += &format!("{}  {:>8}  {interval:>17}  {}\n", pad(name), percent(p), bar(to_f64(p), biggest));
        }
    } else if chances == Chances::Percents {
        s += &format!("{}  {:>7}", pad(column), "chance");
        s += if numeric { "  at least  at most\n" } else { "\n" };
        let mut at_most = BigRational::zero();
        let mut at_least = total.clone();
        for ((_, p), name) in rows.iter().zip(&names) {
            at_most += p;
            s += &format!("{}  {:>7}", pad(name), percent3(p));
            if numeric {
                s += &format!("  {:>8}  {:>7}", percent3(&at_least), percent3(&at_most));
            }
            s += &format!("  {}\n", bar(to_f64(p), biggest));
            at_least -= p;
        }
    } else {
        let chances: Vec<String> = rows.iter().map(|(_, p)| fraction(p)).collect();
        let chance_w = chances.iter().map(String::len).max().unwrap_or(6).max(6);
        s += &format!("{}  {:>chance_w$}  {:>8}", pad(column), "chance", "percent");
        s += if numeric { "  at least   at most\n" } else { "\n" };
        let mut at_most = BigRational::zero();
        let mut at_least = total.clone();
        for (((_, p), chance), name) in rows.iter().zip(&chances).zip(&names) {
            at_most += p;
            s += &format!("{}  {chance:>chance_w$}  {:>8}", pad(name), percent(p));
            if numeric {
                s += &format!("  {:>8}  {:>8}", percent(&at_least), percent(&at_most));
            }
            s += &format!("  {}\n", bar(to_f64(p), biggest));
            at_least -= p;
        }
    }
    s
}

/// Whether every outcome is a number (then at-least and at-most, and the mean, are shown).
fn all_numbers(rows: &[(Outcome, BigRational)]) -> bool {
    !rows.is_empty() && rows.iter().all(|(o, _)| o.number().is_some())
}

/// The mean and standard deviation of numeric outcomes over the chance that reached one,
/// worked out exactly and then rounded (a mean of 11/2 reads 5.5, not 5.500000000000002).
fn mean_and_spread(rows: &[(Outcome, BigRational)]) -> (f64, f64) {
    let values: Vec<(BigRational, &BigRational)> = rows.iter().filter_map(|(o, p)| Some((o.number()?, p))).collect();
    let total: BigRational = values.iter().map(|(_, p)| *p).sum();
    if total.is_zero() {
        return (0.0, 0.0);
    }
    let mean = values.iter().map(|(v, p)| v * *p).sum::<BigRational>() / &total;
    let variance = values.iter().map(|(v, p)| (v - &mean) * (v - &mean) * *p).sum::<BigRational>() / &total;
    (to_f64(&mean), to_f64(&variance).sqrt())
}

/// The 95% Wilson interval of a share `p` seen in `n` trials.
fn wilson(p: f64, n: u64) -> (f64, f64) {
    let n = n.max(1) as f64;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn percent_f(p: f64) -> String {
    format!("{:.2}%", p * 100.0)
}

/// A procedure's results as JSON, in display order: each result as the value it is (a
/// number, a word, true or false), its chance as a float and, when exact, as a fraction;
/// sampled, its 95% interval. Each field asked for is under `fields`, in the same form.
pub fn procedure_json(label: &str, odds: &ProcedureOdds) -> Value {
    let dist = &odds.distribution;
    let sampled = odds.sampled.is_some().then_some(odds.runs);
    let mut value = json!({
        "expr": label,
        "exact": odds.exact,
        "runs": odds.runs,
        "sampled": odds.sampled,
        "residual": fraction(&dist.residual()),
        "cut_off_at": odds.cut_off_at,
        "cut_by_max_outcomes": odds.cut_by_outcomes,
    });
    table_json(&mut value, "result", &odds.rows(), &dist.total(), sampled);
    if !odds.fields.is_empty() {
        let fields: Vec<Value> = odds
            .fields
            .iter()
            .map(|field| {
                let mut v = json!({ "field": field.name });
                table_json(&mut v, "result", &field.rows(), &field.distribution.total(), sampled);
                v
            })
            .collect();
        value["fields"] = json!(fields);
    }
    value
}

/// Puts one distribution into `value`: `distribution`, a row per outcome with the outcome under
/// `key` (as the value it is), and for numbers `mean` and `standard_deviation` (see `render_table`).
pub fn table_json(
    value: &mut Value,
    key: &str,
    rows: &[(Outcome, BigRational)],
    total: &BigRational,
    sampled_runs: Option<u64>,
) {
    let numeric = all_numbers(rows);
    let mut at_least = total.clone();
    let mut at_most = BigRational::zero();
    let json_rows: Vec<Value> = rows
        .iter()
        .map(|(o, p)| {
            at_most += p;
            let mut row = json!({ key: outcome_json(o), "p": to_f64(p) });
            if let Some(runs) = sampled_runs {
                let (lo, hi) = wilson(to_f64(p), runs);
                row["interval"] = json!([lo, hi]);
            } else {
                row["probability"] = json!(fraction(p));
                if numeric {
                    row["at_least"] = json!(to_f64(&at_least));
                    row["at_most"] = json!(to_f64(&at_most));
                }
            }
            at_least -= p;
            row
        })
        .collect();
    value["distribution"] = json!(json_rows);
    if numeric {
        let (mean, spread) = mean_and_spread(rows);
        value["mean"] = json!(mean);
        value["standard_deviation"] = json!(spread);
    }
}

/// An outcome as the JSON value it is: null, true or false, a number, a string.
pub fn outcome_json(outcome: &Outcome) -> Value {
    match outcome {
        Outcome::Nothing => Value::Null,
        Outcome::Flag(b) => json!(b),
        Outcome::Number(n) => json!(n),
        Outcome::Decimal(x) => json!(to_f64(x)),
        Outcome::Word(w) => json!(w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn a_percent_at_a_glance_has_three_significant_figures() {
        for ((n, d), shown) in [
            ((0, 1), "0%"),
            ((1, 1), "100%"),
            ((696, 1000), "69.6%"),
            ((2, 5), "40.0%"),
            ((449, 10_000), "4.49%"),
            ((123, 100_000), "0.123%"),
            ((9_999, 10_000), "99.9%"),
            ((1, 10_000_000), "<0.001%"),
            ((9_996, 100_000), "10.0%"),
            ((9_996, 1_000_000), "1.00%"),
            ((1, 2), "50.0%"),
        ] {
            assert_eq!(percent3(&ratio(n, d)), shown, "{n}/{d}");
        }
    }
}
