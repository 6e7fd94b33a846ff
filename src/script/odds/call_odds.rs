//! `CallOdds`: one procedure call's exact outcomes (its value, the world it leaves) with their chances as counts over one total.

use std::rc::Rc;

use ahash::AHashMap as HashMap;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::One;
use rhai::Dynamic;
use std::hash::Hasher;

use super::chance::Chance;
use super::projection;
use crate::dice::Weights;
use crate::script::fingerprint::{hash_value, same_with_handles};
use crate::script::world::World;

/// One way a procedure call ends: the value it returns, the world it leaves, and a method's receiver.
pub struct Outcome {
    pub value: Dynamic,
    pub world: Rc<World>,
    pub receiver: Option<Dynamic>,
}

/// One procedure call's exact outcomes, and their chances.
pub struct CallOdds {
    pub outcomes: Vec<Outcome>,
    /// Each outcome's chance over a common total; a last one for the chance cut off, if any.
    pub weights: Rc<Weights>,
    pub cut_off: bool,
}

impl CallOdds {
    pub fn new(ends: Vec<(Outcome, Chance)>, residual: Chance) -> CallOdds {
        let mut chances: Vec<Chance> = ends.iter().map(|e| e.1.clone()).collect();
        let cut_off = residual != Chance::zero();
        if cut_off {
            chances.push(residual);
        }
        let outcomes = ends.into_iter().map(|(outcome, _)| outcome).collect();
        CallOdds { outcomes, weights: Rc::new(weights_of(&chances)), cut_off }
    }
}

/// `chances` as counts over a common total: in words while the total fits in one.
fn weights_of(chances: &[Chance]) -> Weights {
    let small: Option<Vec<(u64, u64)>> = chances
        .iter()
        .map(|c| match c {
            Chance::Small { num, den } => Some((*num, *den)),
            Chance::Big(_) => None,
        })
        .collect();
    let total = |small: &[(u64, u64)]| {
        small
            .iter()
            .try_fold(1u64, |lcm, &(_, den)| u64::try_from(u128::from(lcm / lcm.gcd(&den)) * u128::from(den)).ok())
    };
    if let Some(small) = small
        && let Some(total) = total(&small)
    {
        let counts = small.iter().map(|&(num, den)| BigUint::from(u128::from(num) * u128::from(total / den))).collect();
        return Weights { counts, total: BigUint::from(total) };
    }
    let chances: Vec<BigRational> = chances.iter().map(Chance::big).collect();
    let total = chances.iter().fold(BigInt::one(), |lcm, p| lcm.lcm(p.denom()));
    let counts = chances.iter().map(|p| (p.numer() * (&total / p.denom())).to_biguint().unwrap_or_default()).collect();
    let total = total.to_biguint().unwrap_or_else(BigUint::one);
    Weights { counts, total }
}

/// `odds` with the outcomes alike in what the walk's code reads of them (and in what the
/// study counted) made one, their chances added: the first one's world stands for them all.
pub fn merged_by_projection(odds: CallOdds, projection: &projection::Projection) -> CallOdds {
    let CallOdds { outcomes, weights, cut_off } = odds;
    let mut counts = weights.counts.clone();
    let residual = if cut_off { counts.pop() } else { None };
    let mut kept: Vec<Outcome> = Vec::new();
    let mut kept_counts: Vec<BigUint> = Vec::new();
    let mut by_hash: HashMap<u64, Vec<usize>> = HashMap::default();
    for (Outcome { value, world, receiver }, count) in outcomes.into_iter().zip(counts) {
        let value = projection.project(&value);
        let mut hasher = ahash::AHasher::default();
        let hash = hash_value(&value, &mut hasher).then(|| hasher.finish());
        let found = hash.and_then(|h| {
            by_hash.get(&h).and_then(|at| {
                at.iter().copied().find(|&i| {
                    same_with_handles(&kept[i].value, &value)
                        && kept[i].world.observations() == world.observations()
                        && receiver.is_none()
                        && kept[i].receiver.is_none()
                })
            })
        });
        match found {
            Some(i) => kept_counts[i] += count,
            None => {
                if let Some(h) = hash {
                    by_hash.entry(h).or_default().push(kept.len());
                }
                kept.push(Outcome { value, world, receiver });
                kept_counts.push(count);
            }
        }
    }
    kept_counts.extend(residual);
    CallOdds {
        outcomes: kept,
        weights: Rc::new(Weights { counts: kept_counts, total: weights.total.clone() }),
        cut_off,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each count over the total is the chance it stands for, and the total is the least
    /// common multiple of the chances' denominators (worked out with big numbers here).
    fn check(chances: &[Chance]) {
        let weights = weights_of(chances);
        let lcm = chances.iter().fold(BigInt::one(), |lcm, c| lcm.lcm(c.big().denom()));
        assert_eq!(BigInt::from(weights.total.clone()), lcm);
        for (count, chance) in weights.counts.iter().zip(chances) {
            let share = BigRational::new(BigInt::from(count.clone()), BigInt::from(weights.total.clone()));
            assert_eq!(share, chance.big());
        }
    }

    #[test]
    fn chances_become_counts_over_their_least_common_total_in_words_and_past_them() {
        let small = |num, den| Chance::Small { num, den };
        // In words: sixths, tenths and fifteenths over 30.
        check(&[small(1, 6), small(1, 10), small(4, 15), small(7, 15)]);
        let weights = weights_of(&[small(1, 6), small(1, 10), small(4, 15)]);
        assert_eq!(weights.total, BigUint::from(30u32));
        assert_eq!(weights.counts, vec![BigUint::from(5u32), BigUint::from(3u32), BigUint::from(8u32)]);
        // Two large primes: each fits in a word, their product does not.
        check(&[small(1, 4_294_967_291), small(4_294_967_278, 4_294_967_279)]);
        // A chance already past a word.
        let tiny = Chance::Big(BigRational::new(BigInt::one(), BigInt::from(10u32).pow(30)));
        check(&[small(1, 2), tiny]);
    }
}
