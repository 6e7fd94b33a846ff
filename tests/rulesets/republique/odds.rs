//! Exact odds of rule 513 against an independent count: the attrition die over
//! several rounds for each die size, and a whole one-round assault (rule 506
//! firefight) with both sides' attrition dice.

use grognard::dice::EnumLimits;
use grognard::script::Outcome;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rhai::Scope;

use super::host_with;

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

fn binomial(n: u32, k: u32) -> i64 {
    (0..k).fold(1i64, |acc, i| acc * i64::from(n - i) / i64::from(i + 1))
}

#[test]
fn bases_lost_to_the_attrition_die_over_three_rounds_for_every_die_size() {
    let code = r#"let lost = 0; for i in 0..3 { if attrition_roll("A") { lost += 1; } } lost"#;
    for (size, sides) in [("d12", 12i64), ("d16", 16), ("d20", 20), ("d24", 24), ("d30", 30)] {
        let host = host_with(&["attrition_die"], &[("attrition_die_size", size)]);
        let limits = EnumLimits { max_depth: 3, max_outcomes: 30 * 30 * 30 + 1 };
        let odds = host.odds(&Scope::new(), code, limits, (100, 1)).unwrap();
        assert!(odds.exact, "{size}");
        assert!(odds.distribution.residual().is_zero(), "{size}");
        // Binomial: three independent rolls, each losing a base on one face in `sides`.
        let p = ratio(1, sides);
        let q = ratio(sides - 1, sides);
        let mut total = BigRational::zero();
        for k in 0..=3u32 {
            let expected = BigRational::from_integer(binomial(3, k).into())
                * num_traits::pow(p.clone(), k as usize)
                * num_traits::pow(q.clone(), (3 - k) as usize);
            assert_eq!(odds.distribution.probability(&Outcome::Number(k.into())), expected, "{size}: {k} bases");
            total += expected;
        }
        assert!(total.is_one());
    }
}

/// The house Assault Results, Attacker Advantage column, typed here.
fn aa(differential: i64) -> &'static str {
    match differential {
        ..=-5 => "attacker_routed",
        -4..=-2 => "attacker_repulsed",
        -1..=2 => "stalled",
        3..=5 => "defender_retreats",
        _ => "defender_routed",
    }
}

#[test]
fn a_firefight_round_with_both_attrition_dice_against_an_independent_count() {
    // Two even regiments: no modifier; with rule 506 exactly one round is fought.
    let code = r#"let a = unit(#{name: "A", arm: "infantry", stands: 4, formation: "line"});
        let d = unit(#{name: "D", arm: "infantry", stands: 4, formation: "line"});
        let r = assault(a, d, #{});
        r.attacker_lost * 10 + r.defender_lost"#;
    for (size, sides, face) in [("d12", 12i64, 12i64), ("d20", 20, 13)] {
        let host = host_with(&["attrition_die", "firefights"], &[("attrition_die_size", size)]);
        let limits = EnumLimits { max_depth: 4, max_outcomes: 100_000 };
        let odds = host.odds(&Scope::new(), code, limits, (100, 1)).unwrap();
        assert!(odds.exact && odds.distribution.residual().is_zero(), "{size}");
        // Count every face of the four dice: a routed side takes a base hit, and a side
        // whose attrition die shows the face loses one more base.
        let mut ways: std::collections::BTreeMap<i64, i64> = Default::default();
        for a in 1..=10 {
            for d in 1..=10 {
                for x in 1..=sides {
                    for y in 1..=sides {
                        let result = aa(a - d);
                        let a_lost = i64::from(result == "attacker_routed") + i64::from(x == face);
                        let d_lost = i64::from(result == "defender_routed") + i64::from(y == face);
                        *ways.entry(a_lost * 10 + d_lost).or_default() += 1;
                    }
                }
            }
        }
        let all = 100 * sides * sides;
        for (value, n) in &ways {
            assert_eq!(odds.distribution.probability(&Outcome::Number(*value)), ratio(*n, all), "{size}: {value}");
        }
    }
}
