//! `grognard compare`: the odds of one procedure call under two rule versions, outcome by outcome.

use std::io::{IsTerminal, Write};
use std::path::Path;

use clap::{Args, Parser};
use serde_json::json;

use super::git_version;
use super::limit_flags::LimitFlags;
use super::provenance::Provenance;
use super::rules_flags::RulesFlags;
use super::walk_flags::WalkFlags;
use crate::error::{CompareFailed, Error, InputError};
use crate::present::file::{Fresh, write_atomically};
use crate::present::sweep::{render_sweep, sweep_csv, sweep_json};
use crate::script::{CellFailed, Host, Sweep};

pub(super) const EXAMPLES: &str = "Examples:
  grognard compare --a ff-napoleonic --b ff-house-example --vary range=1,2,3 --vary formation=line,column,square \\
      'fire(unit(#{name: \"A\", nation: \"britain\", arm: \"infantry\", stands: 6, formation: \"line\"}), unit(#{name: \"B\", arm: \"infantry\", stands: 6, formation: formation}), #{range: range})'
  grognard compare --a ff-house-example --b 'ff-house-example --with wider_struggle' --field attacker_lost \\
      'melee(unit(#{name: \"A\", nation: \"france\", arm: \"infantry\", stands: 6, formation: \"column\"}), unit(#{name: \"B\", nation: \"austria\", arm: \"infantry\", stands: 5, formation: \"line\"}), #{})'
  grognard compare --a git:HEAD~1:rules/my-house --b rules/my-house --grid grid.yaml '...' --html compare.html
  grognard compare --a ff-napoleonic --b 'ff-napoleonic --set musketry_below_zero=desultory' '...' --json";

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The procedure call both versions resolve (`fire(a, b, #{...})`); a variable of the grid
    /// is written where its value goes (`#{range: range}`).
    #[arg(allow_hyphen_values = true)]
    pub expr: String,
    /// Version A: ruleset ids or folders, then switches, as `--rules`, `--with`, `--without`
    /// and `--set` take them: `--a "ff-napoleonic --with veteran_volleys"`. A folder may be
    /// taken from a git revision: `--a "git:HEAD~1:rules/my-house"`.
    #[arg(long = "a", value_name = "VERSION")]
    pub a: String,
    /// Version B, written as version A.
    #[arg(long = "b", value_name = "VERSION")]
    pub b: String,
    /// A variable of the call and the values to sweep it over: `--vary range=1,2,4`. Repeat it
    /// for a grid (the first varies slowest); values are whole numbers, numbers, true/false or words.
    #[arg(long, value_name = "NAME=V1,V2,...")]
    pub vary: Vec<String>,
    /// A YAML file of the variables to sweep, in order: `vary: {range: [1, 2, 4], formation: [line, column]}`.
    #[arg(long, value_name = "FILE")]
    pub grid: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub walk: WalkFlags,
    /// A field of the map the call returns to compare too (`--field attacker_lost`); a path
    /// reads into maps (`--field attacker.stands`). Repeat it for more fields.
    #[arg(long = "field", value_name = "NAME")]
    pub fields: Vec<String>,
    #[command(flatten)]
    pub limits: LimitFlags,
    /// Both distributions of every cell, their changes, ranks and causes, as JSON.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// A row per cell and outcome, as CSV.
    #[arg(long)]
    pub csv: bool,
    /// Also write a page viewable offline, each outcome's change as a heat map over the grid, to this file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
}

/// A version as written after `--a` or `--b`: rulesets, then the switches every command that
/// loads rules takes (checked as they check them).
#[derive(Debug, Parser)]
#[command(no_binary_name = true, disable_help_flag = true)]
struct VersionWords {
    /// The rulesets, stacked in order (before any `--rules`).
    #[arg(value_name = "RULESET")]
    rulesets: Vec<String>,
    #[command(flatten)]
    flags: RulesFlags,
}

/// The rules flags a version stands for; a word that is not one is refused, naming the
/// version. A folder at a git revision (`git:REV:PATH`) is written out under `checked_out`.
fn version(which: &'static str, text: &str, checked_out: &Path) -> Result<RulesFlags, Error> {
    let refused = |why: &str| InputError::Version { which, text: text.to_string(), why: why.to_string() };
    let words = shlex::split(text).ok_or_else(|| refused("an unclosed quote"))?;
    let VersionWords { rulesets, mut flags } =
        VersionWords::try_parse_from(&words).map_err(|e| refused(&clap_reason(&e)))?;
    flags.rules.splice(0..0, rulesets);
    if !flags.given() {
        return Err(refused("no ruleset: start with a ruleset id or folder, such as `ff-napoleonic`").into());
    }
    for (i, word) in flags.rules.iter_mut().enumerate() {
        if word.starts_with(git_version::PREFIX) {
            let into = checked_out.join(format!("{which}{i}"));
            let why = |why: String| if words.len() > 1 { refused(&format!("{word}: {why}")) } else { refused(&why) };
            *word = git_version::check_out(word, &into).map_err(why)?.display().to_string();
        }
    }
    Ok(flags)
}

