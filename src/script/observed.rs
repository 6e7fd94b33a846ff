//! `ObservedOdds`: what a script counted with `tally` and `record` over an odds walk, each run weighted by its chance (or trial by trial, when sampled).

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::Zero;

use super::state::Observations;
use crate::dice::Distribution;

/// The observations of every run of a walk, or of every trial of a sample.
#[derive(Clone, Debug)]
pub enum ObservedOdds {
    /// Walked: the exact weight of each value of each key.
    Exact(ExactObservations),
    /// Sampled: the trials that observed anything, as a study keeps them, and how many trials there were.
    Sampled { trials: u64, observed: Vec<Observations> },
}

impl Default for ObservedOdds {
    fn default() -> Self {
        ObservedOdds::Exact(ExactObservations::default())
    }
}

impl ObservedOdds {
    /// Whether nothing was tallied or recorded.
    pub fn is_empty(&self) -> bool {
        match self {
            ObservedOdds::Exact(exact) => exact.tallies.is_empty() && exact.records.is_empty(),
            ObservedOdds::Sampled { observed, .. } => observed.is_empty(),
        }
    }
}

/// Each key's observations over a walk: `tally` keys with their values as written, `record`
/// keys with their numbers as exact fractions (a float is a fraction of a power of two).
#[derive(Clone, Debug, Default)]
pub struct ExactObservations {
    pub tallies: BTreeMap<String, KeyOdds<String>>,
    pub records: BTreeMap<String, KeyOdds<BigRational>>,
    /// Runs that finished (cut-off runs observe nothing).
    runs: u64,
}

/// One key's observations over a walk.
#[derive(Clone, Debug)]
pub struct KeyOdds<T: Ord> {
    /// Each value with the chance-weighted count of its observations: its chance per trial
    /// when the key is observed once a trial.
    pub values: Distribution<T>,
    /// Finished runs that observed the key exactly once.
    runs_once: u64,
}

impl<T: Ord> Default for KeyOdds<T> {
    fn default() -> Self {
        KeyOdds { values: Distribution::new(), runs_once: 0 }
    }
}

impl<T: Ord> KeyOdds<T> {
    /// How many times a trial observes the key, on average over the chance `reached` that
    /// was not cut off.
    pub fn per_trial(&self, reached: &BigRational) -> BigRational {
        if reached.is_zero() { BigRational::zero() } else { self.values.total() / reached }
    }

    /// Each value with its chance per trial when `once` (the key observed exactly once in
    /// every trial, see `ExactObservations::once`), else with its share of the key's
    /// observations (as a sampled study counts them), in the values' order.
    pub fn rows(&self, once: bool) -> Vec<(&T, BigRational)> {
        let all = self.values.total();
        self.values.iter().map(|(v, w)| (v, if once || all.is_zero() { w } else { w / &all })).collect()
    }
}

impl ExactObservations {
    /// Adds one finished run's observations, each with the run's chance `num / den`.
    pub fn add_run(&mut self, observations: &Observations, num: &BigUint, den: &BigUint) {
        self.runs += 1;
        let mut tallied: BTreeMap<&str, u32> = BTreeMap::new();
        for (key, value) in &observations.tallies {
            self.tallies.entry(key.to_string()).or_default().values.add_fraction(value.to_string(), num, den);
            *tallied.entry(key).or_default() += 1;
        }
        let mut recorded: BTreeMap<&str, u32> = BTreeMap::new();
        for (key, value) in &observations.records {
            // `record` refuses numbers that are not finite, so every one is a fraction.
            let value = BigRational::from_float(*value).unwrap_or_default();
            self.records.entry(key.to_string()).or_default().values.add_fraction(value, num, den);
            *recorded.entry(key).or_default() += 1;
        }
        for (key, _) in tallied.into_iter().filter(|(_, n)| *n == 1) {
            if let Some(k) = self.tallies.get_mut(key) {
                k.runs_once += 1;
            }
        }
        for (key, _) in recorded.into_iter().filter(|(_, n)| *n == 1) {
            if let Some(k) = self.records.get_mut(key) {
                k.runs_once += 1;
            }
        }
    }

    /// Whether every finished run observed `key` exactly once: then each value's weight is
    /// its chance per trial, and they sum to the chance that was not cut off.
    pub fn once<T: Ord>(&self, key: &KeyOdds<T>) -> bool {
        key.runs_once == self.runs
    }
}
