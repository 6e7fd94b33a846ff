//! `Vocabulary`: the words a ruleset allows for arms, types, grades, formations, orders and nations.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::error::UnitError;
use super::leader::Leader;
use super::marker_kind::MarkerKind;
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
    /// Each marker the ruleset uses, with the value it takes: `spent: flag`, `stunned_turns:
    /// count`, `stunned_with: word`, `fatigued: { words: [division, corps, army] }`,
    /// `battalion_guns: [flag, count]`. None listed: any marker, with any value.
    #[serde(default, rename = "markers", deserialize_with = "super::marker_kind::markers")]
    #[schemars(with = "BTreeMap<String, super::marker_kind::MarkerKindSchema>")]
    pub marker_kinds: BTreeMap<String, MarkerKind>,
    /// The names of `marker_kinds`, as a set of words for what reads markers as words (the
    /// static checks, a contract's `vocabulary: markers`); kept in step by `declare_markers`.
    #[serde(skip)]
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

    /// The same kind as a marker's, for the words of a value that is not one.
    fn as_marker_kind(self) -> MarkerKind {
        match self {
            FieldKind::Flag => MarkerKind::Flag,
            FieldKind::Count => MarkerKind::Count,
            FieldKind::Word => MarkerKind::Word(BTreeSet::new()),
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
        let mut errors = self.check_fields(unit);
        for (field, word, allowed) in fields {
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
        errors.extend(self.check_markers("unit", &unit.id, &unit.markers));
        errors
    }

    /// The markers of `leader` this vocabulary does not allow: a name it does not list, or a
    /// value not of the marker's kind. A leader's other fields are the kernel's, checked as read.
    pub fn check_leader(&self, leader: &Leader) -> Vec<UnitError> {
        self.check_markers("leader", &leader.id, &leader.markers)
    }

    /// Each marker of the unit or leader `id` (`kind` says which), against the markers listed.
    fn check_markers(&self, kind: &'static str, id: &str, markers: &BTreeMap<String, Marker>) -> Vec<UnitError> {
        let mut errors = Vec::new();
        for (name, value) in markers {
            match self.marker_fault(name, value) {
                None => {}
                Some(MarkerFault::Unknown(help)) => errors.push(UnitError::UnknownWord {
                    kind,
                    id: id.to_string(),
                    field: "marker",
                    word: name.clone(),
                    help: Some(help),
                }),
                Some(MarkerFault::Kind(why)) => {
                    errors.push(UnitError::MarkerKind { kind, id: id.to_string(), marker: name.clone(), why })
                }
            }
        }
        errors
    }
}

/// Why a marker's name or value cannot be a unit's or a leader's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarkerFault {
    /// A name the ruleset does not list; the help says what it may have meant.
    Unknown(String),
    /// A value not of the marker's kind: the whole sentence, with what it may have meant.
    Kind(String),
}

impl MarkerFault {
    /// The fault in one sentence, for a script's error.
    pub fn sentence(&self, name: &str) -> String {
        match self {
            MarkerFault::Unknown(help) => format!("`{name}` is not a marker of this ruleset ({help})"),
            MarkerFault::Kind(why) => why.clone(),
        }
    }
}

/// `removed` is grognard's own marker, a flag: the `removed: true` effect sets it.
const REMOVED: (&str, MarkerKind) = ("removed", MarkerKind::Flag);

impl Vocabulary {
    /// Declares markers with their kinds (a layer's `markers:`; an overlay's replace the base's
    /// of the same name).
    pub fn declare_markers(&mut self, kinds: BTreeMap<String, MarkerKind>) {
        self.markers.extend(kinds.keys().cloned());
        self.marker_kinds.extend(kinds);
    }

    /// The kind of the marker `name`: one the ruleset lists, or grognard's own `removed`.
    /// None for a name it does not list (and for every name when it lists none).
    pub fn marker_kind(&self, name: &str) -> Option<&MarkerKind> {
        static OWN: MarkerKind = REMOVED.1;
        match self.marker_kinds.get(name) {
            Some(kind) => Some(kind),
            None if name == REMOVED.0 => Some(&OWN),
            None => None,
        }
    }

    /// Why `value` cannot be the marker `name`'s, if it cannot: a name the ruleset does not
    /// list, or a value not of its kind. A ruleset that lists no markers takes any.
    pub fn marker_fault(&self, name: &str, value: &Marker) -> Option<MarkerFault> {
        if self.marker_kinds.is_empty() {
            return None;
        }
        match self.marker_kind(name) {
            Some(kind) => kind.fault(name, value).map(MarkerFault::Kind),
            None => Some(MarkerFault::Unknown(match Vocabulary::closest(&self.markers, name) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("known: {}", self.markers.iter().cloned().collect::<Vec<_>>().join(", ")),
            })),
        }
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
                    hint: spec
                        .kind
                        .as_marker_kind()
                        .meant(value)
                        .map(|m| format!(" (did you mean {m}?)"))
                        .unwrap_or_default(),
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
