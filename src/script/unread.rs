//! What a ruleset writes that nothing reads: a procedure nothing calls that no contract declares
//! an entry point, a marker, a table's `property` or a result's value, or a unit field that no
//! procedure, modifier or condition reads. Each is a warning where it is written, unless the
//! ruleset's `unused:` says why it is kept.
//!
//! Why: a rule whose idea sits in data that nothing reads gives answers that look right and are
//! not (a battery marked silenced that fires on, an army list's "no oblique fire" never asked).
//! What is read is found by name, leniently: a name read anywhere (a property, a string, a call)
//! counts, so a warning is never a false alarm about a name that is read, only ever late.

use std::collections::BTreeSet;

use crate::script::syntax::{ASTNode, Expr, Stmt};
use miette::SourceSpan;
use rhai::{AST, Engine, OptimizationLevel, Position};

use super::base_calls::{LayerFile, written_name};
use super::overlay_check::defined_functions;
use crate::rules::{LookupValue, Problem, Ruleset, SourceFile, TableBody, UnusedKind, did_you_mean};

const CODE: &str = "script::unread";

/// The key level of a lookup table whose words are the properties of an entry
/// (`keys: [nation, arm, property]`).
const PROPERTY_KEY: &str = "property";

/// Markers grognard itself reads: `removed: true` takes a unit or leader out of play.
const KERNEL_MARKERS: [&str; 1] = ["removed"];

/// The unit properties a vocabulary lists words for, each with the list that holds them.
const VOCABULARY_PROPERTIES: [(&str, &str); 6] = [
    ("arm", "arms"),
    ("type", "types"),
    ("grade", "grades"),
    ("formation", "formations"),
    ("order", "orders"),
    ("nation", "nations"),
];

/// Every warning of what `rs` writes and nothing reads, and every `unused:` entry that names
/// nothing (an error) or something read after all (a warning).
pub(crate) fn problems(files: &[LayerFile], rs: &Ruleset) -> Vec<Problem> {
    let reads = Reads::of(files, rs);
    let mut found = Found { rs, problems: Vec::new(), justified: BTreeSet::new() };
    found.procedures(files, &reads);
    found.markers(&reads);
    found.properties(&reads);
    found.unit_fields(&reads);
    found.stale_entries(files);
    found.problems
}

/// The names the code reads: functions and methods called, and every property and string
/// (save a marker's name where it is only set or cleared).
#[derive(Default)]
struct Reads {
    called: BTreeSet<String>,
    named: BTreeSet<String>,
}

impl Reads {
    fn of(files: &[LayerFile], rs: &Ruleset) -> Reads {
        let mut reads = Reads::default();
        for file in files {
            reads.read(file.ast);
        }
        let mut engine = Engine::new_raw();
        engine.set_optimization_level(OptimizationLevel::None);
        let conditions = rs
            .modifiers
            .values()
            .flat_map(|list| &list.modifiers)
            .flat_map(|m| m.when.iter().chain(m.per.as_ref().map(|(text, _)| text)));
        // A condition that does not compile is reported where conditions are compiled.
        for ast in conditions.filter_map(|text| engine.compile_expression(text).ok()) {
            reads.read(&ast);
        }
        reads
    }

    fn read(&mut self, ast: &AST) {
        // `set_marker("spent", true)` writes `spent`; it reads nothing.
        let mut written: BTreeSet<Position> = BTreeSet::new();
        ast.walk(&mut |path: &[ASTNode]| {
            if let Some(
                ASTNode::Expr(Expr::FnCall(call, _) | Expr::MethodCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _)),
            ) = path.last()
                && ["set_marker", "clear_marker"].contains(&call.name.as_str())
            {
                let method = matches!(path.last(), Some(ASTNode::Expr(Expr::MethodCall(..))));
                if let Some(Expr::StringConstant(_, at)) = call.args.get(usize::from(!method)) {
                    written.insert(*at);
                }
            }
            true
        });
        ast.walk(&mut |path: &[ASTNode]| {
            match path.last() {
                Some(ASTNode::Expr(Expr::FnCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _))) => {
                    let name = written_name(&call.name);
                    self.called.insert(name.strip_prefix("base::").unwrap_or(&name).to_string());
                }
                Some(ASTNode::Expr(Expr::MethodCall(call, _))) => {
                    self.called.insert(call.name.to_string());
                }
                Some(ASTNode::Expr(Expr::StringConstant(text, at))) if !written.contains(at) => {
                    self.named.insert(text.to_string());
                }
                Some(ASTNode::Expr(Expr::Property(property, _))) => {
                    self.named.insert(property.2.to_string());
                }
                _ => {}
            }
            true
        });
    }

    fn reads(&self, name: &str) -> bool {
        self.named.contains(name) || self.called.contains(name)
    }
}

