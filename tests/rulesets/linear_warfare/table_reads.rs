//! Issue 39, one number in one place: where a rule's value is in a table, the
//! procedures and conditions read it there. Each test changes the table's value
//! (in memory, as an overlay's `set` would) and sees the result change with it;
//! the values as shipped give what the other tests of this folder work by hand.

use grognard::dice::Supplied;
use grognard::rules::{LookupValue, TableBody};
use grognard::script::Host;

use crate::support::{error_debug, eval_map, int, map_and_trace, ruleset, run, text, unit_in, value};

/// linear-warfare with each `(table, keys, value)` written into its lookup table.
fn lw_setting(set: &[(&str, &[&str], LookupValue)]) -> Host {
    lw_setting_with(set, &[])
}

/// As `lw_setting`, with interpretations chosen.
fn lw_setting_with(set: &[(&str, &[&str], LookupValue)], interpretations: &[(&str, &str)]) -> Host {
    let mut rs = ruleset(&["linear-warfare"]);
    for (table, keys, new) in set {
        let t = rs.tables.get_mut(*table).unwrap_or_else(|| panic!("no table {table}"));
        let TableBody::Lookup { values, .. } = &mut t.body else { panic!("{table} is not a lookup") };
        let mut at: &mut LookupValue = values;
        for key in *keys {
            at = match at {
                LookupValue::Map(m) => m.get_mut(*key).unwrap_or_else(|| panic!("{table} has no {key}")),
                other => panic!("{table}: {key} under {other}"),
            };
        }
        *at = new.clone();
    }
    for (name, choice) in interpretations {
        rs.set_interpretation(name, choice).unwrap();
    }
    Host::new(rs).unwrap_or_else(|p| panic!("linear-warfare does not compile: {p:?}"))
}

fn shipped() -> Host {
    lw_setting(&[])
}

/// Both sides roll 5; the rest of the dice (trophies, officers, pursuit) roll 1.
fn differential(host: &Host, code: &str) -> (i64, Vec<String>) {
    let (v, lines, _) = map_and_trace(run(host, &[5, 5, 1, 1, 1, 1, 1, 1], code));
    (v["differential"].as_int().unwrap(), lines)
}

