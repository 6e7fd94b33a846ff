//! Reading dice notation (grammar/dice.pest) into a checked `DiceExpr`.

use miette::SourceSpan;
use pest::Parser;
use pest::iterators::Pair;

use super::ast::{
    Comparison, DEFAULT_EXPLODE_DEPTH, DiceExpr, DicePool, Die, Explode, FaceTest, Keep, MAX_EXPLODE_DEPTH, Reroll,
    Scale, SignedTerm, Sum, Term,
};
use super::conventions::{D66Reading, DiceConventions, DiceLimits};
use super::error::DiceError;
use crate::kernel::syntax_span::underline;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/dice.pest"]
struct DiceGrammar;

/// Parses a dice expression with the default conventions (d10 read 1-10) and limits.
///
/// # Example
/// ```
/// let expr = grognard::dice::parse("4d6kh3").unwrap();
/// assert_eq!(expr.to_string(), "4d6kh3");
/// ```
pub fn parse(input: &str) -> Result<DiceExpr, DiceError> {
    parse_with(input, &DiceConventions::default(), &DiceLimits::default())
}

/// Parses a dice expression under a ruleset's conventions and the given limits.
pub fn parse_with(input: &str, conventions: &DiceConventions, limits: &DiceLimits) -> Result<DiceExpr, DiceError> {
    if input.trim().is_empty() {
        return Err(DiceError::Invalid {
            src: input.to_string(),
            span: (0, input.len()).into(),
            reason: "no dice expression was given".to_string(),
            label: "empty".to_string(),
            help: Some("dice are written like `d6`, `2d6+1`, `4d6kh3`, `6d6 hits 4+`, `2d6 >= 8`".to_string()),
        });
    }
    let mut pairs = DiceGrammar::parse(Rule::expr, input).map_err(|e| syntax_error(input, e))?;
    let mut reader = Reader { input, conventions, limits, dice_so_far: 0 };
    let expr = pairs.next().expect("the grammar always yields one expr");
    let mut inner = expr.into_inner();
    let left = reader.sum(inner.next().expect("expr starts with a sum"))?;
    let comparison = match inner.next() {
        Some(op) if op.as_rule() == Rule::comparison => {
            let right = reader.sum(inner.next().expect("a comparison is followed by a sum"))?;
            Some((comparison(op.as_str()), right))
        }
        _ => None,
    };
    Ok(DiceExpr { left, comparison })
}

fn comparison(op: &str) -> Comparison {
    match op {
        ">=" => Comparison::AtLeast,
        "<=" => Comparison::AtMost,
        ">" => Comparison::Above,
        "<" => Comparison::Below,
        "!=" => Comparison::NotEqual,
        _ => Comparison::Equal,
    }
}

/// Walks the parse tree, checking each number against the conventions and limits.
struct Reader<'a> {
    input: &'a str,
    conventions: &'a DiceConventions,
    limits: &'a DiceLimits,
    dice_so_far: u64,
}

