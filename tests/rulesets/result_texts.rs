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
    MoraleHit,
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
    for (word, state) in
        [("silenced", "silenced"), ("damaged", "damaged"), ("wrecked", "wrecked"), ("captured", "captured")]
    {
        if lower.contains(word) && (lower.contains("artillery") || lower.contains("batter")) {
            found.insert(Said::Battery(state));
        }
    }
    if lower.contains("morale hit") {
        found.insert(Said::MoraleHit);
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
        Said::MoraleHit => effects.markers.get("morale_hits").is_some_and(|m| m.to_string() == "1"),
        Said::Battery("silenced") => effects.markers.get("silenced").is_some_and(|m| m.to_string() == "true"),
        Said::Battery(state) => effects.markers.get("battery").is_some_and(|m| m.to_string() == *state),
    }
}

/// Who a sentence of a result's text is about.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Who {
    Attacker,
    Defender,
    Both,
    DefendingCavalry,
    Battery,
    Leader,
    /// No subject named yet.
    Unnamed,
}

/// What a many-sentence result (a melee's) says, sentence by sentence, each with whom it is
/// about: "Defenders retreat full move disordered. Two stands removed." is the defender's twice.
fn said_of(text: &str) -> Vec<(Who, BTreeSet<Said>)> {
    let mut who = Who::Unnamed;
    let mut parts = Vec::new();
    for sentence in text.split(". ").map(str::trim) {
        let lower = sentence.to_lowercase();
        who = if lower.starts_with("both sides") || lower.contains("each side") {
            Who::Both
        } else if lower.starts_with("defending cavalry") {
            Who::DefendingCavalry
        } else if lower.starts_with("defender") {
            Who::Defender
        } else if lower.starts_with("attacker") {
            Who::Attacker
        } else if lower.starts_with("batter") || lower.starts_with("artillery") {
            Who::Battery
        } else if lower.starts_with("leader") {
            Who::Leader
        } else {
            who
        };
        parts.push((who, said(sentence)));
    }
    parts
}

/// The tables whose results a procedure applies (they carry no effects of their own, or name
/// what befalls a battery), each with the test that drives the procedure to every such result.
const DRIVEN: [(&str, &str, &str); 4] = [
    ("republique", "artillery_fire", "republique_artillery_fire_results_do_what_their_text_says"),
    ("republique", "assault_results", "republique_assault_results_do_what_their_text_says"),
    ("ff-napoleonic", "melee", "ff_melee_results_do_what_their_text_says"),
    ("ff-napoleonic", "musketry", "ff_musketry_results_befall_a_battery_as_their_text_says"),
];

/// A unit as a result left it: its order, the stands it lost, its markers.
fn state_of(scope: &rhai::Scope, name: &str, stands_before: u32) -> (String, u32, Vec<(String, String)>) {
    let unit = crate::support::unit_in(scope, name);
    let markers = unit.markers.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
    (unit.order.clone(), stands_before - unit.stands, markers)
}

/// What the sentences about `side` (or both sides) say: disordered, and the stands lost.
fn expected_for(parts: &[(Who, BTreeSet<Said>)], side: Who) -> (bool, u32) {
    let e = expected(parts, side);
    (e.disordered, e.lost)
}

/// All a result's sentences say of one side.
#[derive(Debug, Default, PartialEq)]
struct Expected {
    disordered: bool,
    routs: bool,
    lost: u32,
    morale_hits: u32,
}

fn expected(parts: &[(Who, BTreeSet<Said>)], side: Who) -> Expected {
    let mut e = Expected::default();
    for s in parts.iter().filter(|(who, _)| *who == side || *who == Who::Both).flat_map(|(_, s)| s) {
        match s {
            Said::Disordered => e.disordered = true,
            Said::Routs => e.routs = true,
            Said::StandsLost(n) => e.lost += n,
            Said::MoraleHit => e.morale_hits += 1,
            Said::Battery(_) | Said::LeaderCaptured => {}
        }
    }
    e
}

