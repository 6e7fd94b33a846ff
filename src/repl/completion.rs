//! Completion at the REPL: the word before the cursor completed from what it may be there
//! (commands, procedures, tables, variables, and a procedure's situation keys inside its `#{`).

use std::collections::BTreeMap;

use crate::repl::session::{COMMANDS, Session};

impl Session {
    /// Words that complete `prefix`: commands, procedures, tables, modifier
    /// lists, options, interpretations and the session's variables.
    pub fn completions(&self, prefix: &str) -> Vec<String> {
        let mut words: Vec<String> = COMMANDS.iter().map(|c| c.to_string()).collect();
        let rs = self.host.ruleset();
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
        words.into_iter().filter(|w| w.starts_with(prefix) && w != prefix).collect()
    }

    /// The situation keys of each contracted procedure, for completion inside `fire(a, b, #{`.
    pub fn situation_keys(&self) -> BTreeMap<String, Vec<String>> {
        let rs = self.host.ruleset();
        rs.contracts
            .values()
            .filter(|c| !c.situation.is_empty())
            .map(|c| (c.name.clone(), c.situation.iter().map(|k| k.name.clone()).collect()))
            .collect()
    }

    /// What completes the word before `pos` in `line`, and where that word starts: inside
    /// the situation map of a contracted call, its keys not yet given; else `completions`.
    pub fn completions_at(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        complete_at(&self.completions(""), &self.situation_keys(), line, pos)
    }
}

/// Completion for the word before `pos`: inside `name(..., #{` of a procedure whose contract
/// lists situation keys (`keys`), the keys not yet in the map, each as `key: `; else the
/// `words` that start with it.
pub fn complete_at(
    words: &[String],
    keys: &BTreeMap<String, Vec<String>>,
    line: &str,
    pos: usize,
) -> (usize, Vec<String>) {
    let before = &line[..pos.min(line.len())];
    let start = before.rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).map_or(0, |i| i + 1);
    let prefix = &before[start..];
    if let Some((procedure, given)) = open_situation(&before[..start])
        && let Some(keys) = keys.get(procedure)
    {
        let offered = keys
            .iter()
            .filter(|k| k.starts_with(prefix) && !given.contains(&k.as_str()))
            .map(|k| format!("{k}: "))
            .collect();
        return (start, offered);
    }
    (start, words.iter().filter(|w| w.starts_with(prefix) && w.as_str() != prefix).cloned().collect())
}

/// When `text` ends inside an unclosed `#{` that is an argument of a call, at a place a
/// key goes (just after `#{` or a `,`): the procedure called and the keys given so far.
fn open_situation(text: &str) -> Option<(&str, Vec<&str>)> {
    // The innermost unclosed bracket, skipping strings.
    let mut stack: Vec<(char, usize)> = Vec::new();
    let mut in_string = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' | '`' => in_string = !in_string,
            _ if in_string => {}
            '(' | '[' | '{' => stack.push((c, i)),
            ')' | ']' | '}' => {
                stack.pop();
            }
            _ => {}
        }
    }
    let &(brace, at) = stack.last()?;
    if brace != '{' || !text[..at].ends_with('#') {
        return None;
    }
    let inside = &text[at + 1..];
    if !inside.trim_end().is_empty() && !inside.trim_end().ends_with(',') {
        return None;
    }
    let given: Vec<&str> = inside.split(',').filter_map(|part| part.split_once(':').map(|(k, _)| k.trim())).collect();
    // The call the map is an argument of.
    let &(paren, open) = stack.iter().rev().nth(1)?;
    if paren != '(' {
        return None;
    }
    let name_end = text[..open].trim_end().len();
    let name_start = text[..name_end].rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    Some((&text[name_start..name_end], given))
}
