//! Fatigue: the threshold and its rounding, counting bases at division, corps
//! and army level, and the units' state once a formation is fatigued.

use grognard::script::{Host, UnitRef};
use grognard::unit::Marker;
use rhai::{Map, Scope};

use crate::support::{host, int, ruleset, run};

fn threshold(host: &Host, rating: &str, bases: i64) -> i64 {
    let code = format!("fatigue_threshold(\"{rating}\", {bases})");
    host.eval(&mut Scope::new(), &code).unwrap_or_else(|e| panic!("{code}: {e}")).value.as_int().unwrap()
}

/// "Round to closest whole number 1-5 down, 6-9 up", worked here in hundredths
/// of a base: the percentage of `bases`, its tenths digit deciding.
fn expected_threshold(percent: i64, bases: i64) -> i64 {
    let hundredths = bases * percent;
    let whole = hundredths / 100;
    let tenths = hundredths % 100 / 10;
    let rounded = if tenths >= 6 { whole + 1 } else { whole };
    // House: never before a base is lost.
    rounded.max(1)
}

/// Runs `code` (which builds units) then `fatigue(call)`, returning the result and the
/// scope. No dice are supplied: fatigue rolls none, and a roll would fail the run.
fn fatigue_of(host: &Host, code: &str, call: &str) -> (Map, Scope<'static>) {
    let (eval, scope) = run(host, &[], &format!("{code} fatigue({call})"));
    (eval.value.cast::<Map>(), scope)
}

fn state(scope: &Scope, name: &str) -> (String, Option<Marker>) {
    let unit = scope.get_value::<UnitRef>(name).unwrap();
    let unit = unit.0.borrow();
    (unit.order.clone(), unit.markers.get("fatigued").cloned())
}

fn fatigued(level: &str) -> Option<Marker> {
    Some(Marker::Text(level.into()))
}

