//! A ruleset as text: its summary, a table as the chart it encodes, a modifier list, a
//! procedure's contract, the options and interpretations as set.

use miette::Diagnostic;
use thiserror::Error;

use crate::rules::contract::{Contract, Key};
use crate::rules::{Edge, ModifierList, Ruleset, Table, TableBody, did_you_mean};

/// A name that is no table, modifier list or procedure of the ruleset.
#[derive(Debug, Error, Diagnostic)]
#[error(
    "ruleset `{ruleset}` has no table, modifier list or procedure `{name}`{hint}; `grognard show --rules {ruleset}` lists them"
)]
#[diagnostic(code(rules::unknown_name))]
pub struct NotInRuleset {
    pub ruleset: String,
    pub name: String,
    /// ", did you mean …?" or nothing.
    pub hint: String,
}

/// One named thing of a ruleset as text.
pub fn render(ruleset: &Ruleset, name: &str) -> Result<String, NotInRuleset> {
    if name == "options" {
        return Ok(options(ruleset));
    }
    if name == "interpretations" {
        return Ok(interpretations(ruleset));
    }
    if name == "procedures" {
        return Ok(procedures(ruleset));
    }
    if name == "constants" {
        return Ok(constants(ruleset));
    }
    // A table and a procedure may share a name (`melee`): both are shown.
    let mut shown = Vec::new();
    if let Some(table) = ruleset.tables.get(name) {
        shown.push(table_chart(table));
    }
    if let Some(list) = ruleset.modifiers.get(name) {
        shown.push(modifier_list(list));
    }
    if let Some(contract) = ruleset.contracts.get(name) {
        shown.push(contract_text(contract));
    }
    if !shown.is_empty() {
        return Ok(shown.join("\n"));
    }
    let known = ruleset.tables.keys().chain(ruleset.modifiers.keys()).chain(ruleset.contracts.keys());
    let hint =
        did_you_mean(name, known.map(String::as_str).chain(["options", "interpretations", "procedures", "constants"]));
    Err(NotInRuleset { ruleset: ruleset.id.clone(), name: name.to_string(), hint })
}

/// Each procedure file and the entry procedures its contracts declare, with what they take.
fn procedures(ruleset: &Ruleset) -> String {
    let mut s = String::from("procedures:\n");
    for p in &ruleset.procedures {
        s += &format!("  {}\n", p.file.name());
        let defined = defined_in(&p.file).filter_map(|name| ruleset.contracts.get(name));
        for contract in defined {
            s += &format!("    {}: {}\n", contract.signature(), contract.text);
            if !contract.situation.is_empty() {
                let keys: Vec<&str> = contract.situation.iter().map(|k| k.name.as_str()).collect();
                s += &format!("      situation: {}\n", keys.join(", "));
            }
        }
    }
    s
}

/// The names of the functions `file` defines, in its order (lines that start `fn name(`).
fn defined_in(file: &crate::rules::SourceFile) -> impl Iterator<Item = &str> {
    file.inner()
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("fn ")?.split_once('(').map(|(name, _)| name.trim()))
}

/// A procedure's contract: what it does, each parameter and each situation key, and the
/// keys of a map or the item of a list declared inside them, indented under it.
pub fn contract_text(contract: &Contract) -> String {
    let mut s = format!("{}\n  {}  [{}]\n", contract.signature(), contract.text, contract.source);
    s += "parameters:\n";
    for p in &contract.params {
        key_lines(&mut s, p, 0);
    }
    if !contract.situation.is_empty() {
        s += "situation keys (each may be left out):\n";
        for k in &contract.situation {
            key_lines(&mut s, k, 0);
        }
    }
    s
}

/// One key as `show` writes it, `depth` levels inside a map or list.
fn key_lines(s: &mut String, key: &Key, depth: usize) {
    let mut kind = key.kind.to_string();
    if !key.words.is_empty() {
        kind += &format!(" ({})", key.words.iter().map(String::as_str).collect::<Vec<_>>().join(", "));
    }
    if key.optional {
        kind += " or ()";
    }
    if let Some(default) = &key.default {
        kind += &format!(", default {default}");
    }
    if let Some(option) = &key.option {
        kind += &format!(", with option {option}");
    }
    let source = key.source.as_ref().map(|s| format!("  [{s}]")).unwrap_or_default();
    let name = format!("{}{}", "  ".repeat(depth), key.name);
    *s += &format!("  {name:<26} {kind}\n  {:<26} {}{source}\n", "", key.text);
    for inner in key.keys.iter().flatten() {
        key_lines(s, inner, depth + 1);
    }
    if let Some(item) = &key.items {
        key_lines(s, item, depth + 1);
    }
}

