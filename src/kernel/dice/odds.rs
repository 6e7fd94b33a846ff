//! Exact odds of a dice expression by convolution, with the work estimated and refused past a limit.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::ast::{DiceExpr, DicePool, Sum, Term};
use super::conventions::DiceLimits;
use super::distribution::Distribution;
use super::error::DiceError;

/// The exact answer to a dice expression: a distribution of totals, or the
/// chance that a comparison holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Odds {
    Totals(Distribution<i64>),
    Chance(Distribution<bool>),
}

/// The exact distribution of `expr`, refused with `ExactTooBig` when the work
/// estimate passes `limits.max_exact_work`.
///
/// # Example
/// ```
/// use grognard::dice::{exact_odds, parse, DiceLimits, Odds};
/// let Odds::Totals(d) = exact_odds(&parse("2d6").unwrap(), &DiceLimits::default()).unwrap() else {
///     unreachable!()
/// };
/// assert_eq!(d.probability(&7).to_string(), "1/6");
/// ```
pub fn exact_odds(expr: &DiceExpr, limits: &DiceLimits) -> Result<Odds, DiceError> {
    let work = estimate_work(expr);
    if work > limits.max_exact_work {
        return Err(DiceError::ExactTooBig {
            expr: expr.to_string(),
            work,
            limit: limits.max_exact_work,
        });
    }
    let left = sum_dist(&expr.left);
    Ok(match &expr.comparison {
        None => Odds::Totals(left.into_distribution()),
        Some((op, right)) => {
            // left op right  <=>  (left - right) op 0, for every comparison.
            let diff = left.convolve(&sum_dist(right).negate());
            let mut counts = BTreeMap::new();
            for (value, count) in diff.entries() {
                *counts
                    .entry(op.holds(value, 0))
                    .or_insert_with(BigUint::zero) += count;
            }
            Odds::Chance(Distribution::from_counts(counts, diff.denominator))
        }
    })
}

/// Elementary steps (big-number additions) the exact computation would take.
pub fn estimate_work(expr: &DiceExpr) -> u64 {
    let mut work = 0u64;
    let mut width_left = sum_width(&expr.left, &mut work);
    if let Some((_, right)) = &expr.comparison {
        let width_right = sum_width(right, &mut work);
        work = work.saturating_add(width_left.saturating_mul(width_right));
        width_left = width_left.saturating_add(width_right);
    }
    work.saturating_add(width_left)
}

/// Number of possible totals of `sum`, adding the work of building it to `work`.
fn sum_width(sum: &Sum, work: &mut u64) -> u64 {
    let mut width = 1u64;
    for term in &sum.terms {
        if let Term::Dice(pool) = term.term {
            let pool_width = (pool.max() - pool.min()) as u64 + 1;
            *work = work.saturating_add(pool_work(&pool));
            *work = work.saturating_add(width.saturating_mul(pool_width));
            width = width.saturating_add(pool_width - 1);
        }
    }
    width
}

fn pool_work(pool: &DicePool) -> u64 {
    let n = u64::from(pool.count);
    let s = u64::from(pool.die.sides);
    match pool.keep {
        // Each die slides a window over the running distribution (up to n*s wide).
        None => n.saturating_mul(n).saturating_mul(s).saturating_mul(3) + s,
        // One visit per multiset of faces, each costing about n + s steps.
        Some(_) => multisets(n, s).saturating_mul(n + s),
    }
}

