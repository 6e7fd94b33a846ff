//! The enumerating `RollSource`: replays a computation once per dice outcome to get its exact distribution.
//!
//! The computation is run again and again; each run the enumerator hands out
//! the next combination of faces, depth first, like an odometer. A die first
//! asked for in a run starts at its lowest face; after the run the last die
//! that has faces left is turned on. Each run's outcome weighs the product of
//! `1/sides` of the dice it used, so a computation that rolls a varying number
//! of dice (re-roll on a tie, "roll again") is still exact.
//!
//! Besides dice, a computation may branch on a weighted choice (`choose`): one
//! of several outcomes, each with its own chance, such as the results of a
//! procedure whose odds were worked out already. A run then weighs the
//! product of the chances of the choices it took.

use std::rc::Rc;

use num_bigint::BigUint;
use num_traits::{One, Zero};

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

impl EnumLimits {
    /// The limits every front-end walks with unless told otherwise (`odds --max-outcomes`,
    /// `--max-depth`): past 200,000 outcomes a walk samples instead, which keeps the
    /// REPL responsive and a walk's memory small.
    pub const STANDARD: EnumLimits = EnumLimits { max_outcomes: 200_000, max_depth: 64 };
}

impl Default for EnumLimits {
    fn default() -> Self {
        EnumLimits::STANDARD
    }
}

/// Weighted outcomes to choose among: each outcome's count over a common total.
#[derive(Debug, PartialEq, Eq)]
pub struct Weights {
    pub counts: Vec<BigUint>,
    pub total: BigUint,
}

/// What one step of a run branched on.
#[derive(Clone, Debug)]
enum Branch {
    Die(Die),
    Weighted(Rc<Weights>),
}

impl Branch {
    fn options(&self) -> u32 {
        match self {
            Branch::Die(die) => die.sides,
            Branch::Weighted(w) => w.counts.len() as u32,
        }
    }

    fn same(&self, other: &Branch) -> bool {
        match (self, other) {
            (Branch::Die(a), Branch::Die(b)) => a == b,
            (Branch::Weighted(a), Branch::Weighted(b)) => Rc::ptr_eq(a, b) || a == b,
            _ => false,
        }
    }

    fn describe(&self) -> String {
        match self {
            Branch::Die(die) => die.describe(),
            Branch::Weighted(w) => format!("a choice among {} outcomes", w.counts.len()),
        }
    }
}

/// A `RollSource` that walks every outcome. Drive it with [`enumerate`].
#[derive(Debug)]
pub struct Enumerator {
    /// The branches of the current run: index of the option taken, and what was branched on.
    path: Vec<(u32, Branch)>,
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
        let mut weight_num = BigUint::one();
        let mut weight_den = BigUint::one();
        for (index, branch) in &self.path {
            match branch {
                Branch::Die(die) => weight_den *= die.sides,
                Branch::Weighted(w) => {
                    weight_num *= &w.counts[*index as usize];
                    weight_den *= &w.total;
                }
            }
        }
        Ok(RunEnd { weight_num, weight_den, cut_off: self.cut_off })
    }

    /// Moves to the next combination of faces; false when every one was visited.
    pub fn advance(&mut self) -> bool {
        while let Some((index, branch)) = self.path.last_mut() {
            // The next option of any chance (every face of a die has one).
            let next = (*index + 1..branch.options()).find(|&i| match branch {
                Branch::Die(_) => true,
                Branch::Weighted(w) => !w.counts[i as usize].is_zero(),
            });
            if let Some(next) = next {
                *index = next;
                return true;
            }
            self.path.pop();
        }
        false
    }

    /// The faces (or choices) the run under way has taken so far, in order.
    pub fn taken(&self) -> impl Iterator<Item = u32> + '_ {
        self.path[..self.cursor.min(self.path.len())].iter().map(|(index, _)| *index)
    }

    /// Whether this run has branched (or was cut off) so far.
    pub fn branched(&self) -> bool {
        !self.path.is_empty() || self.cut_off
    }

    /// Cuts this run off here: its chance is counted as residual.
    pub fn cut(&mut self) -> DiceError {
        self.cut_off = true;
        DiceError::CutOff { depth: self.max_depth }
    }

    /// Which of `weights`' outcomes this run takes (its chance is its count over the total).
    /// Outcomes of no chance are never taken.
    pub fn choose(&mut self, weights: &Rc<Weights>) -> Result<usize, DiceError> {
        // A choice of one outcome for certain is no branch: it adds no depth.
        let mut possible = weights.counts.iter().enumerate().filter(|(_, c)| !c.is_zero());
        if let (Some((only, count)), None) = (possible.next(), possible.next())
            && *count == weights.total
        {
            return Ok(only);
        }
        let branch = Branch::Weighted(weights.clone());
        let index = self.branch(branch)?;
        Ok(index as usize)
    }

    /// The option this run takes at its next branch: replayed, or the first of a new branch.
    fn branch(&mut self, branch: Branch) -> Result<u32, DiceError> {
        if let Some((index, before)) = self.path.get(self.cursor) {
            if !before.same(&branch) {
                let err = DiceError::Nondeterministic { before: before.describe(), now: branch.describe() };
                self.mismatch = Some(err.clone());
                return Err(err);
            }
            let index = *index;
            self.cursor += 1;
            return Ok(index);
        }
        if self.path.len() >= self.max_depth {
            return Err(self.cut());
        }
        // A weighted branch starts at its first outcome of any chance.
        let first = match &branch {
            Branch::Weighted(w) => w.counts.iter().position(|c| !c.is_zero()).unwrap_or(0) as u32,
            Branch::Die(_) => 0,
        };
        self.path.push((first, branch));
        self.cursor += 1;
        Ok(first)
    }
}

/// How one run of an enumerated computation ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunEnd {
    /// The run's probability is `weight_num / weight_den`.
    pub weight_num: BigUint,
    pub weight_den: BigUint,
    /// Whether the run wanted more dice than the depth limit allows.
    pub cut_off: bool,
}

impl RollSource for Enumerator {
    fn face(&mut self, die: Die) -> Result<i64, DiceError> {
        let index = self.branch(Branch::Die(die))?;
        Ok(die.face(index))
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
            dist.add_residual_fraction(&run.weight_num, &run.weight_den);
        } else {
            dist.add_fraction(result?, &run.weight_num, &run.weight_den);
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
