//! The enumerating `RollSource`: replays a computation once per dice outcome to get its exact distribution.
//!
//! The computation is run again and again; each run the enumerator hands out
//! the next combination of faces, depth first, like an odometer. A die first
//! asked for in a run starts at its lowest face; after the run the last die
//! that has faces left is turned on. Each run's outcome weighs the product of
//! `1/sides` of the dice it used, so a computation that rolls a varying number
//! of dice (re-roll on a tie, "roll again") is still exact.

use num_bigint::BigUint;
use num_traits::One;

use super::ast::Die;
use super::distribution::Distribution;
use super::error::DiceError;
use super::source::RollSource;

/// How far an enumeration may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnumLimits {
    /// Most outcomes (runs of the computation) before giving up with `TooManyOutcomes`.
    pub max_outcomes: u64,
    /// Most dice in one run; a run that wants more is cut off and its
    /// probability counted as residual (a loop such as "re-roll ties").
    pub max_depth: usize,
}

impl Default for EnumLimits {
    fn default() -> Self {
        EnumLimits { max_outcomes: 1_000_000, max_depth: 64 }
    }
}

/// A `RollSource` that walks every outcome. Drive it with [`enumerate`].
#[derive(Debug)]
pub struct Enumerator {
    /// The faces of the current run: index of the face shown, and the die.
    path: Vec<(u32, Die)>,
    cursor: usize,
    max_depth: usize,
    cut_off: bool,
    mismatch: Option<DiceError>,
}

impl Enumerator {
    /// A fresh walk, cutting off runs deeper than `max_depth` dice.
    pub fn new(max_depth: usize) -> Self {
        Enumerator { path: Vec::new(), cursor: 0, max_depth, cut_off: false, mismatch: None }
    }

    /// Call before each run of the computation.
    pub fn begin_run(&mut self) {
        self.cursor = 0;
        self.cut_off = false;
        self.mismatch = None;
    }

    /// Call after each run: the run's weight (its probability is `1 / weight`)
    /// and whether it was cut off; an error if the computation asked for
    /// different dice on the same earlier faces.
    pub fn end_run(&mut self) -> Result<RunEnd, DiceError> {
        if let Some(err) = self.mismatch.take() {
            return Err(err);
        }
        // A deterministic computation reads its whole replayed prefix; anything
        // past the cursor would belong to another branch.
        self.path.truncate(self.cursor);
        let weight_den = self.path.iter().fold(BigUint::one(), |acc, (_, die)| acc * die.sides);
        Ok(RunEnd { weight_den, cut_off: self.cut_off })
    }

    /// Moves to the next combination of faces; false when every one was visited.
    pub fn advance(&mut self) -> bool {
        while let Some((index, die)) = self.path.last_mut() {
            if *index + 1 < die.sides {
                *index += 1;
                return true;
            }
            self.path.pop();
        }
        false
    }
}

/// How one run of an enumerated computation ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunEnd {
    /// The run's probability is `1 / weight_den`.
    pub weight_den: BigUint,
    /// Whether the run wanted more dice than the depth limit allows.
    pub cut_off: bool,
}

impl RollSource for Enumerator {
    fn face(&mut self, die: Die) -> Result<i64, DiceError> {
        if let Some(&(index, before)) = self.path.get(self.cursor) {
            if before != die {
                let err = DiceError::Nondeterministic { before: before.describe(), now: die.describe() };
                self.mismatch = Some(err.clone());
                return Err(err);
            }
            self.cursor += 1;
            return Ok(die.face(index));
        }
        if self.path.len() >= self.max_depth {
            self.cut_off = true;
            return Err(DiceError::CutOff { depth: self.max_depth });
        }
        self.path.push((0, die));
        self.cursor += 1;
        Ok(die.face(0))
    }
}

/// Runs `compute` under every combination of dice it asks for and returns the
/// exact distribution of its results.
///
/// A run cut off at `limits.max_depth` dice adds its probability to the
/// residual, whether `compute` passed the error on or swallowed it. Any other
/// error from `compute` stops the enumeration and is returned.
///
/// # Example
/// ```
/// use grognard::dice::{enumerate, Die, EnumLimits, RollSource};
/// // The chance that the higher of two d6 is a 6.
/// let dist = enumerate(EnumLimits::default(), |src| {
///     let a = src.face(Die::standard(6))?;
///     let b = src.face(Die::standard(6))?;
///     Ok::<_, grognard::dice::DiceError>(a.max(b) == 6)
/// })
/// .unwrap();
/// assert_eq!(dist.probability(&true).to_string(), "11/36");
/// ```
pub fn enumerate<T, E, F>(limits: EnumLimits, mut compute: F) -> Result<Distribution<T>, E>
where
    T: Ord,
    E: From<DiceError>,
    F: FnMut(&mut Enumerator) -> Result<T, E>,
{
    let mut source = Enumerator::new(limits.max_depth);
    let mut dist = Distribution::new();
    let mut outcomes = 0u64;
    loop {
        source.begin_run();
        let result = compute(&mut source);
        let run = source.end_run()?;
        if run.cut_off {
            dist.add_residual(&run.weight_den);
        } else {
            dist.add(result?, &run.weight_den);
        }
        outcomes += 1;
        if !source.advance() {
            return Ok(dist);
        }
        if outcomes >= limits.max_outcomes {
            return Err(DiceError::TooManyOutcomes { limit: limits.max_outcomes }.into());
        }
    }
}
