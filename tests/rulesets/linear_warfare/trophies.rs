//! Trophies of War under each interpretation (exact odds against a count),
//! captured flags and recapture, the morale loss, and surrender.

use grognard::dice::{EnumLimits, Supplied};
use grognard::script::{Outcome, UnitRef};
use num_bigint::BigInt;
use num_rational::BigRational;
use rhai::Scope;

use crate::support::{lw, lw_host};

/// The seed's rule typed here: "Roll one D10 for the defeated unit. Subtract the
/// unit's losses in stands. Double the number if the unit is in Rout. If the
/// modified die result is One or less, the unit loses its standard" — under each reading.
fn loses(die: i64, losses: i64, routing: bool, reading: &str) -> bool {
    let modified = match (routing, reading) {
        (false, _) => die - losses,
        (true, "double_losses") => die - 2 * losses,
        (true, "double_result") => 2 * (die - losses),
        (true, "double_die") => 2 * die - losses,
        _ => unreachable!(),
    };
    modified <= 1
}

fn trophies_code(order: &str, losses: i64) -> String {
    format!(
        r#"let b = unit(#{{name: "Beaten", arm: "infantry", grade: "2", stands: 6, formation: "line", order: "{order}"}});
        let v = unit(#{{name: "Victor", arm: "cavalry", grade: "2", stands: 4, formation: "line"}});
        if trophies_of_war(b, v, {losses}).len() > 0 {{ "lost" }} else {{ "kept" }}"#
    )
}

#[test]
fn exact_odds_of_losing_the_standard_under_each_reading() {
    let limits = EnumLimits { max_depth: 2, max_outcomes: 1_000 };
    for reading in ["double_losses", "double_result", "double_die"] {
        let host = lw_host(&[("trophies_rout_doubling", reading)], &[]);
        for (order, routing) in [("rout", true), ("retreat", false)] {
            for losses in 0..=4 {
                let odds = host.odds(&Scope::new(), &trophies_code(order, losses), limits, (100, 1)).unwrap();
                assert!(odds.exact);
                let n = (1..=10).filter(|&d| loses(d, losses, routing, reading)).count() as i64;
                let p = odds.distribution.probability(&Outcome::Word("lost".into()));
                assert_eq!(p, BigRational::new(BigInt::from(n), BigInt::from(10)), "{reading} {order} {losses}");
            }
        }
    }
    // The readings differ: routing with 2 stands lost, 5 in 10, 2 in 10, 1 in 10.
    let counts: Vec<usize> = ["double_losses", "double_result", "double_die"]
        .iter()
        .map(|r| (1..=10).filter(|&d| loses(d, 2, true, r)).count())
        .collect();
    assert_eq!(counts, [5, 2, 1]);
}

#[test]
fn the_losses_counted_follow_the_interpretation() {
    // The beaten unit lost 3 stands earlier in the battle and 1 in this combat; die 4.
    let code = r#"let b = unit(#{name: "Beaten", arm: "infantry", grade: "2", stands: 6, formation: "line", order: "retreat"});
        b.stands = 3;
        let v = unit(#{name: "Victor", arm: "cavalry", grade: "2", stands: 4, formation: "line"});
        trophies_of_war(b, v, 1).len()"#;
    for (choice, lost) in [("this_combat", 0), ("cumulative", 1)] {
        let host = lw_host(&[("trophies_losses", choice)], &[]);
        host.set_dice(Box::new(Supplied::new([4])));
        assert_eq!(host.eval(&mut Scope::new(), code).unwrap().value.as_int().unwrap(), lost, "{choice}");
    }
}

#[test]
fn a_lost_standard_costs_a_grade_or_a_drm_and_goes_to_the_victor() {
    for (choice, grade_loss, drm) in [("grade", Some(1), None), ("drm", None, Some(-1))] {
        let host = lw_host(&[("trophies_morale", choice)], &[]);
        host.set_dice(Box::new(Supplied::new([1])));
        let mut scope = Scope::new();
        host.eval(&mut scope, &trophies_code("retreat", 0)).unwrap();
        let b = scope.get_value::<UnitRef>("b").unwrap();
        let b = b.0.borrow();
        assert!(b.has_marker("standard_lost"));
        let count = |m: &str| match b.markers.get(m) {
            Some(grognard::unit::Marker::Count(n)) => Some(*n),
            _ => None,
        };
        assert_eq!(count("grade_loss"), grade_loss, "{choice}");
        assert_eq!(count("morale_drm"), drm, "{choice}");
        let v = scope.get_value::<UnitRef>("v").unwrap();
        assert_eq!(v.0.borrow().markers.get("captured_flags"), Some(&grognard::unit::Marker::Text("beaten".into())));
    }
}

#[test]
fn captured_flags_roll_separately_and_may_be_recaptured_and_a_standard_is_lost_once() {
    let host = lw();
    // The beaten unit already lost its own standard and carries two captured flags:
    // it rolls only for those two (1: lost back, 8: kept).
    let code = r#"let b = unit(#{name: "Beaten", arm: "cavalry", grade: "2", stands: 4, formation: "line", order: "fall_back",
            markers: #{standard_lost: true, captured_flags: "regiment_a,regiment_b"}});
        let v = unit(#{name: "Victor", arm: "cavalry", grade: "2", stands: 4, formation: "line", markers: #{captured_flags: "regiment_c"}});
        trophies_of_war(b, v, 0)"#;
    host.set_dice(Box::new(Supplied::new([1, 8])));
    let mut scope = Scope::new();
    let eval = host.eval(&mut scope, code).unwrap();
    let lost: Vec<String> = eval.value.cast::<rhai::Array>().iter().map(|x| x.to_string()).collect();
    assert_eq!(lost, ["regiment_a"]);
    let text = |name: &str| match scope.get_value::<UnitRef>(name).unwrap().0.borrow().markers.get("captured_flags") {
        Some(grognard::unit::Marker::Text(t)) => t.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(text("b"), "regiment_b");
    assert_eq!(text("v"), "regiment_c,regiment_a");
    assert_eq!(eval.trace.lines().iter().filter(|l| l.starts_with("roll    trophies")).count(), 2);
}

#[test]
fn a_routing_unit_contacted_surrenders_everything() {
    let host = lw();
    let code = r#"let r = unit(#{name: "Routers", arm: "infantry", grade: "2", stands: 4, formation: "line", order: "rout", markers: #{captured_flags: "x"}});
        let k = leader(#{name: "Colonel", rating: "1"}); r.attach(k);
        let c = unit(#{name: "Horse", arm: "cavalry", grade: "2", stands: 4, formation: "line"});
        charge_surrender(r, c);"#;
    // The colonel rolls on the Fallen Leader Table: 7, captured (5-8).
    host.set_dice(Box::new(Supplied::new([7])));
    let mut scope = Scope::new();
    host.eval(&mut scope, code).unwrap();
    let r = scope.get_value::<UnitRef>("r").unwrap();
    let r = r.0.borrow();
    assert_eq!(r.stands, 0);
    assert!(r.has_marker("surrendered") && r.has_marker("standard_lost"));
    let c = scope.get_value::<UnitRef>("c").unwrap();
    assert_eq!(c.0.borrow().markers.get("captured_flags"), Some(&grognard::unit::Marker::Text("routers,x".into())));
    assert!(scope.get_value::<grognard::script::LeaderRef>("k").unwrap().0.borrow().has_marker("captured"));
}
