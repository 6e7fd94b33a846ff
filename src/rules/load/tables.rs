//! Tables: each file read into a new table or a patch of a base layer's, then checked whole.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use miette::SourceSpan;
use serde_saphyr::Spanned;

use super::{Loader, missing_source, stem};
use crate::dice::{DiceConventions, parse_with};
use crate::rules::band::Band;
use crate::rules::problem::did_you_mean;
use crate::rules::problem::{Problem, SourceFile};
use crate::rules::ruleset::Ruleset;
use crate::rules::source::Source;
use crate::rules::table::{Edge, LookupValue, ResultDef, Table, TableBody, TableFile, TableResult};
use crate::rules::yaml::{self, span_of};

/// Builds one table from its file, pushing every problem found.
pub(super) struct TableBuilder<'a> {
    pub(super) loader: &'a mut Loader,
    pub(super) file: &'a SourceFile,
    pub(super) dice: DiceConventions,
    /// Where each band was written: (row label, or none for a bands table; band text).
    pub(super) spans: HashMap<(Option<String>, String), SourceSpan>,
    /// The source of rows written by an overlay's patch.
    pub(super) row_source: Option<Source>,
}

/// Overlays `patch` onto `base`, mapping by mapping.
pub(super) fn merge(base: LookupValue, patch: LookupValue) -> LookupValue {
    match (base, patch) {
        (LookupValue::Map(mut b), LookupValue::Map(p)) => {
            for (k, v) in p {
                let merged = match b.remove(&k) {
                    Some(old) => merge(old, v),
                    None => v,
                };
                b.insert(k, merged);
            }
            LookupValue::Map(b)
        }
        (_, p) => p,
    }
}

/// The path of the first entry not nested exactly `depth` mappings deep.
pub(super) fn wrong_depth(value: &LookupValue, depth: usize, path: &mut Vec<String>) -> Option<String> {
    match (value, depth) {
        (LookupValue::Map(_), 0) => Some(path.join(".")),
        (LookupValue::Map(m), _) => {
            for (k, v) in m {
                path.push(k.clone());
                if let Some(found) = wrong_depth(v, depth - 1, path) {
                    return Some(found);
                }
                path.pop();
            }
            None
        }
        (_, 0) => None,
        _ => Some(if path.is_empty() { "the top".to_string() } else { path.join(".") }),
    }
}

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
            if let Some(target) = &parsed.patch {
                match rs.tables.get(&target.value).cloned() {
                    Some(base) => {
                        if let Some(table) = TableBuilder::new(self, &file, rs.dice.clone()).patch(base, parsed) {
                            rs.tables.insert(table.id.to_string(), table);
                        }
                    }
                    None => {
                        let known: Vec<&str> = rs.tables.keys().map(String::as_str).collect();
                        let hint = did_you_mean(&target.value, known.iter().copied());
                        self.problems.push(
                            Problem::error(
                                "rules::unknown_table",
                                format!("there is no table `{}` to patch{hint}", target.value),
                                &file,
                                span_of(&file, target),
                            )
                            .with_label("no such table"),
                        );
                    }
                }
                continue;
            }
            if let Some(table) = TableBuilder::new(self, &file, rs.dice.clone()).build(&stem, parsed) {
                rs.tables.insert(table.id.to_string(), table);
            }
        }
    }
}

impl<'a> TableBuilder<'a> {
    fn new(loader: &'a mut Loader, file: &'a SourceFile, dice: DiceConventions) -> Self {
        TableBuilder { loader, file, dice, spans: HashMap::new(), row_source: None }
    }

    pub(super) fn push(&mut self, problem: Problem) {
        self.loader.problems.push(problem);
    }

    pub(super) fn error(&mut self, code: &'static str, message: String, span: SourceSpan, label: &str) {
        let problem = Problem::error(code, message, self.file, span).with_label(label);
        self.push(problem);
    }

    pub(super) fn band(&mut self, text: &Spanned<String>) -> Option<Band> {
        match Band::parse(&text.value) {
            Ok(band) => Some(band),
            Err(err) => {
                let problem = Problem::within(self.file, "rules::band", span_of(self.file, text), &err);
                self.push(problem);
                None
            }
        }
    }

