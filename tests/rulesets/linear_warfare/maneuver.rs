//! The Maneuver Table (a house table: AR-MISSING-MANEUVER-TABLE) and
//! `maneuver_check`: its cells against the Fire & Fury charts it is built
//! from, its modifiers, the campaign worsening, the exemption, exact odds.

use std::collections::BTreeMap;

use grognard::dice::{EnumLimits, Supplied};
use grognard::rules::{RowKey, Source, TableBody};
use grognard::script::Outcome;
use num_bigint::BigInt;
use num_rational::BigRational;
use rhai::Scope;

use crate::support::{error_debug, eval_map, int, lw, lw_host, ruleset, text};

// Seed 004, GOOD ORDER TABLE, as printed (columns Excellent Good Average Poor):
// the house Maneuver Table reads it with grade 4 = Excellent ... 1 = Poor.
const FF_GOOD_ORDER: &str = "2 or less 2 or less 2 or less 3 or less Unit retreats a half move \
3,4 3,4 3,4 4,5 Unit holds ground 5 5,6 5,6 6,7 Unit holds ground (May FC) 6 7 7,8 8,9 Unit has 1/2 MV OR may FC \
7 8 9 10 Unit has 1/2 MV and may FC 8+ 9+ 10+ 11+ Well handled";

// Seed 004, DISORDER TABLE, as printed: the house Disordered Effects column.
const FF_DISORDER: &str = "1 or less Unit routs- remove from table 2,3 Broken- lose 1 stand and retreat a full move \
4,5 Wavering- unit retreats 3\" in disorder 6,7 Shaken- unit holds ground but rallies \
8-10 Unit rallies and gets 1/2 movement. (No FC) 11+ Unit rallies with Elan";

/// The inventory's mapping of the Fire & Fury results to this set's results.
const GOOD_ORDER_RESULTS: [(&str, &str); 6] = [
    ("Unit retreats a half move", "fall_back"),
    ("Unit holds ground", "holds_ground"),
    ("Unit holds ground (May FC)", "holds_ground_may_fc"),
    ("Unit has 1/2 MV OR may FC", "half_move_or_fc"),
    ("Unit has 1/2 MV and may FC", "half_move_and_fc"),
    ("Well handled", "full_move"),
];
const DISORDER_RESULTS: [(&str, &str); 6] = [
    ("Unit routs- remove from table", "rout"),
    ("Broken- lose 1 stand and retreat a full move", "retreat"),
    ("Wavering- unit retreats 3\" in disorder", "fall_back"),
    ("Shaken- unit holds ground but rallies", "rally_hold"),
    ("Unit rallies and gets 1/2 movement. (No FC)", "rally_half_move"),
    ("Unit rallies with Elan", "rally_full_move"),
];

/// Splits a printed chart into its band tokens and result texts: each result
/// text is preceded by `per_row` band tokens.
fn parse_chart(seed: &str, results: &[(&str, &str)], per_row: usize) -> Vec<(Vec<String>, String)> {
    let mut rows = Vec::new();
    let mut rest = seed;
    for (printed, id) in results {
        let at = rest.find(printed).unwrap_or_else(|| panic!("`{printed}` not in the seed text"));
        let bands_text = rest[..at].trim();
        let bands = split_bands(bands_text);
        assert_eq!(bands.len(), per_row, "bands before `{printed}`: {bands:?}");
        rows.push((bands, id.to_string()));
        rest = &rest[at + printed.len()..];
    }
    assert!(rest.trim().is_empty(), "left over: {rest}");
    rows
}

/// "2 or less 2 or less 3,4" -> ["2 or less", "2 or less", "3,4"].
fn split_bands(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        if (word == "or" || word == "less") && !out.is_empty() {
            let last = out.last_mut().unwrap();
            last.push(' ');
            last.push_str(word);
        } else {
            out.push(word.to_string());
        }
    }
    out
}

fn band(text: &str) -> grognard::rules::band::Band {
    grognard::rules::band::Band::parse(text).unwrap()
}

