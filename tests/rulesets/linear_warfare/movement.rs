//! Movement and reactions: reactions and the late-reaction penalty, mandatory
//! moves, uncontrolled movement, rout surrender, formation changes and their
//! costs, cadence, oblique, separation, mounted frontage, commanders, civilian drivers.

use grognard::dice::Supplied;
use grognard::rules::{LookupValue, Source};
use grognard::script::Host;

use crate::support::{error_debug, eval_map, int, lookup, lw, lw_host, lw_table, map_and_trace, ruleset, run, text};

/// Seed 003, L113-115.
const SEED_REACTIONS: &str =
    "React to a Charge upon the unit:\tFire on the Chargers, Evade, or attempt to Change Formation
React to Fire upon the Unit:\tReturn Fire
React to a Charge on another Friendly Unit:\tConduct \"Pass Through\" Fire";

fn f(map: &rhai::Map, key: &str) -> f64 {
    map[key].as_float().unwrap_or_else(|_| map[key].as_int().unwrap() as f64)
}

const BN: &str =
    r#"let u = unit(#{name: "Bn", nation: "france", arm: "infantry", grade: "2", stands: 5, formation: "line"});"#;

#[test]
fn the_reactions_are_the_seeds() {
    let words = |printed: &str| -> Vec<String> {
        printed
            .replace("or attempt to ", "")
            .replace("Conduct ", "")
            .replace('"', "")
            .split(", ")
            .map(|w| match w.trim() {
                "Fire on the Chargers" => "fire_on_chargers".to_string(),
                "Change Formation" => "change_formation".to_string(),
                w => w.to_lowercase().replace(' ', "_"),
            })
            .collect()
    };
    let triggers = ["charge_on_unit", "fire_on_unit", "charge_on_friend"];
    for (line, trigger) in SEED_REACTIONS.lines().zip(triggers) {
        let (_, printed) = line.split_once('\t').unwrap();
        let LookupValue::Text(t) = lookup(&lw_table("reactions"), &[trigger]) else { panic!() };
        assert_eq!(t.split(' ').map(str::to_string).collect::<Vec<_>>(), words(printed), "{trigger}");
    }
}

