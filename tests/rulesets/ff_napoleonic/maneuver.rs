//! Maneuver: the Good Order and Disorder tables with the maneuver modifiers, and
//! the Emergency Formation Change.

use std::collections::BTreeMap;

use grognard::dice::{EnumLimits, Supplied};
use grognard::script::{Host, Outcome, UnitRef};
use rhai::Scope;

use crate::support::{host, ratio, ruleset};

/// Seed 004, GOOD ORDER TABLE, Average column, typed here.
fn average_chart(total: i64) -> &'static str {
    match total {
        ..=2 => "retreat_half_move",
        3..=4 => "holds_ground",
        5..=6 => "holds_ground_may_fc",
        7..=8 => "half_move_or_fc",
        9 => "half_move_and_fc",
        _ => "well_handled",
    }
}

fn total_of(host: &Host, code: &str) -> i64 {
    host.eval(&mut Scope::new(), code).unwrap().value.cast::<rhai::Map>()["total"].as_int().unwrap()
}

const BATTALION: &str =
    r#"let u = unit(#{name: "Bn", nation: "minor", arm: "infantry", stands: 6, formation: "line"});"#;

#[test]
fn exact_odds_of_a_good_order_roll_against_an_independent_count() {
    // Light infantry (+1) in line (minor: Line national 0), Average chart.
    let code = r#"maneuver(unit(#{name: "Jg", nation: "minor", arm: "infantry", type: "light", stands: 4, formation: "line"}),
        #{commander_rating: "average"}).result"#;
    let odds = host(&["ff-napoleonic"]).odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap();
    let mut expected: BTreeMap<&str, i64> = BTreeMap::new();
    for face in 1..=10 {
        *expected.entry(average_chart(face + 1)).or_default() += 1;
    }
    for (result, ways) in expected {
        assert_eq!(odds.distribution.probability(&Outcome::Word(result.into())), ratio(ways, 10), "{result}");
    }
}

