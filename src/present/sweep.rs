//! A comparison of two rule versions as text, JSON and CSV: one call's outcomes side by side,
//! or a grid's cells ranked by the furthest move, each with what caused it, and every
//! difference between the versions.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::change_bar::{HALF, change_bar, points_text};
use super::odds::{outcome_json, percent};
use crate::dice::{fraction, to_f64};
use crate::script::{Change, Comparison, Outcome, Sweep, SweepCell};

/// The text: for one call, each outcome under A and B with its change and a bar; for a grid,
/// a row per cell (largest change first) with each outcome's change; then the causes.
pub fn render_sweep(call: &str, versions: (&str, &str), sweep: &Sweep) -> String {
    let how =
        if sweep.exact() { "exact odds" } else { "estimated odds (sampled, the same seed and dice on both sides)" };
    let cells = if sweep.axes.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = sweep.axes.iter().map(|a| a.name.as_str()).collect();
        format!(" over {} cells ({})", sweep.cells.len(), names.join(" × "))
    };
    let mut s = format!("{call}\n{how}{cells}\n  A: {}\n  B: {}\n\n", versions.0, versions.1);
    match sweep.cells.as_slice() {
        [cell] if sweep.axes.is_empty() => one_call(&mut s, sweep, cell),
        _ => grid(&mut s, sweep),
    }
    differences(&mut s, sweep);
    s
}

/// One call: each outcome under A and B, the largest change first, with a bar.
fn one_call(s: &mut String, sweep: &Sweep, cell: &SweepCell) {
    side_by_side(s, "result", &cell.comparison);
    for (name, comparison) in &cell.fields {
        s.push('\n');
        side_by_side(s, name, comparison);
    }
    let causes = causes_text(sweep, cell);
    if !causes.is_empty() {
        let _ = writeln!(s, "\ncaused by: {causes}");
    }
}

/// One distribution under A and B, the largest change first, with a bar; and the means.
fn side_by_side(s: &mut String, heading: &str, comparison: &Comparison) {
    let width = comparison
        .changes
        .iter()
        .map(|c| c.outcome.to_string().chars().count())
        .chain([heading.chars().count()])
        .max()
        .unwrap_or(6)
        .max(6);
    let biggest = comparison.changes.iter().map(|c| c.points().abs()).fold(0.0, f64::max);
    let _ = writeln!(s, "{heading:<width$}  {:>8}  {:>8}  {:>8}", "A", "B", "change");
    for change in comparison.by_size() {
        let _ = writeln!(
            s,
            "{:<width$}  {:>8}  {:>8}  {:>8}  {}",
            change.outcome.to_string(),
            percent(&change.a),
            percent(&change.b),
            points_text(change.points()),
            change_bar(change.points(), biggest, HALF).trim_end()
        );
    }
    if let Some((a, b)) = means(comparison) {
        let _ = writeln!(s, "mean  {a:.3} -> {b:.3} ({:+.3})", b - a);
    }
}

/// The means of A and B as floats, when the outcomes are numbers.
fn means(comparison: &Comparison) -> Option<(f64, f64)> {
    let (a, b) = comparison.means.as_ref()?;
    Some((to_f64(a), to_f64(b)))
}

/// Every outcome the comparisons give, in the order they give them.
pub(super) fn outcomes_of<'c>(comparisons: impl Iterator<Item = &'c Comparison>) -> Vec<Outcome> {
    let mut outcomes: Vec<Outcome> = Vec::new();
    for change in comparisons.flat_map(|c| &c.changes) {
        if !outcomes.contains(&change.outcome) {
            outcomes.push(change.outcome.clone());
        }
    }
    outcomes
}

