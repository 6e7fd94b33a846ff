//! `grognard eval`: evaluate one Rhai expression against a ruleset and print the result with its trace.

use std::io::Write;

use clap::Args;
use rhai::Scope;

use super::limit_flags::LimitFlags;
use super::provenance::Provenance;
use super::rules_flags::RulesFlags;
use crate::dice::{Seeded, Supplied};
use crate::error::{Error, InputError};
use crate::present::trace::{self, TraceForm};
use crate::present::value::dynamic_to_json;
use crate::script::{Host, Limits};

pub(super) const EXAMPLES: &str = "Examples:
  grognard eval --rules linear-warfare 'fallen_leader(leader(#{name: \"Kleist\"}), #{})'
  grognard eval --rules linear-warfare --dice 3 'fallen_leader(leader(#{name: \"Kleist\"}), #{})'
  grognard eval --rules ff-napoleonic --seed 7 --json 'roll(\"2d6\").total'
  grognard eval --rules linear-warfare --trace full 'fallen_leader(leader(#{name: \"Kleist\"}), #{})'";

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// A Rhai expression (or several statements) to evaluate.
    #[arg(allow_hyphen_values = true)]
    pub expr: String,
    #[command(flatten)]
    pub rules: RulesFlags,
    #[command(flatten)]
    pub limits: LimitFlags,
    /// Seed for the dice (a fresh one is chosen, and shown, without it).
    #[arg(short = 's', long, conflicts_with = "dice")]
    pub seed: Option<u64>,
    /// Faces rolled at the table, used in order (e.g. `8,4`).
    #[arg(long, value_name = "FACES")]
    pub dice: Option<String>,
    /// The value and the trace as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Print the value without the trace.
    #[arg(long)]
    pub quiet: bool,
    /// How much of the trace: each step that counted (steps), the same in a few lines (brief),
    /// every modifier considered and why each did not apply (full), or the dice and the effects (off).
    #[arg(long, value_name = "FORM", default_value = "steps")]
    pub trace: TraceForm,
}

pub(super) fn run(args: &EvalArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), Error> {
    if !args.rules.given() {
        return Err(InputError::NeedsRules { command: "eval" }.into());
    }
    let (ruleset, _warnings) = args.rules.load()?;
    let header = args.json.then(|| Provenance::new(Some(&ruleset), args.rules.switches(), args.seed, None));
    let host = Host::with_limits(ruleset, args.limits.over(Limits::default())).map_err(crate::rules::Problems)?;
    host.allow_scenarios_from(std::path::Path::new("."));
    let seed = match &args.dice {
        Some(list) => {
            host.set_dice(Box::new(Supplied::parse_list(list).map_err(InputError::DiceList)?));
            None
        }
        None => {
            let seed = args.seed.unwrap_or_else(crate::dice::Seeded::fresh_seed);
            host.set_dice(Box::new(Seeded::new(seed)));
            Some(seed)
        }
    };
    let mut scope = Scope::new();
    let show_trace = !args.quiet && !args.json;
    if let (true, None, Some(seed)) = (show_trace, args.seed, seed) {
        // On stderr: the value and its trace alone go down a pipe.
        writeln!(err, "seed   {seed}")?;
    }
    let evaluation = match host.eval(&mut scope, &args.expr) {
        Ok(evaluation) => evaluation,
        Err(err) => {
            // The steps up to the failure: which roll ran out of faces, or what led to the error.
            if let (true, Some(trace)) = (show_trace, host.take_failed_trace()) {
                write!(out, "{trace}")?;
            }
            return Err(err.into());
        }
    };
    // Faces a player typed and no roll took: a face too many, or one missed earlier.
    if let Err(unused) = host.unused_faces() {
        if show_trace {
            write!(out, "{}", evaluation.trace)?;
        }
        return Err(unused.into());
    }
    if args.json {
        let value = serde_json::json!({
            "header": header.map(|h| h.json()),
            "value": dynamic_to_json(&evaluation.value),
            "trace": evaluation.trace.steps,
            "seed": seed,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&value).expect("json"))?;
        return Ok(());
    }
    if show_trace {
        write!(out, "{}", trace::render(&evaluation.trace, args.trace, trace::terminal_width()))?;
    }
    writeln!(out, "= {}", crate::present::value::display(&evaluation.value))?;
    Ok(())
}
