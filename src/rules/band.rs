//! Die bands as tables print them (`0-10`, `11+`, `2 or less`, `3,4`): reading them (grammar/band.pest) and checking a row for gaps and overlaps.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use miette::{Diagnostic, SourceSpan};
use pest::Parser;
use pest::error::InputLocation;
use pest::iterators::Pair;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use thiserror::Error;

use crate::kernel::syntax_span::{expected, underline};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/band.pest"]
struct BandGrammar;

/// The largest number, either side of zero, a band may print. Die rolls, even
/// heavily modified, stay far inside it; keeping well clear of `i64::MIN` and
/// `i64::MAX` leaves those free to stand for open ends.
pub const MAX_MAGNITUDE: i64 = 1_000_000_000;

/// What a band is written like, for help texts.
const EXAMPLES: &str = "bands are written like `5`, `4-6`, `-1 to -3`, `11+`, `7 or more`, \
                        `2 or less`, `over 5`, `under 3`, or a list such as `3,4` or `2, 5-6`";

/// An inclusive set of integers, the union of closed intervals; open ends are
/// `i64::MIN` / `i64::MAX`.
///
/// Two bands are equal when they hold the same numbers, however they were
/// written: `3,4`, `3-4` and `4,3` are one band. Serialized as [`Band::text`];
/// deserialized from a string, or from an integer (YAML `5:`).
///
/// # Example
/// ```
/// use grognard::rules::band::Band;
/// let band = Band::parse("-1 to -3").unwrap();
/// assert_eq!(band.intervals(), &[(-3, -1)]);
/// assert!(band.contains(-2));
/// assert_eq!(band.to_string(), "-3 to -1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Band {
    /// Sorted, non-empty, and merged: neither overlapping nor touching.
    intervals: Vec<(i64, i64)>,
    /// The band as tables print it, made once: every table reading names its band.
    printed: Arc<str>,
}

