//! Fire: fire points by range and formation, the fire point halvings and die
//! roll modifiers, arcs and oblique fire on the table, the Special and Ugly
//! Things of a natural 10, and exact odds against an independent count.

use grognard::dice::{EnumLimits, Supplied};
use grognard::script::{LeaderRef, Outcome};
use num_bigint::BigInt;
use num_rational::BigRational;
use rhai::Scope;

use crate::support::{fails, lw, lw_host, map_and_trace, run, unit_in};

const LINE_AND_TARGET: &str = r#"
    let f = unit(#{name: "Firers", arm: "infantry", grade: "2", stands: 6, formation: "line"});
    let t = unit(#{name: "Target", arm: "infantry", grade: "2", stands: 6, formation: "line"});"#;

#[test]
fn fire_points_by_range_and_formation() {
    let host = lw();
    // 6 stands at 2" (close): 12 fire points; 7 on the 12-14 row is 7-9: one stand.
    let (v, lines, scope) = map_and_trace(run(&host, &[7], &format!("{LINE_AND_TARGET} fire(f, t, #{{range: 2}})")));
    assert_eq!(v["fire_points"].as_float().unwrap(), 12.0, "{lines:#?}");
    assert_eq!(v["result"].to_string(), "one_stand");
    let t = unit_in(&scope, "t");
    assert_eq!((t.stands, t.order.as_str()), (5, "disordered"));
    assert_eq!(t.markers.get("lost_this_turn"), Some(&grognard::unit::Marker::Count(1)));
    assert!(unit_in(&scope, "f").has_marker("fired"));
    assert!(
        lines.iter().any(|l| l.contains("6 firing stand(s) x 2 (musket, close range) = 12 fire points")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("table   Fire Combat Table") && l.ends_with("(house)")), "{lines:#?}");
    // At 5" (long): 6 fire points.
    let (v, _, _) = map_and_trace(run(&host, &[1], &format!("{LINE_AND_TARGET} fire(f, t, #{{range: 5}})")));
    assert_eq!(v["fire_points"].as_float().unwrap(), 6.0);
    // Beyond 6": no fire, and no die.
    let (v, _, _) = map_and_trace(run(&host, &[], &format!("{LINE_AND_TARGET} fire(f, t, #{{range: 6.5}})")));
    assert_eq!(v["result"].to_string(), "out_of_range");
    // A column fires with its front stand; battalion guns add a stand each.
    let code = r#"let f = unit(#{name: "Col", arm: "infantry", grade: "2", stands: 6, formation: "column"});
        let g = unit(#{name: "Guns", arm: "infantry", grade: "2", stands: 4, formation: "line", markers: #{battalion_guns: 1}});
        let t = unit(#{name: "T", arm: "infantry", grade: "2", stands: 6, formation: "line"});
        [fire(f, t, #{range: 2}).fire_points, fire(g, t, #{range: 2}).fire_points]"#;
    host.set_dice(Box::new(Supplied::new([1, 1])));
    let v = host.eval(&mut Scope::new(), code).unwrap().value.cast::<rhai::Array>();
    assert_eq!(v.iter().map(|x| x.as_float().unwrap()).collect::<Vec<_>>(), [2.0, 10.0]);
    // A sleeve fires with a quarter of its stands to the rear, at least one.
    let code = r#"let f = unit(#{name: "Sleeve", arm: "infantry", grade: "2", stands: 7, formation: "sleeve"});
        let t = unit(#{name: "T", arm: "infantry", grade: "2", stands: 6, formation: "line"});
        fire(f, t, #{range: 5}).fire_points"#;
    host.set_dice(Box::new(Supplied::new([1])));
    assert_eq!(host.eval(&mut Scope::new(), code).unwrap().value.as_float().unwrap(), 1.0);
}

#[test]
fn artillery_by_class_and_limbered_guns() {
    let host = lw();
    let code = |class: &str, formation: &str, range: f64| {
        format!(
            r#"let f = unit(#{{name: "Battery", arm: "artillery", type: "{class}", grade: "2", stands: 2, formation: "{formation}"}});
            let t = unit(#{{name: "T", arm: "infantry", grade: "2", stands: 6, formation: "line"}});
            fire(f, t, #{{range: {range}}})"#
        )
    };
    // Medium guns: close to 4" (5 FP a stand), long to 16" (3 FP).
    for (range, fp) in [(4.0, 10.0), (12.0, 6.0)] {
        let (v, _, _) = map_and_trace(run(&host, &[1], &code("medium", "unlimbered", range)));
        assert_eq!(v["fire_points"].as_float().unwrap(), fp, "{range}");
    }
    let (v, _, _) = map_and_trace(run(&host, &[], &code("medium", "limbered", 4.0)));
    assert_eq!(v["result"].to_string(), "no_fire");
    let err = host.eval(&mut Scope::new(), &code("regular", "unlimbered", 4.0)).unwrap_err().to_string();
    assert!(err.contains("artillery is light, medium, heavy or howitzer"), "{err}");
}

#[test]
fn a_late_reaction_halves_the_fire_points() {
    let host = lw();
    // The firer already moved: reacting, 12 fire points halve to 6.
    let code = format!("{LINE_AND_TARGET} f.set_marker(\"moved\", true); fire(f, t, #{{range: 2, reaction: true}})");
    let (v, lines, _) = map_and_trace(run(&host, &[1], &code));
    assert_eq!(v["fire_points"].as_float().unwrap(), 6.0);
    assert!(
        lines.iter().any(|l| l.starts_with("mod     yes halve fire points") && l.contains("reacting")),
        "{lines:#?}"
    );
    // Not reacting, or reacting before moving: no halving.
    let code = format!("{LINE_AND_TARGET} fire(f, t, #{{range: 2, reaction: true}})");
    assert_eq!(map_and_trace(run(&host, &[1], &code)).0["fire_points"].as_float().unwrap(), 12.0);
    // A reaction declared with react() first: react() marks the unit, and its
    // own `late` (false: the unit had not moved) keeps the fire whole.
    let code = format!(
        "{LINE_AND_TARGET} let r = react(f, \"fire_on_unit\", \"return_fire\");
         [r.late, f.has_marker(\"fired\") || f.has_marker(\"moved\"), fire(f, t, #{{range: 2, reaction: true, late: r.late}}).fire_points]"
    );
    host.set_dice(Box::new(grognard::dice::Supplied::new(vec![1])));
    let v = host.eval(&mut rhai::Scope::new(), &code).unwrap().value.into_array().unwrap();
    assert_eq!((v[0].as_bool(), v[1].as_bool(), v[2].as_float()), (Ok(false), Ok(true), Ok(12.0)));
    // 1 fire point halved stays 1 (round down, at least 1).
    let code =
        format!("{LINE_AND_TARGET} f.set_marker(\"fired\", true); fire(f, t, #{{fire_points: 1, reaction: true}})");
    assert_eq!(map_and_trace(run(&host, &[1], &code)).0["fire_points"].as_float().unwrap(), 1.0);
}

#[test]
fn low_on_ammunition_follows_the_interpretation() {
    let code = format!("{LINE_AND_TARGET} f.set_marker(\"low_on_ammunition\", true); fire(f, t, #{{range: 2}})");
    let (v, _, _) = map_and_trace(run(&lw(), &[1], &code));
    assert_eq!(v["fire_points"].as_float().unwrap(), 6.0);
    let (v, lines, _) = map_and_trace(run(&lw_host(&[("low_on_ammunition", "cannot_fire")], &[]), &[], &code));
    assert_eq!(v["result"].to_string(), "no_fire");
    assert!(lines.iter().any(|l| l.contains("cannot fire until resupplied")), "{lines:#?}");
}

#[test]
fn die_roll_modifiers() {
    let host = lw();
    // 12 fire points, die 7: +1 dense target (column) -2 works (worst cover only) -1 disordered firer
    // -1 Ga Pa = 4: the 12-14 row reads 4-6, disordered.
    let code = r#"let f = unit(#{name: "Swedes", arm: "infantry", grade: "2", stands: 6, formation: "line", order: "disordered"});
        let t = unit(#{name: "T", arm: "infantry", grade: "2", stands: 6, formation: "column"});
        fire(f, t, #{range: 2, ga_pa: true, cover: ["hedge", "works"]})"#;
    let (v, lines, _) = map_and_trace(run(&host, &[7], code));
    assert_eq!(v["total"].as_int().unwrap(), 4, "{lines:#?}");
    assert_eq!(v["result"].to_string(), "disordered");
    // Angled fire: -1 when over half the stands angle.
    for (angled, total) in [(3, 7), (4, 6)] {
        let code = format!(
            "{LINE_AND_TARGET} fire(f, t, #{{range: 2, year: 1756, firing_stands: 6, angled_stands: {angled}}}).total"
        );
        host.set_dice(Box::new(Supplied::new([7])));
        assert_eq!(host.eval(&mut Scope::new(), &code).unwrap().value.as_int().unwrap(), total, "{angled}");
    }
}

#[test]
fn arcs_and_oblique_fire_on_the_table() {
    let host = lw();
    // A 4-stand line at the origin facing up the table (3" wide); the target, one stand
    // 3" to the right and 4" ahead, is outside every stand's straight-ahead strip.
    let code = |year: i64, markers: &str| {
        format!(
            r#"let f = unit(#{{name: "Line", arm: "infantry", nation: "britain", grade: "2", stands: 4, formation: "line", placement: #{{x: 0.0, y: 0.0, facing: 0.0}}, markers: {markers}}});
            let t = unit(#{{name: "T", arm: "infantry", grade: "2", stands: 1, formation: "line", placement: #{{x: 3.0, y: 4.0, facing: 180.0}}}});
            fire(f, t, #{{year: {year}}})"#
        )
    };
    // Before 1750: no oblique fire, no stand can fire.
    let (v, lines, _) = map_and_trace(run(&host, &[], &code(1745, "#{}")));
    assert_eq!(v["result"].to_string(), "no_fire", "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("0 stand(s) with T in a 0 degree arc")), "{lines:#?}");
    // From 1750, a 30 degree arc: the three stands nearest reach it, all angling: -1.
    let (v, lines, _) = map_and_trace(run(&host, &[5], &code(1756, "#{}")));
    assert!(lines.iter().any(|l| l.contains("3 stand(s) with T in a 30 degree arc, 3 angled")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("mod     yes -1") && l.contains("angle their fire")), "{lines:#?}");
    assert_eq!(v["band"].to_string(), "long");
    assert_eq!(v["fire_points"].as_float().unwrap(), 3.0);
    // "No Oblique Fire" in the army list: none, whatever the date.
    let (v, _, _) = map_and_trace(run(&host, &[], &code(1756, "#{no_oblique_fire: true}")));
    assert_eq!(v["result"].to_string(), "no_fire");
    // Infantry on the table without a date: a clear error.
    let err = host.eval(&mut Scope::new(), &code(1700, "#{}").replace("#{year: 1700}", "#{}")).unwrap_err().to_string();
    assert!(err.contains("give situation.year"), "{err}");
}

#[test]
fn no_oblique_fire_follows_the_army_list_and_angled_fire_without_it_is_refused() {
    let host = lw();
    let code = |nation: &str, year: i64, angled: i64, markers: &str| {
        format!(
            r#"let f = unit(#{{name: "Bn", nation: "{nation}", arm: "infantry", grade: "2", stands: 6, formation: "line", markers: {markers}}});
            let t = unit(#{{name: "T", arm: "infantry", grade: "2", stands: 6, formation: "line"}});
            fire(f, t, #{{range: 2, year: {year}, angled_stands: {angled}}})"#
        )
    };
    // A French battalion of 1710: its army list (seed L423 "No Cadence, No Oblique Move or
    // Flirting") gives it no oblique fire, so four of six stands angling is refused.
    let err = fails(&host, &[7], &code("france", 1710, 4, "#{}"));
    assert!(
        err.contains(
            "Bn cannot angle its fire (4 angled stand(s)): the france army list of 1710 says No Oblique Firing"
        ),
        "{err}"
    );
    assert!(err.contains("must be perpendicular to the battalion front"), "{err}");
    // Straight ahead it fires as any other: 6 stands x 2 at 2" = 12 fire points, die 7, no modifier.
    let (v, _, _) = map_and_trace(run(&host, &[7], &code("france", 1710, 0, "#{}")));
    assert_eq!((v["fire_points"].as_float().unwrap(), v["total"].as_int().unwrap()), (12.0, 7));
    // A Prussian battalion of 1757, after its oblique-fire date (1745): four of six angle,
    // over half, so -1: 7 - 1 = 6.
    let (v, lines, _) = map_and_trace(run(&host, &[7], &code("prussia", 1757, 4, "#{}")));
    assert_eq!(v["total"].as_int().unwrap(), 6, "{lines:#?}");
    // The same Prussians in 1744: no army list says (the 1741-1748 placeholders are silent),
    // and the date is not reached.
    let err = fails(&host, &[7], &code("prussia", 1744, 4, "#{}"));
    assert!(err.contains("prussia: no oblique fire before 1745"), "{err}");
    // The marker overrides either way.
    let err = fails(&host, &[7], &code("prussia", 1757, 4, "#{no_oblique_fire: true}"));
    assert!(err.contains("Bn's no_oblique_fire marker: No Oblique Fire"), "{err}");
    let (v, _, _) = map_and_trace(run(&host, &[7], &code("france", 1710, 4, "#{no_oblique_fire: false}")));
    assert_eq!(v["total"].as_int().unwrap(), 6);
    // On the table: the target a stand to the right and 4" ahead of a 4-stand line. The
    // French of 1710 see it in no stand's straight-ahead strip; the Prussians of 1757
    // reach it with three stands in their 30 degree arc.
    let placed = |nation: &str, year: i64| {
        format!(
            r#"let f = unit(#{{name: "Bn", nation: "{nation}", arm: "infantry", grade: "2", stands: 4, formation: "line", placement: #{{x: 0.0, y: 0.0, facing: 0.0}}}});
            let t = unit(#{{name: "T", arm: "infantry", grade: "2", stands: 1, formation: "line", placement: #{{x: 3.0, y: 4.0, facing: 180.0}}}});
            fire(f, t, #{{year: {year}}})"#
        )
    };
    let (v, lines, _) = map_and_trace(run(&host, &[], &placed("france", 1710)));
    assert_eq!(v["result"].to_string(), "no_fire", "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.contains("no oblique fire (the france army list of 1710 says No Oblique Firing)")),
        "{lines:#?}"
    );
    let (v, lines, _) = map_and_trace(run(&host, &[5], &placed("prussia", 1757)));
    assert!(lines.iter().any(|l| l.contains("3 stand(s) with T in a 30 degree arc, 3 angled")), "{lines:#?}");
    assert_eq!(v["fire_points"].as_float().unwrap(), 3.0);
}

#[test]
fn special_and_ugly_things_on_a_natural_ten() {
    let host = lw();
    // 12 fire points, natural 10: two stands; the target's commander rolls on the
    // Fallen Leader Table (3: fatal wound); the firers are Low on Ammunition.
    let code = format!(
        "{LINE_AND_TARGET} let k = leader(#{{name: \"Webb\", rating: \"1\"}}); t.attach(k); fire(f, t, #{{range: 2}})"
    );
    let (v, lines, scope) = map_and_trace(run(&host, &[10, 3], &code));
    assert_eq!(v["result"].to_string(), "two_stands", "{lines:#?}");
    assert!(scope.get_value::<LeaderRef>("k").unwrap().0.borrow().has_marker("dead"));
    assert!(unit_in(&scope, "f").has_marker("low_on_ammunition"));
    assert!(lines.iter().any(|l| l.starts_with("table   Special and Ugly Things")), "{lines:#?}");
    // A natural 9 brings nothing of the kind.
    let (_, lines, scope) = map_and_trace(run(&host, &[9], &code));
    assert!(!unit_in(&scope, "f").has_marker("low_on_ammunition"));
    assert!(!lines.iter().any(|l| l.contains("Fallen Leader")), "{lines:#?}");
}

#[test]
fn the_fallen_leader_trigger_follows_the_interpretation() {
    // 1 fire point, natural 10: "10+", disordered, no stand lost.
    let code = format!(
        "{LINE_AND_TARGET} let k = leader(#{{name: \"Webb\", rating: \"1\"}}); t.attach(k); fire(f, t, #{{fire_points: 1}})"
    );
    let (_, scope) = run(&lw(), &[10, 2], &code);
    assert!(scope.get_value::<LeaderRef>("k").unwrap().0.borrow().has_marker("dead"));
    let (_, lines, scope) =
        map_and_trace(run(&lw_host(&[("leader_casualty_trigger", "natural_10_and_loss")], &[]), &[10], &code));
    assert!(!scope.get_value::<LeaderRef>("k").unwrap().0.borrow().has_marker("dead"));
    assert!(lines.iter().any(|l| l.contains("no Fallen Leader roll")), "{lines:#?}");
}

#[test]
fn howitzers_hitting_artillery_halve_its_fire_points_for_the_battle() {
    let host = lw();
    let code = r#"let h = unit(#{name: "Howitzers", arm: "artillery", type: "howitzer", grade: "2", stands: 1, formation: "unlimbered"});
        let b = unit(#{name: "Battery", arm: "artillery", type: "medium", grade: "2", stands: 2, formation: "unlimbered"});
        let t = unit(#{name: "T", arm: "infantry", grade: "2", stands: 6, formation: "line"});
        let first = fire(h, b, #{range: 10});
        let second = fire(b, t, #{range: 3});
        [first.result, second.fire_points]"#;
    // Natural 10 with 3 FP at long range: "9-11", disordered; the gunners check morale
    // on the Maneuver Table (disordered: 8, rally); then the battery fires at half: 10 -> 5.
    let (eval, scope) = run(&host, &[10, 8, 1], code);
    assert_eq!(eval.value.cast::<rhai::Array>()[1].as_float().unwrap(), 5.0);
    let lines = eval.trace.lines();
    assert!(unit_in(&scope, "b").has_marker("howitzer_hit"));
    assert!(lines.iter().any(|l| l.contains("gunners check morale")), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.starts_with("mod     yes halve fire points") && l.contains("hit by howitzers")),
        "{lines:#?}"
    );
}

#[test]
fn exact_odds_of_a_volley_against_an_independent_count() {
    // 6 stands at close range: 12 fire points, the 12-14 row of seed 004: 0-3 none,
    // 4-6 disordered, 7-9 one stand, 10+ two stands; no modifiers.
    let code = format!("{LINE_AND_TARGET} fire(f, t, #{{range: 2}}).result");
    let limits = EnumLimits { max_depth: 4, max_outcomes: 100_000 };
    let odds = lw().odds(&Scope::new(), &code, limits, (100, 1)).unwrap();
    assert!(odds.exact);
    let count = |lo: i64, hi: i64| (1..=10).filter(|d| (lo..=hi).contains(d)).count() as i64;
    for (result, n) in [
        ("no_effect", count(0, 3)),
        ("disordered", count(4, 6)),
        ("one_stand", count(7, 9)),
        ("two_stands", count(10, 99)),
    ] {
        let p = odds.distribution.probability(&Outcome::Word(result.into()));
        assert_eq!(p, BigRational::new(BigInt::from(n), BigInt::from(10)), "{result}");
    }
}

#[test]
fn a_single_fire_point_halved_follows_late_fire_rounding() {
    let code =
        format!("{LINE_AND_TARGET} f.set_marker(\"fired\", true); fire(f, t, #{{fire_points: 1, reaction: true}})");
    let (v, _, _) = map_and_trace(run(&lw_host(&[("late_fire_rounding", "down")], &[]), &[], &code));
    assert_eq!(v["result"].to_string(), "no_fire");
    let (v, _, _) = map_and_trace(run(&lw_host(&[("late_fire_rounding", "down_min_one")], &[]), &[1], &code));
    assert_eq!(v["fire_points"].as_float().unwrap(), 1.0);
}

#[test]
fn battalion_guns_are_a_flag_or_a_count() {
    let host = lw();
    for (guns, fp) in [("true", 10.0), ("2", 12.0)] {
        let code = format!(
            r#"let f = unit(#{{name: "F", arm: "infantry", grade: "2", stands: 4, formation: "line", markers: #{{battalion_guns: {guns}}}}});
            let t = unit(#{{name: "T", arm: "infantry", grade: "2", stands: 4, formation: "line"}});
            fire(f, t, #{{range: 3}}).fire_points"#
        );
        host.set_dice(Box::new(Supplied::new(vec![1])));
        assert_eq!(host.eval(&mut Scope::new(), &code).unwrap().value.as_float().unwrap(), fp, "{guns}");
    }
}

#[test]
fn fire_combines_only_on_a_target_covering_several_fronts() {
    let host = lw();
    let units = r#"let a = unit(#{name: "A", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        let b = unit(#{name: "B", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        let t = unit(#{name: "T", arm: "infantry", grade: "2", stands: 8, formation: "line"});"#;
    // 8 + 8 fire points at close range, one roll: 16 reads the 15-19 row (6-8: one stand).
    let (v, lines, scope) = map_and_trace(run(
        &host,
        &[6],
        &format!("{units} fire_combined([a, b], t, #{{range: 2, covers_fronts: true}})"),
    ));
    assert_eq!(v["fire_points"].as_float().unwrap(), 16.0, "{lines:#?}");
    assert_eq!(v["result"].to_string(), "one_stand");
    assert!(lines.iter().any(|l| l.contains("combined fire on T: 16.0 fire points, one roll")), "{lines:#?}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("roll ")).count(), 1);
    assert!(unit_in(&scope, "a").has_marker("fired") && unit_in(&scope, "b").has_marker("fired"));
    // Not covering both fronts, or from front and flank: separately.
    let err = host
        .eval(&mut Scope::new(), &format!("{units} fire_combined([a, b], t, #{{range: 2, covers_fronts: false}})"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("fire is not combined among units"), "{err}");
    let err = host
        .eval(
            &mut Scope::new(),
            &format!("{units} fire_combined([a, b], t, #{{range: 2, covers_fronts: true, enfiladed: true}})"),
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("fire separately"), "{err}");
    // Guns only as a battery: adjacent with a command figure.
    let guns = r#"let g1 = unit(#{name: "G1", arm: "artillery", type: "light", grade: "2", stands: 1, formation: "unlimbered"});
        let g2 = unit(#{name: "G2", arm: "artillery", type: "light", grade: "2", stands: 1, formation: "unlimbered"});
        let t = unit(#{name: "T", arm: "infantry", grade: "2", stands: 8, formation: "line"});"#;
    let err = host
        .eval(&mut Scope::new(), &format!("{guns} fire_combined([g1, g2], t, #{{range: 3, covers_fronts: true}})"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("dedicated command figure"), "{err}");
    let (v, _, _) = map_and_trace(run(
        &host,
        &[1],
        &format!("{guns} fire_combined([g1, g2], t, #{{range: 3, covers_fronts: true, battery: true}})"),
    ));
    assert_eq!(v["fire_points"].as_float().unwrap(), 8.0);
    // On the table: a wide target ahead of two lines side by side covers both fronts.
    let placed = r#"let a = unit(#{name: "A", arm: "infantry", grade: "2", stands: 2, formation: "line", placement: #{x: -1.0, y: 0.0, facing: 0.0}});
        let b = unit(#{name: "B", arm: "infantry", grade: "2", stands: 2, formation: "line", placement: #{x: 1.0, y: 0.0, facing: 0.0}});
        let t = unit(#{name: "T", arm: "infantry", grade: "2", stands: 4, formation: "line", placement: #{x: 0.0, y: 2.0, facing: 180.0}});
        fire_combined([a, b], t, #{year: 1709})"#;
    let (v, lines, _) = map_and_trace(run(&host, &[1], placed));
    assert_eq!(v["fire_points"].as_float().unwrap(), 8.0, "{lines:#?}");
}

#[test]
fn every_die_roll_modifier_alone() {
    let host = lw();
    // One modifier at a time on a line firing at 2" with a 5: the total it gives.
    let cases = [
        ("", "line", "good_order", 5),
        ("enfiladed: true", "line", "good_order", 6),
        ("cover: \"woods\"", "line", "good_order", 4),
        ("cover: \"hedge\"", "line", "good_order", 4),
        ("cover: \"town\"", "line", "good_order", 3),
        ("cover: [\"woods\", \"wall\"]", "line", "good_order", 3),
        ("ga_pa: true", "line", "good_order", 4),
        ("", "square", "good_order", 6),
        ("", "column", "good_order", 6),
        ("", "line", "disordered", 4),
    ];
    for (extra, target_formation, firer_order, total) in cases {
        let code = format!(
            r#"let f = unit(#{{name: "F", arm: "infantry", grade: "2", stands: 4, formation: "line", order: "{firer_order}"}});
            let t = unit(#{{name: "T", arm: "infantry", grade: "2", stands: 4, formation: "{target_formation}"}});
            fire(f, t, #{{range: 2, {extra}}}).total"#
        );
        host.set_dice(Box::new(Supplied::new(vec![5])));
        assert_eq!(
            host.eval(&mut Scope::new(), &code).unwrap().value.as_int().unwrap(),
            total,
            "{extra} {target_formation} {firer_order}"
        );
    }
}

#[test]
fn without_a_marker_the_army_list_gives_the_battalion_guns() {
    // Review finding 2. Seed L421 British & Dutch "Platoon firing, Battalion Guns": 4 stands
    // + 1 gun stand at close range (2 FP each) = 10 fire points in 1704; no army list entry
    // for France's guns (8); a marker of its own wins (2 guns: 12); no year, no army list (8).
    let host = lw();
    for (nation, markers, year, fp) in [
        ("britain", "#{}", "1704", 10.0),
        ("russia", "#{}", "1709", 10.0),
        ("france", "#{}", "1704", 8.0),
        ("britain", "#{battalion_guns: 2}", "1704", 12.0),
        ("britain", "#{}", "()", 8.0),
    ] {
        let code = format!(
            r#"let f = unit(#{{name: "F", nation: "{nation}", arm: "infantry", grade: "2", stands: 4, formation: "line", markers: {markers}}});
            let t = unit(#{{name: "T", arm: "infantry", grade: "2", stands: 4, formation: "line"}});
            fire(f, t, #{{range: 3, year: {year}}}).fire_points"#
        );
        host.set_dice(Box::new(Supplied::new(vec![1])));
        assert_eq!(
            host.eval(&mut Scope::new(), &code).unwrap().value.as_float().unwrap(),
            fp,
            "{nation} {markers} {year}"
        );
    }
}

#[test]
fn bad_ranges_and_stand_counts_are_refused_or_capped() {
    // Review finding 10: a negative range is not close range, a range in quotes is named,
    // 40 firing stands of a 4-stand battalion fire as its 4 (8 FP at close range, not 80).
    let host = lw();
    let units = r#"let f = unit(#{name: "F", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        let t = unit(#{name: "T", arm: "infantry", grade: "2", stands: 4, formation: "line"});"#;
    let err = |call: &str| {
        host.set_dice(Box::new(Supplied::new(vec![1])));
        host.eval(&mut Scope::new(), &format!("{units} {call}")).unwrap_err().to_string()
    };
    assert!(err("fire(f, t, #{range: -3})").contains("the range must be 0 inches or more, not -3"));
    let e = err("fire(f, t, #{range: \"3\"})");
    assert!(e.contains("the range must be a number of inches, not the string \"3\""), "{e}");
    assert!(err("fire(f, t, #{range: 3, firing_stands: -1})").contains("firing_stands is a whole number of stands"));
    assert!(err("fire(f, t, #{fire_points: -2})").contains("the fire points must be 0 points or more"));
    host.set_dice(Box::new(Supplied::new(vec![1])));
    let eval = host
        .eval(&mut Scope::new(), &format!("{units} fire(f, t, #{{range: 3, firing_stands: 40}}).fire_points"))
        .unwrap();
    assert_eq!(eval.value.as_float().unwrap(), 8.0);
    assert!(eval.trace.lines().iter().any(|l| l.contains("F has 4 stand(s) that can fire, not 40")));
    // With its battalion gun the same battalion may fire 5 stands.
    host.set_dice(Box::new(Supplied::new(vec![1])));
    let code = format!(
        "{units} f.set_marker(\"battalion_guns\", true); fire(f, t, #{{range: 3, firing_stands: 40}}).fire_points"
    );
    assert_eq!(host.eval(&mut Scope::new(), &code).unwrap().value.as_float().unwrap(), 10.0);
}