impl Reader<'_> {
    fn sum(&mut self, pair: Pair<'_, Rule>) -> Result<Sum, DiceError> {
        let mut terms = Vec::new();
        let mut negative = false;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::sign => negative = part.as_str() == "-",
                Rule::dice | Rule::named => {
                    terms.push(SignedTerm { negative, term: Term::Dice(self.pool(part)?), scale: None });
                    negative = false;
                }
                Rule::counted => {
                    let mut inner = part.into_inner();
                    let mut pool = self.pool(inner.next().expect("a counted pool starts with dice"))?;
                    let hits = inner.next().expect("a counted pool ends with hits");
                    let mut parts = hits.into_inner();
                    let at = parts.next().expect("hits has a threshold");
                    if pool.hits.is_some() {
                        return Err(self.invalid(&at, "the dice already count hits (`cs>=`)", "counted twice", None));
                    }
                    if pool.explode.is_some() {
                        let reason = "exploding dice cannot also be counted as hits: games read that differently";
                        return Err(self.invalid(&at, reason, "explodes", None));
                    }
                    let threshold = self.threshold(&at, at.as_str().trim_end_matches('+'), &pool)?;
                    pool.hits = Some(threshold);
                    if let Some(misses) = parts.next() {
                        if pool.reroll.is_some() {
                            let reason = "the dice already have a re-roll";
                            return Err(self.invalid(&misses, reason, "re-rolled twice", None));
                        }
                        let when = FaceTest { op: Comparison::Below, value: threshold };
                        if !(0..pool.die.sides).any(|i| when.takes(pool.die.face(i))) {
                            let reason = format!(
                                "every face of a {} hits on {threshold}+: there is no miss to re-roll",
                                pool.die
                            );
                            return Err(self.invalid(&misses, &reason, "nothing to re-roll", None));
                        }
                        pool.reroll = Some(Reroll { when, until_none: false });
                    }
                    terms.push(SignedTerm { negative, term: Term::Dice(pool), scale: None });
                    negative = false;
                }
                Rule::number => {
                    let value =
                        self.number(&part, u64::try_from(self.limits.max_constant).unwrap_or(0), |n, max| {
                            (format!("the constant {n} is too large"), format!("at most {max}"))
                        })?;
                    terms.push(SignedTerm { negative, term: Term::Constant(value as i64), scale: None });
                    negative = false;
                }
                Rule::scale => {
                    let mut inner = part.into_inner();
                    let op = inner.next().expect("a scale has an operator");
                    let by = inner.next().expect("a scale has a number");
                    let n = self.number(&by, u64::try_from(self.limits.max_constant).unwrap_or(0), |n, max| {
                        (format!("the factor {n} is too large"), format!("at most {max}"))
                    })? as i64;
                    if n == 0 {
                        let reason = if op.as_str() == "/" {
                            "division by 0"
                        } else {
                            "multiplying by 0 leaves nothing to roll"
                        };
                        return Err(self.invalid(&by, reason, "zero", None));
                    }
                    let scale = if op.as_str() == "*" { Scale::Times(n) } else { Scale::Over(n) };
                    terms.last_mut().expect("a scale follows a term").scale = Some(scale);
                }
                other => unreachable!("a sum holds signs and terms, not {other:?}"),
            }
        }
        Ok(Sum { terms })
    }

    fn pool(&mut self, pair: Pair<'_, Rule>) -> Result<DicePool, DiceError> {
        let pool_span = span_of(&pair);
        let mut count = 1u32;
        let mut die = None;
        let mut keep = None;
        let mut success = None;
        let mut reroll = None;
        let mut explode = None;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::count => {
                    let n = self.number(&part, u64::from(self.limits.max_dice), |n, max| {
                        (format!("too many dice: {n}"), format!("at most {max} dice"))
                    })?;
                    if n == 0 {
                        return Err(self.invalid(&part, "a pool needs at least one die", "zero dice", None));
                    }
                    count = n as u32;
                }
                Rule::sides => die = Some(self.die(&part)?),
                Rule::die_name => die = Some(self.named_die(&part, Some(count))?),
                Rule::reroll => reroll = Some(part),
                Rule::explode => explode = Some(part),
                Rule::keep => keep = Some(self.keep(part, count)?),
                Rule::success => success = Some(part.into_inner().next().expect("cs>= has a face")),
                other => unreachable!("a dice term holds no {other:?}"),
            }
        }
        self.dice_so_far += u64::from(count);
        if self.dice_so_far > u64::from(self.limits.max_dice) {
            return Err(DiceError::Limit {
                src: self.input.to_string(),
                span: pool_span,
                reason: format!("too many dice: {} in all", self.dice_so_far),
                label: format!("the expression reaches {} dice here", self.dice_so_far),
                help: Some(format!("at most {} dice in one expression", self.limits.max_dice)),
            });
        }
        let die = die.expect("a dice term always has sides");
        let reroll = match reroll {
            Some(part) => Some(self.reroll(part, &die)?),
            None => None,
        };
        let explode = match explode {
            Some(part) => {
                let at = part.clone();
                let explode = self.explode(part, &die)?;
                // Exploding dice count by their totals, one die at a time; kept, re-rolled or
                // counted as hits, what an explosion means differs from game to game.
                let clash = [
                    (keep.is_some(), "kept or dropped"),
                    (reroll.is_some(), "re-rolled"),
                    (success.is_some(), "counted as hits"),
                ];
                if let Some((_, what)) = clash.iter().find(|(on, _)| *on) {
                    let reason = format!("exploding dice cannot also be {what}: games read that differently");
                    return Err(self.invalid(
                        &at,
                        &reason,
                        "explodes",
                        Some("roll the explosion and the rest as two terms"),
                    ));
                }
                Some(explode)
            }
            None => None,
        };
        let mut pool = DicePool { count, die, keep, hits: None, reroll, explode };
        if let Some(at) = success {
            pool.hits = Some(self.threshold(&at, at.as_str(), &pool)?);
        }
        Ok(pool)
    }

    /// `!`, `!>=5`, `!3`: which faces of `die` explode, and how many times at most.
    fn explode(&self, pair: Pair<'_, Rule>, die: &Die) -> Result<Explode, DiceError> {
        let written = pair.as_str().to_string();
        let mut explode = Explode { when: Explode::highest(die), depth: DEFAULT_EXPLODE_DEPTH };
        let mut op = Comparison::AtLeast;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::explode_op => op = comparison(part.as_str()),
                Rule::explode_face => {
                    let value = self.number(&part, u64::from(self.limits.max_sides), |n, max| {
                        (format!("no die has a face {n}"), format!("at most {max}"))
                    })? as i64;
                    explode.when = FaceTest { op, value };
                    let taken = (0..die.sides).filter(|&i| explode.when.takes(die.face(i))).count() as u32;
                    if taken == 0 {
                        let reason = format!("`{written}` explodes on no face of a {}", die.describe());
                        return Err(self.invalid(&part, &reason, "no such face", None));
                    }
                    if taken == die.sides {
                        let reason = format!("`{written}` explodes on every face of a {}", die.describe());
                        return Err(self.invalid(&part, &reason, "every face", None));
                    }
                }
                Rule::explode_depth => {
                    explode.depth = self.number(&part, u64::from(MAX_EXPLODE_DEPTH), |n, max| {
                        (format!("a die may explode at most {max} times, not {n}"), format!("at most {max}"))
                    })? as u32;
                    if explode.depth == 0 {
                        return Err(self.invalid(&part, "`!0` would never explode", "at least 1", None));
                    }
                }
                other => unreachable!("an explosion holds no {other:?}"),
            }
        }
        Ok(explode)
    }

    /// `d{2,3,3,4,4,5}`: a die with those faces, one a side, each within the constants' limit.
    fn custom_die(&self, list: Pair<'_, Rule>) -> Result<Die, DiceError> {
        let mut faces = Vec::new();
        for face in list.clone().into_inner() {
            let max = self.limits.max_constant;
            match face.as_str().parse::<i64>() {
                Ok(v) if v.abs() <= max => faces.push(v),
                _ => {
                    return Err(self.invalid(&face, &format!("a face is at most {max} either way"), "too large", None));
                }
            }
        }
        if faces.len() < 2 {
            let help = "for a fixed number, write the number itself: `2d6+1`";
            return Err(self.invalid(&list, "a die needs at least 2 sides", "one side", Some(help)));
        }
        if faces.len() > self.limits.max_sides as usize {
            return Err(DiceError::Limit {
                src: self.input.to_string(),
                span: span_of(&list),
                reason: format!("too many faces: {}", faces.len()),
                label: format!("at most {} faces", self.limits.max_sides),
                help: None,
            });
        }
        Die::with_faces(&faces).ok_or_else(|| DiceError::Limit {
            src: self.input.to_string(),
            span: span_of(&list),
            reason: format!("more than {} different custom dice in one run", super::faces::MAX_CUSTOM_DICE),
            label: "one too many".to_string(),
            help: Some("a run keeps every different die it has read; use fewer different ones".to_string()),
        })
    }

    /// `r1`, `rr<3`...: which faces of `die` are rolled again; refused when none is, or
    /// when `rr` would take every face again (a roll that never ends).
    fn reroll(&self, pair: Pair<'_, Rule>, die: &Die) -> Result<Reroll, DiceError> {
        let written = pair.as_str().to_string();
        let mut op = Comparison::Equal;
        let mut until_none = false;
        let mut face_pair = None;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::reroll_kind => until_none = part.as_str().eq_ignore_ascii_case("rr"),
                Rule::reroll_op => op = comparison(part.as_str()),
                Rule::reroll_face => face_pair = Some(part),
                other => unreachable!("a re-roll holds no {other:?}"),
            }
        }
        let face_pair = face_pair.expect("a re-roll names a face");
        let value = self.number(&face_pair, u64::from(self.limits.max_sides), |n, max| {
            (format!("no die has a face {n}"), format!("at most {max}"))
        })? as i64;
        let when = FaceTest { op, value };
        let taken = (0..die.sides).filter(|&i| when.takes(die.face(i))).count() as u32;
        if taken == 0 {
            let reason = format!("`{written}` re-rolls no face of a {}", die.describe());
            return Err(self.invalid(&face_pair, &reason, "no such face", None));
        }
        if until_none && taken == die.sides {
            let reason = format!("`{written}` re-rolls every face of a {}: the roll would never end", die.describe());
            return Err(self.invalid(
                &face_pair,
                &reason,
                "every face",
                Some("`r` re-rolls once; `rr` until a face it does not take"),
            ));
        }
        Ok(Reroll { when, until_none })
    }

    /// The face a die of `pool` must show to hit, written `text` at `part`: one the die has.
    fn threshold(&self, part: &Pair<'_, Rule>, text: &str, pool: &DicePool) -> Result<i64, DiceError> {
        let die = pool.die;
        let at = match text.parse::<i64>() {
            Ok(at) if at <= die.max_face() => at,
            _ => {
                let reason = format!("no face of a {} shows {text} or more: no die could hit", die.describe());
                let help = format!("a {} hits on {}+ to {}+", die, die.min_face(), die.max_face());
                return Err(self.invalid(part, &reason, "past the highest face", Some(&help)));
            }
        };
        Ok(at)
    }

    /// `avg`: the die the ruleset names so; refused, with the nearest name, when it names none.
    /// `count`: how many were written before a bare name (`2avg`); none inside braces.
    fn named_die(&self, part: &Pair<'_, Rule>, count: Option<u32>) -> Result<Die, DiceError> {
        let name = part.as_str();
        if let Some(die) = self.conventions.named.get(name) {
            return Ok(*die);
        }
        let names = self.conventions.named.keys().map(String::as_str);
        // A bare name runs on over what follows it: `2avgkh1` reads as the name `avgkh1`.
        let glued = |rest: &str| {
            let rest = rest.to_ascii_lowercase();
            ["rr", "r", "kh", "kl", "dh", "dl", "k", "d", "cs"].iter().any(|m| {
                rest.strip_prefix(m).and_then(|after| after.chars().next()).is_some_and(|c| c.is_ascii_digit())
            })
        };
        let known = self.conventions.named.keys().find(|k| name.starts_with(k.as_str()) && glued(&name[k.len()..]));
        if let (Some(known), Some(count)) = (known, count) {
            let rest = &name[known.len()..];
            let count = if count > 1 { count.to_string() } else { String::new() };
            let reason = format!("no die is named `{name}`");
            let help = format!(
                "a named die takes a re-roll, keep or explosion after its name in braces: `{count}d{{{known}}}{rest}`"
            );
            return Err(self.invalid(part, &reason, "not a named die", Some(&help)));
        }
        // `2d`, `2dx`: dice whose faces are missing or mistyped, unless the rules name a die `d...`.
        let d_named = |n: &String| n.starts_with(['d', 'D']);
        if name.starts_with(['d', 'D']) && !self.conventions.named.keys().any(d_named) {
            let span = span_of(part);
            let (span, label) = match span.len() {
                1 => (span, "after this, expected a number of faces (or `%`, or faces such as `{2,3,3,4,4,5}`)"),
                n => ((span.offset() + 1, n - 1).into(), "not a number of faces"),
            };
            return Err(DiceError::Invalid {
                src: self.input.to_string(),
                span,
                reason: "a `d` is followed by its number of faces".to_string(),
                label: label.to_string(),
                help: Some("dice are written like `2d6`, `d%`, `d{2,3,3,4,4,5}`".to_string()),
            });
        }
        if self.conventions.named.is_empty() {
            let reason = format!("`{name}` is not dice notation, nor a die the rules in use name");
            let help = "dice are written like `2d6`, `d{2,3,3,4,4,5}`, `6d6 hits 4+`; a ruleset names its own \
                        dice in ruleset.yaml (`dice: { avg: [2,3,3,4,4,5] }`), used with `--rules`";
            return Err(self.invalid(part, &reason, "not dice", Some(help)));
        }
        let known: Vec<String> = self.conventions.named.keys().map(|k| format!("`{k}`")).collect();
        let reason = match crate::kernel::spelling::closest(name, names) {
            Some(close) => format!("no die is named `{name}` (did you mean `{close}`?)"),
            None => format!("no die is named `{name}`"),
        };
        let help = format!("the dice this ruleset names: {}", known.join(", "));
        Err(self.invalid(part, &reason, "not a named die", Some(&help)))
    }

    /// A d66, read as the conventions say: refused when they do not say.
    fn d66(&self, part: &Pair<'_, Rule>) -> Result<Die, DiceError> {
        match self.conventions.d66 {
            Some(D66Reading::TensAndUnits) => Ok(Die::d66()),
            Some(D66Reading::Sides) => Ok(Die::standard(66)),
            None => Err(self.invalid(
                part,
                "a d66 is read two ways: two d6 as tens and units (11-66), or one die of 66 faces",
                "which d66?",
                Some(
                    "a ruleset says which in ruleset.yaml: `dice: { d66: tens-and-units }` or \
                     `dice: { d66: \"1-66\" }` (on the command line, `--d66 tens-and-units`)",
                ),
            )),
        }
    }

    fn die(&self, part: &Pair<'_, Rule>) -> Result<Die, DiceError> {
        if part.as_str() == "%" {
            return Ok(Die { sides: 100, first: 1, percentile: true, faces: None, name: None });
        }
        if let Some(inner) = part.clone().into_inner().next() {
            match inner.as_rule() {
                Rule::face_list => return self.custom_die(inner),
                Rule::die_ref => {
                    return self.named_die(&inner.into_inner().next().expect("braces hold a name"), None);
                }
                _ => {}
            }
        }
        let sides = self.number(part, u64::from(self.limits.max_sides), |n, max| {
            (format!("too many faces: d{n}"), format!("at most {max} faces"))
        })?;
        if sides < 2 {
            return Err(self.invalid(
                part,
                &format!("a d{sides} is not a die"),
                "a die needs at least 2 faces",
                Some("for a fixed number, write the number itself: `2d6+1`"),
            ));
        }
        if sides == 66 {
            return self.d66(part);
        }
        let sides = sides as u32;
        Ok(Die { sides, first: self.conventions.first_face(sides), percentile: false, faces: None, name: None })
    }

    fn keep(&self, pair: Pair<'_, Rule>, count: u32) -> Result<Keep, DiceError> {
        let mut inner = pair.into_inner();
        let kind = inner.next().expect("keep has a kind");
        let n_pair = inner.next().expect("keep has a count");
        let written = kind.as_str().to_ascii_lowercase();
        let verb = if written.starts_with('k') { "keep" } else { "drop" };
        let n = self.number(&n_pair, u64::from(count), |n, _| {
            (format!("cannot {verb} {n} of {}", dice_word(count)), format!("only {} rolled", dice_word(count)))
        })? as u32;
        let keep = match written.as_str() {
            "kh" | "k" => Keep::Highest(n),
            "kl" => Keep::Lowest(n),
            "dh" => Keep::DropHighest(n),
            _ => Keep::DropLowest(n),
        };
        if keep.kept_of(count).0 == 0 {
            let reason = format!("`{}{n}` leaves none of {} to count", kind.as_str(), dice_word(count));
            return Err(self.invalid(&n_pair, &reason, "nothing would be kept", None));
        }
        Ok(keep)
    }

    /// Reads a decimal number no larger than `max`; `too_big(n, max)` words the refusal.
    fn number(
        &self,
        part: &Pair<'_, Rule>,
        max: u64,
        too_big: impl Fn(&str, u64) -> (String, String),
    ) -> Result<u64, DiceError> {
        let text = part.as_str();
        match text.parse::<u64>() {
            Ok(n) if n <= max => Ok(n),
            _ => {
                let (reason, label) = too_big(text, max);
                // Keep and drop counts are checked against the pool, not a global limit.
                let is_keep = part.as_rule() == Rule::keep_count;
                if is_keep {
                    Err(self.invalid(part, &reason, &label, None))
                } else {
                    Err(DiceError::Limit {
                        src: self.input.to_string(),
                        span: span_of(part),
                        reason,
                        label,
                        help: Some("grognard refuses expressions past its limits rather than hang".into()),
                    })
                }
            }
        }
    }

    fn invalid(&self, part: &Pair<'_, Rule>, reason: &str, label: &str, help: Option<&str>) -> DiceError {
        DiceError::Invalid {
            src: self.input.to_string(),
            span: span_of(part),
            reason: reason.to_string(),
            label: label.to_string(),
            help: help.map(str::to_string),
        }
    }
}

