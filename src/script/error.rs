//! `ScriptError`: a script that does not compile, fails at run time, or hits a sandbox limit; located where possible.

use miette::{Diagnostic, NamedSource, SourceSpan};
use rhai::{EvalAltResult, ParseError, Position};
use thiserror::Error;

use crate::dice::DiceError;
use crate::rules::{Problem, Problems, SourceFile};

/// An error from running rules or a script.
#[derive(Debug, Error, Diagnostic)]
pub enum ScriptError {
    /// A dice error inside a script (bad notation, supplied faces ran out...).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Dice(#[from] DiceError),
    /// A compile or runtime error, pointing into the file or expression where it happened.
    #[error(transparent)]
    #[diagnostic(transparent)]
    At(Box<Problem>),
    /// The rules themselves are broken.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Rules(#[from] Problems),
}

impl From<Problem> for ScriptError {
    fn from(problem: Problem) -> Self {
        ScriptError::At(Box::new(problem))
    }
}

/// The byte offset of Rhai's 1-based line and column in `text`.
pub fn offset_of(text: &str, position: Position) -> usize {
    let (Some(line), col) = (position.line(), position.position().unwrap_or(1)) else {
        return 0;
    };
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let within: usize = l.chars().take(col.saturating_sub(1)).map(char::len_utf8).sum();
            return offset + within;
        }
        offset += l.len();
    }
    text.len()
}

/// A span at `position` in `file`: the whole word there, or one character.
pub fn span_at(file: &SourceFile, position: Position) -> SourceSpan {
    let text = file.inner();
    let start = offset_of(text, position).min(text.len());
    let len = token_len(&text[start..]);
    // At the very end there is nothing to underline: underline the last character.
    if len == 0 && !text.trim_end().is_empty() {
        let last = text.trim_end().char_indices().next_back().map_or(0, |(i, _)| i);
        let width = text[last..].chars().next().map_or(0, char::len_utf8);
        return (last, width).into();
    }
    (start, len).into()
}

/// The length of the word (identifier or number) that `rest` starts with, or of its first character.
pub fn token_len(rest: &str) -> usize {
    // A string literal: up to its closing quote.
    if let Some(inner) = rest.strip_prefix('"')
        && let Some(end) = inner.find('"')
    {
        return end + 2;
    }
    let word: usize = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').map(char::len_utf8).sum();
    if word > 0 { word } else { rest.chars().next().map_or(0, |c| if c == '\n' { 0 } else { c.len_utf8() }) }
}

/// A compile error in `file` as a problem pointing at its place.
pub fn parse_problem(file: &SourceFile, err: &ParseError) -> Problem {
    Problem::error("script::compile", format!("cannot compile: {}", err.0), file, span_at(file, err.1))
        .with_label("here")
}

/// Rhai's message without the " (line 3, position 7)" it appends: the underline shows where.
pub fn message_of(err: &EvalAltResult) -> String {
    let text = err.to_string();
    let text = text.strip_prefix("Runtime error: ").map(str::to_string).unwrap_or(text);
    match text.rfind(" (line ") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text,
    }
}

/// A source name for an expression typed by the user.
pub fn expression_source(name: &str, code: &str) -> SourceFile {
    std::sync::Arc::new(NamedSource::new(name, code.to_string()).with_language("rhai"))
}

/// A runtime error for Rhai with `message`: what a binding refuses a call with.
pub(crate) fn fail<T>(message: impl Into<String>) -> Result<T, Box<EvalAltResult>> {
    Err(message.into().into())
}

/// The text that marks an error as the exact engine giving up (the caller then replays instead).
pub(crate) const UNSUPPORTED: &str = "grognard: the exact engine cannot walk this: ";

/// The exact engine gives up: the caller replays every face instead.
pub fn unsupported(why: String) -> Box<EvalAltResult> {
    EvalAltResult::ErrorRuntime(format!("{UNSUPPORTED}{why}").into(), Position::NONE).into()
}

/// Whether `err` is the exact engine giving up, and why.
pub fn unsupported_reason(err: &EvalAltResult) -> Option<String> {
    let mut inner = err;
    while let EvalAltResult::ErrorInFunctionCall(_, _, next, _) = inner {
        inner = next;
    }
    match inner {
        EvalAltResult::ErrorRuntime(value, _) => {
            value.read_lock::<rhai::ImmutableString>().and_then(|s| s.strip_prefix(UNSUPPORTED).map(str::to_string))
        }
        _ => None,
    }
}
