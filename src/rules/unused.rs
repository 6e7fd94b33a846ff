//! `unused:` in ruleset.yaml: what a ruleset keeps on purpose although no procedure, modifier or
//! condition reads it (a marker only the player reads, an army list's property the seed prints
//! and the rules do not use), each with the reason.
//!
//! Why: `check` warns of what is written and never read (see `script::unread`), as a rule whose
//! idea sits in data nothing reads gives silently wrong answers. What is kept for a reason says
//! so here, where the next reader sees it.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_saphyr::Spanned;

use super::problem::{Origin, Problem, SourceFile};
use super::yaml::{Entries, span_of};

/// `unused:` as written: each kind of thing, by name, with why it is kept.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnusedDef {
    /// Markers no procedure or condition reads: `{ retreat: "the player moves the unit" }`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub markers: Entries<Spanned<String>, String>,
    /// Procedures nothing calls and no contract declares an entry point.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub procedures: Entries<Spanned<String>, String>,
    /// A table's properties (`TABLE.PROPERTY`) or its results' values no procedure reads.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub properties: Entries<Spanned<String>, String>,
    /// The ruleset's own unit fields (`unit_fields:`) no procedure reads.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, String>")]
    pub unit_fields: Entries<Spanned<String>, String>,
}

/// The kinds of thing `unused:` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum UnusedKind {
    Marker,
    Procedure,
    Property,
    UnitField,
}

impl UnusedKind {
    /// The key it is listed under in `unused:`.
    pub fn key(self) -> &'static str {
        match self {
            UnusedKind::Marker => "markers",
            UnusedKind::Procedure => "procedures",
            UnusedKind::Property => "properties",
            UnusedKind::UnitField => "unit_fields",
        }
    }
}

/// One thing kept unread, with why and where that is written.
#[derive(Clone, Debug)]
pub struct UnusedEntry {
    pub reason: String,
    pub written: Origin,
}

/// Everything the layers keep unread, by kind and name (an overlay's entry replaces the base's).
pub type Unused = BTreeMap<(UnusedKind, String), UnusedEntry>;

/// Adds a layer's `unused:` to `into`; an entry with no reason is refused.
pub(super) fn add(into: &mut Unused, def: UnusedDef, file: &SourceFile, problems: &mut Vec<Problem>) {
    let kinds = [
        (UnusedKind::Marker, def.markers),
        (UnusedKind::Procedure, def.procedures),
        (UnusedKind::Property, def.properties),
        (UnusedKind::UnitField, def.unit_fields),
    ];
    for (kind, entries) in kinds {
        for (name, reason) in entries.0 {
            let written = Origin { file: file.clone(), span: span_of(file, &name) };
            if reason.trim().is_empty() {
                problems.push(
                    Problem::error(
                        "rules::unused",
                        format!("`unused: {}: {}` gives no reason", kind.key(), name.value),
                        file,
                        written.span,
                    )
                    .with_label("no reason")
                    .with_help("say why it is kept although nothing reads it, in a sentence"),
                );
                continue;
            }
            into.insert((kind, name.value), UnusedEntry { reason: reason.trim().to_string(), written });
        }
    }
}
