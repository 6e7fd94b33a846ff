//! `grognard show`: a table as the chart it encodes, a modifier list, the options and interpretations as set.

use std::io::Write;

use clap::Args;

use super::rules_flags::RulesFlags;
use crate::error::{Error, InputError};
use crate::present::ruleset::{render, summary};

pub(super) const EXAMPLES: &str = "Examples:
  grognard show --rules ff-napoleonic                 # what the ruleset holds
  grognard show --rules ff-napoleonic musketry        # one table as a chart
  grognard show --rules ff-napoleonic fire_modifiers  # a modifier list
  grognard show --rules ff-napoleonic procedures fire # the procedures, and what fire() takes
  grognard show --rules republique --with attached_artillery options interpretations";

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Tables, modifier lists, procedures, `procedures`, `constants`, `options` or `interpretations` to show (a summary when none).
    pub names: Vec<String>,
    #[command(flatten)]
    pub rules: RulesFlags,
}

pub(super) fn run(args: &ShowArgs, out: &mut dyn Write) -> Result<(), Error> {
    if !args.rules.given() {
        return Err(InputError::NeedsRules { command: "show" }.into());
    }
    let (ruleset, _warnings) = args.rules.load()?;
    if args.names.is_empty() {
        out.write_all(summary(&ruleset).as_bytes())?;
        return Ok(());
    }
    for (i, name) in args.names.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        out.write_all(render(&ruleset, name)?.as_bytes())?;
    }
    Ok(())
}
