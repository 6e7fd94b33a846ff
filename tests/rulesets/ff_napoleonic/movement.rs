//! Movement: allowances by nation group, period, formation and mounted type,
//! march columns on roads, squares, formation changes, maneuver results,
//! reacting cavalry, rough terrain, passage of lines and prolonge.

use grognard::script::Host;
use rhai::Map;

use crate::support::{error, host, ruleset, value};

const NATIONS: [&str; 15] = [
    "france",
    "britain",
    "austria",
    "prussia",
    "russia",
    "spain",
    "portugal",
    "ottoman",
    "minor",
    "saxony",
    "naples",
    "rhinebund",
    "hesse",
    "baden",
    "vistula_legion",
];

/// Seed 004, MOVEMENT ALLOWANCES (infantry), typed here: column 1792-1808,
/// column 1809+, line. Hesse and Baden move with the Rhine row; Portugal, the
/// Vistula Legion and other minors with Others.
fn infantry_row(nation: &str) -> (f64, f64, f64) {
    match nation {
        "france" | "britain" => (12.0, 12.0, 6.0),
        "austria" => (9.0, 11.0, 5.0),
        "prussia" => (9.0, 12.0, 6.0),
        "russia" => (9.0, 11.0, 4.0),
        "spain" | "saxony" | "naples" | "rhinebund" | "hesse" | "baden" => (9.0, 11.0, 4.0),
        "ottoman" => (9.0, 9.0, 5.0),
        "portugal" | "minor" | "vistula_legion" => (9.0, 11.0, 5.0),
        other => panic!("no row for {other}"),
    }
}

fn allowance(host: &Host, unit: &str, situation: &str) -> Map {
    value(host, &format!("move_allowance(unit(#{{{unit}}}), #{{{situation}}})")).cast::<Map>()
}

fn inches(host: &Host, unit: &str, situation: &str) -> f64 {
    allowance(host, unit, situation)["inches"].as_float().unwrap()
}

