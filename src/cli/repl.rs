//! `grognard repl` (and `grognard` alone in a terminal): the REPL.

use std::io::IsTerminal;

use clap::Args;

use super::limit_flags::LimitFlags;
use super::rules_flags::RulesFlags;
use crate::error::{Error, InputError};
use crate::present::diagnostic::{ColorChoice, Look};
use crate::repl::{Reply, Session, run_terminal};
use crate::script::Limits;

pub(super) const EXAMPLES: &str = "Examples:
  grognard repl --rules ff-napoleonic
  grognard repl --rules ff-house-example --set musketry_below_zero=clamp
  grognard repl --rules ff-napoleonic --load scripts/scenarios/hedge.yaml --dice manual
Then, at the prompt:
  let a = unit(#{name: \"54th Foot\", nation: \"britain\", arm: \"infantry\", stands: 6, formation: \"line\"})
  :dice manual
  fire(a, b, #{range: 2})
  :why";

#[derive(Debug, Args, Default)]
pub struct ReplArgs {
    #[command(flatten)]
    pub rules: RulesFlags,
    #[command(flatten)]
    pub limits: LimitFlags,
    /// Start with a saved game (`:save`) or an order of battle, its units in variables named by id.
    #[arg(long = "load", value_name = "FILE")]
    pub load: Option<String>,
    /// Start the dice from this seed (as `:seed N`).
    #[arg(long = "seed", value_name = "N")]
    pub seed: Option<u64>,
    /// Roll the dice here (`auto`) or at the table, asked for one by one (`manual`).
    #[arg(long = "dice", value_name = "HOW", value_parser = ["auto", "manual"])]
    pub dice: Option<String>,
}

pub(super) fn run(args: &ReplArgs, color: ColorChoice) -> Result<(), Error> {
    if !std::io::stdin().is_terminal() {
        return Err(InputError::NoTerminal.into());
    }
    let look = Look::for_stream(std::io::stdout().is_terminal(), color);
    let mut session = Session::new(&args.rules.rules, args.rules.switches(), None, look)?;
    session.set_limits(args.limits.over(Limits::default()), args.limits.over(Limits::for_walk()));
    // What the flags ask for is done as its command would be, and said under the greeting;
    // one that fails ends here, before the session starts on something the player did not ask for.
    let mut said = Vec::new();
    let commands = [
        args.load.as_ref().map(|file| format!(":load {file}")),
        args.seed.map(|seed| format!(":seed {seed}")),
        args.dice.as_ref().map(|how| format!(":dice {how}")),
    ];
    for command in commands.into_iter().flatten() {
        match session.handle(&command) {
            Reply::Output(text) => said.push(text),
            Reply::Error(text) => return Err(InputError::Startup { command, why: text.trim_end().to_string() }.into()),
            Reply::Quit => {}
        }
    }
    run_terminal(session, &said).map_err(|e| InputError::Terminal(e.to_string()).into())
}
