//! Where a pest error points, as a span a diagnostic can underline (shared by every grammar).

use miette::SourceSpan;
use pest::error::InputLocation;

/// The character to underline for a syntax error at `location` in `input`, and
/// the `expected` text adjusted to it. At the very end of the input there is no
/// character to underline, so the last one is, "after this"; an empty input
/// (`what` names it: "the expression") is said to be empty.
pub(crate) fn underline(input: &str, location: &InputLocation, expected: String, what: &str) -> (SourceSpan, String) {
    let start = match *location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    match input.get(start..).and_then(|rest| rest.chars().next()) {
        Some(c) => ((start, c.len_utf8()).into(), expected),
        None => match input.char_indices().next_back() {
            Some((last, c)) => ((last, c.len_utf8()).into(), format!("after this, {expected}")),
            None => ((0, 0).into(), format!("{expected}; {what} is empty")),
        },
    }
}