/// What clap found wrong with a version's words, on one line (its suggestion kept).
fn clap_reason(err: &clap::Error) -> String {
    let text = err.render().to_string();
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .collect();
    lines.join("; ").trim_start_matches("error: ").to_string()
}

/// A version's host, within the walk limits the flags give.
fn host_of(flags: &RulesFlags, limits: &LimitFlags) -> Result<(Host, Provenance), Error> {
    let (ruleset, _warnings) = flags.load()?;
    let host = limits.walking_host(ruleset)?;
    let header = Provenance::new(Some(&host.ruleset()), flags.switches(), None, None);
    Ok((host, header))
}

pub(super) fn run(args: &CompareArgs, out: &mut dyn Write) -> Result<(), Error> {
    // Folders taken from git revisions live here until the command ends (a script may import from them).
    let checked_out = tempfile::tempdir()?;
    let _cleaner = RemovedOnInterrupt::watch(checked_out.path())?;
    let (flags_a, flags_b) = (version("a", &args.a, checked_out.path())?, version("b", &args.b, checked_out.path())?);
    let axes = super::grid::axes(&args.expr, args.grid.as_deref(), &args.vary)?;
    let (host_a, header_a) = host_of(&flags_a, &args.limits)?;
    let (host_b, header_b) = host_of(&flags_b, &args.limits)?;
    // Dice alone read no rule: the same under any version (and not Rhai, so no call either).
    let dice = host_a.ruleset().dice.clone();
    if crate::dice::parse_with(&args.expr, &dice, &crate::dice::DiceLimits::default()).is_ok() {
        return Err(InputError::CompareDice { expr: args.expr.clone() }.into());
    }
    // A grid of many cells shows how far it has got, on a terminal.
    let count = axes.iter().map(|a| a.values.len() as u64).product::<u64>();
    let bar = (count > 1 && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(count);
        let style = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} cells, eta {eta}");
        bar.set_style(style.expect("a valid template"));
        bar
    });
    let done = |cells: u64| bar.iter().for_each(|bar| bar.set_position(cells));
    let (walk, sample) = (args.walk.limits(), args.walk.sample());
    let sweep = Sweep::run(&args.expr, axes, (&host_a, &host_b), walk, sample, &args.fields, &done);
    bar.iter().for_each(indicatif::ProgressBar::finish_and_clear);
    let sweep = sweep.map_err(|CellFailed { at, version, error }| CompareFailed {
        at,
        version,
        error: Box::new((*error).into()),
    })?;
    // A sampled cell's seed says how to draw the same samples again.
    let seed = (!sweep.exact()).then_some(args.walk.seed);
    let (header_a, header_b) = (header_a.with_seed(seed), header_b.with_seed(seed));
    let versions = (args.a.as_str(), args.b.as_str());
    if args.json {
        let mut value = sweep_json(&args.expr, &sweep);
        value["a"] = json!({ "version": args.a, "header": header_a.json() });
        value["b"] = json!({ "version": args.b, "header": header_b.json() });
        writeln!(out, "{}", serde_json::to_string_pretty(&value).expect("json"))?;
    } else if args.csv {
        for (which, header) in [("A", &header_a), ("B", &header_b)] {
            for line in header.csv_comments().lines() {
                writeln!(out, "# {which} {}", line.trim_start_matches("# "))?;
            }
        }
        out.write_all(sweep_csv(&sweep).as_bytes())?;
    } else {
        out.write_all(render_sweep(&args.expr, versions, &sweep).as_bytes())?;
    }
    // The page is written after the output, so a page that cannot be written loses nothing else.
    if let Some(path) = &args.html {
        let provenance = format!("A:\n{}B:\n{}", header_a.csv_comments(), header_b.csv_comments());
        let page = crate::present::html::sweep_page(&args.expr, versions, &sweep, &provenance);
        write_atomically(path, &page, Fresh::Usual)
            .map_err(|e| InputError::Write { path: path.clone(), why: e.to_string() })?;
    }
    Ok(())
}

/// Removes the folder that git revisions are written out to if Ctrl-C ends the command. By
/// default SIGINT ends the process where it stands and no destructor runs, which left a copy of
/// the rules (97 MB for this repository's) in the temporary folder at every interrupted compare.
/// While this is alive, SIGINT is taken by a thread that removes the folder, says why the command
/// ended and exits as a shell would report it (130).
struct RemovedOnInterrupt {
    handle: signal_hook::iterator::Handle,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl RemovedOnInterrupt {
    fn watch(folder: &Path) -> std::io::Result<Self> {
        let mut signals = signal_hook::iterator::Signals::new([signal_hook::consts::SIGINT])?;
        let handle = signals.handle();
        let folder = folder.to_path_buf();
        let thread = std::thread::Builder::new().name("compare-interrupt".into()).spawn(move || {
            if signals.forever().next().is_some() {
                let _ = std::fs::remove_dir_all(&folder);
                eprintln!("interrupted (Ctrl-C)");
                std::process::exit(130);
            }
        })?;
        Ok(RemovedOnInterrupt { handle, thread: Some(thread) })
    }
}

impl Drop for RemovedOnInterrupt {
    fn drop(&mut self) {
        // Closing ends the thread's wait (the command is ending: a Ctrl-C from here on is not seen).
        self.handle.close();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
