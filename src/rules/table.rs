//! Tables as the printed charts read: die bands to results, a grid with a row chosen by a key, or a plain lookup.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

use super::band::Band;
use super::effects::Effects;
use super::source::Source;
use super::yaml::Entries;

/// A table file (`tables/<id>.yaml`) as written. Exactly one of `bands`,
/// `rows` (with `columns`) or `values` gives its body; an overlay's file may
/// instead `patch` a table of the ruleset it extends.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableFile {
    /// The table's id; the file name without `.yaml` when left out.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub id: Option<Spanned<String>>,
    /// For an overlay: the id of the table this file changes, cell by cell.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub patch: Option<Spanned<String>>,
    /// For a patch: it applies only while this option is on (`--with`, `:with`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub option: Option<Spanned<String>>,
    /// For a patch: it applies only under these interpretation choices: `{ name: choice }`, or
    /// `{ name: [choice, choice] }`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, super::settings::ChoicesDef>")]
    pub interpretation: Entries<Spanned<String>, super::settings::ChoicesDef>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub source: Option<Source>,
    /// The dice rolled on the table, e.g. `1d10` or `2d6`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub roll: Option<Spanned<String>>,
    /// The totals a modified roll can reach, as a band (`-6 to 16`); the
    /// roll's own range when left out. Bands outside it are reported.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub reach: Option<Spanned<String>>,
    /// What a total below the lowest printed band reads.
    #[serde(default)]
    pub below: Option<Edge>,
    /// What a total above the highest printed band reads.
    #[serde(default)]
    pub above: Option<Edge>,
    /// One row of bands, each to a result: `{ "0-4": fatal_wound, "5": wounded }`. In a patch,
    /// `~` removes a band, and a band that overlaps the table's narrows the bands it overlaps.
    #[serde(default)]
    #[schemars(with = "Option<BTreeMap<String, Option<String>>>")]
    pub bands: Option<Entries<Spanned<String>, Option<Spanned<String>>>>,
    /// What chooses the row of a grid (e.g. `fire_points`).
    #[serde(default)]
    pub row_key: Option<String>,
    /// For a grid printed the other way round, with a column per key (`commander_rating`) and
    /// a row per result: what chooses the column. Then `columns` are the key's values and each
    /// row, labelled by its result, gives one band per column. It is read as any grid:
    /// `lookup(table, key, total)`.
    #[serde(default)]
    pub column_key: Option<String>,
    /// A grid's columns: each is a result.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub columns: Option<Vec<Spanned<String>>>,
    /// A grid's rows: the row label (a band of the row key, or a plain label
    /// such as `"1/2"`) to one band per column, `~` where the column is empty. In a patch,
    /// a row given as `~` is removed.
    #[serde(default)]
    #[schemars(with = "Option<BTreeMap<String, Option<Vec<Option<String>>>>>")]
    pub rows: Option<GridRowsFile>,
    /// A lookup's key names, outermost first: `[nation, formation]`.
    #[serde(default)]
    pub keys: Option<Vec<String>>,
    /// A lookup's values, nested one mapping per key.
    #[serde(default)]
    pub values: Option<LookupValue>,
    /// What each result means. In a patch, a result given as `~` is removed (nothing may
    /// read it then).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, Option<ResultDef>>")]
    pub results: Entries<Spanned<String>, Option<ResultDef>>,
    /// Notes printed under the chart.
    #[serde(default)]
    pub notes: Vec<String>,
}

/// A grid's rows as written: each label with its cells (`~` for an empty cell).
pub type GridRowsFile = Entries<Spanned<String>, Option<Vec<Option<Spanned<String>>>>>;

/// What a total outside the printed bands reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// Read the nearest printed band.
    Clamp,
    /// No result at all.
    None,
    /// It is an error for a total to get there.
    Error,
}

/// A result's meaning.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultDef {
    pub text: String,
    #[serde(default)]
    pub effects: Effects,
    /// Where the result's wording comes from, when not the table's own source.
    #[serde(default)]
    pub source: Option<Source>,
    /// Values the result gives a procedure, by name (`{ fire_points: 4 }`), read with
    /// `cell.value("fire_points")`. Every result of a table gives the same names.
    #[serde(default)]
    pub values: BTreeMap<String, LookupValue>,
    /// What the result lets or makes the units do next, in a few words for the brief trace
    /// (`the defender retreats 3" disordered; the attackers carry the position`).
    #[serde(default)]
    pub next: Option<String>,
}

