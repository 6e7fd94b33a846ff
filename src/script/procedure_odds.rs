//! `ProcedureOdds`: the distribution of a procedure's results, with the fields and observations
//! counted apart and how it was reached (walked whole, cut off, or sampled).

use super::fields::FieldOdds;
use super::observed::ObservedOdds;
use super::outcome::{Outcome, ordered_rows};
use crate::dice::Distribution;

/// The distribution of a procedure's results.
#[derive(Clone, Debug)]
pub struct ProcedureOdds {
    pub distribution: Distribution<Outcome>,
    /// True when every dice outcome was walked; false when sampled.
    pub exact: bool,
    /// How many runs of the procedure it took.
    pub runs: u64,
    /// Why and how it was sampled, when it was.
    pub sampled: Option<String>,
    /// The number of dice after which outcomes were cut off (their chance is
    /// the distribution's residual), when some were.
    pub cut_off_at: Option<usize>,
    /// When the cut came from the limit on outcomes walked (`--max-outcomes`), that limit;
    /// none when it came from the depth limit (`--max-depth`).
    pub cut_by_outcomes: Option<u64>,
    /// The outcomes in the order to show them: numbers in order, a table's results in the
    /// order its chart prints them, other words as written.
    pub order: Vec<Outcome>,
    /// The fields of the returned map asked to be counted apart, each with its distribution.
    pub fields: Vec<FieldOdds>,
    /// What the runs counted with `tally` and `record`, weighted by their chances (or, sampled, trial by trial).
    pub observed: ObservedOdds,
}

impl ProcedureOdds {
    /// The outcomes with their chances, in display order.
    pub fn rows(&self) -> Vec<(Outcome, num_rational::BigRational)> {
        ordered_rows(&self.distribution, &self.order)
    }
}
