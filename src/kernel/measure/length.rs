//! `Length` and reading lengths as rules write them (grammar/length.pest).

use std::fmt;
use std::str::FromStr;

use miette::SourceSpan;
use pest::Parser;
use pest::iterators::Pair;
use serde::{Deserialize, Serialize};

use super::error::MeasureError;
use super::geometry::EPS;
use super::scale::Scale;
use crate::kernel::syntax_span::{expected, underline};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/length.pest"]
struct LengthGrammar;

/// The longest length [`parse_length`] accepts, in inches (about 2.5 km of
/// table): anything longer is a slip of the keyboard, not a distance.
pub const MAX_INCHES: f64 = 100_000.0;

/// Centimetres in an inch, exactly.
const CM_PER_INCH: f64 = 2.54;

/// A distance on the table, in inches: finite and never negative.
///
/// Serialized as a plain number of inches.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Length(f64);

impl Length {
    /// No distance at all.
    pub const ZERO: Length = Length(0.0);

    /// A length of `inches`; `None` unless it is finite and at least 0.
    pub fn from_inches(inches: f64) -> Option<Length> {
        (inches.is_finite() && inches >= 0.0).then_some(Length(inches))
    }

    /// The length in inches.
    pub fn inches(self) -> f64 {
        self.0
    }
}

impl TryFrom<f64> for Length {
    type Error = MeasureError;

    fn try_from(inches: f64) -> Result<Self, MeasureError> {
        Length::from_inches(inches).ok_or(MeasureError::OutOfRange {
            what: "a length",
            value: inches,
            expected: "a finite number of inches, 0 or more",
        })
    }
}

impl From<Length> for f64 {
    fn from(length: Length) -> f64 {
        length.0
    }
}

impl fmt::Display for Length {
    /// Inches with a fraction when the length is a whole number of sixteenths
    /// (`12"`, `3/4"`, `1-1/2"`), otherwise to two decimals (`11.81"`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sixteenths = (self.0 * 16.0).round();
        // Past 2^50 sixteenths every f64 is "exact"; decimals are as good there.
        if (self.0 - sixteenths / 16.0).abs() > EPS || sixteenths > 2f64.powi(50) {
            return write!(f, "{:.2}\"", self.0);
        }
        let sixteenths = sixteenths as u64;
        let (whole, rest) = (sixteenths / 16, sixteenths % 16);
        if rest == 0 {
            return write!(f, "{whole}\"");
        }
        // Reduce rest/16: the denominator is a power of two.
        let shift = rest.trailing_zeros();
        let (num, den) = (rest >> shift, 16 >> shift);
        if whole == 0 { write!(f, "{num}/{den}\"") } else { write!(f, "{whole}-{num}/{den}\"") }
    }
}

impl FromStr for Length {
    type Err = MeasureError;

    /// Reads a table length (no ground scale: yards and paces are refused).
    fn from_str(text: &str) -> Result<Self, MeasureError> {
        parse_length(text, &Scale::table_only())
    }
}

/// What a length is written in.
#[derive(Clone, Copy)]
enum Unit {
    Inches,
    Centimetres,
    Millimetres,
    Yards,
    Paces,
}

/// Reads a length as a ruleset writes it: inches by default (`12`, `12"`,
/// `6in`, `6 inches`, `1.5"`, `1-1/2"`, `1 1/2"`, `3/4"`), metric (`30cm`,
/// `15mm`), or ground distance through the scale's ground scale (`90 yards`,
/// `90yd`, `100 paces`).
///
/// The result is a rule length; [`Scale::on_table`] applies the figure factor.
/// Negative lengths, zero denominators, unknown units, ground units without a
/// ground scale and lengths over [`MAX_INCHES`] are refused with the mistake
/// underlined. Never panics.
///
/// # Example
/// ```
/// use grognard::measure::{Scale, parse_length};
/// let length = parse_length("1-1/2\"", &Scale::table_only()).unwrap();
/// assert_eq!(length.inches(), 1.5);
/// assert_eq!(length.to_string(), "1-1/2\"");
/// ```
pub fn parse_length(text: &str, scale: &Scale) -> Result<Length, MeasureError> {
    let reader = Reader { text, scale };
    if text.trim().is_empty() {
        return Err(reader.invalid(
            (0, text.len()).into(),
            "no length was given",
            "empty",
            Some("lengths are written like `12\"`, `1-1/2\"`, `30cm` or `90 yards`"),
        ));
    }
    let mut pairs = LengthGrammar::parse(Rule::length, text).map_err(|e| syntax_error(text, e))?;
    let length = pairs.next().expect("the grammar always yields one length");
    let quantity = length.into_inner().find(|p| p.as_rule() == Rule::quantity).expect("a length holds a quantity");
    reader.quantity(quantity)
}

