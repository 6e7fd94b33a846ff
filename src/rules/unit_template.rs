//! Unit templates (`unit_templates:` in ruleset.yaml): the kinds of unit a ruleset names, so a
//! player makes one by its name and a template, `unit("54th Foot", "british_line")`, giving
//! only what differs.

use serde_json::{Map, Value};

use super::problem::did_you_mean;
use super::source::Source;
use crate::unit::{Unit, Vocabulary};

/// A checked template.
#[derive(Clone, Debug)]
pub struct UnitTemplate {
    pub text: String,
    pub source: Source,
    /// What every unit made from it has, as a unit spec writes it (`arm`, `stands`, `markers`...).
    pub unit: Map<String, Value>,
}

/// The keys a template may give: a unit's own, but not what names or places one unit.
pub const TEMPLATE_KEYS: [&str; 11] =
    ["side", "nation", "arm", "type", "grade", "stands", "formation", "order", "markers", "fields", "command"];

/// The template a player names (`british line` is `british_line`), or what they may have meant.
pub fn find<'a>(
    templates: &'a std::collections::BTreeMap<String, UnitTemplate>,
    name: &str,
) -> Result<&'a UnitTemplate, String> {
    let key = name.trim().replace([' ', '-'], "_");
    templates.get(&key).ok_or_else(|| {
        if templates.is_empty() {
            return format!("there is no unit template `{name}`: this ruleset names none (`unit_templates:`)");
        }
        let hint = did_you_mean(&key, templates.keys().map(String::as_str));
        let all: Vec<&str> = templates.keys().map(String::as_str).collect();
        format!("there is no unit template `{name}`{hint}; the templates: {}", all.join(", "))
    })
}

/// What is wrong with a template's unit: a key a template may not give, or a unit made from it
/// that the vocabulary refuses (a word not in it, a required field missing).
pub fn fault(unit: &Map<String, Value>, vocabulary: &Vocabulary) -> Option<String> {
    for key in unit.keys() {
        if !TEMPLATE_KEYS.contains(&key.as_str()) {
            let hint = did_you_mean(key, TEMPLATE_KEYS.iter().copied());
            return Some(format!("a template cannot give `{key}`{hint}; it gives {}", TEMPLATE_KEYS.join(", ")));
        }
    }
    let mut spec = unit.clone();
    for (key, value) in
        [("id", "template"), ("name", "template"), ("side", ""), ("nation", ""), ("order", "good_order")]
    {
        spec.entry(key).or_insert_with(|| Value::String(value.into()));
    }
    if !vocabulary.orders.is_empty() && !vocabulary.orders.contains("good_order") {
        spec.entry("order")
            .or_insert_with(|| Value::String(vocabulary.orders.iter().next().cloned().unwrap_or_default()));
    }
    let mut made: Unit = match serde_json::from_value(Value::Object(spec)) {
        Ok(made) => made,
        Err(err) => return Some(err.to_string()),
    };
    let mut problems = vocabulary.complete(&mut made);
    problems.extend(vocabulary.check_unit(&made));
    problems.into_iter().next().map(|p| p.to_string())
}