/// What the ruleset holds, one line each.
pub fn summary(ruleset: &Ruleset) -> String {
    let layers: Vec<&str> = ruleset.layers.iter().map(|l| l.id.as_str()).collect();
    let mut s = format!("{} ({})\nsource: {}\n", ruleset.title, layers.join(" + "), ruleset.source);
    s += "\ntables:\n";
    for t in ruleset.tables.values() {
        s += &format!("  {:<28} {} [{}]\n", t.id, t.title, t.source);
    }
    s += "\nmodifier lists:\n";
    for m in ruleset.modifiers.values() {
        s += &format!("  {:<28} {} ({} modifiers)\n", m.id, m.title, m.modifiers.len());
    }
    s += "\n";
    s += &procedures(ruleset);
    s += "\n";
    s += &constants(ruleset);
    s += "\n";
    if !ruleset.vocabulary.unit_fields.is_empty() || ruleset.vocabulary.unit_defaults != Default::default() {
        s += &unit_fields(ruleset);
        s += "\n";
    }
    if !ruleset.unit_templates.is_empty() {
        s += &unit_templates(ruleset);
        s += "\n";
    }
    s += &options(ruleset);
    s += "\n";
    s += &interpretations(ruleset);
    s
}

/// The kinds of unit the ruleset names, each with what its units have.
fn unit_templates(ruleset: &Ruleset) -> String {
    let mut s = String::from("unit templates (unit(\"54th Foot\", \"template\")):\n");
    for (name, t) in &ruleset.unit_templates {
        let has: Vec<String> = t.unit.iter().map(|(k, v)| format!("{k} {}", v.to_string().trim_matches('"'))).collect();
        s += &format!("  {name:<28} {}: {} [{}]\n", t.text, has.join(", "), t.source);
    }
    s
}

fn constants(ruleset: &Ruleset) -> String {
    let mut s = String::from("constants:\n");
    if ruleset.constants.is_empty() {
        s += "  (none)\n";
    }
    for (name, info) in &ruleset.constants {
        s += &format!("  {name:<28} {:<6} {} [{}]\n", info.value.to_string(), info.text, info.source);
    }
    s
}

/// The fields of its own the ruleset gives units, and the kernel fields it lets a unit leave out.
fn unit_fields(ruleset: &Ruleset) -> String {
    let mut s = String::from("unit fields (given under a unit's `fields:`):\n");
    for (name, spec) in &ruleset.vocabulary.unit_fields {
        let words = if spec.words.is_empty() {
            String::new()
        } else {
            format!(" ({})", spec.words.iter().cloned().collect::<Vec<_>>().join(", "))
        };
        let kind = format!("{}{words}, default {}", spec.kind.name(), spec.default);
        s += &format!("  {name:<28} {kind}: {} [{}]\n", spec.text, spec.source);
    }
    let d = &ruleset.vocabulary.unit_defaults;
    let given: Vec<String> =
        [("stands", d.stands.map(|n| n.to_string())), ("arm", d.arm.clone()), ("formation", d.formation.clone())]
            .into_iter()
            .filter_map(|(field, value)| value.map(|v| format!("{field} {v}")))
            .collect();
    if !given.is_empty() {
        s += &format!("  a unit that leaves them out has: {}\n", given.join(", "));
    }
    s
}

fn options(ruleset: &Ruleset) -> String {
    let mut s = String::from("options:\n");
    if ruleset.options.is_empty() {
        s += "  (none)\n";
    }
    for (name, info) in &ruleset.options {
        let on = ruleset.settings.options.get(name).copied().unwrap_or(info.default);
        let number = info.number.as_ref().map(|n| format!("{n} ")).unwrap_or_default();
        let changed = if on == info.default { "" } else { " (switched)" };
        s += &format!("  [{}] {name}{changed}: {number}{} [{}]\n", if on { "x" } else { " " }, info.text, info.source);
    }
    s
}

fn interpretations(ruleset: &Ruleset) -> String {
    let mut s = String::from("interpretations:\n");
    if ruleset.interpretations.is_empty() {
        s += "  (none)\n";
    }
    for (name, info) in &ruleset.interpretations {
        let chosen = ruleset.settings.interpretations.get(name).unwrap_or(&info.default);
        let inventory = info.inventory.as_ref().map(|i| format!(" ({i})")).unwrap_or_default();
        s += &format!("  {name} = {chosen}: {}{inventory}\n", info.text);
        for (choice, meaning) in &info.choices {
            let mark = if choice == chosen { "*" } else { " " };
            let default = if *choice == info.default { " (default)" } else { "" };
            s += &format!("    {mark} {choice}{default}: {meaning}\n");
        }
    }
    s
}

