//! A table's coverage: a grid's rows and columns, a lookup's keys, and the gaps, overlaps,
//! unreachable bands and unstated edges of its bands.

use std::collections::HashMap;
use std::sync::Arc;

use super::table_builder::{TableBuilder, merge, wrong_depth};
use crate::rules::band::{Band, check_bands};
use crate::rules::problem::Problem;
use crate::rules::problem::did_you_mean;
use crate::rules::table::{Edge, GridRow, LookupValue, Table, TableBody, TableFile};
use crate::rules::yaml::span_of;

/// One row of bands to check: its label (none for a bands table), its bands, and each band's result.
type BandRow<'a> = (Option<&'a str>, Vec<Option<&'a Band>>, Vec<&'a str>);

impl<'a> TableBuilder<'a> {
    pub(super) fn grid(&mut self, table: &mut Table, t: &TableFile) {
        let (mut row_key, mut columns, mut rows) = match &table.body {
            TableBody::Grid { row_key, columns, rows } => (Some(row_key.clone()), columns.clone(), rows.clone()),
            _ => (None, Vec::new(), Vec::new()),
        };
        if let Some(key) = &t.row_key {
            row_key = Some(key.clone());
        }
        let Some(row_key) = row_key else {
            self.error(
                "rules::table_body",
                format!("grid `{}` has rows but no `row_key` saying what chooses a row", table.id),
                (0, 0).into(),
                "",
            );
            return;
        };
        if let Some(cols) = &t.columns {
            columns = cols.iter().map(|c| c.value.clone()).collect();
            for c in cols {
                if !table.results.contains_key(&c.value) {
                    let hint = did_you_mean(&c.value, table.results.keys().map(String::as_str));
                    self.error(
                        "rules::unknown_result",
                        format!("column `{}` of grid `{}` has no entry in `results`{hint}", c.value, table.id),
                        span_of(self.file, c),
                        "no such result",
                    );
                }
            }
        }
        // Where each row is, by label, so that a patched row is found without scanning them all.
        let mut labels: HashMap<Arc<str>, usize> = rows.iter().enumerate().map(|(i, r)| (r.label.clone(), i)).collect();
        for (label, cells) in t.rows.iter().flat_map(|r| &r.0) {
            let Some(cells) = cells else {
                let printed: Vec<String> = rows.iter().map(|r| r.label.to_string()).collect();
                if self.removes(label, "row", labels.contains_key(label.value.as_str()), printed.iter()) {
                    rows.retain(|r| *r.label != *label.value);
                    labels = rows.iter().enumerate().map(|(i, r)| (r.label.clone(), i)).collect();
                }
                continue;
            };
            // A row label is a band of the row key (`6,7`, `51+`), or a plain
            // label: a word (`excellent`) or a fraction (`1/2`).
            let plain = label.value.contains('/') || label.value.starts_with(|c: char| c.is_alphabetic());
            let band = if plain { None } else { self.band(label) };
            if cells.len() != columns.len() {
                let message = format!(
                    "row `{}` of grid `{}` has {} cells for {} columns",
                    label.value,
                    table.id,
                    cells.len(),
                    columns.len()
                );
                self.error("rules::row_length", message, span_of(self.file, label), "this row");
                continue;
            }
            let cells: Vec<Option<Band>> = cells
                .iter()
                .map(|c| {
                    let band = c.as_ref().and_then(|c| self.band(c))?;
                    let at = span_of(self.file, c.as_ref()?);
                    self.spans.insert((Some(label.value.clone()), band.to_string()), at);
                    Some(band)
                })
                .collect();
            let row = GridRow { label: label.value.as_str().into(), band, cells, source: self.row_source.clone() };
            match labels.get(&row.label).copied() {
                Some(i) => rows[i] = row,
                // A patch's new row goes where its band falls among the rows'.
                None if self.row_source.is_some() && row.band.is_some() => {
                    let min = row.band.as_ref().and_then(Band::min);
                    let at =
                        rows.iter().position(|r| r.band.as_ref().is_some_and(|b| b.min() > min)).unwrap_or(rows.len());
                    rows.insert(at, row);
                    labels = rows.iter().enumerate().map(|(i, r)| (r.label.clone(), i)).collect();
                }
                None => {
                    labels.insert(row.label.clone(), rows.len());
                    rows.push(row);
                }
            }
        }
        table.body = TableBody::Grid { row_key, columns, rows };
    }

    pub(super) fn lookup(&mut self, table: &mut Table, t: &TableFile, values: &LookupValue) {
        let (keys, merged) = match &table.body {
            TableBody::Lookup { keys, values: base } => {
                (t.keys.clone().unwrap_or_else(|| keys.clone()), merge(base.clone(), values.clone()))
            }
            _ => (t.keys.clone().unwrap_or_default(), values.clone()),
        };
        if keys.is_empty() {
            self.error(
                "rules::table_body",
                format!("lookup `{}` has `values` but no `keys` naming what they are looked up by", table.id),
                (0, 0).into(),
                "",
            );
        }
        if let Some(path) = wrong_depth(&merged, keys.len(), &mut Vec::new()) {
            let message = format!(
                "lookup `{}` is keyed by {} ({} levels), but the entry at `{}` is not",
                table.id,
                keys.join(", "),
                keys.len(),
                path
            );
            self.error("rules::lookup_depth", message, (0, 0).into(), "");
        }
        table.body = TableBody::Lookup { keys, values: merged };
    }

