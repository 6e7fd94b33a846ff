//! `grognard repl` (and `grognard` alone in a terminal): the REPL.

use std::io::IsTerminal;

use clap::Args;

use super::limit_flags::LimitFlags;
use super::rules_flags::RulesFlags;
use crate::error::{Error, InputError};
use crate::present::diagnostic::{ColorChoice, Look};
use crate::repl::{Session, run_terminal};
use crate::script::Limits;

pub(super) const EXAMPLES: &str = "Examples:
  grognard repl --rules ff-napoleonic
  grognard repl --rules ff-house-example --set musketry_below_zero=clamp
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
}

pub(super) fn run(args: &ReplArgs, color: ColorChoice) -> Result<(), Error> {
    if !std::io::stdin().is_terminal() {
        return Err(InputError::NoTerminal.into());
    }
    let look = Look::for_stream(std::io::stdout().is_terminal(), color);
    let mut session = Session::new(&args.rules.rules, args.rules.switches(), None, look)?;
    session.set_limits(args.limits.over(Limits::default()), args.limits.over(Limits::for_walk()));
    run_terminal(session).map_err(|e| InputError::Terminal(e.to_string()).into())
}
