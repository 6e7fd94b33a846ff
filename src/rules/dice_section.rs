//! `dice:` in ruleset.yaml: how a d10 and a d66 are read, and the dice a ruleset names (`avg: [2,3,3,4,4,5]`).

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use super::problem::{Problem, SourceFile};
use super::yaml::{Entries, span_of};
use crate::dice::{D10Reading, D66Reading, DiceConventions, DiceLimits, Die, die_name_problem};

/// The section as written: `{ d10: "1-10", d66: tens-and-units, avg: [2,3,3,4,4,5] }`.
/// Any key but `d10` and `d66` names a die; its value is the die's faces, one a side.
#[derive(Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct DiceSection(pub Entries<Spanned<String>, Spanned<DiceEntry>>);

/// One value of the section: a reading (`"1-10"`) or a die's faces (`[2,3,3,4,4,5]`).
#[derive(Debug, Clone)]
pub enum DiceEntry {
    Reading(String),
    Faces(Vec<i64>),
}

impl<'de> Deserialize<'de> for DiceEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntryVisitor;

        impl<'de> Visitor<'de> for EntryVisitor {
            type Value = DiceEntry;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a reading such as \"1-10\", or a named die's faces such as [2, 3, 3, 4, 4, 5]")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<DiceEntry, E> {
                Ok(DiceEntry::Reading(v.to_string()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<DiceEntry, A::Error> {
                let mut faces = Vec::new();
                while let Some(face) = seq.next_element::<i64>()? {
                    faces.push(face);
                }
                Ok(DiceEntry::Faces(faces))
            }
        }

        deserializer.deserialize_any(EntryVisitor)
    }
}

/// How dice are read (`d10`, `d66`); any other key names a die and lists its faces, one a side.
// The section's shape for `grognard schema` only: it is read as `DiceSection`.
#[derive(schemars::JsonSchema)]
#[schemars(rename = "Dice")]
#[allow(dead_code)]
pub struct DiceSchema {
    /// How a d10 is numbered: "1-10" (a printed 0 is a 10) or "0-9".
    d10: Option<D10Reading>,
    /// How `d66` is read: "tens-and-units" (two d6, 11-66) or "1-66"; unsaid, `d66` is refused.
    d66: Option<D66Reading>,
    /// Dice the ruleset names, each with its faces, one a side: `avg: [2, 3, 3, 4, 4, 5]`.
    #[schemars(flatten)]
    named: BTreeMap<String, Vec<i64>>,
}

/// The keys that are readings, not names.
const READINGS: [&str; 2] = ["d10", "d66"];

impl DiceSection {
    /// Whether the section says how a d10 is read.
    pub fn states_d10(&self) -> bool {
        self.0.iter().any(|(key, _)| key.value == "d10")
    }

    /// Applies the section over `dice` (a base's conventions, for an overlay): readings
    /// replace, named dice are added or replace the base's die of that name. Each
    /// mistake is a problem pointing at its key or value.
    pub fn apply(&self, dice: &mut DiceConventions, file: &SourceFile, problems: &mut Vec<Problem>) {
        let limits = DiceLimits::default();
        for (key, value) in self.0.iter() {
            let name = key.value.as_str();
            let at_key = span_of(file, key);
            let at_value = span_of(file, value);
            match (name, &value.value) {
                ("d10", DiceEntry::Reading(text)) => match text.parse::<D10Reading>() {
                    Ok(reading) => dice.d10 = reading,
                    Err(err) => problems.push(
                        Problem::error("rules::dice_reading", err, file, at_value).with_label("not a d10 reading"),
                    ),
                },
                ("d66", DiceEntry::Reading(text)) => match text.parse::<D66Reading>() {
                    Ok(reading) => dice.d66 = Some(reading),
                    Err(err) => problems.push(
                        Problem::error("rules::dice_reading", err, file, at_value).with_label("not a d66 reading"),
                    ),
                },
                (_, DiceEntry::Faces(_)) if READINGS.contains(&name) => problems.push(
                    Problem::error(
                        "rules::dice_reading",
                        format!("`{name}` is read a way, not given faces"),
                        file,
                        at_value,
                    )
                    .with_label("a list of faces")
                    .with_help(match name {
                        "d10" => "write `d10: \"1-10\"` or `d10: \"0-9\"`",
                        _ => "write `d66: tens-and-units` or `d66: \"1-66\"`",
                    }),
                ),
                (_, DiceEntry::Reading(_)) => {
                    let hint = crate::rules::did_you_mean(name, READINGS.into_iter());
                    problems.push(
                        Problem::error(
                            "rules::unknown_key",
                            format!("`{name}` is not a reading of `dice:`{hint}"),
                            file,
                            at_key,
                        )
                        .with_label("unknown reading")
                        .with_help("`dice:` reads `d10` and `d66`; any other key names a die and lists its faces"),
                    );
                }
                (_, DiceEntry::Faces(faces)) => match named_die(name, faces, &limits) {
                    Ok(die) => {
                        dice.named.insert(name.to_string(), die);
                    }
                    Err((message, on_key)) => problems.push(
                        Problem::error("rules::named_die", message, file, if on_key { at_key } else { at_value })
                            .with_label(if on_key { "this name" } else { "these faces" }),
                    ),
                },
            }
        }
    }
}

/// The die `name: faces` makes, or why it cannot (and whether the name, not the faces, is at fault).
fn named_die(name: &str, faces: &[i64], limits: &DiceLimits) -> Result<Die, (String, bool)> {
    if let Some(problem) = die_name_problem(name) {
        return Err((problem, true));
    }
    if faces.len() < 2 {
        return Err((format!("die `{name}` needs at least 2 faces, one a side"), false));
    }
    if faces.len() > limits.max_sides as usize {
        return Err((format!("die `{name}` has {} faces: at most {}", faces.len(), limits.max_sides), false));
    }
    if let Some(face) = faces.iter().find(|f| f.abs() > limits.max_constant) {
        return Err((format!("die `{name}` has a face {face}: at most {} either way", limits.max_constant), false));
    }
    Die::named(name, faces).ok_or_else(|| ("too many different dice in one run".to_string(), false))
}