/// "1 die", "4 dice".
fn dice_word(n: u32) -> String {
    if n == 1 { "1 die".to_string() } else { format!("{n} dice") }
}

fn span_of(pair: &Pair<'_, Rule>) -> SourceSpan {
    let s = pair.as_span();
    (s.start(), s.end() - s.start()).into()
}

/// Turns pest's error into a diagnostic that underlines the offending character
/// and says, in words, what was expected there.
fn syntax_error(input: &str, mut err: pest::error::Error<Rule>) -> DiceError {
    // Several rules may start a term at the same place; each wording is said once.
    if let pest::error::ErrorVariant::ParsingError { positives, .. } = &mut err.variant {
        let mut said = std::collections::HashSet::new();
        positives.retain(|rule| said.insert(rule_words(*rule)));
    }
    let err = err.renamed_rules(|rule| rule_words(*rule).to_string());
    let expected = err.variant.message().to_string();
    let (span, expected) = underline(input, &err.location, expected, "the expression");
    DiceError::Syntax { src: input.to_string(), span, expected }
}

/// What a rule of the grammar is, in words, for "expected ...".
fn rule_words(rule: Rule) -> &'static str {
    match rule {
        Rule::expr | Rule::sum => "a dice expression",
        Rule::comparison => "a comparison (>=, <=, >, <, =, !=)",
        Rule::sign => "`+` or `-`",
        Rule::dice => "dice such as `2d6`",
        Rule::term => "dice or a number",
        Rule::count => "dice (such as `2d6`)",
        Rule::sides => "a number of faces (or `%`, or faces such as `{2,3,3,4,4,5}`)",
        // Where a term may start, "dice" covers a pool, a counted pool and a named die.
        Rule::named => "dice (such as `2d6`)",
        Rule::die_name => "the name of a die",
        Rule::die_ref => "a named die in braces, such as `{avg}`",
        Rule::number_of_sides => "a number of faces",
        Rule::face_list => "faces such as `{2,3,3,4,4,5}`",
        Rule::face => "a face (a whole number)",
        Rule::keep => "keep or drop such as `kh3`",
        Rule::keep_kind => "`kh`, `kl`, `dh` or `dl`",
        Rule::keep_count => "how many dice to keep or drop",
        Rule::counted => "dice (such as `2d6`)",
        Rule::hits => "`hits 4+`",
        Rule::threshold => "the face that hits, such as `4+`",
        Rule::success => "`cs>=4`",
        Rule::success_at => "the face that hits",
        Rule::misses => "`reroll misses`",
        Rule::explode => "`!`, `!>=5` or `!3`",
        Rule::explode_op => "`>=` or `>`",
        Rule::explode_face => "the face that explodes",
        Rule::explode_depth => "how many times a die may explode",
        Rule::scale => "`*` or `/` and a number",
        Rule::scale_op => "`*` or `/`",
        Rule::scale_by => "the number to multiply or divide by",
        Rule::reroll => "a re-roll such as `r1`",
        Rule::reroll_kind => "`r` or `rr`",
        Rule::reroll_op => "`<`, `<=`, `>` or `>=`",
        Rule::reroll_face => "the face to re-roll",
        Rule::number => "a number",
        Rule::EOI => "the end of the expression",
        Rule::WHITESPACE => "a space",
    }
}