/// Walks the parse tree of one length, checking each number as it goes.
struct Reader<'a> {
    text: &'a str,
    scale: &'a Scale,
}

impl Reader<'_> {
    fn quantity(&self, pair: Pair<'_, Rule>) -> Result<Length, MeasureError> {
        let quantity_span = span_of(&pair);
        let quantity_text = pair.as_str();
        let mut minus_at = None;
        let mut amount = 0.0;
        let mut unit = (Unit::Inches, quantity_span);
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::minus => minus_at = Some(part.as_span().start()),
                Rule::mixed | Rule::fraction | Rule::decimal => {
                    if let Some(start) = minus_at {
                        let end = part.as_span().end();
                        return Err(self.invalid(
                            (start, end - start).into(),
                            "a length cannot be negative",
                            "below zero",
                            Some(&format!(
                                "a distance is 0 or more: write `{}\"`, not `-{}\"`",
                                part.as_str(),
                                part.as_str()
                            )),
                        ));
                    }
                    amount = self.amount(part)?;
                }
                Rule::inches => unit = (Unit::Inches, span_of(&part)),
                Rule::centimetres => unit = (Unit::Centimetres, span_of(&part)),
                Rule::millimetres => unit = (Unit::Millimetres, span_of(&part)),
                Rule::yards => unit = (Unit::Yards, span_of(&part)),
                Rule::paces => unit = (Unit::Paces, span_of(&part)),
                Rule::unknown_unit => {
                    return Err(self.invalid(
                        span_of(&part),
                        &format!("`{}` is not a unit of length grognard knows", part.as_str()),
                        "unknown unit",
                        Some(
                            "use inches (`12\"`, `6in`), centimetres (`30cm`), millimetres \
                             (`15mm`), yards (`90 yards`) or paces (`100 paces`)",
                        ),
                    ));
                }
                other => unreachable!("a quantity holds no {other:?}"),
            }
        }
        let inches = self.to_inches(amount, unit)?;
        if inches.is_nan() || inches > MAX_INCHES {
            return Err(self.invalid(
                quantity_span,
                &format!("`{quantity_text}` is longer than any table"),
                &format!("more than {MAX_INCHES}\""),
                Some("lengths stop at 100000 inches; check for a slip of the keyboard"),
            ));
        }
        Ok(Length(inches))
    }

    /// Converts an amount in `unit` to rule inches.
    fn to_inches(&self, amount: f64, (unit, span): (Unit, SourceSpan)) -> Result<f64, MeasureError> {
        Ok(match unit {
            Unit::Inches => amount,
            Unit::Centimetres => amount / CM_PER_INCH,
            // Through centimetres, so that 15mm is exactly 1.5cm.
            Unit::Millimetres => amount / 10.0 / CM_PER_INCH,
            Unit::Yards => amount / self.yards_per_inch(span, "yards")?,
            Unit::Paces => {
                let yards_per_inch = self.yards_per_inch(span, "paces")?;
                amount * self.scale.yards_per_pace() / yards_per_inch
            }
        })
    }

    fn yards_per_inch(&self, span: SourceSpan, unit: &str) -> Result<f64, MeasureError> {
        self.scale.yards_per_inch().ok_or_else(|| {
            self.invalid(
                span,
                &format!("{unit} need a ground scale, and this one has none"),
                "ground distance",
                Some(
                    "give the distance on the table (`3\"`), or declare how many yards \
                     one inch stands for",
                ),
            )
        })
    }

    fn amount(&self, pair: Pair<'_, Rule>) -> Result<f64, MeasureError> {
        match pair.as_rule() {
            Rule::decimal => self.number(&pair),
            Rule::fraction => self.fraction(pair),
            _ => {
                let mut inner = pair.into_inner();
                let whole = self.number(&inner.next().expect("a mixed number has a whole part"))?;
                let fraction = inner.next().expect("a mixed number has a fraction");
                let fraction_span = span_of(&fraction);
                let part = self.fraction(fraction)?;
                if part >= 1.0 {
                    return Err(self.invalid(
                        fraction_span,
                        "the fraction of a mixed number must be less than 1",
                        "1 or more",
                        Some("write the whole inches, then a fraction below 1: `1-1/2\"`"),
                    ));
                }
                Ok(whole + part)
            }
        }
    }

    fn fraction(&self, pair: Pair<'_, Rule>) -> Result<f64, MeasureError> {
        let mut inner = pair.into_inner();
        let numerator = self.number(&inner.next().expect("a fraction has a numerator"))?;
        let denominator_pair = inner.next().expect("a fraction has a denominator");
        let denominator = self.number(&denominator_pair)?;
        if denominator == 0.0 {
            return Err(self.invalid(
                span_of(&denominator_pair),
                "a fraction cannot have a denominator of 0",
                "zero denominator",
                Some("fractions of an inch are written like `3/4\"` or `1-1/2\"`"),
            ));
        }
        Ok(numerator / denominator)
    }

    /// Reads digits (perhaps with a decimal point); refuses numbers too long for an `f64`.
    fn number(&self, pair: &Pair<'_, Rule>) -> Result<f64, MeasureError> {
        match pair.as_str().parse::<f64>() {
            Ok(n) if n.is_finite() => Ok(n),
            _ => Err(self.invalid(
                span_of(pair),
                "this number has too many digits",
                "too long",
                Some("lengths stop at 100000 inches"),
            )),
        }
    }

    fn invalid(&self, span: SourceSpan, reason: &str, label: &str, help: Option<&str>) -> MeasureError {
        MeasureError::Invalid {
            src: self.text.to_string(),
            span,
            reason: reason.to_string(),
            label: label.to_string(),
            help: help.map(str::to_string),
        }
    }
}

