//! The command line: clap definitions and dispatch. Each subcommand lives in its own file.

pub mod check;
mod compare;
mod eval;
mod git_version;
mod grid;
pub mod limit_flags;
mod observed;
pub mod odds;
mod provenance;
mod repl;
pub(crate) mod roll;
pub mod rules_flags;
mod rulesets;
mod run;
mod schema;
mod shell;
pub mod show;
mod walk_flags;

use std::io::Write;

use clap::{Args, Parser, Subcommand};

use crate::dice::{D10Reading, D66Reading, DiceConventions};
use crate::error::Error;

pub use check::CheckArgs;
pub use eval::EvalArgs;
pub use odds::OddsArgs;
pub use repl::ReplArgs;
pub use roll::RollArgs;
pub use rulesets::RulesArgs;
pub use run::RunArgs;
pub use schema::{SchemaArgs, SchemaKind, schema_text};
pub use show::ShowArgs;

/// grognard: a rules interpreter for horse-and-musket tabletop wargames.
#[derive(Debug, Parser)]
#[command(name = "grognard", version, about, long_about = None)]
pub struct Cli {
    /// Without a command in a terminal: the REPL.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// A folder of rulesets to look ruleset ids up in before any other; repeat for more.
    #[arg(long = "rules-path", value_name = "DIR", global = true)]
    pub rules_path: Vec<std::path::PathBuf>,
    /// Colour: on a terminal unless NO_COLOR is set (auto), always, or never.
    #[arg(long = "color", value_name = "WHEN", global = true, default_value = "auto")]
    pub color: crate::present::diagnostic::ColorChoice,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Roll a dice expression and show every die's natural face.
    #[command(after_help = roll::EXAMPLES)]
    Roll(RollArgs),
    /// Exact odds of a dice expression, or of a procedure's results with --rules.
    #[command(after_help = odds::EXAMPLES)]
    Odds(OddsArgs),
    /// The odds of one procedure call under two rule versions, outcome by outcome.
    ///
    /// The call is worked out in every cell of the grid under each version: one walk for each,
    /// each walk within `--max-operations` and `--time-limit` of its own. Only the folder a
    /// `git:REV:PATH` names, and the rulesets it extends that lie beside it, come from the
    /// revision; a shipped ruleset it names by id is loaded as it is now.
    #[command(after_help = compare::EXAMPLES)]
    Compare(compare::CompareArgs),
    /// Check rulesets and report every problem, each pointing into its file.
    #[command(after_help = check::EXAMPLES)]
    Check(CheckArgs),
    /// Evaluate a Rhai expression against a ruleset; print the result and its trace.
    #[command(after_help = eval::EXAMPLES)]
    Eval(EvalArgs),
    /// Show a table as its chart, a modifier list, the options and interpretations.
    #[command(after_help = show::EXAMPLES)]
    Show(ShowArgs),
    /// Print the JSON Schema of a kind of rule file, for editors.
    #[command(after_help = schema::EXAMPLES)]
    Schema(SchemaArgs),
    /// Run a scenario script headless: one trial, or a study of thousands.
    #[command(after_help = run::EXAMPLES)]
    Run(RunArgs),
    /// Resolve fires and melees at the table, one line at a time.
    #[command(after_help = repl::EXAMPLES)]
    Repl(ReplArgs),
    /// The rulesets grognard finds and where they come from; `rules export` writes a copy to edit.
    #[command(after_help = rulesets::EXAMPLES)]
    Rules(RulesArgs),
    /// A completion script for a shell: bash, zsh, fish, elvish or powershell.
    #[command(after_help = shell::COMPLETIONS_EXAMPLES)]
    Completions(shell::CompletionsArgs),
    /// The manual page (roff), for `man`.
    #[command(after_help = shell::MAN_EXAMPLES)]
    Man(shell::ManArgs),
}