    fn build(mut self, stem: &str, t: TableFile) -> Option<Table> {
        let printed_by_column = t.column_key.is_some();
        let t = self.by_rows(t)?;
        let id = self.loader.file_id(self.file, stem, t.id.as_ref());
        // A missing title or source is reported, and the table still checked.
        let title = t.title.clone().unwrap_or_else(|| {
            self.error("rules::missing_title", format!("table `{id}` has no title"), (0, 0).into(), "");
            id.clone()
        });
        let source = t.source.clone().unwrap_or_else(|| {
            let problem = missing_source(self.file, &format!("table `{id}`"));
            self.push(problem);
            Source::House
        });
        let mut table = Table {
            id: id.into(),
            title,
            source,
            roll: None,
            reach: None,
            below: Edge::Error,
            above: Edge::Error,
            body: TableBody::Bands(Vec::new()),
            results: BTreeMap::new(),
            result_order: Vec::new(),
            notes: Vec::new(),
            file: Some(self.file.clone()),
            printed_by_column,
        };
        let bodies = [t.bands.is_some(), t.rows.is_some() || t.columns.is_some(), t.values.is_some()];
        match bodies.iter().filter(|b| **b).count() {
            1 => {}
            0 => {
                let message =
                    format!("table `{}` has no body: give `bands`, `rows` with `columns`, or `values`", table.id);
                self.error("rules::table_body", message, (0, 0).into(), "");
                return None;
            }
            _ => {
                let message = format!("table `{}` gives more than one of `bands`, `rows` and `values`", table.id);
                self.error("rules::table_body", message, (0, 0).into(), "");
                return None;
            }
        }
        self.fill(&mut table, t);
        Some(table)
    }

    /// A grid written with a column per key (`column_key`) turned round into one with a row per
    /// key, as every grid is read; cells keep their places in the file for the problems found.
    fn by_rows(&mut self, mut t: TableFile) -> Option<TableFile> {
        let Some(key) = t.column_key.take() else { return Some(t) };
        if t.row_key.is_some() {
            let message = "a grid has a `row_key` or a `column_key`, not both".to_string();
            self.error("rules::table_body", message, (0, 0).into(), "");
            return None;
        }
        let (Some(columns), Some(rows)) = (t.columns.take(), t.rows.take()) else {
            let message = format!("a grid keyed by column (`column_key: {key}`) needs `columns` and `rows`");
            self.error("rules::table_body", message, (0, 0).into(), "");
            return None;
        };
        let mut wrong = false;
        for (label, cells) in &rows.0 {
            if cells.len() != columns.len() {
                let s = if cells.len() == 1 { "" } else { "s" };
                let message = format!(
                    "row `{}` has {} cell{s} for {} columns (one band per `{key}`)",
                    label.value,
                    cells.len(),
                    columns.len()
                );
                self.error("rules::row_length", message, span_of(self.file, label), "this row");
                wrong = true;
            }
        }
        if wrong {
            return None;
        }
        // Each printed column becomes a row; each printed row (a result) a column.
        let results: Vec<Spanned<String>> = rows.0.iter().map(|(label, _)| label.clone()).collect();
        let turned = columns
            .into_iter()
            .enumerate()
            .map(|(i, column)| (column, rows.0.iter().map(|(_, cells)| cells[i].clone()).collect()))
            .collect();
        t.row_key = Some(key);
        t.columns = Some(results);
        t.rows = Some(crate::rules::yaml::Entries(turned));
        Some(t)
    }

    /// An overlay's patch: rows, bands, results and values replace those of the same name.
    fn patch(mut self, mut table: Table, t: TableFile) -> Option<Table> {
        let t = self.by_rows(t)?;
        // The table keeps its own source; the rows a patch writes carry the patch's.
        let Some(source) = t.source.clone() else {
            let problem = missing_source(self.file, &format!("the patch of table `{}`", table.id));
            self.push(problem);
            return None;
        };
        if let Some(title) = t.title.clone() {
            table.title = title;
        }
        self.row_source = Some(source.clone());
        let changed: Vec<String> = t.rows.iter().flat_map(|r| r.0.iter().map(|(l, _)| l.value.clone())).collect();
        if !changed.is_empty() {
            table.notes.push(format!("rows {} changed by {} ({source})", changed.join(", "), self.file.name()));
        }
        self.fill(&mut table, t);
        Some(table)
    }