fn infantry(nation: &str, formation: &str) -> String {
    format!(r#"name: "Bn", nation: "{nation}", arm: "infantry", stands: 6, formation: "{formation}""#)
}

fn mounted(arm: &str, kind: &str, formation: &str) -> String {
    format!(r#"name: "M", nation: "france", arm: "{arm}", type: "{kind}", stands: 4, formation: "{formation}""#)
}

fn with(name: &str, choice: &str) -> Host {
    let mut rs = ruleset(&["ff-napoleonic"]);
    rs.set_interpretation(name, choice).unwrap();
    Host::new(rs).unwrap()
}

#[test]
fn a_french_line_that_changes_formation_has_3_inches_left() {
    // "EX: French Line Changes formation, it would have 3" of MV remaining."
    let host = host(&["ff-napoleonic"]);
    let a = allowance(&host, &infantry("france", "line"), "formation_change: true");
    assert_eq!(a["inches"].as_float().unwrap(), 3.0);
    assert_eq!(a["formation_change_cost"].as_float().unwrap(), 3.0);
    // Default (line_cap): a column changing into line spends 3" of its 12" but keeps at most 6 - 3.
    assert_eq!(inches(&host, &infantry("france", "column"), "formation_change: true, new_formation: \"line\""), 3.0);
    assert_eq!(inches(&host, &infantry("france", "line"), "formation_change: true, new_formation: \"column\""), 3.0);
    // Russians (line 4"): 2" left; a square (2") has nothing left after paying 2".
    assert_eq!(inches(&host, &infantry("russia", "line"), "formation_change: true"), 2.0);
    assert_eq!(inches(&host, &infantry("russia", "square"), "formation_change: true"), 0.0);
}

#[test]
fn the_new_formation_reading_counts_from_the_new_allowance() {
    let host = with("formation_change_remaining", "new_formation");
    // French line into column: 12 - 3 = 9 (FF-RULE-FORMATION-CHANGE ambiguity 1 flip).
    assert_eq!(inches(&host, &infantry("france", "line"), "formation_change: true, new_formation: \"column\""), 9.0);
    // Into line, the seed's example still holds: 6 - 3.
    assert_eq!(inches(&host, &infantry("france", "column"), "formation_change: true, new_formation: \"line\""), 3.0);
    // Austrians 1809+ into march column on a road: 11 x 2 - 2.5.
    assert_eq!(
        inches(
            &host,
            &infantry("austria", "line"),
            "formation_change: true, new_formation: \"march_column\", road: true, year: 1809"
        ),
        19.5
    );
    let err = error(
        &host,
        &format!("move_allowance(unit(#{{{}}}), #{{formation_change: true}})", infantry("france", "line")),
    );
    assert!(err.contains("give situation.new_formation"), "{err}");
}

#[test]
fn every_infantry_group_and_period() {
    let host = host(&["ff-napoleonic"]);
    for nation in NATIONS {
        let (early, late, line) = infantry_row(nation);
        for (year, column, period) in
            [(1792, early, "1792-1808"), (1808, early, "1792-1808"), (1809, late, "1809+"), (1815, late, "1809+")]
        {
            let situation = format!("year: {year}");
            let a = allowance(&host, &infantry(nation, "column"), &situation);
            assert_eq!(a["inches"].as_float().unwrap(), column, "{nation} column {year}");
            assert_eq!(a["period"].to_string(), period, "{nation} {year}");
            assert_eq!(inches(&host, &infantry(nation, "line"), &situation), line, "{nation} line {year}");
            assert_eq!(inches(&host, &infantry(nation, "square"), &situation), line / 2.0, "{nation} square {year}");
            // The march column bonus (x2 on the column allowance) only on roads.
            let road = format!("{situation}, road: true");
            assert_eq!(inches(&host, &infantry(nation, "march_column"), &road), column * 2.0, "{nation} road {year}");
            assert_eq!(
                inches(&host, &infantry(nation, "march_column"), &situation),
                column,
                "{nation} off road {year}"
            );
        }
    }
}

#[test]
fn a_year_is_needed_only_where_the_periods_differ() {
    let host = host(&["ff-napoleonic"]);
    for nation in NATIONS {
        let (early, late, line) = infantry_row(nation);
        // Line allowances carry no slash.
        assert_eq!(inches(&host, &infantry(nation, "line"), ""), line, "{nation}");
        let code = format!("move_allowance(unit(#{{{}}}), #{{}})", infantry(nation, "column"));
        if early == late {
            assert_eq!(value(&host, &code).cast::<Map>()["inches"].as_float().unwrap(), early, "{nation}");
        } else {
            let err = error(&host, &code);
            assert!(err.contains("depends on the date") && err.contains("give situation.year"), "{nation}: {err}");
        }
    }
    let err =
        error(&host, &format!("move_allowance(unit(#{{{}}}), #{{year: \"1809\"}})", infantry("austria", "column")));
    assert!(err.contains("situation.year is a whole year"), "{err}");
}

#[test]
fn cavalry_batteries_and_leaders() {
    let host = host(&["ff-napoleonic"]);
    // Seed: Light 16" x2, Heavy 14" x2, Horse Battery 12" x3, Heavy Battery 9" x3, Leaders 18" x2.
    for (arm, kind, formations, value, times) in [
        ("cavalry", "light", &["column", "line"][..], 16.0, 2.0),
        ("cavalry", "heavy", &["column", "line"][..], 14.0, 2.0),
        ("artillery", "horse", &["limbered"][..], 12.0, 3.0),
        ("artillery", "heavy", &["limbered"][..], 9.0, 3.0),
        ("artillery", "foot", &["limbered"][..], 9.0, 3.0),
    ] {
        for formation in formations {
            assert_eq!(inches(&host, &mounted(arm, kind, formation), ""), value, "{kind} {arm} {formation}");
        }
        assert_eq!(inches(&host, &mounted(arm, kind, "march_column"), "road: true"), value * times, "{kind} {arm}");
        assert_eq!(inches(&host, &mounted(arm, kind, "march_column"), ""), value, "{kind} {arm} off road");
    }
    // Unlimbered, a battery moves only by prolonge: horse 2", heavy 1".
    assert_eq!(inches(&host, &mounted("artillery", "horse", "unlimbered"), ""), 2.0);
    assert_eq!(inches(&host, &mounted("artillery", "heavy", "unlimbered"), ""), 1.0);
    let leader = value(&host, "[leader_allowance(), leader_allowance(#{road: true})]").cast::<rhai::Array>();
    assert_eq!(leader[0].clone().cast::<Map>()["inches"].as_float().unwrap(), 18.0);
    assert_eq!(leader[1].clone().cast::<Map>()["inches"].as_float().unwrap(), 36.0);

    let err =
        error(&host, r#"move_allowance(unit(#{name: "Cav", arm: "cavalry", stands: 4, formation: "line"}), #{})"#);
    assert!(err.contains("give the cavalry's type, light or heavy"), "{err}");
    let err = error(&host, &format!("move_allowance(unit(#{{{}}}), #{{}})", mounted("cavalry", "light", "square")));
    assert!(err.contains("no movement allowance in square"), "{err}");
    let err = error(&host, &format!("move_allowance(unit(#{{{}}}), #{{}})", infantry("france", "deployed")));
    assert!(err.contains("no movement allowance in deployed"), "{err}");
}

#[test]
fn maneuver_results_limit_the_move() {
    let host = host(&["ff-napoleonic"]);
    // A French column, 12".
    for (result, expected, retreat) in [
        ("well_handled", 12.0, None),
        ("half_move_and_fc", 6.0, None),
        ("half_move_or_fc", 6.0, None),
        ("holds_ground_may_fc", 0.0, None),
        ("holds_ground", 0.0, None),
        ("retreat_half_move", 6.0, Some("half move")),
        ("rallies_with_elan", 12.0, None),
        ("rallies_half_move", 6.0, None),
        ("shaken", 0.0, None),
        ("wavering", 3.0, Some("3\"")),
        ("broken", 12.0, Some("full move")),
        ("routs", 0.0, None),
    ] {
        let a = allowance(&host, &infantry("france", "column"), &format!("maneuver: \"{result}\""));
        assert_eq!(a["inches"].as_float().unwrap(), expected, "{result}");
        match retreat {
            Some(how) => assert_eq!(a["retreat"].to_string(), how, "{result}"),
            None => assert!(a["retreat"].is_unit(), "{result}"),
        }
    }
    let err =
        error(&host, &format!("move_allowance(unit(#{{{}}}), #{{maneuver: \"charge\"}})", infantry("france", "line")));
    assert!(err.contains("is not a Good Order or Disorder Table result"), "{err}");
    // No formation change where the result does not allow one.
    for result in ["holds_ground", "retreat_half_move", "rallies_half_move", "shaken", "wavering", "broken"] {
        let code = format!(
            "move_allowance(unit(#{{{}}}), #{{maneuver: \"{result}\", formation_change: true}})",
            infantry("france", "line")
        );
        assert!(error(&host, &code).contains("may not change formation"), "{result}");
    }
}

#[test]
fn a_formation_change_on_a_maneuver_result() {
    let fc = |host: &Host, result: &str, formation: &str| {
        inches(host, &infantry("france", formation), &format!("maneuver: \"{result}\", formation_change: true"))
    };
    // Default (and_is_free): "1/2 MV and may FC" gives the change free and the half move,
    // at most line - 1/2 line; "OR" gives the change instead of the move.
    let host = host(&["ff-napoleonic"]);
    assert_eq!(fc(&host, "half_move_and_fc", "line"), 3.0);
    assert_eq!(fc(&host, "half_move_and_fc", "column"), 3.0);
    assert_eq!(fc(&host, "half_move_or_fc", "column"), 0.0);
    assert_eq!(fc(&host, "holds_ground_may_fc", "column"), 0.0);
    assert_eq!(fc(&host, "well_handled", "column"), 3.0);
    // always_costs: the half move pays 1/2 line MA for the change.
    let host = with("maneuver_formation_change", "always_costs");
    assert_eq!(fc(&host, "half_move_and_fc", "line"), 0.0);
    assert_eq!(fc(&host, "half_move_and_fc", "column"), 3.0);
    assert_eq!(fc(&host, "half_move_or_fc", "column"), 0.0);
    // Both flips: French line into column on "and": 12 / 2 - 3.
    let mut rs = ruleset(&["ff-napoleonic"]);
    rs.set_interpretation("maneuver_formation_change", "always_costs").unwrap();
    rs.set_interpretation("formation_change_remaining", "new_formation").unwrap();
    let host = Host::new(rs).unwrap();
    let left = inches(
        &host,
        &infantry("france", "line"),
        "maneuver: \"half_move_and_fc\", formation_change: true, new_formation: \"column\"",
    );
    assert_eq!(left, 3.0);
}

#[test]
fn reacting_cavalry_has_half_its_allowance() {
    let host = host(&["ff-napoleonic"]);
    let hussars = mounted("cavalry", "light", "line");
    assert_eq!(inches(&host, &hussars, "reacting: true"), 8.0);
    // FF-PROC-SEQUENCE ambiguity 1: any movement result allows 1/2 MA, not halved again.
    assert_eq!(inches(&host, &hussars, "reacting: true, maneuver: \"half_move_or_fc\""), 8.0);
    assert_eq!(inches(&host, &hussars, "reacting: true, maneuver: \"holds_ground\""), 0.0);
    let err = error(&host, &format!("move_allowance(unit(#{{{}}}), #{{reacting: true}})", infantry("france", "line")));
    assert!(err.contains("only good order cavalry"), "{err}");
}

#[test]
fn rough_terrain_passage_of_lines_and_prolonge() {
    let host = host(&["ff-napoleonic"]);
    let number = |code: &str| value(&host, code).as_float().unwrap();
    let light = r#"name: "Voltigeurs", nation: "france", arm: "infantry", type: "light", stands: 4, formation: "line""#;
    for nation in NATIONS {
        assert_eq!(number(&format!("rough_terrain_cost(unit(#{{{}}}))", infantry(nation, "column"))), 2.0, "{nation}");
    }
    assert_eq!(number(&format!("rough_terrain_cost(unit(#{{{light}}}))")), 1.5);
    assert!(value(&host, &format!("rough_terrain_cost(unit(#{{{}}}))", infantry("france", "square"))).is_unit());
    for (arm, kind, cost) in
        [("cavalry", "light", 3.0), ("cavalry", "heavy", 4.0), ("artillery", "horse", 4.0), ("artillery", "heavy", 6.0)]
    {
        let code = format!("rough_terrain_cost(unit(#{{{}}}))", mounted(arm, kind, "column"));
        assert_eq!(number(&code), cost, "{kind} {arm}");
    }
    assert_eq!(number(r#"rough_terrain_cost(leader(#{name: "Ney"}))"#), 2.0);

    let line = infantry("france", "line");
    let cavalry = mounted("cavalry", "heavy", "column");
    let battery = mounted("artillery", "heavy", "limbered");
    let pass = |a: &str, b: &str| number(&format!("passage_of_lines_cost(unit(#{{{a}}}), unit(#{{{b}}}))"));
    assert_eq!(pass(&line, &line), 3.0);
    assert_eq!(pass(&cavalry, &line), 3.0);
    assert_eq!(pass(&battery, &line), 6.0);
    assert_eq!(pass(light, &line), 0.0);
    assert_eq!(pass(&battery, light), 0.0);

    assert_eq!(number(&format!("prolonge(unit(#{{{}}}))", mounted("artillery", "horse", "unlimbered"))), 2.0);
    assert_eq!(number(&format!("prolonge(unit(#{{{}}}))", mounted("artillery", "foot", "unlimbered"))), 1.0);
    assert!(error(&host, &format!("prolonge(unit(#{{{line}}}))")).contains("only artillery may prolong"));
}