    /// Gaps, overlaps, unreachable bands and unstated edges.
    pub(super) fn check_coverage(&mut self, table: &Table, reach: Option<(i64, i64)>) {
        if let TableBody::Grid { rows, columns, .. } = &table.body {
            // A patch may change the columns: every row must still fit them.
            for row in rows.iter().filter(|r| r.cells.len() != columns.len()) {
                let message = format!(
                    "row `{}` of grid `{}` has {} cells for {} columns",
                    row.label,
                    table.id,
                    row.cells.len(),
                    columns.len()
                );
                self.push(Problem::general("rules::row_length", message));
            }
            // Row labels that are bands must not overlap: a row key would read two rows.
            let labels: Vec<Option<&Band>> = rows.iter().map(|r| r.band.as_ref()).collect();
            for (i, j, low, high) in check_bands(&labels, (i64::MIN, i64::MAX)).overlaps {
                let values = if low == high { format!("{low}") } else { format!("{low} to {high}") };
                let message = format!(
                    "rows `{}` and `{}` of grid `{}` both hold {} = {values}",
                    rows[i].label,
                    rows[j].label,
                    table.id,
                    match &table.body {
                        TableBody::Grid { row_key, .. } => row_key.as_str(),
                        _ => "the key",
                    }
                );
                self.push(Problem::general("rules::band_overlap", message));
            }
        }
        let full = reach.unwrap_or((i64::MIN, i64::MAX));
        let rows: Vec<BandRow<'_>> = match &table.body {
            TableBody::Bands(bands) => vec![(
                None,
                bands.iter().map(|(b, _)| Some(b)).collect(),
                bands.iter().map(|(_, r)| r.as_str()).collect(),
            )],
            TableBody::Grid { rows, columns, .. } => rows
                .iter()
                .map(|r| {
                    (
                        Some(&*r.label),
                        r.cells.iter().map(Option::as_ref).collect(),
                        columns.iter().map(String::as_str).collect(),
                    )
                })
                .collect(),
            TableBody::Lookup { .. } => Vec::new(),
        };
        for (row, bands, names) in rows {
            let at = row.map(|r| format!(" in row `{r}`")).unwrap_or_default();
            let check = check_bands(&bands, full);
            let span_of_band = |band: &Band| self.spans.get(&(row.map(str::to_string), band.to_string())).copied();
            let mut problems = Vec::new();
            // The first band ending and starting at each value, so that finding the
            // band beside each gap does not scan every band again.
            let (mut ending, mut starting) = (HashMap::new(), HashMap::new());
            for band in bands.iter().flatten() {
                if let Some(max) = band.max() {
                    ending.entry(max).or_insert(*band);
                }
                if let Some(min) = band.min() {
                    starting.entry(min).or_insert(*band);
                }
            }
            for (low, high) in check.gaps {
                let values = if low == high { format!("{low}") } else { format!("{low} to {high}") };
                let message = format!("table `{}` reads nothing for {values}{at}: no band covers it", table.id);
                // Point at the band just below the gap, or else just above it.
                let near = low
                    .checked_sub(1)
                    .and_then(|below| ending.get(&below))
                    .or_else(|| high.checked_add(1).and_then(|above| starting.get(&above)))
                    .copied();
                let label = format!("nothing covers {values} next to this band");
                problems.push(
                    self.at(near.and_then(&span_of_band), "rules::band_gap", message, &label)
                        .with_help("widen a neighbouring band or add one"),
                );
            }
            for (i, j, low, high) in check.overlaps {
                let values = if low == high { format!("{low}") } else { format!("{low} to {high}") };
                let message = format!(
                    "table `{}` reads both `{}` and `{}` for {values}{at}: bands overlap",
                    table.id,
                    names.get(i).unwrap_or(&"?"),
                    names.get(j).unwrap_or(&"?")
                );
                let label = format!("overlaps the band of `{}`", names.get(i).unwrap_or(&"?"));
                problems.push(self.at(bands[j].and_then(&span_of_band), "rules::band_overlap", message, &label));
            }
            for i in check.unreachable {
                if let Some(band) = bands[i] {
                    let (low, high) = full;
                    let message = format!(
                        "no roll can reach band `{band}` (`{}`) of table `{}`{at}: totals run from {low} to {high}",
                        names.get(i).unwrap_or(&"?"),
                        table.id
                    );
                    problems
                        .push(self.at(span_of_band(band), "rules::band_unreachable", message, "never read").warning());
                }
            }
            if let Some((low, high)) = reach {
                let lowest = bands
                    .iter()
                    .flatten()
                    .map(|b| b.min())
                    .collect::<Option<Vec<i64>>>()
                    .and_then(|v| v.into_iter().min());
                let highest = bands
                    .iter()
                    .flatten()
                    .map(|b| b.max())
                    .collect::<Option<Vec<i64>>>()
                    .and_then(|v| v.into_iter().max());
                if lowest.is_some_and(|l| low < l) && table.below == Edge::Error {
                    problems.push(Problem::general("rules::unstated_edge", format!("table `{}` can be read at {low}{at}, below its lowest band, and reads that as an error", table.id)).with_help("say what such a total reads with `below: clamp` (the nearest band) or `below: none`").warning());
                }
                if highest.is_some_and(|h| high > h) && table.above == Edge::Error {
                    problems.push(Problem::general("rules::unstated_edge", format!("table `{}` can be read at {high}{at}, above its highest band, and reads that as an error", table.id)).with_help("say what such a total reads with `above: clamp` (the nearest band) or `above: none`").warning());
                }
            }
            for problem in problems {
                self.push(problem);
            }
        }
    }
}
