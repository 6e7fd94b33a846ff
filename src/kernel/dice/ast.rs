//! The dice expression tree: what `2d6+1` or `4d6kh3 >= 12` means once parsed.

use std::fmt;

use serde::Serialize;

/// One kind of die: how many faces, and the number on the lowest face.
///
/// A d6 reads 1-6; a d10 reads 1-10 or 0-9 depending on the ruleset
/// (the 18th-century fallen leader table reads "0-4").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Die {
    /// Number of faces, at least 2.
    pub sides: u32,
    /// The number on the lowest face (1 for most dice, 0 for a d10 read 0-9).
    pub first: i64,
    /// Written as `d%` rather than `d100`.
    #[serde(skip)]
    pub percentile: bool,
    /// A die with faces of its own (`d{2,3,3,4,4,5}`), sorted, one entry a side;
    /// none: the faces are `first` up, one apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faces: Option<&'static [i64]>,
    /// The name a ruleset gave the die (`avg`), or `d66` for two d6 read as tens and units.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<&'static str>,
}

impl Die {
    /// A die numbered `1..=sides`.
    pub const fn standard(sides: u32) -> Self {
        Die { sides, first: 1, percentile: false, faces: None, name: None }
    }

    /// A die whose sides show `faces` (a face may be on several sides); none when the
    /// process keeps too many different dice already (see `faces::MAX_CUSTOM_DICE`).
    pub fn with_faces(faces: &[i64]) -> Option<Self> {
        let faces = super::faces::intern(faces)?;
        Some(Die { sides: faces.len() as u32, first: faces[0], percentile: false, faces: Some(faces), name: None })
    }

    /// A die a ruleset names (`avg: [2,3,3,4,4,5]`); none when the process keeps too many
    /// different dice already.
    pub fn named(name: &str, faces: &[i64]) -> Option<Self> {
        let name = super::faces::intern_name(name)?;
        Some(Die { name: Some(name), ..Die::with_faces(faces)? })
    }

    /// A d66: two d6 read as tens and units, 11 to 66, each of the 36 a side.
    pub fn d66() -> Self {
        let faces: Vec<i64> = (1..=6).flat_map(|tens| (1..=6).map(move |units| tens * 10 + units)).collect();
        Die::named("d66", &faces).expect("the d66 is among the first dice a process keeps")
    }

    /// Whether this is a d66 (tens and units), not a die a ruleset named.
    pub fn is_d66(&self) -> bool {
        self.name == Some("d66")
    }

    /// The lowest face.
    pub fn min_face(&self) -> i64 {
        self.first
    }

    /// The highest face.
    pub fn max_face(&self) -> i64 {
        match self.faces {
            Some(faces) => faces[faces.len() - 1],
            None => self.first + i64::from(self.sides) - 1,
        }
    }

    /// The face shown by the `index`-th side (0-based), lowest first.
    pub fn face(&self, index: u32) -> i64 {
        match self.faces {
            Some(faces) => faces[index as usize],
            None => self.first + i64::from(index),
        }
    }

    /// Whether `face` is printed on this die.
    pub fn has_face(&self, face: i64) -> bool {
        match self.faces {
            Some(faces) => faces.contains(&face),
            None => (self.min_face()..=self.max_face()).contains(&face),
        }
    }

    /// `d6 (1-6)`, `d10 (0-9)`, `d{2,3,3,4,4,5}`, `avg (2,3,3,4,4,5)`,
    /// `d66 (tens die then units die, 11-66)`: the die and the faces it reads.
    pub fn describe(&self) -> String {
        match (self.name, self.faces) {
            _ if self.is_d66() => "d66 (tens die then units die, 11-66)".to_string(),
            (Some(name), Some(faces)) => {
                let faces: Vec<String> = faces.iter().map(i64::to_string).collect();
                format!("{name} ({})", faces.join(","))
            }
            (_, Some(_)) => self.to_string(),
            (_, None) => format!("{self} ({}-{})", self.min_face(), self.max_face()),
        }
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.faces {
            _ if self.name.is_some() => f.write_str(self.name.unwrap_or_default()),
            Some(faces) => {
                let faces: Vec<String> = faces.iter().map(i64::to_string).collect();
                write!(f, "d{{{}}}", faces.join(","))
            }
            None if self.percentile => write!(f, "d%"),
            None => write!(f, "d{}", self.sides),
        }
    }
}