#[test]
fn a_late_reaction_halves_fire_points_and_forbids_formation_changes() {
    let host = lw();
    // fire() halves a late reaction's Fire Points itself (tables/late_reaction.yaml's
    // fire_points_divisor, 2): 5 fresh; 5 / 2 = 2 once moved; 1 stays 1 (round down, at least 1).
    let (m, _, _) = map_and_trace(run(
        &host,
        &[1, 1, 1],
        &format!(
            r#"{BN} let t = unit(#{{name: "T", arm: "infantry", grade: "2", stands: 5, formation: "line"}});
            let fresh = fire(u, t, #{{fire_points: 5, reaction: true}}).fire_points; u.set_marker("moved", true);
            #{{fresh: fresh, late: fire(u, t, #{{fire_points: 5, reaction: true}}).fire_points,
              one: fire(u, t, #{{fire_points: 1, reaction: true}}).fire_points, allowed: reactions_allowed(u, "charge_on_unit")}}"#
        ),
    ));
    assert_eq!((f(&m, "fresh"), f(&m, "late"), f(&m, "one")), (5.0, 2.0, 1.0));
    assert_eq!(m["allowed"].to_string(), r#"["fire_on_chargers", "evade"]"#);
    let e = error_debug(
        &host,
        &format!(r#"{BN} u.set_marker("fired", true); react(u, "charge_on_unit", "change_formation")"#),
    );
    assert!(e.contains("cannot change formation or facing"), "{e}");
    let e = error_debug(&host, &format!(r#"{BN} react(u, "fire_on_unit", "evade")"#));
    assert!(e.contains("it may"), "{e}");
    // The flip: a single Fire Point halves to none.
    let mut rs = ruleset(&["linear-warfare"]);
    rs.set_interpretation("late_fire_rounding", "down").unwrap();
    let (m, _, _) = map_and_trace(run(
        &Host::new(rs).unwrap(),
        &[],
        &format!(
            r#"{BN} let t = unit(#{{name: "T", arm: "infantry", grade: "2", stands: 5, formation: "line"}});
            u.set_marker("moved", true); fire(u, t, #{{fire_points: 1, reaction: true}})"#
        ),
    ));
    assert_eq!((f(&m, "fire_points"), m["result"].to_string()), (0.0, "no_fire".to_string()));
}

#[test]
fn a_reaction_is_the_units_move_for_the_turn() {
    let host = lw();
    let m = eval_map(
        &host,
        &format!(
            r#"{BN} let r = react(u, "charge_on_friend", "pass_through_fire"); r.fired = u.has_marker("fired"); r"#
        ),
    );
    assert!(m["fired"].as_bool().unwrap() && !m["late"].as_bool().unwrap());
    let e = error_debug(&host, &format!(r#"{BN} react(u, "fire_on_unit", "return_fire"); move_unit(u)"#));
    assert!(e.contains("one Phase per turn"), "{e}");
}

#[test]
fn mandatory_moves_follow_the_seed() {
    let host = lw();
    // Evade and Rout: the formation's rate + 1d10 (house rates: line 6").
    host.set_dice(Box::new(Supplied::new([4])));
    let m = eval_map(&host, &format!(r#"{BN} let m = mandatory_move(u, "rout", #{{}}); m.order = u.order; m"#));
    assert_eq!((f(&m, "distance"), f(&m, "uncontrolled"), text(&m, "order")), (10.0, 2.0, "rout".into()));
    // Fall Back: a full move, then Good Order; guns taken.
    let m = eval_map(
        &host,
        r#"let b = unit(#{name: "Bty", arm: "artillery", type: "light", grade: "2", stands: 2, formation: "limbered"}); mandatory_move(b, "fall_back", #{})"#,
    );
    assert_eq!((f(&m, "distance"), text(&m, "ends"), text(&m, "guns")), (12.0, "good_order".into(), "taken".into()));
    // Retreat: gunners abandon their guns; Disordered at the end.
    let m = eval_map(
        &host,
        r#"let b = unit(#{name: "Bty", arm: "artillery", type: "light", grade: "2", stands: 2, formation: "limbered"});
        let m = mandatory_move(b, "retreat", #{}); m.abandoned = b.has_marker("guns_abandoned"); m"#,
    );
    assert_eq!((text(&m, "ends"), text(&m, "guns")), ("disordered".into(), "abandoned".into()));
    assert!(m["abandoned"].as_bool().unwrap());
    // Pursuit: the charge distance at a target ahead, else half of it and Disordered; never artillery.
    let m = eval_map(&host, &format!(r#"{BN} mandatory_move(u, "pursuit", #{{charge_distance: 10.0}})"#));
    assert_eq!((f(&m, "distance"), text(&m, "ends")), (5.0, "disordered".into()));
    let e = error_debug(
        &host,
        r#"mandatory_move(unit(#{name: "Bty", arm: "artillery", stands: 2, formation: "limbered"}), "pursuit", #{charge_distance: 10.0})"#,
    );
    assert!(e.contains("never apply to artillery"), "{e}");
    // The seed's words for each, kept in the table.
    assert_eq!(lookup(&lw_table("mandatory_moves"), &["fall_back", "ends"]), LookupValue::Text("good_order".into()));
    assert_eq!(lookup(&lw_table("mandatory_moves"), &["pursuit", "turn_degrees"]), LookupValue::Int(30));
}

#[test]
fn mandatory_moves_are_next_turns_move_and_evade_lasts_one_turn() {
    let host = lw();
    let m = eval_map(
        &host,
        r#"let a = unit(#{name: "A", arm: "infantry", grade: "2", stands: 5, formation: "line", order: "retreat"});
        let b = unit(#{name: "B", arm: "infantry", grade: "2", stands: 5, formation: "line", order: "evade"});
        let c = unit(#{name: "C", arm: "infantry", grade: "2", stands: 5, formation: "line"}); c.set_marker("fired", true);
        start_turn([a, b, c]);
        #{a: a.has_marker("moved"), b: b.order, c: c.has_marker("fired")}"#,
    );
    assert!(m["a"].as_bool().unwrap());
    assert_eq!(text(&m, "b"), "disordered");
    assert!(!m["c"].as_bool().unwrap());
}

#[test]
fn a_rout_pushing_through_may_take_the_friend_with_it() {
    let host = lw();
    // Friend grade 2 reads the Disordered Effects column: 1 = Rout.
    host.set_dice(Box::new(Supplied::new([1])));
    let code = r#"let r = unit(#{name: "R", arm: "infantry", grade: "2", stands: 3, formation: "line", order: "rout"});
        let f = unit(#{name: "F", arm: "infantry", grade: "2", stands: 5, formation: "line"});
        let m = interpenetrate(r, f, #{}); m.order = f.order; m"#;
    let m = eval_map(&host, code);
    assert!(m["joins_rout"].as_bool().unwrap());
    assert_eq!(text(&m, "order"), "rout");
    let m = eval_map(
        &host,
        r#"let r = unit(#{name: "R", arm: "infantry", grade: "2", stands: 3, formation: "line", order: "retreat"});
        let f = unit(#{name: "F", arm: "infantry", grade: "2", stands: 5, formation: "line"});
        let m = interpenetrate(r, f, #{}); m.order = f.order; m"#,
    );
    assert_eq!((text(&m, "order"), m["joins_rout"].as_bool().unwrap()), ("disordered".into(), false));
}

#[test]
fn a_caught_rout_surrenders_and_its_commander_rolls() {
    let host = lw();
    host.set_dice(Box::new(Supplied::new([6])));
    let m = eval_map(
        &host,
        r#"let r = unit(#{name: "R", arm: "infantry", grade: "2", stands: 3, formation: "line", order: "rout"});
        r.attach(leader(#{name: "Col", rating: "1"}));
        let m = rout_contacted(r); m.stands = r.stands; m.fate = m.leaders[0].fate; m"#,
    );
    assert_eq!((int(&m, "surrendered"), int(&m, "stands"), text(&m, "fate")), (3, 0, "captured".into()));
}

#[test]
fn formation_changes_cost_by_grade_and_cadence_and_resolve_half_done() {
    let rs = ruleset(&["linear-warfare"]);
    assert_eq!(rs.tables["formation_change_costs"].source, Source::House);
    assert_eq!(rs.tables["formation_change_counts"].source, Source::House);
    // Seed values: a mounted FC is one (the house chart); the closed line to column two
    // (tables/cavalry_lines.yaml, the one place it is).
    assert_eq!(lookup(&lw_table("formation_change_counts"), &["cavalry_any", "count"]), LookupValue::Int(1));
    assert_eq!(
        lookup(&lw_table("cavalry_lines"), &["closed_line", "formation_changes_to_column"]),
        LookupValue::Int(2)
    );
    let host = lw();
    // Prussian grade 2 column (9") in 1745 (cadenced): line to the left = 1 FC x 75% x 9" = 6.75".
    let col = |grade: &str, nation: &str| {
        format!(
            r#"let u = unit(#{{name: "Bn", nation: "{nation}", arm: "infantry", grade: "{grade}", stands: 5, formation: "column"}});"#
        )
    };
    let m = eval_map(
        &host,
        &format!(r#"{} formation_change(u, "line_to_the_left", #{{year: 1745}})"#, col("2", "prussia")),
    );
    assert_eq!((f(&m, "cost"), f(&m, "left")), (6.75, 2.25));
    assert_eq!(text(&m, "formation"), "line");
    // Uncadenced (France 1710): twice the FCs; with 6" left, 6/13.5 = 44%: stays, in order.
    let m = eval_map(
        &host,
        &format!(r#"{} formation_change(u, "line_to_the_left", #{{year: 1710, movement: 6.0}})"#, col("2", "france")),
    );
    assert_eq!(
        (int(&m, "fcs"), f(&m, "cost"), text(&m, "formation"), text(&m, "order")),
        (2, 13.5, "column".into(), "good_order".into())
    );
    // 7" of 13.5 = 51%: the new formation, Disordered.
    let m = eval_map(
        &host,
        &format!(r#"{} formation_change(u, "line_to_the_left", #{{year: 1710, movement: 7.0}})"#, col("2", "france")),
    );
    assert_eq!((text(&m, "formation"), text(&m, "order")), ("line".into(), "disordered".into()));
    // Drill: one grade higher (50%); near skirmishers one worse (100%).
    let m = eval_map(
        &host,
        &format!(r#"{} formation_change(u, "line_to_the_left", #{{year: 1745, drill: true}})"#, col("2", "prussia")),
    );
    assert_eq!(int(&m, "share"), 50);
    let m = eval_map(
        &lw_host(&[], &["skirmishers"]),
        &format!(
            r#"{} formation_change(u, "line_to_the_left", #{{year: 1745, near_skirmishers: true}})"#,
            col("2", "prussia")
        ),
    );
    assert_eq!(int(&m, "share"), 100);
    // Refusals.
    let e = error_debug(
        &host,
        &format!(r#"{} formation_change(u, "column_to_the_right", #{{year: 1745}})"#, col("2", "prussia")),
    );
    assert!(e.contains("is made from line"), "{e}");
    let e = error_debug(
        &host,
        r#"let c = unit(#{name: "Cuir", arm: "cavalry", grade: "3", stands: 4, formation: "closed_line"}); formation_change(c, "cavalry_any", #{to: "open_line"})"#,
    );
    assert!(e.contains("the only Formation Change allowed"), "{e}");
}

#[test]
fn unfinished_formation_changes_continue_under_the_flip() {
    let mut rs = ruleset(&["linear-warfare"]);
    rs.set_interpretation("partial_formation_change", "continues").unwrap();
    let host = Host::new(rs).unwrap();
    let m = eval_map(
        &host,
        r#"let u = unit(#{name: "Bn", nation: "france", arm: "infantry", grade: "2", stands: 5, formation: "column"});
        let a = formation_change(u, "line_to_the_left", #{year: 1710, movement: 9.0});
        let b = formation_change(u, "line_to_the_left", #{year: 1710, movement: 9.0});
        #{a: a.formation, part: a.part, b: b.formation, order: u.order}"#,
    );
    assert_eq!(
        (text(&m, "a"), int(&m, "part"), text(&m, "b"), text(&m, "order")),
        ("column".into(), 66, "line".into(), "good_order".into())
    );
}

#[test]
fn artillery_unlimbering_with_half_a_move_left_may_fire() {
    let host = lw();
    let code = |movement: f64| {
        format!(
            r#"let b = unit(#{{name: "Bty", arm: "artillery", type: "light", grade: "4", stands: 2, formation: "limbered"}});
            formation_change(b, "unlimber", #{{movement: {movement}}})"#
        )
    };
    // Grade 4: 25% of 12" = 3".
    let m = eval_map(&host, &code(12.0));
    assert!(m["may_fire"].as_bool().unwrap());
    let m = eval_map(&host, &code(8.0));
    assert!(!m["may_fire"].as_bool().unwrap());
}

#[test]
fn wheels_oblique_and_separation() {
    let host = lw();
    let m = eval_map(
        &host,
        r#"let fr = unit(#{name: "Fr", nation: "france", arm: "infantry", grade: "2", stands: 5, formation: "line"});
        let pr = unit(#{name: "Pr", nation: "prussia", arm: "infantry", grade: "2", stands: 5, formation: "line"});
        let cl = unit(#{name: "Cl", arm: "cavalry", grade: "2", stands: 4, formation: "closed_line"});
        let ol = unit(#{name: "Ol", arm: "cavalry", grade: "2", stands: 4, formation: "open_line"});
        #{fr: wheel_cost(fr, 3.0, 1710), pr: wheel_cost(pr, 3.0, 1745), cl: wheel_cost(cl, 3.0, 1745), ol: wheel_cost(ol, 3.0, 1745),
          ob_pr: move_allowed(pr, "oblique", 1745).allowed, ob_pr_early: move_allowed(pr, "oblique", 1744).allowed,
          sep_line: separation(fr, 0.4, 0.75).ok, sep_line_ok: separation(fr, 0.5, 0.75).ok}"#,
    );
    assert_eq!((f(&m, "fr"), f(&m, "pr"), f(&m, "cl"), f(&m, "ol")), (6.0, 3.0, 6.0, 3.0));
    assert!(m["ob_pr"].as_bool().unwrap() && !m["ob_pr_early"].as_bool().unwrap());
    assert!(!m["sep_line"].as_bool().unwrap() && m["sep_line_ok"].as_bool().unwrap());
    // Column: 1 stand width or 1", whichever is less.
    let m = eval_map(
        &host,
        r#"let c = unit(#{name: "C", arm: "infantry", grade: "2", stands: 5, formation: "column"});
        #{narrow: separation(c, 0.8, 0.75).needed, wide: separation(c, 0.8, 1.5).needed}"#,
    );
    assert_eq!((f(&m, "narrow"), f(&m, "wide")), (0.75, 1.0));
    assert_eq!(lookup(&lw_table("unit_separation"), &["line", "flank_inches"]), LookupValue::Number(0.5));
}

#[test]
fn mounted_frontage_is_limited_by_grade_and_late_changes_lose_impetus() {
    let host = lw();
    let cav = r#"let c = unit(#{name: "Drag", arm: "cavalry", grade: "2", stands: 4, formation: "line"});"#;
    let m = eval_map(&host, &format!("{cav} mounted_frontage(c, #{{changes: 3, quarters: 4}})"));
    assert!(!m["ok"].as_bool().unwrap());
    let m = eval_map(
        &host,
        &format!(r#"{cav} mounted_frontage(c, #{{changes: 2, quarters: 4, pace: "trot", from_contact: 4.0}})"#),
    );
    assert!(m["ok"].as_bool().unwrap() && m["loses_impetus"].as_bool().unwrap());
    let m = eval_map(
        &host,
        &format!(r#"{cav} mounted_frontage(c, #{{changes: 2, quarters: 4, pace: "trot", from_contact: 6.0}})"#),
    );
    assert!(!m["loses_impetus"].as_bool().unwrap());
    let m = eval_map(
        &host,
        &format!(r#"{cav} mounted_frontage(c, #{{changes: 1, quarters: 1, pace: "all_out", from_contact: 8.0}})"#),
    );
    assert!(m["loses_impetus"].as_bool().unwrap());
}

#[test]
fn commanders_move_28_or_22_inches_and_influence_only_when_attached() {
    // Seed 003, L187-189.
    let seed = r#"Separate Commanders & Mounted Couriers move at the Light Cavalry All Out Charge Column Rate (28")
(If the commander is particularly old or feeble, you could restrict him to the Light Cavalry charge/Trot Column Rate (22")."#;
    assert!(seed.contains("(28\")") && seed.contains("(22\")"));
    let host = lw();
    let m = eval_map(
        &host,
        r#"let a = leader(#{name: "A", rating: "2"}); let b = leader(#{name: "B", rating: "1", markers: #{old_or_feeble: true}});
        let u = unit(#{name: "U", arm: "infantry", grade: "2", stands: 5, formation: "line"}); u.attach(a);
        #{a: commander_move(a), b: commander_move(b), m: commander_influences(a, u, "maneuver", #{}),
          c: commander_influences(a, u, "charge_combat", #{attached_throughout: false}), ct: commander_influences(a, u, "charge_combat", #{attached_throughout: true}),
          cd: commander_influences(a, u, "pursuit", #{}),
          nb: commander_influences(b, u, "maneuver", #{})}"#,
    );
    assert_eq!((f(&m, "a"), f(&m, "b")), (28.0, 22.0));
    assert!(
        m["m"].as_bool().unwrap()
            && !m["c"].as_bool().unwrap()
            && m["ct"].as_bool().unwrap()
            // Not said, attached throughout: charges come first in a phase, leaders move last (L44-53).
            && m["cd"].as_bool().unwrap()
            && !m["nb"].as_bool().unwrap()
    );
    // The house movement rates keep the seed's two values.
    assert_eq!(lookup(&lw_table("movement_rates"), &["light_cavalry", "all_out"]), LookupValue::Int(28));
    assert_eq!(lookup(&lw_table("movement_rates"), &["light_cavalry", "trot"]), LookupValue::Int(22));
    // At 25mm every distance doubles.
    let mut rs = ruleset(&["linear-warfare"]);
    rs.scale = rs.scale.with_figure_factor(2.0).unwrap();
    let m = eval_map(&Host::new(rs).unwrap(), r#"#{a: commander_move(leader(#{name: "A", rating: "2"}))}"#);
    assert_eq!(f(&m, "a"), 56.0);
}

#[test]
fn closed_lines_need_one_commander() {
    let host = lw();
    let regts = r#"let a = unit(#{name: "A", arm: "cavalry", grade: "2", stands: 3, formation: "closed_line", command: "1st"});
        let b = unit(#{name: "B", arm: "cavalry", grade: "2", stands: 3, formation: "closed_line", command: "2nd"});
        let c = unit(#{name: "C", arm: "cavalry", grade: "2", stands: 3, formation: "closed_line", command: "1st"});"#;
    let m = eval_map(
        &host,
        &format!(
            r#"{regts} let brig = leader(#{{name: "Brig", rating: "2", markers: #{{command: "brigade"}}}});
            let wing = leader(#{{name: "Wing", rating: "2", markers: #{{command: "wing"}}}});
            #{{none: closed_line_command([a, c], ()).ok, brig: closed_line_command([a, c], brig).ok,
              two: closed_line_command([a, b], brig).ok, wing: closed_line_command([a, b], wing).ok, one: closed_line_command([a], ()).ok}}"#
        ),
    );
    for (key, ok) in [("none", false), ("brig", true), ("two", false), ("wing", true), ("one", true)] {
        assert_eq!(m[key].as_bool().unwrap(), ok, "{key}");
    }
    let m = eval_map(&host, &format!("{regts} #{{s: closed_line_allowance([a, b], \"trot\")}}"));
    assert_eq!(f(&m, "s"), 20.0);
}

#[test]
fn civilian_drivers_before_militarized_transport_may_strand_the_guns() {
    let host = lw();
    let m = eval_map(
        &host,
        r#"#{p59: civilian_drivers("prussia", 1759), p60: civilian_drivers("prussia", 1760), a51: civilian_drivers("austria", 1751),
           a52: civilian_drivers("austria", 1752), f49: civilian_drivers("france", 1749), f50: civilian_drivers("france", 1750)}"#,
    );
    for (key, civilian) in [("p59", true), ("p60", false), ("a51", true), ("a52", false), ("f49", true), ("f50", false)]
    {
        assert_eq!(m[key].as_bool().unwrap(), civilian, "{key}");
    }
    // Disordered Militia: -1; a 3 reads 2 = Retreat: the teams flee; the battery keeps its order.
    host.set_dice(Box::new(Supplied::new([3])));
    let m = eval_map(
        &host,
        r#"let b = unit(#{name: "Bty", nation: "austria", arm: "artillery", grade: "3", stands: 2, formation: "unlimbered"});
        let m = drivers_under_fire(b, 1745); m.order = b.order; m.fled = b.has_marker("teams_fled"); m"#,
    );
    assert_eq!((text(&m, "result"), text(&m, "order")), ("retreat".into(), "good_order".into()));
    assert!(m["fled"].as_bool().unwrap());
}

#[test]
fn a_voluntary_retreat_needs_no_roll_and_is_not_disordered_by_default() {
    let host = lw();
    let m = eval_map(&host, &format!(r#"{BN} let r = voluntary_retreat(u); r.order = u.order; r"#));
    assert_eq!((text(&m, "order"), text(&m, "ends")), ("retreat".into(), "good_order".into()));
    assert!(!m["maneuver_roll"].as_bool().unwrap());
    let mut rs = ruleset(&["linear-warfare"]);
    rs.set_interpretation("voluntary_retreat_order", "as_mandatory").unwrap();
    let m = eval_map(&Host::new(rs).unwrap(), &format!(r#"{BN} voluntary_retreat(u)"#));
    assert_eq!(text(&m, "ends"), "disordered");
}

#[test]
fn the_sleeve_fires_a_quarter_of_its_stands_to_the_rear() {
    let host = lw();
    for (stands, rear) in [(3, 1), (4, 1), (7, 1), (8, 2)] {
        let m = eval_map(
            &host,
            &format!(
                r#"#{{n: sleeve_rear_fire_stands(unit(#{{name: "S", arm: "infantry", grade: "2", stands: {stands}, formation: "sleeve"}}))}}"#
            ),
        );
        assert_eq!(int(&m, "n"), rear, "{stands}");
    }
}

#[test]
fn losses_this_turn_are_counted_from_the_start_of_the_turn() {
    let m = eval_map(
        &lw(),
        &format!(
            r#"{BN} start_turn([u]); u.lose_stands(2); let a = stands_lost_this_turn(u); start_turn([u]); #{{a: a, b: stands_lost_this_turn(u)}}"#
        ),
    );
    assert_eq!((int(&m, "a"), int(&m, "b")), (2, 0));
}

#[test]
fn the_move_to_contact_is_an_option() {
    let code = "#{far: moves_to_contact(40.0, 10.0), near: moves_to_contact(20.0, 10.0)}";
    let m = eval_map(&lw(), code);
    assert_eq!((int(&m, "far"), int(&m, "near")), (1, 1));
    let mut rs = ruleset(&["linear-warfare"]);
    rs.set_option("move_to_contact", true).unwrap();
    rs.set_interpretation("move_to_contact_multiple", "triple").unwrap();
    let m = eval_map(&Host::new(rs).unwrap(), code);
    assert_eq!((int(&m, "far"), int(&m, "near")), (3, 1));
}

#[test]
fn a_mandatory_move_ends_as_the_seed_says_and_disorder_does_not_halve() {
    let host = lw();
    let m = eval_map(
        &host,
        r#"let a = unit(#{name: "A", arm: "infantry", grade: "2", stands: 5, formation: "line", order: "fall_back"});
        let b = unit(#{name: "B", arm: "infantry", grade: "2", stands: 5, formation: "line", order: "retreat"});
        let c = unit(#{name: "C", arm: "infantry", grade: "2", stands: 5, formation: "line", order: "retreat"});
        let d = unit(#{name: "D", arm: "infantry", grade: "2", stands: 5, formation: "column", order: "disordered"});
        #{a: end_mandatory_move(a, #{}), b: end_mandatory_move(b, #{}), c: end_mandatory_move(c, #{out_of_range: true}),
          d: movement_allowance(d, ())}"#,
    );
    assert_eq!(
        (text(&m, "a"), text(&m, "b"), text(&m, "c")),
        ("good_order".into(), "retreat".into(), "disordered".into())
    );
    // "Unlike AoR movement is not 1/2 for disordered troops" (L131).
    assert_eq!(f(&m, "d"), 9.0);
    assert_eq!(lookup(&lw_table("artillery_limbering"), &["limbers_behind_inches"]), LookupValue::Int(3));
}

#[test]
fn sleeves_stand_adjusts_slopes_and_the_cavalry_lines_commanders() {
    let host = lw();
    let e = error_debug(
        &host,
        r#"move_unit(unit(#{name: "S", arm: "infantry", grade: "2", stands: 5, formation: "sleeve"}))"#,
    );
    assert!(e.contains("cannot move"), "{e}");
    // Any adjustment of formed infantry's stands is a Formation Change (L129): grade 3, 6" line, 50%.
    let m = eval_map(
        &host,
        r#"let u = unit(#{name: "G", nation: "prussia", arm: "infantry", grade: "3", stands: 5, formation: "line"});
        formation_change(u, "stand_adjust", #{year: 1745})"#,
    );
    assert_eq!((f(&m, "cost"), text(&m, "formation")), (3.0, "line".into()));
    let m = eval_map(
        &host,
        r#"let b = unit(#{name: "B", arm: "artillery", type: "light", grade: "2", stands: 2, formation: "unlimbered"});
        #{flat: prolonge_allowance(b, false), slope: prolonge_allowance(b, true)}"#,
    );
    assert_eq!((f(&m, "flat"), f(&m, "slope")), (4.0, 2.0));
    let m = eval_map(
        &host,
        r#"let a = unit(#{name: "A", arm: "cavalry", grade: "2", stands: 3, formation: "open_line"});
        let b = unit(#{name: "B", arm: "cavalry", grade: "2", stands: 3, formation: "open_line"});
        let c = unit(#{name: "C", arm: "cavalry", grade: "2", stands: 3, formation: "closed_line"});
        let r = #{centre: open_line_commander_affects([a, b], "center_front", #{same_direction: true}),
          left: open_line_commander_affects([a, b], "left_front", #{same_direction: true}),
          apart: open_line_commander_affects([a, b], "right_front", #{}),
          mixed: open_line_commander_affects([a, c], "right_front", #{same_direction: true})};
        closed_line_commander_gone([c]); r.closed = c.order; r"#,
    );
    assert!(m["centre"].as_bool().unwrap() && !m["left"].as_bool().unwrap());
    assert!(!m["apart"].as_bool().unwrap() && !m["mixed"].as_bool().unwrap());
    assert_eq!(text(&m, "closed"), "disordered");
    assert_eq!(lookup(&lw_table("sleeve"), &["cavalry_vs_square_penalty"]), LookupValue::Flag(false));
}

#[test]
fn a_commander_moves_once_in_each_friendly_phase() {
    let host = lw();
    let m = eval_map(
        &host,
        r#"let a = leader(#{name: "A", rating: "2"});
        #{one: commander_phase_move(a, "turn 1, french 1"), two: commander_phase_move(a, "turn 1, french 2")}"#,
    );
    assert_eq!((f(&m, "one"), f(&m, "two")), (28.0, 28.0));
    let e = error_debug(
        &host,
        r#"let a = leader(#{name: "A", rating: "2"}); commander_phase_move(a, "turn 1, french 1"); commander_phase_move(a, "turn 1, french 1")"#,
    );
    assert!(e.contains("moves once in each friendly phase"), "{e}");
    let e = error_debug(
        &host,
        r#"let a = leader(#{name: "A", rating: "2", markers: #{immobile_turns: 2}}); commander_move(a)"#,
    );
    assert!(e.contains("cannot move for 2 more turn"), "{e}");
}

/// Seed 003, L209.
const SEED_NEXT_TURN: &str = "Mandatory Fall Back. Retreat. or Rout moves constitute the affected unit's move for the following Tum. \
The unit is considered to have already moved for that turn, and suffers all the penalties of having moved if it is forced to React. \
Mandatory or voluntary Pursuit moves allow one move during the following turn: the unit may \"Rally Back\", making a voluntary \
Fall Back during the first friendy Movement Phase of the turn following the Pursuit.";

#[test]
fn a_charger_all_out_in_disorder_ends_its_fall_back_disordered() {
    // Seed 003 L399: "Disordered at the end of the first Charge Movement Phase regardless of
    // any other outcome of the charge"; a charger under a Fall Back carries a `disordered` marker.
    let host = lw();
    let m = eval_map(
        &host,
        &format!(
            r#"{BN} mandatory_move(u, "fall_back", #{{}}); apply(u, #{{ markers: #{{ disordered: true }} }});
            let ended = end_mandatory_move(u, #{{}});
            #{{ended: ended, marker: u.has_marker("disordered")}}"#
        ),
    );
    assert_eq!(text(&m, "ended"), "disordered");
    assert!(!m["marker"].as_bool().unwrap(), "the marker is spent");
}

#[test]
fn a_fall_back_that_has_ended_is_still_next_turns_move() {
    assert!(SEED_NEXT_TURN.contains("move for the following Tum"));
    assert_eq!(lookup(&lw_table("mandatory_moves"), &["fall_back", "next_turn_move"]), LookupValue::Flag(true));
    let host = lw();
    // A Fall Back ends in Good Order in the same phase; next turn it has already moved.
    let m = eval_map(
        &host,
        &format!(
            r#"{BN} mandatory_move(u, "fall_back", #{{}}); let ended = end_mandatory_move(u, #{{}});
            start_turn([u]); let next = u.has_marker("moved"); let late = react(u, "fire_on_unit", "return_fire").late;
            start_turn([u]);
            #{{ended: ended, next: next, late: late, after: u.has_marker("moved")}}"#
        ),
    );
    assert_eq!(text(&m, "ended"), "good_order");
    assert!(m["next"].as_bool().unwrap(), "the Fall Back is the following turn's move");
    assert!(m["late"].as_bool().unwrap(), "a reaction in that turn is late");
    assert!(!m["after"].as_bool().unwrap(), "only the following turn");
    // A finished Retreat (Disordered) too; and a voluntary move in that turn is refused.
    let e = error_debug(
        &host,
        &format!(
            r#"{BN} mandatory_move(u, "retreat", #{{}}); end_mandatory_move(u, #{{out_of_range: true}}); start_turn([u]); move_unit(u)"#
        ),
    );
    assert!(e.contains("already moved or fired this turn"), "{e}");
}

#[test]
fn a_reaction_fire_is_halved_only_when_the_unit_had_moved_before_it() {
    let host = lw();
    let (m, _, _) = map_and_trace(run(
        &host,
        &[1, 1],
        &format!(
            r#"{BN} let r = react(u, "charge_on_unit", "fire_on_chargers");
            let v = unit(#{{name: "V", arm: "infantry", grade: "2", stands: 5, formation: "line"}}); v.set_marker("moved", true);
            let s = react(v, "fire_on_unit", "return_fire");
            let t = unit(#{{name: "T", arm: "infantry", grade: "2", stands: 5, formation: "line"}});
            #{{fresh: fire(u, t, #{{fire_points: 6, reaction: true, late: r.late}}).fire_points, fresh_late: r.late,
              moved: fire(v, t, #{{fire_points: 6, reaction: true, late: s.late}}).fire_points, moved_late: s.late,
              halved: s.fire_points_halved}}"#
        ),
    ));
    // Fresh: all 6 Fire Points, though react() has marked it fired; moved before: 6 / 2.
    assert_eq!((f(&m, "fresh"), f(&m, "moved")), (6.0, 3.0));
    assert!(
        !m["fresh_late"].as_bool().unwrap() && m["moved_late"].as_bool().unwrap() && m["halved"].as_bool().unwrap()
    );
    // fire's situation keys are declared: a misspelt `late` is refused, not read as "not late".
    let e = error_debug(&host, &format!(r#"{BN} fire(u, u, #{{fire_points: 6, reaction: true, lte: true}})"#));
    assert!(e.contains("lte"), "{e}");
}

#[test]
fn a_pursuer_may_rally_back_once_in_its_first_phase_next_turn() {
    assert!(SEED_NEXT_TURN.contains("\"Rally Back\"") && SEED_NEXT_TURN.contains("first friendy Movement Phase"));
    let host = lw();
    let drag = r#"let u = unit(#{name: "Drag", arm: "cavalry", grade: "2", stands: 4, formation: "line"});
        mandatory_move(u, "pursuit", #{charge_distance: 10.0, target_ahead: true}); start_turn([u]);"#;
    // Walk rate of (heavy) cavalry (house): 10"; a voluntary Fall Back, its move this turn, ending in Good Order.
    let m = eval_map(
        &host,
        &format!(
            r#"{drag} let before = u.has_marker("moved"); let r = rally_back(u, #{{phase: 1}});
            r.before = before; r.order = u.order; r.moved = u.has_marker("moved"); r.ended = end_mandatory_move(u, #{{}});
            start_turn([u]); r.next = u.has_marker("moved"); r"#
        ),
    );
    assert!(!m["before"].as_bool().unwrap(), "the pursuit is not next turn's move");
    assert_eq!(
        (text(&m, "order"), f(&m, "distance"), text(&m, "ended")),
        ("fall_back".into(), 10.0, "good_order".into())
    );
    assert!(m["moved"].as_bool().unwrap(), "the Rally Back is this turn's move");
    assert!(!m["next"].as_bool().unwrap(), "a voluntary Fall Back is not the next turn's move");
    for (code, reason) in [
        (format!(r#"{drag} rally_back(u, #{{phase: 2}})"#), "only in the first friendly Movement Phase"),
        (format!(r#"{drag} rally_back(u, #{{phase: 1}}); rally_back(u, #{{phase: 1}})"#), "already rallied back"),
        (format!(r#"{drag} start_turn([u]); rally_back(u, #{{phase: 1}})"#), "in the turn following the Pursuit"),
        (format!(r#"{drag} rally_back(u, #{{}})"#), "give situation.phase"),
        (format!(r#"{BN} rally_back(u, #{{phase: 1}})"#), "only a pursuer may Rally Back"),
    ] {
        let e = error_debug(&host, &code);
        assert!(e.contains(reason), "{code}: {e}");
    }
}

#[test]
fn commanders_go_with_a_unit_on_a_mandatory_move_until_it_ends() {
    let host = lw();
    let setup = format!(r#"{BN} let c = leader(#{{name: "Col", rating: "2"}}); u.attach(c);"#);
    let e = error_debug(
        &host,
        &format!(r#"{setup} mandatory_move(u, "retreat", #{{}}); commander_phase_move(c, "turn 1, french 1")"#),
    );
    assert!(e.contains("must accompany Bn while its mandatory move lasts"), "{e}");
    // Still retreating (within range): still with it; once the Retreat ends he rides again.
    let m = eval_map(
        &host,
        &format!(
            r#"{setup} let m = mandatory_move(u, "retreat", #{{}}); end_mandatory_move(u, #{{}}); let held = c.marker("accompanies");
            end_mandatory_move(u, #{{out_of_range: true}});
            #{{carried: m.commanders, held: held, ride: commander_phase_move(c, "turn 1, french 2")}}"#
        ),
    );
    assert_eq!(m["carried"].to_string(), r#"["Col"]"#);
    assert_eq!(text(&m, "held"), "Bn");
    assert_eq!(f(&m, "ride"), 28.0);
    // A rout rallied to Good Order frees him too (7: Shaken, rallies and holds).
    host.set_dice(Box::new(Supplied::new([4, 7])));
    let m = eval_map(
        &host,
        &format!(
            r#"{setup} mandatory_move(u, "rout", #{{}}); let r = rally(u, #{{}}); #{{order: u.order, free: c.marker("accompanies") == false}}"#
        ),
    );
    assert_eq!(text(&m, "order"), "good_order");
    assert!(m["free"].as_bool().unwrap(), "{m:?}");
}

#[test]
fn a_stand_adjustment_without_cadence_costs_double() {
    // "Foot that is not marching in cadence ... has their formation change costs doubled" (L127);
    // "Any adjustment, no matter how small, counts as a Formation Change with appropriate penalties" (L129).
    let host = lw();
    let code = |nation: &str, year: i64| {
        format!(
            r#"let u = unit(#{{name: "G", nation: "{nation}", arm: "infantry", grade: "3", stands: 5, formation: "line"}});
            formation_change(u, "stand_adjust", #{{year: {year}}})"#
        )
    };
    // Grade 3: 50% of a 6" line move for one FC; France in 1710 marches without cadence: two.
    let cadenced = eval_map(&host, &code("prussia", 1745));
    let uncadenced = eval_map(&host, &code("france", 1710));
    assert_eq!((int(&cadenced, "fcs"), f(&cadenced, "cost")), (1, 3.0));
    assert_eq!((int(&uncadenced, "fcs"), f(&uncadenced, "cost")), (2, 6.0));
}

#[test]
fn mounted_frontage_changes_are_limited_by_the_grade_without_drill() {
    // L125: "the number of changes per turn can be no greater than the Morale Level of the unit";
    // L146: drill manipulates the grade "for consulting the Maneuver Table or Formation Change Chart".
    let host = lw();
    let cav = r#"let c = unit(#{name: "Drag", arm: "cavalry", grade: "2", stands: 4, formation: "line", markers: #{drill: true}});"#;
    let m = eval_map(&host, &format!("{cav} mounted_frontage(c, #{{changes: 3, quarters: 4}})"));
    assert!(!m["ok"].as_bool().unwrap(), "a drilled Line unit still changes at most 2: {}", text(&m, "reason"));
    let m = eval_map(&host, &format!("{cav} mounted_frontage(c, #{{changes: 2, quarters: 4}})"));
    assert!(m["ok"].as_bool().unwrap());
}
