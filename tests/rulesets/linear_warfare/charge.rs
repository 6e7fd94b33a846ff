//! The charge from declaration to Charge Combat (procedure a-f): the charger's
//! Maneuver Table roll and doctrine, the target's reactions, fire on and by the
//! charger, pass-through fire, mandatory orders and surrender.

use grognard::dice::Supplied;

use rhai::{Map, Scope};

use crate::support::{fails, lw, lw_host, map_and_trace, run, unit_in};

const HORSE_AND_FOOT: &str = r#"
    let c = unit(#{name: "Horse", arm: "cavalry", type: "heavy", grade: "2", stands: 4, formation: "line", markers: #{doctrine: "all_out_good_order"}});
    let d = unit(#{name: "Foot", arm: "infantry", grade: "2", stands: 4, formation: "line"});"#;

#[test]
fn no_round_the_corner_charges() {
    let host = lw();
    let (v, lines, _) = map_and_trace(run(&host, &[], &format!("{HORSE_AND_FOOT} charge(c, d, #{{facing: false}})")));
    assert_eq!(v["result"].to_string(), "no_charge");
    assert!(lines.iter().any(|l| l.contains("no \"round the corner\" charges")));
    // On the table: a target behind the charger is not faced.
    let placed = |y: f64| {
        format!(
            r#"let c = unit(#{{name: "Horse", arm: "cavalry", grade: "2", stands: 2, formation: "line", placement: #{{x: 0.0, y: 0.0, facing: 0.0}}}});
            let d = unit(#{{name: "Foot", arm: "infantry", grade: "2", stands: 4, formation: "line", placement: #{{x: 0.0, y: {y:.1}, facing: 180.0}}}});
            charge(c, d, #{{}}).result"#
        )
    };
    host.set_dice(Box::new(Supplied::new([])));
    assert_eq!(host.eval(&mut Scope::new(), &placed(-8.0)).unwrap().value.to_string(), "no_charge");
    // Ahead: the charge goes on to the Maneuver Table (3: holds ground, it does not go).
    host.set_dice(Box::new(Supplied::new([3])));
    assert_eq!(host.eval(&mut Scope::new(), &placed(8.0)).unwrap().value.to_string(), "charge_failed");
}

#[test]
fn a_charge_from_the_maneuver_roll_to_the_pursuit() {
    let host = lw();
    // b. Maneuver Table 10: full move. c/d. The foot fires at close range (3"): 8 fire
    // points, die 2: no effect. e. no fire by the charger. f. 7 + 3 (All Out, cavalry
    // against foot) - 3 = 7: the foot routs; trophies 9 - 4: kept; pursuit 9 + 3 = 12.
    let code = format!("{HORSE_AND_FOOT} charge(c, d, #{{reaction: \"fire\", charger_run_in: 12}})");
    let (v, lines, scope) = map_and_trace(run(&host, &[10, 2, 7, 3, 9, 9], &code));
    assert_eq!(v["result"].to_string(), "charge_combat", "{lines:#?}");
    let combat = v["combat"].clone().cast::<Map>();
    assert_eq!(combat["result"].to_string(), "defender_routs", "{lines:#?}");
    assert_eq!(v["maneuver"].clone().cast::<Map>()["result"].to_string(), "full_move");
    assert!(
        lines.iter().any(|l| l.contains("4 firing stand(s) x 2 (musket, close range) = 8 fire points")),
        "{lines:#?}"
    );
    let d = unit_in(&scope, "d");
    assert_eq!((d.order.as_str(), d.stands), ("rout", 2));
    assert!(d.has_marker("moved") && d.has_marker("fired"), "a reaction is the target's move for the turn");
    assert_eq!(unit_in(&scope, "c").order, "pursuit");
}

#[test]
fn the_charger_may_not_go() {
    let host = lw();
    // Grade 2, 1: Fall Back (mandatory).
    let (v, _, scope) =
        map_and_trace(run(&host, &[1], &format!("{HORSE_AND_FOOT} charge(c, d, #{{charger_run_in: 12}})")));
    assert_eq!(v["result"].to_string(), "charge_failed");
    assert_eq!(unit_in(&scope, "c").order, "fall_back");
    let err = lw()
        .eval(&mut Scope::new(), &format!("{HORSE_AND_FOOT} c.order = \"rout\"; charge(c, d, #{{}})"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("under a rout order and cannot charge"), "{err}");
}

/// French gendarmes under the "all out or trot with fire" doctrine charge a line of foot from 12".
const GENDARMES_CHARGE_FOOT: &str = r#"let c = unit(#{name: "Gendarmes", nation: "france", arm: "cavalry", grade: "2", stands: 4, formation: "line", markers: #{doctrine: "all_out_or_trot_with_fire"}});
        let d = unit(#{name: "Foot", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        charge(c, d, #{charger_run_in: 12})"#;

#[test]
fn french_cavalry_chooses_its_charge_by_the_maneuver_roll() {
    let host = lw();
    // 9: All Out in Disorder. The foot stands (Maneuver 5: holds). 6 + 3 - 6 = 3, the
    // foot falls back; trophies 9; pursuit 1. The gendarmes end the charge disordered
    // whatever happened.
    let (v, lines, scope) = map_and_trace(run(&host, &[9, 5, 6, 6, 9, 1], GENDARMES_CHARGE_FOOT));
    assert!(
        lines.iter().any(|l| l.contains("modified Maneuver Table total 9") && l.contains("all_out_disorder")),
        "{lines:#?}"
    );
    assert_eq!(v["combat"].clone().cast::<Map>()["differential"].as_int().unwrap(), 3);
    assert_eq!(unit_in(&scope, "c").order, "disordered");
    // 8: At the Trot with Fire: mounted fire at close range (4 stands x 1), die 8 on the 4 row
    // is 8-10, effective: the defender takes -1 and loses nothing to it. 6 + 1 - (6 - 1) = 2.
    let (v, lines, scope) = map_and_trace(run(&host, &[8, 5, 8, 6, 6, 9, 1], GENDARMES_CHARGE_FOOT));
    assert!(lines.iter().any(|l| l.contains("trot_with_fire")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("the mounted fire was effective")), "{lines:#?}");
    assert_eq!(v["combat"].clone().cast::<Map>()["differential"].as_int().unwrap(), 2, "{lines:#?}");
    assert_eq!(unit_in(&scope, "d").stands, 4);
    assert_eq!(unit_in(&scope, "c").order, "good_order");
}

#[test]
fn the_target_may_form_square_or_be_sent_back_before_contact() {
    let host = lw();
    // The foot forms square (Maneuver 7: 1/2 move OR formation change): the horse is -2, not +1.
    let code = format!(
        "{HORSE_AND_FOOT} charge(c, d, #{{reaction: \"change_formation\", new_formation: \"square\", charger_run_in: 12}})"
    );
    let (v, lines, scope) = map_and_trace(run(&host, &[10, 7, 5, 5], &code));
    assert_eq!(unit_in(&scope, "d").formation, "square", "{lines:#?}");
    assert_eq!(v["combat"].clone().cast::<Map>()["differential"].as_int().unwrap(), 0, "{lines:#?}");
    // The foot falls back before contact (Maneuver 1): not caught, it gets away...
    let code = format!("{HORSE_AND_FOOT} charge(c, d, #{{charger_run_in: 12}})");
    let (v, _, _) = map_and_trace(run(&host, &[10, 1], &code));
    assert_eq!(v["result"].to_string(), "target_escaped");
    // ... caught, it fights taken in the rear (-2): 5 + 3 - (5 - 2) = 5.
    let code = format!("{HORSE_AND_FOOT} charge(c, d, #{{charger_run_in: 12, caught: true}})");
    let (v, lines, _) = map_and_trace(run(&host, &[10, 1, 5, 5, 9, 1], &code));
    assert_eq!(v["combat"].clone().cast::<Map>()["differential"].as_int().unwrap(), 5, "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("caught from the rear")));
}

#[test]
fn a_late_reaction_cannot_change_formation_and_fires_at_half() {
    let host = lw();
    let code = format!(
        "{HORSE_AND_FOOT} d.set_marker(\"fired\", true); charge(c, d, #{{reaction: \"change_formation\", new_formation: \"square\", charger_run_in: 12}})"
    );
    let (_, lines, scope) = map_and_trace(run(&host, &[10, 5, 5, 5, 9, 1], &code));
    assert_eq!(unit_in(&scope, "d").formation, "line");
    assert!(lines.iter().any(|l| l.contains("cannot change formation or facing")), "{lines:#?}");
    let code = format!(
        "{HORSE_AND_FOOT} d.set_marker(\"moved\", true); charge(c, d, #{{reaction: \"fire\", charger_run_in: 12}}).fire[0].fire_points"
    );
    host.set_dice(Box::new(Supplied::new([10, 1, 5, 5, 9, 1])));
    // 4 stands x 2 at close range, halved.
    assert_eq!(host.eval(&mut Scope::new(), &code).unwrap().value.as_float().unwrap(), 4.0);
    // A reaction the unit's arm does not have is refused.
    host.set_dice(Box::new(Supplied::new([10])));
    let err = host
        .eval(
            &mut Scope::new(),
            &format!("{HORSE_AND_FOOT} charge(c, d, #{{reaction: \"counter_charge\", charger_run_in: 12}})"),
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot react to a charge by \"counter_charge\""), "{err}");
}

#[test]
fn pass_through_fire_and_a_charge_stopped_by_fire() {
    let host = lw();
    // The foot stands (Maneuver 5). A neighbouring battalion fires as the horse passes:
    // 12 fire points, 9 on the 12-14 row is 7-9, one stand; the horse is disordered and
    // checks on the Maneuver Table (disordered column): 2, Retreat, and a Retreat under
    // fire loses one more stand (maneuver.rhai, house): the charge is stopped.
    let code = format!(
        r#"{HORSE_AND_FOOT}
        let n = unit(#{{name: "Neighbours", arm: "infantry", grade: "2", stands: 6, formation: "line"}});
        charge(c, d, #{{charger_run_in: 12, pass_through: [n]}})"#
    );
    let (v, lines, scope) = map_and_trace(run(&host, &[10, 5, 9, 2], &code));
    assert_eq!(v["result"].to_string(), "stopped_by_fire", "{lines:#?}");
    assert!(unit_in(&scope, "n").has_marker("moved"));
    assert_eq!(unit_in(&scope, "c").order, "retreat");
    assert_eq!(unit_in(&scope, "c").stands, 2);
}

#[test]
fn ga_pa_fires_at_minus_one_and_a_routing_target_surrenders() {
    let host = lw();
    let code = r#"let c = unit(#{name: "Swedes", nation: "sweden", arm: "infantry", grade: "3", stands: 6, formation: "line", markers: #{doctrine: "ga_pa", impetuous: true, pikes: "1/3"}});
        let d = unit(#{name: "Saxons", arm: "infantry", grade: "2", stands: 6, formation: "line"});
        charge(c, d, #{charger_run_in: 2})"#;
    // Maneuver 10; the target stands (Maneuver 5, holds); Ga Pa fire: 12 FP, 7 - 1 = 6: disordered;
    // Charge Combat 5 + 1 + 1 + 1 (grade 3) - 5 = 3.
    let (v, lines, _) = map_and_trace(run(&host, &[10, 5, 7, 5, 5, 9, 1], code));
    assert!(lines.iter().any(|l| l.starts_with("mod     yes -1") && l.contains("Ga Pa")), "{lines:#?}");
    assert_eq!(v["combat"].clone().cast::<Map>()["differential"].as_int().unwrap(), 3, "{lines:#?}");
    // A routing target contacted surrenders.
    let code = format!("{HORSE_AND_FOOT} d.order = \"rout\"; charge(c, d, #{{charger_run_in: 12}})");
    let (v, _, scope) = map_and_trace(run(&host, &[10], &code));
    assert_eq!(v["result"].to_string(), "surrendered");
    assert!(unit_in(&scope, "d").has_marker("surrendered"));
}

#[test]
fn without_a_doctrine_marker_the_army_list_of_the_period_decides() {
    let host = lw();
    // French horse in 1709 (no doctrine marker): the army list's "All Out in Disorder on a
    // modified 9 or more, otherwise At the Trot with Fire", read from the charge's Maneuver roll.
    let code = r#"let c = unit(#{name: "Maison du Roi", nation: "france", arm: "cavalry", grade: "2", stands: 4, formation: "line"});
        let d = unit(#{name: "Foot", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        charge(c, d, #{charger_run_in: 12, year: 1709})"#;
    let (_, lines, scope) = map_and_trace(run(&host, &[10, 5, 6, 6, 9, 1], code));
    assert!(lines.iter().any(|l| l.contains("charges all_out_disorder")), "{lines:#?}");
    assert_eq!(unit_in(&scope, "c").order, "disordered");
    // A British battalion of 1704 charges by Platoon Firing: half line speed, and fires before closing.
    let code = r#"let c = unit(#{name: "Foot Guards", nation: "britain", arm: "infantry", grade: "3", stands: 4, formation: "line"});
        let d = unit(#{name: "Foot", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        charge(c, d, #{charger_run_in: 2, year: 1704})"#;
    let (v, lines, _) = map_and_trace(run(&host, &[10, 5, 1, 6, 6, 9], code));
    assert!(lines.iter().any(|l| l.contains("charges platoon_firing at half_line speed")), "{lines:#?}");
    assert_eq!(v["fire"].clone().cast::<rhai::Array>().len(), 1, "{lines:#?}");
}

#[test]
fn bug_out_needs_militarized_drivers_by_the_nations_date() {
    let host = lw();
    // Seed L238: Bug Out "is ONLY available ff you have militarized drivers and limber teams";
    // L452: militarized "not until the campaign of 1760 in the Prussian Army", and
    // (L183) civilian drivers in "all armies before 1750".
    let code = |nation: &str, year: &str, markers: &str| {
        format!(
            r#"let c = unit(#{{name: "Horse", arm: "cavalry", grade: "3", stands: 4, formation: "line", markers: #{{doctrine: "trot_ordered_impact"}}}});
            let b = unit(#{{name: "Bty", nation: "{nation}", arm: "artillery", type: "medium", grade: "3", stands: 2, formation: "unlimbered", markers: {markers}}});
            let r = charge(c, b, #{{reaction: "bug_out", year: {year}, charger_run_in: 6}}); #{{result: r.result, formation: b.formation}}"#
        )
    };
    // Prussia 1765 (militarized from 1760): the charger's roll 10 goes in at the trot, the
    // battery's reaction roll 10 (grade 3, 9+: full move) limbers up and gets away.
    let (v, lines, _) = map_and_trace(run(&host, &[10, 10], &code("prussia", "1765", "#{}")));
    assert_eq!((v["result"].to_string(), v["formation"].to_string()), ("target_escaped".into(), "limbered".into()));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Bty may Bug Out: prussia drivers in 1765 are militarized (militarized from 1760)")),
        "{lines:#?}"
    );
    // Prussia 1755 still has civilian drivers; so has any army in 1745 ("before 1750").
    for (nation, year, reason) in [
        ("prussia", "1755", "prussia drivers in 1755 are civilian (militarized from 1760)"),
        ("france", "1745", "france drivers in 1745 are civilian (militarized from 1750)"),
    ] {
        let err = fails(&host, &[10, 10], &code(nation, year, "#{}"));
        assert!(err.contains("Bty cannot Bug Out: only with militarized drivers and limber teams"), "{err}");
        assert!(err.contains(reason), "{err}");
    }
    // France 1751 is past "all armies before 1750".
    let (v, _, _) = map_and_trace(run(&host, &[10, 10], &code("france", "1751", "#{}")));
    assert_eq!(v["result"].to_string(), "target_escaped");
    // The battery's civilian_drivers marker overrides the date either way; without it or a
    // year, the question is refused.
    let (v, _, _) = map_and_trace(run(&host, &[10, 10], &code("prussia", "1755", "#{civilian_drivers: false}")));
    assert_eq!(v["result"].to_string(), "target_escaped");
    let err = fails(&host, &[10, 10], &code("prussia", "1765", "#{civilian_drivers: true}"));
    assert!(err.contains("Bty's civilian_drivers marker: civilian drivers"), "{err}");
    let err = fails(&host, &[10, 10], &code("prussia", "()", "#{}"));
    assert!(err.contains("give the year, or a civilian_drivers marker"), "{err}");
    // The old situation key is gone: given, it is refused, not read.
    let err = fails(
        &host,
        &[10, 10],
        &code("prussia", "1765", "#{}").replace("year: 1765", "year: 1765, militarized_drivers: true"),
    );
    assert!(err.contains("militarized_drivers"), "{err}");
}

#[test]
fn the_range_of_fire_on_a_charge_follows_the_interpretation() {
    let code = |cavalry: &str, doctrine: &str| {
        format!(
            r#"let c = unit(#{{name: "Horse", arm: "cavalry", type: "{cavalry}", grade: "2", stands: 4, formation: "line", markers: #{{doctrine: "{doctrine}"}}}});
            let d = unit(#{{name: "Foot", arm: "infantry", grade: "2", stands: 4, formation: "line"}});
            charge(c, d, #{{reaction: "fire", charger_run_in: 12}}).fire[0]"#
        )
    };
    // Close (default): the foot fires at 3", close range, 8 fire points.
    let host = lw();
    let (v, _, _) = map_and_trace(run(&host, &[10, 1, 5, 5, 9, 1], &code("heavy", "all_out_good_order")));
    assert_eq!((v["band"].to_string(), v["fire_points"].as_float().unwrap()), ("close".to_string(), 8.0));
    // A quarter move: heavy horse All Out (26" a move) is 6.5" away, beyond musket range;
    // light horse at the trot (22") 5.5", long range: 4 fire points.
    let host = lw_host(&[("fire_on_charge_range", "quarter_move")], &[]);
    let (v, lines, _) = map_and_trace(run(&host, &[10, 5, 5, 9, 1], &code("heavy", "all_out_good_order")));
    assert_eq!(v["result"].to_string(), "out_of_range", "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("a quarter of Horse's charge move: 6.5\"")), "{lines:#?}");
    let (v, lines, _) = map_and_trace(run(&host, &[10, 1, 5, 5, 9, 1], &code("light", "trot_ordered_impact")));
    assert_eq!((v["band"].to_string(), v["fire_points"].as_float().unwrap()), ("long".to_string(), 4.0), "{lines:#?}");
}

#[test]
fn fire_during_the_charge_counts_for_trophies_and_officers() {
    // Review finding 1. Platoon firing foot: Maneuver 10; the target holds (5); the charger's
    // platoon fire, 4 stands x 2 = 8 FP, die 9 on the 8,9 row (9-11): one stand lost.
    // Charge Combat 8 + 1 (impetus) - (3 + 1 CP - 1 lost this turn) = 6: the target retreats
    // and loses 1 more. Trophies: 3 - (1 in combat + 1 to fire) = 1, the standard is lost
    // (3 - 1 = 2 would keep it). Its officer: 8 + 2 stands lost = 10, Fallen Leader Table,
    // 6: captured with a defeated unit (8 + 1 = 9 would not roll).
    let host = lw();
    let code = r#"let c = unit(#{name: "Guards", arm: "infantry", grade: "2", stands: 4, formation: "line", markers: #{doctrine: "platoon_firing"}});
        let d = unit(#{name: "Foot", arm: "infantry", grade: "2", stands: 4, formation: "line"});
        let m = leader(#{name: "Tallard", rating: "1"}); d.attach(m);
        charge(c, d, #{charger_run_in: 2})"#;
    let (v, lines, scope) = map_and_trace(run(&host, &[10, 5, 9, 8, 3, 3, 8, 6], code));
    let combat = v["combat"].clone().cast::<Map>();
    assert_eq!(combat["result"].to_string(), "defender_retreats", "{lines:#?}");
    assert_eq!(combat["defender_lost"].as_int().unwrap(), 2, "{lines:#?}");
    assert_eq!(combat["charger_lost"].as_int().unwrap(), 0, "{lines:#?}");
    assert_eq!(v["fire"].clone().cast::<rhai::Array>()[0].clone().cast::<Map>()["lost"].as_int().unwrap(), 1);
    let d = unit_in(&scope, "d");
    assert_eq!(d.stands, 2);
    assert!(d.has_marker("standard_lost"), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("table   Trophies of War, total 1 ")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("Tallard: 8 + 2 stands lost = 10")), "{lines:#?}");
    assert!(scope.get_value::<grognard::script::LeaderRef>("m").unwrap().0.borrow().has_marker("captured"));
    // The charger's side: pass-through fire, 12 FP, die 9 on the 12-14 row (7-9): one stand;
    // the disordered horse checks (10: rallies with a full move) and charges on. 3 + 2 + 1 +
    // 1 CP - 1 lost this turn - 7 = -1: the horse falls back. Trophies 2 - 1 (to fire) = 1:
    // its standard is lost; its officer 9 + 1 = 10: Fallen Leader Table, 6: captured.
    let code = format!(
        r#"{HORSE_AND_FOOT}
        let n = unit(#{{name: "Neighbours", arm: "infantry", grade: "2", stands: 6, formation: "line"}});
        let k = leader(#{{name: "Cutts", rating: "1"}}); c.attach(k);
        charge(c, d, #{{charger_run_in: 12, pass_through: [n]}})"#
    );
    let (v, lines, scope) = map_and_trace(run(&host, &[10, 5, 9, 10, 3, 7, 2, 9, 6], &code));
    let combat = v["combat"].clone().cast::<Map>();
    assert_eq!(combat["result"].to_string(), "charger_falls_back", "{lines:#?}");
    assert_eq!(combat["charger_lost"].as_int().unwrap(), 1, "{lines:#?}");
    assert!(unit_in(&scope, "c").has_marker("standard_lost"), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("Cutts: 9 + 1 stands lost = 10")), "{lines:#?}");
    assert!(scope.get_value::<grognard::script::LeaderRef>("k").unwrap().0.borrow().has_marker("captured"));
}

#[test]
fn fire_on_a_charge_needs_the_target_to_face_it() {
    // Review finding 3. Seed L225 "May fire at the charging unit if facing it in line or
    // square formation"; L175 the sleeve "has no firepower to the flanks ... only 1/4 of its
    // total stands may fire to the rear (rounded down, but minimum of one)".
    let host = lw();
    let code = |formation: &str, situation: &str| {
        format!(
            r#"let c = unit(#{{name: "Horse", arm: "cavalry", type: "heavy", grade: "2", stands: 4, formation: "line", markers: #{{doctrine: "all_out_good_order"}}}});
            let d = unit(#{{name: "Foot", arm: "infantry", grade: "2", stands: 8, formation: "{formation}"}});
            let s = {situation}; s.reaction = "fire"; s.charger_run_in = 12;
            charge(c, d, s).fire[0].fire_points"#
        )
    };
    let fire_points = |formation: &str, situation: &str| {
        host.set_dice(Box::new(Supplied::new([10, 1, 5, 5, 9, 1])));
        host.eval(&mut Scope::new(), &code(formation, situation))
            .unwrap_or_else(|e| panic!("{formation} {situation}: {e}"))
            .value
            .as_float()
            .unwrap()
    };
    let refused = |formation: &str, situation: &str| {
        host.set_dice(Box::new(Supplied::new([10, 1, 5, 5, 9, 1])));
        host.eval(&mut Scope::new(), &code(formation, situation)).unwrap_err().to_string()
    };
    // Charged to its front, a line of 8 fires 8 x 2 = 16; a square fires on any side.
    assert_eq!(fire_points("line", "#{}"), 16.0);
    assert_eq!(fire_points("square", "#{flank_or_rear: true}"), 16.0);
    // A line charged in the flank or rear does not fire.
    for situation in ["#{flank_or_rear: true}", "#{charged_in: \"flank\"}", "#{charged_in: \"rear\"}"] {
        let err = refused("line", situation);
        assert!(err.contains("a line fires on a charge only facing it"), "{situation}: {err}");
    }
    // A sleeve fires only to the rear, with 8 / 4 = 2 stands (4 FP); never to a flank.
    assert_eq!(fire_points("sleeve", "#{charged_in: \"rear\"}"), 4.0);
    let err = refused("sleeve", "#{flank_or_rear: true}");
    assert!(err.contains("a sleeve has no fire to the flanks"), "{err}");
    let err = refused("line", "#{charged_in: \"behind\"}");
    assert!(err.contains("charged_in is \"front\", \"flank\" or \"rear\""), "{err}");
    // On the table: horse on the right flank of a line (measured) is not fired on.
    let placed = r#"let c = unit(#{name: "Horse", arm: "cavalry", grade: "2", stands: 2, formation: "line", markers: #{doctrine: "all_out_good_order"}, placement: #{x: 10.0, y: -0.5, facing: 270.0}});
        let d = unit(#{name: "Foot", arm: "infantry", grade: "2", stands: 4, formation: "line", placement: #{x: 0.0, y: 0.0, facing: 0.0}});
        charge(c, d, #{reaction: "fire", charger_run_in: 12, charger_stands: 2, defender_stands: 1, facing: true})"#;
    host.set_dice(Box::new(Supplied::new([10, 1, 5, 5, 9, 1])));
    let err = host.eval(&mut Scope::new(), placed).unwrap_err().to_string();
    assert!(err.contains("Foot is charged in the flank"), "{err}");
}

#[test]
fn under_quarter_move_the_chargers_mounted_fire_is_still_at_close_range() {
    // Review finding 6. Seed L251 step e: mounted fire "If effective (Close Range) it imposes
    // a - 1 die roll modifier on the defender's Charge Combat die roll". The quarter move
    // is the range of the fire ON the charger only. French horse, Maneuver 8: At the Trot
    // with Fire; the foot holds (5); mounted fire 4 stands x 1 at close range, die 8 on the
    // 4 row (8-10): effective. 6 + 1 (cavalry against foot) - (6 - 1) = 2.
    let host = lw_host(&[("fire_on_charge_range", "quarter_move")], &[]);
    let (v, lines, _) = map_and_trace(run(&host, &[8, 5, 8, 6, 6, 9, 1], GENDARMES_CHARGE_FOOT));
    let shot = v["fire"].clone().cast::<rhai::Array>()[0].clone().cast::<Map>();
    assert_eq!(
        (shot["band"].to_string(), shot["fire_points"].as_float().unwrap()),
        ("close".to_string(), 4.0),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.contains("the mounted fire was effective")), "{lines:#?}");
    assert_eq!(v["combat"].clone().cast::<Map>()["differential"].as_int().unwrap(), 2, "{lines:#?}");
}

#[test]
fn a_charger_that_changed_frontage_late_may_not_use_mounted_fire() {
    // Seed 003: changing frontage in the last 5-10" before contact, the unit "loses any
    // Charge (Impetus) Bonus and may not use Mounted Fire". The same charge as above
    // (Maneuver 8: At the Trot with Fire; the foot holds), but no fire die: 6 + 1 - 6 = 1.
    let host = lw();
    let late =
        GENDARMES_CHARGE_FOOT.replace("#{charger_run_in: 12}", "#{charger_run_in: 12, frontage_changed_late: true}");
    let (v, lines, _) = map_and_trace(run(&host, &[8, 5, 6, 6, 9, 1], &late));
    assert!(lines.iter().any(|l| l.contains("trot_with_fire")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("it may not use Mounted Fire")), "{lines:#?}");
    assert!(v["fire"].clone().cast::<rhai::Array>().is_empty(), "{lines:#?}");
    assert!(!lines.iter().any(|l| l.contains("the mounted fire was")), "{lines:#?}");
    assert_eq!(v["combat"].clone().cast::<Map>()["differential"].as_int().unwrap(), 1, "{lines:#?}");
}

#[test]
fn all_out_in_disorder_is_disordered_even_when_it_wins_and_pursues() {
    // Review finding 9. Seed L399 All Out in Disorder "is Disordered at the end of the first
    // Charge Movement Phase regardless of any other outcome of the charge". Maneuver 9: All
    // Out in Disorder; the foot holds (5); 6 + 3 - 6 = 3, the foot falls back; trophies 9:
    // kept; pursuit check 9 + 3 (non-light cavalry) = 12: pursuit. The gendarmes keep the
    // pursuit order and are disordered too.
    let host = lw();
    let (v, lines, scope) = map_and_trace(run(&host, &[9, 5, 6, 6, 9, 9], GENDARMES_CHARGE_FOOT));
    assert_eq!(v["combat"].clone().cast::<Map>()["pursuit"].to_string(), "pursuit", "{lines:#?}");
    let c = unit_in(&scope, "c");
    assert_eq!(c.order, "pursuit");
    assert!(c.has_marker("disordered"), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.contains("disordered whatever the outcome, under its pursuit order too")),
        "{lines:#?}"
    );
}

#[test]
fn a_target_destroyed_by_the_chargers_fire_is_not_fought() {
    // Review finding 10 (no Charge Combat with a 0-stand unit). Maneuver 10; the last stand
    // holds (5); platoon fire 8 FP, die 9: one stand lost, none left. No combat, no dice more.
    let host = lw();
    let code = r#"let c = unit(#{name: "Guards", arm: "infantry", grade: "2", stands: 4, formation: "line", markers: #{doctrine: "platoon_firing"}});
        let d = unit(#{name: "Remnant", arm: "infantry", grade: "2", stands: 1, formation: "line"});
        charge(c, d, #{charger_run_in: 2})"#;
    let (v, lines, scope) = map_and_trace(run(&host, &[10, 5, 9], code));
    assert_eq!(v["result"].to_string(), "target_destroyed", "{lines:#?}");
    assert!(v["combat"].is_unit());
    assert_eq!(unit_in(&scope, "d").stands, 0);
    assert!(lines.iter().any(|l| l.contains("Remnant is destroyed by the fire before contact")), "{lines:#?}");
}