/// The warnings found so far, and the `unused:` entries that justified one.
struct Found<'a> {
    rs: &'a Ruleset,
    problems: Vec<Problem>,
    justified: BTreeSet<(UnusedKind, String)>,
}

impl Found<'_> {
    /// Whether `unused:` keeps `name` on purpose (and so it was needed).
    fn kept(&mut self, kind: UnusedKind, name: &str) -> bool {
        let key = (kind, name.to_string());
        let kept = self.rs.unused.contains_key(&key);
        if kept {
            self.justified.insert(key);
        }
        kept
    }

    fn warn(&mut self, message: String, file: &SourceFile, span: SourceSpan, label: &str, help: String) {
        self.problems
            .push(Problem::error(CODE, message, file, span).with_label(label.to_string()).with_help(help).warning());
    }

    /// Functions nothing calls, each named once, where its lowest layer writes it.
    fn procedures(&mut self, files: &[LayerFile], reads: &Reads) {
        let mut seen = BTreeSet::new();
        let mut defined: Vec<_> = files.iter().flat_map(defined_functions).collect();
        defined.sort_by_key(|d| d.file.layer);
        for def in defined {
            // A closure (`|x| ...`) is named by Rhai and called through its pointer.
            if def.name.starts_with("anon$") || !seen.insert(def.name.clone()) || reads.reads(&def.name) {
                continue;
            }
            let contract = self.rs.contracts.get(&def.name);
            // An overlay's function with no contract that replaces nothing is refused by
            // `overlay_check`; it is not also warned of here.
            if (contract.is_none() && def.file.layer > 0) || contract.is_some_and(|c| c.entry) {
                continue;
            }
            if self.kept(UnusedKind::Procedure, &def.name) {
                continue;
            }
            let message = match contract {
                Some(_) => format!(
                    "`{}` is called by no procedure or condition, and its contract does not declare it an entry point",
                    def.name
                ),
                None => format!("`{}` is called by no procedure or condition, and has no contract", def.name),
            };
            let help = match contract {
                Some(c) => format!(
                    "a procedure the rules mean to use is called where the seed asks it; one a player calls \
                     has `entry: true` in its contract ({}); else list it under `unused: procedures:` in \
                     ruleset.yaml with why it is kept",
                    c.origin.file.name()
                ),
                None => "a procedure the rules mean to use is called where the seed asks it; one a player calls \
                         has a contract with `entry: true`; else remove it, or list it under \
                         `unused: procedures:` in ruleset.yaml with why it is kept"
                    .to_string(),
            };
            self.warn(message, def.file.file, (def.offset, def.name.len()).into(), "nothing calls it", help);
        }
    }

    /// Markers the vocabulary declares that nothing reads.
    fn markers(&mut self, reads: &Reads) {
        let names: Vec<String> = self.rs.vocabulary.marker_kinds.keys().cloned().collect();
        for name in names {
            if reads.reads(&name) || KERNEL_MARKERS.contains(&name.as_str()) || self.kept(UnusedKind::Marker, &name) {
                continue;
            }
            let writers = self.writers(&name);
            let Some((file, span)) = self.declared("markers", &name) else { continue };
            let message = format!("marker `{name}` is read by no procedure, modifier or condition{writers}");
            let help =
                "read it where the seed says it matters (`unit.has_marker(\"NAME\")`, `unit.marker(\"NAME\")`), \
                        or list it under `unused: markers:` in ruleset.yaml with why it is kept"
                    .replace("NAME", &name);
            self.warn(message, &file, span, "nothing reads it", help);
        }
    }

    /// `: Lively, Telling of Fire Results set it` — the table results that write a marker.
    fn writers(&self, marker: &str) -> String {
        let mut writers: Vec<String> = Vec::new();
        for table in self.rs.tables.values() {
            for id in &table.result_order {
                let Some(result) = table.results.get(id) else { continue };
                if result.effects.markers.contains_key(marker) {
                    writers.push(format!("result `{id}` of `{}`", table.id));
                }
            }
        }
        match writers.len() {
            0 => String::new(),
            _ => format!(", though {} set{} it", writers.join(", "), if writers.len() == 1 { "s" } else { "" }),
        }
    }

    /// The properties of lookup tables (the `property` key level) and the values results
    /// give, that nothing reads.
    fn properties(&mut self, reads: &Reads) {
        let tables: Vec<_> = self.rs.tables.values().cloned().collect();
        for table in tables {
            let Some(file) = table.file.clone() else { continue };
            let mut names: BTreeSet<String> = BTreeSet::new();
            if let TableBody::Lookup { keys, values } = &table.body
                && let Some(depth) = keys.iter().position(|k| k == PROPERTY_KEY)
            {
                words_at(values, depth, &mut names);
            }
            let valued: BTreeSet<String> = table.results.values().flat_map(|r| r.values.keys().cloned()).collect();
            for name in names.iter().chain(&valued) {
                let entry = format!("{}.{name}", table.id);
                if reads.reads(name) || self.kept(UnusedKind::Property, &entry) {
                    continue;
                }
                let what = if valued.contains(name) { "value" } else { "property" };
                let span = key_at(file.inner(), name).map_or((0, 0).into(), |at| (at, name.len()).into());
                let message = format!("{what} `{name}` of table `{}` is read by no procedure or condition", table.id);
                let help = format!(
                    "read it where the seed says it matters, or list `{entry}` under `unused: properties:` in \
                     ruleset.yaml with why it is kept"
                );
                self.warn(message, &file, span, "nothing reads it", help);
            }
        }
    }

    /// The ruleset's own unit fields, and the properties its vocabulary lists words for, that
    /// nothing reads.
    fn unit_fields(&mut self, reads: &Reads) {
        let own: Vec<String> = self.rs.vocabulary.unit_fields.keys().cloned().collect();
        for name in own {
            if reads.reads(&name) || self.kept(UnusedKind::UnitField, &name) {
                continue;
            }
            let Some((file, span)) = self.declared("unit_fields", &name) else { continue };
            let message = format!("unit field `{name}` is read by no procedure or condition");
            self.warn(message, &file, span, "nothing reads it", unit_field_help(&name));
        }
        for (property, list) in VOCABULARY_PROPERTIES {
            let listed = self.rs.vocabulary.field(list).is_some_and(|words| !words.is_empty());
            if !listed || reads.reads(property) || self.kept(UnusedKind::UnitField, property) {
                continue;
            }
            let Some((file, span)) = self.declared("vocabulary", list) else { continue };
            let message = format!(
                "the vocabulary lists {list}, and no procedure or condition reads a unit's `{property}`: a unit's \
                 {property} changes no result"
            );
            self.warn(message, &file, span, "nothing reads it", unit_field_help(property));
        }
    }

    /// Where the top layer that writes it declares `name` under the top-level `section` of its
    /// ruleset.yaml.
    fn declared(&self, section: &str, name: &str) -> Option<(SourceFile, SourceSpan)> {
        self.rs.layers.iter().rev().find_map(|layer| {
            let text = layer.manifest.inner();
            let at = declared_at(text, section, name)?;
            Some((layer.manifest.clone(), (at, name.len()).into()))
        })
    }

    /// `unused:` entries that name nothing (an error) or something read after all (a warning).
    fn stale_entries(&mut self, files: &[LayerFile]) {
        let entries: Vec<_> = self.rs.unused.iter().map(|(k, e)| (k.clone(), e.clone())).collect();
        for ((kind, name), entry) in entries {
            if self.justified.contains(&(kind, name.clone())) {
                continue;
            }
            let known = self.known(kind, files);
            let head = format!("`unused: {}: {name}`", kind.key());
            // A lower layer's entry may be read by an overlay above it: that is the overlay's
            // rule, and the entry stays true of the layer that wrote it.
            let own_layer = self.rs.layers.last().is_some_and(|l| l.manifest.name() == entry.written.file.name());
            if known.contains(&name) && !own_layer {
                continue;
            }
            if !known.contains(&name) {
                let hint = did_you_mean(&name, known.iter().map(String::as_str));
                let message = format!("{head} names no {} of this ruleset{hint}", singular(kind));
                self.problems.push(
                    Problem::error(CODE, message, &entry.written.file, entry.written.span)
                        .with_label("no such thing")
                        .with_help(format!("`unused: {}:` lists {}", kind.key(), listed(kind))),
                );
                continue;
            }
            let message = format!("{head} is read or called after all: the entry says it is kept unread");
            self.warn(
                message,
                &entry.written.file,
                entry.written.span,
                "read after all",
                "remove the entry: what it keeps is read".to_string(),
            );
        }
    }

    /// Every name of `kind` the ruleset has.
    fn known(&self, kind: UnusedKind, files: &[LayerFile]) -> BTreeSet<String> {
        let rs = self.rs;
        match kind {
            UnusedKind::Marker => rs.vocabulary.marker_kinds.keys().cloned().collect(),
            UnusedKind::Procedure => {
                files.iter().flat_map(|f| f.ast.iter_functions().map(|d| d.name.to_string())).collect()
            }
            UnusedKind::Property => {
                let mut names = BTreeSet::new();
                for table in rs.tables.values() {
                    let mut words = BTreeSet::new();
                    if let TableBody::Lookup { keys, values } = &table.body
                        && let Some(depth) = keys.iter().position(|k| k == PROPERTY_KEY)
                    {
                        words_at(values, depth, &mut words);
                    }
                    words.extend(table.results.values().flat_map(|r| r.values.keys().cloned()));
                    names.extend(words.into_iter().map(|w| format!("{}.{w}", table.id)));
                }
                names
            }
            UnusedKind::UnitField => rs
                .vocabulary
                .unit_fields
                .keys()
                .cloned()
                .chain(VOCABULARY_PROPERTIES.iter().map(|(p, _)| p.to_string()))
                .collect(),
        }
    }
}