impl Band {
    /// Reads one band as a table prints it. Never panics.
    pub fn parse(text: &str) -> Result<Band, BandError> {
        let reader = Reader { text };
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(reader.invalid(
                (0, text.len()).into(),
                "no band was given",
                "empty",
                Some(format!("{EXAMPLES}; a cell with no band is left empty (`~` in YAML)")),
            ));
        }
        // Tables print these in cells where no roll applies; the caller
        // handles such cells, so here they are a mistake to name.
        if matches!(trimmed, "-" | "–" | "—" | "~") {
            let start = text.len() - text.trim_start().len();
            return Err(reader.invalid(
                (start, trimmed.len()).into(),
                &format!("`{trimmed}` marks a cell with no band; it is not a band itself"),
                "no band",
                Some(format!("leave a cell with no band empty (`~` in YAML); {EXAMPLES}")),
            ));
        }
        let mut pairs = BandGrammar::parse(Rule::band, text).map_err(|e| syntax_error(text, e))?;
        let band = pairs.next().expect("the grammar always yields one band");
        let mut intervals = Vec::new();
        for item in band.into_inner() {
            if let Some(interval) = reader.item(item)? {
                intervals.push(interval);
            }
        }
        Ok(Band::from_intervals(intervals))
    }

    /// Sorts and merges closed intervals (each with start <= end).
    fn from_intervals(mut intervals: Vec<(i64, i64)>) -> Band {
        intervals.sort_unstable();
        let mut merged: Vec<(i64, i64)> = Vec::with_capacity(intervals.len());
        for (start, end) in intervals {
            match merged.last_mut() {
                // Touching runs merge too, so that `3,4` and `3-4` are one band.
                Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        let printed = merged.iter().map(|&run| run_text(run)).collect::<Vec<_>>().join(",").into();
        Band { intervals: merged, printed }
    }

    /// Whether `value` is in the band.
    pub fn contains(&self, value: i64) -> bool {
        self.intervals.iter().any(|&(start, end)| start <= value && value <= end)
    }

    /// The lowest value in the band; `None` when the band is open below (`2 or less`).
    pub fn min(&self) -> Option<i64> {
        self.intervals.first().map(|&(start, _)| start).filter(|&start| start != i64::MIN)
    }

    /// The highest value in the band; `None` when the band is open above (`11+`).
    pub fn max(&self) -> Option<i64> {
        self.intervals.last().map(|&(_, end)| end).filter(|&end| end != i64::MAX)
    }

    /// The band's runs of values: sorted, inclusive, neither overlapping nor touching.
    pub fn intervals(&self) -> &[(i64, i64)] {
        &self.intervals
    }

    /// Whether some value is in both bands.
    pub fn intersects(&self, other: &Band) -> bool {
        first_shared(&self.intervals, &other.intervals).is_some()
    }

    /// The values of this band that are not in `other`; `None` when there are none.
    pub fn without(&self, other: &Band) -> Option<Band> {
        let mut left: Vec<(i64, i64)> = Vec::new();
        for &(start, end) in &self.intervals {
            // Where the run goes on from, past the cuts so far; `None` once a cut reaches its end.
            let mut from = Some(start);
            for &(cut_start, cut_end) in &other.intervals {
                let Some(at) = from else { break };
                if cut_end < at || cut_start > end {
                    continue;
                }
                if cut_start > at {
                    left.push((at, cut_start - 1));
                }
                from = (cut_end < end).then(|| cut_end + 1);
            }
            if let Some(at) = from {
                left.push((at, end));
            }
        }
        (!left.is_empty()).then(|| Band::from_intervals(left))
    }

    /// The band in the notation tables print, one way for each set of values:
    /// `5`, `3,4` (two values), `0-10`, `-3 to -1` (a range with a negative
    /// end, where `-3--1` would be hard to read), `11+`, `2 or less`, and
    /// lists of these joined by commas. Reading the text back gives the same band.
    pub fn text(&self) -> String {
        self.printed.to_string()
    }

    /// The same text, shared rather than copied.
    pub fn printed(&self) -> Arc<str> {
        self.printed.clone()
    }
}

/// One run of values in seed-style notation.
fn run_text((start, end): (i64, i64)) -> String {
    match (start, end) {
        // Every number: no single notation says it, so split it at zero.
        (i64::MIN, i64::MAX) => "0 or less,1+".to_string(),
        (i64::MIN, end) => format!("{end} or less"),
        (start, i64::MAX) => format!("{start}+"),
        (start, end) if start == end => format!("{start}"),
        (start, end) if end - start == 1 => format!("{start},{end}"),
        (start, end) if start < 0 => format!("{start} to {end}"),
        (start, end) => format!("{start}-{end}"),
    }
}

/// The first run of values two sorted lists of intervals share.
fn first_shared(a: &[(i64, i64)], b: &[(i64, i64)]) -> Option<(i64, i64)> {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let start = a[i].0.max(b[j].0);
        let end = a[i].1.min(b[j].1);
        if start <= end {
            return Some((start, end));
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    None
}

impl fmt::Display for Band {
    /// The same as [`Band::text`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.printed)
    }
}

impl FromStr for Band {
    type Err = BandError;

    fn from_str(text: &str) -> Result<Self, BandError> {
        Band::parse(text)
    }
}

impl Serialize for Band {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text())
    }
}

impl<'de> Deserialize<'de> for Band {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(BandVisitor)
    }
}

/// Reads a band from a string, or from an integer where YAML reads `5` as a number.
struct BandVisitor;

impl Visitor<'_> for BandVisitor {
    type Value = Band;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a die band such as `5`, `4-6`, `11+`, `2 or less` or `3,4`")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Band, E> {
        Band::parse(text).map_err(|e| E::custom(e.one_line()))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Band, E> {
        self.visit_str(&value.to_string())
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Band, E> {
        self.visit_str(&value.to_string())
    }
}

