//! `--target-error`: why a study stopped when it ran until every tallied share's 95% interval
//! was as narrow as asked, or its trials ran out. The study checks after each block of trials
//! is summed in trial order (see `study::gather`), so where it stops never depends on the
//! number of jobs.

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
