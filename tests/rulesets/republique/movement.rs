//! Movement and command rules, each on and off: 105 cavalry lines (the frontage
//! on the table), 201 alert infantry, 302 cavalry pass through, 303 road movement.

use super::{assert_line, host_with};
use crate::support::{fails, int, run, text, unit_in};

fn float(host: &grognard::script::Host, code: &str) -> f64 {
    let (eval, _) = run(host, &[], code);
    eval.value.as_float().unwrap_or_else(|_| panic!("{code}: {:?}", eval.value))
}

// ---- 105 cavalry in line -------------------------------------------------------

#[test]
fn a_spaced_cavalry_line_spans_twice_its_bases_less_one_and_is_solid() {
    let spaced = r#"let c = unit(#{name: "Dragoons", arm: "cavalry", type: "medium", stands: 4, formation: "spaced_line", placement: #{x: 0.0, y: 0.0, facing: 0.0}});"#;
    let host = host_with(&["cavalry_in_line"], &[]);
    // Four 1.5" bases, one base-width apart: 7 widths, 10.5".
    assert_eq!(float(&host, &format!("{spaced} frontage_inches(c)")), 10.5);
    // Laid out solid: a unit touching the middle of the span (a gap) is in contact.
    let touching = format!(
        r#"{spaced} let e = unit(#{{name: "E", arm: "infantry", stands: 1, formation: "line", placement: #{{x: 0.0, y: 0.0, facing: 180.0}}}});
        distance(unit_footprint(c), unit_footprint(e))"#
    );
    assert_eq!(float(&host, &touching), 0.0);
    let (eval, _) = run(&host, &[], &format!("{spaced} gaps_open_for_movement(c)"));
    assert!(!eval.value.as_bool().unwrap());
    let open = host_with(&["cavalry_in_line"], &[("cavalry_line_gaps", "open_for_movement")]);
    let (eval, _) = run(&open, &[], &format!("{spaced} gaps_open_for_movement(c)"));
    assert!(eval.value.as_bool().unwrap());
    // Without the rule, no spaced line; infantry never.
    let err = fails(&host_with(&[], &[]), &[], &format!("{spaced} frontage_inches(c)"));
    assert!(err.contains("read only with the optional rule cavalry_in_line"), "{err}");
    let err = fails(
        &host,
        &[],
        r#"frontage_inches(unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "spaced_line"}))"#,
    );
    assert!(err.contains("only cavalry forms a spaced line (rule 105)"), "{err}");
    // A closed line of the same four bases is 6".
    assert_eq!(float(&host, &spaced.replace("spaced_line", "line").replace(';', "; frontage_inches(c)")), 6.0);
}

// ---- 303 road movement ---------------------------------------------------------

fn road(with: &[&str], set: &[(&str, &str)], formation: &str, situation: &str) -> f64 {
    let code = format!(
        r#"road_move(unit(#{{name: "9e Ligne", arm: "infantry", stands: 4, formation: "{formation}"}}), {situation})"#
    );
    float(&host_with(with, set), &code)
}

