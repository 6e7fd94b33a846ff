//! Army Withdrawal (AR-PROC-ARMY-WITHDRAWAL, its modifiers and the campaign
//! army morale test), rally attempts (AR-PROC-RALLY) and Good Troops Make it
//! Happen (AR-PROC-MAKE-IT-HAPPEN).

use grognard::dice::{EnumLimits, Supplied};
use grognard::rules::{LookupValue, ModEffect};
use grognard::script::{Host, Outcome};
use rhai::Scope;

use crate::support::{error_debug, eval_map, int, lw, ratio, ruleset, text};

/// Seed 003, L350-360, as printed (the two columns one after the other).
const SEED_MODS: &str = "+1 Each friendly unit routed off the board
+1 Each flag or battery captured by enemy
+1 Each friendly unit currently routing (on the battlefield)
+1 Each Class 1 leader killed, captured, or left the field
+1 25% losses
+2 Each Class 2 leader killed, captured, or left the field
+2 30% losses
+3 40% losses
+4 50% losses
-1 Each enemy flag or battery captured
-1 Each enemy unit currently in Rout on the Battlefield OR Routed off the Field
-1 Each Class 1 enemy leader captured";

/// Seed 003, L388-391.
const SEED_MAKE_IT_HAPPEN: &str = "Morale Grade 1 - 1
Morale Grade 2 even
Morale Grade 3 + 1
Morale Grade 4 + 2";

#[test]
fn the_withdrawal_modifiers_are_the_seeds_line_by_line() {
    let rs = ruleset(&["linear-warfare"]);
    let list = &rs.modifiers["army_withdrawal_modifiers"];
    for line in SEED_MODS.lines() {
        let (value, printed) = line.split_once(' ').unwrap();
        let value: i64 = value.parse().unwrap();
        let m = list.modifiers.iter().find(|m| m.text == printed).unwrap_or_else(|| panic!("no modifier `{printed}`"));
        assert_eq!(m.effect, ModEffect::Add(value), "{printed}");
        assert!(!m.source.is_house(), "{printed} is the seed's");
    }
    // The unprinted ones are house values.
    for id in ["army_commander_lost", "enemy_class2_captured", "objectives_gained", "objectives_lost"] {
        assert!(list.modifiers.iter().find(|m| m.id == id).unwrap().source.is_house(), "{id}");
    }
    let t = &rs.tables["army_withdrawal"];
    assert_eq!(t.read_bands(11).unwrap().result.unwrap().id, "holds");
    assert_eq!(t.read_bands(12).unwrap().result.unwrap().id, "withdraws");
    assert_eq!(
        *rs.tables["army_withdrawal_trigger"].read_lookup(&["first_check_percent".into()]).unwrap(),
        LookupValue::Int(15)
    );
}

/// An army of `n` battalions of 5 stands, `lost` stands lost in all, with `setup` Rhai after.
fn army(n: usize, lost: i64, setup: &str) -> String {
    let mut code = String::from("let us = [];");
    for i in 0..n {
        code += &format!(
            r#"us.push(unit(#{{name: "Bn {i}", arm: "infantry", grade: "2", stands: 5, formation: "line"}}));"#
        );
    }
    code += &format!(
        "let left = {lost}; for u in us {{ let l = if left > 5 {{ 5 }} else {{ left }}; u.stands = 5 - l; left -= l; }}"
    );
    code += &format!("let army = #{{units: us}}; {setup}");
    code
}

#[test]
fn the_first_check_is_at_15_percent_casualties() {
    let host = lw();
    // 20 stands: 2 lost = 10%, 3 lost = 15%.
    let m = eval_map(&host, &army(4, 2, "army.withdrawal_check()"));
    assert!(!m["checked"].as_bool().unwrap());
    assert!(text(&m, "reason").contains("10% casualties: the first check is at 15%"));
    host.set_dice(Box::new(Supplied::new([10])));
    let m = eval_map(&host, &army(4, 3, "army.withdrawal_check()"));
    assert!(m["checked"].as_bool().unwrap());
    assert_eq!((int(&m, "total"), text(&m, "result")), (10, "holds".into()));
}

