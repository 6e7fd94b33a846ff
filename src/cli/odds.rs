//! `grognard odds`: the exact distribution of a dice expression, as a table or JSON.

use std::io::Write;

use clap::Args;
use serde_json::Value;

use super::DiceFlags;
use super::limit_flags::LimitFlags;
use super::provenance::Provenance;
use super::rules_flags::RulesFlags;
use super::walk_flags::WalkFlags;
use crate::dice::{DiceLimits, EnumLimits, exact_odds, parse_with};
use crate::error::{Error, InputError};
use crate::present::attribution::{attribution_csv, attribution_json, render_attribution};
use crate::present::file::{Fresh, write_atomically};
use crate::present::odds::{odds_json, procedure_json, render_odds, render_procedure};
use crate::script::Host;

pub(super) const EXAMPLES: &str = "Examples:
  grognard odds --rules linear-warfare 'fallen_leader(leader(#{name: \"Kleist\"}), #{})'
  grognard odds --rules linear-warfare --field natural 'fallen_leader(leader(#{name: \"Kleist\"}), #{})'
  grognard odds --rules ff-house-example --why 'fire(unit(#{name: \"A\", nation: \"britain\", arm: \"infantry\", grade: \"veteran\", stands: 6, formation: \"line\"}), unit(#{name: \"B\", arm: \"infantry\", stands: 6, formation: \"column\"}), #{range: 2})'
  grognard odds 2d6
  grognard odds '4d6kh3'
  grognard odds '2d6 >= 8'
  grognard odds '1d10 - 1d10' --json
  grognard odds 'd10 <= 4' --d10 0-9
  grognard odds --rules volley-example '3avg hits 4+'   # dice the ruleset names";

#[derive(Debug, Args)]
pub struct OddsArgs {
    /// A dice expression (`2d6`, `4d6kh3`, `6d6 hits 4+`, `2d6r1`, `1d6!` (exploding at most 10
    /// times a die, `1d6!3` for 3), `2d6*2`, `2d6 >= 8`), or with `--rules` a
    /// procedure call whose results are counted (`fire(a, b, #{...})`).
    #[arg(allow_hyphen_values = true)]
    pub expr: String,
    #[command(flatten)]
    pub rules: RulesFlags,
    #[command(flatten)]
    pub limits: LimitFlags,
    #[command(flatten)]
    pub walk: WalkFlags,
    /// With a procedure call, a field of the map it returns to show the odds of too, in a
    /// table of its own (`--field attacker_lost`); a path reads into maps (`--field
    /// attacker.stands`). Repeat it for more fields.
    #[arg(long = "field", value_name = "NAME")]
    pub fields: Vec<String>,
    /// With a procedure call, what each modifier that applied does to the odds: worked out
    /// again with each one left out in turn (each walk within the limits of its own), ranked
    /// by the furthest move, with bars.
    #[arg(long, conflicts_with = "fields")]
    pub why: bool,
    /// Probabilities as `"num/den"` strings and floats, in one JSON object.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// With `--why`, a row per modifier and outcome, as CSV.
    #[arg(long, requires = "why")]
    pub csv: bool,
    /// With `--why`, also write a page viewable offline, the moves as a tornado chart, to this file.
    #[arg(long, value_name = "FILE", requires = "why")]
    pub html: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub flags: DiceFlags,
}

