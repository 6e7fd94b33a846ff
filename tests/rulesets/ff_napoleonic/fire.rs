//! The fire procedure: fire points from the range table, the modifiers, the
//! fallen-leader check, and exact odds against an independent count.

use std::collections::BTreeMap;

use grognard::dice::{EnumLimits, Supplied};
use grognard::rules::{LookupValue, Switches};
use grognard::script::{Host, LeaderRef, Outcome};
use rhai::Scope;

use crate::support::{host, ratio, ruleset};

/// Seed 004, MUSKETRY AND CANNONADE TABLE, typed here for the rows these tests read:
/// (lowest total of lively, telling, deadly, withering), none where the row has no such column.
fn musketry_columns(fire_points: i64) -> [Option<i64>; 4] {
    match fire_points {
        4 => [Some(8), Some(11), None, None],
        6 | 7 => [Some(6), Some(9), None, None],
        8 | 9 => [Some(6), Some(9), Some(12), None],
        12..=14 => [Some(4), Some(7), Some(10), None],
        _ => panic!("row {fire_points} is not typed here"),
    }
}

fn musketry_result(fire_points: i64, total: i64) -> &'static str {
    let names = ["lively", "telling", "deadly", "withering"];
    let mut result = "desultory";
    for (name, low) in names.iter().zip(musketry_columns(fire_points)) {
        if low.is_some_and(|low| total >= low) {
            result = name;
        }
    }
    result
}

fn fire_value(host: &Host, code: &str) -> rhai::Map {
    host.eval(&mut Scope::new(), code).unwrap().value.cast::<rhai::Map>()
}

#[test]
fn fire_points_come_from_the_range_table() {
    let host = host(&["ff-napoleonic"]);
    let fire = |firer: &str, range: &str| -> f64 {
        host.set_dice(Box::new(Supplied::new([1])));
        let code = format!(
            r#"fire({firer}, unit(#{{name: "T", arm: "infantry", stands: 6, formation: "line"}}), #{{ {range} }})"#
        );
        fire_value(&host, &code)["fire_points"].as_float().unwrap_or(0.0)
    };
    let line = r#"unit(#{name: "L", arm: "infantry", stands: 6, formation: "line"})"#;
    let column = r#"unit(#{name: "C", arm: "infantry", stands: 6, formation: "column"})"#;
    let light = r#"unit(#{name: "V", arm: "infantry", type: "light", stands: 4, formation: "line"})"#;
    let heavy = r#"unit(#{name: "12-pdr", arm: "artillery", type: "heavy", stands: 1, formation: "unlimbered"})"#;
    let horse = r#"unit(#{name: "6-pdr", arm: "artillery", type: "horse", stands: 2, formation: "unlimbered"})"#;
    // Infantry: contact 2 per stand, out to 2" 1 per stand; every stand in line, the front 2 in column.
    assert_eq!(fire(line, "range: 0"), 12.0);
    assert_eq!(fire(line, "range: 2.0"), 6.0);
    assert_eq!(fire(column, "range: 1"), 2.0);
    assert_eq!(fire(column, "range: 1, firing_stands: 3"), 3.0);
    // Light infantry reach 3".
    assert_eq!(fire(light, "range: 3"), 4.0);
    // Heavy artillery: contact to 2" = 12, 2"+ to 8" = 4, 8"+ to 12" = 2, 12"+ to 16" = 1.
    assert_eq!(fire(heavy, "range: 2"), 12.0);
    assert_eq!(fire(heavy, "range: 2.1"), 4.0);
    assert_eq!(fire(heavy, "range: 12"), 2.0);
    assert_eq!(fire(heavy, "range: 16"), 1.0);
    // Horse artillery: per battery model.
    assert_eq!(fire(horse, "range: 5"), 6.0);
    // Out of range, and mounted cavalry, do not fire.
    host.set_dice(Box::new(Supplied::new([])));
    let out = format!(
        r#"fire({line}, unit(#{{name: "T", arm: "infantry", stands: 6, formation: "line"}}), #{{ range: 2.5 }})"#
    );
    assert_eq!(fire_value(&host, &out)["result"].to_string(), "no_fire");
    let cavalry = r#"fire(unit(#{name: "H", arm: "cavalry", stands: 4, formation: "line"}), unit(#{name: "T", arm: "infantry", stands: 6, formation: "line"}), #{ range: 1 })"#;
    assert_eq!(fire_value(&host, cavalry)["result"].to_string(), "no_fire");
}

