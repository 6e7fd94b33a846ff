//! `:new VAR`: a unit made by answering for its fields in turn (its name, a template of the
//! ruleset, then what the template leaves open), Tab offering the words each field takes.

use std::cell::RefCell;
use std::rc::Rc;

use super::session::{Reply, Session};
use super::short_form::quoted;
use crate::script::UnitRef;

/// Asks one question: shown `prompt`, Tab offering `words`; what the player typed, or `None` to give up.
pub type Choose = Rc<RefCell<dyn FnMut(&str, &[String]) -> Option<String>>>;

/// What a question's answer may be.
enum Wanted {
    /// One of these words (any word when there are none).
    Word(Vec<String>),
    /// A whole number, 1 or more.
    Count,
    /// Any whole number.
    Number,
}

impl Session {
    /// `:new VAR`: asks for the unit's fields and makes it, as the `let` line it shows would.
    pub(super) fn new_unit(&mut self, variable: &str) -> Reply {
        if !is_identifier(variable) {
            return Reply::Error(format!(
                "`:new` takes the variable to hold the unit, a name of letters, digits and _ (`:new brits`), not `{variable}`"
            ));
        }
        let rs = self.host.ruleset();
        let cancelled = || Reply::Output("cancelled: no unit made".into());
        let Some(name) = self.answer("name of the unit", &Wanted::Word(Vec::new()), false) else {
            return cancelled();
        };
        let templates: Vec<String> = rs.unit_templates.keys().cloned().collect();
        let mut template = None;
        if !templates.is_empty() {
            match self.answer("template (Tab lists them)", &Wanted::Word(templates), true) {
                Some(t) if t.is_empty() => {}
                Some(t) => template = Some(t),
                None => return cancelled(),
            }
        }
        let given =
            template.as_ref().and_then(|t| rs.unit_templates.get(t)).map(|t| t.unit.clone()).unwrap_or_default();
        let v = &rs.vocabulary;
        let d = &v.unit_defaults;
        let words = |set: &std::collections::BTreeSet<String>| Wanted::Word(set.iter().cloned().collect());
        // Each field the template leaves open, and whether the player may leave it out.
        // The side is the player's own word (the turn's sides are the units'); the grade is
        // the ruleset's, which procedures read (a morale class, a crack unit).
        let questions = [
            ("side", Wanted::Word(Vec::new()), true),
            ("nation", words(&v.nations), true),
            ("arm", words(&v.arms), d.arm.is_some()),
            ("type", words(&v.types), true),
            ("grade", words(&v.grades), true),
            ("stands", Wanted::Count, d.stands.is_some()),
            ("formation", words(&v.formations), d.formation.is_some()),
        ];
        let mut fields = Vec::new();
        // What the rules keep unread (F&F's grade: "the player's record") is not asked.
        let unread = |field: &str| rs.unused.contains_key(&(crate::rules::UnusedKind::UnitField, field.to_string()));
        for (field, wanted, optional) in questions {
            if given.contains_key(field) || unread(field) {
                continue;
            }
            match self.answer(field, &wanted, optional) {
                Some(a) if a.is_empty() => {}
                Some(a) if matches!(wanted, Wanted::Count) => fields.push(format!("{field}: {a}")),
                Some(a) => fields.push(format!("{field}: {}", quoted(&a))),
                None => return cancelled(),
            }
        }
        // The ruleset's own fields (`unit_fields:`), each with its default when left out.
        let template_fields = given.get("fields").and_then(|f| f.as_object()).cloned().unwrap_or_default();
        let mut own = Vec::new();
        for (field, spec) in &v.unit_fields {
            if template_fields.contains_key(field) || unread(field) {
                continue;
            }
            let wanted = match spec.kind {
                crate::unit::FieldKind::Flag => Wanted::Word(vec!["true".into(), "false".into()]),
                crate::unit::FieldKind::Count => Wanted::Number,
                crate::unit::FieldKind::Word => Wanted::Word(spec.words.iter().cloned().collect()),
            };
            match self.answer(field, &wanted, true) {
                Some(a) if a.is_empty() => {}
                Some(a) if matches!(spec.kind, crate::unit::FieldKind::Word) => {
                    own.push(format!("{field}: {}", quoted(&a)))
                }
                Some(a) => own.push(format!("{field}: {a}")),
                None => return cancelled(),
            }
        }
        if !own.is_empty() {
            fields.push(format!("fields: #{{{}}}", own.join(", ")));
        }
        // Markers the procedures read (a doctrine, fresh, a calibre), as NAME or NAME=VALUE.
        if !v.marker_kinds.is_empty() {
            match self.markers_answer(&v.marker_kinds) {
                Some(markers) if markers.is_empty() => {}
                Some(markers) => fields.push(format!("markers: #{{{}}}", markers.join(", "))),
                None => return cancelled(),
            }
        }
        // The rules are read; the line that makes the unit runs against them.
        drop(rs);
        let made = match (&template, fields.is_empty()) {
            (Some(t), true) => format!("unit({}, {})", quoted(&name), quoted(t)),
            (Some(t), false) => format!("unit({}, {}, #{{{}}})", quoted(&name), quoted(t), fields.join(", ")),
            (None, _) => {
                let mut all = vec![format!("name: {}", quoted(&name))];
                all.extend(fields);
                format!("unit(#{{{}}})", all.join(", "))
            }
        };
        let code = format!("let {variable} = {made};");
        match self.evaluate_as(&code, &format!(":new {variable}")) {
            Reply::Output(_) => {
                let unit = self.variable(variable).and_then(|u| u.try_cast::<UnitRef>()).map(|u| u.to_string());
                let unit = unit.unwrap_or_default();
                Reply::Output(format!("-> {code}\n{variable}: {unit}"))
            }
            other => other,
        }
    }