    /// Reads the parts a file gives into `table` (new or patched), then checks it whole.
    fn fill(&mut self, table: &mut Table, t: TableFile) {
        table.notes.extend(t.notes.iter().map(|n| n.trim().to_string()));
        if let Some(below) = t.below {
            table.below = below;
        }
        if let Some(above) = t.above {
            table.above = above;
        }
        // A patch that says no roll or reach keeps the table's.
        let mut reach: Option<(i64, i64)> = table.reach;
        if let Some(roll) = &t.roll {
            match parse_with(&roll.value, &self.dice, &Default::default()) {
                Ok(expr) => {
                    reach = Some((expr.left.min(), expr.left.max()));
                    table.roll = Some(expr.to_string());
                }
                Err(err) => {
                    let problem = Problem::within(self.file, "rules::roll", span_of(self.file, roll), &err);
                    self.push(problem);
                }
            }
        }
        if let Some(text) = &t.reach
            && let Some(band) = self.band(text)
        {
            reach = Some((band.min().unwrap_or(i64::MIN), band.max().unwrap_or(i64::MAX)));
        }
        for (id, def) in &t.results.0 {
            let ResultDef { text, effects, source, values } = def.clone();
            // A result a patch writes is the patch's unless it says otherwise.
            let source = source.or_else(|| self.row_source.clone()).unwrap_or_else(|| table.source.clone());
            if !table.result_order.contains(&id.value) {
                table.result_order.push(id.value.clone());
            }
            let text = text.trim().to_string();
            let result = TableResult { id: id.value.clone(), text, effects, source, values };
            table.results.insert(id.value.clone(), Arc::new(result));
        }
        let mut used: Vec<&Spanned<String>> = Vec::new();
        if let Some(bands) = &t.bands {
            let mut rows: Vec<(Band, String)> = match &table.body {
                TableBody::Bands(existing) => existing.clone(),
                _ => Vec::new(),
            };
            // Where each band is among the rows: looking each one up by scanning
            // the rows would take minutes for a table of many thousands of bands.
            let mut index: HashMap<Band, usize> = rows.iter().enumerate().map(|(i, (b, _))| (b.clone(), i)).collect();
            for (band_text, result) in &bands.0 {
                if let Some(band) = self.band(band_text) {
                    self.spans.insert((None, band.to_string()), span_of(self.file, band_text));
                    used.push(result);
                    let written = index.get(&band).copied();
                    if let (Some(_), None) = (written, &self.row_source) {
                        // Outside a patch, the same band twice is a mistake, not a change.
                        let message = format!("table `{}` has the band `{band}` twice", table.id);
                        self.error("rules::band_overlap", message, span_of(self.file, band_text), "written again here");
                        continue;
                    }
                    match written {
                        Some(i) => rows[i].1 = result.value.clone(),
                        None => {
                            index.insert(band.clone(), rows.len());
                            rows.push((band, result.value.clone()));
                        }
                    }
                }
            }
            table.body = TableBody::Bands(rows);
        }
        if t.rows.is_some() || t.columns.is_some() {
            self.grid(table, &t);
        }
        if let Some(values) = &t.values {
            self.lookup(table, &t, values);
        }
        for result in used {
            if !table.results.contains_key(&result.value) {
                let hint = did_you_mean(&result.value, table.results.keys().map(String::as_str));
                let message = format!(
                    "table `{}` reads a result `{}` that its `results` do not define{hint}",
                    table.id, result.value
                );
                self.error("rules::unknown_result", message, span_of(self.file, result), "no such result");
            }
        }
        table.reach = reach;
        self.check_values(table, &t);
        self.check_coverage(table, reach);
    }

    /// Every result of a table gives the same values: a procedure reading `fire_points` must
    /// find it on whichever result the dice give, and a name misspelt on one result is caught.
    fn check_values(&mut self, table: &Table, t: &TableFile) {
        let span_of_result = |id: &str| {
            t.results.0.iter().find(|(written, _)| written.value == id).map(|(written, _)| span_of(self.file, written))
        };
        let names: std::collections::BTreeSet<&String> = table.results.values().flat_map(|r| r.values.keys()).collect();
        let total = table.results.len();
        let mut problems = Vec::new();
        for name in names.iter().copied() {
            let holders: Vec<&Arc<TableResult>> =
                table.results.values().filter(|r| r.values.contains_key(name)).collect();
            if holders.len() == total {
                continue;
            }
            if holders.len() == 1 && total > 2 {
                // One result alone gives it: a misspelling there, most likely.
                let result = holders[0];
                let others = names.iter().filter(|n| **n != name).map(|n| n.as_str());
                let hint = did_you_mean(name, others);
                let message = format!(
                    "result `{}` of table `{}` gives a value `{name}` that no other result gives{hint}",
                    result.id, table.id
                );
                problems.push(self.at(span_of_result(&result.id), "rules::result_values", message, "this result"));
                continue;
            }
            for result in table.results.values().filter(|r| !r.values.contains_key(name)) {
                let message = format!(
                    "result `{}` of table `{}` gives no value `{name}`, which other results give",
                    result.id, table.id
                );
                problems.push(self.at(span_of_result(&result.id), "rules::result_values", message, "this result"));
            }
        }
        for problem in problems {
            self.push(problem);
        }
    }

    /// A problem at `span` in this file when known (a patched table may not know it), else a general one.
    pub(super) fn at(&self, span: Option<SourceSpan>, code: &'static str, message: String, label: &str) -> Problem {
        match span {
            Some(span) => Problem::error(code, message, self.file, span).with_label(label),
            None => Problem::general(code, message),
        }
    }
}