#[test]
fn exact_odds_of_fire_at_several_ranges_against_an_independent_count() {
    let host = host(&["ff-napoleonic"]);
    // (firer, range, fire points, die modifier)
    let cases = [
        (r#"unit(#{name: "L", nation: "minor", arm: "infantry", stands: 6, formation: "line"})"#, "0", 12, 0),
        (r#"unit(#{name: "L", nation: "minor", arm: "infantry", stands: 6, formation: "line"})"#, "1.5", 6, 0),
        (r#"unit(#{name: "B", nation: "britain", arm: "infantry", stands: 7, formation: "line"})"#, "2", 7, 1),
        (
            r#"unit(#{name: "12-pdr", nation: "france", arm: "artillery", type: "heavy", stands: 1, formation: "unlimbered"})"#,
            "6",
            4,
            2,
        ),
        (
            r#"unit(#{name: "12-pdr", nation: "austria", arm: "artillery", type: "heavy", stands: 2, formation: "unlimbered"})"#,
            "10",
            4,
            0,
        ),
    ];
    for (firer, range, fire_points, modifier) in cases {
        let code = format!(
            r#"fire({firer}, unit(#{{name: "T", arm: "infantry", stands: 6, formation: "line"}}), #{{ range: {range} }}).result"#
        );
        let odds = host.odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap();
        assert!(odds.exact && odds.cut_off_at.is_none());
        let mut expected: BTreeMap<&str, i64> = BTreeMap::new();
        for face in 1..=10 {
            *expected.entry(musketry_result(fire_points, face + modifier)).or_default() += 1;
        }
        assert_eq!(odds.distribution.len(), expected.len(), "{firer} at {range}");
        for (result, ways) in expected {
            assert_eq!(
                odds.distribution.probability(&Outcome::Word(result.into())),
                ratio(ways, 10),
                "{firer} at {range}: {result}"
            );
        }
    }
}

#[test]
fn the_fallen_leader_check_follows_the_trigger_interpretation() {
    let code = r#"let t = unit(#{name: "T", arm: "infantry", stands: 6, formation: "line"});
        let g = leader(#{name: "General"}); t.attach(g);
        fire(unit(#{name: "F", arm: "infantry", stands: 6, formation: "line"}), t, #{ range: 2 }); g"#;
    let run = |choice: &str, faces: Vec<i64>| -> (LeaderRef, Vec<String>) {
        let mut rs = ruleset(&["ff-napoleonic"]);
        rs.apply(&Switches { set: vec![("fallen_leader_trigger".into(), choice.into())], ..Switches::default() })
            .unwrap();
        let host = Host::new(rs).unwrap();
        host.set_dice(Box::new(Supplied::new(faces)));
        let eval = host.eval(&mut Scope::new(), code).unwrap();
        (eval.value.cast::<LeaderRef>(), eval.trace.lines())
    };
    // A natural 10 triggers; 2d6 of 2 fells him.
    let (g, lines) = run("natural_10", vec![10, 1, 1]);
    assert!(g.0.borrow().has_marker("killed"), "{lines:#?}");
    assert!(lines.iter().any(|l| l == "roll    fallen leader: General, 2d6: [1 1] = 2"));
    // A 9 does not.
    let (g, lines) = run("natural_10", vec![9]);
    assert!(g.0.borrow().markers.is_empty(), "{lines:#?}");
    // With the 2d6 musketry die, only 12 triggers.
    let (g, _) = run("musketry_2d6", vec![6, 6, 3, 4]);
    assert!(g.0.borrow().has_marker("killed"));
}

/// A fire at 2" on `T` (General attached) with the musketry die 10 (the fallen-leader
/// trigger) and then `faces` for the Fallen Leader Table, then `after`; the value of `after`.
fn fallen_leader_then(faces: [i64; 2], after: &str) -> Result<rhai::Dynamic, String> {
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([10, faces[0], faces[1], 1, 1, 1, 1])));
    let code = format!(
        r#"let t = unit(#{{name: "T", arm: "infantry", stands: 6, formation: "line"}});
        let other = unit(#{{name: "Other", arm: "infantry", stands: 6, formation: "line"}});
        let g = leader(#{{name: "General"}}); t.attach(g);
        fire(unit(#{{name: "F", arm: "infantry", stands: 6, formation: "line"}}), t, #{{ range: 2 }});
        {after}"#
    );
    host.eval(&mut Scope::new(), &code).map(|e| e.value).map_err(|e| e.to_string())
}

#[test]
fn a_fallen_leader_leaves_his_unit_and_gives_no_more_bonus() {
    let leaders = |faces, after: &str| fallen_leader_then(faces, after).unwrap().as_int().unwrap();
    // Shot dead in saddle (7), felled (2), crushed (3), grievously wounded (9): gone at once.
    for faces in [[3, 4], [1, 1], [1, 2], [4, 5]] {
        assert_eq!(leaders(faces, "t.leaders.len()"), 0, "{faces:?}");
        assert_eq!(leaders(faces, "if g.attached { 1 } else { 0 }"), 0, "{faces:?}");
    }
    // Before: the maneuver table's attached-officer +2 and the melee +1; after, neither.
    let maneuver = |faces| {
        let mods = r#"modifiers("maneuver_modifiers", #{unit: t, situation: #{}}).applied"#;
        leaders(faces, &format!(r#"if "officer_attached" in {mods} {{ 1 }} else {{ 0 }}"#))
    };
    assert_eq!(maneuver([1, 3]), 1, "a staff officer hit (4) leaves the general attached");
    assert_eq!(maneuver([3, 4]), 0, "shot dead in saddle (7)");
    // Coat pierced (12) and the other no-effect results change nothing.
    assert_eq!(leaders([6, 6], "t.leaders.len()"), 1);
}

#[test]
fn a_disabled_leader_leaves_at_the_end_of_the_player_turn() {
    let value = |after: &str| fallen_leader_then([2, 3], after).unwrap();
    // Disabled (5): still with his brigade for the rest of the turn.
    assert_eq!(value("t.leaders.len()").as_int().unwrap(), 1);
    assert!(value(r#"g.has_marker("disabled")"#).as_bool().unwrap());
    // At its end he leaves.
    let removed = value("end_of_player_turn([g])").cast::<rhai::Array>();
    assert_eq!(removed.iter().map(|d| d.to_string()).collect::<Vec<_>>(), ["General"]);
    assert_eq!(value("end_of_player_turn([g]); t.leaders.len()").as_int().unwrap(), 0);
    // A leader in good health stays, and is not named.
    assert_eq!(value("end_of_player_turn([leader(#{name: \"Fit\"})]).len()").as_int().unwrap(), 0);
}

#[test]
fn a_stunned_leader_is_out_for_a_turn_and_returns_to_his_brigade() {
    let value = |after: &str| fallen_leader_then([5, 6], after);
    // Stunned (11): out of play at once.
    assert_eq!(value("t.leaders.len()").unwrap().as_int().unwrap(), 0);
    // Back with his brigade, markers gone.
    assert_eq!(value("stunned_return(g, t); t.leaders.len()").unwrap().as_int().unwrap(), 1);
    assert!(
        !value(r#"stunned_return(g, t); g.has_marker("removed") || g.has_marker("stunned_turns")"#)
            .unwrap()
            .as_bool()
            .unwrap()
    );
    // Unattached when the brigade is gone.
    assert!(!value("stunned_return(g, ()); g.attached").unwrap().as_bool().unwrap());
    // Another brigade is refused, naming his own.
    let err = value("stunned_return(g, other)").unwrap_err();
    assert!(err.contains("General was stunned with") && err.contains("returns to that brigade"), "{err}");
    // A leader who was not stunned cannot return.
    let err = value("stunned_return(g, t); stunned_return(g, t)").unwrap_err();
    assert!(err.contains("General is not stunned"), "{err}");
    // Killed (2) is not stunned either.
    let err = fallen_leader_then([1, 1], "stunned_return(g, t)").unwrap_err();
    assert!(err.contains("General is not stunned"), "{err}");
}

#[test]
fn the_2d6_musketry_die_changes_every_chance() {
    let mut rs = ruleset(&["ff-napoleonic"]);
    rs.set_interpretation("fallen_leader_trigger", "musketry_2d6").unwrap();
    let code = r#"fire(unit(#{name: "L", nation: "minor", arm: "infantry", stands: 6, formation: "line"}),
        unit(#{name: "T", arm: "infantry", stands: 6, formation: "line"}), #{ range: 1 }).result"#;
    let odds = Host::new(rs).unwrap().odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap();
    let mut expected: BTreeMap<&str, i64> = BTreeMap::new();
    for a in 1..=6 {
        for b in 1..=6 {
            *expected.entry(musketry_result(6, a + b)).or_default() += 1;
        }
    }
    for (result, ways) in expected {
        assert_eq!(odds.distribution.probability(&Outcome::Word(result.into())), ratio(ways, 36), "{result}");
    }
}

#[test]
fn cover_counts_once_unless_switched() {
    let code = r#"fire(unit(#{name: "L", nation: "minor", arm: "infantry", stands: 6, formation: "line"}),
        unit(#{name: "T", arm: "infantry", stands: 6, formation: "line"}), #{ range: 1, cover: ["woods", "stone_wall"] }).total"#;
    for (choice, total) in [("worst", 8), ("cumulative", 7)] {
        let mut rs = ruleset(&["ff-napoleonic"]);
        rs.set_interpretation("fire_cover_stacking", choice).unwrap();
        let host = Host::new(rs).unwrap();
        host.set_dice(Box::new(Supplied::new([10])));
        assert_eq!(host.eval(&mut Scope::new(), code).unwrap().value.as_int().unwrap(), total, "{choice}");
    }
}

#[test]
fn the_british_fire_modifier_agrees_with_the_national_table() {
    let rs = ruleset(&["ff-napoleonic"]);
    let table = &rs.tables["national_modifiers"];
    let LookupValue::Map(nations) = table.read_lookup(&[]).unwrap() else { panic!("a lookup") };
    for (nation, arms) in nations {
        let LookupValue::Map(arms) = arms else { panic!("{nation}") };
        for arm in arms.keys() {
            let fire = table.read_lookup(&[nation.clone(), arm.clone(), "fire".into()]).unwrap();
            let expected = if nation == "britain" && arm == "infantry" { 1 } else { 0 };
            assert_eq!(fire, &LookupValue::Int(expected), "{nation} {arm}");
        }
    }
    let modifier = rs.modifiers["fire_modifiers"].modifiers.iter().find(|m| m.id == "british_infantry_fire").unwrap();
    assert_eq!(modifier.effect, grognard::rules::ModEffect::Add(1));
}

#[test]
fn a_modified_twelve_can_be_the_trigger_instead() {
    let code = r#"let t = unit(#{name: "T", arm: "infantry", stands: 6, formation: "march_column"});
        let g = leader(#{name: "General"}); t.attach(g);
        fire(unit(#{name: "F", nation: "britain", arm: "infantry", stands: 6, formation: "line"}), t, #{ range: 2 }); g"#;
    let mut rs = ruleset(&["ff-napoleonic"]);
    rs.set_interpretation("fallen_leader_trigger", "modified_12").unwrap();
    let host = Host::new(rs).unwrap();
    // 10 + 1 (British) + 1 (march column) = 12: the check; 2d6 of 2 fells him.
    host.set_dice(Box::new(Supplied::new([10, 1, 1])));
    assert!(host.eval(&mut Scope::new(), code).unwrap().value.cast::<LeaderRef>().0.borrow().has_marker("killed"));
    // 9 + 2 = 11: no check, whatever the die.
    host.set_dice(Box::new(Supplied::new([9])));
    assert!(host.eval(&mut Scope::new(), code).unwrap().value.cast::<LeaderRef>().0.borrow().markers.is_empty());
}

/// Fire between two placed units: the fire points and range worked out on the table.
fn fire_on_table(firer: &str, target: &str) -> rhai::Map {
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([1])));
    fire_value(&host, &format!("fire({firer}, {target}, #{{}})"))
}

#[test]
fn on_the_table_each_stand_measures_in_its_own_arc() {
    // Six stands 1" wide in line along y = 0, facing up the table; a column two stands
    // wide, 2" ahead, facing them. The outer stands' nearest corners are sqrt(1 + 4) =
    // 2.24" away (3" rounded up: out of range); the other four are 2" away: 1 point each.
    let line = r#"unit(#{name: "L", nation: "minor", arm: "infantry", stands: 6, formation: "line", placement: #{x: 0.0, y: 0.0, facing: 0.0}})"#;
    let column = r#"unit(#{name: "C", arm: "infantry", stands: 6, formation: "column", placement: #{x: 0.0, y: 2.0, facing: 180.0}})"#;
    let value = fire_on_table(line, column);
    assert_eq!(
        value["fire_points"].as_int().or_else(|_| value["fire_points"].as_float().map(|f| f as i64)).unwrap(),
        4
    );
    // The same column at contact: every stand whose arc holds it fires at 2 points.
    let touching = r#"unit(#{name: "C", arm: "infantry", stands: 6, formation: "column", placement: #{x: 0.0, y: 0.0, facing: 180.0}})"#;
    let value = fire_on_table(line, touching);
    let points = value["fire_points"].as_float().unwrap();
    // The two stands in front of the column touch it (2 each); the next on each side are
    // in arc at 0" from the corner too (they touch its corner): 2 each; the outer two are
    // 1" off to the side and in arc: 1 each.
    assert_eq!(points, 2.0 * 4.0 + 2.0);
}

#[test]
fn a_target_outside_every_arc_is_not_fired_on() {
    let line = r#"unit(#{name: "L", nation: "minor", arm: "infantry", stands: 6, formation: "line", placement: #{x: 0.0, y: 0.0, facing: 0.0}})"#;
    let aside = r#"unit(#{name: "C", arm: "infantry", stands: 4, formation: "line", placement: #{x: 10.0, y: 1.0, facing: 270.0}})"#;
    assert_eq!(fire_on_table(line, aside)["result"].to_string(), "no_fire");
}

#[test]
fn only_a_columns_front_stands_fire() {
    let column = r#"unit(#{name: "C", nation: "minor", arm: "infantry", stands: 6, formation: "column", placement: #{x: 0.0, y: 0.0, facing: 0.0}})"#;
    let target = r#"unit(#{name: "T", arm: "infantry", stands: 6, formation: "line", placement: #{x: 0.0, y: 1.0, facing: 180.0}})"#;
    // Two front stands, each 1" from a 6" line: 1 point each.
    assert_eq!(fire_on_table(column, target)["fire_points"].as_float().unwrap(), 2.0);
}

#[test]
fn artillery_fires_in_a_narrower_arc_and_its_range_counts_for_the_modifiers() {
    let battery = r#"unit(#{name: "12-pdr", nation: "france", arm: "artillery", type: "heavy", stands: 1, formation: "unlimbered", placement: #{x: 0.0, y: 0.0, facing: 0.0}})"#;
    // 6" ahead and 3" to the side: the angle off the gun's front-left corner is about
    // 21 degrees, inside 30; 4" to the side, with the gun 1" wide, it is outside.
    let near = r#"unit(#{name: "T", arm: "infantry", stands: 1, formation: "line", placement: #{x: 3.5, y: 6.0, facing: 180.0}})"#;
    let value = fire_on_table(battery, near);
    assert_eq!(value["fire_points"].as_float().unwrap(), 4.0);
    // French heavy artillery out to 8": +2 on the die (1 + 2 = 3).
    assert_eq!(value["total"].as_int().unwrap(), 3);
    let wide = r#"unit(#{name: "T", arm: "infantry", stands: 1, formation: "line", placement: #{x: 5.5, y: 6.0, facing: 180.0}})"#;
    assert_eq!(fire_on_table(battery, wide)["result"].to_string(), "no_fire");
}

/// A foot battery (heavy artillery row, 1 stand) and a minor line battalion of 6 stands 2" away.
const GUNS_AND_LINE: &str = r#"let g = unit(#{name: "Guns", nation: "austria", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
    let i = unit(#{name: "Line", nation: "minor", arm: "infantry", stands: 6, formation: "line"});"#;

#[test]
fn a_battery_silenced_by_defensive_fire_does_not_fire_back() {
    use crate::support::{map_and_trace, run, unit_in};
    let host = host(&["ff-napoleonic"]);
    // Lively. The line fires first (defensive fire): 6 stands x 1 fire point at 2" = 6, row 6,7;
    // the die 8, -1 infantry firing at unlimbered artillery = 7, Lively (6-8): "artillery
    // silenced". Then the battery's own fire: silenced, it does not fire, and rolls no die (the
    // supplied faces would run out).
    let code = format!(
        "{GUNS_AND_LINE} let first = fire(i, g, #{{range: 2}}); let back = fire(g, i, #{{range: 2}}); #{{first: first.result, back: back.result}}"
    );
    let (value, lines, scope) = map_and_trace(run(&host, &[8], &code));
    assert_eq!((value["first"].to_string(), value["back"].to_string()), ("lively".into(), "no_fire".into()));
    let guns = unit_in(&scope, "g");
    assert!(guns.has_marker("silenced") && !guns.has_marker("battery"), "{:?}", guns.markers);
    assert_eq!(guns.stands, 1);
    assert!(lines.iter().any(|l| l == "note    Guns: Artillery silenced"), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("Guns is silenced: it may not fire")), "{lines:#?}");
    assert_eq!(unit_in(&scope, "i").stands, 6);

    // Telling: the die 10, -1 = 9, Telling (9+): "Artillery damaged & silenced", both at once.
    // (A natural 10 is the fallen-leader trigger; no officer is with the guns.)
    let code = format!("{GUNS_AND_LINE} fire(i, g, #{{range: 2}}); fire(g, i, #{{range: 2}})");
    let (value, _, scope) = map_and_trace(run(&host, &[10], &code));
    assert_eq!(value["result"].to_string(), "no_fire");
    let guns = unit_in(&scope, "g");
    assert!(guns.has_marker("silenced"));
    assert_eq!(guns.markers.get("battery").map(|m| m.to_string()), Some("damaged".into()));

    // At the end of its own side's player turn it recovers, still damaged: at 2" the heavy
    // row gives 12 fire points, halved for the damaged battery to 6 (row 6,7); the die 7 is
    // Lively (6-8), where 12 undamaged points (row 12-14) would read Telling (7-9).
    let code = format!(
        "{GUNS_AND_LINE} fire(i, g, #{{range: 2}}); let back = end_of_player_turn_units([g, i]); let r = fire(g, i, #{{range: 2}}); #{{back: back, result: r.result, fire_points: r.fire_points}}"
    );
    let (value, _, scope) = map_and_trace(run(&host, &[10, 7], &code));
    assert_eq!(value["back"].to_string(), r#"["Guns"]"#);
    assert_eq!(value["result"].to_string(), "lively");
    assert_eq!(value["fire_points"].as_float().unwrap(), 6.0);
    let guns = unit_in(&scope, "g");
    assert!(!guns.has_marker("silenced"));
    assert_eq!(guns.markers.get("battery").map(|m| m.to_string()), Some("damaged".into()));
    // The line it fired on: disordered by the Lively fire, no stand lost.
    let line = unit_in(&scope, "i");
    assert_eq!((line.order.as_str(), line.stands), ("disordered", 6));
}

#[test]
fn a_battery_silenced_in_melee_does_not_fire_and_keeps_its_damage() {
    use crate::support::{map_and_trace, run, unit_in};
    let host = host(&["ff-napoleonic"]);
    // A minor line battalion of 6 stands charges a battery of 2 stands: the battery is
    // outnumbered 3:1 (-3), the infantry has no modifier. 3 - (2 - 3) = 4: Driven back,
    // "Defenders retreat full move disordered/silenced. One stand removed. Battery damaged."
    let code = r#"let g = unit(#{name: "Guns", nation: "austria", arm: "artillery", type: "foot", stands: 2, formation: "unlimbered"});
        let i = unit(#{name: "Line", nation: "minor", arm: "infantry", stands: 6, formation: "line"});
        let m = melee(i, g, #{});
        let r = fire(g, i, #{range: 2});
        #{melee: m.result, differential: m.differential, fire: r.result}"#;
    let (value, lines, scope) = map_and_trace(run(&host, &[3, 2], code));
    assert_eq!(value["melee"].to_string(), "driven_back", "{lines:#?}");
    assert_eq!(value["differential"].as_int().unwrap(), 4);
    assert_eq!(value["fire"].to_string(), "no_fire");
    let guns = unit_in(&scope, "g");
    assert!(guns.has_marker("silenced"), "{:?}", guns.markers);
    assert_eq!(guns.markers.get("battery").map(|m| m.to_string()), Some("damaged".into()));
    assert_eq!(guns.markers.get("retreat").map(|m| m.to_string()), Some("full move".into()));
    assert_eq!(guns.stands, 1);
}

#[test]
fn stands_lost_are_stated_as_lost() {
    use crate::support::{map_and_trace, run, unit_in};
    let host = host(&["ff-napoleonic"]);
    // 15 fire points (row 15-19) at a 2-stand square: the die 10, +2 for a square = 12,
    // Withering (12+): "Target disordered & 3 stands lost". It has 2 to lose.
    let code = r#"let t = unit(#{name: "Square", nation: "minor", arm: "infantry", stands: 2, formation: "square"});
        fire(unit(#{name: "Line", nation: "minor", arm: "infantry", stands: 6, formation: "line"}), t, #{fire_points: 15})"#;
    let (value, lines, scope) = map_and_trace(run(&host, &[10], code));
    assert_eq!(value["result"].to_string(), "withering");
    assert_eq!(unit_in(&scope, "t").stands, 0);
    assert!(
        lines.iter().any(|l| l == "effect  Square: disordered, loses 2 stands (3 called for, all it had)"),
        "{lines:#?}"
    );
}
