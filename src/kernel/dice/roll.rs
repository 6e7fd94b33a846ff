//! Rolling an expression: every die's natural face, which dice were kept, and the totals.

use std::fmt;
use std::sync::Arc;

use smallvec::SmallVec;

use serde::Serialize;

use super::ast::{Comparison, DiceExpr, DicePool, Die, Scale, Sum, Term};
use super::error::DiceError;
use super::source::RollSource;

/// One die as rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DieRoll {
    /// Which pool of the expression (left to right, from 0) it belongs to.
    pub pool: usize,
    pub die: Die,
    /// The face shown, before any modifier: what "a natural 10" is read from.
    pub natural: i64,
    /// Whether it counts towards the total (false when dropped by keep/drop, or re-rolled).
    pub kept: bool,
    /// A face rolled again (`2d6r1`): the next die of its pool is what it became.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replaced: bool,
    /// A face that exploded (`1d6!`): the next die of its pool is added to it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exploded: bool,
}

/// How many times a die may be rolled again "until none" before the roll is refused:
/// a fair die ends far sooner; supplied faces that never end would hang.
pub const MAX_REROLLS: u32 = 1_000;

/// The result of rolling a dice expression once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Roll {
    /// The expression, as grognard writes it.
    pub expr: Arc<str>,
    /// Every die in the order rolled (kept inline: most rolls are one or two dice, made by the thousand).
    pub dice: SmallVec<[DieRoll; 2]>,
    /// The total of the left-hand side (the whole expression when there is no comparison).
    pub total: i64,
    /// The total of the right-hand side of a comparison.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against: Option<i64>,
    /// Whether the comparison held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
    /// How many dice hit, when the left-hand side counts hits (`6d6 hits 4+`): its total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hits: Option<i64>,
    /// The terms in written order, for showing the roll the way it was asked.
    #[serde(skip)]
    layout: SmallVec<[Part; 2]>,
    /// A roll known by its value alone (an exact walk branched over totals, not faces):
    /// it has no dice to show.
    #[serde(skip)]
    pub faces_unknown: bool,
}

/// One written term of the expression, as rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// A pool, and how many of its dice hit when it counts hits.
    Pool {
        negative: bool,
        pool: usize,
        hits: Option<i64>,
        scale: Option<Scale>,
    },
    Constant {
        negative: bool,
        scale: Option<Scale>,
        value: i64,
    },
    Comparison(Comparison),
}

impl Roll {
    /// The natural faces, die by die in the order the dice were rolled (an exploding die's
    /// faces together): a die rolled again counts by the face it ended on.
    pub fn naturals(&self) -> impl Iterator<Item = i64> + '_ {
        self.dice.iter().filter(|d| !d.replaced).map(|d| d.natural)
    }

    /// Whether some die with `sides` faces showed `face` ("a natural 10", "13 on the d20"),
    /// as it ended (a 1 rolled again is not a natural 1).
    pub fn has_natural(&self, sides: u32, face: i64) -> bool {
        self.dice.iter().any(|d| !d.replaced && d.die.sides == sides && d.natural == face)
    }
}

impl DiceExpr {
    /// Rolls the expression, taking every face from `source`.
    ///
    /// # Example
    /// ```
    /// use grognard::dice::{parse, Supplied};
    /// let roll = parse("2d6+1").unwrap().roll(&mut Supplied::new([3, 5])).unwrap();
    /// assert_eq!(roll.total, 9);
    /// ```
    pub fn roll(&self, source: &mut dyn RollSource) -> Result<Roll, DiceError> {
        self.roll_for(source, "")
    }

    /// Rolls the expression, telling the source what the dice are for (`musketry`),
    /// so that a player asked for real dice knows which to roll.
    pub fn roll_for(&self, source: &mut dyn RollSource, what: &str) -> Result<Roll, DiceError> {
        self.roll_written(&self.to_string().into(), source, what)
    }

