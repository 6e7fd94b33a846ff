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

/// Counts and moments of the trials folded so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Accumulator {
    pub trials: u64,
    /// Per key, each outcome's count and when it was first tallied (the how-many-th tally).
    tallies: BTreeMap<String, BTreeMap<String, (u64, u64)>>,
    records: BTreeMap<String, Moments>,
    /// Tallies folded so far: the clock `first` is read on.
    tallied: u64,
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
    /// Folds in the next trial.
    pub fn add(&mut self, trial: &Observations) {
        self.trials += 1;
        for (key, value) in &trial.tallies {
            let outcomes = match self.tallies.get_mut(key.as_str()) {
                Some(outcomes) => outcomes,
                None => self.tallies.entry(key.to_string()).or_default(),
            };
            match outcomes.get_mut(value.as_str()) {
                Some((count, _)) => *count += 1,
                None => {
                    outcomes.insert(value.to_string(), (1, self.tallied));
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
    }

    /// Joins the trials that came after these (the next block).
    pub fn join(&mut self, later: Accumulator) {
        self.trials += later.trials;
        for (key, outcomes) in later.tallies {
            let mine = self.tallies.entry(key).or_default();
            for (value, (count, first)) in outcomes {
                let tallied = self.tallied;
                mine.entry(value).and_modify(|(c, _)| *c += count).or_insert((count, tallied + first));
            }
        }
        self.tallied += later.tallied;
        for (key, moments) in later.records {
            self.records.entry(key).or_default().join(&moments);
        }
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
            whole.add(t);
        }
        let mut joined = Accumulator::default();
        for block in trials.chunks(700) {
            let mut part = Accumulator::default();
            for t in block {
                part.add(t);
            }
            joined.join(part);
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
            ));
        }
        let (w, key, _) = acc.widest().unwrap();
        let (low, high) = wilson(50, 100);
        assert_eq!(key, "hit");
        assert!((w - (high - low) / 2.0).abs() < 1e-12);
        assert_eq!(Accumulator::default().widest(), None);
    }
}