/// Two equal minor line battalions of 6 stands: no modifier on either side, in any round.
const TWO_LINES: &str = r#"let a = unit(#{name: "A", nation: "minor", arm: "infantry", stands: 6, formation: "line"});
    let d = unit(#{name: "D", nation: "minor", arm: "infantry", stands: 6, formation: "line"});"#;

#[test]
fn ff_melee_results_do_what_their_text_says() {
    use crate::support::{host, map_and_trace, run};
    let host = host(&["ff-napoleonic"]);
    let table = &ruleset(&["ff-napoleonic"]).tables["melee"];
    // Each result by the attacker's and the defender's dice (no modifiers: the differential is
    // their difference); a desperate struggle is fought again, here to an assault checked.
    let dice: [(&str, &[i64], &[&str]); 7] = [
        ("swept", &[10, 3], &["swept"]),
        ("driven_back", &[8, 3], &["driven_back"]),
        ("hard_pressed", &[5, 3], &["hard_pressed"]),
        ("desperate_struggle", &[5, 5, 3, 5], &["desperate_struggle", "assault_checked"]),
        ("assault_checked", &[3, 5], &["assault_checked"]),
        ("assault_falters", &[1, 6], &["assault_falters"]),
        ("charge_repulsed", &[1, 9], &["charge_repulsed"]),
    ];
    assert_eq!(dice.iter().map(|(id, ..)| id.to_string()).collect::<Vec<_>>(), table.result_order);
    for (id, faces, results) in dice {
        let (value, lines, scope) = map_and_trace(run(&host, faces, &format!("{TWO_LINES} melee(a, d, #{{}})")));
        assert_eq!(value["result"].to_string(), *results.last().unwrap(), "{id}: {lines:#?}");
        let parts: Vec<_> = results.iter().flat_map(|r| said_of(&table.results[*r].text)).collect();
        for (side, name) in [(Who::Attacker, "a"), (Who::Defender, "d")] {
            let (disordered, lost) = expected_for(&parts, side);
            let (order, stands_lost, _) = state_of(&scope, name, 6);
            let wanted = if disordered { "disordered" } else { "good_order" };
            assert_eq!((order.as_str(), stands_lost), (wanted, lost), "{id}, {name}: {parts:?}\n{lines:#?}");
        }
    }
}

#[test]
fn ff_melee_results_befall_a_battery_as_their_text_says() {
    use crate::support::{host, map_and_trace, run};
    let host = host(&["ff-napoleonic"]);
    let table = &ruleset(&["ff-napoleonic"]).tables["melee"];
    // A battery charged: "disordered/silenced" is silenced for guns; "battery captured";
    // "Battery damaged"; "Batteries silenced & withdraw 8\"". The guns' -3 makes the
    // differential the dice's difference plus 3.
    let setup = r#"let a = unit(#{name: "A", nation: "minor", arm: "infantry", stands: 6, formation: "line"});
        let d = unit(#{name: "G", nation: "austria", arm: "artillery", type: "foot", stands: 2, formation: "unlimbered"});"#;
    for (id, faces) in [("swept", [10, 1]), ("driven_back", [5, 3]), ("hard_pressed", [3, 3])] {
        let (value, lines, scope) = map_and_trace(run(&host, &faces, &format!("{setup} melee(a, d, #{{}})")));
        assert_eq!(value["result"].to_string(), id, "{lines:#?}");
        let parts = said_of(&table.results[id].text);
        let about: Vec<&Said> =
            parts.iter().filter(|(w, _)| matches!(w, Who::Defender | Who::Battery)).flat_map(|(_, s)| s).collect();
        let (_, _, markers) = state_of(&scope, "d", 2);
        let has = |k: &str, v: &str| markers.iter().any(|(mk, mv)| mk == k && mv == v);
        for s in about {
            let done = match s {
                Said::Disordered | Said::Battery("silenced") => has("silenced", "true"),
                Said::Battery(state) => has("battery", state),
                Said::StandsLost(_) | Said::Routs | Said::LeaderCaptured | Said::MoraleHit => true,
            };
            assert!(done, "{id}: {s:?} not done to the battery: {markers:?}\n{lines:#?}");
        }
    }
}

#[test]
fn ff_musketry_results_befall_a_battery_as_their_text_says() {
    use crate::support::{host, map_and_trace, run};
    let host = host(&["ff-napoleonic"]);
    let table = &ruleset(&["ff-napoleonic"]).tables["musketry"];
    // Austrian heavy batteries (no national fire bonus) at 2" on a foot battery: 12 fire points
    // a stand. One battery (row 12-14) reads Lively on 4-6, Telling 7-9, Deadly 10+; three (36,
    // row 35-39) read Withering on 8+.
    let cases: [(&str, i64, i64); 4] = [("lively", 1, 5), ("telling", 1, 8), ("deadly", 1, 10), ("withering", 3, 9)];
    for (column, stands, face) in cases {
        let code = format!(
            r#"let f = unit(#{{name: "F", nation: "austria", arm: "artillery", type: "heavy", stands: {stands}, formation: "unlimbered"}});
            let g = unit(#{{name: "G", nation: "austria", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"}});
            fire(f, g, #{{range: 2}})"#
        );
        let (value, lines, scope) = map_and_trace(run(&host, &[face], &code));
        assert_eq!(value["result"].to_string(), column, "{lines:#?}");
        let guns = crate::support::unit_in(&scope, "g");
        let marker = |k: &str| guns.markers.get(k).map(|m| m.to_string());
        for s in said(&table.results[column].text) {
            let done = match s {
                Said::Battery("silenced") => marker("silenced").as_deref() == Some("true"),
                Said::Battery(state) => marker("battery").as_deref() == Some(state),
                _ => true,
            };
            assert!(done, "{column}: {s:?} not done to the battery: {:?}\n{lines:#?}", guns.markers);
        }
    }
}

#[test]
fn the_text_reader_finds_the_seeds_consequences() {
    use Said::*;
    let set = |v: &[Said]| v.iter().cloned().collect::<BTreeSet<_>>();
    assert_eq!(
        said("Target disordered & 1 stand lost. Artillery damaged & silenced."),
        set(&[Disordered, StandsLost(1), Battery("damaged"), Battery("silenced")])
    );
    assert_eq!(
        said("Charge repulsed. Attacker disordered and two stands removed and retreats a full move. Leader captured."),
        set(&[Disordered, StandsLost(2), LeaderCaptured])
    );
    assert_eq!(said("Defender routs and loses 2 stands"), set(&[Routs, StandsLost(2)]));
    assert_eq!(said("Target takes two base hits"), set(&[StandsLost(2)]));
    assert_eq!(said("Attacker routs and takes a base hit; the defender holds"), set(&[Routs, StandsLost(1)]));
    assert_eq!(
        said("Retreat, Disordered (the Fire & Fury \"Broken\"; loses 1 stand if under fire)"),
        set(&[Disordered])
    );
    assert_eq!(said("Unit routs- remove from table"), set(&[Routs]));
    assert_eq!(said("Broken- lose 1 stand and retreat a full move"), set(&[StandsLost(1)]));
    assert_eq!(said("Shaken- unit holds ground but rallies"), set(&[]));
    assert_eq!(said("Target takes a morale hit (one more on its count)"), set(&[MoraleHit]));
    let stalled = said_of("Assault stalled, each side takes a morale hit; fight another round");
    assert_eq!(stalled, vec![(Who::Both, set(&[MoraleHit]))]);
    let swept = said_of(
        "Swept from the field. Defenders retreat full move disordered/silenced. Two stands removed, one leader and/or battery captured if present.",
    );
    assert_eq!(swept[2], (Who::Defender, set(&[StandsLost(2), Battery("captured"), LeaderCaptured])));
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
                let undone: Vec<&Said> = named.iter().filter(|s| !done_by(&result.effects, s, rules)).collect();
                if undone.is_empty() {
                    continue;
                }
                // A battery's state, or a result with no effects of its own: a procedure's to apply.
                let by_procedure = undone.iter().all(|s| matches!(s, Said::Battery(_))) || result.effects.is_empty();
                if by_procedure {
                    left_to_procedures.insert((rules, table.id.to_string()));
                    continue;
                }
                wrong.push(format!(
                    "{rules} {} `{id}`: \"{}\" says {undone:?}; its effects: {}",
                    table.id,
                    result.text,
                    result.effects.describe()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "results whose effects do not do what their text says:\n{}", wrong.join("\n"));
    let undriven: Vec<_> = left_to_procedures.iter().filter(|(r, t)| !driven.contains(&(*r, t.as_str()))).collect();
    assert!(undriven.is_empty(), "tables a procedure applies with no test driving every result: {undriven:?}");
}

#[test]
fn republique_assault_results_do_what_their_text_says() {
    use crate::support::{map_and_trace, run, unit_in};
    let host = crate::republique::host_with(&[], &[]);
    let table = &ruleset(&["republique"]).tables["assault_results"];
    // Two trained line regiments of 4 bases in the open: Attacker Advantage, no modifier, so
    // the differential is the dice's difference. A stalled assault is fought again (each side's
    // morale hit is a -1 to both), here to the defender's retreat.
    let dice: [(&str, &[i64], &[&str]); 5] = [
        ("attacker_routed", &[1, 10], &["attacker_routed"]),
        ("attacker_repulsed", &[3, 6], &["attacker_repulsed"]),
        ("stalled", &[5, 5, 8, 4], &["stalled", "defender_retreats"]),
        ("defender_retreats", &[8, 4], &["defender_retreats"]),
        ("defender_routed", &[10, 1], &["defender_routed"]),
    ];
    assert_eq!(dice.iter().map(|(id, ..)| id.to_string()).collect::<Vec<_>>(), table.result_order);
    let code = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"});
        let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        assault([a], [d], #{})"#;
    for (id, faces, results) in dice {
        let (value, lines, scope) = map_and_trace(run(&host, faces, code));
        assert_eq!(value["result"].to_string(), *results.last().unwrap(), "{id}: {lines:#?}");
        let parts: Vec<_> = results.iter().flat_map(|r| said_of(&table.results[*r].text)).collect();
        for (side, name) in [(Who::Attacker, "a"), (Who::Defender, "d")] {
            let want = expected(&parts, side);
            let unit = unit_in(&scope, name);
            let hits = unit.markers.get("morale_hits").map_or(0, |m| m.to_string().parse().unwrap());
            let got = Expected {
                disordered: want.disordered && unit.order != "good_order",
                routs: unit.order == "routed",
                lost: 4 - unit.stands,
                morale_hits: hits,
            };
            assert_eq!(got, want, "{id}, {name}: {parts:?}\n{lines:#?}");
        }
    }
}

#[test]
fn republique_artillery_fire_results_do_what_their_text_says() {
    use crate::support::{map_and_trace, run, unit_in};
    let host = crate::republique::host_with(&[], &[]);
    let table = &ruleset(&["republique"]).tables["artillery_fire"];
    // A trained foot battery at medium range (no modifier) on a line of four: the die reads
    // the table as it is (5 no effect, 7 a morale hit, 8 a base hit, 10 two).
    let code = r#"let b = unit(#{name: "Battery", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
        let t = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        fire(b, t, #{})"#;
    let dice = [("no_effect", 5), ("morale_hit", 7), ("base_hit", 8), ("two_base_hits", 10)];
    assert_eq!(dice.iter().map(|(id, _)| id.to_string()).collect::<Vec<_>>(), table.result_order);
    for (id, face) in dice {
        let (value, lines, scope) = map_and_trace(run(&host, &[face], code));
        assert_eq!(value["result"].to_string(), id, "{lines:#?}");
        let want = expected(&said_of(&table.results[id].text), Who::Unnamed);
        let unit = unit_in(&scope, "t");
        let hits = unit.markers.get("morale_hits").map_or(0, |m| m.to_string().parse().unwrap());
        let got =
            Expected { disordered: false, routs: unit.order == "routed", lost: 4 - unit.stands, morale_hits: hits };
        assert_eq!(got, want, "{id}\n{lines:#?}");
    }
}