fn span_of(pair: &Pair<'_, Rule>) -> SourceSpan {
    let s = pair.as_span();
    (s.start(), s.end() - s.start()).into()
}

/// What a grammar rule is called in an error message.
fn describe(rule: Rule) -> &'static str {
    match rule {
        Rule::length | Rule::quantity => "a length such as `12\"`",
        Rule::minus => "`-`",
        Rule::mixed => "a mixed number such as `1-1/2`",
        Rule::fraction => "a fraction such as `3/4`",
        Rule::amount | Rule::whole | Rule::numerator | Rule::decimal => "a number",
        Rule::denominator => "the number below the line, as the 4 in `3/4`",
        Rule::unit
        | Rule::inches
        | Rule::centimetres
        | Rule::millimetres
        | Rule::yards
        | Rule::paces
        | Rule::unknown_unit => "a unit such as `\"`, `cm` or `yards`",
        Rule::space => "a space",
        Rule::EOI => "the end of the length",
    }
}

/// Turns pest's error into a diagnostic that underlines the offending character
/// and says, in words, what was expected there.
fn syntax_error(input: &str, err: pest::error::Error<Rule>) -> MeasureError {
    // Several rules share one description (every unit is "a unit"), so the
    // list is built here, each description once, rather than by `renamed_rules`.
    let expected = expected(&err.variant, describe, |rule| rule == Rule::EOI, "a length");
    let (span, expected) = underline(input, &err.location, expected, "the length");
    MeasureError::Syntax { src: input.to_string(), span, expected }
}
