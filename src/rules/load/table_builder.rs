//! `TableBuilder`: one table built from its file, or a base table patched by an overlay's, every cell checked and every problem found pushed.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use miette::SourceSpan;
use serde_saphyr::Spanned;

use super::{Loader, missing_source};
use crate::dice::{DiceConventions, parse_with};
use crate::rules::band::Band;
use crate::rules::problem::did_you_mean;
use crate::rules::problem::{Problem, SourceFile};
use crate::rules::source::Source;
use crate::rules::switched_table::PatchGate;
use crate::rules::table::{Edge, LookupValue, ResultDef, Table, TableBody, TableFile, TableResult};
use crate::rules::yaml::span_of;

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

impl<'a> TableBuilder<'a> {
    pub(super) fn new(loader: &'a mut Loader, file: &'a SourceFile, dice: DiceConventions) -> Self {
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

    pub(super) fn build(mut self, stem: &str, t: TableFile) -> Option<Table> {
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
            band_sources: BTreeMap::new(),
            replaces_below: false,
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
        let mut full = Vec::with_capacity(rows.0.len());
        for (label, cells) in rows.0 {
            let Some(cells) = cells else {
                let message = format!(
                    "`{}: ~` would remove a row of a grid printed with a column per `{key}`; give the table whole instead",
                    label.value
                );
                self.error("rules::patch", message, span_of(self.file, &label), "this row");
                wrong = true;
                continue;
            };
            full.push((label, cells));
        }
        for (label, cells) in &full {
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
        let results: Vec<Spanned<String>> = full.iter().map(|(label, _)| label.clone()).collect();
        let turned = columns
            .into_iter()
            .enumerate()
            .map(|(i, column)| (column, Some(full.iter().map(|(_, cells)| cells[i].clone()).collect())))
            .collect();
        t.row_key = Some(key);
        t.columns = Some(results);
        t.rows = Some(crate::rules::yaml::Entries(turned));
        Some(t)
    }

    /// An overlay's patch: rows, bands, results and values replace those of the same name.
    pub(super) fn patch(mut self, mut table: Table, t: TableFile, gate: Option<&PatchGate>) -> Option<Table> {
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
        table.notes.extend(self.patch_notes(&t, &source, gate));
        self.fill(&mut table, t);
        Some(table)
    }

    /// What a patch changes, as notes under its table: rows changed or removed, bands written or
    /// removed, results removed, and under which switch.
    fn patch_notes(&self, t: &TableFile, source: &Source, gate: Option<&PatchGate>) -> Vec<String> {
        let mut notes = Vec::new();
        let when = gate.map(|g| format!(" while {g}")).unwrap_or_default();
        let rows_written = t.rows.iter().flat_map(|r| &r.0);
        let (changed, removed): (Vec<_>, Vec<_>) = rows_written.partition(|(_, cells)| cells.is_some());
        let labels = |rows: Vec<&(Spanned<String>, _)>| rows.iter().map(|(l, _)| l.value.clone()).collect::<Vec<_>>();
        let (changed, removed) = (labels(changed), labels(removed));
        if !changed.is_empty() {
            notes.push(format!("rows {} changed by {} ({source}){when}", changed.join(", "), self.file.name()));
        }
        if !removed.is_empty() {
            notes.push(format!("rows {} removed by {} ({source}){when}", removed.join(", "), self.file.name()));
        }
        let bands_written = t.bands.iter().flat_map(|b| &b.0);
        let (bands_changed, bands_removed): (Vec<_>, Vec<_>) = bands_written.partition(|(_, r)| r.is_some());
        let texts = |bands: Vec<&(Spanned<String>, _)>| bands.iter().map(|(b, _)| b.value.clone()).collect::<Vec<_>>();
        let file = self.file.name();
        for (bands, done) in [(texts(bands_changed), "written"), (texts(bands_removed), "removed")] {
            if !bands.is_empty() {
                let word = if bands.len() == 1 { "band" } else { "bands" };
                notes.push(format!("{word} {} {done} by {file} ({source}){when}", bands.join(", ")));
            }
        }
        let results_removed: Vec<String> =
            t.results.0.iter().filter(|(_, def)| def.is_none()).map(|(id, _)| id.value.clone()).collect();
        if !results_removed.is_empty() {
            let word = if results_removed.len() == 1 { "result" } else { "results" };
            notes.push(format!("{word} {} removed by {file} ({source}){when}", results_removed.join(", ")));
        }
        let noted = !(changed.is_empty() && removed.is_empty() && t.bands.is_none() && results_removed.is_empty());
        if !noted && gate.is_some() {
            notes.push(format!("changed by {} ({source}){when}", self.file.name()));
        }
        notes
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
        let mut removed_results = Vec::new();
        for (id, def) in &t.results.0 {
            let Some(def) = def else {
                if self.removes(id, "result", table.results.contains_key(&id.value), table.results.keys()) {
                    table.results.remove(&id.value);
                    table.result_order.retain(|r| *r != id.value);
                    removed_results.push(id);
                }
                continue;
            };
            let ResultDef { text, effects, source, values, next } = def.clone();
            // A result a patch writes is the patch's unless it says otherwise.
            let source = source.or_else(|| self.row_source.clone()).unwrap_or_else(|| table.source.clone());
            if !table.result_order.contains(&id.value) {
                table.result_order.push(id.value.clone());
            }
            let text = text.trim().to_string();
            let next = next.map(|n| n.trim().to_string());
            let result = TableResult { id: id.value.clone(), text, effects, source, values, next };
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
                    let Some(result) = result else {
                        let printed: Vec<String> = rows.iter().map(|(b, _)| b.to_string()).collect();
                        if self.removes(band_text, "band", index.contains_key(&band), printed.iter()) {
                            rows.retain(|(b, _)| *b != band);
                            index = rows.iter().enumerate().map(|(i, (b, _))| (b.clone(), i)).collect();
                        }
                        continue;
                    };
                    self.spans.insert((None, band.to_string()), span_of(self.file, band_text));
                    used.push(result);
                    let written = index.get(&band).copied();
                    if written.is_none() && self.row_source.is_some() {
                        // A patch's new band takes its totals from the bands it overlaps.
                        if self.narrow(table, &mut rows, &band) {
                            index = rows.iter().enumerate().map(|(i, (b, _))| (b.clone(), i)).collect();
                        }
                    }
                    if let (Some(_), None) = (written, &self.row_source) {
                        // Outside a patch, the same band twice is a mistake, not a change.
                        let message = format!("table `{}` has the band `{band}` twice", table.id);
                        self.error("rules::band_overlap", message, span_of(self.file, band_text), "written again here");
                        continue;
                    }
                    match written {
                        Some(i) => rows[i].1 = result.value.clone(),
                        // A patch's new band goes where its totals fall among the bands.
                        None if self.row_source.is_some() => {
                            // In the table's own order: many charts print the highest band first.
                            let descending = match (rows.first(), rows.last()) {
                                (Some((first, _)), Some((last, _))) => first.min() > last.min(),
                                _ => false,
                            };
                            let after = |b: &Band| if descending { b.min() < band.min() } else { b.min() > band.min() };
                            let at = rows.iter().position(|(b, _)| after(b)).unwrap_or(rows.len());
                            rows.insert(at, (band, result.value.clone()));
                            index = rows.iter().enumerate().map(|(i, (b, _))| (b.clone(), i)).collect();
                        }
                        None => {
                            index.insert(band.clone(), rows.len());
                            rows.push((band, result.value.clone()));
                        }
                    }
                }
            }
            // Each band a patch wrote, and each it narrowed, reads as the patch's.
            if let Some(source) = &self.row_source {
                let before: std::collections::HashSet<Band> = match &table.body {
                    TableBody::Bands(old) => old.iter().map(|(b, _)| b.clone()).collect(),
                    _ => Default::default(),
                };
                let written: std::collections::HashSet<Band> =
                    bands.0.iter().filter_map(|(text, _)| Band::parse(&text.value).ok()).collect();
                for (band, _) in rows.iter().filter(|(b, _)| written.contains(b) || !before.contains(b)) {
                    table.band_sources.insert(band.printed(), source.clone());
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
        for id in removed_results {
            self.still_read(table, id);
        }
        table.reach = reach;
        self.check_values(table, &t);
        self.check_coverage(table, reach);
    }

    /// Whether `what` may be removed: only by a patch, and only when the table has it. Says why not.
    pub(super) fn removes<'k>(
        &mut self,
        name: &Spanned<String>,
        what: &str,
        present: bool,
        known: impl Iterator<Item = &'k String>,
    ) -> bool {
        let at = span_of(self.file, name);
        if self.row_source.is_none() {
            let message = format!("{what} `{}` is given as `~`: only a patch removes a {what}", name.value);
            let problem = Problem::error("rules::patch", message, self.file, at)
                .with_label("no value")
                .with_help(format!("leave the {what} out of a table of its own"));
            self.push(problem);
            return false;
        }
        if !present {
            let hint = did_you_mean(&name.value, known.map(String::as_str));
            let message = format!("the patch removes {what} `{}`, which the table does not have{hint}", name.value);
            self.error("rules::patch", message, at, "not in the table");
            return false;
        }
        true
    }

    /// Narrows the bands `band` overlaps to the totals it leaves them, dropping any it covers
    /// whole; notes each change under the table. Whether any band changed.
    fn narrow(&mut self, table: &mut Table, rows: &mut Vec<(Band, String)>, band: &Band) -> bool {
        let mut changed = false;
        let mut kept = Vec::with_capacity(rows.len());
        for (old, result) in rows.drain(..) {
            if !old.intersects(band) {
                kept.push((old, result));
                continue;
            }
            changed = true;
            match old.without(band) {
                Some(narrower) => {
                    table.notes.push(format!("band {old} narrowed to {narrower} by {}", self.file.name()));
                    kept.push((narrower, result));
                }
                None => table.notes.push(format!("band {old} replaced by {band} in {}", self.file.name())),
            }
        }
        *rows = kept;
        changed
    }

    /// A removed result that a band, cell or column still reads.
    fn still_read(&mut self, table: &Table, id: &Spanned<String>) {
        let reader = match &table.body {
            TableBody::Bands(rows) => rows.iter().find(|(_, r)| *r == id.value).map(|(b, _)| format!("band {b}")),
            TableBody::Grid { columns, .. } => columns.contains(&id.value).then(|| "a column".to_string()),
            TableBody::Lookup { .. } => None,
        };
        if let Some(reader) = reader {
            let message =
                format!("the patch removes result `{}`, but {reader} of table `{}` still reads it", id.value, table.id);
            self.push(
                Problem::error("rules::patch", message, self.file, span_of(self.file, id))
                    .with_label("removed here")
                    .with_help("remove or rewrite what reads it in the same patch"),
            );
        }
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
