//! The `grognard` binary: parse the command line, run it, map the outcome to an exit status.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;
use grognard::cli::{Cli, Io};
use grognard::report;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            // --help and --version are not errors; every other clap error is a usage error.
            return if err.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    let fancy = std::io::stderr().is_terminal();
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr();
    match grognard::cli::run(cli, Io { out: &mut stdout, err: &mut stderr, fancy }) {
        Ok(()) => ExitCode::SUCCESS,
        // A failed run's report is already written out in full.
        Err(grognard::error::Error::Failed(text)) => {
            eprint!("{text}");
            ExitCode::from(1)
        }
        Err(err) => {
            let text = if fancy { report::render_for_terminal(&err) } else { report::render_plain(&err) };
            eprint!("{text}");
            ExitCode::from(1)
        }
    }
}