    /// `roll_for` of an expression whose `written` form (its `to_string`) is kept
    /// by the caller: writing it out costs as much as rolling a die.
    pub fn roll_written(&self, written: &Arc<str>, source: &mut dyn RollSource, what: &str) -> Result<Roll, DiceError> {
        let count: u32 = self.pools().map(|p| p.count).sum();
        let mut asker = Labelled { source, what, count, asked: 0 };
        let mut dice = SmallVec::new();
        let mut layout = SmallVec::new();
        let total = roll_sum(&self.left, &mut asker, &mut dice, &mut layout)?;
        let (against, success) = match &self.comparison {
            Some((op, right)) => {
                layout.push(Part::Comparison(*op));
                let against = roll_sum(right, &mut asker, &mut dice, &mut layout)?;
                (Some(against), Some(op.holds(total, against)))
            }
            None => (None, None),
        };
        let hits = self.left.pools().any(|p| p.hits.is_some()).then_some(total);
        Ok(Roll { expr: written.clone(), dice, total, against, success, hits, layout, faces_unknown: false })
    }

    /// A roll of this expression (with no comparison) known by its value alone: what an
    /// exact walk makes when it branches over the values a pool can take, not its faces.
    pub fn of_value(&self, written: &Arc<str>, total: i64) -> Roll {
        let hits = self.left.pools().any(|p| p.hits.is_some()).then_some(total);
        Roll {
            expr: written.clone(),
            dice: SmallVec::new(),
            total,
            against: None,
            success: None,
            hits,
            layout: SmallVec::new(),
            faces_unknown: true,
        }
    }

    /// Rolls and returns the left-hand total alone (or 1/0 for a comparison),
    /// without recording the dice: for hot loops and the enumerator.
    pub fn value(&self, source: &mut dyn RollSource) -> Result<i64, DiceError> {
        let total = sum_value(&self.left, source)?;
        match &self.comparison {
            Some((op, right)) => Ok(i64::from(op.holds(total, sum_value(right, source)?))),
            None => Ok(total),
        }
    }
}

/// Passes each die on with what it is for: "musketry" or "melee, die 2 of 2".
struct Labelled<'a> {
    source: &'a mut dyn RollSource,
    what: &'a str,
    count: u32,
    asked: u32,
}

impl Labelled<'_> {
    /// What the `n`-th die of the expression (from 1) is for: "musketry, die 2 of 2",
    /// or "musketry, re-roll of die 2 of 2" when `again` names what is asked again.
    fn label(&self, n: u32, again: Option<&str>) -> String {
        let which = match (self.count, again) {
            (1, None) => String::new(),
            (1, Some(kind)) => format!("{kind} of the die"),
            (count, None) => format!("die {n} of {count}"),
            (count, Some(kind)) => format!("{kind} of die {n} of {count}"),
        };
        match (self.what.is_empty(), which.is_empty()) {
            (_, true) => self.what.to_string(),
            (true, false) => which,
            (false, false) => format!("{}, {which}", self.what),
        }
    }

    /// The faces a pool's dice first show, rolled together: a player may type them on one line.
    fn first_faces(&mut self, pool: &DicePool) -> Result<SmallVec<[i64; 8]>, DiceError> {
        let first = self.asked + 1;
        self.asked += pool.count;
        let mut faces = SmallVec::new();
        // A generator ignores the words: made only for a source that shows them (a player's dice).
        if !self.source.shows_purpose() {
            for _ in 0..pool.count {
                faces.push(self.source.face(pool.die)?);
            }
            return Ok(faces);
        }
        let labels: Vec<String> = (0..pool.count).map(|k| self.label(first + k, None)).collect();
        self.source.pool_faces(pool.die, &labels, &mut |face| faces.push(face))?;
        Ok(faces)
    }

    /// A die asked for again (`kind`: "re-roll", "explosion") as the `n`-th die's.
    fn again(&mut self, die: Die, n: u32, kind: &str) -> Result<i64, DiceError> {
        if !self.source.shows_purpose() {
            return self.source.face(die);
        }
        let what = self.label(n, Some(kind));
        self.source.face_for(die, &what)
    }

    /// The `n`-th die of the expression, first showing `natural`, rolled again as the pool's
    /// re-roll says and exploded as it says; every face shown is pushed.
    fn finish_die(
        &mut self,
        pool: &DicePool,
        index: usize,
        n: u32,
        mut natural: i64,
        dice: &mut SmallVec<[DieRoll; 2]>,
    ) -> Result<(), DiceError> {
        let roll = |natural, kept, replaced, exploded| DieRoll {
            pool: index,
            die: pool.die,
            natural,
            kept,
            replaced,
            exploded,
        };
        if let Some(reroll) = pool.reroll {
            let mut times = 0;
            while reroll.when.takes(natural) && (times == 0 || reroll.until_none) {
                if times == MAX_REROLLS {
                    return Err(DiceError::EndlessReroll {
                        die: pool.die.describe(),
                        reroll: reroll.to_string(),
                        times,
                    });
                }
                dice.push(roll(natural, false, true, false));
                natural = self.again(pool.die, n, "re-roll")?;
                times += 1;
            }
        }
        if let Some(explode) = pool.explode {
            let mut times = 0;
            while explode.when.takes(natural) && times < explode.depth {
                dice.push(roll(natural, true, false, true));
                natural = self.again(pool.die, n, "explosion")?;
                times += 1;
            }
        }
        dice.push(roll(natural, true, false, false));
        Ok(())
    }
}

