//! What an optional rule brings into play (`brings:` under an option in `ruleset.yaml`):
//! unit words and markers that mean something only under that rule. A unit or leader
//! carrying one while the option is off is refused naming the switch, where it would
//! otherwise be read as if the word were not there (an elite battery firing as trained).

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_saphyr::Spanned;

use super::problem::{Origin, Problem, SourceFile, did_you_mean};
use super::yaml::span_of;
use crate::unit::{Leader, Marker, Unit, Vocabulary};

/// The unit fields an option may bring words for.
pub const FIELDS: [&str; 5] = ["grade", "type", "formation", "order", "marker"];

/// One kind of input an option brings, as written.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BroughtDef {
    /// The unit field: grade, type, formation, order, marker (a unit's or a leader's), or
    /// a field of the ruleset's own (`unit_fields:`).
    #[schemars(with = "String")]
    pub field: Spanned<String>,
    /// Its words (for `marker`: the marker names) that mean something only under the option;
    /// for a field of the ruleset's own, none: any value set (true, not 0) is the option's.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub words: Vec<Spanned<String>>,
    /// Only for units of these arms (absent: every arm).
    #[serde(default)]
    pub arms: Vec<String>,
    /// Only when given to these procedures, the ones whose reading the option changes
    /// (absent: any contracted procedure). An elite battery rallies as elite in the base
    /// game; only its fire waits for the option.
    #[serde(default, rename = "in")]
    #[schemars(with = "Vec<String>")]
    pub procedures: Vec<Spanned<String>>,
    /// How the words are read while the option is off, when they are: then they are not
    /// refused ("lancers are light cavalry without rule 505").
    #[serde(default)]
    pub without: Option<String>,
}

/// A checked `brings:` entry.
#[derive(Clone, Debug)]
pub struct Brought {
    pub field: String,
    pub words: BTreeSet<String>,
    pub arms: BTreeSet<String>,
    /// The procedures it is refused in (empty: all), each with where it is written, for
    /// the check that they exist once the contracts are loaded.
    pub procedures: Vec<(String, Origin)>,
    /// How the words read while the option is off; `Some`: they are not refused.
    pub without: Option<String>,
}

impl Brought {
    /// Whether a value of this entry given to `procedure` is refused while the option is off.
    pub fn refused_in(&self, procedure: &str) -> bool {
        self.without.is_none() && (self.procedures.is_empty() || self.procedures.iter().any(|(p, _)| p == procedure))
    }

    /// What of this entry `unit` carries, as an error names it: `grade "elite"`.
    pub fn in_unit(&self, unit: &Unit) -> Option<String> {
        if !self.arms.is_empty() && !self.arms.contains(&unit.arm) {
            return None;
        }
        let word = match self.field.as_str() {
            "grade" => unit.grade.as_deref(),
            "type" => unit.kind.as_deref(),
            "formation" => Some(unit.formation.as_str()),
            "order" => Some(unit.order.as_str()),
            "marker" => return self.marker_in(&unit.markers),
            own => {
                let value = unit.fields.get(own).filter(|v| v.is_set())?;
                let word = value.to_string();
                return (self.words.is_empty() || self.words.contains(&word)).then(|| format!("{own}: {value}"));
            }
        };
        word.filter(|w| self.words.contains(*w)).map(|w| format!("{} \"{w}\"", self.field))
    }

    /// What of this entry `leader` carries: only a marker, since a leader has no arm or grade.
    pub fn in_leader(&self, leader: &Leader) -> Option<String> {
        if self.field != "marker" || !self.arms.is_empty() {
            return None;
        }
        self.marker_in(&leader.markers)
    }

    fn marker_in(&self, markers: &std::collections::BTreeMap<String, Marker>) -> Option<String> {
        self.words.iter().find(|m| markers.get(*m).is_some_and(Marker::is_set)).map(|m| format!("marker \"{m}\""))
    }
}

/// The field's words in the vocabulary (`grade` → grades); none for a field it does not list.
fn vocabulary_words<'a>(vocabulary: &'a Vocabulary, field: &str) -> Option<&'a BTreeSet<String>> {
    vocabulary.field(match field {
        "grade" => "grades",
        "type" => "types",
        "formation" => "formations",
        "order" => "orders",
        "marker" => "markers",
        _ => return None,
    })
}

/// `brings:` of option `option` checked against the fields and the vocabulary.
pub(super) fn build(
    file: &SourceFile,
    option: &str,
    defs: Vec<BroughtDef>,
    vocabulary: &Vocabulary,
    problems: &mut Vec<Problem>,
) -> Vec<Brought> {
    let mut out = Vec::new();
    for def in defs {
        let own = vocabulary.unit_fields.contains_key(&def.field.value);
        if !own && !FIELDS.contains(&def.field.value.as_str()) {
            let fields = FIELDS.into_iter().chain(vocabulary.unit_fields.keys().map(String::as_str));
            let hint = did_you_mean(&def.field.value, fields);
            problems.push(
                Problem::error(
                    "rules::option_brings",
                    format!("option `{option}` brings a field `{}`, which units do not have{hint}", def.field.value),
                    file,
                    span_of(file, &def.field),
                )
                .with_label("not a field")
                .with_help(format!("fields: {}", FIELDS.join(", "))),
            );
            continue;
        }
        if !own && def.words.is_empty() {
            problems.push(
                Problem::error(
                    "rules::option_brings",
                    format!("option `{option}` brings {} without naming its words", def.field.value),
                    file,
                    span_of(file, &def.field),
                )
                .with_label("give `words: [...]`"),
            );
        }
        let known = vocabulary_words(vocabulary, &def.field.value);
        for word in &def.words {
            if let Some(known) = known
                && !Vocabulary::allows(known, &word.value)
            {
                let hint = did_you_mean(&word.value, known.iter().map(String::as_str));
                problems.push(
                    Problem::error(
                        "rules::option_brings",
                        format!(
                            "option `{option}` brings {} \"{}\", which the vocabulary does not list{hint}",
                            def.field.value, word.value
                        ),
                        file,
                        span_of(file, word),
                    )
                    .with_label("not in the vocabulary"),
                );
            }
        }
        for arm in def.arms.iter().filter(|a| !Vocabulary::allows(&vocabulary.arms, a)) {
            let hint = did_you_mean(arm, vocabulary.arms.iter().map(String::as_str));
            problems.push(
                Problem::error(
                    "rules::option_brings",
                    format!(
                        "option `{option}` brings words for arm \"{arm}\", which the vocabulary does not list{hint}"
                    ),
                    file,
                    span_of(file, &def.field),
                )
                .with_label("in this entry"),
            );
        }
        out.push(Brought {
            field: def.field.value,
            words: def.words.into_iter().map(|w| w.value).collect(),
            arms: def.arms.into_iter().collect(),
            procedures: def
                .procedures
                .into_iter()
                .map(|p| {
                    let origin = Origin { file: file.clone(), span: span_of(file, &p) };
                    (p.value, origin)
                })
                .collect(),
            without: def.without.map(|w| w.trim().to_string()),
        });
    }
    out
}
