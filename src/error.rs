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

    #[error(transparent)]
    #[diagnostic(transparent)]
    Trial(#[from] TrialFailed),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Compare(#[from] CompareFailed),

    /// Trials of a study run with `--keep-going` that failed, each with its replay command
    /// (the output, already written, counts the others).
    #[error("{0}")]
    #[diagnostic(code(run::trials_failed))]
    TrialsFailed(String),

    /// A study tallied more different values than it keeps.
    #[error("{0}")]
    #[diagnostic(
        code(run::tally_values),
        help(
            "a value that differs from trial to trial (a number drawn from many) is for `record`, which keeps its mean and spread; tally a word or a band of it instead"
        )
    )]
    TooManyValues(String),

    /// A worker thread of a study could not start, or ended without an answer.
    #[error("{0}")]
    #[diagnostic(code(run::worker))]
    Worker(String),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Input(#[from] InputError),

    /// Writing the output failed (a closed pipe...).
    #[error("cannot write the output: {0}")]
    #[diagnostic(code(cli::io))]
    Io(#[from] std::io::Error),
}

/// A trial of a study that failed, with the command that replays it alone; the trial's own
/// error follows it when rendered.
#[derive(Debug)]
pub struct TrialFailed {
    /// The script, as named on the command line.
    pub name: String,
    pub trial: u64,
    pub seed: u64,
    pub error: Box<Error>,
}

impl std::fmt::Display for TrialFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let TrialFailed { name, trial, seed, .. } = self;
        write!(
            f,
            "trial {trial} of {name} failed (study seed {seed}); replay it alone with\n  grognard run {name} --seed {seed} --trial {trial}"
        )
    }
}

impl std::error::Error for TrialFailed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.error)
    }
}

impl Diagnostic for TrialFailed {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new("run::failed"))
    }

    fn diagnostic_source(&self) -> Option<&dyn Diagnostic> {
        Some(&*self.error)
    }
}

/// A cell of `compare`'s grid that could not be worked out under one version; the cell's own
/// error follows it when rendered.
#[derive(Debug)]
pub struct CompareFailed {
    /// `range=2 formation=line`, or `the call`.
    pub at: String,
    /// `A` or `B`.
    pub version: &'static str,
    pub error: Box<Error>,
}

impl std::fmt::Display for CompareFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} could not be worked out under version {}", self.at, self.version)
    }
}

impl std::error::Error for CompareFailed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.error)
    }
}

impl Diagnostic for CompareFailed {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new("cli::compare_cell"))
    }

    fn diagnostic_source(&self) -> Option<&dyn Diagnostic> {
        Some(&*self.error)
    }
}

/// What a command was given that it cannot use: a missing flag, a bad value, a file it
/// cannot read. Each says what to give instead.
#[derive(Debug, Error, Diagnostic)]
pub enum InputError {
    #[error("`{command}` needs a ruleset: add `--rules ID` (`grognard check` lists the ids)")]
    #[diagnostic(code(cli::needs_rules))]
    NeedsRules { command: &'static str },

    #[error("{script} names no ruleset: add `//! rules: ff-napoleonic` at its top, or `--rules ID`")]
    #[diagnostic(code(cli::script_names_no_rules))]
    ScriptNamesNoRules { script: String },

    #[error("cannot read the script {script}: {why}")]
    #[diagnostic(code(cli::unreadable))]
    UnreadableScript { script: String, why: String },

    #[error("cannot read the rules folder {folder}: {why}")]
    #[diagnostic(code(cli::unreadable))]
    UnreadableRules { folder: String, why: String },

    #[error("--{which} `{text}`: {why}")]
    #[diagnostic(code(cli::version))]
    Version { which: &'static str, text: String, why: String },

    #[error("--dice: {0}")]
    #[diagnostic(code(cli::dice_list))]
    DiceList(String),

    #[error(
        "--field {field} reads a field of the map a procedure call returns, and `{expr}` is dice: a roll has no fields (give --rules and a procedure call, such as `melee(a, b, #{{}})`)"
    )]
    #[diagnostic(code(cli::field_of_dice))]
    FieldOfDice { field: String, expr: String },

    #[error(
        "--why names the modifiers behind a procedure call's odds, and `{expr}` is dice: a roll has no modifiers (give a procedure call, such as `fire(a, b, #{{range: 2}})`)"
    )]
    #[diagnostic(code(cli::why_of_dice))]
    WhyOfDice { expr: String },

    #[error(
        "--why names the modifiers behind a procedure call's odds, and modifiers come from rules: give --rules (such as `--rules ff-napoleonic`) with a call, not `{expr}` alone"
    )]
    #[diagnostic(code(cli::why_without_rules))]
    WhyWithoutRules { expr: String },

    #[error(
        "`{expr}` is dice, which read no rule: compare takes a procedure call (`fire(a, b, #{{range: range}})`); for dice, `grognard odds {expr}`"
    )]
    #[diagnostic(code(cli::compare_dice))]
    CompareDice { expr: String },

    #[error("{text}: {why}")]
    #[diagnostic(code(cli::grid))]
    Grid { text: String, why: String },

    #[error("cannot write {}: {why}", path.display())]
    #[diagnostic(code(cli::write_file))]
    Write { path: std::path::PathBuf, why: String },

    #[error("the REPL needs a terminal; for scripts use `grognard eval` (or `grognard --help`)")]
    #[diagnostic(code(cli::no_terminal))]
    NoTerminal,

    #[error("cannot run the terminal: {0}")]
    #[diagnostic(code(cli::terminal))]
    Terminal(String),

    #[error("the REPL did not start: `{command}` failed:\n{why}")]
    #[diagnostic(
        code(cli::repl_start),
        help("fix what the flag names, or start without it and try the command at the prompt")
    )]
    Startup { command: String, why: String },

    #[error("there is no ruleset `{id}`{hint}; the rules folder has {known}")]
    #[diagnostic(code(cli::unknown_ruleset))]
    UnknownRuleset { id: String, hint: String, known: String },

    #[error("{path} is there already: nothing was written (export into another folder, or move it away)")]
    #[diagnostic(code(cli::would_overwrite))]
    WouldOverwrite { path: String },

    #[error("there is no command `{name}`{hint}; the commands: {known}")]
    #[diagnostic(code(cli::unknown_command))]
    UnknownCommand { name: String, hint: String, known: String },

    #[error("`schema all` writes files: add `--out DIR`")]
    #[diagnostic(code(cli::schema_needs_out))]
    SchemaNeedsOut,
}
