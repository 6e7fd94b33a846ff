//! `Vocabulary`: the words a ruleset allows for arms, types, grades, formations, orders and nations.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::error::UnitError;
use super::unit::{Marker, Unit};

/// Words a ruleset allows. An empty set means "any word": a ruleset that does
/// not list formations does not restrict them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Vocabulary {
    #[serde(default)]
    pub arms: BTreeSet<String>,
    #[serde(default)]
    pub types: BTreeSet<String>,
    #[serde(default)]
    pub grades: BTreeSet<String>,
    #[serde(default)]
    pub formations: BTreeSet<String>,
    #[serde(default)]
    pub orders: BTreeSet<String>,
    #[serde(default)]
    pub nations: BTreeSet<String>,
    #[serde(default)]
    pub markers: BTreeSet<String>,
    /// The fields of its own a ruleset gives units (`unit_fields:` in ruleset.yaml).
    #[serde(skip)]
    pub unit_fields: BTreeMap<String, FieldSpec>,
    /// The kernel fields a unit may leave out, and what it then has (`unit_defaults:`).
    #[serde(skip)]
    pub unit_defaults: UnitDefaults,
}

/// What kind of value a ruleset's own unit field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    Flag,
    Count,
    Word,
}

impl FieldKind {
    /// The kind as a ruleset writes it.
    pub fn name(self) -> &'static str {
        match self {
            FieldKind::Flag => "bool",
            FieldKind::Count => "int",
            FieldKind::Word => "word",
        }
    }

    fn holds(self, value: &Marker) -> bool {
        matches!(
            (self, value),
            (FieldKind::Flag, Marker::Flag(_))
                | (FieldKind::Count, Marker::Count(_))
                | (FieldKind::Word, Marker::Text(_))
        )
    }
}

/// Why a value cannot be a field's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldFault {
    /// A value of another type.
    Kind,
    /// A word not among the field's words.
    Word,
}

/// A field of its own a ruleset gives units: its kind, its value when a unit gives none, and
/// for a word, the words allowed (any, when empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldSpec {
    pub kind: FieldKind,
    pub default: Marker,
    pub words: BTreeSet<String>,
    /// What it is, and where it comes from, as the ruleset words them (for `show`).
    pub text: String,
    pub source: String,
}

impl FieldSpec {
    /// Why `value` cannot be this field's, if it cannot: the one check of a unit's value and of
    /// the ruleset's own default.
    pub fn fault(&self, value: &Marker) -> Option<FieldFault> {
        match value {
            _ if !self.kind.holds(value) => Some(FieldFault::Kind),
            Marker::Text(word) if !Vocabulary::allows(&self.words, word) => Some(FieldFault::Word),
            _ => None,
        }
    }
}

/// The kernel fields a ruleset lets a unit leave out, with the value it then has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitDefaults {
    pub stands: Option<u32>,
    pub arm: Option<String>,
    pub formation: Option<String>,
}

impl Vocabulary {
    /// The words of the field named as a ruleset writes it (`nations`, `arms`...).
    pub fn field(&self, name: &str) -> Option<&BTreeSet<String>> {
        Some(match name {
            "arms" => &self.arms,
            "types" => &self.types,
            "grades" => &self.grades,
            "formations" => &self.formations,
            "orders" => &self.orders,
            "nations" => &self.nations,
            "markers" => &self.markers,
            _ => return None,
        })
    }

    /// Whether `word` is allowed by `set` (every word is, when the set is empty).
    pub fn allows(set: &BTreeSet<String>, word: &str) -> bool {
        set.is_empty() || set.contains(word)
    }

    /// The allowed word closest to `word`, for a "did you mean" hint.
    pub fn closest<'a>(set: &'a BTreeSet<String>, word: &str) -> Option<&'a str> {
        crate::kernel::spelling::closest(word, set.iter().map(String::as_str))
    }
}

