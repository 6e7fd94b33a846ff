//! `Vocabulary`: the words a ruleset allows for arms, types, grades, formations, orders and nations.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::error::UnitError;
use super::unit::Unit;

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
        let mut errors = Vec::new();
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
