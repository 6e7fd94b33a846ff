//! Attribution as text, JSON and CSV: the call's odds, then each modifier that applied with
//! what leaving it out does to each outcome, the one that moves the odds most first.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::change_bar::{HALF, change_bar, points_text};
use super::odds::{Chances, percent, render_table};
use crate::dice::{fraction, to_f64};
use crate::script::{Attribution, Removal};

/// The text: the odds with every modifier, a table of the modifiers ranked by the furthest
/// move they make, and a bar chart of each one's moves, outcome by outcome.
pub fn render_attribution(label: &str, attribution: &Attribution) -> String {
    render_attribution_within(label, attribution, None)
}

/// `render_attribution` for a terminal `width` columns wide, when one is given: where the
/// ranking's rows would run past it, each modifier's source is given under its own heading
/// below instead of in a column of the ranking, so that no row is wrapped twice.
pub fn render_attribution_within(label: &str, attribution: &Attribution, width: Option<usize>) -> String {
    let odds = &attribution.odds;
    let mut s = format!("{label}\n");
    s += if attribution.exact() {
        "exact odds; then each modifier that applied, left out in turn\n\n"
    } else {
        "estimated odds (sampled, the same seed for every distribution); then each modifier that applied, left out in turn\n\n"
    };
    let sampled = odds.sampled.is_some().then_some(odds.runs);
    s += &render_table("result", &odds.rows(), &odds.distribution.total(), sampled, 24, Chances::Fractions);
    let ranked = attribution.by_size();
    if ranked.is_empty() {
        s += "\nno modifier applied on any path: the odds owe nothing to a modifier\n";
        return s;
    }
    let names: Vec<String> = ranked.iter().map(|r| format!("{}.{}", r.list, r.id)).collect();
    let name_w = names.iter().map(|n| n.chars().count()).max().unwrap_or(8).max(8);
    let effect_w = ranked.iter().map(|r| r.effect.chars().count()).max().unwrap_or(6).max(6);
    let _ = writeln!(s, "\nwhat each modifier does, the odds with it against without it, largest first\n");
    let mosts: Vec<String> = ranked
        .iter()
        .map(|removal| {
            let most = removal.change.by_size().first().map(|c| format!("{} {}", c.outcome, points_text(c.points())));
            most.unwrap_or_default()
        })
        .collect();
    let most_w = mosts.iter().map(|m| m.chars().count()).max().unwrap_or(10).max(10);
    let source_w = ranked.iter().map(|r| r.source.chars().count()).max().unwrap_or(6);
    let sources_apart = width.is_some_and(|w| name_w + effect_w + most_w + source_w + 6 > w);
    if sources_apart {
        let _ = writeln!(s, "{:<name_w$}  {:<effect_w$}  moves most", "modifier", "effect");
    } else {
        let _ = writeln!(s, "{:<name_w$}  {:<effect_w$}  {:<most_w$}  source", "modifier", "effect", "moves most");
    }
    for ((removal, name), most) in ranked.iter().zip(&names).zip(&mosts) {
        if sources_apart {
            let _ = writeln!(s, "{name:<name_w$}  {:<effect_w$}  {most}", removal.effect);
        } else {
            let _ = writeln!(s, "{name:<name_w$}  {:<effect_w$}  {most:<most_w$}  {}", removal.effect, removal.source);
        }
    }
    let biggest = ranked.iter().flat_map(|r| r.change.changes.iter().map(|c| c.points().abs())).fold(0.0, f64::max);
    let outcome_w = odds.rows().iter().map(|(o, _)| o.to_string().chars().count()).max().unwrap_or(6).max(6);
    for (removal, name) in ranked.iter().zip(&names) {
        let _ = writeln!(s, "\n{name} ({}): {}", removal.effect, removal.text);
        if sources_apart {
            let _ = writeln!(s, "  source: {}", removal.source);
        }
        let moved: Vec<_> = removal.change.changes.iter().filter(|c| c.a != c.b).collect();
        if moved.is_empty() {
            let _ = writeln!(s, "  moves no outcome: the odds are the same without it");
        }
        for change in moved {
            let _ = writeln!(
                s,
                "  {:<outcome_w$}  {}  {:>8}  {} without, {} with",
                change.outcome.to_string(),
                change_bar(change.points(), biggest, HALF),
                points_text(change.points()),
                percent(&change.a),
                percent(&change.b),
            );
        }
    }
    s
}

/// The JSON: the odds, and each modifier (in rank order) with the odds without it.
pub fn attribution_json(label: &str, attribution: &Attribution) -> Value {
    let modifiers: Vec<Value> = attribution.by_size().into_iter().map(removal_json).collect();
    json!({
        "call": label,
        "exact": attribution.exact(),
        "odds": super::odds::procedure_json(label, &attribution.odds),
        "modifiers": modifiers,
    })
}

fn removal_json(removal: &Removal) -> Value {
    let changes: Vec<Value> = removal
        .change
        .changes
        .iter()
        .map(|c| {
            json!({
                "outcome": super::odds::outcome_json(&c.outcome),
                "with": fraction(&c.b), "with_float": to_f64(&c.b),
                "without": fraction(&c.a), "without_float": to_f64(&c.a),
                "points": c.points(),
            })
        })
        .collect();
    json!({
        "list": removal.list,
        "id": removal.id,
        "effect": removal.effect,
        "text": removal.text,
        "source": removal.source,
        "changes": changes,
    })
}

/// The CSV: a row per modifier and outcome, modifiers in rank order.
pub fn attribution_csv(attribution: &Attribution) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let _ = writer.write_record(["list", "modifier", "effect", "source", "outcome", "with", "without", "points"]);
    for removal in attribution.by_size() {
        for c in &removal.change.changes {
            let _ = writer.write_record([
                removal.list.as_str(),
                removal.id.as_str(),
                removal.effect.as_str(),
                removal.source.as_str(),
                &c.outcome.to_string(),
                &to_f64(&c.b).to_string(),
                &to_f64(&c.a).to_string(),
                &format!("{:.6}", c.points()),
            ]);
        }
    }
    String::from_utf8(writer.into_inner().unwrap_or_default()).unwrap_or_default()
}