#[test]
fn after_the_first_check_only_net_positive_modifiers_check_again() {
    let host = lw();
    host.set_dice(Box::new(Supplied::new([5])));
    let m = eval_map(&host, &army(4, 3, "army.withdrawal_check(); let m = army.withdrawal_check(); m"));
    assert!(!m["checked"].as_bool().unwrap());
    assert!(text(&m, "reason").contains("no net positive modifiers"));
    host.set_dice(Box::new(Supplied::new([5, 9])));
    let m = eval_map(
        &host,
        &army(4, 3, "army.withdrawal_check(); army.class1_lost = 1; army.standards_lost = 2; army.withdrawal_check()"),
    );
    assert_eq!((int(&m, "modifier"), int(&m, "total")), (3, 12));
    assert_eq!(text(&m, "result"), "withdraws");
    assert_eq!(text(&m, "effect"), "defeat");
}

#[test]
fn loss_bands_count_the_highest_unless_cumulative() {
    for (choice, lost, modifier) in [
        ("highest", 5, 1),
        ("highest", 6, 2),
        ("highest", 8, 3),
        ("highest", 10, 4),
        ("highest", 4, 0),
        ("cumulative", 10, 10),
        ("cumulative", 8, 6),
    ] {
        let mut rs = ruleset(&["linear-warfare"]);
        rs.set_interpretation("withdrawal_loss_bands", choice).unwrap();
        let host = Host::new(rs).unwrap();
        host.set_dice(Box::new(Supplied::new([1])));
        // 20 stands: 4 = 20%, 5 = 25%, 6 = 30%, 8 = 40%, 10 = 50%.
        let m = eval_map(&host, &army(4, lost, "army.withdrawal_check()"));
        assert_eq!(int(&m, "modifier"), modifier, "{choice} {lost}");
    }
}

#[test]
fn units_routed_off_count_whole_and_pursuers_off_not_at_all() {
    let host = lw();
    let code = army(
        4,
        0,
        r#"us[0].set_marker("routed_off", true); us[1].set_marker("pursued_off", true); us[1].stands = 2;
        us[2].order = "rout"; army_tally(us)"#,
    );
    let m = eval_map(&host, &code);
    // Routed off: 5 stands; pursued off: not lost for leaving, but its 3 earlier losses count.
    assert_eq!(
        (int(&m, "stands_lost"), int(&m, "loss_percent"), int(&m, "routed_off"), int(&m, "routing")),
        (8, 40, 1, 1)
    );
    // The enemy's routing and routed-off units: -1 each.
    host.set_dice(Box::new(Supplied::new([5])));
    let m = eval_map(
        &host,
        &army(
            4,
            3,
            r#"army.enemy_units = [unit(#{name: "E", arm: "cavalry", grade: "2", stands: 3, formation: "line", order: "rout"})]; army.withdrawal_check()"#,
        ),
    );
    assert_eq!(int(&m, "modifier"), -1);
}

#[test]
fn the_campaign_test_penalises_then_worsens_then_withdraws() {
    let mut rs = ruleset(&["linear-warfare"]);
    rs.set_option("campaign_army_morale", true).unwrap();
    let host = Host::new(rs).unwrap();
    // 15%: first test; +3 from standards: 9 + 3 = 12 fails.
    host.set_dice(Box::new(Supplied::new([9, 9, 9])));
    let code = army(
        4,
        3,
        r#"army.standards_lost = 3; let a = army.withdrawal_check();
        let b = army.withdrawal_check();
        army.standards_lost = 4; let c = army.withdrawal_check();
        army.standards_lost = 5; let d = army.withdrawal_check();
        #{a: a.effect, b: b.reason, c: c.effect, d: d.effect, failures: army.failures}"#,
    );
    let m = eval_map(&host, &code);
    assert_eq!(text(&m, "a"), "maneuver_minus_one");
    assert!(text(&m, "b").contains("have not gone up"), "{}", text(&m, "b"));
    assert_eq!(text(&m, "c"), "mandatory_moves_worse");
    assert_eq!(text(&m, "d"), "defeat");
    assert_eq!(int(&m, "failures"), 3);
}

