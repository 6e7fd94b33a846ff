//! Rules read as the seed says (issue 39): a marker set is read where the seed
//! says it matters, a number that is in a table is read from it, and a rule in
//! the data is applied. Each test is worked by hand with real values.

use crate::support::{error_debug, fails, lw, map_and_trace, run};

/// Seed 003, L203 (RETREAT).
const SEED_RETREAT_GUNS: &str = "Gunners abandon their guns in a retreat.";
/// Seed 003, L183 (Civilian Teams and Drivers for Limbers).
const SEED_TEAMS: &str = "taking their hired teams with them and stranding your guns";

const BATTERY: &str = r#"let b = unit(#{name: "Bty", nation: "austria", arm: "artillery", type: "light", grade: "4", stands: 2, formation: "unlimbered"});
    let t = unit(#{name: "T", arm: "infantry", grade: "2", stands: 6, formation: "line"});"#;

#[test]
fn abandoned_guns_neither_fire_nor_limber() {
    assert!(SEED_RETREAT_GUNS.contains("abandon their guns"));
    let host = lw();
    // Before the Retreat: 2 light stands at 4" (close, 4 FP a stand) = 8 fire points, one die.
    let (v, lines, _) = map_and_trace(run(&host, &[1], &format!("{BATTERY} fire(b, t, #{{range: 4}})")));
    assert_eq!(v["fire_points"].as_float().unwrap(), 8.0, "{lines:#?}");
    // A Retreat marks the guns abandoned (no die: a Retreat moves at its full rate):
    // the battery cannot fire, and no die is rolled.
    let (v, lines, _) = map_and_trace(run(
        &host,
        &[],
        &format!(r#"{BATTERY} mandatory_move(b, "retreat", #{{}}); fire(b, t, #{{range: 4}})"#),
    ));
    assert_eq!((v["result"].to_string(), v["reason"].to_string()), ("no_fire".into(), "guns_abandoned".into()));
    assert!(lines.iter().any(|l| l.contains("abandoned their guns in a retreat")), "{lines:#?}");
    // Nor limber (or unlimber) them.
    for change in ["limber", "unlimber"] {
        let formation = if change == "limber" { "unlimbered" } else { "limbered" };
        let e = error_debug(
            &host,
            &format!(
                r#"let b = unit(#{{name: "Bty", arm: "artillery", type: "light", grade: "4", stands: 2, formation: "{formation}"}});
                mandatory_move(b, "retreat", #{{}}); formation_change(b, "{change}", #{{}})"#
            ),
        );
        assert!(e.contains("Bty's gunners abandoned their guns in a retreat") && e.contains(change), "{e}");
    }
}

#[test]
fn guns_whose_teams_fled_cannot_limber() {
    assert!(SEED_TEAMS.contains("stranding your guns"));
    let host = lw();
    // Grade 4 light guns limber in 25% of their 12" limbered move: 3".
    let (v, _, _) = map_and_trace(run(&host, &[], &format!(r#"{BATTERY} formation_change(b, "limber", #{{}})"#)));
    assert_eq!((v["done"].as_bool().unwrap(), v["cost"].as_float().unwrap()), (true, 3.0));
    // Austrian drivers in 1745 are civilian: as Disordered Militia a 3 reads 2, Retreat:
    // the teams flee, and the guns can no longer limber.
    let e = fails(
        &host,
        &[3],
        &format!(
            r#"{BATTERY} let d = drivers_under_fire(b, 1745); if !d.teams_fled {{ throw "no flight"; }} formation_change(b, "limber", #{{}})"#
        ),
    );
    assert!(e.contains("Bty's civilian drivers fled with the teams") && e.contains(SEED_TEAMS), "{e}");
}

/// Seed 003, L462 (the closed cavalry line, 5).
const SEED_BREAK_UP: &str = "If the line falls back or retreats/routs, it can \"break up\" into regimental lines after the first 3\" of movement to the rear";

#[test]
fn a_closed_line_moves_its_first_three_inches_to_the_rear_uncontrolled() {
    assert!(SEED_BREAK_UP.contains("after the first 3\""));
    let host = lw();
    let code = |formation: &str, order: &str| {
        format!(
            r#"let c = unit(#{{name: "Cuir", arm: "cavalry", grade: "3", stands: 4, formation: "{formation}"}});
            mandatory_move(c, "{order}", #{{pace: "walk"}}).uncontrolled"#
        )
    };
    // A Fall Back or a Retreat: 2" uncontrolled (L123) for a line, 3" for a closed line (L462).
    for order in ["fall_back", "retreat"] {
        let (eval, _) = run(&host, &[], &code("line", order));
        assert_eq!(eval.value.as_float().unwrap(), 2.0, "{order}");
        let (eval, _) = run(&host, &[], &code("closed_line", order));
        assert_eq!(eval.value.as_float().unwrap(), 3.0, "{order}");
        assert!(
            eval.trace.lines().iter().any(|l| l.contains("breaks up into regimental lines only after its first 3\""))
        );
    }
    // An Evade has no uncontrolled inches, closed line or not (its speed rolls a d10: 4).
    let (eval, _) = run(&host, &[4], &code("closed_line", "evade"));
    assert_eq!(eval.value.as_float().unwrap(), 0.0);
}

/// Seed 003, L207 (PURSUIT).
const SEED_PURSUIT: &str = "It will change facing up to 30 degrees to the right or left to charge an enemy unit ONLY if there is no target straight ahead.";

#[test]
fn a_pursuer_turns_up_to_thirty_degrees_only_with_no_target_straight_ahead() {
    assert!(SEED_PURSUIT.contains("up to 30 degrees"));
    let host = lw();
    // Two squadrons (1-1/2" each) at the origin facing up the table: front corners at x = -1.5 and 1.5.
    // A: one stand (3/4") front edge 4.625..5.375 at y = 6, off the straight-ahead strip; the 30
    // degree ray from (1.5, 0) reaches x = 1.5 + 6 tan 30 = 4.96 at y = 6: A is in the turn.
    // Nearest points (1.5, 0) and (4.625, 6): 6.77", within a charge distance of 10".
    // B: straight ahead, 12" away.
    let code = |reach: f64| {
        format!(
            r#"let p = unit(#{{name: "Drag", arm: "cavalry", grade: "2", stands: 2, formation: "line", placement: #{{x: 0.0, y: 0.0, facing: 0.0}}}});
            let a = unit(#{{name: "A", arm: "infantry", grade: "2", stands: 1, formation: "line", placement: #{{x: 5.0, y: 6.0, facing: 180.0}}}});
            let b = unit(#{{name: "B", arm: "infantry", grade: "2", stands: 1, formation: "line", placement: #{{x: 0.0, y: 12.0, facing: 180.0}}}});
            mandatory_move(p, "pursuit", #{{charge_distance: {reach:?}, enemies: [a, b]}})"#
        )
    };
    // Charge distance 10": B is out of reach, nothing straight ahead: it turns (30) onto A.
    let (v, lines, _) = map_and_trace(run(&host, &[], &code(10.0)));
    assert_eq!(
        (v["target"].to_string(), v["turns"].as_int().unwrap(), v["charges"].as_bool().unwrap()),
        ("A".into(), 30, true),
        "{lines:#?}"
    );
    assert_eq!(v["distance"].as_float().unwrap(), 10.0);
    // Charge distance 14": B straight ahead is the target, though A is nearer.
    let (v, _, _) = map_and_trace(run(&host, &[], &code(14.0)));
    assert_eq!((v["target"].to_string(), v["turns"].as_int().unwrap()), ("B".into(), 0));
    // Unplaced: the situation says so; no target at all: half the charge distance, Disordered.
    let said = |keys: &str| {
        format!(
            r#"let p = unit(#{{name: "Drag", arm: "cavalry", grade: "2", stands: 2, formation: "line"}});
            mandatory_move(p, "pursuit", #{{charge_distance: 10.0{keys}}})"#
        )
    };
    let (v, _, _) = map_and_trace(run(&host, &[], &said(", target_within_turn: true")));
    assert_eq!(
        (v["charges"].as_bool().unwrap(), v["turns"].as_int().unwrap(), v["distance"].as_float().unwrap()),
        (true, 30, 10.0)
    );
    let (v, _, _) = map_and_trace(run(&host, &[], &said("")));
    assert_eq!(
        (v["charges"].as_bool().unwrap(), v["distance"].as_float().unwrap(), v["ends"].to_string()),
        (false, 5.0, "disordered".into())
    );
}

#[test]
fn the_order_table_says_what_lasts_a_turn_and_what_comes_next_turn() {
    let host = lw();
    // mandatory_moves: evade `lasts: turn` (Disordered at the next turn's start); pursuit
    // `next_turn: rally_back`; fall_back `next_turn_move` (it counts as moved).
    let (v, _, _) = map_and_trace(run(
        &host,
        &[4],
        r#"let e = unit(#{name: "E", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        let p = unit(#{name: "P", arm: "cavalry", grade: "2", stands: 2, formation: "line"});
        let f = unit(#{name: "F", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        mandatory_move(e, "evade", #{}); mandatory_move(p, "pursuit", #{charge_distance: 10.0, target_ahead: true});
        mandatory_move(f, "fall_back", #{});
        start_turn([e, p, f]);
        #{e: e.order, p: p.has_marker("may_rally_back"), f: f.has_marker("moved")}"#,
    ));
    assert_eq!(v["e"].to_string(), "disordered");
    assert!(v["p"].as_bool().unwrap() && v["f"].as_bool().unwrap());
}

/// Seed 003, L460 (the closed line, 3; "1`VO" is the scan's TWO) and L466 (the open line, 1).
const SEED_CLOSED_TO_COLUMN: &str =
    "To reform the Line into a column requires 1`VO Formation Changes: this is the only Formation Change allowed.";

#[test]
fn a_cavalry_lines_changes_to_column_are_counted_in_the_cavalry_lines_table() {
    assert!(SEED_CLOSED_TO_COLUMN.contains("only Formation Change allowed"));
    let host = lw();
    let code = |formation: &str, change: &str| {
        format!(
            r#"let c = unit(#{{name: "Cuir", arm: "cavalry", grade: "3", stands: 4, formation: "{formation}"}});
            let full = movement_allowance(c, ());
            let r = formation_change(c, "{change}", #{{to: "column", movement: full}}); r.full = full; r"#
        )
    };
    // Grade 3: one FC costs 50% of the full move. A closed line: 2 FCs (cavalry_lines), the whole move.
    for change in ["closed_line_to_column", "cavalry_any"] {
        let (v, lines, _) = map_and_trace(run(&host, &[], &code("closed_line", change)));
        let full = v["full"].as_float().unwrap();
        assert_eq!((v["fcs"].as_int().unwrap(), v["share"].as_int().unwrap()), (2, 50), "{change} {lines:#?}");
        assert_eq!((v["cost"].as_float().unwrap(), v["formation"].to_string()), (full, "column".into()));
    }
    // An open line "may reform into separate columns normally": 1 FC, half the move.
    let (v, _, _) = map_and_trace(run(&host, &[], &code("open_line", "cavalry_any")));
    assert_eq!(v["fcs"].as_int().unwrap(), 1);
    assert_eq!(v["cost"].as_float().unwrap(), v["full"].as_float().unwrap() / 2.0);
    // Anything else from a closed line is refused.
    let e = error_debug(
        &host,
        r#"let c = unit(#{name: "Cuir", arm: "cavalry", grade: "3", stands: 4, formation: "closed_line"}); formation_change(c, "cavalry_any", #{to: "open_line"})"#,
    );
    assert!(e.contains("the only Formation Change allowed") && e.contains("not cavalry_any to open_line"), "{e}");
}

/// Seed 003, L175 (the sleeve).
const SEED_SLEEVE: &str = "has no firepower to the flanks (only about 6 - 10 men are facing the flank with a clear shot), and only 1/4 of its total stands may fire to the rear (rounded down, but minimum of one)";

#[test]
fn a_sleeve_fires_a_quarter_of_its_stands_to_the_rear_and_none_to_a_flank() {
    assert!(SEED_SLEEVE.contains("no firepower to the flanks"));
    let host = lw();
    let unplaced = |side: &str| {
        format!(
            r#"let s = unit(#{{name: "Sleeve", arm: "infantry", grade: "2", stands: 9, formation: "sleeve"}});
            let t = unit(#{{name: "T", arm: "infantry", grade: "2", stands: 6, formation: "line"}});
            fire(s, t, #{{range: 2{side}}})"#
        )
    };
    // To the rear: 9 / 4 = 2 stands (sleeve.rear_fire_stands_divisor) x 2 (musket, close) = 4.
    for side in [r#", target_side: "rear""#, ""] {
        let (v, lines, _) = map_and_trace(run(&host, &[1], &unplaced(side)));
        assert_eq!(v["fire_points"].as_float().unwrap(), 4.0, "{side} {lines:#?}");
    }
    // To a flank or its front: no fire, no die.
    for side in ["left_flank", "right_flank", "front"] {
        let (v, lines, _) = map_and_trace(run(&host, &[], &unplaced(&format!(r#", target_side: "{side}""#))));
        assert_eq!(
            (v["result"].to_string(), v["reason"].to_string()),
            ("no_fire".into(), "sleeve_fires_to_the_rear".into())
        );
        assert!(lines.iter().any(|l| l.contains("has no firepower to the flanks")), "{lines:#?}");
    }
    // Placed: an 8-stand sleeve at the origin facing up the table (6" wide, 1" deep).
    let placed = |x: f64, y: f64, facing: f64| {
        format!(
            r#"let s = unit(#{{name: "Sleeve", arm: "infantry", grade: "2", stands: 8, formation: "sleeve", placement: #{{x: 0.0, y: 0.0, facing: 0.0}}}});
            let t = unit(#{{name: "T", arm: "infantry", grade: "2", stands: 1, formation: "line", placement: #{{x: {x:?}, y: {y:?}, facing: {facing:?}}}}});
            fire(s, t, #{{}})"#
        )
    };
    // Behind it, 4" from its rear edge (y = -1 to -5): long range, 8 / 4 = 2 stands x 1 = 2.
    let (v, lines, _) = map_and_trace(run(&host, &[1], &placed(0.0, -5.0, 0.0)));
    assert_eq!((v["fire_points"].as_float().unwrap(), v["band"].to_string()), (2.0, "long".into()), "{lines:#?}");
    // Beside its right flank (centre at y = -0.1, between its front and rear lines): no fire.
    let (v, _, _) = map_and_trace(run(&host, &[], &placed(6.0, 0.4, 0.0)));
    assert_eq!(v["reason"].to_string(), "sleeve_fires_to_the_rear");
}

#[test]
fn artillery_fire_on_a_battery_puts_its_civilian_drivers_to_the_test() {
    let host = lw();
    let code = |nation: &str, formation: &str, situation: &str| {
        format!(
            r#"let g = unit(#{{name: "Guns", arm: "artillery", type: "medium", grade: "2", stands: 2, formation: "unlimbered"}});
            let b = unit(#{{name: "Bty", nation: "{nation}", arm: "artillery", type: "light", grade: "3", stands: 2, formation: "{formation}"}});
            let r = fire(g, b, {situation}); r.fled = b.has_marker("teams_fled"); r"#
        )
    };
    // Medium guns reach 16" (long). At 10" the unlimbered battery's limbers stand 3" behind
    // (artillery_limbering.limbers_behind_inches): 13", in range. Austrian drivers in 1745 are
    // civilian: as Disordered Militia a 3 reads 2, Retreat: the teams flee.
    let (v, lines, _) = map_and_trace(run(&host, &[1, 3], &code("austria", "unlimbered", "#{range: 10, year: 1745}")));
    assert_eq!(v["fire_points"].as_float().unwrap(), 6.0, "{lines:#?}");
    let drivers = v["drivers"].clone().cast::<rhai::Map>();
    assert_eq!((drivers["result"].to_string(), v["fled"].as_bool().unwrap()), ("retreat".into(), true), "{lines:#?}");
    // At 14" the limbers are 17" away, beyond 16": no roll (one die only).
    let (v, lines, _) = map_and_trace(run(&host, &[1], &code("austria", "unlimbered", "#{range: 14, year: 1745}")));
    assert!(!v.contains_key("drivers") && !v["fled"].as_bool().unwrap());
    assert!(lines.iter().any(|l| l.contains("Bty's limbers, 17.0\" away, are beyond the guns' range")), "{lines:#?}");
    // Limbered, the limbers are with the guns: 14" is in range and they roll.
    let (v, _, _) = map_and_trace(run(&host, &[1, 3], &code("austria", "limbered", "#{range: 14, year: 1745}")));
    assert!(v["fled"].as_bool().unwrap());
    // French drivers in 1755 are militarized: no roll; nor without a date (a note says why).
    let (v, _, _) = map_and_trace(run(&host, &[1], &code("france", "unlimbered", "#{range: 10, year: 1755}")));
    assert!(!v.contains_key("drivers"));
    let (_, lines, _) = map_and_trace(run(&host, &[1], &code("austria", "unlimbered", "#{range: 10}")));
    assert!(lines.iter().any(|l| l.contains("give situation.year (or a civilian_drivers marker)")), "{lines:#?}");
}

#[test]
fn a_late_reaction_cannot_face_about_either() {
    // Seed L117: "The unit cannot change formation or facing, except as part of a Mandatory
    // Movement" (late_reaction.may_change_facing). A Prussian grade 2 line in 1745 (cadenced),
    // 1 FC at 75% of its move.
    let host = lw();
    let code = |situation: &str| {
        format!(
            r#"let u = unit(#{{name: "Bn", nation: "prussia", arm: "infantry", grade: "2", stands: 5, formation: "line"}});
            u.set_marker("fired", true); formation_change(u, "about_face", {situation})"#
        )
    };
    let e = error_debug(&host, &code("#{year: 1745, reaction: true}"));
    assert!(e.contains("cannot change formation or facing"), "{e}");
    for ok in ["#{year: 1745}", "#{year: 1745, reaction: true, mandatory: true}"] {
        let (v, _, _) = map_and_trace(run(&host, &[], &code(ok)));
        assert_eq!((v["done"].as_bool().unwrap(), v["share"].as_int().unwrap()), (true, 75), "{ok}");
    }
}