/// C(n + s - 1, s - 1): the number of multisets of n dice with s faces, saturating.
fn multisets(n: u64, s: u64) -> u64 {
    let k = (s - 1).min(n);
    let mut acc: u128 = 1;
    for i in 0..k {
        acc = acc * u128::from(n + s - 1 - i) / u128::from(i + 1);
        if acc > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    acc as u64
}

/// A distribution over consecutive integers: counts of equally likely elementary outcomes.
#[derive(Clone, Debug)]
struct Dense {
    min: i64,
    counts: Vec<BigUint>,
    denominator: BigUint,
}

impl Dense {
    fn constant(value: i64) -> Self {
        Dense {
            min: value,
            counts: vec![BigUint::one()],
            denominator: BigUint::one(),
        }
    }

    fn entries(&self) -> impl Iterator<Item = (i64, &BigUint)> {
        self.counts
            .iter()
            .enumerate()
            .map(|(i, c)| (self.min + i as i64, c))
    }

    fn convolve(&self, other: &Dense) -> Dense {
        let mut counts = vec![BigUint::zero(); self.counts.len() + other.counts.len() - 1];
        for (i, a) in self.counts.iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (j, b) in other.counts.iter().enumerate() {
                if !b.is_zero() {
                    counts[i + j] += a * b;
                }
            }
        }
        Dense {
            min: self.min + other.min,
            counts,
            denominator: &self.denominator * &other.denominator,
        }
    }

    /// Adds one die with `sides` faces from `first`: each new count is the sum of a
    /// window of `sides` old counts, kept running so a die costs two steps per total.
    fn add_die(&self, first: i64, sides: usize) -> Dense {
        let width = self.counts.len() + sides - 1;
        let mut counts = Vec::with_capacity(width);
        let mut window = BigUint::zero();
        for t in 0..width {
            if let Some(entering) = self.counts.get(t) {
                window += entering;
            }
            if t >= sides {
                window -= &self.counts[t - sides];
            }
            counts.push(window.clone());
        }
        Dense {
            min: self.min + first,
            counts,
            denominator: &self.denominator * BigUint::from(sides),
        }
    }

    fn negate(mut self) -> Dense {
        let max = self.min + self.counts.len() as i64 - 1;
        self.counts.reverse();
        self.min = -max;
        self
    }

    fn into_distribution(self) -> Distribution<i64> {
        let counts = self
            .counts
            .into_iter()
            .enumerate()
            .map(|(i, c)| (self.min + i as i64, c))
            .collect();
        Distribution::from_counts(counts, self.denominator)
    }
}

fn sum_dist(sum: &Sum) -> Dense {
    let mut acc = Dense::constant(0);
    for term in &sum.terms {
        let part = match term.term {
            Term::Constant(c) => Dense::constant(c),
            Term::Dice(pool) => pool_dist(&pool),
        };
        let part = if term.negative { part.negate() } else { part };
        acc = acc.convolve(&part);
    }
    acc
}

fn pool_dist(pool: &DicePool) -> Dense {
    match pool.keep {
        None => {
            let mut acc = Dense::constant(0);
            for _ in 0..pool.count {
                acc = acc.add_die(pool.die.min_face(), pool.die.sides as usize);
            }
            acc
        }
        Some(keep) => KeptPool::new(pool, keep.kept_of(pool.count)).distribution(),
    }
}

/// Walks every multiset of faces of a pool, weighting each by the number of
/// ordered rolls that give it, and sums the kept faces.
struct KeptPool {
    min_total: i64,
    first_face: i64,
    sides: u32,
    count: u32,
    kept: u32,
    highest: bool,
    /// Pascal's triangle up to `count` rows: binomial[n][k].
    binomial: Vec<Vec<BigUint>>,
    counts: Vec<BigUint>,
}

impl KeptPool {
    fn new(pool: &DicePool, (kept, highest): (u32, bool)) -> Self {
        let mut binomial: Vec<Vec<BigUint>> = vec![vec![BigUint::one()]];
        for n in 1..=pool.count as usize {
            let prev = &binomial[n - 1];
            let mut row = vec![BigUint::one(); n + 1];
            for k in 1..n {
                row[k] = &prev[k - 1] + &prev[k];
            }
            binomial.push(row);
        }
        let width = (kept as usize) * (pool.die.sides as usize - 1) + 1;
        KeptPool {
            min_total: i64::from(kept) * pool.die.min_face(),
            first_face: pool.die.min_face(),
            sides: pool.die.sides,
            count: pool.count,
            kept,
            highest,
            binomial,
            counts: vec![BigUint::zero(); width],
        }
    }

    fn distribution(mut self) -> Dense {
        // Faces are visited from the end that is kept first: highest down, or lowest up.
        self.visit(0, self.count, self.kept, 0, BigUint::one());
        let denominator = BigUint::from(self.sides).pow(self.count);
        Dense {
            min: self.min_total,
            counts: self.counts,
            denominator,
        }
    }

    /// `step` is the how-many-th face value from the kept end; `left` dice are
    /// still to place, `slots` of them still count; `sum` is the kept total so far.
    fn visit(&mut self, step: u32, left: u32, slots: u32, sum: i64, weight: BigUint) {
        let face = if self.highest {
            self.first_face + i64::from(self.sides - 1 - step)
        } else {
            self.first_face + i64::from(step)
        };
        if step == self.sides - 1 {
            // Every remaining die shows this last face.
            let total = sum + i64::from(left.min(slots)) * face;
            self.counts[(total - self.min_total) as usize] += weight;
            return;
        }
        for here in 0..=left {
            let w = &weight * &self.binomial[left as usize][here as usize];
            let counted = here.min(slots);
            self.visit(
                step + 1,
                left - here,
                slots - counted,
                sum + i64::from(counted) * face,
                w,
            );
        }
    }
}