fn roll_sum(
    sum: &Sum,
    source: &mut Labelled<'_>,
    dice: &mut SmallVec<[DieRoll; 2]>,
    layout: &mut SmallVec<[Part; 2]>,
) -> Result<i64, DiceError> {
    let mut total = 0i64;
    for term in &sum.terms {
        let negative = term.negative;
        let value = match term.term {
            Term::Constant(value) => {
                layout.push(Part::Constant { negative, value, scale: term.scale });
                term.scaled(value)
            }
            Term::Dice(pool) => {
                let first = dice.len();
                let index = layout.iter().filter(|p| matches!(p, Part::Pool { .. })).count();
                // The pool is rolled together, then each die rolled again or exploded in turn,
                // as at the table.
                let first_number = source.asked + 1;
                let faces = source.first_faces(&pool)?;
                for (k, natural) in faces.into_iter().enumerate() {
                    source.finish_die(&pool, index, first_number + k as u32, natural, dice)?;
                }
                mark_kept(&pool, &mut dice[first..]);
                let value = pool.value_of(dice[first..].iter().filter(|d| d.kept && !d.replaced).map(|d| d.natural));
                layout.push(Part::Pool { negative, pool: index, hits: pool.hits.map(|_| value), scale: term.scale });
                term.scaled(value)
            }
        };
        total += if term.negative { -value } else { value };
    }
    Ok(total)
}

fn sum_value(sum: &Sum, source: &mut dyn RollSource) -> Result<i64, DiceError> {
    let mut total = 0i64;
    let mut faces = Vec::new();
    for term in &sum.terms {
        let value = match term.term {
            Term::Constant(c) => c,
            Term::Dice(pool)
                if pool.keep.is_none() && pool.hits.is_none() && pool.reroll.is_none() && pool.explode.is_none() =>
            {
                let mut s = 0;
                for _ in 0..pool.count {
                    s += source.face(pool.die)?;
                }
                s
            }
            Term::Dice(pool) => {
                faces.clear();
                for _ in 0..pool.count {
                    faces.push(source.face(pool.die)?);
                }
                for face in faces.iter_mut() {
                    *face = finish_face(&pool, *face, source)?;
                }
                faces.sort_unstable();
                let (kept, highest) = pool.keep.map_or((pool.count, true), |k| k.kept_of(pool.count));
                let kept = kept as usize;
                let kept = if highest { &faces[faces.len() - kept..] } else { &faces[..kept] };
                pool.value_of(kept.iter().copied())
            }
        };
        let value = term.scaled(value);
        total += if term.negative { -value } else { value };
    }
    Ok(total)
}

/// One die of `pool` that first showed `first`, as it ends: re-rolled and exploded as the
/// pool says, in the order `roll` asks (without recording the faces).
fn finish_face(pool: &DicePool, first: i64, source: &mut dyn RollSource) -> Result<i64, DiceError> {
    let mut face = first;
    if let Some(reroll) = pool.reroll {
        let mut times = 0;
        while reroll.when.takes(face) && (times == 0 || reroll.until_none) {
            if times == MAX_REROLLS {
                return Err(DiceError::EndlessReroll { die: pool.die.describe(), reroll: reroll.to_string(), times });
            }
            face = source.face(pool.die)?;
            times += 1;
        }
    }
    if let Some(explode) = pool.explode {
        let (mut total, mut times) = (face, 0);
        while explode.when.takes(face) && times < explode.depth {
            face = source.face(pool.die)?;
            total += face;
            times += 1;
        }
        return Ok(total);
    }
    Ok(face)
}