/// Which dice of a pool count towards its total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "n")]
pub enum Keep {
    /// `kh3` (or `k3`): keep the highest n.
    Highest(u32),
    /// `kl1`: keep the lowest n.
    Lowest(u32),
    /// `dh1`: drop the highest n.
    DropHighest(u32),
    /// `dl1` (or `d1`): drop the lowest n.
    DropLowest(u32),
}

impl Keep {
    /// How many dice of a pool of `count` are kept, highest first or lowest first.
    /// Returns `(kept, keep_highest)`.
    pub fn kept_of(&self, count: u32) -> (u32, bool) {
        match *self {
            Keep::Highest(n) => (n, true),
            Keep::Lowest(n) => (n, false),
            Keep::DropHighest(n) => (count - n, false),
            Keep::DropLowest(n) => (count - n, true),
        }
    }
}

impl Keep {
    /// Plain words for the trace: "keep the highest 3".
    pub fn describe(&self) -> String {
        match self {
            Keep::Highest(n) => format!("keep the highest {n}"),
            Keep::Lowest(n) => format!("keep the lowest {n}"),
            Keep::DropHighest(n) => format!("drop the highest {n}"),
            Keep::DropLowest(n) => format!("drop the lowest {n}"),
        }
    }
}

impl fmt::Display for Keep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Keep::Highest(n) => write!(f, "kh{n}"),
            Keep::Lowest(n) => write!(f, "kl{n}"),
            Keep::DropHighest(n) => write!(f, "dh{n}"),
            Keep::DropLowest(n) => write!(f, "dl{n}"),
        }
    }
}

/// Which faces a re-roll takes again: `r1` (a 1), `r<3` (below 3), `r>=5`...
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FaceTest {
    pub op: Comparison,
    pub value: i64,
}

impl FaceTest {
    /// Whether a die showing `face` is taken again.
    pub fn takes(&self, face: i64) -> bool {
        self.op.holds(face, self.value)
    }
}

/// `2d6r1`: a die showing a face the test takes is rolled again, once (`r`) or
/// until it shows another (`rr`); the face it ends on is the one that counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Reroll {
    pub when: FaceTest,
    /// `rr`: again and again until the die shows a face the test does not take.
    pub until_none: bool,
}

impl Reroll {
    /// How likely each face of `die` is to be the one that counts, as whole weights
    /// over `die.sides` squared (once) or over the faces kept (until none).
    pub fn weights(&self, die: &Die) -> Vec<u64> {
        let s = u64::from(die.sides);
        let taken = (0..die.sides).filter(|&i| self.when.takes(die.face(i))).count() as u64;
        (0..die.sides)
            .map(|i| {
                let again = self.when.takes(die.face(i));
                match (self.until_none, again) {
                    (true, true) => 0,
                    (true, false) => 1,
                    // Shown at first (s ways) if not taken, plus any face after one that was (taken ways).
                    (false, again) => (if again { 0 } else { s }) + taken,
                }
            })
            .collect()
    }
}

impl fmt::Display for Reroll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.until_none { "rr" } else { "r" })?;
        match self.when.op {
            Comparison::Equal => write!(f, "{}", self.when.value),
            op => write!(f, "{op}{}", self.when.value),
        }
    }
}

/// How many times one die explodes at most, unless the notation says (`1d6!3`).
pub const DEFAULT_EXPLODE_DEPTH: u32 = 10;

/// The most a notation may let one die explode.
pub const MAX_EXPLODE_DEPTH: u32 = 100;

/// `1d6!`: a die showing a face the test takes (its highest, unless `!>=5`) is rolled
/// again and the new face added, again and again, at most `depth` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Explode {
    pub when: FaceTest,
    pub depth: u32,
}

impl Explode {
    /// The test `1d6!` means: the highest face.
    pub fn highest(die: &Die) -> FaceTest {
        FaceTest { op: Comparison::AtLeast, value: die.max_face() }
    }