/// A lookup value: a number, a word, a flag, or a mapping one key deeper.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum LookupValue {
    Flag(bool),
    Int(i64),
    Number(f64),
    Text(String),
    Map(BTreeMap<String, LookupValue>),
}

impl fmt::Display for LookupValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LookupValue::Flag(b) => write!(f, "{b}"),
            LookupValue::Int(n) => write!(f, "{n}"),
            LookupValue::Number(x) => write!(f, "{x}"),
            LookupValue::Text(t) => f.write_str(t),
            LookupValue::Map(m) => {
                let keys: Vec<&str> = m.keys().map(String::as_str).collect();
                write!(f, "{{{}}}", keys.join(", "))
            }
        }
    }
}

/// A checked table, ready to read.
#[derive(Clone, Debug)]
pub struct Table {
    /// Shared with every reading: readings are many.
    pub id: Arc<str>,
    pub title: String,
    pub source: Source,
    /// The dice rolled on it, as written (`1d10`).
    pub roll: Option<String>,
    /// The totals a modified roll can reach (the file's `reach`, or the roll's own range).
    pub reach: Option<(i64, i64)>,
    pub below: Edge,
    pub above: Edge,
    pub body: TableBody,
    pub results: BTreeMap<String, Arc<TableResult>>,
    /// Result ids in the order the file writes them.
    pub result_order: Vec<String>,
    pub notes: Vec<String>,
    /// The file that defines the table.
    pub file: Option<super::problem::SourceFile>,
    /// A grid written with a column per key and a row per result (`column_key`), so shown.
    pub printed_by_column: bool,
    /// The source of each band (as printed) an overlay's patch wrote in a bands table.
    pub band_sources: BTreeMap<Arc<str>, Source>,
    /// Written whole in place of a lower layer's table of the same id (so not a table the
    /// layer adds: see `script::overlay_check`).
    pub replaces_below: bool,
}

/// The body of a table.
#[derive(Clone, Debug)]
pub enum TableBody {
    /// One row of bands, each to a result id.
    Bands(Vec<(Band, String)>),
    /// Rows chosen by a key, columns chosen by the roll.
    Grid { row_key: String, columns: Vec<String>, rows: Vec<GridRow> },
    /// Values chosen by keys.
    Lookup { keys: Vec<String>, values: LookupValue },
}

/// One row of a grid.
#[derive(Clone, Debug)]
pub struct GridRow {
    /// The label as printed: `6-7`, `51+`, `1/2` (shared with every reading of the row).
    pub label: Arc<str>,
    /// The label read as a band of the row key, when it is one.
    pub band: Option<Band>,
    /// One band per column; `None` where the chart has a dash.
    pub cells: Vec<Option<Band>>,
    /// Where the row comes from when not the table's source (an overlay's patch).
    pub source: Option<Source>,
}

/// A result as read from a table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableResult {
    pub id: String,
    pub text: String,
    pub effects: Effects,
    pub source: Source,
    /// Values the result gives a procedure, by name (see `ResultDef::values`).
    pub values: BTreeMap<String, LookupValue>,
    /// What the result lets or makes the units do next (see `ResultDef::next`).
    pub next: Option<String>,
}

/// Which row of a grid to read: a number (matched against the row bands) or a label.
#[derive(Clone, Debug, PartialEq)]
pub enum RowKey {
    Number(i64),
    Label(String),
}

impl fmt::Display for RowKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowKey::Number(n) => write!(f, "{n}"),
            RowKey::Label(l) => f.write_str(l),
        }
    }
}

/// The cell a total reads, and how it got there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    pub table: Arc<str>,
    /// The row read (grids only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<Arc<str>>,
    /// The total looked up.
    pub total: i64,
    /// The total actually read, after clamping at an edge.
    pub read_as: i64,
    /// The band that held it, as printed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<Arc<str>>,
    /// The result, or none where the chart reads nothing (shared with the table: readings are many).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Arc<TableResult>>,
}

