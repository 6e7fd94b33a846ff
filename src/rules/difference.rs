//! What differs between two versions of the rules, part by part: the modifiers in force, the
//! tables' rows and results, the procedure files, the constants and the switches, each with its
//! id and source (what `compare` names as the cause of a change).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::band::Band;
use super::modifier::{ModifierList, gate};
use super::table::{GridRow, Table, TableBody};
use super::{Modifier, Ruleset};

/// The part of the rules a difference lies in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    Modifier {
        list: String,
        id: String,
    },
    /// A row of a grid, or (none) a whole table: its bands, edges, keys or columns.
    TableRow {
        table: String,
        row: Option<String>,
    },
    TableResult {
        table: String,
        result: String,
    },
    /// A procedure file, by its layer and name.
    Procedure {
        layer: String,
        name: String,
    },
    Constant {
        name: String,
    },
    /// An option or interpretation (`kind`) switched differently.
    Setting {
        kind: &'static str,
        name: String,
    },
}

/// One difference between version A and version B.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub part: Part,
    /// Where the part comes from (B's, when B has it): a seed section or `house`.
    pub source: String,
    /// What differs, in words: `+1 in B only (option veteran_volleys is off in A)`.
    pub what: String,
}

impl Difference {
    /// The part's id as a rule author names it: `fire_modifiers.veteran_volleys`,
    /// `musketry row 4`, `ff-house-example/procedures/fire_row.rhai`.
    pub fn id(&self) -> String {
        match &self.part {
            Part::Modifier { list, id } => format!("{list}.{id}"),
            Part::TableRow { table, row: Some(row) } => format!("{table} row {row}"),
            Part::TableRow { table, row: None } => table.clone(),
            Part::TableResult { table, result } => format!("{table} result {result}"),
            Part::Procedure { layer, name } => format!("{layer}/procedures/{name}.rhai"),
            Part::Constant { name } => format!("constant {name}"),
            Part::Setting { kind, name } => format!("{kind} {name}"),
        }
    }

    /// The kind of part, as a word: modifier, table, procedure, constant, switch.
    pub fn kind(&self) -> &'static str {
        match &self.part {
            Part::Modifier { .. } => "modifier",
            Part::TableRow { .. } | Part::TableResult { .. } => "table",
            Part::Procedure { .. } => "procedure",
            Part::Constant { .. } => "constant",
            Part::Setting { .. } => "switch",
        }
    }
}

/// Every difference between `a` and `b`: modifiers, tables, procedures, constants, switches.
pub fn differences(a: &Ruleset, b: &Ruleset) -> Vec<Difference> {
    let mut found = Vec::new();
    modifiers(a, b, &mut found);
    tables(a, b, &mut found);
    procedures(a, b, &mut found);
    constants(a, b, &mut found);
    settings(a, b, &mut found);
    found
}

/// Where a part comes from: one source when the versions agree (or one has it), else each
/// version's (`house in A, seed 004, MELEE TABLE in B`).
fn sources(a: Option<String>, b: Option<String>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if a != b => format!("{a} in A, {b} in B"),
        (a, b) => b.or(a).unwrap_or_default(),
    }
}

/// The ids of `a`'s entries, then those only `b` has, in each map's order.
fn union<'k, V, W>(a: &'k BTreeMap<String, V>, b: &'k BTreeMap<String, W>) -> Vec<&'k String> {
    let mut keys: Vec<&String> = a.keys().collect();
    keys.extend(b.keys().filter(|k| !a.contains_key(*k)));
    keys
}

/// A modifier of a list, when the list has it.
fn modifier<'a>(list: Option<&'a ModifierList>, id: &str) -> Option<&'a Modifier> {
    list?.modifiers.iter().find(|m| m.id == id)
}

