//! Command: officer command ranges, the army commander, and the NB to F&F
//! conversion chart (its garbled cells, the Napoleon footnote, rating units).

use grognard::script::{Host, UnitRef};
use grognard::unit::Marker;
use rhai::{Map, Scope};

use crate::support::{error, host, ruleset, value};

/// A threshold of a conversion: a number, or None for "-".
fn at(map: &Map, key: &str) -> Option<i64> {
    if map[key].is_unit() { None } else { Some(map[key].as_int().unwrap()) }
}

fn conversion(host: &Host, code: &str) -> (i64, Option<i64>, Option<i64>) {
    let map = value(host, code).cast::<Map>();
    (map["stands"].as_int().unwrap(), at(&map, "worn_at"), at(&map, "spent_at"))
}

const COLUMNS: [&str; 6] = ["old_guard", "gd_gn", "veteran", "regular", "conscript", "militia"];

/// Seed 004, NB TO F&F CONVERSION CHART, typed here as (worn at, spent at) for
/// 3 to 7 stands; the outer None is a "-" cell, the garbled militia cells are left out.
#[allow(clippy::type_complexity)]
fn chart(stands: i64, column: &str) -> Option<(Option<i64>, Option<i64>)> {
    let row: [Option<(Option<i64>, Option<i64>)>; 6] = match stands {
        3 => [None, None, None, Some((Some(2), None)), Some((Some(2), Some(1))), Some((None, Some(2)))],
        4 => [
            Some((Some(1), None)),
            Some((Some(2), None)),
            Some((Some(3), Some(1))),
            Some((Some(3), Some(2))),
            Some((Some(3), Some(2))),
            None,
        ],
        5 => [
            Some((Some(2), None)),
            Some((Some(3), None)),
            Some((Some(3), Some(1))),
            Some((Some(4), Some(2))),
            Some((Some(4), Some(3))),
            None,
        ],
        6 => [
            Some((Some(3), None)),
            Some((Some(3), Some(1))),
            Some((Some(4), Some(2))),
            Some((Some(5), Some(3))),
            Some((Some(5), Some(4))),
            Some((None, Some(5))),
        ],
        7 => [
            Some((Some(2), None)),
            Some((Some(3), Some(2))),
            Some((Some(4), Some(3))),
            Some((Some(5), Some(4))),
            Some((Some(6), Some(4))),
            Some((Some(6), Some(5))),
        ],
        _ => panic!("no row {stands}"),
    };
    row[COLUMNS.iter().position(|c| *c == column).unwrap()]
}

