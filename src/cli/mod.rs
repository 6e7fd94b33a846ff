//! The command line: clap definitions and dispatch. Each subcommand lives in its own file.

pub mod odds;
mod roll;

use std::io::Write;

use clap::{Args, Parser, Subcommand};

use crate::dice::{D10Reading, DiceConventions};
use crate::error::Error;

pub use odds::OddsArgs;
pub use roll::RollArgs;

/// grognard: a rules interpreter for horse-and-musket tabletop wargames.
#[derive(Debug, Parser)]
#[command(name = "grognard", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Roll a dice expression and show every die's natural face.
    #[command(after_help = roll::EXAMPLES)]
    Roll(RollArgs),
    /// Show the exact distribution of a dice expression.
    #[command(after_help = odds::EXAMPLES)]
    Odds(OddsArgs),
}

/// How dice are read, shared by every command that takes dice notation.
#[derive(Debug, Args, Clone, Copy)]
pub struct DiceFlags {
    /// How a d10 is numbered: `1-10` (a printed 0 read as 10) or `0-9`.
    #[arg(long, value_name = "READING", default_value = "1-10")]
    pub d10: D10Reading,
}

impl DiceFlags {
    pub fn conventions(&self) -> DiceConventions {
        DiceConventions { d10: self.d10 }
    }
}

/// Runs a parsed command line, writing its normal output to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<(), Error> {
    match cli.command {
        Command::Roll(args) => roll::run(&args, out),
        Command::Odds(args) => odds::run(&args, out),
    }
}
