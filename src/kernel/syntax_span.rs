//! What a pest error expected, in words, and where it points, as a span a diagnostic can underline (shared by every grammar).

use miette::SourceSpan;
use pest::RuleType;
use pest::error::{ErrorVariant, InputLocation};

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

/// What a parse error expected, in words: each rule's description once (many
/// rules may share one, as every unit is "a unit"), the end of input last.
/// `what` names the thing being read: "this is not part of {what}".
pub(crate) fn expected<R: RuleType>(
    variant: &ErrorVariant<R>,
    describe: impl Fn(R) -> &'static str,
    is_end: impl Fn(R) -> bool,
    what: &str,
) -> String {
    let names = |rules: &[R]| {
        let mut rules = rules.to_vec();
        rules.sort_by_key(|&rule| is_end(rule));
        let mut names: Vec<&str> = Vec::new();
        for rule in rules {
            if !names.contains(&describe(rule)) {
                names.push(describe(rule));
            }
        }
        either(&names)
    };
    match variant {
        ErrorVariant::ParsingError { positives, .. } if !positives.is_empty() => {
            format!("expected {}", names(positives))
        }
        ErrorVariant::ParsingError { negatives, .. } if !negatives.is_empty() => {
            format!("unexpected {}", names(negatives))
        }
        ErrorVariant::ParsingError { .. } => format!("this is not part of {what}"),
        ErrorVariant::CustomError { message } => message.clone(),
    }
}

/// "a", "a or b", "a, b or c".
fn either(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
