//! The summary of a study: counts and percentages with 95% intervals for tallies, mean and spread for records;
//! as text with a script's words escaped (`present::escape`), as JSON and CSV exact.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::accumulator::{Accumulator, Moments, TooManyValues};
use crate::present::escape::escape;
use crate::rules::Ruleset;
use crate::script::Observations;

/// The 95% two-sided normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// Width of the longest bar, in characters.
const BAR_WIDTH: usize = 30;

/// What the trials counted, key by key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub trials: u64,
    pub tallies: BTreeMap<String, Tally>,
    pub records: BTreeMap<String, Record>,
}

/// The outcomes tallied under one key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tally {
    /// Observations of the key, all outcomes together.
    pub n: u64,
    pub outcomes: Vec<TallyRow>,
}

/// One outcome of a tally.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TallyRow {
    pub value: String,
    pub count: u64,
    pub percent: f64,
    /// The 95% Wilson interval of the percentage.
    pub low: f64,
    pub high: f64,
}

/// The numbers recorded under one key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Record {
    pub n: u64,
    pub mean: f64,
    /// The sample standard deviation (0 for one number).
    pub sd: f64,
    pub min: f64,
    pub max: f64,
    /// The 95% interval of the mean.
    pub low: f64,
    pub high: f64,
}

impl Summary {
    /// Sums the trials in trial order (so a summary never depends on how trials were shared out).
    /// Each key's outcomes come in their natural order (see `natural_order`); `ruleset` gives the
    /// order of its tables' results.
    pub fn of(trials: &[Observations], ruleset: Option<&Ruleset>) -> Result<Summary, TooManyValues> {
        let mut sums = Accumulator::default();
        for trial in trials {
            sums.add(trial)?;
        }
        Ok(sums.summary(ruleset))
    }

    /// The summary as tables a player reads.
    pub fn render(&self) -> String {
        let mut s = format!("{} trials\n", self.trials);
        for (key, tally) in &self.tallies {
            // A script's words, escaped before the columns are measured so that they stay aligned.
            let values: Vec<_> = tally.outcomes.iter().map(|r| escape(&r.value)).collect();
            let _ = write!(s, "\n{} ({} observed)\n", escape(key), tally.n);
            let width = values.iter().map(|v| v.chars().count()).max().unwrap_or(0).max(7);
            let biggest = tally.outcomes.iter().map(|r| r.count).max().unwrap_or(1).max(1);
            let _ = writeln!(s, "  {:<width$}  {:>8}  {:>7}  {:>17}", "outcome", "count", "percent", "95% interval");
            for (row, value) in tally.outcomes.iter().zip(&values) {
                let bar = "█".repeat(((row.count as f64 / biggest as f64) * BAR_WIDTH as f64).round() as usize);
                let interval = format!("{}-{}", percent_text(row.low), percent_text(row.high));
                let _ = writeln!(
                    s,
                    "  {:<width$}  {:>8}  {:>7}  {:>17}  {bar}",
                    value,
                    row.count,
                    percent_text(row.percent),
                    interval
                );
            }
        }
        for (key, r) in &self.records {
            let _ = write!(
                s,
                "\n{} ({} recorded)\n  mean {:.3} (95% {:.3} to {:.3}), sd {:.3}, min {}, max {}\n",
                escape(key),
                r.n,
                r.mean,
                r.low,
                r.high,
                r.sd,
                number(r.min),
                number(r.max)
            );
        }
        s
    }

    /// The summary as CSV: one row per tally outcome, then one per record.
    pub fn csv(&self) -> String {
        let mut s = String::from("kind,key,value,count,percent,low,high,n,mean,sd,min,max\n");
        for (key, tally) in &self.tallies {
            for r in &tally.outcomes {
                let _ = writeln!(
                    s,
                    "tally,{},{},{},{:.6},{:.6},{:.6},{},,,,",
                    csv_field(key),
                    csv_field(&r.value),
                    r.count,
                    r.percent,
                    r.low,
                    r.high,
                    tally.n
                );
            }
        }
        for (key, r) in &self.records {
            let _ = writeln!(
                s,
                "record,{},,,,{:.4},{:.4},{},{:.6},{:.6},{},{}",
                csv_field(key),
                r.low,
                r.high,
                r.n,
                r.mean,
                r.sd,
                number(r.min),
                number(r.max)
            );
        }
        s
    }
}

