//! The `grognard` binary: parse the command line, run it, map the outcome to an exit status.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::Parser;
use grognard::cli::{Cli, Io};
use grognard::present::diagnostic;
use grognard::present::escape::escape;

fn main() -> ExitCode {
    grognard::script::fix_hashing();
    // Scripts run on a thread with a stack of known size, large enough for the deepest value the
    // sandbox lets a script build to be dropped, compared and printed (see `script::SCRIPT_STACK`).
    let main =
        std::thread::Builder::new().name("grognard".into()).stack_size(grognard::script::SCRIPT_STACK).spawn(run);
    match main.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        // A panic has printed its message already.
        Ok(Err(_)) => ExitCode::from(101),
        Err(err) => {
            eprintln!("error: cannot start grognard's thread: {err}");
            ExitCode::from(1)
        }
    }
}

fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            // --help and --version are not errors; every other clap error is a usage error.
            return if err.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    let look = diagnostic::Look::for_stream(std::io::stderr().is_terminal(), cli.color);
    let out_is_terminal = std::io::stdout().is_terminal();
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr();
    match grognard::cli::run(cli, Io { out: &mut stdout, err: &mut stderr, look, out_is_terminal }) {
        Ok(()) => ExitCode::SUCCESS,
        // The trial's own error, then the replay command whole, unwrapped, to copy.
        Err(grognard::error::Error::Trial(failed)) => {
            // The script's name and the error's words may hold control characters: escaped.
            eprintln!("{}{}", diagnostic::render(&*failed.error, look), escape(&failed.to_string()));
            ExitCode::from(1)
        }
        // Each failed trial's replay command whole, unwrapped, to copy.
        Err(grognard::error::Error::TrialsFailed(text)) => {
            eprintln!("{}", escape(&text));
            ExitCode::from(1)
        }
        // The reader went away (`grognard roll 2d6 -n 100000 | head -2`): it has what it wanted.
        Err(grognard::error::Error::Io(err)) if err.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            let text = diagnostic::render(&err, look);
            eprint!("{text}");
            ExitCode::from(1)
        }
    }
}
