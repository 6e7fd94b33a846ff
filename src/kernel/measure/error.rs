//! `MeasureError`: everything that can go wrong reading a length or building a scale.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// An error from the measurement layer. Errors reading text carry the text and
/// the span to underline; errors building a scale or length from numbers say
/// which number was wrong.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum MeasureError {
    /// The text is not a length.
    #[error("cannot read `{src}` as a length")]
    #[diagnostic(
        code(measure::syntax),
        help(
            "lengths are written like `12\"`, `6in`, `1.5\"`, `1-1/2\"`, `3/4\"`, `30cm`, `15mm`, `90 yards` or `100 paces`; a bare number is inches"
        )
    )]
    Syntax {
        #[source_code]
        src: String,
        #[label("{expected}")]
        span: SourceSpan,
        expected: String,
    },

    /// The length is well formed but cannot be a distance on a table
    /// (`3/0"`, `-2"`, `12 furlongs`, yards without a ground scale, absurd sizes).
    #[error("{reason}")]
    #[diagnostic(code(measure::invalid))]
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

    /// A number given for a scale or a length (not read from text) is out of range.
    #[error("{what} must be {expected}, not {value}")]
    #[diagnostic(code(measure::out_of_range))]
    OutOfRange { what: &'static str, value: f64, expected: &'static str },
}
