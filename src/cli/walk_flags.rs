//! The flags of the commands that work a call's odds out (`odds`, `compare`): how far the exact
//! walk may go, and how a call past it is sampled instead.

use clap::Args;
use clap::builder::RangedU64ValueParser;

use crate::dice::EnumLimits;

#[derive(Debug, Args, Clone, Copy)]
pub struct WalkFlags {
    /// Most dice outcomes to walk before sampling instead.
    // Zero would walk nothing; past a hundred million the walk's memory runs out first.
    #[arg(long, default_value_t = EnumLimits::STANDARD.max_outcomes, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub max_outcomes: u64,
    /// Most dice in one outcome; a loop that rolls more is cut off and its chance shown as residual.
    #[arg(long, default_value_t = EnumLimits::STANDARD.max_depth, value_parser = RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pub max_depth: usize,
    /// Trials to sample when there are too many outcomes to walk (for `compare`, under each version).
    // As many as a study may run: an unbounded count would sample for ever.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=super::run::MAX_TRIALS))]
    pub samples: u64,
    /// Seed for sampling (for `compare`, both versions draw the same dice, trial by trial).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl WalkFlags {
    /// How far the exact walk may go.
    pub fn limits(&self) -> EnumLimits {
        EnumLimits { max_outcomes: self.max_outcomes, max_depth: self.max_depth }
    }

    /// How many trials to sample, and with what seed, past the walk's limits.
    pub fn sample(&self) -> (u64, u64) {
        (self.samples, self.seed)
    }
}
