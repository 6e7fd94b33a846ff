//! `grognard run`: a scenario script without a terminal, for one trial or a study of thousands.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;

use super::limit_flags::LimitFlags;
use super::provenance::Provenance;
use super::rules_flags::RulesFlags;
use crate::dice::EnumLimits;
use crate::error::{Error, InputError, TrialFailed};
use crate::present::trace::{self, TraceForm};
use crate::rules::files;
use crate::run::{self, Study, StudyError, TrialFailure};
use crate::script::Limits;

pub(super) const EXAMPLES: &str = "Examples:
  grognard run scripts/ff_melee_study.rhai --trials 10000 --seed 7
  grognard run scripts/ff_melee_study.rhai --trials 10000 --jobs 2 --json
  grognard run scripts/ff_battery_study.rhai --csv
  grognard run scripts/ff_engagement.rhai --trials 1
  grognard run scripts/ff_melee_study.rhai --exact        # walk every dice outcome instead
A script names its rulesets in its first lines (`//! rules: ff-napoleonic`), or --rules does.";

/// The most trials a study runs (and so trials are numbered below it).
pub(super) const MAX_TRIALS: u64 = 100_000_000;

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The scenario script (Rhai).
    pub script: PathBuf,
    #[command(flatten)]
    pub rules: RulesFlags,
    #[command(flatten)]
    pub limits: LimitFlags,
    /// Seed of the study: trial i rolls with a generator seeded from (seed, i).
    #[arg(short = 's', long)]
    pub seed: Option<u64>,
    /// How many trials to run.
    #[arg(short = 'n', long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=MAX_TRIALS))]
    pub trials: u64,
    /// Run only this trial (to replay one that failed): trials are numbered from 0.
    // Only a trial some study can have: a number past them ran nothing and said nothing.
    #[arg(long, conflicts_with = "exact", value_parser = clap::value_parser!(u64).range(0..MAX_TRIALS))]
    pub trial: Option<u64>,
    /// Worker threads (the machine's cores by default); the output is the same whatever it is.
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: Option<u64>,
    /// The summary as JSON.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// The summary as CSV.
    #[arg(long)]
    pub csv: bool,
    /// No progress bar.
    #[arg(short = 'q', long)]
    pub quiet: bool,
    /// Count a failing trial and go on: the summary is of the trials that ran through, and each
    /// failure is listed with the command that replays it (exit 1 when any failed).
    #[arg(short = 'k', long, conflicts_with_all = ["exact", "trial"])]
    pub keep_going: bool,
    /// Stop once every tallied share's 95% interval is within this many percentage points
    /// either side (`0.5%`), checked every 1000 trials; --trials is then the most it runs.
    #[arg(long, value_name = "POINTS", value_parser = parse_target, conflicts_with_all = ["exact", "trial"])]
    pub target_error: Option<f64>,
    /// Walk every dice outcome of the script for the exact distribution of its value, and of
    /// what it tallies and records, instead of sampling.
    #[arg(long)]
    pub exact: bool,
    /// With --exact, a field of the map the script returns to show the odds of too
    /// (`--field attacker_lost`, or a path `--field attacker.stands`); repeat it for more.
    /// Without --exact a study counts what the script tallies and records instead.
    #[arg(long = "field", value_name = "NAME", requires = "exact")]
    pub fields: Vec<String>,
    /// With --exact, most dice outcomes to walk before sampling --trials instead.
    // As `odds --max-outcomes`: zero would walk nothing; past a hundred million the walk's memory runs out first.
    #[arg(long, requires = "exact", default_value_t = EnumLimits::STANDARD.max_outcomes, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub max_outcomes: u64,
    /// With --exact, most dice in one outcome; a loop that rolls more is cut off and its chance
    /// shown as residual.
    #[arg(long, requires = "exact", default_value_t = EnumLimits::STANDARD.max_depth, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pub max_depth: usize,
    /// For a single trial, how much of its trace: each step that counted (steps), the same in
    /// a few lines (brief), every modifier considered (full), or the dice and the effects (off).
    #[arg(long, value_name = "FORM", default_value = "steps")]
    pub trace: TraceForm,
}

