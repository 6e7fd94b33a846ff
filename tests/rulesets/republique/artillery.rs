//! The artillery rules, each on and off: 401 preliminary bombardment, 407 elite
//! and green artillery, 413 the ammunition shortage die (with saved fire and
//! mass batteries).

use super::{assert_line, assert_no_line, assert_not_shown, assert_shown, host_with};
use crate::support::{fails, int, run, text, unit_in};

fn battery(grade: &str) -> String {
    format!(
        r#"let b = unit(#{{name: "Battery", side: "french", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", grade: "{grade}"}});
        let t = unit(#{{name: "IR 4", side: "austrian", arm: "infantry", stands: 4, formation: "line"}});"#
    )
}

#[test]
fn elite_batteries_add_two_and_green_ones_lose_two() {
    let elite = format!("{} fire(b, t, #{{}})", battery("elite"));
    // On: 5 + 2 = 7, a morale hit. Off: refused naming the switch (it once fired as a
    // trained battery, 5, no effect, without a word).
    let (eval, scope) = run(&host_with(&["elite_green_artillery"], &[]), &[5], &elite);
    assert_line(&eval, &["mod     yes +2", "Elite battery", "rule 407"]);
    assert_eq!((text(&eval, "result"), int(&eval, "total")), ("morale_hit".into(), 7));
    assert_eq!(super::count(&scope, "t", "morale_hits"), 1);
    let err = fails(&host_with(&[], &[]), &[5], &elite);
    assert!(
        err.contains("fire(battery, target, situation): `battery` (Battery): grade \"elite\" is read only with the optional rule elite_green_artillery: add --with elite_green_artillery"),
        "{err}"
    );
    // Only its fire waits for rule 407: an elite battery rallies as elite without it.
    let (eval, _) = run(&host_with(&[], &[]), &[9], &format!("{} rally(b).level", battery("elite")));
    assert_eq!(
        eval.value.as_int(),
        run(&host_with(&[], &[]), &[9], r#"lookup("rally_levels", "elite")"#).0.value.as_int()
    );
    // Green or militia: 8 - 2 = 6, a morale hit instead of a base hit.
    for grade in ["green", "militia"] {
        let green = format!("{} fire(b, t, #{{}})", battery(grade));
        let (eval, _) = run(&host_with(&["elite_green_artillery"], &[]), &[8], &green);
        assert_line(&eval, &["mod     yes -2", "Green or militia battery"]);
        assert_eq!(text(&eval, "result"), "morale_hit", "{grade}");
        let err = fails(&host_with(&[], &[]), &[8], &green);
        assert!(
            err.contains(&format!("grade \"{grade}\" is read only with the optional rule elite_green_artillery")),
            "{err}"
        );
    }
    // A crack battery counts as the class it rallies as (rule 102), or as veteran.
    let crack = format!("{} fire(b, t, #{{}}).total", battery("crack"));
    let (eval, _) = run(&host_with(&["elite_green_artillery", "crack_troops"], &[]), &[5], &crack);
    assert_eq!(eval.value.as_int().unwrap(), 7);
    let host = host_with(&["elite_green_artillery", "crack_troops"], &[("crack_inherits", "veteran")]);
    let (eval, _) = run(&host, &[5], &crack);
    assert_eq!(eval.value.as_int().unwrap(), 5);
}

#[test]
fn a_thirteen_on_the_shortage_die_silences_the_next_player_turn() {
    let code = format!(
        "{} let first = fire(b, t, #{{}});
        let marked = b.has_marker(\"ammo_shortage\");
        artillery_phase_end([b], \"french\");
        let out = b.has_marker(\"out_of_ammo\");
        let second = fire(b, t, #{{}});
        artillery_phase_end([b], \"austrian\");
        let third = fire(b, t, #{{}});
        [first.result, marked, out, second.result, third.result]",
        battery("trained")
    );
    // This turn's fire is normal (8: a base hit); the next turn's is lost; then it fires again.
    let (eval, _) = run(&host_with(&["ammunition_shortage"], &[]), &[8, 13, 5, 2], &code);
    let v: Vec<String> = eval.value.clone().into_array().unwrap().iter().map(|x| x.to_string()).collect();
    assert_eq!(v, ["base_hit", "true", "true", "cannot_fire", "no_effect"]);
    // Only a 13 counts: one face in twenty, never "13 or more" (eight faces, 40%).
    assert_shown(
        &eval,
        &["roll    ammunition shortage die, Battery, 1d20 = 13: [13] = 13 = 13: yes  [chance of yes: 1 in 20 (5%)]"],
    );
    assert_not_shown(&eval, &["13 or more"]);
    assert_line(&eval, &["Battery is out of ammunition: it cannot fire this player turn (rule 413)"]);
    // Off: no shortage die at all; every fire is rolled.
    let (eval, _) = run(&host_with(&[], &[]), &[8, 5, 2], &code);
    assert_no_line(&eval, &["ammunition shortage die"]);
    let v: Vec<String> = eval.value.clone().into_array().unwrap().iter().map(|x| x.to_string()).collect();
    assert_eq!(v, ["base_hit", "false", "false", "no_effect", "no_effect"]);
}

#[test]
fn every_fire_result_is_applied_to_the_target() {
    // The Artillery Fire table's results, each from a trained battery at medium range (no
    // modifier) at a line of four with two morale hits: 5 no effect, 7 a morale hit (the
    // third: demoralized at `demoralized_at` = 3), 8 a base hit, 10 two base hits.
    let code = r#"let b = unit(#{name: "Battery", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
        let t = unit(#{name: "IR 4", arm: "infantry", stands: STANDS, formation: "line", markers: #{morale_hits: 2}});
        fire(b, t, #{}).result"#;
    let host = host_with(&[], &[]);
    for (die, stands, result, after) in [
        (5, 4, "no_effect", "good_order, 4 bases, morale_hits=2"),
        (7, 4, "morale_hit", "demoralized, 4 bases, morale_hits=3"),
        (8, 4, "base_hit", "good_order, 3 bases, base_hits=1 morale_hits=2"),
        (10, 4, "two_base_hits", "good_order, 2 bases, base_hits=2 morale_hits=2"),
        // Two base hits on the last base: one base lost, one hit counted, and the unit leaves play.
        (10, 1, "two_base_hits", "good_order, 0 bases, base_hits=1 morale_hits=2 removed=true"),
    ] {
        let (eval, scope) = run(&host, &[die], &code.replace("STANDS", &stands.to_string()));
        assert_eq!(eval.value.clone().into_string().unwrap(), result, "{die}");
        assert_eq!(super::state(&scope, "t"), after, "{die} on {stands}");
    }
    let (eval, _) = run(&host, &[10], &code.replace("STANDS", "1"));
    assert_line(&eval, &["IR 4 has lost its last base: removed from play (house)"]);
}

#[test]
fn the_shortage_die_gives_one_chance_in_twenty_and_says_no_past_the_13() {
    // Rule 413: "A result of 13 on the die": a 14 (or a 20) is past the 13 and does not count.
    let code = format!("{} fire(b, t, #{{}}); b.has_marker(\"ammo_shortage\")", battery("trained"));
    for face in [12, 14, 20] {
        let (eval, _) = run(&host_with(&["ammunition_shortage"], &[]), &[8, face], &code);
        assert!(!eval.value.as_bool().unwrap(), "{face}");
        assert_shown(
            &eval,
            &[&format!(
                "roll    ammunition shortage die, Battery, 1d20 = 13: [{face}] = {face} = 13: no  [chance of yes: 1 in 20 (5%)]"
            )],
        );
        assert_not_shown(&eval, &["shortage die", "or more"]);
        assert_no_line(&eval, &["ammunition shortage die: a natural"]);
    }
}

#[test]
fn the_out_of_ammo_marker_lasts_to_the_owners_next_turn_if_switched() {
    let code = format!(
        "{} fire(b, t, #{{}}); artillery_phase_end([b], \"french\"); artillery_phase_end([b], \"austrian\"); b.has_marker(\"out_of_ammo\")",
        battery("trained")
    );
    let (eval, _) = run(&host_with(&["ammunition_shortage"], &[]), &[8, 13], &code);
    assert!(!eval.value.as_bool().unwrap(), "removed after the next player turn's artillery phase");
    let host = host_with(&["ammunition_shortage"], &[("ammo_next_turn", "owner_next_turn")]);
    let (eval, _) = run(&host, &[8, 13], &code);
    assert!(eval.value.as_bool().unwrap(), "kept until the owner's next turn");
}

#[test]
fn saved_fire_makes_a_battery_immune() {
    let code = format!(
        "{} b.set_marker(\"saved_fire\", true); fire(b, t, #{{}}); b.has_marker(\"ammo_shortage\")",
        battery("trained")
    );
    let (eval, _) = run(&host_with(&["ammunition_shortage"], &[]), &[8, 13], &code);
    assert!(!eval.value.as_bool().unwrap());
    assert_line(&eval, &["began the turn with Saved Fire: immune to the ammunition shortage (rule 413)"]);
}

#[test]
fn a_mass_battery_loses_only_one_battery() {
    let code = r#"let b1 = unit(#{name: "B1", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
        let b2 = unit(#{name: "B2", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
        let b3 = unit(#{name: "B3", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
        let t = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        let r = mass_battery_fire([b1, b2, b3], t, #{});
        [r.total, b1.has_marker("ammo_shortage"), b2.has_marker("ammo_shortage"), b3.has_marker("ammo_shortage")]"#;
    // One die roll, +2 for two more batteries (house); one shortage die, one battery.
    let (eval, _) = run(&host_with(&["ammunition_shortage"], &[]), &[6, 13], code);
    let v: Vec<String> = eval.value.clone().into_array().unwrap().iter().map(|x| x.to_string()).collect();
    assert_eq!(v, ["8", "true", "false", "false"]);
    assert_line(&eval, &["a mass battery rolling a 13 affects only one battery: B1 (rule 413)"]);
    let host = host_with(&["ammunition_shortage"], &[("ammo_mass_battery", "random")]);
    let (eval, _) = run(&host, &[6, 13, 2], code);
    let v: Vec<String> = eval.value.clone().into_array().unwrap().iter().map(|x| x.to_string()).collect();
    assert_eq!(v, ["8", "false", "true", "false"]);
}

#[test]
fn the_shortage_die_follows_the_attrition_die_size_when_switched() {
    let code = format!("{} fire(b, t, #{{}}); b.has_marker(\"ammo_shortage\")", battery("trained"));
    let host = host_with(&["ammunition_shortage", "attrition_die"], &[("attrition_die_size", "d30")]);
    let (eval, _) = run(&host, &[5, 13], &code);
    assert_shown(&eval, &["ammunition shortage die, Battery, 1d30 = 13: [13]", "yes  [chance of yes: 1 in 30 (3%)]"]);
    assert!(eval.value.as_bool().unwrap());
    let host = host_with(
        &["ammunition_shortage", "attrition_die"],
        &[("attrition_die_size", "d30"), ("ammo_die_size", "d20")],
    );
    let (eval, _) = run(&host, &[5, 13], &code);
    assert_shown(&eval, &["ammunition shortage die, Battery, 1d20 = 13: [13]", "[chance of yes: 1 in 20 (5%)]"]);
}

const BOMBARDMENT: &str = r#"let a = unit(#{name: "Grande Batterie", side: "french", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", markers: #{saved_fire: true}});
    let b = unit(#{name: "Austrian 12s", side: "austrian", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
    let ta = unit(#{name: "IR 4", side: "austrian", arm: "infantry", stands: 6, formation: "line"});
    let tb = unit(#{name: "9e Ligne", side: "french", arm: "infantry", stands: 6, formation: "line"});"#;

#[test]
fn a_preliminary_bombardment_needs_the_rule_and_both_players() {
    let call = |situation: &str| {
        format!(
            "{BOMBARDMENT} preliminary_bombardment([#{{battery: a, target: ta}}], [#{{battery: b, target: tb}}], {situation})"
        )
    };
    let err = fails(&host_with(&[], &[]), &[], &call("#{agreed: true, pairs: 1}"));
    assert!(err.contains("rule 401 (preliminary_bombardment) is off"), "{err}");
    let host = host_with(&["preliminary_bombardment"], &[]);
    let (eval, _) = run(&host, &[], &call("#{pairs: 2}"));
    assert_eq!(int(&eval, "phases"), 0);
    assert_line(&eval, &["both sides must mutually agree to the bombardment (rule 401)"]);
    let err = fails(&host, &[], &call("#{agreed: true}"));
    assert!(err.contains("needs situation.pairs"), "{err}");
    // Two pairs of alternate phases, four shots; no saved fire; no movement or assault.
    let (eval, scope) = run(&host, &[5, 5, 5, 5], &call("#{agreed: true, pairs: 2}"));
    assert_eq!((int(&eval, "phases"), int(&eval, "shots")), (4, 4));
    assert_line(&eval, &["Grande Batterie: no saved fire steps may be executed during a bombardment (rule 401)"]);
    assert_line(&eval, &["preliminary bombardment, artillery phase 4 (second player)"]);
    // Seed l.47: no saved fire *during* the bombardment; it is given back after it.
    assert_line(&eval, &["Grande Batterie: the bombardment is over, its Saved Fire is back (rule 401)"]);
    assert!(unit_in(&scope, "a").has_marker("saved_fire"));
}

#[test]
fn saved_fire_after_a_bombardment_still_gives_its_immunity() {
    // During the bombardment (one pair) the French roll no 13; after it, with Saved Fire
    // back, a 13 on the shortage die does not put the battery out of ammunition.
    let code = format!(
        "{BOMBARDMENT} preliminary_bombardment([#{{battery: a, target: ta}}], [#{{battery: b, target: tb}}], #{{agreed: true, pairs: 1}});
        fire(a, ta, #{{}});
        a.has_marker(\"ammo_shortage\")"
    );
    let host = host_with(&["preliminary_bombardment", "ammunition_shortage"], &[]);
    let (eval, _) = run(&host, &[5, 2, 5, 2, 5, 13], &code);
    assert!(!eval.value.as_bool().unwrap());
    assert_line(
        &eval,
        &["Grande Batterie began the turn with Saved Fire: immune to the ammunition shortage (rule 413)"],
    );
}

#[test]
fn a_bombardment_phase_counts_as_a_player_turn_for_the_ammunition() {
    let code = format!(
        "{BOMBARDMENT} preliminary_bombardment([#{{battery: a, target: ta}}], [#{{battery: b, target: tb}}], #{{agreed: true, pairs: 3}})"
    );
    // Phase 1: the French roll a 13 (no saved fire in a bombardment, so no immunity); phase 3
    // they are out of ammunition; phase 5 they fire again. Five shots in six phases.
    let host = host_with(&["preliminary_bombardment", "ammunition_shortage"], &[]);
    let (eval, _) = run(&host, &[5, 13, 5, 2, 5, 2, 5, 2, 5, 2], &code);
    assert_eq!((int(&eval, "phases"), int(&eval, "shots")), (6, 5));
    assert_line(&eval, &["Grande Batterie is out of ammunition: it cannot fire this player turn (rule 413)"]);
}

/// A regiment of six bases with two attached artillery markers, under fire three times.
const UNDER_FIRE: &str = r#"let b = unit(#{name: "Battery", side: "french", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
    let r = unit(#{name: "IR 4", side: "austrian", arm: "infantry", stands: 6, formation: "line", markers: #{attached_artillery: 2}});
    let left = [];
    for i in 0..3 { fire(b, r, #{}); left.push(r.marker("attached_artillery") ?? 0); }
    left.push(r.stands);
    left"#;

fn ints(eval: &grognard::script::Evaluation) -> Vec<i64> {
    eval.value.clone().into_array().unwrap().iter().map(|x| x.as_int().unwrap()).collect()
}

#[test]
fn every_base_hit_from_fire_costs_a_marker() {
    // Seed l.61: "Each base hit to the parent unit causes one attached artillery block to be lost."
    // Three fires of 8 (a base hit each): 2 -> 1 -> 0 -> 0 markers, 6 -> 3 bases, whichever
    // marker_loss_same_event says (it only merges a rout with its base hit).
    for choice in ["cumulative", "one"] {
        let host = host_with(&["attached_artillery"], &[("marker_loss_same_event", choice)]);
        let (eval, scope) = run(&host, &[8, 8, 8], UNDER_FIRE);
        assert_eq!(ints(&eval), [1, 0, 0, 3], "{choice}");
        assert!(!unit_in(&scope, "r").markers.contains_key("markers_lost"), "{choice}");
    }
    // Two base hits in one fire (a 10) cost two markers.
    let host = host_with(&["attached_artillery"], &[("marker_loss_same_event", "one")]);
    let (eval, _) = run(&host, &[10, 1, 1], UNDER_FIRE);
    assert_eq!(ints(&eval), [0, 0, 0, 4]);
    // Off: a unit carrying the markers is refused naming the switch (they were once left
    // untouched without a word).
    let err = fails(&host_with(&[], &[]), &[8, 8, 8], UNDER_FIRE);
    assert!(
        err.contains("fire(battery, target, situation): `target` (IR 4): marker \"attached_artillery\" is read only with the optional rule attached_artillery: add --with attached_artillery"),
        "{err}"
    );
}

#[test]
fn the_owners_next_turn_needs_the_batterys_side_and_a_phasing_side() {
    let host = host_with(&["ammunition_shortage"], &[("ammo_next_turn", "owner_next_turn")]);
    let code = r#"let b = unit(#{name: "Battery", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
        let t = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        fire(b, t, #{});
        artillery_phase_end([b], "french")"#;
    let err = fails(&host, &[8, 13], code);
    assert!(err.contains("Battery has no side: with ammo_next_turn = owner_next_turn"), "{err}");
    for bad in ["\"\"", "3"] {
        let err = fails(
            &host,
            &[8, 2],
            &format!("{} fire(b, t, #{{}}); artillery_phase_end([b], {bad})", battery("trained")),
        );
        assert!(err.contains("artillery_phase_end needs the phasing player's side"), "{bad}: {err}");
    }
}

#[test]
fn bad_fire_and_bombardment_input_is_refused_with_a_reason() {
    let host = host_with(&["preliminary_bombardment"], &[]);
    let err = fails(&host, &[5], &format!("{} fire(b, \"IR 4\", #{{}})", battery("trained")));
    assert!(err.contains("Battery fires at IR 4: the target of artillery fire is a unit"), "{err}");
    let err =
        fails(&host, &[5, 5], &format!("{BOMBARDMENT} preliminary_bombardment([a], [b], #{{agreed: true, pairs: 1}})"));
    // The contract declares each entry's keys: a unit given for an entry is refused at the call.
    assert!(
        err.contains("preliminary_bombardment(first, second, situation): first[0] is a map, not the unit"),
        "{err}"
    );
    // A misspelt key of an entry would have fired at medium range without a word.
    let err = fails(
        &host,
        &[5, 5],
        &format!(
            "{BOMBARDMENT} preliminary_bombardment([#{{battery: a, target: b, rnage: \"close\"}}], [], #{{agreed: true, pairs: 1}})"
        ),
    );
    assert!(
        err.contains(
            "preliminary_bombardment(first, second, situation): first[0] has no key `rnage` (did you mean `range`?); it reads: battery, target, range"
        ),
        "{err}"
    );
}
