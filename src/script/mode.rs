//! `Mode`: how the command running now plays its dice (playing, studying, walking), as one type that owns them.
//!
//! Which mode a call runs in decides where its dice come from and what may take a procedure
//! call over from the compiled runner (see `compiled::seam`): at the table and in a script every
//! call runs as written; a study's untraced trials replay calls kept by the dice they rolled; an
//! exact walk works calls out whole, or replays the code once for every way its dice fall. Each
//! mode holds what only it needs, so a walk's enumerator cannot be asked of a study and a
//! study's generator cannot be asked of a walk.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use ahash::AHashMap as HashMap;
use num_bigint::BigUint;

use crate::dice::{DiceError, DiceExpr, DiceLimits, Die, Enumerator, Odds, RollSource, Weights, exact_odds};

use super::replayed::Replayed;

/// The enumerator of a walk, shared by the mode (for the bindings' rolls) and the odds engine
/// that steers it (`script::odds`), so neither has to ask the other whether it is walking.
pub type WalkDice = Rc<RefCell<Enumerator>>;

/// How the command running now plays its dice.
pub enum Mode {
    /// Dice from a generator or the player; every call runs as written (the table, a script, a
    /// study's traced trial).
    Playing(Box<dyn RollSource>),
    /// A study's trial: dice from the trial's generator; its procedures' calls may be replayed
    /// from the paths kept by the dice they rolled (`script::dice_paths`, behind the seam).
    Studying(Box<dyn RollSource>),
    /// An exact walk: every way the dice can fall, steered by the walk.
    Walking(Walking),
}

/// What an exact walk holds while it runs.
pub struct Walking {
    pub dice: WalkDice,
    /// How the walk takes its calls.
    pub by: WalkBy,
}

/// How an exact walk goes through the code's calls.
pub enum WalkBy {
    /// Procedure calls are worked out whole behind the runner's seam (`script::odds`), and a
    /// roll of several dice branches over its values, not its faces.
    WholeCalls(Rc<Pools>),
    /// The code is replayed once for every way its dice fall, face by face; calls its runs make
    /// again after the same faces are answered from what the runs before kept.
    Faces(Replayed),
}

impl Mode {
    /// The walk under way, if any.
    pub fn walking(&self) -> Option<&Walking> {
        match self {
            Mode::Walking(walking) => Some(walking),
            Mode::Playing(_) | Mode::Studying(_) => None,
        }
    }

    /// Whether this is a study's trial.
    pub fn studying(&self) -> bool {
        matches!(self, Mode::Studying(_))
    }

    /// The generator or player the dice come from, outside a walk.
    pub fn source(&mut self) -> Option<&mut Box<dyn RollSource>> {
        match self {
            Mode::Playing(source) | Mode::Studying(source) => Some(source),
            Mode::Walking(_) => None,
        }
    }
}

impl RollSource for Mode {
    fn face(&mut self, die: Die) -> Result<i64, DiceError> {
        self.face_for(die, "")
    }

    fn face_for(&mut self, die: Die, what: &str) -> Result<i64, DiceError> {
        match self {
            Mode::Playing(source) | Mode::Studying(source) => source.face_for(die, what),
            Mode::Walking(walking) => walking.dice.borrow_mut().face(die),
        }
    }

    fn shows_purpose(&self) -> bool {
        match self {
            Mode::Playing(source) | Mode::Studying(source) => source.shows_purpose(),
            Mode::Walking(_) => false,
        }
    }

    fn card_drawn(&mut self, face_down: &[&str], drawn: &[&str], what: &str) -> Option<Result<usize, DiceError>> {
        match self {
            Mode::Playing(source) | Mode::Studying(source) => source.card_drawn(face_down, drawn, what),
            Mode::Walking(_) => None,
        }
    }

    fn unused_faces(&self) -> Result<(), DiceError> {
        match self {
            Mode::Playing(source) | Mode::Studying(source) => source.unused_faces(),
            Mode::Walking(_) => Ok(()),
        }
    }

    fn position(&self) -> Option<u128> {
        match self {
            Mode::Playing(source) | Mode::Studying(source) => source.position(),
            Mode::Walking(_) => None,
        }
    }

    fn set_position(&mut self, position: u128) {
        if let Some(source) = self.source() {
            source.set_position(position);
        }
    }

    fn pool_faces(&mut self, die: Die, what: &[String], take: &mut dyn FnMut(i64)) -> Result<(), DiceError> {
        match self {
            Mode::Playing(source) | Mode::Studying(source) => source.pool_faces(die, what, take),
            Mode::Walking(walking) => {
                let mut dice = walking.dice.borrow_mut();
                for _ in what {
                    take(dice.face(die)?);
                }
                Ok(())
            }
        }
    }
}

/// The values a roll of several dice can take, and their chances: a walk branches over
/// these, not over the faces (`24d6 hits 4+` is 25 branches, not 6^24).
pub struct PoolOdds {
    pub values: Vec<i64>,
    pub weights: Rc<Weights>,
}

/// The pools' odds a walk worked out, by the roll's written form.
#[derive(Default)]
pub struct Pools(RefCell<HashMap<Arc<str>, Option<Rc<PoolOdds>>>>);

impl Pools {
    /// The values `expr` (written `written`) can take, when the walk branches over them: a
    /// sum with no comparison of more than one die, or of dice rolled again or exploding.
    /// None for a roll walked face by face (one plain die; a comparison; odds past the work limit).
    pub fn odds(&self, expr: &DiceExpr, written: &Arc<str>) -> Option<Rc<PoolOdds>> {
        if let Some(known) = self.0.borrow().get(written) {
            return known.clone();
        }
        let dice: u32 = expr.pools().map(|p| p.count).sum();
        let by_value =
            expr.comparison.is_none() && (dice > 1 || expr.pools().any(|p| p.reroll.is_some() || p.explode.is_some()));
        let odds = match by_value.then(|| exact_odds(expr, &DiceLimits::default())) {
            Some(Ok(Odds::Totals(dist))) => {
                let (values, counts): (Vec<i64>, Vec<BigUint>) = dist.counts().map(|(v, c)| (*v, c.clone())).unzip();
                let weights = Rc::new(Weights { counts, total: dist.denominator().clone() });
                Some(Rc::new(PoolOdds { values, weights }))
            }
            _ => None,
        };
        self.0.borrow_mut().insert(written.clone(), odds.clone());
        odds
    }
}