pub(super) fn run(args: &RunArgs, out: &mut dyn Write) -> Result<(), Error> {
    // Only a regular file: reading a fifo would wait for a writer forever.
    let script = files::read_regular(&args.script).map_err(|e| {
        let why = match e.refusal {
            files::Refusal::Unreadable(io) => io.to_string(),
            _ => e.to_string(),
        };
        InputError::UnreadableScript { script: args.script.display().to_string(), why }
    })?;
    // The script's own folder: where its `//! rules:` and its orders of battle are found.
    let folder = args.script.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let mut flags = args.rules.clone();
    if flags.rules.is_empty() {
        flags.rules = run::script_rules(&script, folder);
    }
    if flags.rules.is_empty() {
        return Err(InputError::ScriptNamesNoRules { script: args.script.display().to_string() }.into());
    }
    let (ruleset, _warnings) = flags.load()?;
    let seed = args.seed.unwrap_or_else(crate::dice::Seeded::fresh_seed);
    let name = args.script.display().to_string();

    if args.exact {
        let host = args.limits.walking_host(ruleset)?;
        host.allow_scenarios_from(folder);
        let odds = host.odds_with_fields(
            &rhai::Scope::new(),
            &script,
            EnumLimits { max_outcomes: args.max_outcomes, max_depth: args.max_depth },
            (args.trials, seed),
            &args.fields,
        )?;
        let ruleset = host.ruleset();
        if args.json {
            let mut value = crate::present::odds::procedure_json(&name, &odds);
            super::observed::put_json(&mut value, &odds, &ruleset)?;
            value["header"] = Provenance::new(Some(&ruleset), flags.switches(), Some(seed), None).json();
            writeln!(out, "{}", serde_json::to_string_pretty(&value).expect("json"))?;
        } else {
            out.write_all(crate::present::odds::render_procedure(&name, &odds).as_bytes())?;
            out.write_all(super::observed::render(&odds, &ruleset)?.as_bytes())?;
        }
        return Ok(());
    }

    let (first, count) = match args.trial {
        Some(trial) => (trial, 1),
        None => (0, args.trials),
    };
    let jobs = args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |j| j as usize);
    let limits = args.limits.over(Limits::default());
    let (keep_going, target) = (args.keep_going, args.target_error);
    let study = Study {
        script: &script,
        name: &name,
        ruleset: &ruleset,
        folder,
        seed,
        first,
        count,
        jobs,
        limits,
        keep_going,
        target,
    };
    let bar = (!args.quiet && count > 1 && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(count);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} trials, {per_sec}, eta {eta}")
                .expect("a valid template"),
        );
        bar
    });
    let progress = |done: u64| {
        if let Some(bar) = &bar {
            bar.set_position(done);
        }
    };
    let result = run::run(&study, &progress);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let outcome = match result {
        Ok(outcome) => outcome,
        Err(StudyError::Setup(error) | StudyError::Whole(error)) => return Err(*error),
        Err(StudyError::Trial(failure)) => {
            let TrialFailure { trial, seed, error, trace } = failure;
            // A trial run alone is explained up to where it failed, in the form asked for.
            if let (Some(trace), false) = (trace, args.json || args.csv) {
                out.write_all(trace::render(&trace, args.trace, trace::terminal_width()).as_bytes())?;
            }
            return Err(TrialFailed { name, trial, seed, error }.into());
        }
    };
    let failed: Vec<serde_json::Value> = outcome
        .failures
        .iter()
        .map(|f| serde_json::json!({ "trial": f.trial, "error": first_line(&f.error.to_string()) }))
        .collect();
    let summary = outcome.sums.summary(Some(&ruleset));
    let stop = &outcome.stop;
    // The trials run: fewer than --trials when the target error stopped the study.
    let count = stop.as_ref().map_or(count, |s| s.trials);
    let stopped = stop.as_ref().zip(args.target_error).map(|(s, target)| s.describe(target));
    let header = Provenance::new(Some(&ruleset), flags.switches(), Some(seed), Some(count));
    if args.json {
        let mut value = serde_json::json!({
            "header": header.json(),
            "script": name,
            "seed": seed,
            "first_trial": first,
            "summary": summary,
        });
        if args.keep_going {
            value["failed_trials"] = serde_json::Value::Array(failed);
            value["failed_count"] = outcome.failed.into();
        }
        if let (Some(stop), Some(text)) = (stop, &stopped) {
            value["stopped"] = serde_json::json!({
                "by": if stop.met { "target_error" } else { "trials" },
                "trials": stop.trials,
                "widest_half_interval": stop.widest.as_ref().map(|w| w.0),
                "said": text,
            });
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&value).expect("json"))?;
    } else if args.csv {
        out.write_all(header.csv_comments().as_bytes())?;
        if !outcome.failures.is_empty() {
            let trials: Vec<String> = outcome.failures.iter().map(|f| f.trial.to_string()).collect();
            let more = outcome.failed - outcome.failures.len() as u64;
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            writeln!(out, "# failed_trials: {}{more}", trials.join(" "))?;
        }
        if let Some(text) = &stopped {
            writeln!(out, "# stopped: {text}")?;
        }
        out.write_all(summary.csv().as_bytes())?;
    } else {
        if let Some(trace) = &outcome.trace {
            out.write_all(trace::render(trace, args.trace, trace::terminal_width()).as_bytes())?;
        }
        if let (1, Some(value)) = (count, &outcome.last_value) {
            writeln!(out, "= {value}")?;
        }
        if count > 1 {
            write!(out, "{name}, seed {seed}: {}", summary.render())?;
        }
        if let Some(text) = &stopped {
            writeln!(out, "\n{text}")?;
        }
    }
    if !outcome.failures.is_empty() {
        return Err(Error::TrialsFailed(kept_going(&name, count, outcome.failed, &outcome.failures)));
    }
    Ok(())
}

/// Most failed trials `--keep-going` lists one by one.
const LISTED_FAILURES: usize = 10;

/// How many trials failed, and each of the first ten with the command that replays it with its
/// trace.
fn kept_going(name: &str, count: u64, failed: u64, failures: &[TrialFailure]) -> String {
    let ran = count - failed;
    let mut s = format!(
        "{failed} of {count} trials failed; the summary counts the {ran} that ran through. Each replays alone, with its trace:"
    );
    for f in failures.iter().take(LISTED_FAILURES) {
        s += &format!(
            "\n  trial {}: {}\n    grognard run {name} --seed {} --trial {} --trace full",
            f.trial,
            first_line(&f.error.to_string()),
            f.seed,
            f.trial
        );
    }
    if failed > LISTED_FAILURES as u64 {
        s += &format!("\n  and {} more", failed - LISTED_FAILURES as u64);
    }
    s
}

/// `0.5%` or `0.5`: percentage points either side of a share, more than 0 and less than 50.
fn parse_target(text: &str) -> Result<f64, String> {
    let number = text.trim().trim_end_matches('%').trim();
    match number.parse::<f64>() {
        Ok(x) if x > 0.0 && x < 50.0 => Ok(x),
        _ => Err(format!("`{text}` is not a number of percentage points between 0 and 50, like `0.5%`")),
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}
