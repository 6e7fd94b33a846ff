//! What the session keeps of the game beside its units: the ground each unit stands on
//! (`:at 52nd hedge`), which every short resolution naming the unit there reads until it is
//! changed, and the log of the game (`:log`), every resolution with its dice and effects.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::session::{Reply, Session};
use crate::rules::contract::{Contract, Key, Kind};

/// Each unit's standing ground, by the unit's id: each situation key (`cover`) with its words.
pub type Standing = BTreeMap<String, BTreeMap<String, Vec<String>>>;

/// One entry of the log of the game: when, what was typed, the call it stood for, and what
/// the dice and the cards said and did to the units (the trace's dice and effects).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Logged {
    /// Where the game stood (`t1 france musketry`), when it follows a sequence of play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    pub line: String,
    /// The call a short form stood for, when it was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<String>,
    /// The dice, the cards and the effects, one a line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<String>,
}

/// The situation keys that are a unit's standing ground in `contracts` (`of:`), by name,
/// with the words each takes (the words of every contract's key of that name).
pub fn ground_keys(contracts: &BTreeMap<String, Contract>) -> BTreeMap<String, Vec<String>> {
    let mut keys: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for key in contracts.values().flat_map(|c| &c.situation).filter(|k| k.of.is_some()) {
        let words = keys.entry(key.name.clone()).or_default();
        for word in &key.words {
            if !words.contains(word) {
                words.push(word.clone());
            }
        }
    }
    keys
}

/// What is wrong with a saved game's ground, if anything: a unit it does not hold, a key no
/// contract makes a ground (`of:`), or a word no such key takes; each said with what was meant.
pub fn standing_fault(
    standing: &Standing,
    units: &BTreeMap<String, crate::unit::Unit>,
    contracts: &BTreeMap<String, Contract>,
) -> Option<String> {
    let keys = ground_keys(contracts);
    for (id, ground) in standing {
        if !units.contains_key(id) {
            let hint = crate::rules::did_you_mean(id, units.keys().map(String::as_str));
            return Some(format!("the ground of `{id}` is for a unit the game does not hold{hint}"));
        }
        for (key, words) in ground {
            let Some(known) = keys.get(key) else {
                let hint = crate::rules::did_you_mean(key, keys.keys().map(String::as_str));
                return Some(format!("`{key}` (the ground of `{id}`) is no ground a unit stands on{hint}"));
            };
            if let Some(word) = words.iter().find(|w| !known.is_empty() && !known.contains(*w)) {
                let hint = crate::rules::did_you_mean(word, known.iter().map(String::as_str));
                return Some(format!("`{word}` (the {key} of `{id}`) is not a word {key} takes{hint}"));
            }
        }
    }
    None
}

/// The value a situation key of a contract takes from a unit's standing words, as Rhai
/// writes it, or why the key does not take them.
pub fn written(key: &Key, contract: &str, words: &[String]) -> Result<String, String> {
    if let Some(wrong) = words.iter().find(|w| !key.words.is_empty() && !key.words.contains(*w)) {
        let takes: Vec<&str> = key.words.iter().map(String::as_str).collect();
        return Err(format!(
            "`{wrong}` (its ground, :at) is not a word `{}` of {contract} takes ({}): give it on the line, or change :at",
            key.name,
            takes.join(", ")
        ));
    }
    let quoted: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
    match (key.kind, quoted.as_slice()) {
        (Kind::Words, [one]) | (Kind::Word, [one]) => Ok(one.clone()),
        (Kind::Words, _) => Ok(format!("[{}]", quoted.join(", "))),
        _ => {
            Err(format!("`{}` of {contract} takes one word, and its ground (:at) gives {}", key.name, words.join(" ")))
        }
    }
}