#[test]
fn exact_chance_of_withdrawing_at_plus_3() {
    let code = army(4, 3, "army.standards_lost = 3; army.withdrawal_check().result");
    let odds = lw().odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap();
    // Independent: d10 + 3 >= 12 on 9 and 10.
    let ways = (1..=10).filter(|d| d + 3 >= 12).count() as i64;
    assert_eq!(odds.distribution.probability(&Outcome::Word("withdraws".into())), ratio(ways, 10));
}

#[test]
fn leader_classes_by_command_or_by_cp() {
    let host = lw();
    let m = eval_map(
        &host,
        r#"let b = leader(#{name: "B", rating: "2", markers: #{command: "brigade"}});
        let w = leader(#{name: "W", rating: "1", markers: #{command: "wing"}});
        #{b: leader_class(b), w: leader_class(w)}"#,
    );
    assert_eq!((int(&m, "b"), int(&m, "w")), (1, 2));
    let mut rs = ruleset(&["linear-warfare"]);
    rs.set_interpretation("leader_class", "by_cp").unwrap();
    let host = Host::new(rs).unwrap();
    let m = eval_map(
        &host,
        r#"#{a: leader_class(leader(#{name: "A", rating: "3"})), b: leader_class(leader(#{name: "B", rating: "2"}))}"#,
    );
    assert_eq!((text(&m, "a"), int(&m, "b")), ("army".into(), 2));
    assert!(error_debug(&lw(), r#"leader_class(leader(#{name: "X", rating: "2"}))"#).contains("needs its command"));
}

// ---- rally ---------------------------------------------------------------------

fn routing(grade: u8) -> String {
    format!(
        r#"let u = unit(#{{name: "Bn", arm: "infantry", grade: "{grade}", stands: 5, formation: "line", order: "rout"}});"#
    )
}

#[test]
fn a_routing_unit_has_as_many_attempts_as_its_grade() {
    for grade in 1..=4u8 {
        // Faces of 1 never put it in Good Order (at most 1 + 2 = 3, a Retreat for grade 4):
        // with the good_order_only reading no attempt rallies it.
        let mut rs = ruleset(&["linear-warfare"]);
        rs.set_interpretation("rally_from_rout", "good_order_only").unwrap();
        let host2 = Host::new(rs).unwrap();
        host2.set_dice(Box::new(Supplied::new(vec![1; grade as usize])));
        let code = format!(
            "{} let last = (); for i in 1..={grade} {{ last = rally(u, #{{}}); }} last.off = u.has_marker(\"routed_off\"); last",
            routing(grade)
        );
        let m = eval_map(&host2, &code);
        assert_eq!((int(&m, "attempt"), int(&m, "attempts")), (grade as i64, grade as i64), "grade {grade}");
        assert_eq!(text(&m, "off_board"), "routed_off");
        assert!(m["off"].as_bool().unwrap());
        host2.set_dice(Box::new(Supplied::new(vec![1; grade as usize + 1])));
        let code = format!("{} for i in 1..={} {{ rally(u, #{{}}); }}", routing(grade), grade + 1);
        let e = error_debug(&host2, &code);
        assert!(e.contains("has used its") || e.contains("has left the battlefield"), "{e}");
    }
}

#[test]
fn a_rallied_rout_resets_its_attempts_and_a_retreat_result_rallies_by_default() {
    let host = lw();
    // Grade 2: face 3 = Retreat (order changes), face 6 = rally.
    host.set_dice(Box::new(Supplied::new([3])));
    let m = eval_map(&host, &format!("{} rally(u, #{{}})", routing(2)));
    assert!(m["rallied"].as_bool().unwrap());
    assert_eq!(text(&m, "order"), "retreat");
    host.set_dice(Box::new(Supplied::new([1])));
    let m = eval_map(&host, &format!("{} rally(u, #{{}})", routing(2)));
    assert!(!m["rallied"].as_bool().unwrap());
    assert_eq!((text(&m, "order"), int(&m, "attempt")), ("rout".into(), 1));
}

#[test]
fn a_pursuing_unit_stops_only_on_a_rally_and_pursues_off_not_lost() {
    let host = lw();
    host.set_dice(Box::new(Supplied::new([1, 1])));
    let code = r#"let u = unit(#{name: "Drag", arm: "cavalry", grade: "2", stands: 4, formation: "line", order: "pursuit"});
        let a = rally(u, #{army_failures: 2}); let b = rally(u, #{army_failures: 2});
        #{a: a.order, b: b.off_board, stands: u.stands}"#;
    let m = eval_map(&host, code);
    assert_eq!((text(&m, "a"), text(&m, "b"), int(&m, "stands")), ("pursuit".into(), "pursued_off".into(), 4));
    host.set_dice(Box::new(Supplied::new([7])));
    let m = eval_map(
        &host,
        r#"let u = unit(#{name: "Drag", arm: "cavalry", grade: "2", stands: 4, formation: "line", order: "pursuit"}); rally(u, #{})"#,
    );
    assert!(m["rallied"].as_bool().unwrap());
    assert_eq!(text(&m, "order"), "good_order");
}

#[test]
fn a_disordered_unit_rallies_with_its_commanders_cp() {
    let host = lw();
    host.set_dice(Box::new(Supplied::new([4])));
    let m = eval_map(
        &host,
        r#"let u = unit(#{name: "Bn", arm: "infantry", grade: "2", stands: 5, formation: "line", order: "disordered"});
        u.attach(leader(#{name: "B", rating: "2"})); rally(u, #{})"#,
    );
    // 4 + 2 = 6: rallies, holds.
    assert!(m["rallied"].as_bool().unwrap());
    assert_eq!(text(&m, "result"), "rally_hold");
    assert!(
        error_debug(
            &host,
            r#"rally(unit(#{name: "G", arm: "infantry", grade: "2", stands: 5, formation: "line"}), #{})"#
        )
        .contains("nothing to rally")
    );
}

// ---- make it happen --------------------------------------------------------------

#[test]
fn make_it_happen_grades_match_the_seed_and_its_odds_are_exact() {
    let rs = ruleset(&["linear-warfare"]);
    let t = &rs.tables["make_it_happen_grades"];
    for line in SEED_MAKE_IT_HAPPEN.lines() {
        let rest = line.strip_prefix("Morale Grade ").unwrap();
        let (grade, printed) = rest.split_once(' ').unwrap();
        let value = if printed == "even" { 0 } else { printed.replace(' ', "").parse::<i64>().unwrap() };
        assert_eq!(*t.read_lookup(&[grade.into()]).unwrap(), LookupValue::Int(value), "grade {grade}");
    }
    for (grade, modifier) in [(1, -1), (2, 0), (3, 1), (4, 2)] {
        let code = format!(
            r#"make_it_happen(unit(#{{name: "U", arm: "infantry", grade: "{grade}", stands: 4, formation: "line"}}), "in the arc?").success"#
        );
        let odds = lw().odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap();
        let ways = (1..=10).filter(|d| d + modifier >= 6).count() as i64;
        assert_eq!(odds.distribution.probability(&Outcome::Flag(true)), ratio(ways, 10), "grade {grade}");
    }
    // The flip: add the grade itself.
    let mut rs = ruleset(&["linear-warfare"]);
    rs.set_interpretation("make_it_happen_modifier", "grade").unwrap();
    let host = Host::new(rs).unwrap();
    host.set_dice(Box::new(Supplied::new([2])));
    let m = eval_map(
        &host,
        r#"make_it_happen(unit(#{name: "U", arm: "infantry", grade: "4", stands: 4, formation: "line"}), "x")"#,
    );
    assert_eq!((int(&m, "total"), m["success"].as_bool().unwrap()), (6, true));
}

#[test]
fn a_pursuer_off_the_table_keeps_its_earlier_losses_in_the_count() {
    // Seed 003, L342: "Units pursuing off the battlefield do not return during the same day of
    // battle, but they do not count as lost for casualties in Army Withdrawal": leaving is free,
    // the stands shot away before are still lost.
    let host = lw();
    let m = eval_map(&host, &army(4, 0, r#"us[0].stands = 3; army_tally(us)"#));
    let before = int(&m, "stands_lost");
    let m = eval_map(&host, &army(4, 0, r#"us[0].stands = 3; us[0].set_marker("pursued_off", true); army_tally(us)"#));
    assert_eq!((before, int(&m, "stands_lost"), int(&m, "loss_percent")), (2, 2, 10));
}

#[test]
fn a_campaign_army_tests_on_net_positive_modifiers_until_its_first_failure() {
    // L346: "every turn thereafter that there are net positive modifiers"; L364: after "The first
    // time you fail", "On any subsequent turn that your Die Roll Modifiers ... go up, you must test again".
    let mut rs = ruleset(&["linear-warfare"]);
    rs.set_option("campaign_army_morale", true).unwrap();
    let host = Host::new(rs).unwrap();
    // 15%: the first test at +2 holds (1 + 2); the next turn, still +2 (not gone up, net positive),
    // no failure yet: it tests again, and fails (10 + 2 = 12); then +2 again: not gone up, no test.
    host.set_dice(Box::new(Supplied::new([1, 10])));
    let code = army(
        4,
        3,
        r#"army.standards_lost = 2; let a = army.withdrawal_check(); let b = army.withdrawal_check();
        let c = army.withdrawal_check();
        #{a: a.result, b: b.checked, b_result: b.result, c: c.checked, c_reason: c.reason, failures: army.failures}"#,
    );
    let m = eval_map(&host, &code);
    assert_eq!(text(&m, "a"), "holds");
    assert!(m["b"].as_bool().unwrap(), "net positive before any failure: tested");
    assert_eq!((text(&m, "b_result"), int(&m, "failures")), ("withdraws".into(), 1));
    assert!(!m["c"].as_bool().unwrap());
    assert!(text(&m, "c_reason").contains("have not gone up"), "{}", text(&m, "c_reason"));
}

#[test]
fn drill_adds_neither_rally_attempts_nor_make_it_happen_grade() {
    // L146: drill raises the grade "for consulting the Maneuver Table or Formation Change Chart";
    // L342: "as many attempts as the Morale Grade of the unit".
    let host = lw();
    host.set_dice(Box::new(Supplied::new([1])));
    let m = eval_map(&host, &format!(r#"{} u.set_marker("drill", true); rally(u, #{{}})"#, routing(2)));
    assert_eq!(int(&m, "attempts"), 2);
    // Lasting losses do lower the attempts.
    host.set_dice(Box::new(Supplied::new([1])));
    let m = eval_map(&host, &format!(r#"{} u.set_marker("grade_loss", 1); rally(u, #{{}})"#, routing(3)));
    assert_eq!(int(&m, "attempts"), 2);
    // Make it Happen: grade 2 with drill is even (0), 5 fails; grade 3 that lost a grade is 2.
    host.set_dice(Box::new(Supplied::new([5])));
    let m = eval_map(
        &host,
        r#"let u = unit(#{name: "U", arm: "infantry", grade: "2", stands: 4, formation: "line", markers: #{drill: true}}); make_it_happen(u, "x")"#,
    );
    assert_eq!((int(&m, "modifier"), int(&m, "total"), m["success"].as_bool().unwrap()), (0, 5, false));
    host.set_dice(Box::new(Supplied::new([5])));
    let m = eval_map(
        &host,
        r#"let u = unit(#{name: "U", arm: "infantry", grade: "3", stands: 4, formation: "line", markers: #{grade_loss: 1}}); make_it_happen(u, "x")"#,
    );
    assert_eq!(int(&m, "modifier"), 0);
}
