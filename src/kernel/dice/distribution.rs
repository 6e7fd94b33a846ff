//! `Distribution<T>`: exact probabilities of outcomes, as counts over one common denominator.

use std::collections::BTreeMap;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

/// Exact probabilities of outcomes of type `T`.
///
/// Every probability is `count / denominator`; `residual / denominator` is the
/// probability that was cut off (an outcome not reached because a loop was
/// stopped), so counts and residual together sum to the denominator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution<T: Ord> {
    counts: BTreeMap<T, BigUint>,
    denominator: BigUint,
    residual: BigUint,
}

impl<T: Ord> Default for Distribution<T> {
    fn default() -> Self {
        Distribution { counts: BTreeMap::new(), denominator: BigUint::one(), residual: BigUint::zero() }
    }
}

impl<T: Ord> Distribution<T> {
    /// An empty distribution (no mass yet), to be filled by `add`.
    pub fn new() -> Self {
        Self::default()
    }

    /// From outcome counts that sum to `denominator` (equally likely elementary outcomes).
    pub fn from_counts(counts: BTreeMap<T, BigUint>, denominator: BigUint) -> Self {
        let counts = counts.into_iter().filter(|(_, c)| !c.is_zero()).collect();
        Distribution { counts, denominator, residual: BigUint::zero() }
    }

    /// Adds probability `1 / weight_den` to `outcome`.
    pub fn add(&mut self, outcome: T, weight_den: &BigUint) {
        let share = self.share_of(weight_den);
        *self.counts.entry(outcome).or_default() += share;
    }

    /// Adds probability `1 / weight_den` to the residual (mass that was cut off).
    pub fn add_residual(&mut self, weight_den: &BigUint) {
        let share = self.share_of(weight_den);
        self.residual += share;
    }

    /// Adds probability `num / den` to `outcome`.
    pub fn add_fraction(&mut self, outcome: T, num: &BigUint, den: &BigUint) {
        let share = self.share_of(den) * num;
        *self.counts.entry(outcome).or_default() += share;
    }

    /// Adds probability `num / den` to the residual.
    pub fn add_residual_fraction(&mut self, num: &BigUint, den: &BigUint) {
        let share = self.share_of(den) * num;
        self.residual += share;
    }

    /// Rescales to a denominator that `weight_den` divides, and returns the
    /// count that `1 / weight_den` is worth.
    fn share_of(&mut self, weight_den: &BigUint) -> BigUint {
        if !(&self.denominator % weight_den).is_zero() {
            let lcm = self.denominator.lcm(weight_den);
            let factor = &lcm / &self.denominator;
            for c in self.counts.values_mut() {
                *c *= &factor;
            }
            self.residual *= &factor;
            self.denominator = lcm;
        }
        &self.denominator / weight_den
    }

    /// The probability of `outcome`, reduced.
    pub fn probability(&self, outcome: &T) -> BigRational {
        self.counts.get(outcome).map_or_else(BigRational::zero, |c| self.ratio(c))
    }

    /// Outcomes in order with their probabilities.
    pub fn iter(&self) -> impl Iterator<Item = (&T, BigRational)> {
        self.counts.iter().map(|(t, c)| (t, self.ratio(c)))
    }

    /// Outcomes in order with their raw counts over `denominator()`.
    pub fn counts(&self) -> impl Iterator<Item = (&T, &BigUint)> {
        self.counts.iter()
    }

    /// The common denominator of the counts.
    pub fn denominator(&self) -> &BigUint {
        &self.denominator
    }

    /// Number of distinct outcomes.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether no outcome has any probability.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The probability that was cut off rather than reaching an outcome.
    pub fn residual(&self) -> BigRational {
        self.ratio(&self.residual)
    }

    /// The probability of all outcomes together: 1 unless some was cut off.
    pub fn total(&self) -> BigRational {
        let sum: BigUint = self.counts.values().sum();
        self.ratio(&sum)
    }

    /// The probability of every outcome for which `pred` holds.
    pub fn chance(&self, pred: impl Fn(&T) -> bool) -> BigRational {
        let sum: BigUint = self.counts.iter().filter(|(t, _)| pred(t)).map(|(_, c)| c).sum();
        self.ratio(&sum)
    }

    /// The same distribution with each outcome mapped (outcomes that meet are merged).
    pub fn map<U: Ord>(self, f: impl Fn(T) -> U) -> Distribution<U> {
        let mut counts: BTreeMap<U, BigUint> = BTreeMap::new();
        for (t, c) in self.counts {
            *counts.entry(f(t)).or_default() += c;
        }
        Distribution { counts, denominator: self.denominator, residual: self.residual }
    }

    fn ratio(&self, count: &BigUint) -> BigRational {
        BigRational::new(BigInt::from(count.clone()), BigInt::from(self.denominator.clone()))
    }
}

impl Distribution<i64> {
    /// The mean outcome over the mass that reached an outcome (cut-off mass excluded).
    pub fn mean(&self) -> BigRational {
        let reached: BigUint = self.counts.values().sum();
        if reached.is_zero() {
            return BigRational::zero();
        }
        let weighted: BigInt = self.counts.iter().map(|(v, c)| BigInt::from(*v) * BigInt::from(c.clone())).sum();
        BigRational::new(weighted, BigInt::from(reached))
    }

    /// The chance of at least `v`.
    pub fn at_least(&self, v: i64) -> BigRational {
        self.chance(|&x| x >= v)
    }

    /// The chance of at most `v`.
    pub fn at_most(&self, v: i64) -> BigRational {
        self.chance(|&x| x <= v)
    }

    /// The smallest outcome with any probability.
    pub fn min(&self) -> Option<i64> {
        self.counts.keys().next().copied()
    }

    /// The largest outcome with any probability.
    pub fn max(&self) -> Option<i64> {
        self.counts.keys().next_back().copied()
    }
}

/// `num/den` as written in odds tables and JSON.
pub fn fraction(r: &BigRational) -> String {
    if r.denom().is_one() { r.numer().to_string() } else { format!("{}/{}", r.numer(), r.denom()) }
}

/// A probability as a float, for display next to the exact fraction.
pub fn to_f64(r: &BigRational) -> f64 {
    r.to_f64().unwrap_or(f64::NAN)
}
