//! What a study has counted so far, folded in as trials finish: a count per outcome and running
//! moments per record, so memory stays the same however many trials run.
//!
//! Trials are folded in blocks of consecutive trials (`BLOCK`, fewer in a small study), each
//! block in trial order, and blocks are joined in trial order. The blocks are the same whatever
//! the number of jobs, so the sums (and so the last digits of a mean) never depend on how trials
//! were shared out.

use std::collections::BTreeMap;

use super::summary::{Summary, Tally, TallyRow, natural_order, record_of, wilson};
use crate::rules::Ruleset;
use crate::script::Observations;

/// Trials in a block of a large study: folded by one worker, in order, then joined to the
/// blocks before it.
pub const BLOCK: u64 = 1_000;

/// Most different tallied values a study keeps, over all its keys: a value that differs from
/// trial to trial (a number drawn from millions) would otherwise grow the study's memory and
/// output with every trial. Its counts would say nothing anyway: such a value is for `record`.
pub const MOST_TALLIED_VALUES: usize = 10_000;

/// A study that tallied more different values than it may keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooManyValues {
    /// The key whose new value went past the limit, and how many values it had by then.
    pub key: String,
    pub values: usize,
}

impl std::fmt::Display for TooManyValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the study tallied more than {MOST_TALLIED_VALUES} different values (`{}` alone had {}), the most a study keeps",
            self.key, self.values
        )
    }
}

/// Counts and moments of the trials folded so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Accumulator {
    pub trials: u64,
    /// Per key, each outcome's count and when it was first tallied (the how-many-th tally).
    tallies: BTreeMap<String, BTreeMap<String, (u64, u64)>>,
    records: BTreeMap<String, Moments>,
    /// Tallies folded so far: the clock `first` is read on.
    tallied: u64,
    /// Different (key, value) pairs kept, over every key.
    distinct: usize,
}

/// Running mean and spread of one record's numbers (Welford's, joined by Chan's formula).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    pub n: u64,
    pub mean: f64,
    /// The sum of squared differences from the mean.
    pub m2: f64,
    pub min: f64,
    pub max: f64,
}

impl Default for Moments {
    fn default() -> Self {
        Moments { n: 0, mean: 0.0, m2: 0.0, min: f64::INFINITY, max: f64::NEG_INFINITY }
    }
}

impl Moments {
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
        self.min = self.min.min(x);
        self.max = self.max.max(x);
    }

    /// Joins the moments of numbers that came after these.
    pub fn join(&mut self, later: &Moments) {
        if later.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *later;
            return;
        }
        let n = self.n + later.n;
        let delta = later.mean - self.mean;
        self.mean += delta * later.n as f64 / n as f64;
        self.m2 += later.m2 + delta * delta * (self.n as f64 * later.n as f64 / n as f64);
        self.n = n;
        self.min = self.min.min(later.min);
        self.max = self.max.max(later.max);
    }
}

impl Accumulator {
    /// Folds in the next trial; refused when its tallies take the study past
    /// `MOST_TALLIED_VALUES` (what was folded before stays).
    pub fn add(&mut self, trial: &Observations) -> Result<(), TooManyValues> {
        self.trials += 1;
        for (key, value) in &trial.tallies {
            let outcomes = match self.tallies.get_mut(key.as_str()) {
                Some(outcomes) => outcomes,
                None => self.tallies.entry(key.to_string()).or_default(),
            };
            match outcomes.get_mut(value.as_str()) {
                Some((count, _)) => *count += 1,
                None => {
                    if self.distinct >= MOST_TALLIED_VALUES {
                        return Err(TooManyValues { key: key.to_string(), values: outcomes.len() });
                    }
                    outcomes.insert(value.to_string(), (1, self.tallied));
                    self.distinct += 1;
                }
            }
            self.tallied += 1;
        }
        for (key, value) in &trial.records {
            match self.records.get_mut(key.as_str()) {
                Some(moments) => moments.push(*value),
                None => self.records.entry(key.to_string()).or_default().push(*value),
            }
        }
        Ok(())
    }

    /// Joins the trials that came after these (the next block); refused when together they
    /// tallied more than `MOST_TALLIED_VALUES` different values.
    pub fn join(&mut self, later: Accumulator) -> Result<(), TooManyValues> {
        self.trials += later.trials;
        for (key, outcomes) in later.tallies {
            let mine = self.tallies.entry(key.clone()).or_default();
            for (value, (count, first)) in outcomes {
                let tallied = self.tallied;
                match mine.get_mut(&value) {
                    Some((c, _)) => *c += count,
                    None => {
                        if self.distinct >= MOST_TALLIED_VALUES {
                            return Err(TooManyValues { key, values: mine.len() });
                        }
                        mine.insert(value, (count, tallied + first));
                        self.distinct += 1;
                    }
                }
            }
        }
        self.tallied += later.tallied;
        for (key, moments) in later.records {
            self.records.entry(key).or_default().join(&moments);
        }
        Ok(())
    }