impl Vocabulary {
    /// The words of `unit` this vocabulary does not allow, each with a suggestion.
    pub fn check_unit(&self, unit: &Unit) -> Vec<UnitError> {
        let fields: [(&'static str, Option<&str>, &BTreeSet<String>); 6] = [
            ("arm", Some(&unit.arm), &self.arms),
            ("type", unit.kind.as_deref(), &self.types),
            ("grade", unit.grade.as_deref(), &self.grades),
            ("formation", Some(&unit.formation), &self.formations),
            ("order", Some(&unit.order), &self.orders),
            ("nation", Some(&unit.nation), &self.nations),
        ];
        let markers = unit.markers.keys().map(|m| ("marker", Some(m.as_str()), &self.markers));
        let mut errors = self.check_fields(unit);
        for (field, word, allowed) in fields.into_iter().chain(markers) {
            // A word left blank (a unit made at the REPL without a nation) is not a wrong word.
            let Some(word) = word.filter(|w| !w.is_empty()) else { continue };
            if !Vocabulary::allows(allowed, word) {
                let help = match Vocabulary::closest(allowed, word) {
                    Some(close) => Some(format!("did you mean `{close}`?")),
                    None => Some(format!("known: {}", allowed.iter().cloned().collect::<Vec<_>>().join(", "))),
                };
                errors.push(UnitError::UnknownWord {
                    kind: "unit",
                    id: unit.id.clone(),
                    field,
                    word: word.to_string(),
                    help,
                });
            }
        }
        errors
    }
}

impl Vocabulary {
    /// Fills in what `unit` leaves out: the kernel fields the ruleset gives defaults
    /// (`unit_defaults:`) and its own fields (`unit_fields:`); a required field left out is an error.
    pub fn complete(&self, unit: &mut Unit) -> Vec<UnitError> {
        let mut errors = Vec::new();
        let d = &self.unit_defaults;
        let mut missing = |field: &'static str, has_default: bool| {
            errors.push(UnitError::Missing { id: unit.id.clone(), field, has_default });
        };
        if unit.stands == Unit::UNSET_STANDS {
            match d.stands {
                Some(stands) => unit.stands = stands,
                None => missing("stands", false),
            }
        }
        for (field, value, default) in
            [("arm", &mut unit.arm, &d.arm), ("formation", &mut unit.formation, &d.formation)]
        {
            if value.is_empty() {
                match default {
                    Some(word) => value.clone_from(word),
                    None => missing(field, false),
                }
            }
        }
        for (name, spec) in &self.unit_fields {
            if !unit.fields.contains_key(name) {
                unit.fields.insert(name.clone(), spec.default.clone());
            }
        }
        errors
    }

    /// A unit's own fields against those the ruleset declares: each named, of its kind, and a
    /// word among the field's words.
    fn check_fields(&self, unit: &Unit) -> Vec<UnitError> {
        let mut errors = Vec::new();
        for (name, value) in &unit.fields {
            let Some(spec) = self.unit_fields.get(name) else {
                let known: BTreeSet<String> = self.unit_fields.keys().cloned().collect();
                let help = match Vocabulary::closest(&known, name) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None if known.is_empty() => {
                        "this ruleset declares no fields of its own (`unit_fields:`)".to_string()
                    }
                    None => format!("its fields: {}", known.into_iter().collect::<Vec<_>>().join(", ")),
                };
                errors.push(UnitError::UnknownField { id: unit.id.clone(), field: name.clone(), help });
                continue;
            };
            let fault = spec.fault(value);
            if fault == Some(FieldFault::Kind) {
                errors.push(UnitError::FieldKind {
                    id: unit.id.clone(),
                    field: name.clone(),
                    kind: spec.kind.name(),
                    value: match value {
                        Marker::Text(t) => format!("the word `{t}`"),
                        other => other.to_string(),
                    },
                });
                continue;
            }
            if let (Some(FieldFault::Word), Marker::Text(word)) = (fault, value) {
                let help = match Vocabulary::closest(&spec.words, word) {
                    Some(close) => Some(format!("did you mean `{close}`?")),
                    None => Some(format!("known: {}", spec.words.iter().cloned().collect::<Vec<_>>().join(", "))),
                };
                errors.push(UnitError::UnknownFieldWord {
                    id: unit.id.clone(),
                    field: name.clone(),
                    word: word.clone(),
                    help,
                });
            }
        }
        errors
    }
}