fn unit_field_help(name: &str) -> String {
    format!(
        "read it where the seed says it matters (`unit.{name}`), or list it under `unused: unit_fields:` in \
         ruleset.yaml with why it is kept"
    )
}

fn singular(kind: UnusedKind) -> &'static str {
    match kind {
        UnusedKind::Marker => "marker",
        UnusedKind::Procedure => "procedure",
        UnusedKind::Property => "table property",
        UnusedKind::UnitField => "unit field",
    }
}

fn listed(kind: UnusedKind) -> &'static str {
    match kind {
        UnusedKind::Marker => "markers the vocabulary declares",
        UnusedKind::Procedure => "functions of procedures/",
        UnusedKind::Property => "a table's properties and its results' values as TABLE.NAME",
        UnusedKind::UnitField => "the ruleset's unit fields, and arm, type, grade, formation, order, nation",
    }
}

/// The keys of the maps `depth` levels down `value`.
fn words_at(value: &LookupValue, depth: usize, into: &mut BTreeSet<String>) {
    let LookupValue::Map(map) = value else { return };
    if depth == 0 {
        into.extend(map.keys().cloned());
        return;
    }
    for inner in map.values() {
        words_at(inner, depth - 1, into);
    }
}

/// Where `name` is first written as a key (`name:`) in a YAML text, outside comments.
fn key_at(text: &str, name: &str) -> Option<usize> {
    // An empty name would be found everywhere and never move on.
    if name.is_empty() {
        return None;
    }
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let code = line.split(" #").next().unwrap_or(line);
        if !code.trim_start().starts_with('#') {
            let mut from = 0;
            while let Some(found) = code[from..].find(name) {
                let at = from + found;
                from = at + name.len();
                let before = code[..at].chars().next_back();
                let after = code[at + name.len()..].trim_start_matches(['"', '\'']);
                let boundary = before.is_none_or(|c| matches!(c, ' ' | '{' | ',' | '"' | '\'' | '-'));
                if boundary && after.starts_with(':') {
                    return Some(offset + at);
                }
            }
        }
        offset += line.len();
    }
    None
}