/// How dice are read, shared by every command that takes dice notation.
#[derive(Debug, Args, Clone, Copy)]
pub struct DiceFlags {
    /// How a d10 is numbered: `1-10` (a printed 0 read as 10) or `0-9` [default: 1-10, or as --rules says].
    #[arg(long, value_name = "READING")]
    pub d10: Option<D10Reading>,
    /// How `d66` is read: `tens-and-units` (two d6, 11-66) or `1-66` [default: as --rules says; else refused].
    #[arg(long, value_name = "READING")]
    pub d66: Option<D66Reading>,
}

impl DiceFlags {
    /// The conventions of `base` (a ruleset's, or the defaults), with what the flags say instead.
    pub fn conventions_over(&self, mut base: DiceConventions) -> DiceConventions {
        if let Some(d10) = self.d10 {
            base.d10 = d10;
        }
        if let Some(d66) = self.d66 {
            base.d66 = Some(d66);
        }
        base
    }
}

/// Where output goes: normal output, diagnostics, and how diagnostics are drawn.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    pub look: crate::present::diagnostic::Look,
    /// Whether `out` is a terminal: CSV is written exact only into a file or a pipe.
    pub out_is_terminal: bool,
}

/// What a command writes on its output: text a person reads, or data a program reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Output {
    Text,
    Json,
    Csv,
    /// A schema, a completion script or a manual page: grognard's own words, written exact.
    Fixed,
}

impl Command {
    fn output(&self) -> Output {
        let data = |json: bool, csv: bool| match (json, csv) {
            (true, _) => Output::Json,
            (_, true) => Output::Csv,
            _ => Output::Text,
        };
        match self {
            Command::Roll(args) => data(args.json, false),
            Command::Odds(args) => data(args.json, args.csv),
            Command::Compare(args) => data(args.json, args.csv),
            Command::Eval(args) => data(args.json, false),
            Command::Run(args) => data(args.json, args.csv),
            Command::Schema(_) | Command::Completions(_) | Command::Man(_) => Output::Fixed,
            Command::Check(_) | Command::Show(_) | Command::Repl(_) | Command::Rules(_) => Output::Text,
        }
    }
}

/// Runs a parsed command line.
///
/// Whatever a command writes passes through `present::escape::Escaping`, so no control
/// character from a rule file, a scenario or a script reaches a terminal: text is escaped
/// (`\u{1b}`), JSON keeps its exact text (`\u001b`), and only the colours of diagnostics are
/// kept. CSV is written exact into a file or a pipe, and escaped onto a terminal.
pub fn run(cli: Cli, io: Io<'_>) -> Result<(), Error> {
    use crate::present::escape::{Escaping, Shield};
    crate::rules::set_rules_path(cli.rules_path);
    let Some(command) = cli.command else {
        return repl::run(&ReplArgs::default(), cli.color);
    };
    let shield = match command.output() {
        Output::Text => Some(Shield::Text),
        Output::Json => Some(Shield::Json),
        Output::Csv if io.out_is_terminal => Some(Shield::Text),
        Output::Csv | Output::Fixed => None,
    };
    let mut escaping;
    let out: &mut dyn Write = match shield {
        Some(shield) => {
            escaping = Escaping::new(io.out, shield);
            &mut escaping
        }
        None => io.out,
    };
    let err = &mut Escaping::new(io.err, Shield::Styled);
    match command {
        Command::Roll(args) => roll::run(&args, out, err),
        Command::Odds(args) => odds::run(&args, out),
        Command::Compare(args) => compare::run(&args, out),
        Command::Check(args) => check::run(&args, out, err, io.look),
        Command::Eval(args) => eval::run(&args, out, err),
        Command::Show(args) => show::run(&args, out),
        Command::Schema(args) => schema::run(&args, out),
        Command::Repl(args) => repl::run(&args, cli.color),
        Command::Run(args) => run::run(&args, out),
        Command::Rules(args) => rulesets::run(&args, out),
        Command::Completions(args) => shell::completions(&args, out),
        Command::Man(args) => shell::man(&args, out),
    }
}
