//! `SwitchError`: an option or interpretation a ruleset does not have, or a choice an interpretation does not offer, with what it has.

use std::fmt;

use thiserror::Error;

use super::problem::did_you_mean;

/// Why an option or interpretation could not be read or switched.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SwitchError {
    /// The ruleset has no option (or interpretation) of that name.
    #[error(
        "ruleset `{ruleset}` has no {kind} `{name}`{}; it has: {}",
        did_you_mean(name, known.iter().map(String::as_str)),
        if known.is_empty() { "none".to_string() } else { known.join(", ") }
    )]
    Unknown { ruleset: String, kind: SwitchKind, name: String, known: Vec<String> },
    /// The interpretation offers no such choice.
    #[error(
        "interpretation `{name}` has no choice `{choice}`{}; its choices are {}",
        did_you_mean(choice, choices.iter().map(String::as_str)),
        choices.join(", ")
    )]
    NoSuchChoice { name: String, choice: String, choices: Vec<String> },
}

/// Which kind of switch was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwitchKind {
    Option,
    Interpretation,
}

impl fmt::Display for SwitchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SwitchKind::Option => "option",
            SwitchKind::Interpretation => "interpretation",
        })
    }
}