    /// The summary of the trials so far; `ruleset` gives the order of its tables' results.
    pub fn summary(&self, ruleset: Option<&Ruleset>) -> Summary {
        let tallies = self
            .tallies
            .iter()
            .map(|(key, outcomes)| {
                let n: u64 = outcomes.values().map(|(count, _)| count).sum();
                let mut rows: Vec<(TallyRow, u64)> = outcomes
                    .iter()
                    .map(|(value, &(count, first))| {
                        let (low, high) = wilson(count, n);
                        let percent = 100.0 * count as f64 / n as f64;
                        (TallyRow { value: value.clone(), count, percent, low, high }, first)
                    })
                    .collect();
                natural_order(&mut rows, ruleset);
                (key.clone(), Tally { n, outcomes: rows.into_iter().map(|(row, _)| row).collect() })
            })
            .collect();
        let records = self.records.iter().map(|(key, m)| (key.clone(), record_of(m))).collect();
        Summary { trials: self.trials, tallies, records }
    }

    /// The widest half-interval of any tallied share, in percentage points, with its key and
    /// outcome; none when nothing was tallied.
    pub fn widest(&self) -> Option<(f64, String, String)> {
        self.tallies
            .iter()
            .flat_map(|(key, outcomes)| {
                let n: u64 = outcomes.values().map(|(count, _)| count).sum();
                outcomes.iter().map(move |(value, (count, _))| {
                    let (low, high) = wilson(*count, n);
                    ((high - low) / 2.0, key, value)
                })
            })
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(w, key, value)| (w, key.clone(), value.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::summary::tests::observed;

    #[test]
    fn blocks_joined_in_order_count_as_one_run_does() {
        let trials: Vec<Observations> = (0..2_500)
            .map(|i| {
                let word = ["swept", "held", "routed"][(i * 7 % 11) % 3];
                observed(&[("result", word), ("round", &(i % 4).to_string())], &[("lost", (i % 13) as f64 * 0.5)])
            })
            .collect();
        let mut whole = Accumulator::default();
        for t in &trials {
            whole.add(t).unwrap();
        }
        let mut joined = Accumulator::default();
        for block in trials.chunks(700) {
            let mut part = Accumulator::default();
            for t in block {
                part.add(t).unwrap();
            }
            joined.join(part).unwrap();
        }
        // Counts and the order of first tallies are the same; moments agree to rounding.
        assert_eq!(joined.tallies, whole.tallies);
        assert_eq!((joined.trials, joined.tallied), (whole.trials, whole.tallied));
        let (a, b) = (joined.records["lost"], whole.records["lost"]);
        assert_eq!((a.n, a.min, a.max), (b.n, b.min, b.max));
        assert!((a.mean - b.mean).abs() < 1e-12 && (a.m2 - b.m2).abs() < 1e-6 * b.m2, "{a:?} {b:?}");
        // The mean and sample variance, worked out directly.
        let xs: Vec<f64> = (0..2_500).map(|i| (i % 13) as f64 * 0.5).collect();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (xs.len() - 1) as f64;
        assert!((a.mean - mean).abs() < 1e-12 && (a.m2 / 2_499.0 - var).abs() < 1e-9);
    }

    #[test]
    fn the_widest_interval_is_the_share_nearest_a_half() {
        let mut acc = Accumulator::default();
        for i in 0..100 {
            acc.add(&observed(
                &[("hit", if i < 50 { "yes" } else { "no" }), ("rare", if i < 1 { "a" } else { "b" })],
                &[],
            ))
            .unwrap();
        }
        let (w, key, _) = acc.widest().unwrap();
        let (low, high) = wilson(50, 100);
        assert_eq!(key, "hit");
        assert!((w - (high - low) / 2.0).abs() < 1e-12);
        assert_eq!(Accumulator::default().widest(), None);
    }

    #[test]
    fn a_study_keeps_at_most_so_many_different_values_whether_added_or_joined() {
        let value = |i: usize| i.to_string();
        let mut acc = Accumulator::default();
        for i in 0..MOST_TALLIED_VALUES {
            acc.add(&observed(&[("draw", &value(i))], &[])).unwrap();
        }
        // A value seen before is counted; a new one is refused, and what was kept stays.
        acc.add(&observed(&[("draw", "7")], &[])).unwrap();
        let refused = acc.add(&observed(&[("other", "x")], &[])).unwrap_err();
        assert_eq!(refused, TooManyValues { key: "other".into(), values: 0 });
        assert!(refused.to_string().contains("more than 10000 different values (`other` alone had 0)"));
        assert_eq!(acc.trials, MOST_TALLIED_VALUES as u64 + 2);
        // Two blocks each under the limit, joined past it.
        let (mut a, mut b) = (Accumulator::default(), Accumulator::default());
        for i in 0..MOST_TALLIED_VALUES / 2 + 1 {
            a.add(&observed(&[("draw", &value(i))], &[])).unwrap();
            b.add(&observed(&[("draw", &value(MOST_TALLIED_VALUES + i))], &[])).unwrap();
        }
        let refused = a.join(b).unwrap_err();
        assert_eq!(refused.key, "draw");
        assert_eq!(refused.values, MOST_TALLIED_VALUES);
    }
}