/// An error reading a band: the text with the mistake's span to underline.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq, Eq)]
pub enum BandError {
    /// The text is not band notation.
    #[error("cannot read `{src}` as a die band")]
    #[diagnostic(
        code(band::syntax),
        help(
            "bands are written like `5`, `4-6`, `-1 to -3`, `11+`, `7 or more`, `2 or less`, `over 5`, `under 3`, or a list such as `3,4` or `2, 5-6`"
        )
    )]
    Syntax {
        #[source_code]
        src: String,
        #[label("{expected}")]
        span: SourceSpan,
        expected: String,
    },

    /// The notation is well formed but not a band: a number out of range, an
    /// empty item in a list (`3,,4`), an empty cell or a `-` or `~` placeholder.
    #[error("{reason}")]
    #[diagnostic(code(band::invalid))]
    Invalid {
        #[source_code]
        src: String,
        #[label("{label}")]
        span: SourceSpan,
        reason: String,
        label: String,
        #[help]
        help: Option<String>,
    },
}

impl BandError {
    /// The error on one line with the text it was reading, for messages that
    /// cannot underline (serde's).
    fn one_line(&self) -> String {
        match self {
            BandError::Syntax { src, expected, .. } => match expected.strip_prefix("after this, ") {
                Some(rest) => format!("cannot read `{src}` as a die band: at the end, {rest}"),
                None => format!("cannot read `{src}` as a die band: {expected}"),
            },
            BandError::Invalid { src, reason, .. } => {
                format!("cannot read `{src}` as a die band: {reason}")
            }
        }
    }
}

/// Walks the parse tree of one band, checking each number as it goes.
struct Reader<'a> {
    text: &'a str,
}

impl Reader<'_> {
    /// The run of values one item of the list stands for; `None` for separators.
    fn item(&self, pair: Pair<'_, Rule>) -> Result<Option<(i64, i64)>, BandError> {
        let rule = pair.as_rule();
        let numbers = pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::int)
            .map(|p| self.number(&p))
            .collect::<Result<Vec<i64>, BandError>>()?;
        let run = match (rule, numbers.as_slice()) {
            (Rule::single, &[n]) => (n, n),
            // `-1 to -3` is the same band as `-3 to -1`.
            (Rule::range, &[a, b]) => (a.min(b), a.max(b)),
            (Rule::at_least, &[n]) => (n, i64::MAX),
            (Rule::at_most, &[n]) => (i64::MIN, n),
            // No overflow: numbers are at most MAX_MAGNITUDE either side of zero.
            (Rule::above, &[n]) => (n + 1, i64::MAX),
            (Rule::beneath, &[n]) => (i64::MIN, n - 1),
            (Rule::comma | Rule::or | Rule::EOI, _) => return Ok(None),
            (other, _) => unreachable!("a band holds no {other:?} with {numbers:?}"),
        };
        Ok(Some(run))
    }

    /// Reads a signed whole number no further from zero than [`MAX_MAGNITUDE`].
    fn number(&self, pair: &Pair<'_, Rule>) -> Result<i64, BandError> {
        let written = pair.as_str();
        let digits = written.trim_start_matches(['+', '-', '–', '−']);
        let negative = digits.len() < written.len() && !written.starts_with('+');
        match digits.parse::<i64>() {
            Ok(n) if n <= MAX_MAGNITUDE => Ok(if negative { -n } else { n }),
            _ => Err(self.invalid(
                span_of(pair),
                &format!("the number `{written}` is out of range"),
                if negative { "less than -1000000000" } else { "more than 1000000000" },
                Some(format!(
                    "the numbers in a band run from -{MAX_MAGNITUDE} to {MAX_MAGNITUDE}; \
                     a die roll, even modified, stays far inside that"
                )),
            )),
        }
    }

    fn invalid(&self, span: SourceSpan, reason: &str, label: &str, help: Option<String>) -> BandError {
        BandError::Invalid {
            src: self.text.to_string(),
            span,
            reason: reason.to_string(),
            label: label.to_string(),
            help,
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
        Rule::band
        | Rule::item
        | Rule::above
        | Rule::beneath
        | Rule::range
        | Rule::at_least
        | Rule::at_most
        | Rule::single => "a band such as `4-6`, `11+` or `2 or less`",
        Rule::separator | Rule::comma => "a comma",
        Rule::dash => "`-`",
        Rule::to => "`to`",
        Rule::plus => "`+`",
        Rule::or => "`or`",
        Rule::and => "`and`",
        Rule::more => "`more`/`higher`",
        Rule::less => "`less`/`lower`",
        Rule::up => "`up`/`over`",
        Rule::down | Rule::under => "`under`/`below`",
        Rule::over => "`over`",
        Rule::int | Rule::sign => "a number",
        Rule::digits => "a digit",
        Rule::WHITESPACE => "a space",
        Rule::EOI => "the end of the band",
    }
}

