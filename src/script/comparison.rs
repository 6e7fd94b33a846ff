//! Two rule versions' odds of the same call, outcome by outcome: what a house rule changes.

use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

use super::{FieldOdds, Outcome, ProcedureOdds};
use crate::dice::Distribution;

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
    /// The mean of each, when every outcome of both is a number (whole or not).
    pub means: Option<(BigRational, BigRational)>,
    /// Whether both were worked out exactly (otherwise, sampled with the same seed).
    pub exact: bool,
}

impl Comparison {
    pub fn of(a: &ProcedureOdds, b: &ProcedureOdds) -> Comparison {
        let exact = a.sampled.is_none() && b.sampled.is_none();
        Comparison::between((&a.rows(), &a.distribution), (&b.rows(), &b.distribution), exact)
    }

    /// The same for one field of the results (`--field attacker_lost`), asked of both.
    pub fn of_field(a: &FieldOdds, b: &FieldOdds, exact: bool) -> Comparison {
        Comparison::between((&a.rows(), &a.distribution), (&b.rows(), &b.distribution), exact)
    }

    /// Two distributions, each with its rows in display order.
    fn between(a: (&Rows, &Distribution<Outcome>), b: (&Rows, &Distribution<Outcome>), exact: bool) -> Comparison {
        let mut outcomes: Vec<Outcome> = Vec::new();
        for (outcome, _) in a.0.iter().chain(b.0) {
            if !outcomes.contains(outcome) {
                outcomes.push(outcome.clone());
            }
        }
        let changes = outcomes
            .into_iter()
            .map(|outcome| Change { a: a.1.probability(&outcome), b: b.1.probability(&outcome), outcome })
            .collect();
        let means = number_mean(a.0).zip(number_mean(b.0));
        Comparison { changes, means, exact }
    }

    /// How far the outcome that moved furthest moved, as a chance (what cells are ranked by).
    pub fn size(&self) -> BigRational {
        self.changes.iter().map(|c| (&c.b - &c.a).abs()).max().unwrap_or_else(BigRational::zero)
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

/// Outcomes with their chances, in display order.
type Rows = Vec<(Outcome, BigRational)>;

/// The mean of a call's results over the chance that reached one, as the odds table works it
/// out; none when a result is not a number (whole or not), or none was reached.
fn number_mean(rows: &Rows) -> Option<BigRational> {
    let (mut sum, mut reached) = (BigRational::zero(), BigRational::zero());
    for (outcome, p) in rows {
        sum += outcome.number()? * p;
        reached += p;
    }
    (!reached.is_zero()).then(|| sum / reached)
}
