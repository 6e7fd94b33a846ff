//! A loop as a Markov chain over the states at its head: how often each head state is reached, exactly, and so how the loop is left.
//!
//! Each head state was run through the loop's body once, from a chance of 1:
//! it goes on to other head states (or back to itself) with known chances, or
//! leaves the loop. The expected number of visits `v` to each head state is
//! `v = start + Qᵀ v`. When the steps between states form no cycle but
//! states that return to themselves ("roll again on a tie"), the visits are
//! worked out in order, a state's own return counted as the geometric series
//! `1 / (1 - p)`; otherwise the linear system is solved by elimination, with
//! exact fractions.

use std::collections::VecDeque;

use num_rational::BigRational;
use num_traits::{One, Zero};

/// Most head states of a loop whose steps have cycles (solved by elimination).
const CYCLIC_STATES: usize = 400;

/// The steps of one loop, as found. How the loop is left is the caller's: each way out
/// from a head state, with its chance from one visit, times that state's visits.
#[derive(Default)]
pub struct Chain {
    start: Vec<(usize, BigRational)>,
    steps: Vec<(usize, usize, BigRational)>,
}

impl Chain {
    /// The loop is entered at head state `at` with chance `p`.
    pub fn start(&mut self, at: usize, p: BigRational) {
        self.start.push((at, p));
    }

    /// From head state `from`, the body comes back to head state `to` with chance `p`.
    pub fn step(&mut self, from: usize, to: usize, p: BigRational) {
        self.steps.push((from, to, p));
    }

    /// The expected number of visits to each head state.
    pub fn visits(&self, n: usize) -> Result<Vec<BigRational>, String> {
        let mut own = vec![BigRational::zero(); n];
        let mut out: Vec<Vec<(usize, BigRational)>> = vec![Vec::new(); n];
        let mut incoming = vec![0usize; n];
        for (from, to, p) in &self.steps {
            if from == to {
                own[*from] += p;
            } else {
                out[*from].push((*to, p.clone()));
                incoming[*to] += 1;
            }
        }
        let mut entered = vec![BigRational::zero(); n];
        for (at, p) in &self.start {
            entered[*at] += p;
        }
        // In order when the steps have no cycle but self-returns (Kahn's).
        let mut order = Vec::with_capacity(n);
        let mut ready: VecDeque<usize> = (0..n).filter(|&i| incoming[i] == 0).collect();
        let mut left = incoming.clone();
        while let Some(i) = ready.pop_front() {
            order.push(i);
            for (to, _) in &out[i] {
                left[*to] -= 1;
                if left[*to] == 0 {
                    ready.push_back(*to);
                }
            }
        }
        if order.len() == n {
            let mut visits = vec![BigRational::zero(); n];
            for i in order {
                let stay = BigRational::one() - &own[i];
                if stay.is_zero() {
                    if !entered[i].is_zero() {
                        return Err("a loop that can never end".to_string());
                    }
                    continue;
                }
                visits[i] = &entered[i] / stay;
                for (to, p) in &out[i] {
                    let flow = &visits[i] * p;
                    entered[*to] += flow;
                }
            }
            return Ok(visits);
        }
        if n > CYCLIC_STATES {
            return Err(format!("a loop whose states return to each other, with more than {CYCLIC_STATES} of them"));
        }
        // (I - Qᵀ) v = start, by Gauss-Jordan elimination.
        let mut a = vec![vec![BigRational::zero(); n + 1]; n];
        for (i, row) in a.iter_mut().enumerate() {
            row[i] = BigRational::one();
            row[n] = self.start.iter().filter(|(at, _)| *at == i).map(|(_, p)| p.clone()).sum();
        }
        for (from, to, p) in &self.steps {
            a[*to][*from] -= p;
        }
        for col in 0..n {
            let Some(pivot) = (col..n).find(|&r| !a[r][col].is_zero()) else {
                return Err("a loop that can never end".to_string());
            };
            a.swap(col, pivot);
            let inverse = BigRational::one() / &a[col][col];
            for x in a[col].iter_mut() {
                *x *= &inverse;
            }
            let pivot_row = a[col].clone();
            for (r, row) in a.iter_mut().enumerate() {
                if r != col && !row[col].is_zero() {
                    let factor = row[col].clone();
                    for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                        *x -= &factor * p;
                    }
                }
            }
        }
        Ok(a.into_iter().map(|row| row[n].clone()).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn a_state_that_returns_to_itself_is_a_geometric_series() {
        // "Roll a d6 until it is not a 1": stay with 1/6, leave with 5/6: 6/5 visits, left for certain.
        let mut chain = Chain::default();
        chain.start(0, BigRational::one());
        chain.step(0, 0, ratio(1, 6));
        let visits = chain.visits(1).unwrap();
        assert_eq!(visits, [ratio(6, 5)]);
        assert_eq!(&visits[0] * ratio(5, 6), BigRational::one());
    }

    #[test]
    fn states_that_return_to_each_other_are_solved_exactly() {
        // A walk between two states: from 0, to 1 with 1/2 or out "a" with 1/2;
        // from 1, back to 0 with 1/3 or out "b" with 2/3.
        // v0 = 1 + v1/3, v1 = v0/2: v0 = 6/5, v1 = 3/5; a = 3/5, b = 2/5.
        let mut chain = Chain::default();
        chain.start(0, BigRational::one());
        chain.step(0, 1, ratio(1, 2));
        chain.step(1, 0, ratio(1, 3));
        let visits = chain.visits(2).unwrap();
        assert_eq!(visits, [ratio(6, 5), ratio(3, 5)]);
        assert_eq!((&visits[0] * ratio(1, 2), &visits[1] * ratio(2, 3)), (ratio(3, 5), ratio(2, 5)));
    }

    #[test]
    fn a_chain_without_cycles_is_followed_in_order() {
        // 0 -> 1 -> 2, each step half the time, else out.
        let mut chain = Chain::default();
        chain.start(0, BigRational::one());
        chain.step(0, 1, ratio(1, 2));
        chain.step(1, 2, ratio(1, 2));
        assert_eq!(chain.visits(3).unwrap(), [BigRational::one(), ratio(1, 2), ratio(1, 4)]);
    }

    #[test]
    fn a_loop_that_cannot_end_is_refused() {
        let mut chain = Chain::default();
        chain.start(0, BigRational::one());
        chain.step(0, 0, BigRational::one());
        assert!(chain.visits(1).is_err());
    }
}
