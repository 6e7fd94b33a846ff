//! `Chance`: an exact probability, a fraction of two machine words while it fits, of big integers past that.
//!
//! A walk multiplies and adds a chance for every state and every replay, and
//! nearly all of them are small fractions (1/10, 7/100): kept in words, the
//! arithmetic allocates nothing. Past a word (ten rounds of two d10 reach
//! 100^10), it moves to `BigRational` and stays exact.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::ToPrimitive;

/// An exact chance, always in lowest terms; `Small` whenever it fits, so equal chances compare equal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chance {
    Small { num: u64, den: u64 },
    Big(BigRational),
}

impl Chance {
    pub fn one() -> Chance {
        Chance::Small { num: 1, den: 1 }
    }

    pub fn zero() -> Chance {
        Chance::Small { num: 0, den: 1 }
    }

    /// `num / den` (den above 0).
    pub fn ratio(num: &BigUint, den: &BigUint) -> Chance {
        match (num.to_u128(), den.to_u128()) {
            (Some(n), Some(d)) => Chance::reduced(n, d),
            _ => Chance::from_big(BigRational::new(BigInt::from(num.clone()), BigInt::from(den.clone()))),
        }
    }

    /// `num / den` brought to lowest terms, in words when it fits.
    fn reduced(num: u128, den: u128) -> Chance {
        let g = num.gcd(&den).max(1);
        let (num, den) = (num / g, den / g);
        match (u64::try_from(num), u64::try_from(den)) {
            (Ok(num), Ok(den)) => Chance::Small { num, den },
            _ => Chance::Big(BigRational::new(num.into(), den.into())),
        }
    }

    /// The chance `big` (non-negative), in words when it fits.
    pub fn from_big(big: BigRational) -> Chance {
        match (big.numer().to_u64(), big.denom().to_u64()) {
            (Some(num), Some(den)) => Chance::Small { num, den },
            _ => Chance::Big(big),
        }
    }

    pub fn big(&self) -> BigRational {
        match self {
            // Already in lowest terms: nothing to reduce.
            Chance::Small { num, den } => BigRational::new_raw((*num).into(), (*den).into()),
            Chance::Big(big) => big.clone(),
        }
    }

    pub fn times(&self, other: &Chance) -> Chance {
        match (self, other) {
            (Chance::Small { num: a, den: b }, Chance::Small { num: c, den: d }) => {
                // Crossed out first: the product is then in lowest terms, and fits in 128 bits.
                let (g1, g2) = (a.gcd(d).max(1), c.gcd(b).max(1));
                let num = u128::from(a / g1) * u128::from(c / g2);
                let den = u128::from(b / g2) * u128::from(d / g1);
                match (u64::try_from(num), u64::try_from(den)) {
                    (Ok(num), Ok(den)) => Chance::Small { num, den },
                    _ => Chance::Big(BigRational::new(num.into(), den.into())),
                }
            }
            _ => Chance::from_big(self.big() * other.big()),
        }
    }

    pub fn add(&mut self, other: &Chance) {
        if let (Chance::Small { num: a, den: b }, Chance::Small { num: c, den: d }) = (&*self, other) {
            let sum = if b == d {
                Some((u128::from(*a) + u128::from(*c), u128::from(*b)))
            } else {
                let g = b.gcd(d).max(1);
                let (left, right) = (u128::from(*a) * u128::from(d / g), u128::from(*c) * u128::from(b / g));
                left.checked_add(right).map(|num| (num, u128::from(b / g) * u128::from(*d)))
            };
            if let Some((num, den)) = sum {
                *self = Chance::reduced(num, den);
                return;
            }
        }
        *self = Chance::from_big(self.big() + other.big());
    }
}

impl Default for Chance {
    fn default() -> Chance {
        Chance::zero()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn small_arithmetic_is_exact_and_in_lowest_terms() {
        let tenth = Chance::ratio(&1u32.into(), &10u32.into());
        let mut sum = Chance::zero();
        for _ in 0..10 {
            sum.add(&tenth);
        }
        assert_eq!(sum, Chance::one());
        let mut mixed = Chance::ratio(&1u32.into(), &6u32.into());
        mixed.add(&Chance::ratio(&1u32.into(), &10u32.into()));
        assert_eq!(mixed, Chance::Small { num: 4, den: 15 });
        assert_eq!(tenth.times(&Chance::ratio(&5u32.into(), &6u32.into())), Chance::Small { num: 1, den: 12 });
        assert_eq!(Chance::ratio(&6u32.into(), &36u32.into()), Chance::Small { num: 1, den: 6 });
    }

    #[test]
    fn past_a_word_it_stays_exact_and_comes_back_when_it_fits() {
        // (1/100)^10 does not fit in 64 bits; BigRational counts it independently.
        let hundredth = Chance::ratio(&1u32.into(), &100u32.into());
        let mut power = Chance::one();
        let mut expected = big(1, 1);
        for _ in 0..10 {
            power = power.times(&hundredth);
            expected *= big(1, 100);
        }
        assert!(matches!(power, Chance::Big(_)));
        assert_eq!(power.big(), expected);
        // Times 100^10 again: back in words, equal to one.
        let mut back = power.clone();
        for _ in 0..10 {
            back = back.times(&Chance::ratio(&100u32.into(), &1u32.into()));
        }
        assert_eq!(back, Chance::one());
        // Sums whose cross products pass 128 bits.
        let mut a = Chance::Small { num: u64::MAX - 1, den: u64::MAX };
        a.add(&Chance::Small { num: u64::MAX - 2, den: u64::MAX - 1 });
        let expected = big(1, 1) * BigRational::new(BigInt::from(u64::MAX - 1), BigInt::from(u64::MAX))
            + BigRational::new(BigInt::from(u64::MAX - 2), BigInt::from(u64::MAX - 1));
        assert_eq!(a.big(), expected);
        assert_eq!(Chance::from_big(big(3, 4)), Chance::Small { num: 3, den: 4 });
    }
}