#[test]
fn a_good_division_of_10_bases_is_fatigued_at_6_lost() {
    let host = host(&["ff-napoleonic"]);
    assert_eq!(threshold(&host, "good", 10), 6);
    // Two brigades of 5 bases: 5 lost is not enough, 6 is.
    for (lost_b, is_fatigued) in [(2, false), (3, true)] {
        let code = format!(
            r#"let a = unit(#{{name: "A", nation: "france", arm: "infantry", stands: 5, formation: "line"}});
            let b = unit(#{{name: "B", nation: "france", arm: "infantry", stands: 5, formation: "line"}});
            a.lose_stands(3); b.lose_stands({lost_b});"#
        );
        let (result, scope) = fatigue_of(&host, &code, r#"[a, b], "good", "division""#);
        assert_eq!((int(&result, "counted"), int(&result, "threshold")), (10, 6));
        assert_eq!(int(&result, "lost"), 3 + lost_b);
        assert_eq!(result["fatigued"].as_bool().unwrap(), is_fatigued);
        let mark = if is_fatigued { fatigued("division") } else { None };
        // Division fatigue marks the units; it does not disorder them.
        assert_eq!(state(&scope, "a"), ("good_order".to_string(), mark.clone()));
        assert_eq!(state(&scope, "b"), ("good_order".to_string(), mark));
    }
}

#[test]
fn the_threshold_rounds_tenths_1_to_5_down_and_6_to_9_up() {
    let host = host(&["ff-napoleonic"]);
    for (rating, percent) in [("good", 60), ("average", 50), ("poor", 40)] {
        for bases in 1..=40 {
            assert_eq!(threshold(&host, rating, bases), expected_threshold(percent, bases), "{rating} {bases}");
        }
    }
    // The edges, by hand: x.5 rounds down, x.6 up.
    assert_eq!(threshold(&host, "average", 7), 3); // 3.5
    assert_eq!(threshold(&host, "average", 13), 6); // 6.5
    assert_eq!(threshold(&host, "good", 11), 7); // 6.6
    assert_eq!(threshold(&host, "good", 9), 5); // 5.4
    assert_eq!(threshold(&host, "poor", 4), 2); // 1.6
    assert_eq!(threshold(&host, "poor", 14), 6); // 5.6
    assert_eq!(threshold(&host, "poor", 8), 3); // 3.2
    // No Excellent fatigue rating: read as Good.
    assert_eq!(threshold(&host, "excellent", 10), 6);
    let err = host.eval(&mut Scope::new(), r#"fatigue_threshold("elite", 10)"#).unwrap_err().to_string();
    assert!(err.contains("is not a fatigue rating"), "{err}");
}

const ARMY: &str = r#"
    let guard = unit(#{name: "Chasseurs a pied", nation: "france", arm: "infantry", stands: 4, formation: "column", markers: #{guard: true}});
    let line = unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column"});
    let bty = unit(#{name: "12-pdr", nation: "france", arm: "artillery", type: "foot", stands: 2, formation: "unlimbered"});
    guard.lose_stands(2); line.lose_stands(3); bty.lose_stands(1);"#;

#[test]
fn guard_bases_count_double_against_army_fatigue() {
    // Default (both): 4 x 2 + 6 = 14 bases, 60% = 8.4 -> 8; lost 2 x 2 + 3 = 7.
    let host = host(&["ff-napoleonic"]);
    let (result, scope) = fatigue_of(&host, ARMY, r#"[guard, line, bty], "good", "army""#);
    assert_eq!((int(&result, "counted"), int(&result, "threshold"), int(&result, "lost")), (14, 8, 7));
    assert!(!result["fatigued"].as_bool().unwrap());
    assert_eq!(state(&scope, "line"), ("good_order".to_string(), None));
    // At division level nothing doubles: 10 bases, 6; lost 5.
    let (result, _) = fatigue_of(&host, ARMY, r#"[guard, line, bty], "good", "division""#);
    assert_eq!((int(&result, "counted"), int(&result, "threshold"), int(&result, "lost")), (10, 6, 5));

    // losses_only: 10 bases, 6; lost 7: the army breaks.
    let mut rs = ruleset(&["ff-napoleonic"]);
    rs.set_interpretation("army_fatigue_double_count", "losses_only").unwrap();
    let host = Host::new(rs).unwrap();
    let (result, scope) = fatigue_of(&host, ARMY, r#"[guard, line, bty], "good", "army""#);
    assert_eq!((int(&result, "counted"), int(&result, "threshold"), int(&result, "lost")), (10, 6, 7));
    assert!(result["fatigued"].as_bool().unwrap());
    // Every remaining unit is permanently disordered; the infantry carries `fatigued: army`,
    // the battery (immune to the divisional effects) is disordered without it.
    assert_eq!(state(&scope, "guard"), ("disordered".to_string(), fatigued("army")));
    assert_eq!(state(&scope, "line"), ("disordered".to_string(), fatigued("army")));
    assert_eq!(state(&scope, "bty"), ("disordered".to_string(), None));
}

#[test]
fn who_counts_at_army_level() {
    let host = host(&["ff-napoleonic"]);
    let code = r#"
        let gds = unit(#{name: "Coldstream", nation: "britain", arm: "infantry", stands: 4, formation: "line", markers: #{guard: true}});
        let aus = unit(#{name: "Gren Bn", nation: "austria", arm: "infantry", type: "grenadier", stands: 4, formation: "column"});
        let pru = unit(#{name: "Gren Bn", nation: "prussia", arm: "infantry", stands: 4, formation: "column", markers: #{grenadier: true}});
        let fra = unit(#{name: "Grenadiers", nation: "france", arm: "infantry", stands: 4, formation: "column", markers: #{grenadier: true}});
        let rgd = unit(#{name: "Preobrazhensky", nation: "russia", arm: "infantry", type: "guard", stands: 4, formation: "column"});
        let cos = unit(#{name: "Cossacks", nation: "russia", arm: "cavalry", type: "light", stands: 4, formation: "line", markers: #{irregular: true}});
        let bty = unit(#{name: "Battery", nation: "russia", arm: "artillery", type: "heavy", stands: 2, formation: "unlimbered"});
        let all = [gds, aus, pru, fra, rgd, cos, bty];"#;
    // Army: British guard 4, Austrian and Prussian grenadiers 8 each, French grenadiers 4,
    // Russian guard 8; the Cossacks and the battery not at all.
    let (result, _) = fatigue_of(&host, code, r#"all, "average", "army""#);
    assert_eq!(int(&result, "counted"), 4 + 8 + 8 + 4 + 8);
    let names = |key: &str| result[key].clone().cast::<rhai::Array>().iter().map(|d| d.to_string()).collect::<Vec<_>>();
    assert_eq!(names("not_counted"), ["Cossacks", "Battery"]);
    assert_eq!(names("doubled"), ["Gren Bn", "Gren Bn", "Preobrazhensky"]);
    // Division: every infantry and cavalry base once, the battery still not.
    let (result, _) = fatigue_of(&host, code, r#"all, "average", "division""#);
    assert_eq!(int(&result, "counted"), 6 * 4);
}

#[test]
fn a_routed_unit_counts_all_its_bases_lost_and_marks_stay_at_their_highest() {
    let host = host(&["ff-napoleonic"]);
    let code = r#"
        let a = unit(#{name: "A", nation: "minor", arm: "infantry", stands: 5, formation: "line"});
        let b = unit(#{name: "B", nation: "minor", arm: "infantry", stands: 5, formation: "line"});
        let c = unit(#{name: "C", nation: "minor", arm: "cavalry", type: "light", stands: 4, formation: "line"});
        apply(a, #{order: "routed", removed: true});
        c.set_marker("fatigued", "army");"#;
    // Poor: 40% of 14 = 5.6 -> 6; A's 5 bases and one of B's.
    let (result, scope) = fatigue_of(&host, &format!("{code} b.lose_stands(1);"), r#"[a, b, c], "poor", "corps""#);
    assert_eq!((int(&result, "counted"), int(&result, "threshold"), int(&result, "lost")), (14, 6, 6));
    assert!(result["fatigued"].as_bool().unwrap());
    // The routed unit is gone: no mark; C keeps its army mark.
    assert_eq!(state(&scope, "a"), ("routed".to_string(), None));
    assert_eq!(state(&scope, "b"), ("good_order".to_string(), fatigued("corps")));
    assert_eq!(state(&scope, "c"), ("good_order".to_string(), fatigued("army")));
}

#[test]
fn bad_calls_say_what_is_wrong() {
    let host = host(&["ff-napoleonic"]);
    let err = host.eval(&mut Scope::new(), r#"fatigue([], "good", "brigade")"#).unwrap_err().to_string();
    assert!(err.contains(r#"a "division", "corps" or "army""#), "{err}");
    let err = host.eval(&mut Scope::new(), r#"fatigue(3, "good", "army")"#).unwrap_err().to_string();
    assert!(err.contains("an array of the formation's units"), "{err}");
    let none = host.eval(&mut Scope::new(), r#"fatigue([], "good", "army")"#).unwrap().value.cast::<Map>();
    assert!(!none["fatigued"].as_bool().unwrap());
}

#[test]
fn a_fatigued_unit_may_not_charge_or_close_but_reacting_cavalry_may() {
    let host = host(&["ff-napoleonic"]);
    let setup = r#"
        let inf = unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column"});
        let cav = unit(#{name: "Cuirassiers", nation: "france", arm: "cavalry", type: "heavy", stands: 4, formation: "line"});
        let foe = unit(#{name: "IR 4", nation: "austria", arm: "infantry", stands: 6, formation: "line"});
        let a = unit(#{name: "A", nation: "minor", arm: "infantry", stands: 5, formation: "line"});
        a.lose_stands(3);
        fatigue([a, inf, cav], "good", "division");"#;
    let eval = |code: &str| host.eval(&mut Scope::new(), &format!("{setup} {code}"));
    let allowed = |code: &str| eval(code).unwrap().value.cast::<Map>()["allowed"].as_bool().unwrap();
    // 3 of 15 bases lost is not fatigue (60% is 9): everyone may charge; 9 lost is.
    assert!(allowed("may_charge(inf, #{})"));
    let setup_fatigued = "a.lose_stands(2); inf.lose_stands(4); fatigue([a, inf, cav], \"good\", \"division\");";
    assert!(!allowed(&format!("{setup_fatigued} may_charge(inf, #{{}})")));
    assert!(!allowed(&format!("{setup_fatigued} may_close(inf)")));
    assert!(!allowed(&format!("{setup_fatigued} may_charge(cav, #{{}})")));
    // "Defending cavalry may react against enemy charges though."
    assert!(allowed(&format!("{setup_fatigued} may_charge(cav, #{{reacting: true}})")));
    assert!(!allowed(&format!("{setup_fatigued} may_charge(inf, #{{reacting: true}})")));
    // melee() refuses a fatigued attacker, saying why, and lets reacting cavalry in.
    host.set_dice(Box::new(grognard::dice::Supplied::new([5, 5, 9, 1])));
    let err = eval(&format!("{setup_fatigued} melee(inf, foe, #{{}})")).unwrap_err().to_string();
    assert!(
        err.contains("4e Ligne may not charge: division fatigue: its units may not charge or move to within 2\""),
        "{err}"
    );
    host.set_dice(Box::new(grognard::dice::Supplied::new([9, 1])));
    let fought = eval(&format!("{setup_fatigued} melee(cav, foe, #{{reacting: true}})")).unwrap();
    assert_eq!(fought.value.cast::<Map>()["rounds"].as_int().unwrap(), 1);
}
