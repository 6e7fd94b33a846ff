//! `DiceError`: everything that can go wrong reading, rolling or enumerating dice.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

/// An error from the dice layer. Parse errors carry the expression and the
/// span to underline; source errors say which die was wanted.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq, Eq)]
pub enum DiceError {
    /// The text is not dice notation.
    #[error("cannot read `{src}` as dice")]
    #[diagnostic(
        code(dice::syntax),
        help("dice are written like `d6`, `2d6+1`, `3d6-1d4+2`, `d%`, `4d6kh3`, `6d6 hits 4+`, `2d6 >= 8`")
    )]
    Syntax {
        #[source_code]
        src: String,
        #[label("{expected}")]
        span: SourceSpan,
        expected: String,
    },

    /// The notation is well formed but asks for something impossible (`d1`, `1d6kh7`).
    #[error("{reason}")]
    #[diagnostic(code(dice::invalid))]
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

    /// The expression is larger than the stated limits allow.
    #[error("{reason}")]
    #[diagnostic(code(dice::limit))]
    Limit {
        #[source_code]
        src: String,
        #[label("{label}")]
        span: SourceSpan,
        reason: String,
        label: String,
        #[help]
        help: Option<String>,
    },

    /// The exact distribution would take more work than allowed.
    #[error("exact odds of `{expr}` would take about {work} steps; the limit is {limit}")]
    #[diagnostic(code(dice::exact_limit), help("sample it instead, e.g. `grognard roll '{expr}' --times 10000`"))]
    ExactTooBig { expr: String, work: u64, limit: u64 },

    /// Supplied faces ran out before the dice did. `what` is what the die was for
    /// ("musketry", "B (defender)"), or empty.
    #[error("no face left for a {die}{}: all {used} supplied faces were used", purpose(.what))]
    #[diagnostic(code(dice::out_of_faces), help("supply one face for every die rolled, in the order they are rolled"))]
    OutOfFaces { die: String, used: usize, what: String },

    /// A supplied face cannot be shown by the die it was given for.
    #[error("face {face} cannot be rolled on a {die}{}", purpose(.what))]
    #[diagnostic(code(dice::bad_face), help("supplied face number {position} was {face}"))]
    BadFace { face: i64, die: String, position: usize, what: String },

    /// Supplied faces were left over when the rolls were done: a face too many, or one
    /// missed, and every roll after it may have taken the wrong face.
    #[error("{} of the {given} supplied faces {} not used: {}", .unused.len(), if .unused.len() == 1 { "was" } else { "were" }, faces(.unused))]
    #[diagnostic(
        code(dice::unused_faces),
        help(
            "supply exactly one face for every die rolled, in the order they are rolled; the trace shows which roll took each"
        )
    )]
    UnusedFaces { unused: Vec<i64>, given: usize },

    /// The player asked for a die gave none (Ctrl-C or end of input).
    #[error("no face was given for a {die}: the roll was cancelled")]
    #[diagnostic(
        code(dice::cancelled),
        help("the line that asked for it is taken back whole; type it again to roll again")
    )]
    Cancelled { die: String },

    /// A die re-rolled "until none" kept showing a face it re-rolls.
    #[error("a {die} was re-rolled {times} times and still shows a face `{reroll}` re-rolls")]
    #[diagnostic(
        code(dice::endless_reroll),
        help("supplied faces must end the re-rolls; a fair die ends them almost at once")
    )]
    EndlessReroll { die: String, reroll: String, times: u32 },

    /// Walking every outcome would visit more outcomes than allowed.
    #[error("more than {limit} dice outcomes to walk for an exact distribution")]
    #[diagnostic(
        code(dice::enumeration_limit),
        help("the computation rolls too many dice for exact odds; sample it instead")
    )]
    TooManyOutcomes { limit: u64 },

    /// A path of the enumeration rolled more dice than the depth limit: the
    /// enumerator counts that path's probability as residual.
    #[error("cut off after {depth} dice in one outcome")]
    #[diagnostic(code(dice::cut_off))]
    CutOff { depth: usize },

    /// The enumerator was asked for different dice on replaying the same faces:
    /// the computation is not a function of its dice.
    #[error("the computation asked for a {now} where it asked for a {before} with the same earlier faces")]
    #[diagnostic(
        code(dice::nondeterministic),
        help("exact odds need a computation whose every die depends only on the dice rolled before it")
    )]
    Nondeterministic { before: String, now: String },
}

/// ` for \`musketry\`` when a die's purpose is known, else nothing.
fn purpose(what: &str) -> String {
    if what.is_empty() { String::new() } else { format!(" for `{what}`") }
}

/// `6, 7`: faces as a player would write them.
fn faces(faces: &[i64]) -> String {
    faces.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}
