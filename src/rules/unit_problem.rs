//! A unit's or leader's problem (`UnitError`) in a file of units, an order of battle or a saved
//! game, as a `Problem` underlining the word it is about.

use super::problem::{Problem, SourceFile};
use crate::unit::UnitError;

/// A problem of an order of battle (or a saved game's units), underlining the word or id it is
/// about.
pub fn locate_unit_error(source: &SourceFile, error: &UnitError) -> Problem {
    let (word, help) = match error {
        UnitError::UnknownWord { word, help, .. } => (word.clone(), help.clone()),
        UnitError::UnknownReference { target, .. } => (target.clone(), None),
        UnitError::UnknownFieldWord { word, help, .. } => (word.clone(), help.clone()),
        UnitError::UnknownField { field, help, .. } => (field.clone(), Some(help.clone())),
        UnitError::FieldKind { field, .. } => (field.clone(), None),
        UnitError::MarkerKind { marker, .. } => (marker.clone(), None),
        UnitError::DuplicateId { id, .. }
        | UnitError::CommandCycle { id, .. }
        | UnitError::Stands { id, .. }
        | UnitError::Missing { id, .. } => (id.clone(), None),
    };
    let code = match error {
        UnitError::UnknownWord { .. } => "scenario::unknown_word",
        UnitError::UnknownReference { .. } => "scenario::unknown_reference",
        UnitError::DuplicateId { .. } => "scenario::duplicate_id",
        UnitError::CommandCycle { .. } => "scenario::command_cycle",
        UnitError::Stands { .. } => "scenario::stands",
        UnitError::Missing { .. } => "scenario::missing_field",
        UnitError::UnknownField { .. } | UnitError::FieldKind { .. } | UnitError::UnknownFieldWord { .. } => {
            "scenario::unit_field"
        }
        UnitError::MarkerKind { .. } => "scenario::marker_kind",
    };
    let text = source.inner();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let whole = |word: &str| -> Vec<usize> {
        text.match_indices(word)
            .filter(|(at, _)| {
                !text[..*at].chars().next_back().is_some_and(is_word)
                    && !text[at + word.len()..].chars().next().is_some_and(is_word)
            })
            .map(|(at, _)| at)
            .collect()
    };
    let places = whole(&word);
    // A marker is found after the id of the unit or leader that carries it: another may carry
    // the same marker rightly.
    let owner = match error {
        UnitError::MarkerKind { id, .. } | UnitError::UnknownWord { id, field: "marker", .. } => {
            whole(id).first().copied()
        }
        _ => None,
    };
    // The last mention of a duplicate id is the one in the way; otherwise the first.
    let place = match owner {
        Some(from) => places.iter().find(|at| **at > from).or(places.first()),
        None if matches!(error, UnitError::DuplicateId { .. }) => places.last(),
        None => places.first(),
    }
    .map(|at| (*at, ()));
    let mut problem = match place {
        Some((at, _)) => Problem::error(code, error.to_string(), source, (at, word.len()).into()).with_label("here"),
        None => Problem::general(code, error.to_string()),
    };
    if let Some(help) = help {
        problem = problem.with_help(help);
    }
    problem
}
