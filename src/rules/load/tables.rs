//! Tables: each file read into a new table or a patch of a base layer's, then checked whole.

use std::path::Path;

use serde_saphyr::Spanned;

use super::{Loader, stem};
use crate::rules::problem::did_you_mean;
use crate::rules::problem::{Problem, SourceFile};
use crate::rules::ruleset::Ruleset;
use crate::rules::switched_table::{MAX_GATES, PatchGate, SwitchedTable};
use crate::rules::table::TableFile;
use crate::rules::yaml::{self, span_of};

use super::table_builder::TableBuilder;

impl Loader {
    pub(super) fn tables(&mut self, rs: &mut Ruleset, folder: &Path) {
        for path in self.yaml_files(folder, "tables", "yaml") {
            let Some(file) = self.read(folder, &path) else {
                continue;
            };
            let parsed = match yaml::parse::<TableFile>(&file) {
                Ok(t) => t,
                Err(p) => {
                    self.problems.push(*p);
                    continue;
                }
            };
            let stem = stem(&path);
            if let Some(target) = parsed.patch.clone() {
                if !rs.tables.contains_key(&target.value) {
                    let known: Vec<&str> = rs.tables.keys().map(String::as_str).collect();
                    let hint = did_you_mean(&target.value, known.iter().copied());
                    self.problems.push(
                        Problem::error(
                            "rules::unknown_table",
                            format!("there is no table `{}` to patch{hint}", target.value),
                            &file,
                            span_of(&file, &target),
                        )
                        .with_label("no such table"),
                    );
                    continue;
                }
                match self.patch_gate(rs, &file, &parsed) {
                    Some(Some(gate)) => self.switched_patch(rs, &file, &target, gate, parsed),
                    Some(None) => self.patch_every_way(rs, &file, &target.value, parsed),
                    None => {}
                }
                continue;
            }
            if parsed.option.is_some() || !parsed.interpretation.0.is_empty() {
                let message = "only a patch depends on an option or interpretation; a table of its own is always there"
                    .to_string();
                self.problems.push(Problem::error("rules::patch", message, &file, (0, 0).into()).with_help(
                    "write `patch: ID` to change a table under an option; for a procedure that reads another table \
                     under an option, test `option(\"x\")` in the procedure",
                ));
                continue;
            }
            if let Some(mut table) = TableBuilder::new(self, &file, rs.dice.clone()).build(&stem, parsed) {
                // A table written whole replaces the one of its id, every way it read.
                table.replaces_below = rs.tables.contains_key(table.id.as_ref());
                rs.switched_tables.remove(table.id.as_ref());
                rs.tables.insert(table.id.to_string(), table);
            }
        }
    }

    /// What a patch applies under (`Some(None)`: always), or `None` when it names an option or
    /// interpretation the ruleset does not have (reported).
    fn patch_gate(&mut self, rs: &Ruleset, file: &SourceFile, t: &TableFile) -> Option<Option<PatchGate>> {
        if t.option.is_none() && t.interpretation.0.is_empty() {
            return Some(None);
        }
        let mut known = true;
        if let Some(option) = &t.option
            && !rs.options.contains_key(&option.value)
        {
            let hint = did_you_mean(&option.value, rs.options.keys().map(String::as_str));
            let message = format!("the patch depends on option `{}`, which does not exist{hint}", option.value);
            self.problems.push(
                Problem::error("rules::unknown_option", message, file, span_of(file, option))
                    .with_label("no such option")
                    .with_help("an option is declared under `options:` in ruleset.yaml, in this layer or below"),
            );
            known = false;
        }
        let mut interpretation = Vec::new();
        for (name, choices) in &t.interpretation.0 {
            let Some(info) = rs.interpretations.get(&name.value) else {
                let hint = did_you_mean(&name.value, rs.interpretations.keys().map(String::as_str));
                let message = format!("there is no interpretation `{}`{hint}", name.value);
                self.problems.push(
                    Problem::error("rules::unknown_interpretation", message, file, span_of(file, name))
                        .with_label("no such interpretation"),
                );
                known = false;
                continue;
            };
            let words = choices.clone().into_words();
            for word in &words {
                if !info.choices.iter().any(|(c, _)| c == word) {
                    let all: Vec<&str> = info.choices.iter().map(|(c, _)| c.as_str()).collect();
                    let hint = did_you_mean(word, all.iter().copied());
                    let message = format!(
                        "interpretation `{}` has no choice `{word}`{hint}; its choices are {}",
                        name.value,
                        all.join(", ")
                    );
                    self.problems.push(
                        Problem::error("rules::unknown_interpretation", message, file, span_of(file, name))
                            .with_label("for this interpretation"),
                    );
                    known = false;
                }
            }
            interpretation.push((name.value.clone(), words));
        }
        known.then(|| Some(PatchGate { option: t.option.as_ref().map(|o| o.value.clone()), interpretation }))
    }