/// Turns pest's error into a diagnostic that underlines the offending character
/// and says, in words, what was expected there.
fn syntax_error(input: &str, err: pest::error::Error<Rule>) -> BandError {
    let at = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if let Some(empty) = empty_item(input, at) {
        return empty;
    }
    // Several rules share one description (`under` and `below` after `and`
    // or before a number), so the list is built here, each description once,
    // in the grammar's order but with the end of the band last.
    let expected = expected(&err.variant, describe, |rule| rule == Rule::EOI, "a band");
    let (span, expected) = underline(input, &err.location, expected, "the band");
    BandError::Syntax { src: input.to_string(), span, expected }
}

/// The grammar fails where a list item should start; when that place is a
/// comma or the end, right after a comma or at the very start, the mistake
/// is an empty item, and is said so rather than as "expected a number".
fn empty_item(input: &str, at: usize) -> Option<BandError> {
    let before = input.get(..at)?.trim_end();
    let rest = input.get(at..)?;
    let next_comma = rest.trim_start().starts_with(',').then(|| at + rest.len() - rest.trim_start().len());
    let (span, label): (SourceSpan, &str) = match (before.strip_suffix(','), next_comma) {
        (Some(head), Some(comma)) => ((head.len(), comma + 1 - head.len()).into(), "nothing between these commas"),
        (Some(head), None) if rest.trim().is_empty() => ((head.len(), 1).into(), "nothing after this comma"),
        (None, Some(comma)) if before.is_empty() => ((comma, 1).into(), "nothing before this comma"),
        _ => return None,
    };
    Some(BandError::Invalid {
        src: input.to_string(),
        span,
        reason: "a list of bands has an empty item".to_string(),
        label: label.to_string(),
        help: Some(
            "put one band between each pair of commas, like `3,4` or `2, 5-6`; \
             a cell with no band is left empty (`~` in YAML)"
                .to_string(),
        ),
    })
}

/// What [`check_bands`] found in one row or column of a table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BandCheck {
    /// Maximal runs of values no band covers, between the lowest band's start
    /// and the highest band's end (an open end stops at the edge of the reach).
    pub gaps: Vec<(i64, i64)>,
    /// Pairs of bands `(i, j)`, `i < j`, with a run of values both hold, in
    /// order. Every value two bands hold is in at least one of these runs,
    /// but not every overlapping pair is named: of three bands holding the
    /// same values, the first is paired with each of the others (so n runs
    /// give fewer than n overlaps, not n²). A pair may come once per run it shares.
    pub overlaps: Vec<(usize, usize, i64, i64)>,
    /// Bands no roll in the reach can land in.
    pub unreachable: Vec<usize>,
}

impl BandCheck {
    /// No gaps, no overlaps, every band reachable.
    pub fn is_clean(&self) -> bool {
        self.gaps.is_empty() && self.overlaps.is_empty() && self.unreachable.is_empty()
    }
}