    /// The smallest and largest value one die can end on, explosions added.
    pub fn range(&self, die: &Die) -> (i64, i64) {
        let (mut lo, mut hi) = (die.min_face(), die.max_face());
        // With no explosion left, a die is its face; each level before adds what the next can be.
        for _ in 0..self.depth {
            let faces = (0..die.sides).map(|i| die.face(i));
            let values: Vec<(i64, i64)> =
                faces.map(|f| if self.when.takes(f) { (f + lo, f + hi) } else { (f, f) }).collect();
            lo = values.iter().map(|v| v.0).min().unwrap_or(lo);
            hi = values.iter().map(|v| v.1).max().unwrap_or(hi);
        }
        (lo, hi)
    }
}

/// `4d6kh3`: a pool of identical dice, perhaps keeping only some; `6d6 hits 4+`:
/// a pool whose value is how many of its (kept) dice show 4 or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DicePool {
    pub count: u32,
    pub die: Die,
    pub keep: Option<Keep>,
    /// The face a die must show to count as a hit; none: the pool's value is its total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hits: Option<i64>,
    /// Faces rolled again before anything is kept or counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reroll: Option<Reroll>,
    /// Faces that explode: rolled again and added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explode: Option<Explode>,
}

impl DicePool {
    /// How many dice count towards the total.
    pub fn kept_count(&self) -> u32 {
        self.keep.map_or(self.count, |k| k.kept_of(self.count).0)
    }

    /// Smallest possible value of the pool.
    pub fn min(&self) -> i64 {
        match (self.hits, self.explode) {
            (Some(_), _) => 0,
            (None, Some(explode)) => i64::from(self.count) * explode.range(&self.die).0,
            (None, None) => i64::from(self.kept_count()) * self.die.min_face(),
        }
    }

    /// Largest possible value of the pool.
    pub fn max(&self) -> i64 {
        match (self.hits, self.explode) {
            (Some(_), _) => i64::from(self.kept_count()),
            (None, Some(explode)) => i64::from(self.count) * explode.range(&self.die).1,
            (None, None) => i64::from(self.kept_count()) * self.die.max_face(),
        }
    }

    /// The value of faces rolled, kept ones marked: their total, or how many hit.
    pub fn value_of(&self, kept: impl Iterator<Item = i64>) -> i64 {
        match self.hits {
            Some(at) => kept.filter(|&face| face >= at).count() as i64,
            None => kept.sum(),
        }
    }
}

impl DicePool {
    /// Whether the re-roll is "the misses, once" of its hits (`6d6 hits 4+ reroll misses`).
    pub fn rerolls_misses(&self) -> bool {
        match (self.hits, self.reroll) {
            (Some(at), Some(r)) => !r.until_none && r.when == FaceTest { op: Comparison::Below, value: at },
            _ => false,
        }
    }
}

impl fmt::Display for DicePool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let misses = self.rerolls_misses();
        let reroll = self.reroll.filter(|_| !misses);
        match self.die.name {
            // A ruleset's name would run into a glued re-roll, keep or explosion: `2d{avg}kh1`.
            Some(name) if !self.die.is_d66() && (self.explode.is_some() || reroll.is_some() || self.keep.is_some()) => {
                write!(f, "{}d{{{name}}}", self.count)?
            }
            Some(name) if !self.die.is_d66() && self.count == 1 => f.write_str(name)?,
            _ => write!(f, "{}{}", self.count, self.die)?,
        }
        if let Some(explode) = self.explode {
            write!(f, "!")?;
            if explode.when != Explode::highest(&self.die) {
                write!(f, "{}{}", explode.when.op, explode.when.value)?;
            } else if explode.depth != DEFAULT_EXPLODE_DEPTH {
                write!(f, "{}", explode.depth)?;
            }
        }
        if let Some(reroll) = reroll {
            write!(f, "{reroll}")?;
        }
        if let Some(keep) = self.keep {
            write!(f, "{keep}")?;
        }
        if let Some(at) = self.hits {
            write!(f, " hits {at}+")?;
        }
        if misses {
            write!(f, " reroll misses")?;
        }
        Ok(())
    }
}

