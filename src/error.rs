//! `Error`: the one error type the command line turns into a report and an exit status.

use miette::Diagnostic;
use thiserror::Error;

use crate::dice::DiceError;

/// Any error a command can end with. Usage errors (exit 2) are clap's own and never reach here.
#[derive(Debug, Error, Diagnostic)]
pub enum Error {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Dice(#[from] DiceError),

    /// A flag's value could not be used (a bad `--dice` list...).
    #[error("{0}")]
    #[diagnostic(code(cli::input))]
    Input(String),

    /// Writing the output failed (a closed pipe...).
    #[error("cannot write the output: {0}")]
    #[diagnostic(code(cli::io))]
    Io(#[from] std::io::Error),
}