/// Horse of grade 2 charging foot of grade 2 (4 stands each) with a 12" run-in.
fn horse_charges_foot(doctrine: &str, formation: &str) -> String {
    format!(
        r#"let c = unit(#{{name: "Horse", arm: "cavalry", type: "heavy", grade: "2", stands: 4, formation: "line", markers: #{{doctrine: "{doctrine}"}}}});
        let d = unit(#{{name: "Foot", arm: "infantry", grade: "2", stands: 4, formation: "{formation}"}});
        charge_combat(c, d, #{{charger_run_in: 12}})"#
    )
}

#[test]
fn the_full_impetus_is_the_house_tables_number_and_all_out_in_disorder_the_seeds() {
    // All Out in Good Order: 5 + 2 (Full Impetus, house) + 1 (horse against foot not in
    // square) - 5 = 3. Typed as 3 in tables/cavalry_full_impetus.yaml: 4.
    let code = horse_charges_foot("all_out_good_order", "line");
    let (d, lines) = differential(&shipped(), &code);
    assert_eq!(d, 3);
    assert!(
        lines.iter().any(|l| l.starts_with("mod     yes")
            && l.contains("Full Impetus bonus: +1 per point of the house table cavalry_full_impetus")),
        "{lines:#?}"
    );
    let three = lw_setting(&[("cavalry_full_impetus", &["all_out_good_order"], LookupValue::Int(3))]);
    assert_eq!(differential(&three, &code).0, 4);
    // All Out in Disorder prints its +2 (L399): the house table does not change it.
    let code = horse_charges_foot("all_out_disorder", "line");
    assert_eq!(differential(&shipped(), &code).0, 3);
    assert_eq!(differential(&three, &code).0, 3);
    // Full Impetus needs the All Out run-in, 10": 6" straight earns none (5 + 1 - 5).
    let short = horse_charges_foot("all_out_good_order", "line").replace("charger_run_in: 12", "charger_run_in: 6");
    let (d, lines) = differential(&shipped(), &short);
    assert_eq!(d, 1);
    assert!(lines.iter().any(|l| l.contains("(10.0\" needed): no impetus")), "{lines:#?}");
}

#[test]
fn the_sleeve_bonus_and_penalty_are_the_sleeve_tables() {
    // At the Trot with Fire: no impetus. Against a sleeve the horse keeps neither the +1
    // "versus Foot Not in Square" nor takes the -2 for a square (L175): 5 - 5 = 0.
    let code = horse_charges_foot("trot_with_fire", "sleeve");
    assert_eq!(differential(&shipped(), &code).0, 0);
    let bonus = lw_setting(&[("sleeve", &["cavalry_vs_foot_not_in_square_bonus"], LookupValue::Flag(true))]);
    assert_eq!(differential(&bonus, &code).0, 1);
    let penalty = lw_setting(&[("sleeve", &["cavalry_vs_square_penalty"], LookupValue::Flag(true))]);
    let (d, lines) = differential(&penalty, &code);
    assert_eq!(d, -2);
    assert!(lines.iter().any(|l| l.starts_with("mod     yes") && l.contains("Cavalry facing a Square")), "{lines:#?}");
    // A square and a line are not the sleeve's to change: -2 and +1 either way.
    for host in [shipped(), bonus, penalty] {
        assert_eq!(differential(&host, &horse_charges_foot("trot_with_fire", "square")).0, -2);
        assert_eq!(differential(&host, &horse_charges_foot("trot_with_fire", "line")).0, 1);
    }
}

#[test]
fn a_sleeve_fires_to_a_flank_only_if_its_table_says_so() {
    let code = r#"let c = unit(#{name: "Horse", arm: "cavalry", type: "heavy", grade: "2", stands: 4, formation: "line", markers: #{doctrine: "all_out_good_order"}});
        let d = unit(#{name: "Foot", arm: "infantry", grade: "2", stands: 8, formation: "sleeve"});
        charge(c, d, #{reaction: "fire", charger_run_in: 12, charged_in: "flank"}).fire[0].fire_points"#;
    let host = shipped();
    host.set_dice(Box::new(Supplied::new([10, 1, 5, 5, 9, 1])));
    assert!(error_debug(&host, code).contains("a sleeve has no fire to the flanks"));
    let host = lw_setting(&[("sleeve", &["flank_fire"], LookupValue::Flag(true))]);
    host.set_dice(Box::new(Supplied::new([10, 1, 5, 5, 9, 1, 1, 1, 1, 1, 1, 1])));
    // It fires as a sleeve does: 8 / 4 = 2 stands, 4 FP.
    assert_eq!(value(&host, code).as_float().unwrap(), 4.0);
}

#[test]
fn a_late_reaction_changes_formation_only_if_the_table_forbids_it() {
    // The foot has fired: it may not form square (L117) ... unless the table says it may.
    let code = r#"let c = unit(#{name: "Horse", arm: "cavalry", type: "heavy", grade: "3", stands: 4, formation: "line", markers: #{doctrine: "all_out_good_order"}});
        let d = unit(#{name: "Foot", arm: "infantry", grade: "2", stands: 6, formation: "line"});
        d.set_marker("fired", true);
        charge(c, d, #{reaction: "change_formation", new_formation: "square", charger_run_in: 12, defender_stands: 4})"#;
    let dice = [10, 9, 5, 5, 9, 1, 1, 1, 1, 1, 1, 1];
    let (_, lines, scope) = map_and_trace(run(&shipped(), &dice, code));
    assert_eq!(unit_in(&scope, "d").formation, "line");
    assert!(lines.iter().any(|l| l.contains("cannot change formation or facing, it stands")), "{lines:#?}");
    let host = lw_setting(&[("late_reaction", &["may_change_formation"], LookupValue::Flag(true))]);
    let (_, lines, scope) = map_and_trace(run(&host, &dice, code));
    assert_eq!(unit_in(&scope, "d").formation, "square", "{lines:#?}");
    // Facing alone is still barred, and said so.
    let facing =
        code.replace(r#"reaction: "change_formation", new_formation: "square""#, r#"reaction: "change_facing""#);
    let (_, lines, _) = map_and_trace(run(&host, &dice, &facing));
    assert!(lines.iter().any(|l| l.contains("cannot change facing, it stands")), "{lines:#?}");
}

#[test]
fn oblique_drill_separation_and_the_move_to_contact_read_their_tables() {
    let code = r#"let fr = unit(#{name: "F", nation: "france", arm: "infantry", stands: 4, formation: "line"});
        let c = unit(#{name: "C", arm: "infantry", stands: 4, formation: "column"});
        #{ob: move_allowed(fr, "oblique", 1745), narrow: separation(c, 0.8, 0.75).needed}"#;
    let m = eval_map(&shipped(), code);
    let ob = m["ob"].clone().cast::<rhai::Map>();
    assert!(!ob["allowed"].as_bool().unwrap());
    assert!(ob["reason"].to_string().contains("wheel to face the direction of movement"));
    // "1 stand width or 1" (whichever is less)": 0.75".
    assert_eq!(m["narrow"].as_float().unwrap(), 0.75);
    let host = lw_setting(&[
        ("infantry_drill", &["no_oblique_movement", "wheel_to_face_movement"], LookupValue::Flag(false)),
        ("unit_separation", &["column", "or_stand_width"], LookupValue::Flag(false)),
    ]);
    let m = eval_map(&host, code);
    let ob = m["ob"].clone().cast::<rhai::Map>();
    assert_eq!(ob["reason"].to_string(), "F has no oblique drill in 1745: change formation to face the rear");
    assert_eq!(m["narrow"].as_float().unwrap(), 1.0);
    let host = lw_setting(&[(
        "infantry_drill",
        &["no_oblique_movement", "sideways_or_slanted_moves"],
        LookupValue::Flag(true),
    )]);
    let m = eval_map(&host, code);
    assert!(m["ob"].clone().cast::<rhai::Map>()["allowed"].as_bool().unwrap());

    // The move to contact: double 2, triple 3, as the table says.
    let moves = "#{far: moves_to_contact(40.0, 10.0)}";
    for (choice, double, triple, expected) in
        [("double", 2, 3, 2), ("triple", 2, 3, 3), ("double", 4, 3, 4), ("triple", 2, 5, 5)]
    {
        let mut rs = ruleset(&["linear-warfare"]);
        rs.set_option("move_to_contact", true).unwrap();
        rs.set_interpretation("move_to_contact_multiple", choice).unwrap();
        for (key, n) in [("double", double), ("triple", triple)] {
            let TableBody::Lookup { values: LookupValue::Map(m), .. } =
                &mut rs.tables.get_mut("move_to_contact").unwrap().body
            else {
                panic!("move_to_contact is a lookup")
            };
            m.insert(key.into(), LookupValue::Int(n));
        }
        assert_eq!(int(&eval_map(&Host::new(rs).unwrap(), moves), "far"), expected, "{choice} {double} {triple}");
    }
}

#[test]
fn commanders_ratings_and_moves_are_the_commanders_table() {
    // CP 1 to 3 (L66): a 4 is refused, with the table's words; with cp_max 4 it is a rating.
    let e = error_debug(&shipped(), r#"trump_count("black", 4)"#);
    assert!(e.contains(r#"the senior commander's CP rating is 1, 2 or 3 (an integer, or "1" to "3"), not 4"#), "{e}");
    let four = lw_setting(&[("commanders", &["rating", "cp_max"], LookupValue::Int(4))]);
    four.set_dice(Box::new(Supplied::new([1])));
    assert_eq!(int(&eval_map(&four, r#"trump_count("black", "4")"#), "trumps"), 5);
    let e = error_debug(&four, r#"trump_count("black", 5)"#);
    assert!(e.contains("CP rating is 1, 2, 3 or 4"), "{e}");
    // The Maneuver Table and Charge Combat read the same range.
    let leader = r#"let u = unit(#{name: "U", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        let l = leader(#{name: "L", rating: "4"}); u.attach(l);"#;
    let e = error_debug(&shipped(), &format!("{leader} leader_cp(l)"));
    assert!(e.contains(r#"needs a CP rating: rating: "1", "2" or "3""#), "{e}");
    assert_eq!(value(&four, &format!("{leader} leader_cp(l)")).as_int().unwrap(), 4);
    let e = error_debug(&shipped(), &format!(r#"{leader} charge_leader_cp(u, "charge_combat", ())"#));
    assert!(e.contains(r#"L's CP rating is 1, 2 or 3, not "4""#), "{e}");
    assert_eq!(value(&four, &format!(r#"{leader} charge_leader_cp(u, "charge_combat", ())"#)).as_int().unwrap(), 4);

    // Every CP 3 commander is Exceptional (every_cp_3): the table's exceptional_cp.
    let code = r#"#{two: phase_allotment(#{name: "a", cp: 2}), three: phase_allotment(#{name: "b", cp: 3}), exceptional: lookup("phases", "exceptional"), ordinary: lookup("phases", "ordinary")}"#;
    let m = eval_map(&lw_setting_with(&[], &[("exceptional_general", "every_cp_3")]), code);
    assert_eq!(text(&m, "two"), text(&m, "ordinary"));
    assert_eq!(text(&m, "three"), text(&m, "exceptional"));
    let two = lw_setting_with(
        &[("commanders", &["rating", "exceptional_cp"], LookupValue::Int(2))],
        &[("exceptional_general", "every_cp_3")],
    );
    let m = eval_map(&two, code);
    assert_eq!(text(&m, "two"), text(&m, "exceptional"));
    assert_eq!(text(&m, "three"), text(&m, "ordinary"));
    assert_ne!(text(&m, "exceptional"), text(&m, "ordinary"));

    // "Each separate Commander may move once during each friendly Movement Phase" (L187).
    let code = r#"let a = leader(#{name: "A", rating: "2"}); commander_phase_move(a, "turn 1, french 1")"#;
    assert_eq!(value(&shipped(), code).as_float().unwrap(), 28.0);
    let still = lw_setting(&[("commanders", &["movement", "moves_each_friendly_phase"], LookupValue::Flag(false))]);
    assert!(error_debug(&still, code).contains("moves_each_friendly_phase is false"));
}

#[test]
fn ga_pa_a_late_formation_change_and_a_closed_lines_commander_read_their_tables() {
    // Swedish "Ga Pa" fires "with -1 modifier" (L405): the doctrine chart's fire_modifier, which
    // the fire modifier ga_pa counts. Die 5 at 2" on a line: 5 - 1 = 4; written as -2 there: 3.
    let ga_pa = r#"let f = unit(#{name: "F", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        let t = unit(#{name: "T", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        fire(f, t, #{range: 2, ga_pa: true}).total"#;
    assert_eq!(run(&shipped(), &[5], ga_pa).0.value.as_int().unwrap(), 4);
    let two = lw_setting(&[("charge_doctrines", &["ga_pa", "fire_modifier"], LookupValue::Int(-2))]);
    assert_eq!(run(&two, &[5], ga_pa).0.value.as_int().unwrap(), 3);

    // A unit that already moved "cannot change formation or facing" in reaction (L117): react()
    // asks reactions_allowed, which reads late_reaction.may_change_formation.
    let late = r#"let u = unit(#{name: "U", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        u.set_marker("moved", true); react(u, "charge_on_unit", "change_formation").late"#;
    assert!(error_debug(&shipped(), late).contains("cannot change formation or facing"));
    let may = lw_setting(&[("late_reaction", &["may_change_formation"], LookupValue::Flag(true))]);
    assert!(value(&may, late).as_bool().unwrap());

    // Several brigades in one closed line need a commander who controls more than a brigade
    // (L456, L9-13): the commanders table's `controls`.
    let line = r#"let a = unit(#{name: "A", arm: "cavalry", grade: "2", stands: 3, formation: "closed_line", command: "1st"});
        let b = unit(#{name: "B", arm: "cavalry", grade: "2", stands: 3, formation: "closed_line", command: "2nd"});
        let wing = leader(#{name: "Wing", rating: "2", markers: #{command: "wing"}});
        closed_line_command([a, b], wing).ok"#;
    assert!(value(&shipped(), line).as_bool().unwrap());
    let narrow = lw_setting(&[("commanders", &["wing", "controls"], LookupValue::Text("brigade".into()))]);
    assert!(!value(&narrow, line).as_bool().unwrap());
}