/// Outcomes in the order a reader expects: numbers as numbers (`2` before `12`), false before
/// true; otherwise the
/// results of the ruleset's table that gives most of them in its chart's order, then every other
/// word as the script first tallied it (`first`).
pub(super) fn natural_order(rows: &mut [(TallyRow, u64)], ruleset: Option<&Ruleset>) {
    // Flags as the exact odds show them: false, then true.
    let flag = |v: &str| match v {
        "false" => Some(0.0),
        "true" => Some(1.0),
        _ => None,
    };
    let flags: Option<Vec<f64>> = rows.iter().map(|(r, _)| flag(&r.value)).collect();
    let numbers: Option<Vec<f64>> = flags
        .or_else(|| rows.iter().map(|(r, _)| r.value.trim().parse::<f64>().ok().filter(|x| x.is_finite())).collect());
    if let Some(numbers) = numbers {
        // Each row with its number, sorted by it.
        let mut keyed: Vec<(f64, (TallyRow, u64))> = numbers.into_iter().zip(rows.iter().cloned()).collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (slot, (_, row)) in rows.iter_mut().zip(keyed) {
            *slot = row;
        }
        return;
    }
    let words: Vec<&str> = rows.iter().map(|(r, _)| r.value.as_str()).collect();
    let chart = ruleset.map_or(Vec::new(), |rs| rs.chart_order(&words).to_vec());
    rows.sort_by_key(|(r, first)| (chart.iter().position(|c| *c == r.value).unwrap_or(usize::MAX), *first));
}

/// A percentage with enough digits to tell a rare outcome from none: `41.7%`, `0.016%`, `0%`.
pub fn percent_text(pct: f64) -> String {
    if pct <= 0.0 {
        return "0%".into();
    }
    if pct >= 0.1 {
        return format!("{pct:.1}%");
    }
    // Two significant digits below 0.1%.
    let decimals = ((-pct.log10()).ceil() as usize + 1).min(8);
    format!("{pct:.decimals$}%")
}

/// The 95% Wilson score interval of `count` out of `n`, as percentages.
pub fn wilson(count: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let (n, p) = (n as f64, count as f64 / n as f64);
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    (100.0 * (centre - half).max(0.0), 100.0 * (centre + half).min(1.0))
}

/// A record's summary from its running moments.
pub(super) fn record_of(m: &Moments) -> Record {
    let sd = if m.n > 1 { (m.m2 / (m.n - 1) as f64).sqrt() } else { 0.0 };
    let half = Z95 * sd / (m.n as f64).sqrt();
    Record { n: m.n, mean: m.mean, sd, min: m.min, max: m.max, low: m.mean - half, high: m.mean + half }
}

