//! Every result of every shipped table, its text read for the consequences it names (disordered,
//! routs, stands or bases lost, a battery silenced, damaged or wrecked, a leader captured), each
//! held to what grognard does with it: the result's own `effects`, or, for a table a procedure
//! applies, what that procedure does to the units when the dice give that result (the drivers
//! below). A move the player makes (retreat 3", withdraw 8", falls back) is stated: the trace
//! prints the result's text where the table is read.

use std::collections::BTreeSet;

use grognard::rules::{Effects, Ruleset};

use crate::support::ruleset;

/// The shipped rulesets with tables of their own.
const SHIPPED: [&str; 4] = ["ff-napoleonic", "linear-warfare", "republique", "volley-example"];

/// A consequence a result's text names.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Said {
    Disordered,
    Routs,
    StandsLost(u32),
    /// Said of artillery only ("artillery silenced"): what befalls a battery.
    Battery(&'static str),
    LeaderCaptured,
}

/// The consequences `text` names, for the unit a result is applied to. Words in parentheses
/// are the encoder's cross-references and conditions ("loses 1 stand if under fire"): a
/// procedure's business, left out here.
pub fn said(text: &str) -> BTreeSet<Said> {
    let mut plain = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let lower = plain.to_lowercase();
    let mut found = BTreeSet::new();
    if lower.contains("disorder") {
        found.insert(Said::Disordered);
    }
    if lower.split(|c: char| !c.is_alphanumeric()).any(|w| matches!(w, "rout" | "routs" | "routed")) {
        found.insert(Said::Routs);
    }
    if let Some(n) = stands_lost(&lower) {
        found.insert(Said::StandsLost(n));
    }
    for (word, state) in [("silenced", "silenced"), ("damaged", "damaged"), ("wrecked", "wrecked")] {
        if lower.contains(word) && (lower.contains("artillery") || lower.contains("batter")) {
            found.insert(Said::Battery(state));
        }
    }
    if lower.contains("leader captured") || lower.contains("leader and/or battery captured") {
        found.insert(Said::LeaderCaptured);
    }
    found
}

/// The stands (or bases) a text says are lost: "2 stands lost", "loses one stand", "two stands
/// removed", "takes a base hit".
fn stands_lost(text: &str) -> Option<u32> {
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let number = |w: &str| match w {
        "a" | "one" | "1" => Some(1),
        "two" | "2" => Some(2),
        "three" | "3" => Some(3),
        _ => None,
    };
    for (i, pair) in words.windows(2).enumerate() {
        let noun = matches!(pair[1], "stand" | "stands" | "base");
        if let (Some(n), true) = (number(pair[0]), noun) {
            let before = words[..i].iter().rev().take(2).collect::<Vec<_>>();
            let after = words.get(i + 2).copied().unwrap_or("");
            let lost = matches!(after, "lost" | "removed" | "hit" | "hits")
                || before.iter().any(|w| matches!(**w, "loses" | "lose" | "loss"));
            if lost {
                return Some(n);
            }
        }
    }
    None
}

/// Whether `effects` do what `said` names, in `ruleset` (the unit it is applied to: a battery
/// state only for artillery, whose fire procedure applies it).
fn done_by(effects: &Effects, said: &Said, rules: &str) -> bool {
    let order = effects.order.as_deref();
    match said {
        Said::Disordered => {
            order == Some("disordered")
                // Linear Warfare's mandatory moves end disordered (procedures/mandatory.rhai).
                || (rules == "linear-warfare" && matches!(order, Some("fall_back" | "retreat" | "rout")))
                // A unit routed from the table is past disorder.
                || order == Some("routed")
        }
        Said::Routs => matches!(order, Some("routed" | "rout")),
        Said::StandsLost(n) => effects.lose_stands == Some(*n),
        Said::LeaderCaptured => effects.markers.contains_key("captured"),
        Said::Battery(_) => false,
    }
}

/// The tables whose results a procedure applies (they carry no effects of their own, or name
/// what befalls a battery), each with the test that drives the procedure to every such result.
const DRIVEN: [(&str, &str, &str); 0] = [];

#[test]
fn the_text_reader_finds_the_seeds_consequences() {
    use Said::*;
    let set = |v: &[Said]| v.iter().cloned().collect::<BTreeSet<_>>();
    assert_eq!(said("Target disordered & 1 stand lost. Artillery damaged & silenced."), set(&[
        Disordered,
        StandsLost(1),
        Battery("damaged"),
        Battery("silenced")
    ]));
    assert_eq!(said("Charge repulsed. Attacker disordered and two stands removed and retreats a full move. Leader captured."), set(&[
        Disordered,
        StandsLost(2),
        LeaderCaptured
    ]));
    assert_eq!(said("Defender routs and loses 2 stands"), set(&[Routs, StandsLost(2)]));
    assert_eq!(said("Target takes two base hits"), set(&[StandsLost(2)]));
    assert_eq!(said("Attacker routs and takes a base hit; the defender holds"), set(&[Routs, StandsLost(1)]));
    assert_eq!(said("Retreat, Disordered (the Fire & Fury \"Broken\"; loses 1 stand if under fire)"), set(&[Disordered]));
    assert_eq!(said("Unit routs- remove from table"), set(&[Routs]));
    assert_eq!(said("Broken- lose 1 stand and retreat a full move"), set(&[StandsLost(1)]));
    assert_eq!(said("Shaken- unit holds ground but rallies"), set(&[]));
}

#[test]
fn every_result_does_what_its_text_says() {
    let driven: BTreeSet<(&str, &str)> = DRIVEN.iter().map(|(rules, table, _)| (*rules, *table)).collect();
    let mut wrong = Vec::new();
    let mut left_to_procedures = BTreeSet::new();
    for rules in SHIPPED {
        let rs: Ruleset = ruleset(&[rules]);
        for table in rs.tables.values() {
            for id in &table.result_order {
                let result = &table.results[id];
                let named = said(&result.text);
                let by_procedure = named.iter().any(|s| matches!(s, Said::Battery(_))) || result.effects.is_empty();
                if by_procedure && !named.is_empty() {
                    left_to_procedures.insert((rules, table.id.to_string()));
                    continue;
                }
                for s in &named {
                    if !done_by(&result.effects, s, rules) {
                        wrong.push(format!(
                            "{rules} {} `{id}`: \"{}\" says {s:?}; its effects: {}",
                            table.id,
                            result.text,
                            result.effects.describe()
                        ));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "results whose effects do not do what their text says:\n{}", wrong.join("\n"));
    let undriven: Vec<_> = left_to_procedures.iter().filter(|(r, t)| !driven.contains(&(*r, t.as_str()))).collect();
    assert!(undriven.is_empty(), "tables a procedure applies with no test driving every result: {undriven:?}");
}
