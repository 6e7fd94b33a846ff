//! Headless runs: a scenario script run for many trials on worker threads, and the summary of what it counted.

mod study;
mod summary;

pub use study::{Outcome, Study, StudyError, TrialFailure, run};
pub use summary::{Record, Summary, Tally, TallyRow, wilson};

/// The rulesets a script names in its first lines: `//! rules: ff-napoleonic`.
pub fn script_rules(script: &str) -> Vec<String> {
    script
        .lines()
        .take_while(|line| line.trim_start().starts_with("//") || line.trim().is_empty())
        .filter_map(|line| line.trim_start().strip_prefix("//!")?.trim().strip_prefix("rules:").map(str::trim))
        .flat_map(|rules| rules.split([',', ' ']).filter(|r| !r.is_empty()).map(str::to_string).collect::<Vec<_>>())
        .collect()
}
