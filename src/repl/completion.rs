//! Completion at the REPL that knows where the cursor is: a command after `:`, its argument
//! after the command (options after `:with`, interpretations and their choices after `:set`,
//! tables and lists after `:show`...), a procedure's situation keys and their words inside its
//! `#{`, unit variables where a call takes its arguments, and otherwise procedures, functions,
//! tables and variables.

use std::collections::BTreeMap;

use crate::repl::session::{COMMANDS, Session};
use crate::repl::short_form;
use crate::rules::contract::{Contract, Kind};
use crate::script::UnitRef;

/// What the REPL completes from, gathered once per line from the session.
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    /// Procedures, the host's functions, tables, lists, options, interpretations, variables.
    pub words: Vec<String>,
    /// The variables that hold a unit (or leader), offered first where a call takes arguments.
    pub units: Vec<String>,
    /// Each option.
    pub options: Vec<String>,
    /// Each interpretation and its choices.
    pub interpretations: BTreeMap<String, Vec<String>>,
    /// What `:show` names: tables, modifier lists, contracts and the sections of `show`.
    pub shown: Vec<String>,
    /// Each contracted procedure's situation keys, with the words each takes (empty: any).
    pub situation: BTreeMap<String, Vec<(String, Vec<String>)>>,
    /// Each contract, for short resolutions (`fire 54th 4e range 1`).
    pub contracts: BTreeMap<String, Contract>,
}

impl Session {
    /// Words that complete `prefix` outside any context: commands, procedures, tables, modifier
    /// lists, options, interpretations and the session's variables.
    pub fn completions(&self, prefix: &str) -> Vec<String> {
        let mut words: Vec<String> = COMMANDS.iter().map(|c| c.to_string()).collect();
        words.extend(self.candidates().words);
        words.sort();
        words.dedup();
        words.into_iter().filter(|w| w.starts_with(prefix) && w != prefix).collect()
    }

    /// Everything completion offers, from the rules and the session as they stand.
    pub fn candidates(&self) -> Candidates {
        let rs = self.host.ruleset();
        let mut words: Vec<String> = Vec::new();
        words.extend(rs.tables.keys().cloned());
        words.extend(rs.modifiers.keys().cloned());
        words.extend(rs.modifiers.values().flat_map(|list| list.modifiers.iter().map(|m| m.id.clone())));
        words.extend(rs.options.keys().cloned());
        words.extend(rs.interpretations.keys().cloned());
        words.extend(self.host.procedure_names());
        words.extend(self.scope.iter().map(|(name, _, _)| name.to_string()));
        words.extend(
            ["unit", "leader", "roll", "lookup", "modifiers", "apply", "option", "interpretation"].map(String::from),
        );
        words.sort();
        words.dedup();
        let units = self
            .scope
            .iter()
            .filter(|(_, _, value)| value.is::<UnitRef>() || value.is::<crate::script::LeaderRef>())
            .map(|(name, _, _)| name.to_string())
            .collect();
        let mut shown: Vec<String> =
            rs.tables.keys().chain(rs.modifiers.keys()).chain(rs.contracts.keys()).cloned().collect();
        shown.extend(["options", "interpretations", "procedures", "constants"].map(String::from));
        shown.sort();
        shown.dedup();
        Candidates {
            words,
            units,
            options: rs.options.keys().cloned().collect(),
            interpretations: rs
                .interpretations
                .iter()
                .map(|(name, info)| (name.clone(), info.choices.iter().map(|(c, _)| c.clone()).collect()))
                .collect(),
            shown,
            situation: rs
                .contracts
                .values()
                .filter(|c| !c.situation.is_empty())
                .map(|c| {
                    let keys =
                        c.situation.iter().map(|k| (k.name.clone(), k.words.iter().cloned().collect())).collect();
                    (c.name.clone(), keys)
                })
                .collect(),
            contracts: rs.contracts.clone(),
        }
    }

    /// What completes the word before `pos` in `line`, and where that word starts.
    pub fn completions_at(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        complete_at(&self.candidates(), line, pos)
    }
}