impl Session {
    /// `:at UNIT WORDS`: the ground a unit stands on, until changed (`:at UNIT open` clears
    /// it); `:at` alone lists every unit's.
    pub(super) fn at(&mut self, rest: &str) -> Reply {
        let mut words = rest.split_whitespace();
        let Some(unit) = words.next() else { return Reply::Output(self.standing_listing()) };
        let unit = match self.unit_named(unit) {
            Ok(unit) => unit,
            Err(message) => return Reply::Error(message),
        };
        let keys = ground_keys(&self.host.ruleset().contracts);
        if keys.is_empty() {
            return Reply::Error(
                "these rules name no ground a unit stands on (no situation key with `of:` in contracts/)".into(),
            );
        }
        let words: Vec<&str> = words.collect();
        let (id, name) = (unit.0.borrow().id.clone(), unit.0.borrow().name.clone());
        let mut ground: BTreeMap<String, Vec<String>> = BTreeMap::new();
        if !matches!(words.as_slice(), ["open" | "clear" | "none"]) {
            let mut key_named: Option<String> = None;
            for word in &words {
                if keys.contains_key(*word) {
                    key_named = Some(word.to_string());
                    continue;
                }
                // A word names its key when one key takes it; a key named before it says which.
                let takes: Vec<&String> =
                    keys.iter().filter(|(_, w)| w.iter().any(|x| x == word)).map(|(k, _)| k).collect();
                let key = match (&key_named, takes.as_slice()) {
                    (Some(key), _) if keys[key].iter().any(|x| x == word) || keys[key].is_empty() => key.clone(),
                    (None, [one]) => (*one).clone(),
                    _ => {
                        let all: Vec<&str> = keys.values().flatten().map(String::as_str).collect();
                        let hint = crate::rules::did_you_mean(word, all.iter().copied());
                        let known: Vec<String> = keys.iter().map(|(k, w)| format!("{k}: {}", w.join(", "))).collect();
                        return Reply::Error(format!(
                            "`{word}` is no ground a unit stands on{hint}; the ground is {}",
                            known.join("; ")
                        ));
                    }
                };
                ground.entry(key).or_default().push(word.to_string());
            }
            if ground.is_empty() {
                return Reply::Error(format!(
                    "`:at {}` names the unit and its ground: `:at 52nd hedge`, or `:at 52nd open` to clear it",
                    rest.trim()
                ));
            }
        }
        let kept = self.host.keep(&self.scope);
        self.push_undo(format!(":at {}", rest.trim()), kept);
        if ground.is_empty() {
            self.standing.remove(&id);
            Reply::Output(format!("{name} stands in the open: no ground given"))
        } else {
            let said = describe(&ground);
            self.standing.insert(id, ground);
            Reply::Output(format!(
                "{name} stands at {said} until changed (:at {} open clears it)",
                rest.split_whitespace().next().unwrap_or("")
            ))
        }
    }

    /// A call written out in Rhai (`melee(ligne_2, foot_52nd, #{})`) with its units' ground
    /// (`:at`) written into its situation map where the map leaves a ground key out, as a
    /// short form has it: the code to run instead, or none when nothing is added (no unit
    /// of it has a ground, or the situation is not a map written out, whose keys are unknown
    /// before it runs); an error when a ground is a word the call's key does not take.
    pub(super) fn with_ground(&self, code: &str) -> Result<Option<String>, String> {
        if self.standing.is_empty() {
            return Ok(None);
        }
        let Some(shape) = self.host.call_shape(&self.scope, code) else { return Ok(None) };
        let rs = self.host.ruleset();
        let Some(contract) = rs.contracts.get(&shape.name) else { return Ok(None) };
        let Some(at) = contract.params.iter().position(|p| p.kind == Kind::Situation) else { return Ok(None) };
        let Some(crate::script::Argument::Map { keys, open, close }) = shape.args.get(at) else { return Ok(None) };
        let mut added = Vec::new();
        for key in contract.situation.iter().filter(|k| k.of.is_some() && !keys.contains(&k.name)) {
            let Some(whose) = contract.params.iter().position(|p| Some(&p.name) == key.of.as_ref()) else { continue };
            let Some(crate::script::Argument::Variable(variable)) = shape.args.get(whose) else { continue };
            let Some(unit) = self.variable(variable).and_then(|v| v.try_cast::<crate::script::UnitRef>()) else {
                continue;
            };
            let id = unit.0.borrow().id.clone();
            if let Some(words) = self.standing.get(&id).and_then(|g| g.get(&key.name)) {
                added.push(format!("{}: {}", key.name, written(key, &contract.name, words)?));
            }
        }
        if added.is_empty() {
            return Ok(None);
        }
        // What the map holds already, less a trailing comma (`#{range: 1,}`).
        let inside = code[open + 2..*close].trim().trim_end_matches(',').trim_end();
        let joined = if inside.is_empty() { added.join(", ") } else { format!("{inside}, {}", added.join(", ")) };
        Ok(Some(format!("{}#{{{joined}}}{}", &code[..*open], &code[close + 1..])))
    }