    /// Asks `question` until the answer is what it wants: an empty answer when `optional`, `None`
    /// when the player gives up.
    fn answer(&self, question: &str, wanted: &Wanted, optional: bool) -> Option<String> {
        let (offered, shape) = match wanted {
            Wanted::Word(words) if words.is_empty() => (Vec::new(), String::new()),
            Wanted::Word(words) if words.len() <= 8 => (words.clone(), format!(" ({})", words.join(", "))),
            Wanted::Word(words) => (words.clone(), " (Tab lists them)".to_string()),
            Wanted::Count | Wanted::Number => (Vec::new(), " (a whole number)".to_string()),
        };
        let shape = if question.contains("Tab lists") { String::new() } else { shape };
        let blank = if optional { "; Enter for none" } else { "" };
        let mut prompt = format!("{question}{shape}{blank}: ");
        loop {
            let typed = (self.choose.borrow_mut())(&prompt, &offered)?;
            let typed = typed.trim().to_string();
            let wrong = match wanted {
                _ if typed.is_empty() && optional => None,
                _ if typed.is_empty() => Some(format!("{question} is needed")),
                Wanted::Word(words) if !words.is_empty() && !words.contains(&typed) => {
                    let hint = crate::rules::did_you_mean(&typed, words.iter().map(String::as_str));
                    Some(format!("`{typed}` is not one of them{hint}"))
                }
                Wanted::Count if typed.parse::<u32>().map_or(true, |n| n == 0) => {
                    Some(format!("`{typed}` is not a whole number of 1 or more"))
                }
                Wanted::Number if typed.parse::<i64>().is_err() => Some(format!("`{typed}` is not a whole number")),
                // A side is named in `:turn` and `:next`, a word at a time.
                _ if question == "side" && typed.contains(char::is_whitespace) => {
                    Some(format!("`{typed}` is more than one word: a side is one (`allies`, `french_army`)"))
                }
                _ => None,
            };
            match wrong {
                None => return Some(typed),
                Some(why) => prompt = format!("{why}; {question}{shape}{blank}: "),
            }
        }
    }
}

impl Session {
    /// Asks for the unit's markers on one line, `fresh doctrine=cold_steel`, each checked
    /// against the marker's kind and asked again when one is wrong; each as Rhai writes it.
    fn markers_answer(
        &self,
        kinds: &std::collections::BTreeMap<String, crate::unit::MarkerKind>,
    ) -> Option<Vec<String>> {
        let names: Vec<String> = kinds.keys().cloned().collect();
        let question = "markers, NAME or NAME=VALUE (Tab lists them); Enter for none";
        let mut prompt = format!("{question}: ");
        'ask: loop {
            let typed = (self.choose.borrow_mut())(&prompt, &names)?;
            let mut written = Vec::new();
            for item in typed.split_whitespace() {
                let (name, value) = item.split_once('=').unwrap_or((item, "true"));
                let Some(kind) = kinds.get(name) else {
                    let hint = crate::rules::did_you_mean(name, names.iter().map(String::as_str));
                    prompt = format!("`{name}` is not a marker of these rules{hint}; {question}: ");
                    continue 'ask;
                };
                let marker = match value {
                    "true" => crate::unit::Marker::Flag(true),
                    "false" => crate::unit::Marker::Flag(false),
                    _ => value
                        .parse::<i64>()
                        .map_or_else(|_| crate::unit::Marker::Text(value.to_string()), crate::unit::Marker::Count),
                };
                if let Some(fault) = kind.fault(name, &marker) {
                    prompt = format!("{fault}; {question}: ");
                    continue 'ask;
                }
                written.push(match marker {
                    crate::unit::Marker::Text(text) => format!("{name}: {}", quoted(&text)),
                    crate::unit::Marker::Flag(b) => format!("{name}: {b}"),
                    crate::unit::Marker::Count(n) => format!("{name}: {n}"),
                });
            }
            return Some(written);
        }
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
