//! The skirmishers option (AR-X-SKIRMISHERS): off by default, and with it on:
//! half stands, 1 fire point at all ranges, the natural-10 grade loss, formation
//! changes a grade worse in their range, evading charges, rejoining the parent.

use grognard::dice::Supplied;
use grognard::script::UnitRef;
use rhai::{Map, Scope};

use crate::support::{lw, lw_host, lw_rules};

const BATTALION: &str = r#"let bn = unit(#{name: "Picquets", side: "french", nation: "france", arm: "infantry", grade: "2", stands: 6, formation: "line"});
    let t = unit(#{name: "Target", arm: "infantry", grade: "3", stands: 6, formation: "line"});"#;

#[test]
fn the_option_is_off_by_default_and_everything_asks_for_it() {
    let rs = lw_rules(&[], &[]);
    assert_eq!(rs.option("skirmishers"), Ok(false));
    let host = lw();
    let err = host.eval(&mut Scope::new(), &format!("{BATTALION} skirmish_out(bn, 1)")).unwrap_err().to_string();
    assert!(err.contains("switch the skirmishers option on (--with skirmishers)"), "{err}");
    let code = r#"let s = unit(#{name: "S", arm: "infantry", grade: "2", stands: 2, formation: "skirmish"});
        let t = unit(#{name: "T", arm: "infantry", grade: "2", stands: 6, formation: "line"});
        fire(s, t, #{range: 3})"#;
    let err = host.eval(&mut Scope::new(), code).unwrap_err().to_string();
    assert!(
        err.contains("fire(firer, target, situation): `firer` (S): formation \"skirmish\" is read only with the optional rule skirmishers: add --with skirmishers"),
        "{err}"
    );
    // Off, skirmishers near a unit are refused naming the switch (they once changed nothing
    // without a word)...
    let code = format!(
        "{BATTALION} formation_change(t, \"column_to_the_right\", #{{year: 1745, near_skirmishers: true}}).share"
    );
    let err = host.eval(&mut Scope::new(), &code).unwrap_err().to_string();
    assert!(
        err.contains("formation_change(unit, change, situation): situation.near_skirmishers is read only with the optional rule skirmishers: add --with skirmishers"),
        "{err}"
    );
    // ... and without them the grade 3 share of a move per FC is 50% (review finding 4), and
    // a charged unit not in skirmish formation need not evade.
    let code = format!(
        "{BATTALION} [formation_change(t, \"column_to_the_right\", #{{year: 1745}}).share, skirmishers_must_evade(t, bn, #{{}})]"
    );
    let eval = host.eval(&mut Scope::new(), &code).unwrap_or_else(|e| panic!("{e}"));
    let v = eval.value.cast::<rhai::Array>();
    assert_eq!(v[0].as_int().unwrap(), 50);
    assert!(!v[1].as_bool().unwrap());
    assert!(!eval.trace.lines().iter().any(|l| l.contains("skirmishers")), "{:#?}", eval.trace.lines());
}

#[test]
fn with_the_option_off_no_unit_may_be_in_skirmish_formation() {
    // Review finding 5. Seed L368 "Untested Extras: 1. Skirmishers": off, a unit in skirmish
    // formation is refused by the charge, the Charge Combat and fire, whichever side it is on.
    let host = lw();
    let units = r#"let s = unit(#{name: "Jaegers", arm: "infantry", grade: "2", stands: 2, formation: "skirmish"});
        let c = unit(#{name: "Horse", arm: "cavalry", grade: "2", stands: 4, formation: "line", markers: #{doctrine: "trot_with_fire"}});"#;
    for call in [
        "charge(c, s, #{})",
        "charge(s, c, #{})",
        "charge_combat(c, s, #{})",
        "charge_combat(s, c, #{})",
        "fire(c, s, #{range: 2})",
    ] {
        host.set_dice(Box::new(Supplied::new([10, 5, 5, 5, 5, 5])));
        let err = host.eval(&mut Scope::new(), &format!("{units} {call}")).unwrap_err().to_string();
        assert!(
            err.contains("(Jaegers): formation \"skirmish\" is read only with the optional rule skirmishers: add --with skirmishers"),
            "{call}: {err}"
        );
    }
    // The Maneuver Table's -1 for skirmish formation is part of the option: on, a die of 6
    // totals 5; off, the unit is refused (it once totalled 6 without a word).
    let host = lw_host(&[], &["skirmishers"]);
    host.set_dice(Box::new(Supplied::new([6])));
    let eval = host
        .eval(&mut Scope::new(), &format!("{units} maneuver_check(s, #{{}}).total"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(eval.value.as_int().unwrap(), 5, "{:#?}", eval.trace.lines());
    let err = lw().eval(&mut Scope::new(), &format!("{units} maneuver_check(s, #{{}}).total")).unwrap_err().to_string();
    assert!(
        err.contains("maneuver_check(unit, situation): `unit` (Jaegers): formation \"skirmish\" is read only"),
        "{err}"
    );
}

#[test]
fn breaking_out_half_stands_of_one_fire_point_at_all_ranges() {
    let host = lw_host(&[], &["skirmishers"]);
    let code = format!(
        r#"{BATTALION}
        let s = skirmish_out(bn, 1);
        [s.stands, s.formation, s.marker("parent"), bn.stands,
         fire(s, t, #{{range: 2}}).fire_points, fire(s, t, #{{range: 5}}).fire_points, fire(s, t, #{{range: 7}}).result]"#
    );
    host.set_dice(Box::new(Supplied::new([1, 1])));
    let eval = host.eval(&mut Scope::new(), &code).unwrap();
    let v = eval.value.cast::<rhai::Array>();
    let words: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    assert_eq!(words, ["2", "skirmish", "picquets", "5", "2.0", "2.0", "out_of_range"]);
    let lines = eval.trace.lines();
    assert!(
        lines.iter().any(|l| l.contains("2 firing stand(s) x 1 (skirmish, long range) = 2 fire points")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.contains("sends 1 stand(s) out as 2 skirmish stands")), "{lines:#?}");
}

#[test]
fn a_skirmishers_natural_ten_costs_the_target_a_grade() {
    let code = r#"let s = unit(#{name: "Jaegers", arm: "infantry", grade: "2", stands: 4, formation: "skirmish"});
        let t = unit(#{name: "Target", arm: "infantry", grade: "3", stands: 6, formation: "line"});
        fire(s, t, #{range: 4}); fire(s, t, #{range: 4});
        t.marker("grade_loss")"#;
    // Two natural 10s: cumulative, two grades; once, one. The Special and Ugly Things happen too.
    for (choice, lost) in [("cumulative", 2), ("once", 1)] {
        let host = lw_host(&[("skirmish_grade_loss", choice)], &["skirmishers"]);
        host.set_dice(Box::new(Supplied::new([10, 10])));
        let mut scope = Scope::new();
        let eval = host.eval(&mut scope, code).unwrap();
        assert_eq!(eval.value.as_int().unwrap(), lost, "{choice}");
        let lines = eval.trace.lines();
        assert!(lines.iter().any(|l| l.contains("down one Morale Grade for the rest of the battle")), "{lines:#?}");
        assert!(scope.get_value::<UnitRef>("s").unwrap().0.borrow().has_marker("low_on_ammunition"));
    }
    // The lost grade counts in Charge Combat: grade 3 - 1 = 2, no +1.
    let host = lw_host(&[], &["skirmishers"]);
    let code = r#"let c = unit(#{name: "C", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        let d = unit(#{name: "D", arm: "infantry", grade: "3", stands: 4, formation: "line", markers: #{grade_loss: 1}});
        charge_combat(c, d, #{}).differential"#;
    host.set_dice(Box::new(Supplied::new([5, 5])));
    assert_eq!(host.eval(&mut Scope::new(), code).unwrap().value.as_int().unwrap(), 0);
}

#[test]
fn formation_changes_one_grade_worse_within_their_range() {
    // Through formation_change (review finding 4): a grade 3 line forming column to the right
    // pays grade 2's 75% of a move per FC near skirmishers, its own 50% otherwise.
    let host = lw_host(&[], &["skirmishers"]);
    let share = |situation: &str| {
        let eval = host
            .eval(
                &mut Scope::new(),
                &format!("{BATTALION} formation_change(t, \"column_to_the_right\", {situation}).share"),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        (eval.value.as_int().unwrap(), eval.trace.lines())
    };
    let (near, lines) = share("#{year: 1745, near_skirmishers: true}");
    assert_eq!(near, 75);
    assert!(lines.iter().any(|l| l.contains("changes formation one grade worse")), "{lines:#?}");
    assert_eq!(share("#{year: 1745}").0, 50);
    // Measured on the table: skirmishers 5" away are in musket range, 8" away are not.
    let code = |y: f64| {
        format!(
            r#"let t = unit(#{{name: "T", arm: "infantry", grade: "3", stands: 4, formation: "line", placement: #{{x: 0.0, y: 0.0, facing: 0.0}}}});
            let s = unit(#{{name: "S", arm: "infantry", grade: "2", stands: 2, formation: "skirmish", placement: #{{x: 0.0, y: {y:.1}, facing: 180.0}}}});
            formation_change(t, "column_to_the_right", #{{year: 1745, skirmishers: [s]}}).share"#
        )
    };
    assert_eq!(host.eval(&mut Scope::new(), &code(5.0)).unwrap().value.as_int().unwrap(), 75);
    assert_eq!(host.eval(&mut Scope::new(), &code(8.0)).unwrap().value.as_int().unwrap(), 50);
}

#[test]
fn charged_skirmishers_must_evade_unless_in_cover() {
    let host = lw_host(&[], &["skirmishers"]);
    let code = |cover: &str| {
        format!(
            r#"let s = unit(#{{name: "S", arm: "infantry", grade: "2", stands: 2, formation: "skirmish"}});
            let c = unit(#{{name: "C", arm: "cavalry", grade: "2", stands: 4, formation: "line"}});
            let s2 = unit(#{{name: "S2", arm: "infantry", grade: "2", stands: 2, formation: "skirmish"}});
            [skirmishers_must_evade(s, c, #{{cover: {cover}}}), skirmishers_must_evade(s, s2, #{{}})]"#
        )
    };
    let v = host.eval(&mut Scope::new(), &code("()")).unwrap().value.cast::<rhai::Array>();
    assert!(v[0].as_bool().unwrap() && !v[1].as_bool().unwrap());
    let v = host.eval(&mut Scope::new(), &code("\"hedge\"")).unwrap().value.cast::<rhai::Array>();
    assert!(!v[0].as_bool().unwrap());
    // In a charge: the skirmishers fire first (1 FP), then evade; not caught, they get away.
    let code = r#"let s = unit(#{name: "S", arm: "infantry", grade: "2", stands: 2, formation: "skirmish"});
        let c = unit(#{name: "C", arm: "cavalry", grade: "2", stands: 4, formation: "line", markers: #{doctrine: "all_out_good_order"}});
        charge(c, s, #{reaction: "fire", charger_run_in: 12})"#;
    // Charger's Maneuver Table roll 10 (full move); the skirmishers' fire die 1.
    host.set_dice(Box::new(Supplied::new([10, 1])));
    let mut scope = Scope::new();
    let eval = host.eval(&mut scope, code).unwrap_or_else(|e| panic!("{e}"));
    let v = eval.value.cast::<Map>();
    assert_eq!(v["result"].to_string(), "target_escaped", "{:#?}", eval.trace.lines());
    assert_eq!(scope.get_value::<UnitRef>("s").unwrap().0.borrow().order, "evade");
    assert!(eval.trace.lines().iter().any(|l| l.contains("they must evade")));
}

#[test]
fn skirmishers_rally_by_rejoining_their_parent() {
    let host = lw_host(&[], &["skirmishers"]);
    let code = format!(
        r#"{BATTALION}
        let s = skirmish_out(bn, 2);
        s.order = "evade";
        s.lose_stands(1);
        let back = skirmish_rejoin(s, bn);
        [back, bn.stands, s.stands]"#
    );
    let eval = host.eval(&mut Scope::new(), &code).unwrap();
    let v: Vec<i64> = eval.value.cast::<rhai::Array>().iter().map(|x| x.as_int().unwrap()).collect();
    // 4 skirmish stands out, 1 lost: 3 half stands make 1 whole stand (the lone half does not).
    assert_eq!(v, [1, 5, 0]);
    assert!(eval.trace.lines().iter().any(|l| l.contains("rally in good order")));
    // Only its own skirmishers rejoin a unit.
    let code = format!(
        r#"{BATTALION}
        let other = unit(#{{name: "Other", arm: "infantry", grade: "2", stands: 2, formation: "skirmish"}});
        skirmish_rejoin(other, bn)"#
    );
    let err = host.eval(&mut Scope::new(), &code).unwrap_err().to_string();
    assert!(err.contains("only its own skirmishers rejoin"), "{err}");
}

#[test]
fn the_same_turn_with_the_option_off_and_on() {
    // A charge on a unit in skirmish order standing in the open, then a grenadier battalion
    // changing formation with skirmishers in range. Off (review finding 5): a unit in skirmish
    // formation is refused, and the grenadiers keep their grade (50% a FC); on: the
    // skirmishers must evade, and the grenadiers change as grade 2 (75%).
    let code = r#"let s = unit(#{name: "Jaegers", arm: "infantry", grade: "2", stands: 2, formation: "skirmish"});
        let c = unit(#{name: "Horse", arm: "cavalry", grade: "2", stands: 4, formation: "line", markers: #{doctrine: "trot_with_fire"}});
        let g = unit(#{name: "Grenadiers", arm: "infantry", grade: "3", stands: 4, formation: "line"});
        let share = formation_change(g, "column_to_the_right", #{year: 1745, near_skirmishers: true}).share;
        let r = charge(c, s, #{});
        [r.result, share]"#;
    let run = |with: &[&str], dice: Vec<i64>| {
        let host = lw_host(&[], with);
        host.set_dice(Box::new(Supplied::new(dice)));
        host.eval(&mut Scope::new(), code)
    };
    let err = run(&[], vec![10, 5, 1, 5, 5, 9, 1]).unwrap_err().to_string();
    assert!(err.contains("situation.near_skirmishers is read only with the optional rule skirmishers"), "{err}");
    let off = lw()
        .eval(
            &mut Scope::new(),
            &code
                .replace("let r = charge(c, s, #{});\n        [r.result, share]", "share")
                .replace(", near_skirmishers: true", ""),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(off.value.as_int().unwrap(), 50);
    assert!(!off.trace.lines().iter().any(|l| l.contains("grade worse")), "{:#?}", off.trace.lines());
    // On: the horse goes (10), the skirmishers evade at once: no combat, no more dice.
    let on = run(&["skirmishers"], vec![10]).unwrap_or_else(|e| panic!("{e}"));
    let v: Vec<String> = on.value.cast::<rhai::Array>().iter().map(|x| x.to_string()).collect();
    let on_lines = on.trace.lines();
    assert_eq!(v, ["target_escaped", "75"], "{on_lines:#?}");
    assert!(on_lines.iter().any(|l| l.contains("they must evade")), "{on_lines:#?}");
    assert!(on_lines.iter().any(|l| l.contains("changes formation one grade worse")), "{on_lines:#?}");
}

#[test]
fn skirmish_stands_are_half_stands_in_the_count_and_on_the_table() {
    // Review finding 11. Seed L374 "A skirmish stand is 1/2 the size of a regular stand ...
    // in single rank about 1 - 1.5 inches wide". 2 squadrons at the trot charge 4 skirmish
    // stands: 4 half stands are 2 regular stands, no outnumbering (4 full stands would be
    // 2:1, -2 for the horse). 5 + 1 (cavalry against foot not in square) - 5 = 1.
    let host = lw_host(&[], &["skirmishers"]);
    let code = r#"let c = unit(#{name: "Horse", arm: "cavalry", grade: "2", stands: 2, formation: "line", markers: #{doctrine: "trot_with_fire"}});
        let s = unit(#{name: "Jaegers", arm: "infantry", grade: "2", stands: 4, formation: "skirmish"});
        charge_combat(c, s, #{}).differential"#;
    host.set_dice(Box::new(Supplied::new([5, 5, 1, 1, 1, 1])));
    let eval = host.eval(&mut Scope::new(), code).unwrap_or_else(|e| panic!("{e}"));
    let lines = eval.trace.lines();
    assert_eq!(eval.value.as_int().unwrap(), 1, "{lines:#?}");
    assert!(!lines.iter().any(|l| l.starts_with("mod     yes") && l.contains("Outnumbered")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("each counts as 1/2 a regular stand")), "{lines:#?}");
    // Laid out on 1-1/4" skirmish stands, not 3/4" infantry bases: two stands side by side
    // end 1.25" right of their centre, so a stand whose left edge is 5 - 0.375 = 4.625" over
    // is 3.375" away (3.875" from two regular infantry stands).
    let code = r#"let s = unit(#{name: "S", arm: "infantry", grade: "2", stands: 2, formation: "skirmish", placement: #{x: 0.0, y: 0.0, facing: 0.0}});
        let i = unit(#{name: "I", arm: "infantry", grade: "2", stands: 2, formation: "line", placement: #{x: 0.0, y: 0.0, facing: 0.0}});
        let o = unit(#{name: "O", arm: "infantry", grade: "2", stands: 1, formation: "line", placement: #{x: 5.0, y: 0.0, facing: 0.0}});
        [distance(fire_footprint(s), fire_footprint(o)), distance(fire_footprint(i), fire_footprint(o))]"#;
    let v: Vec<f64> = host
        .eval(&mut Scope::new(), code)
        .unwrap()
        .value
        .cast::<rhai::Array>()
        .iter()
        .map(|x| x.as_float().unwrap())
        .collect();
    assert!((v[0] - 3.375).abs() < 1e-9 && (v[1] - 3.875).abs() < 1e-9, "{v:?}");
}
