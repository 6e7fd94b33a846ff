//! The RULE NOTES of seed 004: horse artillery evasion, artillery functions, evading infantry.

use grognard::dice::{EnumLimits, Supplied};
use grognard::script::Outcome;
use num_bigint::BigInt;
use num_rational::BigRational;
use rhai::Scope;

use crate::support::host;

const HORSE: &str =
    r#"unit(#{name: "HA", nation: "france", arm: "artillery", type: "horse", stands: 1, formation: "unlimbered"})"#;

#[test]
fn horse_artillery_evades_on_2_to_9() {
    let odds = host(&["ff-napoleonic"])
        .odds(&Scope::new(), &format!("horse_artillery_evade({HORSE})"), EnumLimits::default(), (100, 1))
        .unwrap();
    // 2d6 of 10 or more: 3 + 2 + 1 ways in 36.
    let caught = BigRational::new(BigInt::from(6), BigInt::from(36));
    assert_eq!(odds.distribution.probability(&Outcome::Word("caught".into())), caught);
    assert_eq!(
        odds.distribution.probability(&Outcome::Word("limbers_and_evades".into())),
        BigRational::from_integer(1.into()) - caught
    );
}

#[test]
fn an_evading_battery_limbers_and_a_caught_one_is_disordered() {
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([4, 5, 6, 4])));
    let mut scope = Scope::new();
    host.eval(&mut scope, &format!("let a = {HORSE}; horse_artillery_evade(a);")).unwrap();
    host.eval(&mut scope, &format!("let b = {HORSE}; horse_artillery_evade(b);")).unwrap();
    let a = scope.get_value::<grognard::script::UnitRef>("a").unwrap();
    let b = scope.get_value::<grognard::script::UnitRef>("b").unwrap();
    assert_eq!((a.0.borrow().formation.as_str(), a.0.borrow().order.as_str()), ("limbered", "good_order"));
    assert_eq!((b.0.borrow().formation.as_str(), b.0.borrow().order.as_str()), ("unlimbered", "disordered"));
}

#[test]
fn only_some_batteries_may_try_to_evade() {
    let host = host(&["ff-napoleonic"]);
    let austrian = r#"horse_artillery_evade(unit(#{name: "K.k.", nation: "austria", arm: "artillery", type: "horse", stands: 1, formation: "unlimbered"}))"#;
    let err = host.eval(&mut Scope::new(), austrian).unwrap_err().to_string();
    assert!(err.contains("French, British, Prussian and French-allied minor horse artillery only"), "{err}");
    let limbered = r#"horse_artillery_evade(unit(#{name: "HA", nation: "france", arm: "artillery", type: "horse", stands: 1, formation: "limbered"}))"#;
    assert!(host.eval(&mut Scope::new(), limbered).unwrap_err().to_string().contains("must be unlimbered"));
}

#[test]
fn batteries_have_their_functions() {
    let host = host(&["ff-napoleonic"]);
    let horse = host.eval(&mut Scope::new(), &format!("artillery_functions({HORSE})")).unwrap().value;
    assert_eq!(horse.as_int().unwrap(), 3);
    let heavy = r#"artillery_functions(unit(#{name: "12-pdr", arm: "artillery", type: "heavy", stands: 1, formation: "limbered"}))"#;
    assert_eq!(host.eval(&mut Scope::new(), heavy).unwrap().value.as_int().unwrap(), 2);
    let evade = r#"[may_evade_infantry(unit(#{name: "Hussars", arm: "cavalry", stands: 4, formation: "line"})),
        may_evade_infantry(unit(#{name: "Hussars", arm: "cavalry", stands: 4, formation: "line", order: "disordered"}))]"#;
    let answers = host.eval(&mut Scope::new(), evade).unwrap().value.cast::<rhai::Array>();
    assert_eq!(answers.iter().map(|a| a.as_bool().unwrap()).collect::<Vec<_>>(), [true, false]);
}

#[test]
fn a_damaged_battery_that_evades_stays_damaged() {
    let host = host(&["ff-napoleonic"]);
    // 2d6 of 4 + 5 = 9: it limbers and evades; its guns are as damaged as before.
    host.set_dice(Box::new(Supplied::new([4, 5])));
    let code = r#"let a = unit(#{name: "HA", nation: "france", arm: "artillery", type: "horse", stands: 1, formation: "unlimbered", markers: #{battery: "damaged"}});
        horse_artillery_evade(a); [a.formation, a.marker("battery")]"#;
    let eval = host.eval(&mut Scope::new(), code).unwrap();
    assert_eq!(eval.value.to_string(), r#"["limbered", "damaged"]"#);
    assert!(eval.trace.lines().iter().any(|l| l.contains("HA limbers up and may move up to 1/2 move away")));
}