/// Marks the dropped dice of a pool (faces rolled again are not among them). Among
/// equal faces the later-rolled die is dropped first.
fn mark_kept(pool: &DicePool, dice: &mut [DieRoll]) {
    let Some(keep) = pool.keep else { return };
    let (kept, highest) = keep.kept_of(pool.count);
    let mut order: Vec<usize> = (0..dice.len()).filter(|&i| !dice[i].replaced).collect();
    // Highest first when keeping the highest, lowest first otherwise; ties by roll order.
    order.sort_by(|&a, &b| {
        let by_face = dice[a].natural.cmp(&dice[b].natural);
        let by_face = if highest { by_face.reverse() } else { by_face };
        by_face.then(a.cmp(&b))
    });
    for &i in &order[kept as usize..] {
        dice[i].kept = false;
    }
}

impl fmt::Display for Roll {
    /// `3d6-1d4+2: [3 1 4] - [4] + 2 = 6`; dropped dice in parentheses:
    /// `4d6kh3: [(3) 4 6 5] = 15`; a comparison ends with yes or no.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.faces_unknown {
            return write!(f, "{}: {}", self.expr, self.total);
        }
        write!(f, "{}:", self.expr)?;
        let mut first_of_side = true;
        for part in &self.layout {
            let negative = match *part {
                Part::Pool { negative, .. } | Part::Constant { negative, .. } => negative,
                Part::Comparison(op) => {
                    write!(f, " = {} {op}", self.total)?;
                    first_of_side = true;
                    continue;
                }
            };
            match (first_of_side, negative) {
                (true, true) => write!(f, " -")?,
                (false, true) => write!(f, " - ")?,
                (false, false) => write!(f, " + ")?,
                (true, false) => write!(f, " ")?,
            }
            first_of_side = false;
            match *part {
                Part::Pool { pool, hits, .. } => {
                    // A face rolled again is written before the one it became: `1↻5`.
                    let mut faces: Vec<String> = Vec::new();
                    let mut replaced = String::new();
                    for d in self.dice.iter().filter(|d| d.pool == pool) {
                        if d.replaced {
                            replaced += &format!("{}↻", d.natural);
                            continue;
                        }
                        // An exploded face leads to the one it added: `6!4`.
                        if d.exploded {
                            replaced += &format!("{}!", d.natural);
                            continue;
                        }
                        let face = if d.kept { d.natural.to_string() } else { format!("({})", d.natural) };
                        faces.push(std::mem::take(&mut replaced) + face.as_str());
                    }
                    match hits {
                        Some(n) => write!(f, "[{} → {n} hit{}]", faces.join(" "), if n == 1 { "" } else { "s" })?,
                        None => write!(f, "[{}]", faces.join(" "))?,
                    }
                }
                Part::Constant { value, .. } => write!(f, "{value}")?,
                Part::Comparison(_) => {}
            }
            if let Part::Pool { scale: Some(scale), .. } | Part::Constant { scale: Some(scale), .. } = *part {
                write!(f, "{scale}")?;
            }
            match *part {
                Part::Pool { .. } | Part::Constant { .. } => {}
                Part::Comparison(_) => {}
            }
        }
        match (self.against, self.success) {
            (Some(against), Some(success)) => {
                let answer = if success { "yes" } else { "no" };
                // A bare number on the right needs no "= 8" after it.
                let right = self.layout.iter().skip_while(|p| !matches!(p, Part::Comparison(_))).skip(1);
                let right_terms: Vec<&Part> = right.collect();
                let right_has_dice =
                    right_terms.len() > 1 || right_terms.iter().any(|p| matches!(p, Part::Pool { .. }));
                if right_has_dice { write!(f, " = {against}: {answer}") } else { write!(f, ": {answer}") }
            }
            _ => write!(f, " = {}", self.total),
        }
    }
}
