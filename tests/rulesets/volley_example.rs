//! The volley example: dice pools that hit and save, its tables, a volley with dice
//! rolled at the table, and its exact odds against a count written here.

use grognard::dice::{EnumLimits, Supplied};
use grognard::script::Outcome;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rhai::Scope;

use crate::support::{host, ratio, ruleset, switched, unit_in};

const LINE: &str = r#"unit(#{name: "33rd Foot", arm: "infantry", stands: 3, formation: "line"})"#;
const COLUMN: &str = r#"unit(#{name: "2e Legere", arm: "infantry", stands: 8, formation: "column"})"#;

#[test]
fn the_tables_hold_the_house_values() {
    let rs = ruleset(&["volley-example"]);
    let value = |table: &str, key: &str| {
        let host = host(&["volley-example"]);
        host.eval(&mut Scope::new(), &format!("lookup(\"{table}\", \"{key}\")")).unwrap().value.as_int().unwrap()
    };
    assert_eq!([value("shooting", "short"), value("shooting", "long")], [4, 5]);
    assert_eq!([value("saves", "open"), value("saves", "cover"), value("saves", "fortified")], [6, 5, 4]);
    for id in ["shooting", "saves"] {
        assert_eq!(rs.tables[id].source.to_string(), "house", "{id}");
    }
}

#[test]
fn a_volley_with_dice_rolled_at_the_table() {
    let host = host(&["volley-example"]);
    // Three dice at short range: 5, 2, 4 are two hits; the column in cover saves on 5: 6, 3.
    host.set_dice(Box::new(Supplied::new([5, 2, 4, 6, 3])));
    let mut scope = Scope::new();
    let code = format!("let a = {LINE}; let b = {COLUMN}; volley(a, b, #{{cover: \"cover\"}})");
    let eval = host.eval(&mut scope, &code).unwrap();
    let r = eval.value.cast::<rhai::Map>();
    assert_eq!([r["hits"].as_int(), r["saved"].as_int(), r["lost"].as_int()], [Ok(2), Ok(1), Ok(1)]);
    assert_eq!(unit_in(&scope, "b").stands, 7);
    let trace = eval.trace.to_string();
    assert!(trace.contains("3d6 hits 4+: [5 2 4 → 2 hits] = 2"), "{trace}");
    assert!(trace.contains("2d6 hits 5+: [6 3 → 1 hit] = 1"), "{trace}");
    // A first volley re-rolls its misses once, after the volley: the 2 is rolled again as a 4.
    host.set_dice(Box::new(Supplied::new([5, 2, 6, 4, 1, 1, 2])));
    let code = format!("volley({LINE}, {COLUMN}, #{{first_volley: true}})");
    let r = host.eval(&mut Scope::new(), &code).unwrap().value.cast::<rhai::Map>();
    assert_eq!([r["hits"].as_int(), r["lost"].as_int()], [Ok(3), Ok(3)]);
}

/// C(n, k).
fn choose(n: u64, k: u64) -> BigInt {
    (0..k).fold(BigInt::one(), |acc, i| acc * BigInt::from(n - i) / BigInt::from(i + 1))
}

/// P(k of n), each with chance p.
fn binomial(n: u64, k: u64, p: &BigRational) -> BigRational {
    BigRational::from(choose(n, k))
        * num_traits::pow(p.clone(), k as usize)
        * num_traits::pow(BigRational::one() - p, (n - k) as usize)
}

/// The chance that a volley of `n` dice hitting with chance `hit` costs `lost` stands when
/// each hit is saved with chance `save`: over every number of hits, every number saved.
fn lost_by_hand(n: u64, hit: &BigRational, save: &BigRational, lost: u64) -> BigRational {
    let mut p = BigRational::zero();
    for h in lost..=n {
        p += binomial(n, h, hit) * binomial(h, h - lost, save);
    }
    p
}