/// Where `name` is written as a key inside the top-level section `section:` of a YAML text
/// (at any depth in it, as `vocabulary: markers:` nests).
fn declared_at(text: &str, section: &str, name: &str) -> Option<usize> {
    let mut offset = 0;
    let mut inside = false;
    let mut indent_of_section = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let blank = trimmed.trim().is_empty() || trimmed.starts_with('#');
        if !blank {
            if trimmed.starts_with(&format!("{section}:")) {
                inside = true;
                indent_of_section = indent;
                // Written in flow style on the header's own line: `markers: { spent: flag }`.
                let rest = indent + section.len() + 1;
                if let Some(at) = key_at(&line[rest..], name) {
                    return Some(offset + rest + at);
                }
            } else if inside && indent <= indent_of_section {
                inside = false;
            } else if inside && let Some(at) = key_at(line, name) {
                return Some(offset + at);
            }
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declaration_in_flow_style_is_found_on_its_sections_line() {
        let text = "vocabulary:\n  markers: { spent: flag, shaken: count }\n";
        let at = declared_at(text, "markers", "shaken").unwrap();
        assert_eq!(&text[at..at + 7], "shaken:");
    }

    #[test]
    fn an_empty_key_is_found_nowhere_and_the_search_ends() {
        assert_eq!(key_at("rows:\n  \"\": 1\n", ""), None);
    }

    #[test]
    fn a_key_is_found_where_it_is_written_not_in_a_comment_or_a_longer_name() {
        let text = "# oblique_fire: no\nfrance:\n  infantry: { no_oblique_fire: 1, oblique_fire: false }\n";
        let at = key_at(text, "oblique_fire").unwrap();
        assert_eq!(&text[at..at + 13], "oblique_fire:");
        assert_eq!(text[..at].matches('\n').count(), 2);
        assert!(text[at - 2..].starts_with(", "));
    }

    #[test]
    fn a_declaration_is_found_in_its_section_only() {
        let text = "constants:\n  retreat: 1\nvocabulary:\n  markers:\n    # retreat: x\n    retreat: word\nunused:\n  markers:\n    retreat: why\n";
        let at = declared_at(text, "vocabulary", "retreat").unwrap();
        assert!(text[..at].ends_with("  markers:\n    # retreat: x\n    "));
        let at = declared_at(text, "unused", "retreat").unwrap();
        assert!(text[..at].ends_with("unused:\n  markers:\n    "));
    }
}