/// A modifier list as the chart prints it, with each condition and source.
pub fn modifier_list(list: &ModifierList) -> String {
    let mut s = format!("{}  [{}]\n", list.title, list.source);
    if let Some(table) = &list.table {
        s += &format!("modifies the roll on `{table}`\n");
    }
    s += "\n";
    for m in &list.modifiers {
        s += &format!("  {:>14}  {}  ({})\n", m.effect.to_string(), m.text, m.id);
        if let Some(when) = &m.when {
            s += &format!("  {:>14}  when: {}\n", "", when.split_whitespace().collect::<Vec<_>>().join(" "));
        }
        if let Some(option) = &m.option {
            s += &format!("  {:>14}  only with option {option}\n", "");
        }
        for (name, choices) in &m.interpretation {
            s += &format!("  {:>14}  only when {name} = {}\n", "", choices.join(" or "));
        }
        if m.source != list.source {
            s += &format!("  {:>14}  source: {}\n", "", m.source);
        }
    }
    s
}

/// A table laid out as its chart.
pub fn table_chart(table: &Table) -> String {
    let mut s = format!("{}  [{}]\n", table.title, table.source);
    let mut facts = Vec::new();
    if let Some(roll) = &table.roll {
        facts.push(format!("roll {roll}"));
    }
    let edge = |e: Edge| match e {
        Edge::Clamp => "read the nearest band",
        Edge::None => "no result",
        Edge::Error => "an error",
    };
    if let (true, TableBody::Grid { row_key, .. }) = (table.printed_by_column, &table.body) {
        facts.push(format!("a column per {row_key}, as printed"));
    }
    if !matches!(table.body, TableBody::Lookup { .. }) {
        facts.push(format!("below the chart: {}", edge(table.below)));
        facts.push(format!("above: {}", edge(table.above)));
    }
    if !facts.is_empty() {
        s += &facts.join("; ");
        s += "\n";
    }
    s += "\n";
    let grid: Vec<Vec<String>> = match &table.body {
        TableBody::Bands(bands) => {
            let mut rows = vec![vec!["roll".to_string(), "result".to_string()]];
            rows.extend(bands.iter().map(|(b, r)| vec![b.to_string(), r.clone()]));
            rows
        }
        TableBody::Grid { columns, rows, .. } if table.printed_by_column => {
            // As printed: a row per result, a column per key.
            let mut grid =
                vec![std::iter::once("result".to_string()).chain(rows.iter().map(|r| r.label.to_string())).collect()];
            for (i, result) in columns.iter().enumerate() {
                let cells = rows.iter().map(|r| r.cells[i].as_ref().map_or("-".to_string(), ToString::to_string));
                grid.push(std::iter::once(result.clone()).chain(cells).collect());
            }
            grid
        }
        TableBody::Grid { row_key, columns, rows } => {
            let mut grid = vec![std::iter::once(row_key.clone()).chain(columns.iter().cloned()).collect::<Vec<_>>()];
            for row in rows {
                let cells = row.cells.iter().map(|c| c.as_ref().map_or("-".to_string(), ToString::to_string));
                grid.push(std::iter::once(row.label.to_string()).chain(cells).collect());
            }
            grid
        }
        TableBody::Lookup { keys, values } => {
            let mut rows = vec![keys.iter().cloned().chain(std::iter::once("value".to_string())).collect::<Vec<_>>()];
            flatten(values, &mut Vec::new(), &mut rows);
            rows
        }
    };
    s += &columns_text(&grid);
    if !table.results.is_empty() {
        s += "\n";
        let width = table.results.keys().map(String::len).max().unwrap_or(0);
        for result in table.result_order.iter().filter_map(|id| table.results.get(id)) {
            s += &format!("  {:<width$}  {}", result.id, result.text);
            if !result.effects.is_empty() {
                s += &format!(" ({})", result.effects.describe());
            }
            s += "\n";
        }
    }
    for note in &table.notes {
        s += &format!("\nnote: {note}\n");
    }
    s
}

fn flatten(value: &crate::rules::LookupValue, path: &mut Vec<String>, rows: &mut Vec<Vec<String>>) {
    match value {
        crate::rules::LookupValue::Map(m) => {
            for (k, v) in m {
                path.push(k.clone());
                flatten(v, path, rows);
                path.pop();
            }
        }
        leaf => rows.push(path.iter().cloned().chain(std::iter::once(leaf.to_string())).collect()),
    }
}

/// Left-aligned columns, two spaces apart.
fn columns_text(rows: &[Vec<String>]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> =
        (0..n).map(|i| rows.iter().filter_map(|r| r.get(i)).map(|c| c.chars().count()).max().unwrap_or(0)).collect();
    let mut s = String::new();
    for row in rows {
        let cells: Vec<String> = row.iter().enumerate().map(|(i, c)| format!("{c:<w$}", w = widths[i])).collect();
        s += cells.join("  ").trim_end();
        s += "\n";
    }
    s
}
