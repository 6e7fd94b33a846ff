//! `--target-error`: a study run in blocks of trials until every tallied share's 95% interval
//! is as narrow as asked, or the trials run out; checked after whole blocks in trial order, so
//! where it stops never depends on the number of jobs.

use super::study::{Outcome, Study, StudyError, run};
use super::summary::Summary;
use crate::rules::Ruleset;

/// Trials between two checks of the intervals.
pub const BLOCK: u64 = 1_000;

/// Why a study run to a target error stopped, and how wide its widest interval was then.
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    /// Whether the target was met (else the trials ran out first).
    pub met: bool,
    pub trials: u64,
    /// The widest half-interval, in percentage points, with its key and outcome; none when
    /// nothing was tallied.
    pub widest: Option<(f64, String, String)>,
}

impl Stop {
    /// `stopped after 23000 trials: every share's 95% interval is within ±0.5%` and the like.
    pub fn describe(&self, target: f64) -> String {
        match (&self.widest, self.met) {
            (Some((w, key, value)), true) => format!(
                "stopped after {} trials: every share's 95% interval is within ±{target}% (the widest ±{w:.2}%, {key} {value})",
                self.trials
            ),
            (Some((w, key, value)), false) => format!(
                "ran all {} trials (--trials) before every share's 95% interval was within ±{target}%: the widest is ±{w:.2}% ({key} {value})",
                self.trials
            ),
            (None, _) => format!("ran all {} trials (--trials): the script tallied nothing to narrow", self.trials),
        }
    }
}

/// Runs `study` block by block until every tallied share's 95% interval is at most `target`
/// percentage points either side, or its trials run out.
pub fn run_to_target(
    study: &Study<'_>,
    ruleset: &Ruleset,
    target: f64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Outcome, Stop), StudyError> {
    let mut all = Outcome::default();
    let mut done = 0;
    loop {
        let count = BLOCK.min(study.count - done);
        let block = Study { first: study.first + done, count, ..*study };
        let offset = done;
        let part = run(&block, &|d| progress(offset + d))?;
        all.trials.extend(part.trials);
        all.failures.extend(part.failures);
        all.last_value = part.last_value;
        done += count;
        let widest = widest(&Summary::of(&all.trials, Some(ruleset)));
        let met = widest.as_ref().is_some_and(|(w, ..)| *w <= target);
        if met || done >= study.count {
            return Ok((all, Stop { met, trials: done, widest }));
        }
    }
}

/// The widest half-interval of any tallied share, with its key and outcome.
fn widest(summary: &Summary) -> Option<(f64, String, String)> {
    summary
        .tallies
        .iter()
        .flat_map(|(key, tally)| tally.outcomes.iter().map(move |row| ((row.high - row.low) / 2.0, key, &row.value)))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(w, key, value)| (w, key.clone(), value.clone()))
}