/// The candidates for the word before `pos` in `line`, and where that word starts.
pub fn complete_at(candidates: &Candidates, line: &str, pos: usize) -> (usize, Vec<String>) {
    let before = &line[..pos.min(line.len())];
    if let Some(command) = before.trim_start().strip_prefix(':') {
        // `:odds` (and `:odds why`) takes a call, or a short resolution, completed as the line
        // itself would be.
        if let Some(call) = command.strip_prefix("odds ") {
            let call = call.strip_prefix("why ").unwrap_or(call);
            let at = before.len() - call.len();
            let (start, offered) = complete_at(candidates, call, call.len());
            return (at + start, offered);
        }
        return complete_command(candidates, before, command);
    }
    let start = before.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    let prefix = &before[start..];
    let starting = |words: &mut dyn Iterator<Item = &String>| -> Vec<String> {
        words.filter(|w| w.starts_with(prefix) && w.as_str() != prefix).cloned().collect()
    };
    // A short resolution: its units, then its situation's keys and words.
    if let Some(contract) = short_form::contract_of(before, &candidates.contracts)
        && before.trim_start().contains(char::is_whitespace)
    {
        return (start, complete_short(candidates, contract, &before[..start], prefix));
    }
    // Inside a situation: the keys not yet given, or after `key: "`, the key's words.
    if let Some(context) = situation_context(&before[..start]) {
        let Some(keys) = candidates.situation.get(context.procedure) else {
            return (start, Vec::new());
        };
        return match context.value_of {
            None => {
                let offered = keys
                    .iter()
                    .filter(|(k, _)| k.starts_with(prefix) && !context.given.contains(&k.as_str()))
                    .map(|(k, _)| format!("{k}: "))
                    .collect();
                (start, offered)
            }
            Some(key) => {
                let words = keys.iter().find(|(k, _)| k == key).map(|(_, w)| w.clone()).unwrap_or_default();
                (start, starting(&mut words.iter()))
            }
        };
    }
    // Where a call takes an argument: the unit variables first, then everything else.
    if in_arguments(&before[..start]) {
        let mut offered = starting(&mut candidates.units.iter());
        // Nothing typed yet: the units alone, not a list of every word the rules know.
        if prefix.is_empty() && !offered.is_empty() {
            return (start, offered);
        }
        let rest: Vec<String> =
            starting(&mut candidates.words.iter()).into_iter().filter(|w| !offered.contains(w)).collect();
        offered.extend(rest);
        return (start, offered);
    }
    (start, starting(&mut candidates.words.iter()))
}

/// What completes the word `prefix` of a short resolution, after the words `typed` (its name first):
/// a unit (or leader) variable where the procedure takes one; in its situation, after a key that
/// takes a word, that key's words, else the keys not yet given and the words a key takes alone.
fn complete_short(candidates: &Candidates, contract: &Contract, typed: &str, prefix: &str) -> Vec<String> {
    let words: Vec<&str> = typed.split_whitespace().skip(1).collect();
    let starting = |all: Vec<String>| -> Vec<String> {
        all.into_iter().filter(|w| w.starts_with(prefix) && w.as_str() != prefix).collect()
    };
    let situation_at = contract.params.iter().position(|p| p.kind == Kind::Situation);
    if situation_at.is_none_or(|at| words.len() < at) {
        return match contract.params.get(words.len()).map(|p| p.kind) {
            Some(Kind::Unit | Kind::Leader | Kind::Units | Kind::Leaders) => starting(candidates.units.clone()),
            Some(_) => contract.params[words.len()].words.iter().filter(|w| w.starts_with(prefix)).cloned().collect(),
            None => Vec::new(),
        };
    }
    let given: Vec<&str> = words.iter().map(|w| w.split(['=', ':']).next().unwrap_or(w)).collect();
    if let Some(key) = words.last().and_then(|w| contract.situation_key(w)) {
        match key.kind {
            Kind::Word | Kind::Words => return starting(key.words.iter().cloned().collect()),
            Kind::Bool => {}
            _ => return Vec::new(),
        }
    }
    let mut offered: Vec<String> =
        contract.situation.iter().filter(|k| !given.contains(&k.name.as_str())).map(|k| k.name.clone()).collect();
    for key in contract.situation.iter().filter(|k| matches!(k.kind, Kind::Word | Kind::Words)) {
        offered.extend(key.words.iter().filter(|w| !given.contains(&w.as_str())).cloned());
    }
    offered.sort();
    offered.dedup();
    starting(offered)
}