#[test]
fn officer_bonuses_are_a_tier_unless_switched() {
    let code = format!(
        r#"{BATTALION} let g = leader(#{{name: "G", markers: #{{exceptional: true}}}}); u.attach(g);
        maneuver(u, #{{commander_rating: "good", division_officer_in_range: true, division_officer_exceptional: true}})"#
    );
    for (choice, modifier) in [("tier", 3), ("stack", 1 + 2 + 2 + 3)] {
        let mut rs = ruleset(&["ff-napoleonic"]);
        rs.set_interpretation("maneuver_officer_stacking", choice).unwrap();
        let host = Host::new(rs).unwrap();
        host.set_dice(Box::new(Supplied::new([1])));
        assert_eq!(total_of(&host, &code), 1 + modifier, "{choice}");
    }
}

#[test]
fn the_army_commander_adds_by_his_rating_only_with_corps_commanders() {
    let host = host(&["ff-napoleonic"]);
    for (rating, corps, modifier) in
        [("excellent", true, 4), ("good", true, 3), ("average", true, 2), ("poor", true, 1), ("excellent", false, 0)]
    {
        host.set_dice(Box::new(Supplied::new([2])));
        let code = format!(
            r#"{BATTALION} maneuver(u, #{{commander_rating: "good", army_commander: "{rating}", army_commander_in_range: true, corps_commanders: {corps}}})"#
        );
        assert_eq!(total_of(&host, &code), 2 + modifier, "{rating} {corps}");
    }
}

#[test]
fn a_broken_command_chain_reads_one_chart_below() {
    let host = host(&["ff-napoleonic"]);
    let read = |rating: &str, broken: bool| -> (String, i64) {
        host.set_dice(Box::new(Supplied::new([5])));
        let code =
            format!(r#"{BATTALION} maneuver(u, #{{commander_rating: "{rating}", command_chain_broken: {broken}}})"#);
        let value = host.eval(&mut Scope::new(), &code).unwrap().value.cast::<rhai::Map>();
        (value["chart"].to_string(), value["total"].as_int().unwrap())
    };
    assert_eq!(read("excellent", false), ("excellent".into(), 5));
    assert_eq!(read("excellent", true), ("good".into(), 5));
    assert_eq!(read("average", true), ("poor".into(), 5));
    // Below Poor: Poor with a further -1 (house), or no penalty when switched.
    assert_eq!(read("poor", true), ("poor".into(), 4));
    let mut rs = ruleset(&["ff-napoleonic"]);
    rs.set_interpretation("good_order_below_poor", "poor").unwrap();
    let host = Host::new(rs).unwrap();
    host.set_dice(Box::new(Supplied::new([5])));
    let code = format!(r#"{BATTALION} maneuver(u, #{{commander_rating: "poor", command_chain_broken: true}})"#);
    assert_eq!(total_of(&host, &code), 5);
}

#[test]
fn a_disordered_unit_rolls_on_the_disorder_table() {
    let host = host(&["ff-napoleonic"]);
    let run = |face: i64| -> (String, UnitRef) {
        host.set_dice(Box::new(Supplied::new([face])));
        let mut scope = Scope::new();
        let code = r#"let u = unit(#{name: "Bn", nation: "minor", arm: "infantry", stands: 6, formation: "line", order: "disordered"}); maneuver(u, #{})"#;
        let value = host.eval(&mut scope, code).unwrap().value.cast::<rhai::Map>();
        (value["result"].to_string(), scope.get_value::<UnitRef>("u").unwrap())
    };
    // Disordered is not a maneuver modifier, so the die reads the table as it falls.
    let (result, u) = run(1);
    assert_eq!(result, "routs");
    assert!(u.0.borrow().has_marker("removed"));
    let (result, u) = run(3);
    assert_eq!(result, "broken");
    assert_eq!((u.0.borrow().stands, u.0.borrow().order.as_str()), (5, "disordered"));
    let (result, u) = run(6);
    assert_eq!(result, "shaken");
    assert_eq!(u.0.borrow().order, "good_order");
    let (result, _) = run(10);
    assert_eq!(result, "rallies_half_move");
}

#[test]
fn national_formation_modifiers_apply_in_column_and_line() {
    let host = host(&["ff-napoleonic"]);
    for (nation, formation, modifier) in
        [("france", "column", 2), ("france", "line", 0), ("britain", "line", 1), ("austria", "march_column", 1 + 2)]
    {
        host.set_dice(Box::new(Supplied::new([1])));
        let code = format!(
            r#"maneuver(unit(#{{name: "Bn", nation: "{nation}", arm: "infantry", stands: 6, formation: "{formation}"}}), #{{commander_rating: "good"}})"#
        );
        assert_eq!(total_of(&host, &code), 1 + modifier, "{nation} {formation}");
    }
}

#[test]
fn an_emergency_square_sets_the_formation_on_a_success() {
    let host = host(&["ff-napoleonic"]);
    let mut scope = Scope::new();
    host.set_dice(Box::new(Supplied::new([6])));
    // French (+1) in column (+1): 6 + 2 = 8, successful.
    let code = r#"let u = unit(#{name: "4e", nation: "france", arm: "infantry", stands: 6, formation: "column"});
        emergency_formation_change(u, #{to: "square"})"#;
    let eval = host.eval(&mut scope, code).unwrap();
    assert_eq!(eval.value.cast::<rhai::Map>()["result"].to_string(), "successful");
    assert_eq!(scope.get_value::<UnitRef>("u").unwrap().0.borrow().formation, "square");
    assert!(eval.trace.lines().iter().any(|l| l.contains("may abort and stop 3\"")));
    // Spanish (-1), disordered (-2): 6 - 3 = 3, unsuccessful and disordered.
    host.set_dice(Box::new(Supplied::new([6])));
    let mut scope = Scope::new();
    let code = r#"let u = unit(#{name: "Rgt", nation: "spain", arm: "infantry", stands: 6, formation: "line", order: "disordered"});
        emergency_formation_change(u, #{to: "square"})"#;
    let value = host.eval(&mut scope, code).unwrap().value.cast::<rhai::Map>();
    assert_eq!(value["result"].to_string(), "unsuccessful_disordered");
    assert_eq!(scope.get_value::<UnitRef>("u").unwrap().0.borrow().formation, "line");
}

#[test]
fn the_prussian_emergency_bonus_ends_by_the_interpretation() {
    let code = r#"emergency_formation_change(unit(#{name: "IR", nation: "prussia", arm: "infantry", stands: 6, formation: "line"}), #{year: 1808}).total"#;
    for (choice, total) in [("before_1808", 5), ("before_1809", 6)] {
        let mut rs = ruleset(&["ff-napoleonic"]);
        rs.set_interpretation("efc_prussian_date", choice).unwrap();
        let host = Host::new(rs).unwrap();
        host.set_dice(Box::new(Supplied::new([5])));
        assert_eq!(host.eval(&mut Scope::new(), code).unwrap().value.as_int().unwrap(), total, "{choice}");
    }
    let err = host(&["ff-napoleonic"])
        .eval(&mut Scope::new(), r#"emergency_formation_change(unit(#{name: "IR", nation: "prussia", arm: "infantry", stands: 6, formation: "line"}), #{})"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("give situation.year"), "{err}");
}

#[test]
fn an_emergency_change_counts_grenadiers_and_guards_by_type_as_by_marker() {
    // +1 for any Grenadier/Guard unit, said by the unit's type or by a marker: with a 5,
    // a minor nation's line (no modifier) totals 5, a grenadier or guard battalion 6.
    let host = host(&["ff-napoleonic"]);
    let total = |spec: &str| {
        host.set_dice(Box::new(Supplied::new([5])));
        let code = format!(
            r#"emergency_formation_change(unit(#{{name: "Bn", nation: "minor", arm: "infantry", stands: 6, formation: "line", {spec}}}), #{{}}).total"#
        );
        host.eval(&mut Scope::new(), &code).unwrap_or_else(|e| panic!("{spec}: {e}")).value.as_int().unwrap()
    };
    assert_eq!(total(r#"type: "line""#), 5);
    for spec in [r#"type: "grenadier""#, r#"type: "guard""#, "markers: #{grenadier: true}", "markers: #{guard: true}"] {
        assert_eq!(total(spec), 6, "{spec}");
    }
}