/// `3` rather than `3.0` for whole numbers.
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 { format!("{}", x as i64) } else { format!("{x}") }
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text.to_string() }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// One trial's observations, written briefly (shared with the accumulator's tests).
    pub(in crate::run) fn observed(tallies: &[(&str, &str)], records: &[(&str, f64)]) -> Observations {
        Observations {
            tallies: tallies.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect(),
            records: records.iter().map(|(k, v)| ((*k).into(), *v)).collect(),
        }
    }

    #[test]
    fn wilson_intervals_match_the_formula() {
        // 50 of 100: p = 0.5, z = 1.96; centre 0.5, half-width
        // 1.96 * sqrt(0.0025 + 1.96^2 / 40000) / (1 + 1.96^2 / 100) = 0.09617.
        let (low, high) = wilson(50, 100);
        assert!((low - 40.383).abs() < 0.01 && (high - 59.617).abs() < 0.01, "{low} {high}");
        // None and all of them stay within 0-100%.
        assert_eq!(wilson(0, 10).0, 0.0);
        assert!((wilson(10, 10).1 - 100.0).abs() < 1e-9);
        assert!(wilson(10, 10).0 > 65.0);
        assert_eq!(wilson(0, 0), (0.0, 0.0));
    }

    #[test]
    fn tallies_count_every_observation_of_a_key() {
        let trials = [
            observed(&[("result", "swept"), ("round", "1")], &[("lost", 1.0)]),
            observed(&[("result", "checked")], &[("lost", 2.0)]),
            observed(&[("result", "swept"), ("round", "1"), ("round", "2")], &[("lost", 3.0), ("lost", 4.0)]),
        ];
        let s = Summary::of(&trials, None).unwrap();
        assert_eq!(s.trials, 3);
        let result = &s.tallies["result"];
        assert_eq!(result.n, 3);
        let counts: Vec<(&str, u64)> = result.outcomes.iter().map(|r| (r.value.as_str(), r.count)).collect();
        // As first tallied.
        assert_eq!(counts, [("swept", 2), ("checked", 1)]);
        assert!((result.outcomes[0].percent - 200.0 / 3.0).abs() < 1e-9);
        assert_eq!(s.tallies["round"].n, 3);
        // 1, 2, 3, 4: mean 2.5, sample sd sqrt(5/3).
        let lost = &s.records["lost"];
        assert_eq!((lost.n, lost.min, lost.max), (4, 1.0, 4.0));
        assert!((lost.mean - 2.5).abs() < 1e-12);
        assert!((lost.sd - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
        let half = Z95 * lost.sd / 2.0;
        assert!((lost.low - (2.5 - half)).abs() < 1e-12 && (lost.high - (2.5 + half)).abs() < 1e-12);
    }

    #[test]
    fn csv_quotes_what_needs_it() {
        let s = Summary::of(&[observed(&[("at 2\"", "a, b")], &[])], None).unwrap();
        let csv = s.csv();
        assert!(csv.contains("tally,\"at 2\"\"\",\"a, b\",1,100.000000"), "{csv}");
    }

    #[test]
    fn outcomes_come_in_their_natural_order() {
        // 2d6 totals as numbers, not as text ("10" before "2").
        let totals: Vec<Observations> =
            ["10", "2", "12", "7", "2"].iter().map(|t| observed(&[("total", t)], &[])).collect();
        let s = Summary::of(&totals, None).unwrap();
        let order: Vec<&str> = s.tallies["total"].outcomes.iter().map(|r| r.value.as_str()).collect();
        assert_eq!(order, ["2", "7", "10", "12"]);
        // Words as the script first tallied them: ranges in the order the study went through them.
        let ranges: Vec<Observations> =
            ["at 2\"", "at 12\"", "at 4\"", "at 2\""].iter().map(|r| observed(&[("range", r)], &[])).collect();
        let s = Summary::of(&ranges, None).unwrap();
        let order: Vec<&str> = s.tallies["range"].outcomes.iter().map(|r| r.value.as_str()).collect();
        assert_eq!(order, ["at 2\"", "at 12\"", "at 4\""]);
        let flags: Vec<Observations> = ["true", "false"].iter().map(|f| observed(&[("lost", f)], &[])).collect();
        let s = Summary::of(&flags, None).unwrap();
        let order: Vec<&str> = s.tallies["lost"].outcomes.iter().map(|r| r.value.as_str()).collect();
        assert_eq!(order, ["false", "true"]);
    }

    #[test]
    fn a_rare_outcome_keeps_its_digits() {
        assert_eq!(percent_text(41.666), "41.7%");
        assert_eq!(percent_text(0.016), "0.016%");
        assert_eq!(percent_text(0.0098), "0.0098%");
        assert_eq!(percent_text(0.0), "0%");
        // 16 in 100,000: 0.016%, its interval not 0.0%-0.0%.
        let mut trials = vec![observed(&[("result", "fatal")], &[]); 16];
        trials.extend(vec![observed(&[("result", "unhurt")], &[]); 100_000 - 16]);
        let text = Summary::of(&trials, None).unwrap().render();
        let line = text.lines().find(|l| l.contains("fatal")).unwrap();
        assert!(line.contains("0.016%") && line.contains("0.0098%-0.026%"), "{line}");
    }
}