/// Completion on a `:` line: the command itself, then what the command takes.
fn complete_command(candidates: &Candidates, before: &str, command: &str) -> (usize, Vec<String>) {
    let start = before.rfind(|c: char| c.is_whitespace() || c == '=').map_or(0, |i| i + 1);
    let prefix = &before[start..];
    let Some((name, _)) = command.split_once(char::is_whitespace) else {
        let start = before.len() - before.trim_start().len();
        let offered = COMMANDS.iter().filter(|c| c.starts_with(before.trim_start())).map(|c| c.to_string()).collect();
        return (start, offered);
    };
    let owned = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    let candidates: Vec<String> = match name {
        "with" | "without" => candidates.options.clone(),
        "set" => match before[..start].rsplit(char::is_whitespace).next().and_then(|w| w.strip_suffix('=')) {
            Some(interpretation) => candidates.interpretations.get(interpretation).cloned().unwrap_or_default(),
            None => candidates.interpretations.keys().map(|k| format!("{k}=")).collect(),
        },
        "show" => candidates.shown.clone(),
        "trace" => owned(&["brief", "full", "off"]),
        "dice" => owned(&["auto", "manual"]),
        _ => Vec::new(),
    };
    (start, candidates.into_iter().filter(|c| c.starts_with(prefix) && c.as_str() != prefix).collect())
}

/// Where the cursor is inside the situation map of a call.
struct SituationContext<'a> {
    procedure: &'a str,
    /// The keys given so far.
    given: Vec<&'a str>,
    /// The key whose value is being written, when the cursor is in a word after `key: "`.
    value_of: Option<&'a str>,
}

/// When `text` ends inside an unclosed `#{` that is an argument of a call, at a place a key
/// goes (just after `#{` or a `,`) or inside a word given as a key's value (`key: "`).
fn situation_context(text: &str) -> Option<SituationContext<'_>> {
    let Open { stack, in_string } = open(text);
    let &(brace, at) = stack.last()?;
    if brace != '{' || !text[..at].ends_with('#') {
        return None;
    }
    let inside = &text[at + 1..];
    let value_of = if in_string {
        // `key: "` just before the word: the key's words complete.
        let quote = inside.rfind('"')?;
        let key = inside[..quote].trim_end().strip_suffix(':')?.trim_end();
        let key_start = key.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
        Some(&key[key_start..])
    } else if inside.trim_end().is_empty() || inside.trim_end().ends_with(',') {
        None
    } else {
        return None;
    };
    let given: Vec<&str> = inside.split(',').filter_map(|part| part.split_once(':').map(|(k, _)| k.trim())).collect();
    // The call the map is an argument of.
    let &(paren, open) = stack.iter().rev().nth(1)?;
    if paren != '(' {
        return None;
    }
    let name_end = text[..open].trim_end().len();
    let name_start = text[..name_end].rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    Some(SituationContext { procedure: &text[name_start..name_end], given, value_of })
}

/// Whether `text` ends where a call takes an argument: just after `(` or a `,` of an open call.
fn in_arguments(text: &str) -> bool {
    let trimmed = text.trim_end();
    let Open { stack, in_string } = open(trimmed);
    !in_string && stack.last().map(|&(c, _)| c) == Some('(') && (trimmed.ends_with('(') || trimmed.ends_with(','))
}

/// The brackets still open at the end of a line typed so far (each with where it opens,
/// innermost last), strings skipped; and whether the line ends inside a string.
struct Open {
    stack: Vec<(char, usize)>,
    in_string: bool,
}

fn open(text: &str) -> Open {
    let mut stack: Vec<(char, usize)> = Vec::new();
    // The quote a string opened with, and whether the last character escaped the next.
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(_), _) if escaped => escaped = false,
            (Some(_), '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => stack.push((c, i)),
            (None, ')' | ']' | '}') => {
                stack.pop();
            }
            (None, _) => {}
        }
    }
    Open { stack, in_string: quote.is_some() }
}