#[test]
fn command_ranges_by_nation_and_level() {
    let host = host(&["ff-napoleonic"]);
    let range = |leader: &str, level: &str, nation: &str| {
        value(&host, &format!("command_range({leader}, \"{level}\", \"{nation}\", #{{}})")).as_int().unwrap()
    };
    let levels = ["division", "corps", "wing_small_army", "large_army"];
    // Seed: France 4" 8" 12" 18"; Britain 4" 6" 10" 16"; Others 3" 6" 10" 16".
    for (nations, ranges) in [
        (&["france"][..], [4, 8, 12, 18]),
        (&["britain"][..], [4, 6, 10, 16]),
        (
            &[
                "austria",
                "prussia",
                "russia",
                "spain",
                "portugal",
                "ottoman",
                "minor",
                "saxony",
                "naples",
                "vistula_legion",
            ][..],
            [3, 6, 10, 16],
        ),
    ] {
        for nation in nations {
            for (level, inches) in levels.iter().zip(ranges) {
                assert_eq!(range(r#"leader(#{name: "L"})"#, level, nation), inches, "{nation} {level}");
                assert_eq!(range("()", level, nation), inches, "{nation} {level}");
                // "Exceptional Corp (wing/small army) commanders may add 2"".
                let bonus = if ["corps", "wing_small_army"].contains(level) { 2 } else { 0 };
                let exceptional = r#"leader(#{name: "X", markers: #{exceptional: true}})"#;
                assert_eq!(range(exceptional, level, nation), inches + bonus, "exceptional {nation} {level}");
            }
        }
    }
    assert!(error(&host, r#"command_range((), "brigade", "france", #{})"#).contains("is not a command level"));
    assert!(error(&host, r#"command_range((), "corps", "prussian", #{})"#).contains("is not a nation of this ruleset"));
}

#[test]
fn the_army_commander_by_rating() {
    let host = host(&["ff-napoleonic"]);
    for (rating, range, modifier) in [("excellent", 6, 4), ("good", 4, 3), ("average", 2, 2), ("poor", 0, 1)] {
        let map = value(&host, &format!("army_commander(\"{rating}\")")).cast::<Map>();
        assert_eq!((map["range"].as_int().unwrap(), map["modifier"].as_int().unwrap()), (range, modifier), "{rating}");
    }
    assert!(error(&host, r#"army_commander("superb")"#).contains("is not an army commander rating"));
}

#[test]
fn every_printed_cell_of_the_nb_chart() {
    let host = host(&["ff-napoleonic"]);
    for stands in 3..=7 {
        for column in COLUMNS {
            if column == "militia" && (stands == 4 || stands == 5) {
                continue;
            }
            let code = format!("nb_conversion({stands}, \"{column}\")");
            match chart(stands, column) {
                Some((worn, spent)) => assert_eq!(conversion(&host, &code), (stands, worn, spent), "{code}"),
                None => assert!(error(&host, &code).contains("no such unit"), "{code}"),
            }
        }
    }
    assert!(error(&host, r#"nb_conversion(2, "regular")"#).contains("starts at 3 stands"));
    assert!(error(&host, r#"nb_conversion(5, "crack")"#).contains("is not a column"));
    // Past 7 stands (FF-TAB-NB-CONVERSION ambiguity 5, house): the 7-stand cell scaled and
    // rounded as fatigue is: regular 7/5/4 at 9 stands, 45/7 = 6.4 -> 6, 36/7 = 5.1 -> 5;
    // at 10 stands, 50/7 = 7.1 -> 7, 40/7 = 5.7 -> 6.
    assert_eq!(conversion(&host, r#"nb_conversion(9, "regular")"#), (9, Some(6), Some(5)));
    assert_eq!(conversion(&host, r#"nb_conversion(10, "regular")"#), (10, Some(7), Some(6)));
    assert_eq!(conversion(&host, r#"nb_conversion(10, "old_guard")"#), (10, Some(3), None));
}

#[test]
fn the_garbled_militia_cells_both_ways() {
    // Default: "4/43" = 4/4/3 (never fresh), "5/44" = 5/4/4.
    let host = host(&["ff-napoleonic"]);
    assert_eq!(conversion(&host, r#"nb_conversion(4, "militia")"#), (4, Some(4), Some(3)));
    assert_eq!(conversion(&host, r#"nb_conversion(5, "militia")"#), (5, Some(4), Some(4)));
    // dash: the middle 4 a mistyped "-": 4/-/3 and 5/-/4.
    let mut rs = ruleset(&["ff-napoleonic"]);
    rs.set_interpretation("nb_garbled_cells", "dash").unwrap();
    let host = Host::new(rs).unwrap();
    assert_eq!(conversion(&host, r#"nb_conversion(4, "militia")"#), (4, None, Some(3)));
    assert_eq!(conversion(&host, r#"nb_conversion(5, "militia")"#), (5, None, Some(4)));
}

#[test]
fn napoleon_in_command_1804_to_1807_advances_one_column() {
    let host = host(&["ff-napoleonic"]);
    let column = |stands: i64, column: &str, situation: &str| {
        value(&host, &format!("nb_conversion({stands}, \"{column}\", #{{{situation}}})")).cast::<Map>()["column"]
            .to_string()
    };
    for year in 1804..=1807 {
        let napoleon = format!("napoleon_in_command: true, year: {year}");
        assert_eq!(column(6, "veteran", &napoleon), "gd_gn", "{year}");
        assert_eq!(column(6, "militia", &napoleon), "conscript", "{year}");
        // "[not higher then GD/GN]".
        assert_eq!(column(6, "gd_gn", &napoleon), "gd_gn", "{year}");
        assert_eq!(column(6, "old_guard", &napoleon), "old_guard", "{year}");
    }
    for year in [1803, 1808, 1813] {
        assert_eq!(column(6, "veteran", &format!("napoleon_in_command: true, year: {year}")), "veteran", "{year}");
    }
    assert_eq!(column(6, "veteran", "year: 1805"), "veteran");
    // Advanced, a 3-stand conscript battalion reads the regular cell: 3/2/-.
    let napoleon = "#{napoleon_in_command: true, year: 1806}";
    assert_eq!(conversion(&host, &format!("nb_conversion(3, \"conscript\", {napoleon})")), (3, Some(2), None));
    assert!(
        error(&host, r#"nb_conversion(6, "veteran", #{napoleon_in_command: true})"#).contains("give situation.year")
    );
}

fn marks(scope: &Scope, name: &str) -> (Option<Marker>, Option<Marker>) {
    let unit = scope.get_value::<UnitRef>(name).unwrap();
    let unit = unit.0.borrow();
    (unit.markers.get("worn_at").cloned(), unit.markers.get("spent_at").cloned())
}

#[test]
fn rating_a_unit_sets_its_worn_and_spent_marks() {
    let host = host(&["ff-napoleonic"]);
    let mut scope = Scope::new();
    let code = r#"let a = unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column"});
        let b = unit(#{name: "IR 4", nation: "austria", arm: "infantry", stands: 6, formation: "column", markers: #{spent_at: 2}});
        let n = #{napoleon_in_command: true, year: 1805};
        rate_unit(a, "veteran", n); rate_unit(b, "gd_gn", n);
        a.lose_stands(3);
        [fatigue_state(a), fatigue_state(b)]"#;
    let states = host.eval(&mut scope, code).unwrap().value.cast::<rhai::Array>();
    // The French veteran battalion is advanced to GD/GN (6/3/1); the Austrians are not French
    // and read GD/GN as given: 6/3/1 as well, their old spent mark replaced.
    assert_eq!(marks(&scope, "a"), (Some(Marker::Count(3)), Some(Marker::Count(1))));
    assert_eq!(marks(&scope, "b"), (Some(Marker::Count(3)), Some(Marker::Count(1))));
    // 3 stands left of 6: worn (at 3), as the melee and maneuver procedures read it.
    assert_eq!(states[0].to_string(), "worn");
    assert_eq!(states[1].to_string(), "fresh");
    // A "-" clears the mark: Old Guard 6/3/- is never spent.
    host.eval(&mut scope, r#"rate_unit(b, "old_guard")"#).unwrap();
    assert_eq!(marks(&scope, "b"), (Some(Marker::Count(3)), None));
    // Only French troops are advanced.
    let code = r#"let c = unit(#{name: "Sachsen", nation: "saxony", arm: "infantry", stands: 6, formation: "line"});
        rate_unit(c, "veteran", #{napoleon_in_command: true, year: 1806}).column"#;
    assert_eq!(value(&host, code).to_string(), "veteran");
}