/// Checks one table row or column of bands for coverage.
///
/// `bands[i]` are the printed bands in order (None = an empty cell, skipped);
/// `reach` is the inclusive range of values a roll can produce (e.g. 1..=10
/// for an unmodified d10, or a wider range when modifiers apply).
///
/// - gaps: maximal runs of values inside [lowest band start, highest band
///   end] (clipped to `reach` where the table is open-ended) covered by no band;
/// - overlaps: pairs of bands (i, j) that share values, with a run they share,
///   so that every value held twice is in one (see [`BandCheck::overlaps`]);
/// - unreachable: bands with no value inside `reach`.
///
/// # Example
/// ```
/// use grognard::rules::band::{Band, check_bands};
/// let row: Vec<Band> = ["0-5", "7+"].iter().map(|t| t.parse().unwrap()).collect();
/// let cells: Vec<Option<&Band>> = row.iter().map(Some).collect();
/// assert_eq!(check_bands(&cells, (-6, 16)).gaps, vec![(6, 6)]);
/// ```
pub fn check_bands(bands: &[Option<&Band>], reach: (i64, i64)) -> BandCheck {
    let present: Vec<(usize, &Band)> = bands.iter().enumerate().filter_map(|(i, band)| band.map(|b| (i, b))).collect();
    let mut check = BandCheck::default();

    let lowest = present.iter().filter_map(|(_, b)| b.intervals.first()).map(|r| r.0).min();
    let highest = present.iter().filter_map(|(_, b)| b.intervals.last()).map(|r| r.1).max();
    if let (Some(lowest), Some(highest)) = (lowest, highest) {
        let low = if lowest == i64::MIN { reach.0 } else { lowest };
        let high = if highest == i64::MAX { reach.1 } else { highest };
        let covered = Band::from_intervals(present.iter().flat_map(|(_, b)| b.intervals.iter().copied()).collect());
        check.gaps = uncovered(&covered.intervals, low, high);
    }

    check.overlaps = overlaps(&present);

    let reachable = if reach.0 <= reach.1 { vec![reach] } else { Vec::new() };
    check.unreachable =
        present.iter().filter(|(_, b)| first_shared(&b.intervals, &reachable).is_none()).map(|&(i, _)| i).collect();
    check
}

/// The overlaps among `present`, found in O(n log n) for n runs: the runs of
/// every band sorted by start, each compared with the run reaching furthest
/// among those before it. A value v held by runs A and B (A sorted first) is
/// found when B is met: the furthest-reaching run before it, R, reaches at
/// least as far as A, so past v; R is not of B's band, since a band's runs
/// are disjoint and R starts no later than B; so R and B share v.
fn overlaps(present: &[(usize, &Band)]) -> Vec<(usize, usize, i64, i64)> {
    let mut runs: Vec<(i64, usize, i64)> =
        present.iter().flat_map(|&(i, b)| b.intervals.iter().map(move |&(start, end)| (start, i, end))).collect();
    runs.sort_unstable();
    let mut found = Vec::new();
    // The band and end of the run reaching furthest so far.
    let mut furthest: Option<(usize, i64)> = None;
    for (start, band, end) in runs {
        if let Some((other, reach)) = furthest {
            if start <= reach && other != band {
                found.push((other.min(band), other.max(band), start, end.min(reach)));
            }
            if end > reach {
                furthest = Some((band, end));
            }
        } else {
            furthest = Some((band, end));
        }
    }
    // A pair met more than once keeps each run: naming it once would leave the other values unsaid.
    found.sort_unstable();
    found
}

/// The maximal runs of `low..=high` outside the sorted, merged `covered` runs.
fn uncovered(covered: &[(i64, i64)], low: i64, high: i64) -> Vec<(i64, i64)> {
    // i128, so that stepping past i64::MAX cannot overflow.
    let (high, mut next) = (i128::from(high), i128::from(low));
    let mut gaps = Vec::new();
    for &(start, end) in covered {
        let (start, end) = (i128::from(start), i128::from(end));
        if next > high || start > high {
            break;
        }
        if start > next {
            gaps.push((next as i64, (start - 1) as i64));
        }
        next = next.max(end + 1);
    }
    if next <= high {
        gaps.push((next as i64, high as i64));
    }
    gaps
}

/// The index of the first band containing `value`; empty cells (None) are skipped.
pub fn find(bands: &[Option<&Band>], value: i64) -> Option<usize> {
    bands.iter().position(|band| band.is_some_and(|b| b.contains(value)))
}

#[cfg(test)]
#[path = "band_tests.rs"]
mod tests;
