//! The melee procedure: results against the seed's bands, effects on both
//! sides, desperate struggles, and exact odds against an independent count.

use std::collections::BTreeMap;

use grognard::dice::{EnumLimits, Supplied};
use grognard::rules::Switches;
use grognard::script::{Host, LeaderRef, Outcome, UnitRef};
use num_rational::BigRational;
use num_traits::Zero;
use rhai::Scope;

use crate::support::{host, ratio, ruleset};

/// Seed 004, MELEE TABLE, typed here: the result of a differential.
fn melee_result(differential: i64) -> &'static str {
    match differential {
        7.. => "swept",
        4..=6 => "driven_back",
        1..=3 => "hard_pressed",
        0 => "desperate_struggle",
        -3..=-1 => "assault_checked",
        -6..=-4 => "assault_falters",
        _ => "charge_repulsed",
    }
}

/// Two equal line battalions: no modifier on either side, in every round.
const EQUAL: &str = r#"let a = unit(#{name: "A", nation: "minor", arm: "infantry", stands: 6, formation: "line"});
    let d = unit(#{name: "D", nation: "minor", arm: "infantry", stands: 6, formation: "line"});"#;

#[test]
fn exact_odds_of_an_even_melee_against_an_independent_count() {
    // Replaying every face (the reference the exact engine is held to) cuts the struggles off.
    let limits = EnumLimits { max_depth: 4, max_outcomes: 100_000 };
    let host = host(&["ff-napoleonic"]);
    host.set_exact_engine(false);
    let odds = host.odds(&Scope::new(), &format!("{EQUAL} melee(a, d, #{{}})"), limits, (100, 1)).unwrap();
    assert!(odds.exact);
    assert_eq!(odds.cut_off_at, Some(4));
    // One round: each differential of two d10s, none modified. A tie is fought again
    // with both sides disordered (-2 each) and a stand down (-1 each): still even.
    let mut round: BTreeMap<&str, i64> = BTreeMap::new();
    for a in 1..=10 {
        for d in 1..=10 {
            *round.entry(melee_result(a - d)).or_default() += 1;
        }
    }
    let tie = ratio(round["desperate_struggle"], 100);
    for (result, ways) in &round {
        if *result == "desperate_struggle" {
            continue;
        }
        // Decided in the first round, or in the second after a tie; a third round is cut off.
        let expected = ratio(*ways, 100) * (ratio(1, 1) + tie.clone());
        assert_eq!(odds.distribution.probability(&Outcome::Word(result.to_string())), expected, "{result}");
    }
    assert_eq!(odds.distribution.residual(), tie.clone() * tie);
}

#[test]
fn the_exact_engine_fights_every_desperate_struggle_of_an_even_melee() {
    // Every round is even (a tie disorders both sides and costs each a stand), so a result
    // is decided in round k with its ways in 100 after k - 1 ties; the tenth tie is the
    // house cap's Assault Checked. Nothing is cut off.
    let odds = host(&["ff-napoleonic"])
        .odds(&Scope::new(), &format!("{EQUAL} melee(a, d, #{{}})"), EnumLimits::default(), (100, 1))
        .unwrap();
    assert!(odds.exact && odds.cut_off_at.is_none() && odds.distribution.residual().is_zero());
    let mut round: BTreeMap<&str, i64> = BTreeMap::new();
    for a in 1..=10 {
        for d in 1..=10 {
            *round.entry(melee_result(a - d)).or_default() += 1;
        }
    }
    let tie = ratio(round["desperate_struggle"], 100);
    let ties = |k: usize| (0..k).fold(ratio(1, 1), |p, _| p * tie.clone());
    let before_the_tenth: BigRational = (0..10).map(ties).sum();
    for (result, ways) in &round {
        if *result == "desperate_struggle" {
            continue;
        }
        let mut expected = ratio(*ways, 100) * before_the_tenth.clone();
        if *result == "assault_checked" {
            expected += ties(10);
        }
        assert_eq!(odds.distribution.probability(&Outcome::Word(result.to_string())), expected, "{result}");
    }
}

#[test]
fn the_modifiers_move_the_differential() {
    // 4e Ligne in column (+2 French national melee in column) against 4 stands of
    // Austrians in line with a leader (+1), outnumbered 6 to 4 (-1 for 3:2):
    // 8 + 2 - (3 + 1 - 1) = 7, swept.
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([8, 3])));
    let mut scope = Scope::new();
    let code = r#"let a = unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column"});
        let d = unit(#{name: "IR 4", nation: "austria", arm: "infantry", stands: 4, formation: "line"});
        let k = leader(#{name: "Kolowrat"}); d.attach(k);
        melee(a, d, #{})"#;
    let eval = host.eval(&mut scope, code).unwrap();
    let value = eval.value.cast::<rhai::Map>();
    assert_eq!(value["differential"].as_int().unwrap(), 7);
    assert_eq!(value["result"].to_string(), "swept");
    let lines = eval.trace.lines();
    assert!(
        lines.iter().any(|l| l.contains("national melee modifier for 4e Ligne (france infantry, column): 2")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("mod     yes -1") && l.contains("Outnumbered 3:2")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("mod     yes +1") && l.contains("Attached leader")), "{lines:#?}");
    // Swept: the defender disordered, retreating a full move, two stands down, its leader captured.
    let d = scope.get_value::<UnitRef>("d").unwrap();
    let d = d.0.borrow();
    assert_eq!((d.stands, d.order.as_str()), (2, "disordered"));
    assert_eq!(d.markers.get("retreat"), Some(&grognard::unit::Marker::Text("full move".into())));
    let k = scope.get_value::<LeaderRef>("k").unwrap();
    assert!(k.0.borrow().has_marker("captured") && k.0.borrow().attached_to.is_none());
    assert!(d.leaders.is_empty(), "a captured leader is no longer with IR 4: {:?}", d.leaders);
    let a = scope.get_value::<UnitRef>("a").unwrap();
    assert_eq!((a.0.borrow().stands, a.0.borrow().order.as_str()), (6, "good_order"));
}

#[test]
fn a_desperate_struggle_is_fought_again_with_new_modifiers() {
    let host = host(&["ff-napoleonic"]);
    // Round 1: 5 - 5, a tie. Round 2: 9 - 2 = 7, swept.
    host.set_dice(Box::new(Supplied::new([5, 5, 9, 2])));
    let mut scope = Scope::new();
    let value = host.eval(&mut scope, &format!("{EQUAL} melee(a, d, #{{}})")).unwrap().value.cast::<rhai::Map>();
    assert_eq!(value["rounds"].as_int().unwrap(), 2);
    assert_eq!(value["result"].to_string(), "swept");
    // The tie cost each side a stand; the sweep two more to the defender.
    assert_eq!(value["attacker_lost"].as_int().unwrap(), 1);
    assert_eq!(value["defender_lost"].as_int().unwrap(), 3);
}

#[test]
fn extra_stands_over_ten_follow_the_interpretation() {
    // 10 + 4 (fresh +2, breakthrough +2) - 1 = 13: 2 stands, and 3 more over 10 (or 6 over 7).
    let code = r#"let a = unit(#{name: "A", nation: "minor", arm: "infantry", stands: 12, formation: "line", markers: #{fresh: true, breakthrough: true}});
        let d = unit(#{name: "D", nation: "minor", arm: "infantry", stands: 12, formation: "line"});
        melee(a, d, #{}).defender_lost"#;
    for (choice, lost) in [("over_10", 5), ("over_7", 8)] {
        let mut rs = ruleset(&["ff-napoleonic"]);
        rs.apply(&Switches { set: vec![("melee_extra_stands".into(), choice.into())], ..Switches::default() }).unwrap();
        let host = Host::new(rs).unwrap();
        host.set_dice(Box::new(Supplied::new([10, 1])));
        assert_eq!(host.eval(&mut Scope::new(), code).unwrap().value.as_int().unwrap(), lost, "{choice}");
    }
}

#[test]
fn cavalry_against_a_square_loses_no_more_than_one_stand() {
    // Cavalry charging a square: 1 + 2 (mounted) + 2 (in line) - 4 (vs square) = 1;
    // the square 10 + 4 (square vs cavalry) = 14: -13, charge repulsed (2 stands), capped at 1.
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([1, 10])));
    let mut scope = Scope::new();
    let code = r#"let c = unit(#{name: "Hussars", nation: "minor", arm: "cavalry", stands: 4, formation: "line"});
        let s = unit(#{name: "Square", nation: "minor", arm: "infantry", stands: 6, formation: "square"});
        melee(c, s, #{})"#;
    let eval = host.eval(&mut scope, code).unwrap();
    let value = eval.value.cast::<rhai::Map>();
    assert_eq!(value["result"].to_string(), "charge_repulsed");
    assert_eq!(value["attacker_lost"].as_int().unwrap(), 1);
    assert!(eval.trace.lines().iter().any(|l| l.contains("cavalry against a square loses no more than one stand")));
}

#[test]
fn reacting_cavalry_may_not_break_through() {
    // 6 + 2 (mounted) - (4 - 2 for infantry in the open against cavalry) = 6: driven back.
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([6, 4])));
    let code = r#"let c = unit(#{name: "Uhlans", nation: "austria", arm: "cavalry", stands: 4, formation: "column"});
        let i = unit(#{name: "Voltigeurs", nation: "france", arm: "infantry", type: "light", stands: 4, formation: "column"});
        melee(c, i, #{reacting: true})"#;
    let eval = host.eval(&mut Scope::new(), code).unwrap();
    let lines = eval.trace.lines();
    assert_eq!(eval.value.cast::<rhai::Map>()["result"].to_string(), "driven_back", "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("reacting cavalry may not break through")), "{lines:#?}");
}

#[test]
fn melee_in_woods_and_into_a_town_disorders() {
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([6, 5])));
    let mut scope = Scope::new();
    let code = format!("{EQUAL} melee(a, d, #{{ cover: \"town\" }})");
    host.eval(&mut scope, &code).unwrap();
    // 6 - (5 + 2 for the town) = -1: assault checked, and the attacker went into a town.
    let a = scope.get_value::<UnitRef>("a").unwrap();
    assert_eq!(a.0.borrow().order, "disordered");
    host.set_dice(Box::new(Supplied::new([9, 2])));
    let mut scope = Scope::new();
    host.eval(&mut scope, &format!("{EQUAL} melee(a, d, #{{ cover: \"woods\" }})")).unwrap();
    for name in ["a", "d"] {
        assert_eq!(scope.get_value::<UnitRef>(name).unwrap().0.borrow().order, "disordered", "{name}");
    }
}

#[test]
fn prussian_national_modifiers_need_the_date() {
    let code = |year: &str| {
        format!(
            r#"let a = unit(#{{name: "IR 2", nation: "prussia", arm: "infantry", stands: 6, formation: "column"}});
            let d = unit(#{{name: "D", nation: "minor", arm: "infantry", stands: 6, formation: "line"}});
            melee(a, d, #{{ {year} }}).differential"#
        )
    };
    let host = host(&["ff-napoleonic"]);
    let err = host.eval(&mut Scope::new(), &code("")).unwrap_err();
    assert!(err.to_string().contains("give situation.year"), "{err}");
    // The error points at the `throw` in melee.rhai, not at another procedure file.
    let grognard::script::ScriptError::At(problem) = err else { panic!("a located error") };
    assert!(problem.place().contains("procedures/melee.rhai:"), "{}", problem.place());
    // Column melee: 0 for 1792-1808, +1 from 1809; the dice alone give 1.
    for (year, differential) in [("year: 1806", 1), ("year: 1813", 2)] {
        host.set_dice(Box::new(Supplied::new([6, 5])));
        let value = host.eval(&mut Scope::new(), &code(year)).unwrap().value;
        let first = value.as_int().unwrap();
        assert_eq!(first, differential, "{year}");
    }
}

#[test]
fn a_unit_without_a_nation_is_told_it_needs_one() {
    let code = r#"let a = unit(#{name: "A", arm: "infantry", stands: 6, formation: "line"});
        let b = unit(#{name: "B", nation: "britain", arm: "infantry", stands: 6, formation: "line"});
        melee(a, b, #{})"#;
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([5, 5])));
    let err = host.eval(&mut Scope::new(), code).unwrap_err().to_string();
    assert!(err.contains("A has no nation: the National Modifiers table needs one"), "{err}");
}

/// The attacker's total modifier in a first round, under an interpretation.
fn first_differential(choice: (&str, &str), code: &str, dice: [i64; 2]) -> i64 {
    let mut rs = ruleset(&["ff-napoleonic"]);
    rs.apply(&Switches { set: vec![(choice.0.into(), choice.1.into())], ..Switches::default() }).unwrap();
    let host = Host::new(rs).unwrap();
    host.set_dice(Box::new(Supplied::new(dice)));
    host.eval(&mut Scope::new(), code).unwrap().value.cast::<rhai::Map>()["differential"].as_int().unwrap()
}

#[test]
fn the_lost_leader_value_is_one_or_two() {
    let code = format!("{EQUAL} a.attach(leader(#{{name: \"Col.\"}})); melee(a, d, #{{}})");
    assert_eq!(first_differential(("melee_leader_value", "plus_one"), &code, [5, 4]), 2);
    assert_eq!(first_differential(("melee_leader_value", "plus_two"), &code, [5, 4]), 3);
}

#[test]
fn armour_and_heavy_cavalry_stack_unless_switched() {
    // Cuirassiers in column: mounted +2, heavy +2, armoured +2 (or one of the last two).
    let code = r#"let a = unit(#{name: "Cuirassiers", nation: "minor", arm: "cavalry", type: "heavy", stands: 4, formation: "column", markers: #{armoured: true}});
        let d = unit(#{name: "Dragoons", nation: "minor", arm: "cavalry", stands: 4, formation: "column"});
        melee(a, d, #{})"#;
    // The defenders are mounted too (+2): 5 + 6 - (4 + 2) = 5, or 3.
    assert_eq!(first_differential(("melee_cavalry_stacking", "cumulative"), code, [5, 4]), 5);
    assert_eq!(first_differential(("melee_cavalry_stacking", "armour_replaces_heavy"), code, [5, 4]), 3);
}

#[test]
fn a_repulse_by_more_than_ten_costs_more_only_when_mirrored() {
    // 1 - (10 + 2 fresh + 2 breakthrough) = -13: repulsed; 2 stands, or 2 + 3 mirrored.
    let code = r#"let a = unit(#{name: "A", nation: "minor", arm: "infantry", stands: 12, formation: "line"});
        let d = unit(#{name: "D", nation: "minor", arm: "infantry", stands: 12, formation: "line", markers: #{fresh: true, breakthrough: true}});
        melee(a, d, #{}).attacker_lost"#;
    for (choice, lost) in [("as_printed", 2), ("mirror", 5)] {
        let mut rs = ruleset(&["ff-napoleonic"]);
        rs.set_interpretation("melee_repulse_mirror", choice).unwrap();
        let host = Host::new(rs).unwrap();
        host.set_dice(Box::new(Supplied::new([1, 10])));
        assert_eq!(host.eval(&mut Scope::new(), code).unwrap().value.as_int().unwrap(), lost, "{choice}");
    }
}

#[test]
fn grenadiers_and_guards_count_by_their_type_as_by_a_marker() {
    // The vocabulary has `grenadier` and `guard` as unit types and as markers: either way
    // the Melee Table's +2 (Grenadier/Guard infantry, Guard cavalry) applies.
    let host = host(&["ff-napoleonic"]);
    let modifier = |spec: &str| {
        let code = format!(
            r#"let u = unit(#{{name: "U", nation: "minor", stands: 4, formation: "line", {spec}}});
            let e = unit(#{{name: "E", nation: "minor", arm: "infantry", stands: 4, formation: "line"}});
            melee_modifier(u, e, "defender", #{{}}, 0)"#
        );
        host.eval(&mut Scope::new(), &code).unwrap_or_else(|e| panic!("{spec}: {e}")).value.as_int().unwrap()
    };
    let plain = modifier(r#"arm: "infantry""#);
    for spec in [
        r#"arm: "infantry", type: "grenadier""#,
        r#"arm: "infantry", markers: #{grenadier: true}"#,
        r#"arm: "infantry", type: "guard""#,
        r#"arm: "infantry", markers: #{guard: true}"#,
    ] {
        assert_eq!(modifier(spec), plain + 2, "{spec}");
    }
    let horse = modifier(r#"arm: "cavalry", type: "horse""#);
    assert_eq!(modifier(r#"arm: "cavalry", type: "guard""#), horse + 2);
    assert_eq!(modifier(r#"arm: "cavalry", type: "horse", markers: #{guard: true}"#), horse + 2);
}

#[test]
fn british_cavalry_breaks_through_and_is_disordered_after_its_next_melee() {
    use crate::support::{fails, map_and_trace, run, unit_in};
    let host = host(&["ff-napoleonic"]);
    // Light British cavalry in column, 4 stands, on two French line battalions of 4: mounted
    // cavalry +2 against infantry not in cover or square -2.
    // First melee: 5 + 2 - (5 - 2) = 4, Driven back: British cavalry "always charges the
    // nearest enemy unit": the breakthrough marker.
    // Second melee: 1 + 2 + 2 (breakthrough) - (5 - 2) = 2, Hard Pressed: the attackers carry
    // the position in good order by the table, but British cavalry "is automatically
    // disordered at the end of that melee, regardless or any other result". Without the +2
    // the second melee would be a desperate struggle (0), rolling on.
    let code = r#"let c = unit(#{name: "Greys", nation: "britain", arm: "cavalry", type: "light", stands: 4, formation: "column"});
        let a = unit(#{name: "45e", nation: "france", arm: "infantry", stands: 4, formation: "line"});
        let b = unit(#{name: "46e", nation: "france", arm: "infantry", stands: 4, formation: "line"});
        let first = melee(c, a, #{});
        let marked = c.has_marker("breakthrough");
        let order_between = c.order;
        let second = melee(c, b, #{});
        #{first: first.result, marked: marked, between: order_between, second: second.result, differential: second.differential}"#;
    let (value, lines, scope) = map_and_trace(run(&host, &[5, 5, 1, 5], code));
    assert_eq!(value["first"].to_string(), "driven_back", "{lines:#?}");
    assert!(value["marked"].as_bool().unwrap());
    assert_eq!(value["between"].to_string(), "good_order");
    assert_eq!(value["second"].to_string(), "hard_pressed", "{lines:#?}");
    assert_eq!(value["differential"].as_int().unwrap(), 2);
    let greys = unit_in(&scope, "c");
    assert_eq!(greys.order, "disordered");
    // The breakthrough is used up by the melee it was made for.
    assert!(!greys.has_marker("breakthrough"));
    assert!(lines.iter().any(|l| l.contains("British cavalry in another melee after its breakthrough is disordered")));

    // KGL cavalry is not "British (not KGL)": it carries the position, no marker, no disorder.
    let kgl = r#"let c = unit(#{name: "1st KGL Hussars", nation: "britain", arm: "cavalry", type: "light", stands: 4, formation: "column", markers: #{kgl: true}});
        let a = unit(#{name: "45e", nation: "france", arm: "infantry", stands: 4, formation: "line"});
        melee(c, a, #{}); c.has_marker("breakthrough")"#;
    let (eval, _) = run(&host, &[5, 5], kgl);
    assert!(!eval.value.as_bool().unwrap());

    // The old situation key is refused, not quietly ignored.
    let old = r#"let c = unit(#{name: "Greys", nation: "britain", arm: "cavalry", type: "light", stands: 4, formation: "column"});
        let a = unit(#{name: "45e", nation: "france", arm: "infantry", stands: 4, formation: "line"});
        melee(c, a, #{breakthrough_melee: true})"#;
    let err = fails(&host, &[5, 5], old);
    assert!(err.contains("breakthrough_melee"), "{err}");
}

#[test]
fn reacting_cavalry_that_sweeps_may_hold_or_withdraw() {
    // 9 + 2 (mounted) - (4 - 2 for infantry in the open against cavalry) = 9: Swept, which is
    // "+4 or better": "may not breakthrough but may either hold ground with a free [facing]
    // change or may opt to withdraw 6" with a free facing change."
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([9, 4])));
    let code = r#"let c = unit(#{name: "Uhlans", nation: "austria", arm: "cavalry", stands: 4, formation: "column"});
        let i = unit(#{name: "Voltigeurs", nation: "france", arm: "infantry", type: "light", stands: 4, formation: "column"});
        let m = melee(c, i, #{reacting: true}); m.breakthrough = c.has_marker("breakthrough"); m"#;
    let eval = host.eval(&mut Scope::new(), code).unwrap();
    let lines = eval.trace.lines();
    let value = eval.value.cast::<rhai::Map>();
    assert_eq!(value["result"].to_string(), "swept", "{lines:#?}");
    assert_eq!(value["defender_lost"].as_int().unwrap(), 2);
    assert!(!value["breakthrough"].as_bool().unwrap());
    assert!(
        lines
            .iter()
            .any(|l| l
                .contains("it may hold ground with a free facing change, or withdraw 6\" with a free facing change")),
        "{lines:#?}"
    );
}

#[test]
fn a_unit_loses_only_the_stands_it_has() {
    use crate::support::{map_and_trace, run};
    let host = host(&["ff-napoleonic"]);
    // A fresh minor line of 6 (+2) on a line of 3 (outnumbered 2:1, -2):
    // 10 + 2 - (1 - 2) = 13, Swept: "Two stands removed ... One additional stand removed for
    // each die difference over 10", 2 + 3 = 5 called for, and it has 3.
    let code = r#"let a = unit(#{name: "A", nation: "minor", arm: "infantry", stands: 6, formation: "line", markers: #{fresh: true}});
        let d = unit(#{name: "D", nation: "minor", arm: "infantry", stands: 3, formation: "line"});
        melee(a, d, #{})"#;
    let (value, lines, _) = map_and_trace(run(&host, &[10, 1], code));
    assert_eq!(value["result"].to_string(), "swept", "{lines:#?}");
    assert_eq!(value["differential"].as_int().unwrap(), 13);
    assert_eq!(value["defender_lost"].as_int().unwrap(), 3);
    assert!(lines.iter().any(|l| l == "note    D has 3 stand(s) left: it loses 3, not 5"), "{lines:#?}");
    assert!(lines.iter().any(|l| l == "effect  D: loses 3 stands"), "{lines:#?}");
    assert!(!lines.iter().any(|l| l.contains("loses 5")), "{lines:#?}");
}