#[test]
fn a_road_column_on_the_road_moves_double() {
    let on = ["road_movement"];
    assert_eq!(road(&on, &[], "road_column", "#{road_inches: 30}"), 18.0);
    assert_eq!(road(&[], &[], "road_column", "#{road_inches: 30}"), 9.0);
    assert_eq!(road(&on, &[], "column", "#{road_inches: 30}"), 9.0);
    // 6" of road (costing 3") then 6" off it.
    assert_eq!(road(&on, &[], "road_column", "#{road_inches: 6}"), 12.0);
    assert_eq!(road(&on, &[("road_partial", "all_or_nothing")], "road_column", "#{road_inches: 6}"), 9.0);
    // Rain makes the road no better than the fields; a quagmire slows (house x0.5).
    assert_eq!(road(&on, &[], "road_column", r#"#{road_inches: 30, road_condition: "unusable"}"#), 9.0);
    assert_eq!(road(&on, &[], "road_column", r#"#{road_inches: 30, road_condition: "quagmire"}"#), 4.5);
}

// ---- 201 alert infantry --------------------------------------------------------

const ALERT: &str = r#"let u = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"});"#;

#[test]
fn infantry_goes_on_alert_after_a_quarter_move_at_most() {
    let host = host_with(&["alert_infantry"], &[]);
    // A line moves 6" (house): a quarter is 1.5".
    let (eval, scope) = run(&host, &[], &format!("{ALERT} place_on_alert(u, 1.5, #{{}})"));
    assert!(eval.value.as_bool().unwrap());
    assert!(unit_in(&scope, "u").has_marker("alert"));
    let (eval, _) = run(&host, &[], &format!("{ALERT} place_on_alert(u, 2, #{{}})"));
    assert!(!eval.value.as_bool().unwrap());
    assert_line(&eval, &["more than a quarter of its 6.0\" move: no alert (rule 201)"]);
    let hit = ALERT.replace(r#"formation: "line""#, r#"formation: "line", markers: #{morale_hits: 1}"#);
    let (eval, _) = run(&host, &[], &format!("{hit} place_on_alert(u, 0, #{{}})"));
    assert_line(&eval, &["has morale hits: it may not become alert (rule 201)"]);
    // Over rough ground, the allowance crossed (3") may be the normal move instead.
    let terrain = host_with(&["alert_infantry"], &[("normal_move", "terrain_crossed")]);
    let (eval, _) = run(&terrain, &[], &format!("{ALERT} place_on_alert(u, 1, #{{allowance: 3}})"));
    assert!(!eval.value.as_bool().unwrap());
    // Moving again loses it.
    let (eval, scope) = run(&host, &[], &format!("{ALERT} place_on_alert(u, 0, #{{}}); unit_moved(u, 1); u"));
    assert_line(&eval, &["9e Ligne loses its alert status: it moved (rule 201)"]);
    assert!(!unit_in(&scope, "u").has_marker("alert"));
    let err = fails(&host_with(&[], &[]), &[], &format!("{ALERT} place_on_alert(u, 0, #{{}})"));
    assert!(err.contains("rule 201 (alert_infantry) is off"), "{err}");
}

/// An alert line at the origin facing up the table, and an enemy column whose front is
/// at (x, y) facing `facing`.
fn alert_and_enemy(x: f64, y: f64, facing: f64) -> String {
    format!(
        r#"let u = unit(#{{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line", markers: #{{alert: true}}, placement: #{{x: 0.0, y: 0.0, facing: 0.0}}}});
        let e = unit(#{{name: "Hussars", arm: "cavalry", type: "light", stands: 2, formation: "column", placement: #{{x: {x:?}, y: {y:?}, facing: {facing:?}}}}});"#
    )
}

#[test]
fn an_enemy_in_the_three_inch_zone_triggers_the_alert() {
    let on = host_with(&["alert_infantry"], &[]);
    let around = host_with(&["alert_infantry"], &[("alert_zone", "around")]);
    let triggered = |host: &grognard::script::Host, code: String| {
        let (eval, _) = run(host, &[], &format!("{code} alert_triggered(u, e, #{{}})"));
        eval.value.as_bool().unwrap()
    };
    // 2.5" ahead: in the zone either way. 3.5" ahead: out.
    assert!(triggered(&on, alert_and_enemy(0.0, 2.5, 180.0)));
    assert!(!triggered(&on, alert_and_enemy(0.0, 3.5, 180.0)));
    // 2.5" behind (the line is 0.5" deep): only the all-round zone.
    assert!(!triggered(&on, alert_and_enemy(0.0, -3.0, 0.0)));
    assert!(triggered(&around, alert_and_enemy(0.0, -3.0, 0.0)));
    // Not in the attacker maneuver phase, or the rule off: no trigger.
    let (eval, _) =
        run(&on, &[], &format!("{} alert_triggered(u, e, #{{phase: \"movement\"}})", alert_and_enemy(0.0, 2.5, 180.0)));
    assert!(!eval.value.as_bool().unwrap());
    // Off, an alert marker is refused naming the switch (once it quietly did nothing).
    let err =
        fails(&host_with(&[], &[]), &[], &format!("{} alert_triggered(u, e, #{{}})", alert_and_enemy(0.0, 2.5, 180.0)));
    assert!(
        err.contains("alert_triggered(unit, enemy, situation): `unit` (9e Ligne): marker \"alert\" is read only with the optional rule alert_infantry: add --with alert_infantry"),
        "{err}"
    );
    // Off the table, by the distance given.
    let off = r#"let u = unit(#{name: "A", arm: "infantry", stands: 4, formation: "line", markers: #{alert: true}});
        let e = unit(#{name: "E", arm: "infantry", stands: 4, formation: "column"});"#;
    let (eval, _) = run(&on, &[], &format!("{off} alert_triggered(u, e, #{{enemy_distance: 3}})"));
    assert!(eval.value.as_bool().unwrap());
}

#[test]
fn the_alert_unit_counter_attacks_with_a_pro_rated_move_or_forms_square() {
    let on = host_with(&["alert_infantry"], &[]);
    let base = alert_and_enemy(0.0, 2.5, 180.0);
    // The hussars moved 5" of their 15" column move: a third of the line's 6", 2.0".
    let react = |host: &grognard::script::Host, dice: &[i64], situation: &str| {
        run(host, dice, &format!("{base} alert_reaction(u, e, {situation})"))
    };
    let (eval, scope) = react(&on, &[], "#{enemy_moved: 5, distance: 2.5}");
    assert_eq!(text(&eval, "result"), "reaction_move");
    assert_line(&eval, &["9e Ligne makes a reaction move of up to 2.0\" (rule 201)"]);
    assert!(!unit_in(&scope, "u").has_marker("alert"), "reacting counts as moving");
    // Within reach: an assault with the alert unit as the attacker (8 - (2 + 1 light) = 5).
    let (eval, _) = react(&on, &[8, 2], "#{enemy_moved: 5, distance: 1.5}");
    assert_eq!((text(&eval, "result"), int(&eval, "differential")), ("defender_retreats".into(), 5));
    // A fixed half move (3") reaches 2.5".
    let half = host_with(&["alert_infantry"], &[("alert_reaction_distance", "half_move")]);
    let (eval, _) = react(&half, &[8, 2], "#{enemy_moved: 5, distance: 2.5}");
    assert_eq!(text(&eval, "result"), "defender_retreats");
    // The emergency square: the formation change is named in the trace.
    let (eval, scope) = react(&on, &[], r#"#{reaction: "square"}"#);
    assert_eq!(text(&eval, "result"), "emergency_square");
    assert_eq!(unit_in(&scope, "u").formation, "square");
    assert_line(&eval, &["9e Ligne: formation line -> square, an emergency square (rule 201)"]);
    // Off: refused naming the switch, not "no reaction".
    let err = fails(&host_with(&[], &[]), &[], &format!("{base} alert_reaction(u, e, #{{reaction: \"square\"}})"));
    assert!(err.contains("marker \"alert\" is read only with the optional rule alert_infantry"), "{err}");
}

#[test]
fn a_hit_in_an_assault_loses_the_alert() {
    let code = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line", markers: #{alert: true}});
        let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        assault(d, a, #{})"#;
    // 4 - 5 = -1: stalled, a morale hit each, then fought again (9 - 1 - (1 - 1) = 8).
    let (eval, scope) = run(&host_with(&["alert_infantry"], &[]), &[4, 5, 9, 1], code);
    assert_line(&eval, &["9e Ligne loses its alert status: a morale hit (rule 201)"]);
    assert!(!unit_in(&scope, "a").has_marker("alert"));
}

// ---- 302 cavalry pass through ----------------------------------------------------

fn pass(with: &[&str], set: &[(&str, &str)], cav_y: f64, cav_facing: f64, formation: &str, situation: &str) -> String {
    let code = format!(
        r#"let b = unit(#{{name: "Battery", arm: "artillery", type: "foot", stands: 1, formation: "{formation}", placement: #{{x: 0.0, y: 0.0, facing: 0.0}}}});
        let c = unit(#{{name: "Hussars", arm: "cavalry", type: "light", stands: 2, formation: "column", placement: #{{x: 0.0, y: {cav_y:?}, facing: {cav_facing:?}}}}});
        pass_through(c, b, {situation})"#
    );
    let (eval, _) = run(&host_with(with, set), &[], &code);
    text(&eval, "result")
}

#[test]
fn cavalry_passes_through_a_battery_from_its_rear_or_flank() {
    let on = ["cavalry_pass_through"];
    // Behind the battery (its 1" depth runs to y = -1): passes through.
    assert_eq!(pass(&on, &[], -3.0, 0.0, "unlimbered", "#{}"), "passed_through");
    // In front: an assault. Packed: an assault. Off: an assault.
    assert_eq!(pass(&on, &[], 3.0, 180.0, "unlimbered", "#{}"), "assault");
    assert_eq!(pass(&on, &[], -3.0, 0.0, "packed", "#{}"), "assault");
    assert_eq!(pass(&[], &[], -3.0, 0.0, "unlimbered", "#{}"), "assault");
    // Only in a retrograde or breakthrough move, if so switched.
    let retro = [("pass_through_moves", "retrograde_only")];
    assert_eq!(pass(&on, &retro, -3.0, 0.0, "unlimbered", "#{}"), "assault");
    assert_eq!(pass(&on, &retro, -3.0, 0.0, "unlimbered", r#"#{move: "retrograde"}"#), "passed_through");
    let code = r#"let b = unit(#{name: "Battery", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
        let c = unit(#{name: "Hussars", arm: "cavalry", type: "light", stands: 2, formation: "column"});
        pass_through(c, b, #{approach: "left_flank"})"#;
    let (eval, _) = run(&host_with(&on, &[]), &[], code);
    assert_eq!(text(&eval, "result"), "passed_through");
    assert_eq!(int(&eval, "movement_cost"), 0);
    assert_line(&eval, &["may not use passing fire now: it waits for its normal fire phase"]);
}

// ---- the overlap binding (rule 501's geometry) ----------------------------------------

#[test]
fn overlap_measures_each_flank_in_base_widths() {
    let host = host_with(&[], &[]);
    // Defender: 4 bases (6") facing down the table; attacker: 6 bases (9") shifted 1.5" to +x.
    let code = r#"let d = unit(#{name: "D", arm: "infantry", stands: 4, formation: "line", placement: #{x: 0.0, y: 10.0, facing: 180.0}});
        let a = unit(#{name: "A", arm: "infantry", stands: 6, formation: "line", placement: #{x: 1.5, y: 9.0, facing: 0.0}});
        let o = overlap(footprint(d, 1.5, 0.5, 4), footprint(a, 1.5, 0.5, 6), 1.5);
        [o.left, o.right]"#;
    let (eval, _) = run(&host, &[], code);
    let v: Vec<f64> = eval.value.clone().into_array().unwrap().iter().map(|x| x.as_float().unwrap()).collect();
    // Facing down the table, the defender's left is +x: 2 bases past it, none past its right.
    assert!((v[0] - 2.0).abs() < 1e-9 && v[1].abs() < 1e-9, "{v:?}");
}

#[test]
fn a_unit_left_in_a_river_is_vulnerable_until_it_moves_out() {
    let code = r#"let u = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "column", markers: #{alert: true}});
        end_move(u, 3, #{in_river: true});
        let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
        let first = assault(u, d, #{}).column;
        end_move(u, 2, #{});
        [first, u.has_marker("vulnerable")]"#;
    let (eval, _) = run(&host_with(&["vulnerable_units", "alert_infantry"], &[]), &[9, 1], code);
    let v: Vec<String> = eval.value.clone().into_array().unwrap().iter().map(|x| x.to_string()).collect();
    assert_eq!(v, ["defender_advantage", "false"]);
    assert_line(&eval, &["9e Ligne finishes its move in the river: marked V (rule 515)"]);
    assert_line(&eval, &["9e Ligne loses its alert status: it moved (rule 201)"]);
    assert_line(&eval, &["V removed (rule 515)"]);
    let (eval, _) = run(&host_with(&[], &[]), &[9, 1], &code.replace(", markers: #{alert: true}", ""));
    let v: Vec<String> = eval.value.clone().into_array().unwrap().iter().map(|x| x.to_string()).collect();
    assert_eq!(v, ["attacker_advantage", "false"]);
}

#[test]
fn alert_lasts_until_the_units_own_movement_phase() {
    let code = r#"let u = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line", markers: #{alert: true}});
        movement_phase_starts([u]);
        u.has_marker("alert")"#;
    let (eval, _) = run(&host_with(&["alert_infantry"], &[]), &[], code);
    assert!(!eval.value.as_bool().unwrap());
    assert_line(&eval, &["loses its alert status: its own movement phase begins (rule 201)"]);
}

#[test]
fn an_enemy_crossing_the_zone_triggers_the_alert_though_it_ends_outside() {
    // Seed l.27: "moves into, through or across the alert unit's 3\" assault zone".
    // The hussars ride from 10" left to 10" right, 2" ahead of the line, and end outside
    // the front zone (the 45-degree arc from the line's 6" front reaches 5" out at 2").
    let on = host_with(&["alert_infantry"], &[]);
    let ends = alert_and_enemy(10.0, 2.0, 90.0);
    let across = r#"#{enemy_path: [#{x: -10.0, y: 2.0, facing: 90.0}, #{x: 10.0, y: 2.0, facing: 90.0}]}"#;
    let (eval, _) = run(&on, &[], &format!("{ends} alert_triggered(u, e, #{{}})"));
    assert!(!eval.value.as_bool().unwrap(), "where it ends is outside the zone");
    let (eval, _) = run(&on, &[], &format!("{ends} alert_triggered(u, e, {across})"));
    assert!(eval.value.as_bool().unwrap());
    assert_line(&eval, &["Hussars passes within the 3\" assault zone of 9e Ligne on its way", "(rule 201)"]);
    // The same ride 8" ahead never comes within 3".
    let far = across.replace("y: 2.0", "y: 8.0");
    let (eval, _) = run(&on, &[], &format!("{} alert_triggered(u, e, {far})", alert_and_enemy(10.0, 8.0, 90.0)));
    assert!(!eval.value.as_bool().unwrap());
    // The reaction follows: an emergency square against the crossing enemy.
    let square = across.replace("#{enemy_path", r#"#{reaction: "square", enemy_path"#);
    let (eval, _) = run(&on, &[], &format!("{ends} alert_reaction(u, e, {square})"));
    assert_eq!(text(&eval, "result"), "emergency_square");
    // A path of one point is refused.
    let err =
        fails(&on, &[], &format!("{ends} alert_triggered(u, e, #{{enemy_path: [#{{x: 0.0, y: 2.0, facing: 90.0}}]}})"));
    assert!(
        err.contains("situation.enemy_path is the enemy's placements from the start of its move to its end"),
        "{err}"
    );
}

#[test]
fn pass_through_refuses_an_unknown_approach_or_move() {
    let code = |situation: &str| {
        format!(
            r#"let b = unit(#{{name: "Battery", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"}});
            let c = unit(#{{name: "Hussars", arm: "cavalry", type: "light", stands: 2, formation: "column"}});
            pass_through(c, b, {situation})"#
        )
    };
    let on = host_with(&["cavalry_pass_through"], &[]);
    let err = fails(&on, &[], &code(r#"#{approach: "Front"}"#));
    assert!(err.contains("situation.approach is Front: it is front, left_flank, right_flank or rear"), "{err}");
    let err = fails(&on, &[], &code(r#"#{approach: "rear", move: "sideways"}"#));
    assert!(err.contains("situation.move is sideways: it is retrograde, breakthrough or other"), "{err}");
    for (approach, result) in [("front", "assault"), ("rear", "passed_through"), ("right_flank", "passed_through")] {
        let (eval, _) = run(&on, &[], &code(&format!(r#"#{{approach: "{approach}"}}"#)));
        assert_eq!(text(&eval, "result"), result, "{approach}");
    }
}

#[test]
fn a_spaced_cavalry_line_needs_rule_105_to_assault_or_move() {
    let spaced = r#"let c = unit(#{name: "Dragoons", arm: "cavalry", type: "medium", stands: 4, formation: "spaced_line"});
        let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});"#;
    let off = host_with(&[], &[]);
    let err = fails(&off, &[5, 5], &format!("{spaced} assault(c, d, #{{}})"));
    assert!(
        err.contains("assault(attackers, defenders, situation): `attackers` (Dragoons): formation \"spaced_line\" is read only with the optional rule cavalry_in_line: add --with cavalry_in_line"),
        "{err}"
    );
    let err = fails(&off, &[], &format!("{spaced} move_allowance(c)"));
    assert!(err.contains("move_allowance(unit): `unit` (Dragoons): formation \"spaced_line\" is read only with the optional rule cavalry_in_line"), "{err}");
    // On: it assaults (5 + 2 medium - 5 = 2, stalled, then 9 + 2 - 1 - (1 - 1) = 10) and moves 12".
    let on = host_with(&["cavalry_in_line"], &[]);
    let (eval, _) = run(&on, &[5, 5, 9, 1], &format!("{spaced} assault(c, d, #{{}})"));
    assert_eq!(text(&eval, "result"), "defender_routed");
    assert_line(&eval, &["Dragoons is in a spaced cavalry line, solid across its gaps (rule 105)"]);
    assert_eq!(float(&on, &format!("{spaced} move_allowance(c)")), 12.0);
    let err = fails(
        &on,
        &[],
        r#"move_allowance(unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "spaced_line"}))"#,
    );
    assert!(err.contains("only cavalry forms a spaced line (rule 105)"), "{err}");
}
