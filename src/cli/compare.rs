//! `grognard compare`: the odds of one procedure call under two rule versions, outcome by outcome.

use std::io::Write;

use clap::{Args, Parser};
use num_traits::ToPrimitive;
use serde_json::{Value, json};

use super::provenance::Provenance;
use super::rules_flags::RulesFlags;
use crate::dice::EnumLimits;
use crate::error::{Error, InputError};
use crate::present::odds::percent;
use crate::script::{Comparison, Host, ProcedureOdds};

pub(super) const EXAMPLES: &str = "Examples:
  grognard compare --a ff-napoleonic --b 'ff-napoleonic --set musketry_below_zero=none' \\
      'fire(unit(#{name: \"A\", arm: \"infantry\", stands: 6, formation: \"line\"}), unit(#{name: \"B\", arm: \"infantry\", stands: 6, formation: \"column\"}), #{fire_points: 1, cover: \"woods\"})'
  grognard compare --a ff-napoleonic --b 'ff-napoleonic rules/examples/ff-house' '...' --json";

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The procedure call both versions resolve (`fire(a, b, #{...})`).
    #[arg(allow_hyphen_values = true)]
    pub expr: String,
    /// Version A: ruleset ids or folders, then switches, as `--rules`, `--with`, `--without`
    /// and `--set` take them: `--a "ff-napoleonic --with veteran_volleys"`.
    #[arg(long = "a", value_name = "VERSION")]
    pub a: String,
    /// Version B, written as version A.
    #[arg(long = "b", value_name = "VERSION")]
    pub b: String,
    /// Both distributions, and the change of each outcome, as JSON.
    #[arg(long)]
    pub json: bool,
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

/// The rules flags a version stands for; a word that is not one is refused, naming the version.
fn version(which: &'static str, text: &str) -> Result<RulesFlags, Error> {
    let refused = |why: &str| InputError::Version { which, text: text.to_string(), why: why.to_string() };
    let words = shlex::split(text).ok_or_else(|| refused("an unclosed quote"))?;
    let VersionWords { rulesets, mut flags } =
        VersionWords::try_parse_from(&words).map_err(|e| refused(&clap_reason(&e)))?;
    flags.rules.splice(0..0, rulesets);
    if !flags.given() {
        return Err(refused("no ruleset: start with a ruleset id or folder, such as `ff-napoleonic`").into());
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

/// The odds of `expr` under one version (worked out exactly, or sampled with a fixed seed).
fn odds_under(flags: &RulesFlags, expr: &str) -> Result<(ProcedureOdds, Provenance), Error> {
    let (ruleset, _warnings) = flags.load()?;
    let host = Host::new(ruleset).map_err(crate::rules::Problems)?;
    let odds = host.odds_with_fields(&rhai::Scope::new(), expr, EnumLimits::STANDARD, (100_000, 1), &[])?;
    let header = Provenance::new(Some(&host.ruleset()), flags.switches(), odds.sampled.is_some().then_some(1), None);
    Ok((odds, header))
}

pub(super) fn run(args: &CompareArgs, out: &mut dyn Write) -> Result<(), Error> {
    let (flags_a, flags_b) = (version("a", &args.a)?, version("b", &args.b)?);
    let (a, header_a) = odds_under(&flags_a, &args.expr)?;
    let (b, header_b) = odds_under(&flags_b, &args.expr)?;
    let comparison = Comparison::of(&a, &b);
    if args.json {
        let changes: Vec<Value> = comparison
            .changes
            .iter()
            .map(|c| {
                json!({
                    "outcome": c.outcome.to_string(),
                    "a": format!("{}", c.a), "a_float": c.a.to_f64(),
                    "b": format!("{}", c.b), "b_float": c.b.to_f64(),
                    "points": c.points(),
                })
            })
            .collect();
        let mut value = json!({
            "call": args.expr,
            "exact": comparison.exact,
            "a": { "version": args.a, "header": header_a.json() },
            "b": { "version": args.b, "header": header_b.json() },
            "changes": changes,
        });
        if let Some((mean_a, mean_b)) = &comparison.means {
            value["mean"] = json!({ "a": mean_a.to_f64(), "b": mean_b.to_f64() });
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&value).expect("json"))?;
        return Ok(());
    }
    let how = if comparison.exact { "exact odds" } else { "estimated odds (sampled, the same seed on both sides)" };
    writeln!(out, "{}\n{how}\n  A: {}\n  B: {}\n", args.expr, args.a, args.b)?;
    let width = comparison.changes.iter().map(|c| c.outcome.to_string().chars().count()).max().unwrap_or(6).max(6);
    writeln!(out, "{:<width$}  {:>8}  {:>8}  {:>8}", "result", "A", "B", "change")?;
    for change in comparison.by_size() {
        writeln!(
            out,
            "{:<width$}  {:>8}  {:>8}  {:>+7.1}pt",
            change.outcome.to_string(),
            percent(&change.a),
            percent(&change.b),
            change.points()
        )?;
    }
    if let Some((mean_a, mean_b)) = &comparison.means {
        let (a, b) = (mean_a.to_f64().unwrap_or(f64::NAN), mean_b.to_f64().unwrap_or(f64::NAN));
        writeln!(out, "\nmean  {a:.3} -> {b:.3} ({:+.3})", b - a)?;
    }
    Ok(())
}
