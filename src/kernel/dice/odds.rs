//! Exact odds of a dice expression by convolution, with the work estimated and refused past a limit.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::ast::{DiceExpr, DicePool, Die, Explode, Sum, Term};
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
        return Err(DiceError::ExactTooBig { expr: expr.to_string(), work, limit: limits.max_exact_work });
    }
    let left = sum_dist(&expr.left);
    Ok(match &expr.comparison {
        None => Odds::Totals(left.into_distribution()),
        Some((op, right)) => {
            // left op right  <=>  (left - right) op 0, for every comparison.
            let diff = left.convolve(&sum_dist(right).negate());
            let mut counts = BTreeMap::new();
            for (value, count) in diff.entries() {
                *counts.entry(op.holds(value, 0)).or_insert_with(BigUint::zero) += count;
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
            let pool_width = (term.max() - term.min()) as u64 + 1;
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
    if pool.hits.is_some() {
        // Pascal's triangle, then a power pair per number of hits.
        return n.saturating_mul(n).saturating_add(n.saturating_mul(4));
    }
    if let Some(explode) = pool.explode {
        // Each level of each die is as wide as what it can come to; then a convolution per die.
        let (lo, hi) = explode.range(&pool.die);
        let w = (hi - lo) as u64 + 1;
        let levels = u64::from(explode.depth).saturating_mul(s).saturating_mul(w);
        return levels.saturating_add(n.saturating_mul(n).saturating_mul(w).saturating_mul(w));
    }
    match pool.keep {
        // Each re-rolled die is a full convolution with the running distribution.
        None if pool.reroll.is_some() => n.saturating_mul(n).saturating_mul(s).saturating_mul(s) + s,
        // Each die slides a window over the running distribution (up to n*s wide).
        None => n.saturating_mul(n).saturating_mul(s).saturating_mul(3) + s,
        // Per face, per dice left, per split: one shifted copy of a vector as wide
        // as the kept total; plus Pascal's triangle up to n rows.
        Some(keep) => {
            let kept = u64::from(keep.kept_of(pool.count).0);
            let width = kept.saturating_mul(s - 1) + 1;
            s.saturating_mul(n + 1).saturating_mul(n + 2).saturating_mul(width) / 2 + n.saturating_mul(n) / 2
        }
    }
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
        Dense { min: value, counts: vec![BigUint::one()], denominator: BigUint::one() }
    }

    fn entries(&self) -> impl Iterator<Item = (i64, &BigUint)> {
        self.counts.iter().enumerate().map(|(i, c)| (self.min + i as i64, c))
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
        Dense { min: self.min + other.min, counts, denominator: &self.denominator * &other.denominator }
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
        Dense { min: self.min + first, counts, denominator: &self.denominator * BigUint::from(sides) }
    }

    /// Each value scaled (`2d6*2`, `1d6/2`): spread apart, or gathered, in order.
    fn scaled(self, scale: super::ast::Scale) -> Dense {
        let max = self.min + self.counts.len() as i64 - 1;
        let (lo, hi) = (scale.apply(self.min), scale.apply(max));
        let mut counts = vec![BigUint::zero(); (hi - lo + 1) as usize];
        for (i, c) in self.counts.into_iter().enumerate() {
            counts[(scale.apply(self.min + i as i64) - lo) as usize] += c;
        }
        Dense { min: lo, counts, denominator: self.denominator }
    }

    fn negate(mut self) -> Dense {
        let max = self.min + self.counts.len() as i64 - 1;
        self.counts.reverse();
        self.min = -max;
        self
    }

    fn into_distribution(self) -> Distribution<i64> {
        let counts = self.counts.into_iter().enumerate().map(|(i, c)| (self.min + i as i64, c)).collect();
        Distribution::from_counts(counts, self.denominator)
    }
}

fn sum_dist(sum: &Sum) -> Dense {
    let mut acc = Dense::constant(0);
    let mut offset = 0i64;
    for term in &sum.terms {
        match term.term {
            // A constant only shifts the totals; no need to convolve it.
            Term::Constant(_) => offset += term.min(),
            Term::Dice(pool) => {
                let part = pool_dist(&pool);
                let part = match term.scale {
                    Some(scale) => part.scaled(scale),
                    None => part,
                };
                let part = if term.negative { part.negate() } else { part };
                acc = acc.convolve(&part);
            }
        }
    }
    acc.min += offset;
    acc
}

fn pool_dist(pool: &DicePool) -> Dense {
    if let Some(at) = pool.hits {
        return hits_dist(pool, at);
    }
    if let Some(explode) = pool.explode {
        let one = exploding_die(&pool.die, &explode);
        let mut acc = Dense::constant(0);
        for _ in 0..pool.count {
            acc = acc.convolve(&one);
        }
        return acc;
    }
    match (pool.keep, pool.reroll) {
        (None, None) if pool.die.faces.is_none() => {
            let mut acc = Dense::constant(0);
            for _ in 0..pool.count {
                acc = acc.add_die(pool.die.min_face(), pool.die.sides as usize);
            }
            acc
        }
        // A re-rolled die, or one with faces of its own, is not one-apart and alike:
        // each die is its values' weights, convolved.
        (None, _) => {
            let one = one_die(pool);
            let mut acc = Dense::constant(0);
            for _ in 0..pool.count {
                acc = acc.convolve(&one);
            }
            acc
        }
        (Some(keep), _) => kept_pool_dist(pool, keep.kept_of(pool.count)),
    }
}

/// One die of `pool` as the values it can end on, each weighted by its sides (and re-roll).
fn one_die(pool: &DicePool) -> Dense {
    let (values, total) = value_weights(pool);
    let (min, max) = (pool.die.min_face(), pool.die.max_face());
    let mut counts = vec![BigUint::zero(); (max - min + 1) as usize];
    for (value, w) in values {
        counts[(value - min) as usize] = BigUint::from(w);
    }
    Dense { min, counts, denominator: BigUint::from(total) }
}

/// Each value a die of `pool` can end on, lowest first, with its weight (its sides,
/// weighted by the re-roll), and the weights' sum.
fn value_weights(pool: &DicePool) -> (Vec<(i64, u64)>, u64) {
    let (weights, total) = face_weights(pool);
    let mut values: Vec<(i64, u64)> = Vec::new();
    for (i, w) in weights.into_iter().enumerate() {
        let value = pool.die.face(i as u32);
        match values.last_mut() {
            Some((last, sum)) if *last == value => *sum += w,
            _ => values.push((value, w)),
        }
    }
    (values, total)
}

/// One exploding die: with no explosion left it is its face; one level up, a face
/// that explodes is itself plus whatever the die below it comes to.
fn exploding_die(die: &Die, explode: &Explode) -> Dense {
    let faces: Vec<i64> = (0..die.sides).map(|i| die.face(i)).collect();
    let plain = DicePool { count: 1, die: *die, keep: None, hits: None, reroll: None, explode: None };
    let mut below = one_die(&plain);
    for _ in 0..explode.depth {
        let (lo, hi) = faces.iter().fold((i64::MAX, i64::MIN), |(lo, hi), &f| {
            let (a, b) = if explode.when.takes(f) {
                (f + below.min, f + below.min + below.counts.len() as i64 - 1)
            } else {
                (f, f)
            };
            (lo.min(a), hi.max(b))
        });
        let mut counts = vec![BigUint::zero(); (hi - lo + 1) as usize];
        for &f in &faces {
            if explode.when.takes(f) {
                for (i, c) in below.counts.iter().enumerate() {
                    counts[(f + below.min + i as i64 - lo) as usize] += c;
                }
            } else {
                // Stopped here: as many ways as a whole roll of the die below has.
                counts[(f - lo) as usize] += &below.denominator;
            }
        }
        below = Dense { min: lo, counts, denominator: &below.denominator * BigUint::from(die.sides) };
    }
    below
}

/// How likely each face of one die of `pool` is to be the one it ends on, as whole
/// weights, and their sum: all alike without a re-roll.
fn face_weights(pool: &DicePool) -> (Vec<u64>, u64) {
    let weights = match pool.reroll {
        Some(reroll) => reroll.weights(&pool.die),
        None => vec![1; pool.die.sides as usize],
    };
    let total = weights.iter().sum();
    (weights, total)
}

/// The distribution of the kept dice of a pool, face by face from the kept end.
///
/// Placing dice on faces from the kept end (highest face first when keeping
/// the highest), the first `kept` dice placed are the ones that count. So the
/// state after some faces is just how many dice are left to place: `ways[left]`
/// holds, for each kept total so far, the number of ordered rolls that give it.
/// Each face moves `here` of the `left` dice onto itself, in C(left, here) orders.
fn kept_pool_dist(pool: &DicePool, (kept, highest): (u32, bool)) -> Dense {
    let count = pool.count as usize;
    let kept = kept as usize;
    let min = pool.die.min_face();
    // Each value a die can show, as its distance above the lowest, with its weight.
    let (values, total) = value_weights(pool);
    let sides = values.len();
    let width = kept * (pool.die.max_face() - min) as usize + 1;
    let binomial = pascal(count);
    // `here` dice on a value of weight w: w^here ways (a plain die's values weigh 1).
    let weighted = values.iter().any(|&(_, w)| w != 1);
    let powers: Option<Vec<Vec<BigUint>>> = weighted
        .then(|| values.iter().map(|&(_, w)| (0..=count).map(|k| BigUint::from(w).pow(k as u32)).collect()).collect());
    // Totals are sums of distances above the lowest value; the lowest is added at the end.
    let mut ways: Vec<Vec<BigUint>> = vec![Vec::new(); count + 1];
    ways[count] = vec![BigUint::zero(); width];
    ways[count][0] = BigUint::one();
    for step in 0..sides {
        let index = if highest { sides - 1 - step } else { step };
        let offset = (values[index].0 - min) as usize;
        let last = step == sides - 1;
        let mut next: Vec<Vec<BigUint>> = vec![Vec::new(); count + 1];
        for left in 0..=count {
            if ways[left].is_empty() {
                continue;
            }
            let slots = kept.saturating_sub(count - left);
            // On the last face every die left must land there.
            let choices = if last { left..=left } else { 0..=left };
            for here in choices {
                let shift = here.min(slots) * offset;
                let target = &mut next[left - here];
                if target.is_empty() {
                    *target = vec![BigUint::zero(); width];
                }
                let w = match &powers {
                    Some(powers) => &binomial[left][here] * &powers[index][here],
                    None => binomial[left][here].clone(),
                };
                for (t, c) in ways[left].iter().enumerate() {
                    if !c.is_zero() {
                        target[t + shift] += c * &w;
                    }
                }
            }
        }
        ways = next;
    }
    Dense {
        min: kept as i64 * pool.die.min_face(),
        counts: std::mem::take(&mut ways[0]),
        denominator: BigUint::from(total).pow(pool.count),
    }
}

/// How many of a pool's kept dice show `at` or more: a binomial over the dice, read
/// through the keep. Hits are the highest faces, so keeping the highest k of n dice
/// keeps min(k, hits) of them, and keeping the lowest k keeps what the n - k dropped
/// (the highest) leave: max(0, hits - (n - k)).
fn hits_dist(pool: &DicePool, at: i64) -> Dense {
    let n = pool.count as usize;
    let (weights, total) = face_weights(pool);
    let hitting: u64 = (0..pool.die.sides).filter(|&i| pool.die.face(i) >= at).map(|i| weights[i as usize]).sum();
    let (kept, highest) = pool.keep.map_or((pool.count, true), |k| k.kept_of(pool.count));
    let kept = kept as usize;
    let binomial = pascal(n);
    let mut counts = vec![BigUint::zero(); kept + 1];
    for (h, orders) in binomial[n].iter().enumerate() {
        // C(n, h) orders of h hits among n dice, each hit one of `hitting` faces, each miss one of the rest.
        let ways = orders * BigUint::from(hitting).pow(h as u32) * BigUint::from(total - hitting).pow((n - h) as u32);
        let counted = if highest { h.min(kept) } else { h.saturating_sub(n - kept) };
        counts[counted] += ways;
    }
    Dense { min: 0, counts, denominator: BigUint::from(total).pow(pool.count) }
}

/// Pascal's triangle: `pascal(n)[a][b]` is C(a, b) for a <= n.
fn pascal(n: usize) -> Vec<Vec<BigUint>> {
    let mut rows: Vec<Vec<BigUint>> = vec![vec![BigUint::one()]];
    for a in 1..=n {
        let prev = &rows[a - 1];
        let mut row = vec![BigUint::one(); a + 1];
        for b in 1..a {
            row[b] = &prev[b - 1] + &prev[b];
        }
        rows.push(row);
    }
    rows
}
