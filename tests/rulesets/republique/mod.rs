//! Republique Advanced Rules I (seed 000): each optional rule on and off, the
//! tables against the seed, every combination of options, and exact odds.

mod artillery;
mod assault;
mod movement;
mod odds;
mod options;
mod tables;

use grognard::rules::Ruleset;
use grognard::script::{Evaluation, Host};
use rhai::Scope;

use crate::support::{switched, unit_in};

/// Every option of the ruleset, by its name and its number in the seed.
pub const OPTIONS: [(&str, &str); 15] = [
    ("crack_troops", "102"),
    ("cavalry_in_line", "105"),
    ("alert_infantry", "201"),
    ("cavalry_pass_through", "302"),
    ("road_movement", "303"),
    ("preliminary_bombardment", "401"),
    ("attached_artillery", "403"),
    ("elite_green_artillery", "407"),
    ("ammunition_shortage", "413"),
    ("unopposed_overlap", "501"),
    ("lancers", "505"),
    ("firefights", "506"),
    ("cavalry_escorts", "507"),
    ("attrition_die", "513"),
    ("vulnerable_units", "515"),
];

/// The republique ruleset with these options on and these interpretations set.
pub fn rules(with: &[&str], set: &[(&str, &str)]) -> Ruleset {
    switched("republique", with, set)
}

/// A host for the ruleset with these options and interpretations.
pub fn host_with(with: &[&str], set: &[(&str, &str)]) -> Host {
    Host::new(rules(with, set)).unwrap_or_else(|p| panic!("{with:?} does not compile: {p:?}"))
}

/// Whether a trace line contains every one of the pieces.
pub fn has_line(eval: &Evaluation, pieces: &[&str]) -> bool {
    eval.trace.lines().iter().any(|l| pieces.iter().all(|p| l.contains(p)))
}

/// Asserts a trace line holds every piece, printing the trace otherwise.
pub fn assert_line(eval: &Evaluation, pieces: &[&str]) {
    assert!(has_line(eval, pieces), "no line with {pieces:?} in\n{}", eval.trace.lines().join("\n"));
}

/// Asserts a line of the trace as a player reads it step by step (each roll with its luck, or for a roll
/// that asks yes or no its chance of a yes) holds every piece.
pub fn assert_shown(eval: &Evaluation, pieces: &[&str]) {
    let shown = grognard::present::trace::render(&eval.trace, grognard::present::trace::TraceForm::Steps, None);
    assert!(shown.lines().any(|l| pieces.iter().all(|p| l.contains(p))), "no line with {pieces:?} in\n{shown}");
}

/// Asserts no line of the trace as a player reads it holds every piece.
pub fn assert_not_shown(eval: &Evaluation, pieces: &[&str]) {
    let shown = grognard::present::trace::render(&eval.trace, grognard::present::trace::TraceForm::Steps, None);
    assert!(!shown.lines().any(|l| pieces.iter().all(|p| l.contains(p))), "a line with {pieces:?} in\n{shown}");
}

pub fn assert_no_line(eval: &Evaluation, pieces: &[&str]) {
    assert!(!has_line(eval, pieces), "a line with {pieces:?} in\n{}", eval.trace.lines().join("\n"));
}

/// A unit as the procedures left it: `routed, 3 bases, base_hits=1 removed=true` (its
/// markers in name order, none: `good_order, 4 bases`).
pub fn state(scope: &Scope, name: &str) -> String {
    let u = unit_in(scope, name);
    let markers: Vec<String> = u.markers.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut parts = vec![u.order.clone(), format!("{} bases", u.stands)];
    if !markers.is_empty() {
        parts.push(markers.join(" "));
    }
    parts.join(", ")
}

/// A unit's marker as a number (0 when absent).
pub fn count(scope: &Scope, name: &str, marker: &str) -> i64 {
    match unit_in(scope, name).markers.get(marker) {
        Some(grognard::unit::Marker::Count(n)) => *n,
        None => 0,
        other => panic!("{name}.{marker} is {other:?}"),
    }
}