/// One term of a sum: dice or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    Dice(DicePool),
    Constant(i64),
}

/// `2d6*2`, `1d6/2`: a term multiplied, or divided and rounded down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    Times(i64),
    /// Divided by, rounded down (`1d6/2` of a 5 is 2).
    Over(i64),
}

impl Scale {
    /// `value` scaled: both keep the order of values, so a range scales by its ends.
    pub fn apply(&self, value: i64) -> i64 {
        match *self {
            Scale::Times(c) => value.saturating_mul(c),
            Scale::Over(c) => value.div_euclid(c),
        }
    }
}

impl Scale {
    /// How it is written: the operator and the number.
    pub fn parts(&self) -> (char, i64) {
        match *self {
            Scale::Times(c) => ('*', c),
            Scale::Over(c) => ('/', c),
        }
    }
}

impl fmt::Display for Scale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (symbol, by) = self.parts();
        write!(f, "{symbol}{by}")
    }
}

/// A term with its sign, perhaps scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SignedTerm {
    pub negative: bool,
    pub term: Term,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<Scale>,
}

impl SignedTerm {
    /// The smallest and largest values the signed term can take.
    fn range(&self) -> (i64, i64) {
        let (lo, hi) = match self.term {
            Term::Constant(c) => (c, c),
            Term::Dice(p) => (p.min(), p.max()),
        };
        let (lo, hi) = match self.scale {
            Some(s) => (s.apply(lo), s.apply(hi)),
            None => (lo, hi),
        };
        if self.negative { (-hi, -lo) } else { (lo, hi) }
    }

    /// Smallest value the signed term can take.
    pub fn min(&self) -> i64 {
        self.range().0
    }

    /// Largest value the signed term can take.
    pub fn max(&self) -> i64 {
        self.range().1
    }

    /// The term's value before its sign, scaled.
    pub fn scaled(&self, value: i64) -> i64 {
        self.scale.map_or(value, |s| s.apply(value))
    }
}

/// `3d6-1d4+2`: terms added or subtracted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sum {
    pub terms: Vec<SignedTerm>,
}

impl Sum {
    /// Smallest possible total.
    pub fn min(&self) -> i64 {
        self.terms.iter().map(SignedTerm::min).sum()
    }

    /// Largest possible total.
    pub fn max(&self) -> i64 {
        self.terms.iter().map(SignedTerm::max).sum()
    }

    /// The dice pools of the sum, in order.
    pub fn pools(&self) -> impl Iterator<Item = &DicePool> {
        self.terms.iter().filter_map(|t| match &t.term {
            Term::Dice(p) => Some(p),
            Term::Constant(_) => None,
        })
    }
}

impl fmt::Display for Sum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `6d6 hits 4+ - 3d6 hits 5+` reads better spaced than `6d6 hits 4+-3d6 hits 5+`.
        let spaced = self.pools().any(|p| p.hits.is_some());
        for (i, t) in self.terms.iter().enumerate() {
            match (t.negative, i > 0, spaced) {
                (true, true, true) => write!(f, " - ")?,
                (true, _, _) => write!(f, "-")?,
                (false, true, true) => write!(f, " + ")?,
                (false, true, false) => write!(f, "+")?,
                (false, false, _) => {}
            }
            match t.term {
                Term::Dice(p) => write!(f, "{p}")?,
                Term::Constant(c) => write!(f, "{c}")?,
            }
            if let Some(scale) = t.scale {
                // After `hits 4+`, spaced: `6d6 hits 4+ * 2`.
                let (symbol, by) = scale.parts();
                if spaced { write!(f, " {symbol} {by}")? } else { write!(f, "{symbol}{by}")? }
            }
        }
        Ok(())
    }
}

/// A comparison that turns two totals into a chance: `2d6 >= 8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Comparison {
    #[serde(rename = ">=")]
    AtLeast,
    #[serde(rename = "<=")]
    AtMost,
    #[serde(rename = ">")]
    Above,
    #[serde(rename = "<")]
    Below,
    #[serde(rename = "=")]
    Equal,
    #[serde(rename = "!=")]
    NotEqual,
}