/// A grid: a row per cell, the largest change first, each outcome's change in points.
fn grid(s: &mut String, sweep: &Sweep) {
    let outcomes = outcomes_of(sweep.cells.iter().map(|c| &c.comparison));
    let names: Vec<String> = outcomes.iter().map(Outcome::to_string).collect();
    let axis_w: Vec<usize> = sweep
        .axes
        .iter()
        .map(|a| a.values.iter().map(|(v, _)| v.chars().count()).chain([a.name.chars().count()]).max().unwrap_or(1))
        .collect();
    let ranked = sweep.ranked();
    let column = |c: Option<&Change>| c.map(|c| points_text(c.points())).unwrap_or_else(|| "-".into());
    let cell_w: Vec<usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let widest = ranked
                .iter()
                .map(|cell| column(cell.comparison.changes.iter().find(|c| c.outcome == outcomes[i])).chars().count());
            widest.chain([n.chars().count()]).max().unwrap_or(6)
        })
        .collect();
    // A field shows its mean's change, or (not a number) its furthest-moved outcome.
    let field_text = |cell: &SweepCell, i: usize| -> String {
        let Some((_, c)) = cell.fields.get(i) else { return "-".into() };
        match (means(c), c.by_size().first()) {
            (Some((a, b)), _) => format!("{:+.3}", b - a),
            (None, Some(most)) => format!("{} {}", most.outcome, points_text(most.points())),
            (None, None) => "-".into(),
        }
    };
    let field_names: Vec<String> = sweep
        .cells
        .first()
        .map(|c| {
            c.fields
                .iter()
                .enumerate()
                .map(|(i, (n, _))| {
                    if sweep.cells.iter().all(|c| c.fields.get(i).and_then(|(_, c)| means(c)).is_some()) {
                        format!("{n} mean")
                    } else {
                        n.clone()
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let field_w: Vec<usize> = field_names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            ranked.iter().map(|c| field_text(c, i).chars().count()).chain([n.chars().count()]).max().unwrap_or(4)
        })
        .collect();
    let _ = writeln!(s, "cells, largest change first (each outcome's change from A to B)\n");
    let mut head = String::new();
    for (axis, w) in sweep.axes.iter().zip(&axis_w) {
        let _ = write!(head, "{:<w$}  ", axis.name);
    }
    for (name, w) in names.iter().zip(&cell_w) {
        let _ = write!(head, "{name:>w$}  ");
    }
    for (name, w) in field_names.iter().zip(&field_w) {
        let _ = write!(head, "{name:>w$}  ");
    }
    head += "caused by (the differences numbered below)";
    let _ = writeln!(s, "{head}");
    for cell in ranked {
        let mut line = String::new();
        for (value, w) in cell.at.iter().zip(&axis_w) {
            let _ = write!(line, "{value:<w$}  ");
        }
        for (outcome, w) in outcomes.iter().zip(&cell_w) {
            let text = column(cell.comparison.changes.iter().find(|c| &c.outcome == outcome));
            let _ = write!(line, "{text:>w$}  ");
        }
        for (i, w) in field_w.iter().enumerate() {
            let _ = write!(line, "{:>w$}  ", field_text(cell, i));
        }
        line += &cause_numbers(sweep, cell);
        let _ = writeln!(s, "{}", line.trim_end());
    }
}

/// Every difference between the versions, with its kind, id, what and source.
fn differences(s: &mut String, sweep: &Sweep) {
    if sweep.differences.is_empty() {
        let _ = writeln!(s, "\nthe two versions are the same rules, switched the same way");
        return;
    }
    let grid = !sweep.axes.is_empty();
    let _ = writeln!(s, "\nwhat differs between the versions:");
    for (i, d) in sweep.differences.iter().enumerate() {
        // Over a grid, how many cells each difference moved, by the numbers the rows cite.
        let cells = sweep.cells.iter().filter(|c| c.causes.contains(&i)).count();
        let (number, cells) = match grid {
            true => (format!("{:>2}. ", i + 1), format!("; in {cells} of {} cells", sweep.cells.len())),
            false => (String::new(), String::new()),
        };
        let _ = writeln!(s, "  {number}{} {}: {} ({}{cells})", d.kind(), d.id(), d.what, d.source);
    }
    if grid && !sweep.read_from_code.is_empty() {
        let _ = writeln!(
            s,
            "a cell cites a modifier it applied or a table row it read; a procedure file, constant or switch\n(marked *) it cites when the code the call can reach names it"
        );
    }
}

/// `1, 3, 6, 7*`: the numbers of the differences that caused a cell's change (* found in the
/// code the call reaches); empty when it did not move.
fn cause_numbers(sweep: &Sweep, cell: &SweepCell) -> String {
    let moved = cell.size() > num_rational::BigRational::default();
    if moved && cell.causes.is_empty() {
        return "none found".to_string();
    }
    let numbers: Vec<String> = cell
        .causes
        .iter()
        .map(|i| format!("{}{}", i + 1, if sweep.read_from_code.contains(i) { "*" } else { "" }))
        .collect();
    numbers.join(", ")
}

/// A change as JSON: the outcome, both chances exact and as floats, and the move in points.
fn change_json(c: &Change) -> Value {
    json!({
        "outcome": c.outcome.to_string(),
        "value": outcome_json(&c.outcome),
        "a": fraction(&c.a), "a_float": to_f64(&c.a),
        "b": fraction(&c.b), "b_float": to_f64(&c.b),
        "points": c.points(),
    })
}

/// A field's comparison as JSON: its changes and, for numbers, its means.
fn field_json(name: &str, comparison: &Comparison) -> Value {
    let mut value = json!({ "field": name, "changes": comparison.changes.iter().map(change_json).collect::<Vec<_>>() });
    if let Some((a, b)) = means(comparison) {
        value["mean"] = json!({ "a": a, "b": b });
    }
    value
}

/// The JSON: the axes, every cell in grid order with its rank, changes, means and causes (by
/// id), and every difference. With no grid, the call's `changes` and `mean` at the top as well.
pub fn sweep_json(call: &str, sweep: &Sweep) -> Value {
    let ranked = sweep.ranked();
    let cells: Vec<Value> = sweep
        .cells
        .iter()
        .map(|cell| {
            let at: serde_json::Map<String, Value> = sweep
                .axes
                .iter()
                .zip(&cell.at)
                .map(|(axis, value)| (axis.name.clone(), Value::String(value.clone())))
                .collect();
            let rank = ranked.iter().position(|c| std::ptr::eq(*c, cell)).map_or(0, |r| r + 1);
            let mut value = json!({
                "at": at,
                "rank": rank,
                "largest_points": to_f64(&cell.size()) * 100.0,
                "exact": cell.comparison.exact,
                "changes": cell.comparison.changes.iter().map(change_json).collect::<Vec<_>>(),
                "causes": cell.causes.iter().map(|i| sweep.differences[*i].id()).collect::<Vec<_>>(),
            });
            if let Some((a, b)) = means(&cell.comparison) {
                value["mean"] = json!({ "a": a, "b": b });
            }
            if !cell.fields.is_empty() {
                value["fields"] = json!(cell.fields.iter().map(|(name, c)| field_json(name, c)).collect::<Vec<_>>());
            }
            value
        })
        .collect();
    let differences: Vec<Value> = sweep
        .differences
        .iter()
        .enumerate()
        .map(|(i, d)| {
            json!({
                "kind": d.kind(), "id": d.id(), "what": d.what, "source": d.source,
                "found_in": if sweep.read_from_code.contains(&i) { "code" } else { "paths" },
            })
        })
        .collect();
    let axes: Vec<Value> = sweep
        .axes
        .iter()
        .map(|a| json!({ "name": a.name, "values": a.values.iter().map(|(v, _)| v.clone()).collect::<Vec<_>>() }))
        .collect();
    let mut value = json!({
        "call": call,
        "exact": sweep.exact(),
        "axes": axes,
        "cells": cells,
        "differences": differences,
    });
    if let ([cell], true) = (sweep.cells.as_slice(), sweep.axes.is_empty()) {
        value["changes"] = json!(cell.comparison.changes.iter().map(change_json).collect::<Vec<_>>());
        if let Some((a, b)) = means(&cell.comparison) {
            value["mean"] = json!({ "a": a, "b": b });
        }
    }
    value
}

/// The CSV: a row per cell and outcome, in grid order: the axes' values, the outcome, both
/// chances, the change in points, the cell's rank and its causes.
pub fn sweep_csv(sweep: &Sweep) -> String {
    let ranked = sweep.ranked();
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut head: Vec<String> = sweep.axes.iter().map(|a| a.name.clone()).collect();
    head.extend(["of", "outcome", "a", "b", "points", "rank", "causes"].map(String::from));
    let _ = writer.write_record(&head);
    for cell in &sweep.cells {
        let rank = ranked.iter().position(|c| std::ptr::eq(*c, cell)).map_or(0, |r| r + 1);
        let causes: Vec<String> = cell.causes.iter().map(|i| sweep.differences[*i].id()).collect();
        let fields = cell.fields.iter().map(|(name, c)| (name.as_str(), c));
        let rows = std::iter::once(("result", &cell.comparison)).chain(fields);
        for (of, c) in rows.flat_map(|(of, comparison)| comparison.changes.iter().map(move |c| (of, c))) {
            let mut row = cell.at.clone();
            row.extend([
                of.to_string(),
                c.outcome.to_string(),
                to_f64(&c.a).to_string(),
                to_f64(&c.b).to_string(),
                format!("{:.6}", c.points()),
                rank.to_string(),
                causes.join(" "),
            ]);
            let _ = writer.write_record(&row);
        }
    }
    String::from_utf8(writer.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// What caused a cell's change: the differences its paths touched (`fire_modifiers.veteran_volleys
/// (house)`), then those found in the code it can reach; empty when it did not move.
pub fn causes_text(sweep: &Sweep, cell: &SweepCell) -> String {
    let named = |i: &&usize| format!("{} ({})", sweep.differences[**i].id(), sweep.differences[**i].source);
    let (in_code, on_paths): (Vec<&usize>, Vec<&usize>) =
        cell.causes.iter().partition(|i| sweep.read_from_code.contains(i));
    let mut text = on_paths.iter().map(named).collect::<Vec<_>>().join(", ");
    if !in_code.is_empty() {
        if !text.is_empty() {
            text += "; ";
        }
        text += "in the code it reaches: ";
        text += &in_code.iter().map(named).collect::<Vec<_>>().join(", ");
    }
    let moved = cell.comparison.changes.iter().any(|c| c.a != c.b);
    if moved && text.is_empty() {
        text = "nothing that differs was found on its paths or in the code it reaches".to_string();
    }
    text
}