#[test]
fn the_exact_odds_of_a_volley_agree_with_a_count_by_hand() {
    // The walk replays the volley once for every way the dice fall (re-rolls add dice):
    // two or three stands keep it to thousands of outcomes.
    for (stands, situation, with_first_fire, hit, save) in [
        (3, "#{cover: \"cover\"}", true, ratio(1, 2), ratio(1, 3)),
        (3, "#{range: \"long\"}", true, ratio(1, 3), ratio(1, 6)),
        // Misses re-rolled once: a hit is a 4+ first or second, 1 - (1/2)^2.
        (2, "#{first_volley: true, cover: \"fortified\"}", true, ratio(3, 4), ratio(1, 2)),
        // Without first_fire a first volley is no different: the key is left out, since
        // given it is refused naming the switch (see below).
        (2, "#{cover: \"fortified\"}", false, ratio(1, 2), ratio(1, 2)),
    ] {
        let rs = if with_first_fire { ruleset(&["volley-example"]) } else { switched_off() };
        let host = grognard::script::Host::new(rs).unwrap();
        let firer = LINE.replace("stands: 3", &format!("stands: {stands}"));
        let code = format!("volley({firer}, {COLUMN}, {situation}).lost");
        let odds = host.odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap();
        assert!(odds.exact && odds.sampled.is_none(), "{situation}");
        for lost in 0..=stands {
            let expected = lost_by_hand(stands, &hit, &save, lost);
            assert_eq!(odds.distribution.probability(&Outcome::Number(lost as i64)), expected, "{situation} at {lost}");
        }
    }
    let host = grognard::script::Host::new(switched_off()).unwrap();
    let code = format!("volley({LINE}, {COLUMN}, #{{first_volley: true}}).lost");
    let err = host.eval(&mut Scope::new(), &code).unwrap_err().to_string();
    assert!(
        err.contains("volley(firer, target, situation): situation.first_volley is read only with the optional rule first_fire: add --with first_fire"),
        "{err}"
    );
    // The contract holds the keys and words the procedure reads: a misspelt cover was once
    // read as the open.
    let host = grognard::script::Host::new(ruleset(&["volley-example"])).unwrap();
    let err = host
        .eval(&mut Scope::new(), &format!("volley({LINE}, {COLUMN}, #{{cuver: \"cover\"}}).lost"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("situation has no key `cuver` (did you mean `cover`?); volley reads: range, cover, first_volley"),
        "{err}"
    );
}

#[test]
fn average_dice_hit_as_often_on_4_and_half_as_often_on_5() {
    // The average die (2,3,3,4,4,5) shows 4+ on 3 sides of 6, as a d6 does, but 5+ on 1
    // side, not 2: at long range a volley hits a sixth of the time. Saves stay d6.
    // Re-rolls add dice to the walk: two stands keep it whole (see the volley above).
    for (stands, situation, hit, save) in [
        (3, "#{cover: \"cover\"}", ratio(1, 2), ratio(1, 3)),
        (3, "#{range: \"long\"}", ratio(1, 6), ratio(1, 6)),
        // Misses re-rolled: a hit first or second, 1 - (5/6)^2.
        (2, "#{range: \"long\", first_volley: true}", ratio(11, 36), ratio(1, 6)),
    ] {
        let mut rs = ruleset(&["volley-example"]);
        rs.set_option("average_dice", true).unwrap();
        let host = grognard::script::Host::new(rs).unwrap();
        let firer = LINE.replace("stands: 3", &format!("stands: {stands}"));
        let code = format!("volley({firer}, {COLUMN}, {situation}).lost");
        let odds = host.odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap();
        assert!(odds.exact && odds.sampled.is_none() && odds.cut_off_at.is_none(), "{situation}");
        for lost in 0..=stands {
            let expected = lost_by_hand(stands, &hit, &save, lost);
            assert_eq!(odds.distribution.probability(&Outcome::Number(lost as i64)), expected, "{situation} at {lost}");
        }
    }
    // At the table the die is asked for, and shown, by its name.
    let mut rs = ruleset(&["volley-example"]);
    rs.set_option("average_dice", true).unwrap();
    let host = grognard::script::Host::new(rs).unwrap();
    host.set_dice(Box::new(Supplied::new([5, 2, 4, 6, 3])));
    let eval = host.eval(&mut Scope::new(), &format!("volley({LINE}, {COLUMN}, #{{}})")).unwrap();
    assert!(eval.trace.to_string().contains("3avg hits 4+: [5 2 4 → 2 hits] = 2"), "{}", eval.trace);
    host.set_dice(Box::new(Supplied::new([6])));
    let err = host.eval(&mut Scope::new(), &format!("volley({LINE}, {COLUMN}, #{{}})")).unwrap_err();
    assert!(err.to_string().contains("face 6 cannot be rolled on a avg (2,3,3,4,4,5)"), "{err}");
}

fn switched_off() -> grognard::rules::Ruleset {
    let mut rs = switched("volley-example", &[], &[]);
    rs.set_option("first_fire", false).unwrap();
    rs
}