/// Why a reading failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReadError {
    #[error("table `{table}` has no row for {key}; its rows are {rows}")]
    NoRow { table: String, key: String, rows: String },
    #[error("table `{table}` reads nothing for a total of {total}{row}: {why}")]
    NoBand { table: String, total: i64, row: String, why: String },
    #[error("table `{table}` is a {kind}, not read that way: {how}")]
    WrongKind { table: String, kind: &'static str, how: &'static str },
    #[error("table `{table}` has no entry `{key}` for {name}; it has {known}")]
    NoEntry { table: String, name: String, key: String, known: String },
}

impl Table {
    /// "bands table", "grid", "lookup": for messages.
    pub fn kind(&self) -> &'static str {
        match self.body {
            TableBody::Bands(_) => "bands table",
            TableBody::Grid { .. } => "grid",
            TableBody::Lookup { .. } => "lookup",
        }
    }

    /// Reads a bands table at `total`.
    pub fn read_bands(&self, total: i64) -> Result<Cell, ReadError> {
        let TableBody::Bands(bands) = &self.body else {
            return Err(self.wrong_kind("read it with a row key and a total"));
        };
        self.read_cells(None, bands.iter().map(|(b, r)| (b, r.as_str())), total)
    }

    /// Reads a grid at `row` and `total`: the row first, then the column whose band holds the total.
    pub fn read_grid(&self, row: &RowKey, total: i64) -> Result<Cell, ReadError> {
        let TableBody::Grid { columns, rows, .. } = &self.body else {
            return Err(self.wrong_kind(if matches!(self.body, TableBody::Bands(_)) {
                "read it with a total alone"
            } else {
                "read it with its keys"
            }));
        };
        let found = rows.iter().find(|r| match row {
            RowKey::Label(label) => *r.label == **label,
            RowKey::Number(n) => r.band.as_ref().is_some_and(|b| b.contains(*n)),
        });
        let Some(grid_row) = found else {
            let labels: Vec<&str> = rows.iter().map(|r| &*r.label).collect();
            return Err(ReadError::NoRow { table: self.id.to_string(), key: row.to_string(), rows: labels.join(", ") });
        };
        let cells =
            grid_row.cells.iter().zip(columns).filter_map(|(cell, column)| cell.as_ref().map(|b| (b, column.as_str())));
        self.read_cells(Some(&grid_row.label), cells, total)
    }

    /// The source of what a reading read: the row's or band's own (a patch's) or the table's.
    pub fn source_of(&self, reading: &Cell) -> &Source {
        let row_source = match (&self.body, &reading.row) {
            (TableBody::Grid { rows, .. }, Some(label)) => {
                rows.iter().find(|r| &r.label == label).and_then(|r| r.source.as_ref())
            }
            (TableBody::Bands(_), _) => reading.band.as_ref().and_then(|band| self.band_sources.get(band)),
            _ => None,
        };
        row_source.unwrap_or(&self.source)
    }

    /// Where a reading comes from, in words for a trace: its row's or the table's source, and
    /// its result's too when an overlay (or the result's own `source:`) gave that otherwise,
    /// so that a patched result is credited to the overlay that changed it.
    pub fn credit(&self, reading: &Cell) -> String {
        let cell = self.source_of(reading);
        match &reading.result {
            Some(result) if result.source != *cell => format!("{cell}; result: {}", result.source),
            _ => cell.to_string(),
        }
    }

    /// The results a total one or two away would have read, nearest first each way
    /// (`(1, "deadly")`, `(-2, "lively")`): how near a roll read on the table came to another
    /// result.
    pub fn near(&self, reading: &Cell) -> Vec<(i64, String)> {
        // Only for a table a roll is read on: a total read off a measure (a range) has no margin.
        if self.roll.is_none() {
            return Vec::new();
        }
        let read_at = |total: i64| -> Option<Cell> {
            match (&self.body, &reading.row) {
                (TableBody::Bands(_), None) => self.read_bands(total).ok(),
                (TableBody::Grid { .. }, Some(label)) => self.read_grid(&RowKey::Label(label.to_string()), total).ok(),
                _ => None,
            }
        };
        let id = |cell: &Cell| cell.result.as_ref().map(|r| r.id.clone());
        let here = id(reading);
        let mut near = Vec::new();
        for step in [1, -1] {
            for distance in 1..=2 {
                let Some(total) = reading.read_as.checked_add(step * distance) else { break };
                let Some(other) = read_at(total).and_then(|c| id(&c)) else { break };
                if Some(&other) != here.as_ref() {
                    near.push((step * distance, other));
                    break;
                }
            }
        }
        near
    }

    /// Reads a lookup with one key per level.
    pub fn read_lookup(&self, keys: &[String]) -> Result<&LookupValue, ReadError> {
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        self.read_lookup_words(&keys)
    }

    /// `read_lookup` of keys lent as words (a script's, read without copies).
    pub fn read_lookup_words(&self, keys: &[&str]) -> Result<&LookupValue, ReadError> {
        let TableBody::Lookup { keys: names, values } = &self.body else {
            return Err(self.wrong_kind("read it with a total"));
        };
        let mut at = values;
        for (i, key) in keys.iter().enumerate() {
            let LookupValue::Map(map) = at else {
                return Err(ReadError::NoEntry {
                    table: self.id.to_string(),
                    name: format!("key {}", i + 1),
                    key: key.to_string(),
                    known: format!("only {} key(s): {}", names.len(), names.join(", ")),
                });
            };
            at = map.get(*key).ok_or_else(|| ReadError::NoEntry {
                table: self.id.to_string(),
                name: names.get(i).cloned().unwrap_or_else(|| format!("key {}", i + 1)),
                key: key.to_string(),
                known: map.keys().cloned().collect::<Vec<_>>().join(", "),
            })?;
        }
        Ok(at)
    }

    fn wrong_kind(&self, how: &'static str) -> ReadError {
        ReadError::WrongKind { table: self.id.to_string(), kind: self.kind(), how }
    }

    /// Finds the band holding `total` among `cells`, applying the edges.
    ///
    /// One pass finds the band and the printed edges together: a total that a
    /// band holds is never past an edge, so the edges matter only when none does.
    fn read_cells<'a>(
        &self,
        row: Option<&Arc<str>>,
        cells: impl Iterator<Item = (&'a Band, &'a str)> + Clone,
        total: i64,
    ) -> Result<Cell, ReadError> {
        let (mut lowest, mut highest) = (Some(i64::MAX), Some(i64::MIN));
        for (band, result) in cells.clone() {
            if band.contains(total) {
                return Ok(self.found(row, total, total, band, result));
            }
            lowest = lowest.zip(band.min()).map(|(a, b)| a.min(b));
            highest = highest.zip(band.max()).map(|(a, b)| a.max(b));
        }
        let no_band = |why: String| ReadError::NoBand {
            table: self.id.to_string(),
            total,
            row: row.map(|r| format!(" in row {r}")).unwrap_or_default(),
            why,
        };
        // No cell at all leaves the edges at their starting values: nothing to clamp to.
        let lowest = lowest.filter(|&low| low != i64::MAX);
        let highest = highest.filter(|&high| high != i64::MIN);
        let mut read_as = total;
        if let Some(low) = lowest
            && total < low
        {
            match self.below {
                Edge::Clamp => read_as = low,
                Edge::None => return Ok(self.reading(row, total, total, None)),
                Edge::Error => {
                    return Err(no_band(format!("the lowest printed total is {low}")));
                }
            }
        }
        if let Some(high) = highest
            && total > high
        {
            match self.above {
                Edge::Clamp => read_as = high,
                Edge::None => return Ok(self.reading(row, total, total, None)),
                Edge::Error => {
                    return Err(no_band(format!("the highest printed total is {high}")));
                }
            }
        }
        match cells.into_iter().find(|(b, _)| b.contains(read_as)) {
            Some((band, result)) if read_as != total => Ok(self.found(row, total, read_as, band, result)),
            _ => Err(no_band("no printed band holds it".into())),
        }
    }

    fn found(&self, row: Option<&Arc<str>>, total: i64, read_as: i64, band: &Band, result: &str) -> Cell {
        let mut reading = self.reading(row, total, read_as, self.results.get(result).cloned());
        reading.band = Some(band.printed());
        reading
    }

    fn reading(&self, row: Option<&Arc<str>>, total: i64, read_as: i64, result: Option<Arc<TableResult>>) -> Cell {
        Cell { table: self.id.clone(), row: row.cloned(), total, read_as, band: None, result }
    }
}
