//! One fact, one key: a situation says each fact once, so two keys cannot disagree and quietly
//! change the odds. Woods is the defender's cover; Guard is one notion in every rule; keys of the
//! maneuver situation that mean something only together are refused alone.

use grognard::script::Host;

use crate::support::{fails, host, int, map_and_trace, run};

/// A unit of the Portuguese (no row of the National Modifiers table: no national modifier).
fn portuguese(name: &str, arm: &str, extra: &str) -> String {
    format!(r#"unit(#{{name: "{name}", nation: "portugal", arm: "{arm}", stands: 6, formation: "line"{extra}}})"#)
}

#[test]
fn cavalry_may_not_charge_in_woods_in_the_seed_s_words() {
    let host = host(&["ff-napoleonic"]);
    let code = format!(
        "let a = {}; let d = {}; melee(a, d, #{{ cover: \"woods\" }})",
        portuguese("Dragoons", "cavalry", ""),
        portuguese("D", "infantry", "")
    );
    let err = fails(&host, &[5, 5], &code);
    assert!(
        err.contains("Dragoons may not charge: \"Cavalry may not charge in woods\" (seed 004, MELEE TABLE MODIFIERS"),
        "{err}"
    );
    // `woods` is no key of its own any more: the cover says it, and the old key is refused.
    let code = format!(
        "let a = {}; let d = {}; melee(a, d, #{{ woods: true }})",
        portuguese("A", "infantry", ""),
        portuguese("D", "infantry", "")
    );
    let err = fails(&host, &[5, 5], &code);
    assert!(err.contains("woods"), "{err}");
}

#[test]
fn woods_in_the_defender_s_cover_is_the_melee_in_woods_for_every_rule() {
    // Infantry charges cavalry in woods. Attacker: -2 infantry not in cover vs cavalry.
    // Defender: +2 mounted cavalry, +1 defending in forest, -4 cavalry meleeing in/into woods.
    // Dice 5 and 5: (5 - 2) - (5 + 2 + 1 - 4) = -1, Assault checked (seed 004, MELEE TABLE).
    let host = host(&["ff-napoleonic"]);
    let code = format!(
        "let a = {}; let d = {}; melee(a, d, #{{ cover: \"woods\" }})",
        portuguese("A", "infantry", ""),
        portuguese("Dragoons", "cavalry", "")
    );
    let (out, lines, scope) = map_and_trace(run(&host, &[5, 5], &code));
    assert_eq!(int(&out, "differential"), -1, "{lines:#?}");
    // "Line infantry or cavalry that melee in woods are disordered at the conclusion of the melee".
    for name in ["a", "d"] {
        assert_eq!(crate::support::unit_in(&scope, name).order, "disordered", "{name}: {lines:#?}");
    }
}

/// The melee differential of `attacker` against a plain French line battalion on dice 9 and 2.
fn differential(host: &Host, attacker: &str) -> i64 {
    let code = format!(
        r#"let a = unit(#{{name: "A", nation: "france", arm: "infantry", stands: 6, formation: "line"{attacker}}});
        let d = unit(#{{name: "D", nation: "france", arm: "infantry", stands: 6, formation: "line"}});
        melee(a, d, #{{}}).differential"#
    );
    run(host, &[9, 2], &code).0.value.as_int().unwrap()
}

#[test]
fn the_old_guard_is_guard_in_melee_and_in_the_emergency_formation_change() {
    let host = host(&["ff-napoleonic"]);
    let plain = differential(&host, "");
    // +2 Grenadier/Guard infantry and +3 French Old Guard (seed 004, MELEE TABLE MODIFIERS),
    // whether the unit says Guard by its type or only by the old_guard marker.
    assert_eq!(differential(&host, r#", markers: #{old_guard: true}"#) - plain, 5);
    assert_eq!(differential(&host, r#", type: "guard", markers: #{old_guard: true}"#) - plain, 5);
    assert_eq!(differential(&host, r#", markers: #{guard: true}"#) - plain, 2);
    // "+1 Any Grenadier/Guard unit" on the Emergency Formation Change.
    let efc = |extra: &str| {
        let code = format!(
            r#"let u = unit(#{{name: "U", nation: "france", arm: "infantry", stands: 6, formation: "line"{extra}}});
            emergency_formation_change(u, #{{to: "square"}}).total"#
        );
        run(&host, &[3], &code).0.value.as_int().unwrap()
    };
    assert_eq!(efc(r#", markers: #{old_guard: true}"#) - efc(""), 1);
    assert_eq!(efc(r#", type: "grenadier""#) - efc(""), 1);
}

const BATTALION: &str =
    r#"let u = unit(#{name: "Bn", nation: "minor", arm: "infantry", stands: 6, formation: "line"});"#;

#[test]
fn an_exceptional_division_officer_out_of_range_is_refused_not_read_as_nothing() {
    let host = host(&["ff-napoleonic"]);
    let err = fails(
        &host,
        &[5],
        &format!(r#"{BATTALION} maneuver(u, #{{commander_rating: "good", division_officer_exceptional: true}})"#),
    );
    assert!(
        err.contains(
            "situation.division_officer_exceptional is true but situation.division_officer_in_range is not: the +2 is \
             for a unit \"within range of an exceptional divisional officer\" (seed 004, MANEUVER TABLE MODIFIERS)"
        ),
        "{err}"
    );
    // Both given: +2 (seed 004, MANEUVER TABLE MODIFIERS), the tier's best (not +1 as well).
    let code = format!(
        r#"{BATTALION} maneuver(u, #{{commander_rating: "good", division_officer_in_range: true, division_officer_exceptional: true}}).total"#
    );
    assert_eq!(run(&host, &[5], &code).0.value.as_int().unwrap(), 5 + 2);
}

#[test]
fn an_army_commander_s_rating_and_his_range_are_given_together() {
    let host = host(&["ff-napoleonic"]);
    let alone =
        |keys: &str| fails(&host, &[5], &format!(r#"{BATTALION} maneuver(u, #{{commander_rating: "good", {keys}}})"#));
    let err = alone(r#"army_commander: "excellent", corps_commanders: true"#);
    assert!(
        err.contains("situation.army_commander is excellent but situation.army_commander_in_range is not true"),
        "{err}"
    );
    let err = alone("army_commander_in_range: true, corps_commanders: true");
    assert!(
        err.contains("situation.army_commander_in_range is true but situation.army_commander gives no rating"),
        "{err}"
    );
}

#[test]
fn fire_points_given_with_the_stands_that_fire_are_refused() {
    let host = host(&["ff-napoleonic"]);
    let firer = portuguese("L", "infantry", "");
    let target = portuguese("T", "infantry", "");
    let err = fails(&host, &[5], &format!("fire({firer}, {target}, #{{ fire_points: 6, firing_stands: 3 }})"));
    assert!(
        err.contains(
            "situation.fire_points and situation.firing_stands are both given: the fire points are used as given, \
             and the stands that fire would count for nothing"
        ),
        "{err}"
    );
    // Each alone still reads: 3 stands at 1" in line, 1 fire point each (seed 004, RANGE AND FIRE POINTS).
    let (out, lines, _) =
        map_and_trace(run(&host, &[5], &format!("fire({firer}, {target}, #{{ range: 1, firing_stands: 3 }})")));
    assert_eq!(out["fire_points"].as_float().unwrap(), 3.0, "{lines:#?}");
}

#[test]
fn a_new_formation_without_a_formation_change_is_refused() {
    let host = host(&["ff-napoleonic"]);
    let code = r#"let u = unit(#{name: "Bn", nation: "france", arm: "infantry", stands: 6, formation: "column"});
        move_allowance(u, #{ new_formation: "line" })"#;
    let err = fails(&host, &[], code);
    assert!(err.contains("situation.new_formation is line but situation.formation_change is not true"), "{err}");
}