    /// Every unit's standing ground, a line each.
    fn standing_listing(&self) -> String {
        if self.standing.is_empty() {
            return "no unit has a ground given: `:at 52nd hedge` gives one".into();
        }
        let units = self.host.units();
        let name = |id: &str| {
            units.iter().find(|u| u.0.borrow().id == id).map_or(id.to_string(), |u| u.0.borrow().name.clone())
        };
        self.standing
            .iter()
            .map(|(id, ground)| format!("{}: at {}", name(id), describe(ground)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The ground `unit_id` stands on, as `:units` shows it: `at cover hedge`.
    pub(super) fn standing_of(&self, unit_id: &str) -> Option<String> {
        self.standing.get(unit_id).map(describe)
    }

    /// The unit a word names, as a short form names it (`super::short_form::find_unit`).
    fn unit_named(&self, word: &str) -> Result<crate::script::UnitRef, String> {
        let named = self.named();
        let found = super::short_form::find_unit(word, &named)?;
        self.variable(&found.variable)
            .and_then(|v| v.try_cast::<crate::script::UnitRef>())
            .ok_or_else(|| format!("`{}` holds no unit", found.variable))
    }

    /// `:log`: the game so far, each resolution with its dice and effects; `:log FILE.md`
    /// writes it as Markdown.
    pub(super) fn log_command(&self, rest: &str) -> Reply {
        if self.log.is_empty() {
            return Reply::Output("nothing has been resolved yet".into());
        }
        if rest.is_empty() {
            let mut lines = Vec::new();
            for entry in &self.log {
                let when = entry.when.as_ref().map(|w| format!("[{w}] ")).unwrap_or_default();
                lines.push(format!("{when}{}", entry.line));
                lines.extend(entry.steps.iter().map(|s| format!("  {s}")));
            }
            return Reply::Output(lines.join("\n"));
        }
        if !rest.ends_with(".md") {
            return Reply::Error(format!(
                "`:log` writes Markdown, to a file ending .md (`:log battle.md`), not `{rest}`"
            ));
        }
        let text = markdown(&self.log, &self.host.ruleset().title);
        let path = std::path::Path::new(rest);
        match crate::present::file::write_atomically(path, &text, crate::present::file::Fresh::Usual) {
            Ok(()) => Reply::Output(format!("wrote the log of the game ({} entries) to {rest}", self.log.len())),
            Err(err) => Reply::Error(format!("cannot write the log to {rest}: {err}")),
        }
    }
}

/// A unit's ground in words: `cover hedge, higher`.
fn describe(ground: &BTreeMap<String, Vec<String>>) -> String {
    ground.iter().map(|(k, w)| format!("{k} {}", w.join(", "))).collect::<Vec<_>>().join("; ")
}

/// The log as Markdown: a heading per phase (when the game follows a sequence), each line
/// typed in code, its dice and effects as a list.
pub fn markdown(log: &[Logged], title: &str) -> String {
    let mut out = format!("# The game: {title}\n");
    let mut when: Option<&str> = None;
    for entry in log {
        // A phase begun is its heading; only what it did is written under it.
        let quiet_next = entry.line.starts_with(":next") && entry.steps.is_empty();
        if entry.when.as_deref() != when {
            when = entry.when.as_deref();
            if let Some(w) = when {
                out += &format!("\n## {w}\n");
            }
        }
        if quiet_next {
            continue;
        }
        out += &format!("\n`{}`", entry.line.replace('`', "'"));
        if let Some(call) = &entry.call {
            out += &format!(" (`{}`)", call.replace('`', "'"));
        }
        out += "\n\n";
        for step in &entry.steps {
            out += &format!("- {}\n", step.replace('`', "'"));
        }
    }
    out
}