impl Comparison {
    /// Whether `left <op> right` holds.
    pub fn holds(&self, left: i64, right: i64) -> bool {
        match self {
            Comparison::AtLeast => left >= right,
            Comparison::AtMost => left <= right,
            Comparison::Above => left > right,
            Comparison::Below => left < right,
            Comparison::Equal => left == right,
            Comparison::NotEqual => left != right,
        }
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Comparison::AtLeast => ">=",
            Comparison::AtMost => "<=",
            Comparison::Above => ">",
            Comparison::Below => "<",
            Comparison::Equal => "=",
            Comparison::NotEqual => "!=",
        })
    }
}

/// A whole dice expression: a sum, perhaps compared with another sum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiceExpr {
    pub left: Sum,
    pub comparison: Option<(Comparison, Sum)>,
}

impl DiceExpr {
    /// Whether the expression asks a yes/no question (`2d6 >= 8`).
    pub fn is_chance(&self) -> bool {
        self.comparison.is_some()
    }

    /// Every dice pool of the expression, left to right.
    pub fn pools(&self) -> impl Iterator<Item = &DicePool> {
        self.left.pools().chain(self.comparison.iter().flat_map(|(_, s)| s.pools()))
    }

    /// Whether the comparison holds whatever the dice show (`Some(true)`), never does
    /// (`Some(false)`), or depends on them (`None`; also without a comparison).
    pub fn certain(&self) -> Option<bool> {
        let (op, right) = self.comparison.as_ref()?;
        let (lo, hi) = (self.left.min(), self.left.max());
        let (rlo, rhi) = (right.min(), right.max());
        // Ranges that do not overlap decide an ordering; `=` and `!=` are decided by
        // ranges apart, or by both sides fixed.
        match op {
            Comparison::AtLeast if lo >= rhi => Some(true),
            Comparison::AtLeast if hi < rlo => Some(false),
            Comparison::Above if lo > rhi => Some(true),
            Comparison::Above if hi <= rlo => Some(false),
            Comparison::AtMost if hi <= rlo => Some(true),
            Comparison::AtMost if lo > rhi => Some(false),
            Comparison::Below if hi < rlo => Some(true),
            Comparison::Below if lo >= rhi => Some(false),
            Comparison::Equal | Comparison::NotEqual if hi < rlo || lo > rhi => Some(*op == Comparison::NotEqual),
            Comparison::Equal | Comparison::NotEqual if lo == hi && rlo == rhi => Some(op.holds(lo, rlo)),
            _ => None,
        }
    }

    /// What to tell a player whose comparison cannot depend on the dice: `6d6 >= 4` compares the
    /// *total* with 4, where counting the dice that show 4 or more is written `6d6 hits 4+`.
    pub fn certainty_note(&self) -> Option<String> {
        let holds = self.certain()?;
        let (op, right) = self.comparison.as_ref()?;
        let verdict = if holds { "always holds" } else { "never holds" };
        let mut note = format!("`{self}` compares the total of `{}` with `{right}`: it {verdict}", self.left);
        let single_pool = match self.left.terms.as_slice() {
            [t] if !t.negative => match t.term {
                Term::Dice(p) if p.hits.is_none() => Some(p),
                _ => None,
            },
            _ => None,
        };
        let constant = match right.terms.as_slice() {
            [t] if !t.negative => match t.term {
                Term::Constant(c) => Some(c),
                Term::Dice(_) => None,
            },
            _ => None,
        };
        // The same pool, counting instead of adding (an exploding pool cannot count hits).
        if let (Some(pool), Some(at), Comparison::AtLeast) = (single_pool, constant, op)
            && pool.die.has_face(at)
            && pool.explode.is_none()
        {
            let counted = DicePool { hits: Some(at), ..pool };
            note += &format!("; to count the dice that show {at} or more, write `{counted}`");
        }
        Some(note)
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.left)?;
        if let Some((op, right)) = &self.comparison {
            write!(f, " {op} {right}")?;
        }
        Ok(())
    }
}
