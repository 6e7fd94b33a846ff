//! Headless runs: a scenario script run for many trials on worker threads, and the summary of what it counted.

mod accumulator;
mod study;
mod summary;
mod target_error;

pub use accumulator::{Accumulator, BLOCK, Moments};
pub use study::{FAILURES_KEPT, Outcome, Study, StudyError, TrialFailure, run};
pub use summary::{Record, Summary, Tally, TallyRow, wilson};
pub use target_error::Stop;

/// The rulesets a script names in its first lines (`//! rules: ff-napoleonic`), found from the
/// script's own `folder` as its orders of battle are: a path is taken from that folder, and an id
/// names a ruleset folder beside the script when there is one (else it is looked up as any
/// `--rules` id is). So a script, its rules and its battles can be moved together.
pub fn script_rules(script: &str, folder: &std::path::Path) -> Vec<String> {
    named_rules(script)
        .into_iter()
        .map(|spec| {
            let beside = folder.join(&spec);
            let is_path = spec.contains('/') || spec.contains(std::path::MAIN_SEPARATOR);
            let relative = std::path::Path::new(&spec).is_relative();
            if (is_path && relative) || (!is_path && crate::rules::files::is_ruleset_folder(&beside)) {
                beside.display().to_string()
            } else {
                spec
            }
        })
        .collect()
}

/// The rulesets named in a script's first lines, as written.
fn named_rules(script: &str) -> Vec<String> {
    script
        .lines()
        .take_while(|line| line.trim_start().starts_with("//") || line.trim().is_empty())
        .filter_map(|line| line.trim_start().strip_prefix("//!")?.trim().strip_prefix("rules:").map(str::trim))
        .flat_map(|rules| rules.split([',', ' ']).filter(|r| !r.is_empty()).map(str::to_string).collect::<Vec<_>>())
        .collect()
}