pub(super) fn run(args: &OddsArgs, out: &mut dyn Write) -> Result<(), Error> {
    let limits = DiceLimits::default();
    let (expr, header) = if args.rules.given() {
        // With rules, dice read as the ruleset reads them; anything else is a procedure call.
        let (ruleset, _warnings) = args.rules.load()?;
        match parse_with(&args.expr, &args.flags.conventions_over(ruleset.dice.clone()), &limits) {
            Ok(_) if args.why => return Err(InputError::WhyOfDice { expr: args.expr.clone() }.into()),
            Ok(expr) => (expr, Provenance::new(Some(&ruleset), args.rules.switches(), None, None)),
            Err(_) => return run_procedure(args, ruleset, out),
        }
    } else {
        if args.why {
            return Err(InputError::WhyWithoutRules { expr: args.expr.clone() }.into());
        }
        let expr = parse_with(&args.expr, &args.flags.conventions_over(Default::default()), &limits)?;
        (expr, Provenance::new(None, Default::default(), None, None))
    };
    if let Some(field) = args.fields.first() {
        return Err(InputError::FieldOfDice { field: field.clone(), expr: args.expr.clone() }.into());
    }
    let odds = exact_odds(&expr, &limits)?;
    let label = expr.to_string();
    if args.json {
        let mut json = odds_json(&label, &odds);
        json["header"] = header.json();
        if let Some(note) = expr.certainty_note() {
            json["note"] = Value::String(note);
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&json).expect("json"))?;
    } else {
        out.write_all(render_odds(&label, &odds).as_bytes())?;
        if let Some(note) = expr.certainty_note() {
            writeln!(out, "\nnote: {note}")?;
        }
        if let Some(note) = explosion_note(&expr) {
            writeln!(out, "\nnote: {note}")?;
        }
    }
    Ok(())
}

/// How far the exploding dice of `expr` go, said so the odds are read as what they are.
fn explosion_note(expr: &crate::dice::DiceExpr) -> Option<String> {
    let depths: std::collections::BTreeSet<u32> = expr.pools().filter_map(|p| p.explode.map(|e| e.depth)).collect();
    let list: Vec<String> = depths.iter().map(u32::to_string).collect();
    (!list.is_empty()).then(|| {
        format!(
            "each exploding die explodes at most {} times (write the number after `!`, as `1d6!3`, up to {})",
            list.join(" or "),
            crate::dice::MAX_EXPLODE_DEPTH
        )
    })
}

fn run_procedure(args: &OddsArgs, ruleset: crate::rules::Ruleset, out: &mut dyn Write) -> Result<(), Error> {
    let host = args.limits.walking_host(ruleset)?;
    let limits = args.walk.limits();
    if args.why {
        return run_why(args, &host, limits, out);
    }
    let odds = host.odds_with_fields(&rhai::Scope::new(), &args.expr, limits, args.walk.sample(), &args.fields)?;
    if args.json {
        let mut json = procedure_json(&args.expr, &odds);
        // A sampled walk's seed says how to draw the same samples again.
        let seed = odds.sampled.is_some().then_some(args.walk.seed);
        json["header"] = Provenance::new(Some(&host.ruleset()), args.rules.switches(), seed, None).json();
        writeln!(out, "{}", serde_json::to_string_pretty(&json).expect("json"))?;
    } else {
        out.write_all(render_procedure(&args.expr, &odds).as_bytes())?;
    }
    Ok(())
}

/// `odds --why`: the call's odds, and what each modifier that applied does to them.
fn run_why(args: &OddsArgs, host: &Host, limits: EnumLimits, out: &mut dyn Write) -> Result<(), Error> {
    let attribution = host.attribution(&rhai::Scope::new(), &args.expr, limits, args.walk.sample())?;
    let seed = (!attribution.exact()).then_some(args.walk.seed);
    let header = Provenance::new(Some(&host.ruleset()), args.rules.switches(), seed, None);
    if args.json {
        let mut json = attribution_json(&args.expr, &attribution);
        json["header"] = header.json();
        writeln!(out, "{}", serde_json::to_string_pretty(&json).expect("json"))?;
    } else if args.csv {
        out.write_all(header.csv_comments().as_bytes())?;
        out.write_all(attribution_csv(&attribution).as_bytes())?;
    } else {
        out.write_all(render_attribution(&args.expr, &attribution).as_bytes())?;
    }
    // The page is written after the output, so a page that cannot be written loses nothing else.
    if let Some(path) = &args.html {
        let page = crate::present::html::attribution_page(&args.expr, &attribution, &header.csv_comments());
        write_atomically(path, &page, Fresh::Usual)
            .map_err(|e| InputError::Write { path: path.clone(), why: e.to_string() })?;
    }
    Ok(())
}
