//! Two rule versions' odds of the same call, outcome by outcome: what a house rule changes.

use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

use super::{Outcome, ProcedureOdds};

/// One outcome's chance under each version.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub outcome: Outcome,
    pub a: BigRational,
    pub b: BigRational,
}

impl Change {
    /// How far the chance moved from A to B, in percentage points.
    pub fn points(&self) -> f64 {
        ((&self.b - &self.a) * BigRational::from_integer(100.into())).to_f64().unwrap_or(f64::NAN)
    }
}

/// The two versions' odds side by side.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Every outcome either version gives, in A's order, then those only B gives in B's.
    pub changes: Vec<Change>,
    /// The mean of each, when every outcome of both is a number.
    pub means: Option<(BigRational, BigRational)>,
    /// Whether both were worked out exactly (otherwise, sampled with the same seed).
    pub exact: bool,
}

impl Comparison {
    pub fn of(a: &ProcedureOdds, b: &ProcedureOdds) -> Comparison {
        let mut outcomes: Vec<Outcome> = Vec::new();
        for (outcome, _) in a.rows().into_iter().chain(b.rows()) {
            if !outcomes.contains(&outcome) {
                outcomes.push(outcome);
            }
        }
        let changes = outcomes
            .into_iter()
            .map(|outcome| Change {
                a: a.distribution.probability(&outcome),
                b: b.distribution.probability(&outcome),
                outcome,
            })
            .collect();
        let numeric = |odds: &ProcedureOdds| odds.distribution.iter().all(|(o, _)| matches!(o, Outcome::Number(_)));
        let means =
            (numeric(a) && numeric(b) && !a.distribution.total().is_zero() && !b.distribution.total().is_zero())
                .then(|| (number_mean(a), number_mean(b)));
        Comparison { changes, means, exact: a.sampled.is_none() && b.sampled.is_none() }
    }

    /// The changes, largest move first (outcomes that moved alike keep their order).
    pub fn by_size(&self) -> Vec<&Change> {
        let mut sorted: Vec<&Change> = self.changes.iter().collect();
        sorted.sort_by(|x, y| {
            let size = |c: &Change| (&c.b - &c.a).abs();
            size(y).cmp(&size(x))
        });
        sorted
    }
}

/// The mean of a distribution of whole numbers, over the chance it holds.
fn number_mean(odds: &ProcedureOdds) -> BigRational {
    let total = odds.distribution.total();
    let sum = odds.distribution.iter().fold(BigRational::zero(), |sum, (o, p)| match o {
        Outcome::Number(n) => sum + p * BigRational::from_integer((*n).into()),
        _ => sum,
    });
    sum / total
}
