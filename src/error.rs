//! `Error`: the one error type the command line turns into a report and an exit status.

use miette::Diagnostic;
use thiserror::Error;

use crate::dice::DiceError;
use crate::present::ruleset::NotInRuleset;
use crate::rules::Problems;
use crate::script::ScriptError;

/// Any error a command can end with. Usage errors (exit 2) are clap's own and never reach here.
#[derive(Debug, Error, Diagnostic)]
pub enum Error {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Dice(#[from] DiceError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Rules(#[from] Problems),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Script(#[from] ScriptError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    NotInRuleset(#[from] NotInRuleset),

    /// `grognard check` found errors (already printed).
    #[error("{0} ruleset{s} with errors", s = if *.0 == 1 { "" } else { "s" })]
    #[diagnostic(code(rules::check_failed))]
    CheckFailed(usize),

    /// A run that failed, its report already written out in full.
    #[error("{0}")]
    #[diagnostic(code(run::failed))]
    Failed(String),

    /// A flag's value could not be used (a bad `--dice` list...).
    #[error("{0}")]
    #[diagnostic(code(cli::input))]
    Input(String),

    /// Writing the output failed (a closed pipe...).
    #[error("cannot write the output: {0}")]
    #[diagnostic(code(cli::io))]
    Io(#[from] std::io::Error),
}
