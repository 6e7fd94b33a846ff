//! `grognard roll`: roll an expression, with a seed or with faces rolled at the table.

use std::io::Write;

use clap::Args;
use serde::Serialize;

use super::DiceFlags;
use crate::dice::{DiceLimits, Roll, RollSource, Seeded, Supplied, parse_with};
use crate::error::{Error, InputError};

pub(super) const EXAMPLES: &str = "Examples:
  grognard roll 2d6+1
  grognard roll '4d6kh3' --seed 42 --times 6
  grognard roll '1d10 >= 7' --json
  grognard roll 'd10' --d10 0-9
  grognard roll '3avg' --rules volley-example   # a die the ruleset names
  grognard roll '2d6' --dice 3,5        # faces rolled at the table";

/// Most rolls one command makes.
const MAX_TIMES: u64 = 1_000_000;

#[derive(Debug, Args)]
pub struct RollArgs {
    /// The dice expression, e.g. `2d6+1`, `4d6kh3`, `1d10 >= 7`.
    #[arg(allow_hyphen_values = true)]
    pub expr: String,
    /// Seed for reproducible rolls (a fresh seed is chosen, and shown, without it).
    #[arg(short = 's', long)]
    pub seed: Option<u64>,
    /// How many times to roll.
    #[arg(short = 'n', long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_TIMES))]
    pub times: u64,
    /// Use these faces instead of a generator: real dice, in the order rolled (e.g. `3,5`).
    #[arg(long, value_name = "FACES", conflicts_with = "seed")]
    pub dice: Option<String>,
    /// One JSON object per roll, one per line.
    #[arg(long)]
    pub json: bool,
    /// Read the dice as this ruleset does (its d10 and d66, and the dice it names).
    #[arg(long = "rules", value_name = "ID|DIR")]
    pub rules: Vec<String>,
    #[command(flatten)]
    pub flags: DiceFlags,
}

#[derive(Serialize)]
struct JsonRoll<'a> {
    roll: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(flatten)]
    result: &'a Roll,
}

pub(super) fn run(args: &RollArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), Error> {
    let ruleset = ruleset_named(&args.rules)?;
    let conventions = ruleset.as_ref().map(|rs| rs.dice.clone()).unwrap_or_default();
    let expr = parse_with(&args.expr, &args.flags.conventions_over(conventions), &DiceLimits::default())?;
    let (mut source, seed): (Box<dyn RollSource>, Option<u64>) = match &args.dice {
        Some(list) => (Box::new(Supplied::parse_list(list).map_err(InputError::DiceList)?), None),
        None => {
            let seed = args.seed.unwrap_or_else(Seeded::fresh_seed);
            (Box::new(Seeded::new(seed)), Some(seed))
        }
    };
    // The seed chosen goes to stderr: the rolls alone go down a pipe.
    if let (None, false, Some(seed)) = (args.seed, args.json, seed) {
        writeln!(err, "seed {seed}")?;
    }
    if let (Some(note), false) = (expr.certainty_note(), args.json) {
        writeln!(out, "note: {note}")?;
    }
    // JSON lines: the header first, `{"header": ...}`, then one roll a line.
    if args.json {
        let header = super::provenance::Provenance::new(ruleset.as_ref(), Default::default(), seed, None);
        writeln!(out, "{}", serde_json::json!({ "header": header.json() }))?;
    }
    for i in 1..=args.times {
        let roll = expr.roll(&mut *source)?;
        if args.json {
            let line = JsonRoll { roll: i, seed, result: &roll };
            writeln!(out, "{}", serde_json::to_string(&line).expect("a roll always serializes"))?;
        } else {
            writeln!(out, "{roll}")?;
        }
    }
    // Faces typed and not taken: a face too many, or a roll missed.
    source.unused_faces()?;
    Ok(())
}

/// The rulesets named, stacked as overlays; none when none is.
fn ruleset_named(rules: &[String]) -> Result<Option<crate::rules::Ruleset>, Error> {
    if rules.is_empty() {
        return Ok(None);
    }
    let flags = super::rules_flags::RulesFlags { rules: rules.to_vec(), ..Default::default() };
    Ok(Some(flags.load()?.0))
}