#[test]
fn the_good_order_columns_are_the_ff_good_order_table_by_grade_cell_by_cell() {
    let rs = ruleset(&["linear-warfare"]);
    let t = &rs.tables["maneuver"];
    assert_eq!(t.source, Source::House, "the Maneuver Table is a house table");
    let TableBody::Grid { columns, rows, .. } = &t.body else { panic!("a grid") };
    let chart = parse_chart(FF_GOOD_ORDER, &GOOD_ORDER_RESULTS, 4);
    // Printed columns: Excellent, Good, Average, Poor = grades 4, 3, 2, 1.
    for (col, grade) in ["4", "3", "2", "1"].iter().enumerate() {
        let row = rows.iter().find(|r| &*r.label == *grade).unwrap_or_else(|| panic!("no row {grade}"));
        for (i, (bands, id)) in chart.iter().enumerate() {
            assert_eq!(columns[i], *id, "column {i}");
            assert_eq!(row.cells[i].as_ref(), Some(&band(&bands[col])), "grade {grade}, {id}");
        }
        assert_eq!(row.cells.len(), 6);
    }
    // Every total from the lowest to the highest reachable reads the same as the chart.
    for grade in 1..=4i64 {
        for total in -3..=13 {
            let col = (4 - grade) as usize;
            let expected =
                chart.iter().find(|(bands, _)| band(&bands[col]).contains(total)).map(|(_, id)| id.clone()).unwrap();
            let read = t.read_grid(&RowKey::Number(grade), total).unwrap();
            assert_eq!(read.result.unwrap().id, expected, "grade {grade} total {total}");
        }
    }
}

#[test]
fn the_disordered_effects_column_is_the_ff_disorder_table_cell_by_cell() {
    let rs = ruleset(&["linear-warfare"]);
    let t = &rs.tables["maneuver_disordered"];
    assert_eq!(t.source, Source::House);
    let TableBody::Bands(bands) = &t.body else { panic!("bands") };
    let chart = parse_chart(FF_DISORDER, &DISORDER_RESULTS, 1);
    assert_eq!(bands.len(), chart.len());
    for ((b, id), (printed, expected)) in bands.iter().zip(&chart) {
        assert_eq!(*b, band(&printed[0]), "{expected}");
        assert_eq!(id, expected);
    }
    // The orders the inventory maps them to.
    for (id, order) in [
        ("rout", Some("rout")),
        ("retreat", Some("retreat")),
        ("fall_back", Some("fall_back")),
        ("rally_hold", Some("good_order")),
        ("rally_half_move", Some("good_order")),
        ("rally_full_move", Some("good_order")),
    ] {
        assert_eq!(t.results[id].effects.order.as_deref(), order, "{id}");
    }
    assert_eq!(rs.tables["maneuver"].results["fall_back"].effects.order.as_deref(), Some("fall_back"));
}

const GRADE2: &str = r#"let u = unit(#{name: "Bn", arm: "infantry", grade: "2", stands: 5, formation: "line"});"#;

#[test]
fn every_face_of_a_grade_2_unit_in_good_order_gives_order_and_move() {
    let host = lw();
    for face in 1..=10 {
        host.set_dice(Box::new(Supplied::new([face])));
        let m = eval_map(&host, &format!("{GRADE2} maneuver_check(u, #{{}})"));
        // Seed 004 Average column, typed again: 2-, 3-4, 5-6, 7-8, 9, 10+.
        let (result, order, mv, fc) = match face {
            ..=2 => ("fall_back", "fall_back", "full", "none"),
            3..=4 => ("holds_ground", "good_order", "none", "none"),
            5..=6 => ("holds_ground_may_fc", "good_order", "none", "and"),
            7..=8 => ("half_move_or_fc", "good_order", "half", "or"),
            9 => ("half_move_and_fc", "good_order", "half", "and"),
            _ => ("full_move", "good_order", "full", "and"),
        };
        assert_eq!(text(&m, "result"), result, "face {face}");
        assert_eq!(text(&m, "order"), order, "face {face}");
        assert_eq!(text(&m, "move"), mv, "face {face}");
        assert_eq!(text(&m, "formation_change"), fc, "face {face}");
        assert_eq!(m["mandatory"].as_bool().unwrap(), order == "fall_back");
        assert_eq!(int(&m, "natural"), face);
    }
}

