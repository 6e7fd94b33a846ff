//! `grognard check`: validate rulesets and report every problem, each pointing into its file.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::error::{Error, InputError};
use crate::present::diagnostic::{self, Look};
use crate::rules::files;
use crate::rules::{Problem, Problems, default_rules_dir, load_partial};
use crate::script;

pub(super) const EXAMPLES: &str = "Examples:
  grognard check                         # every ruleset under rules/
  grognard check ff-napoleonic
  grognard check path/to/my-house-rules  # an overlay, checked on top of its base";

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Rulesets to check, by id or folder (every ruleset under rules/ when none is named).
    pub rulesets: Vec<String>,
    /// Most problems to print for each ruleset; the rest are counted.
    #[arg(long, value_name = "N", default_value_t = crate::rules::SHOWN_PROBLEMS as u64, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub max_problems: u64,
}

pub(super) fn run(args: &CheckArgs, out: &mut dyn Write, err: &mut dyn Write, look: Look) -> Result<(), Error> {
    let rules_dir = default_rules_dir();
    let specs = if args.rulesets.is_empty() { every_ruleset(&rules_dir)? } else { args.rulesets.clone() };
    let mut failed = 0;
    for spec in &specs {
        let problems = check_one(spec, &rules_dir);
        // A table of thousands of overlapping bands has thousands of problems:
        // the first few say what is wrong, and printing them all takes minutes.
        let shown = usize::try_from(args.max_problems).unwrap_or(usize::MAX);
        for problem in problems.iter().take(shown) {
            let text = diagnostic::render(problem, look);
            write!(err, "{text}")?;
        }
        if problems.len() > shown {
            let more = problems.len() - shown;
            writeln!(
                err,
                "… and {more} more problem{} ({shown} shown; raise with --max-problems)",
                if more == 1 { "" } else { "s" }
            )?;
        }
        let summary = Problems(problems);
        let (errors, warnings) = summary.counts();
        writeln!(out, "{spec}: {}", if errors == 0 && warnings == 0 { "ok".to_string() } else { summary.to_string() })?;
        if errors > 0 {
            failed += 1;
        }
    }
    if failed > 0 {
        return Err(Error::CheckFailed(failed));
    }
    Ok(())
}

/// Every problem in one ruleset stack: the files, then the scripts.
pub fn check_one(spec: &str, rules_dir: &std::path::Path) -> Vec<Problem> {
    let (ruleset, mut problems) = load_partial(&[spec.to_string()], rules_dir);
    if let Some(ruleset) = ruleset {
        problems.extend(script::check(&ruleset));
    }
    problems
}

fn every_ruleset(rules_dir: &std::path::Path) -> Result<Vec<String>, Error> {
    let entries = std::fs::read_dir(rules_dir)
        .map_err(|e| InputError::UnreadableRules { folder: rules_dir.display().to_string(), why: e.to_string() })?;
    let mut found: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| files::is_ruleset_folder(p)).collect();
    found.sort();
    Ok(found.iter().map(|p| p.display().to_string()).collect())
}