/// A modifier as it reads: its effect and, when it has one, its condition.
fn reads(m: &Modifier) -> String {
    let mut s = m.effect.to_string();
    if let Some(when) = &m.when {
        let _ = write!(s, " when {}", when.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    if let Some((per, _)) = &m.per {
        let _ = write!(s, " per {per}");
    }
    if let Some(group) = &m.group {
        let _ = write!(s, " (group {group})");
    }
    s
}

/// `-1 in A, -2 in B`, with the condition once when only the effect differs.
fn changed(x: &Modifier, y: &Modifier) -> String {
    let rest = |m: &Modifier| reads(m).strip_prefix(&m.effect.to_string()).unwrap_or_default().to_string();
    if rest(x) == rest(y) {
        format!("{} in A, {} in B{}", x.effect, y.effect, rest(x))
    } else {
        format!("{} in A, {} in B", reads(x), reads(y))
    }
}

fn modifiers(a: &Ruleset, b: &Ruleset, found: &mut Vec<Difference>) {
    for list in union(&a.modifiers, &b.modifiers) {
        let (list_a, list_b) = (a.modifiers.get(list), b.modifiers.get(list));
        let mut ids: Vec<&String> = list_a.map(|l| l.modifiers.iter().map(|m| &m.id).collect()).unwrap_or_default();
        for m in list_b.map(|l| l.modifiers.as_slice()).unwrap_or_default() {
            if !ids.contains(&&m.id) {
                ids.push(&m.id);
            }
        }
        for id in ids {
            let (m_a, m_b) = (modifier(list_a, id), modifier(list_b, id));
            let in_force = |rs: &Ruleset, m: Option<&Modifier>| m.is_some_and(|m| gate(&rs.settings, m).is_none());
            // Why a version has it out of force: not there, or switched off.
            let out = |rs: &Ruleset, m: Option<&Modifier>, which: &str| match m.and_then(|m| gate(&rs.settings, m)) {
                Some(why) => format!("{why} in {which}"),
                None => format!("{which} has no such modifier"),
            };
            let what = match (in_force(a, m_a), in_force(b, m_b), m_a, m_b) {
                (true, false, Some(m), _) => format!("{} in A only ({})", reads(m), out(b, m_b, "B")),
                (false, true, _, Some(m)) => format!("{} in B only ({})", reads(m), out(a, m_a, "A")),
                (true, true, Some(x), Some(y)) if reads(x) != reads(y) => changed(x, y),
                _ => continue,
            };
            let source = sources(m_a.map(|m| m.source.to_string()), m_b.map(|m| m.source.to_string()));
            found.push(Difference { part: Part::Modifier { list: list.clone(), id: id.clone() }, source, what });
        }
    }
}

fn tables(a: &Ruleset, b: &Ruleset, found: &mut Vec<Difference>) {
    for id in union(&a.tables, &b.tables) {
        let whole = |what: String, source: String| Difference {
            part: Part::TableRow { table: id.clone(), row: None },
            source,
            what,
        };
        let (x, y) = match (a.tables.get(id), b.tables.get(id)) {
            (Some(x), Some(y)) => (x, y),
            (Some(x), None) => {
                found.push(whole("in A only".into(), x.source.to_string()));
                continue;
            }
            (None, Some(y)) => {
                found.push(whole("in B only".into(), y.source.to_string()));
                continue;
            }
            (None, None) => continue,
        };
        let source = sources(Some(x.source.to_string()), Some(y.source.to_string()));
        if (x.below, x.above, &x.reach) != (y.below, y.above, &y.reach) {
            found.push(whole("its edges or reach differ".into(), source.clone()));
        }
        match (&x.body, &y.body) {
            (TableBody::Bands(p), TableBody::Bands(q)) if p != q => {
                let (what, source) = bands((x, p), (y, q));
                found.push(whole(what, source));
            }
            (
                TableBody::Grid { row_key: k, columns: c, rows: p },
                TableBody::Grid { row_key: l, columns: d, rows: q },
            ) => {
                if (k, c) != (l, d) {
                    found.push(whole("its row key or columns differ".into(), source.clone()));
                } else {
                    grid_rows(id, (x, p), (y, q), c, found);
                }
            }
            (TableBody::Lookup { keys: k, values: p }, TableBody::Lookup { keys: l, values: q })
                if (k, p) != (l, q) =>
            {
                found.push(whole("its values differ".into(), source.clone()));
            }
            (TableBody::Bands(_), TableBody::Bands(_)) | (TableBody::Lookup { .. }, TableBody::Lookup { .. }) => {}
            _ => found.push(whole(format!("a {} in A, a {} in B", x.kind(), y.kind()), source.clone())),
        }
        for result in union(&x.results, &y.results) {
            let (p, q) = (x.results.get(result), y.results.get(result));
            let what = match (p, q) {
                (Some(p), Some(q)) if (&p.effects, &p.values) != (&q.effects, &q.values) => {
                    "its effects or values differ".to_string()
                }
                (Some(_), None) => "in A only".to_string(),
                (None, Some(_)) => "in B only".to_string(),
                _ => continue,
            };
            let source = sources(p.map(|r| r.source.to_string()), q.map(|r| r.source.to_string()));
            found.push(Difference {
                part: Part::TableResult { table: id.clone(), result: result.clone() },
                source,
                what,
            });
        }
    }
}

/// `lively 2-3 in A, 2-4 in B; telling 4+ in A, 5+ in B`: the results whose bands differ, and
/// where those bands come from (a patch's bands carry its own source, a house rule over a seed's table).
fn bands(a: (&Table, &[(Band, String)]), b: (&Table, &[(Band, String)])) -> (String, String) {
    let (p, q) = (a.1, b.1);
    let of = |bands: &[(Band, String)], result: &str| {
        let held: Vec<String> = bands.iter().filter(|(_, r)| r == result).map(|(b, _)| b.to_string()).collect();
        if held.is_empty() { "none".to_string() } else { held.join(", ") }
    };
    let mut results: Vec<&str> = Vec::new();
    for (_, result) in p.iter().chain(q) {
        if !results.contains(&result.as_str()) {
            results.push(result);
        }
    }
    let differing: Vec<&str> = results.into_iter().filter(|r| of(p, r) != of(q, r)).collect();
    // The source of each band that differs, on each side.
    let side = |(table, bands): (&Table, &[(Band, String)])| {
        let mut found: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
        for (band, _) in bands.iter().filter(|(_, r)| differing.contains(&r.as_str())) {
            let source = table.band_sources.get(band.to_string().as_str()).unwrap_or(&table.source);
            found.insert(source.to_string());
        }
        if found.is_empty() { table.source.to_string() } else { found.into_iter().collect::<Vec<_>>().join(", ") }
    };
    let what: Vec<String> = differing.iter().map(|r| format!("{r} {} in A, {} in B", of(p, r), of(q, r))).collect();
    let what = if what.is_empty() { "its bands are written otherwise".to_string() } else { what.join("; ") };
    (what, sources(Some(side(a)), Some(side(b))))
}

/// The rows of two grids alike in shape that differ, by label, each cell that differs named.
fn grid_rows(
    id: &str,
    a: (&Table, &[GridRow]),
    b: (&Table, &[GridRow]),
    columns: &[String],
    found: &mut Vec<Difference>,
) {
    let (p, q) = (a.1, b.1);
    let mut labels: Vec<&str> = p.iter().map(|r| &*r.label).collect();
    labels.extend(q.iter().map(|r| &*r.label).filter(|l| !p.iter().any(|r| &*r.label == *l)));
    for label in labels {
        let (x, y) = (p.iter().find(|r| &*r.label == label), q.iter().find(|r| &*r.label == label));
        let cell = |band: &Option<Band>| band.as_ref().map_or("—".to_string(), |b| b.to_string());
        let what = match (x, y) {
            (Some(x), Some(y)) if x.cells != y.cells => {
                let cells: Vec<String> = columns
                    .iter()
                    .zip(x.cells.iter().zip(&y.cells))
                    .filter(|(_, (c, d))| c != d)
                    .map(|(column, (c, d))| format!("{column} {} in A, {} in B", cell(c), cell(d)))
                    .collect();
                cells.join("; ")
            }
            (Some(_), None) => "in A only".to_string(),
            (None, Some(_)) => "in B only".to_string(),
            _ => continue,
        };
        // A row a patch wrote carries the patch's source; else the table's.
        let source_of =
            |table: &Table, row: Option<&GridRow>| row.map(|r| r.source.as_ref().unwrap_or(&table.source).to_string());
        let source = sources(source_of(a.0, x), source_of(b.0, y));
        found.push(Difference {
            part: Part::TableRow { table: id.to_string(), row: Some(label.to_string()) },
            source,
            what,
        });
    }
}

fn procedures(a: &Ruleset, b: &Ruleset, found: &mut Vec<Difference>) {
    let files = |rs: &Ruleset| -> BTreeMap<String, (String, String)> {
        rs.procedures
            .iter()
            .map(|p| {
                let layer = rs.layers.get(p.layer).map(|l| l.id.clone()).unwrap_or_default();
                (format!("{layer}\u{0}{}", p.name), (layer, p.file.inner().clone()))
            })
            .collect()
    };
    let (x, y) = (files(a), files(b));
    for key in union(&x, &y) {
        let what = match (x.get(key), y.get(key)) {
            (Some((_, p)), Some((_, q))) if p != q => "its text differs",
            (Some(_), None) => "in A only",
            (None, Some(_)) => "in B only",
            _ => continue,
        };
        let (layer, name) = key.split_once('\u{0}').unwrap_or_default();
        found.push(Difference {
            part: Part::Procedure { layer: layer.to_string(), name: name.to_string() },
            source: format!("layer {layer}"),
            what: what.to_string(),
        });
    }
}

fn constants(a: &Ruleset, b: &Ruleset, found: &mut Vec<Difference>) {
    for name in union(&a.constants, &b.constants) {
        let (x, y) = (a.constants.get(name), b.constants.get(name));
        let what = match (x, y) {
            (Some(x), Some(y)) if x.value != y.value => format!("{} in A, {} in B", x.value, y.value),
            (Some(x), None) => format!("{} in A only", x.value),
            (None, Some(y)) => format!("{} in B only", y.value),
            _ => continue,
        };
        let source = sources(x.map(|c| c.source.to_string()), y.map(|c| c.source.to_string()));
        found.push(Difference { part: Part::Constant { name: name.clone() }, source, what });
    }
}

fn settings(a: &Ruleset, b: &Ruleset, found: &mut Vec<Difference>) {
    let on = |v: Option<&bool>| {
        match v {
            Some(true) => "on",
            Some(false) => "off",
            None => "not an option",
        }
        .to_string()
    };
    let source = |rs: &Ruleset, name: &str| rs.options.get(name).map(|o| o.source.to_string());
    let options = (&a.settings.options, &b.settings.options);
    switched("option", options, on, |name| (source(a, name), source(b, name)), found);
    let word = |v: Option<&String>| v.cloned().unwrap_or_else(|| "unset".into());
    let source = |rs: &Ruleset, name: &str| rs.interpretations.get(name).map(|i| i.source.to_string());
    let interpretations = (&a.settings.interpretations, &b.settings.interpretations);
    switched("interpretation", interpretations, word, |name| (source(a, name), source(b, name)), found);
}

/// Each switch of one `kind` set otherwise in A and B, worded by `word`, with the sources
/// `source` gives each version's.
fn switched<V: PartialEq>(
    kind: &'static str,
    (x, y): (&BTreeMap<String, V>, &BTreeMap<String, V>),
    word: impl Fn(Option<&V>) -> String,
    source: impl Fn(&str) -> (Option<String>, Option<String>),
    found: &mut Vec<Difference>,
) {
    for name in union(x, y) {
        let (p, q) = (x.get(name), y.get(name));
        if p != q {
            let (in_a, in_b) = source(name);
            let what = format!("{} in A, {} in B", word(p), word(q));
            found.push(Difference {
                part: Part::Setting { kind, name: name.clone() },
                source: sources(in_a, in_b),
                what,
            });
        }
    }
}