#[test]
fn each_modifier_moves_the_total() {
    // The skirmish formation -1 is part of the skirmishers option (review finding 5).
    let host = lw_host(&[], &["skirmishers"]);
    let cases: [(&str, &str, i64); 7] = [
        (r#"u.attach(leader(#{name: "Brig", rating: "3"}));"#, "#{}", 3),
        (
            r#"u.attach(leader(#{name: "Brig", rating: "1"})); u.attach(leader(#{name: "Wing", rating: "2"}));"#,
            "#{}",
            2,
        ),
        (r#"u.formation = "skirmish";"#, "#{}", -1),
        ("", "#{enemy_flank_or_rear: true}", -1),
        ("", "#{army_failures: 1}", -1),
        ("", "#{army_failures: 2}", -1),
        (r#"let d = leader(#{name: "Dead", rating: "3"}); d.set_marker("dead", true); u.attach(d);"#, "#{}", 0),
    ];
    for (setup, situation, modifier) in cases {
        host.set_dice(Box::new(Supplied::new([5])));
        let m = eval_map(&host, &format!("{GRADE2} {setup} maneuver_check(u, {situation})"));
        assert_eq!(int(&m, "total"), 5 + modifier, "{setup} {situation}");
    }
}

#[test]
fn drill_and_lasting_losses_move_the_grade_row() {
    let host = lw();
    for (setup, situation, grade) in [
        ("", "#{drill: true}", 3),
        (r#"u.set_marker("drill", true);"#, "#{}", 3),
        (r#"u.set_marker("grade_loss", 1);"#, "#{}", 1),
        (r#"u.set_marker("grade_loss", 1);"#, "#{drill: true}", 2),
        ("", "#{as_grade: 1, as_disordered: true}", 1),
    ] {
        host.set_dice(Box::new(Supplied::new([7])));
        let m = eval_map(&host, &format!("{GRADE2} {setup} maneuver_check(u, {situation})"));
        assert_eq!(int(&m, "grade"), grade, "{setup} {situation}");
    }
    // Grade 4 with drill stays 4; grade 1 losing a grade reads grade 1 at a further -1.
    host.set_dice(Box::new(Supplied::new([7])));
    let m = eval_map(
        &host,
        r#"let u = unit(#{name: "G", arm: "infantry", grade: "4", stands: 5, formation: "line"}); maneuver_check(u, #{drill: true})"#,
    );
    assert_eq!((int(&m, "grade"), int(&m, "total")), (4, 7));
    host.set_dice(Box::new(Supplied::new([7])));
    let m = eval_map(
        &host,
        r#"let u = unit(#{name: "M", arm: "infantry", grade: "1", stands: 5, formation: "line"}); u.set_marker("grade_loss", 1); maneuver_check(u, #{})"#,
    );
    assert_eq!((int(&m, "grade"), int(&m, "total")), (1, 6));
}

#[test]
fn the_disordered_column_adds_grade_minus_two() {
    let host = lw();
    for (grade, modifier) in [(1, -1), (2, 0), (3, 1), (4, 2)] {
        host.set_dice(Box::new(Supplied::new([5])));
        let m = eval_map(
            &host,
            &format!(
                r#"let u = unit(#{{name: "Bn", arm: "infantry", grade: "{grade}", stands: 5, formation: "line", order: "disordered"}}); maneuver_check(u, #{{}})"#
            ),
        );
        assert_eq!(int(&m, "total"), 5 + modifier, "grade {grade}");
        assert_eq!(text(&m, "table"), "maneuver_disordered");
    }
}

#[test]
fn a_retreat_under_fire_loses_a_stand() {
    let host = lw();
    for (under_fire, stands) in [(true, 4), (false, 5)] {
        host.set_dice(Box::new(Supplied::new([3])));
        let m = eval_map(
            &host,
            &format!(
                r#"let u = unit(#{{name: "Bn", arm: "infantry", grade: "2", stands: 5, formation: "line", order: "disordered"}});
                let m = maneuver_check(u, #{{under_fire: {under_fire}}}); m.stands = u.stands; m"#
            ),
        );
        assert_eq!(text(&m, "order"), "retreat");
        assert_eq!(int(&m, "stands"), stands);
    }
}

#[test]
fn a_second_campaign_failure_makes_mandatory_moves_one_step_worse() {
    let host = lw();
    // Grade 2 good order, face 2 (-1 for the failures: total 1): Fall Back becomes Retreat.
    host.set_dice(Box::new(Supplied::new([2])));
    let m = eval_map(&host, &format!("{GRADE2} maneuver_check(u, #{{army_failures: 2}})"));
    assert_eq!((text(&m, "result"), text(&m, "order")), ("fall_back".into(), "retreat".into()));
    // After one failure only the -1.
    host.set_dice(Box::new(Supplied::new([2])));
    let m = eval_map(&host, &format!("{GRADE2} maneuver_check(u, #{{army_failures: 1}})"));
    assert_eq!(text(&m, "order"), "fall_back");
    // Disordered: a Retreat (face 4 - 1 = 3) becomes a Rout and surrenders or disperses.
    for (near, fate) in [(true, "surrendered"), (false, "dispersed")] {
        host.set_dice(Box::new(Supplied::new([4])));
        let m = eval_map(
            &host,
            &format!(
                r#"let u = unit(#{{name: "Bn", arm: "infantry", grade: "2", stands: 5, formation: "line", order: "disordered"}});
                let m = maneuver_check(u, #{{army_failures: 2, enemy_within_half_charge: {near}}});
                m.stands = u.stands; m.marked = u.has_marker("{fate}"); m"#
            ),
        );
        assert_eq!(text(&m, "order"), "rout");
        assert_eq!(text(&m, "campaign"), fate);
        assert_eq!(int(&m, "stands"), 0);
        assert!(m["marked"].as_bool().unwrap());
    }
}

#[test]
fn the_exemption_needs_all_four_conditions() {
    let host = lw();
    let ok = "#{outside_enemy_range: true, cannot_be_charged: true}";
    for (setup, situation, exempt) in [
        ("", ok, true),
        (r#"u.order = "disordered";"#, ok, false),
        (r#"u.grade = "1";"#, ok, false),
        ("", "#{cannot_be_charged: true}", false),
        ("", "#{outside_enemy_range: true}", false),
        (r#"u.grade = "1"; u.order = "disordered";"#, "#{voluntary_retreat: true}", true),
    ] {
        let m = eval_map(&host, &format!("{GRADE2} {setup} maneuver_exempt(u, {situation})"));
        assert_eq!(m["exempt"].as_bool().unwrap(), exempt, "{setup} {situation}: {}", text(&m, "reason"));
    }
}

#[test]
fn missing_grades_and_ratings_are_clear_errors() {
    let host = lw();
    let e = error_debug(
        &host,
        r#"maneuver_check(unit(#{name: "Bn", arm: "infantry", stands: 5, formation: "line"}), #{})"#,
    );
    assert!(e.contains("has no Morale Grade"), "{e}");
    let e = error_debug(&host, &format!(r#"{GRADE2} u.attach(leader(#{{name: "Brig"}})); maneuver_check(u, #{{}})"#));
    assert!(e.contains("needs a CP rating"), "{e}");
}

#[test]
fn exact_odds_of_a_disordered_grade_3_rally_with_a_cp_1_commander() {
    let code = r#"let u = unit(#{name: "Gr", arm: "infantry", grade: "3", stands: 5, formation: "line", order: "disordered"});
        u.attach(leader(#{name: "B", rating: "1"})); maneuver_check(u, #{}).order"#;
    let odds = lw().odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap();
    // Independent count: d10 + 1 (grade 3) + 1 (CP) against the printed bands.
    let mut expected: BTreeMap<&str, i64> = BTreeMap::new();
    for face in 1..=10 {
        let order = match face + 2 {
            ..=1 => "rout",
            2..=3 => "retreat",
            4..=5 => "fall_back",
            _ => "good_order",
        };
        *expected.entry(order).or_default() += 1;
    }
    let total: i64 = expected.values().sum();
    assert_eq!(total, 10);
    for (order, ways) in expected {
        let p = odds.distribution.probability(&Outcome::Word(order.into()));
        assert_eq!(p, BigRational::new(BigInt::from(ways), BigInt::from(10)), "{order}");
    }
}

/// Seed 003, L101 and L271.
const SEED_EXEMPT_GRADE: &str = "2. The unit has a Morale Grade of 2 or more (Line or better).";
const SEED_GRADE_LOSS: &str = "The unit morale is - 1 for the rest of the battle";

#[test]
fn the_exemption_reads_the_grade_after_lasting_losses() {
    assert!(SEED_EXEMPT_GRADE.contains("Morale Grade of 2 or more") && SEED_GRADE_LOSS.contains("rest of the battle"));
    let host = lw();
    let ok = "#{outside_enemy_range: true, cannot_be_charged: true}";
    for (setup, exempt) in [
        ("", true),
        (r#"u.set_marker("grade_loss", 1);"#, false),
        (r#"u.grade = "3"; u.set_marker("grade_loss", 1);"#, true),
        // Drill is for consulting the tables, not the exemption (L146).
        (r#"u.grade = "1"; u.set_marker("drill", true);"#, false),
    ] {
        let m = eval_map(&host, &format!("{GRADE2} {setup} maneuver_exempt(u, {ok})"));
        assert_eq!(m["exempt"].as_bool().unwrap(), exempt, "{setup}: {}", text(&m, "reason"));
    }
}

#[test]
fn as_grade_written_as_a_word_is_read_or_refused() {
    let host = lw();
    // "1" is grade 1: on the Disordered Effects column -1 (a 5 reads 4).
    for grade in [r#""1""#, "1"] {
        host.set_dice(Box::new(Supplied::new([5])));
        let m = eval_map(&host, &format!("{GRADE2} maneuver_check(u, #{{as_grade: {grade}, as_disordered: true}})"));
        assert_eq!((int(&m, "grade"), int(&m, "total")), (1, 4), "{grade}");
    }
    for grade in [r#""Militia""#, "5", "0", r#""2.5""#] {
        host.set_dice(Box::new(Supplied::new([5])));
        let e = error_debug(&host, &format!("{GRADE2} maneuver_check(u, #{{as_grade: {grade}}})"));
        assert!(e.contains("as_grade is a Morale Grade, 1 to 4"), "{grade}: {e}");
    }
}