    /// A patch that always applies: to the table, and to every way a switched patch made it read.
    fn patch_every_way(&mut self, rs: &mut Ruleset, file: &SourceFile, id: &str, parsed: TableFile) {
        let Some(mut switched) = rs.switched_tables.remove(id) else {
            let base = rs.tables[id].clone();
            if let Some(table) = TableBuilder::new(self, file, rs.dice.clone()).patch(base, parsed, None) {
                rs.tables.insert(table.id.to_string(), table);
            }
            return;
        };
        let mut variants = Vec::new();
        for (when, table) in std::mem::take(&mut switched.variants) {
            if let Some(patched) =
                self.once(|l| TableBuilder::new(l, file, rs.dice.clone()).patch(table, parsed.clone(), None))
            {
                variants.push((when, patched));
            }
        }
        if !variants.is_empty() {
            switched.variants = variants;
            rs.tables.insert(id.to_string(), switched.select(&rs.settings).clone());
            rs.switched_tables.insert(id.to_string(), switched);
        }
    }

    /// A patch under an option or interpretation: every way the table read so far is kept as it
    /// is (the gate closed) and patched (the gate open).
    fn switched_patch(
        &mut self,
        rs: &mut Ruleset,
        file: &SourceFile,
        target: &Spanned<String>,
        gate: PatchGate,
        parsed: TableFile,
    ) {
        let id = target.value.as_str();
        let mut switched = rs.switched_tables.remove(id).unwrap_or_else(|| SwitchedTable::new(rs.tables[id].clone()));
        if switched.gates.len() == MAX_GATES {
            let message = format!(
                "table `{id}` has {MAX_GATES} patches under options or interpretations already; this would be one more"
            );
            self.problems.push(
                Problem::error("rules::patch", message, file, span_of(file, target))
                    .with_help("join patches that depend on the same switches into one file"),
            );
            rs.switched_tables.insert(id.to_string(), switched);
            return;
        }
        let mut variants = Vec::new();
        for (when, table) in std::mem::take(&mut switched.variants) {
            let patched = self.once(|l| {
                TableBuilder::new(l, file, rs.dice.clone()).patch(table.clone(), parsed.clone(), Some(&gate))
            });
            let mut closed = when.clone();
            closed.push(false);
            variants.push((closed, table));
            if let Some(patched) = patched {
                let mut open = when;
                open.push(true);
                variants.push((open, patched));
            }
        }
        switched.gates.push(gate);
        switched.variants = variants;
        rs.tables.insert(id.to_string(), switched.select(&rs.settings).clone());
        rs.switched_tables.insert(id.to_string(), switched);
    }

    /// Runs `build`, keeping only the problems it finds that are not found already: a patch
    /// applied to each way a table reads reports each mistake in it once.
    fn once<T>(&mut self, build: impl FnOnce(&mut Loader) -> T) -> T {
        let before = self.problems.len();
        let out = build(self);
        let fresh = self.problems.split_off(before);
        for problem in fresh {
            let seen = self
                .problems
                .iter()
                .any(|p| p.code == problem.code && p.message == problem.message && p.place() == problem.place());
            if !seen {
                self.problems.push(problem);
            }
        }
        out
    }
}
