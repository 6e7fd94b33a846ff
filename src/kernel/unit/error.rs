//! `UnitError`: an order of battle that does not hold together, naming the item and field at fault.

use miette::Diagnostic;
use thiserror::Error;

/// A problem found when checking an order of battle. Each names the item
/// (unit, leader, command) and what is wrong with it.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq, Eq)]
pub enum UnitError {
    #[error("two {kind}s share the id `{id}`")]
    #[diagnostic(code(unit::duplicate_id), help("every unit, leader and command needs its own id"))]
    DuplicateId { kind: &'static str, id: String },

    #[error("{kind} `{id}` names {field} `{target}`, which does not exist")]
    #[diagnostic(code(unit::unknown_reference))]
    UnknownReference { kind: &'static str, id: String, field: &'static str, target: String },

    #[error("command `{id}` is its own superior through {chain}")]
    #[diagnostic(code(unit::command_cycle), help("each command's `parent` must lead up to an army"))]
    CommandCycle { id: String, chain: String },

    #[error("{kind} `{id}` has {field} `{word}`, which this ruleset does not know")]
    #[diagnostic(code(unit::unknown_word))]
    UnknownWord {
        kind: &'static str,
        id: String,
        field: &'static str,
        word: String,
        #[help]
        help: Option<String>,
    },

    #[error("unit `{id}` has {stands} stands but started with {at_start}")]
    #[diagnostic(code(unit::stands), help("`stands` is what is left now; it cannot exceed `stands_at_start`"))]
    Stands { id: String, stands: u32, at_start: u32 },

    #[error("unit `{id}` gives no `{field}`{}", if *has_default { "" } else { ", and this ruleset gives no default" })]
    #[diagnostic(
        code(unit::missing),
        help("give it, or give a default in ruleset.yaml: `unit_defaults: {{ stands: 4 }}`")
    )]
    Missing { id: String, field: &'static str, has_default: bool },

    #[error("unit `{id}` has a field `{field}` that this ruleset does not declare")]
    #[diagnostic(code(unit::unknown_field))]
    UnknownField {
        id: String,
        field: String,
        #[help]
        help: String,
    },

    #[error("unit `{id}` gives `{field}` as {value}, but it is a field of type {kind}{hint}")]
    #[diagnostic(
        code(unit::field_type),
        help("bool fields take true or false, int fields a whole number, word fields a word")
    )]
    FieldKind {
        id: String,
        field: String,
        kind: &'static str,
        value: String,
        /// " (did you mean false?)", or nothing.
        hint: String,
    },

    #[error("{kind} `{id}`: {why}")]
    #[diagnostic(
        code(unit::marker_kind),
        help(
            "each marker takes the kind `vocabulary: markers:` gives it in ruleset.yaml (`grognard show` lists them)"
        )
    )]
    MarkerKind {
        kind: &'static str,
        id: String,
        marker: String,
        /// "`spent` is a flag, true or false, not the text "no" (did you mean false?)".
        why: String,
    },

    #[error("unit `{id}` has {field} `{word}`, which this ruleset does not know")]
    #[diagnostic(code(unit::unknown_word))]
    UnknownFieldWord {
        id: String,
        field: String,
        word: String,
        #[help]
        help: Option<String>,
    },
}
