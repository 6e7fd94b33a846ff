//! Exact odds against an independent count: rule 513's attrition die over several
//! rounds and in a one-round assault (rule 506 firefight) for each die size; rule
//! 413's shortage die with a fire; one-round assaults with rule 102's +3, rule 403's
//! markers and rule 501's +2.

use grognard::dice::EnumLimits;
use grognard::script::Outcome;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rhai::Scope;

use super::host_with;
use crate::support::ratio;

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
    for (size, sides, face) in
        [("d12", 12i64, 12i64), ("d16", 16, 13), ("d20", 20, 13), ("d24", 24, 13), ("d30", 30, 13)]
    {
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

/// The house Artillery Fire table, typed here: 0 no effect, 1 a morale hit, 2 a base hit, 3 two.
fn fire_band(total: i64) -> i64 {
    match total {
        ..=5 => 0,
        6 | 7 => 1,
        8 | 9 => 2,
        _ => 3,
    }
}

#[test]
fn a_fire_with_the_ammunition_shortage_die_against_an_independent_count() {
    // The result (0-3) times 10, plus 1 when the battery runs short of ammunition.
    let code = r#"let b = unit(#{name: "B", side: "french", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
        let t = unit(#{name: "T", side: "austrian", arm: "infantry", stands: 4, formation: "line"});
        let r = fire(b, t, #{});
        let n = switch r.result { "no_effect" => 0, "morale_hit" => 1, "base_hit" => 2, "two_base_hits" => 3 };
        n * 10 + if b.has_marker("ammo_shortage") { 1 } else { 0 }"#;
    // The d20 as printed, and the d30 when the shortage die follows a d30 attrition die.
    for (set, sides) in [(vec![], 20i64), (vec![("attrition_die_size", "d30")], 30)] {
        let with = if sides == 20 { vec!["ammunition_shortage"] } else { vec!["ammunition_shortage", "attrition_die"] };
        let host = host_with(&with, &set);
        let limits = EnumLimits { max_depth: 2, max_outcomes: 1_000 };
        let odds = host.odds(&Scope::new(), code, limits, (100, 1)).unwrap();
        assert!(odds.exact && odds.distribution.residual().is_zero(), "d{sides}");
        let mut ways: std::collections::BTreeMap<i64, i64> = Default::default();
        for die in 1..=10 {
            for ammo in 1..=sides {
                *ways.entry(fire_band(die) * 10 + i64::from(ammo == 13)).or_default() += 1;
            }
        }
        for (value, n) in &ways {
            assert_eq!(
                odds.distribution.probability(&Outcome::Number(*value)),
                ratio(*n, 10 * sides),
                "d{sides}: {value}"
            );
        }
        // Running short: one chance in the die's sides, whatever the fire did.
        let short: BigRational = ways
            .iter()
            .filter(|(v, _)| *v % 10 == 1)
            .map(|(v, _)| odds.distribution.probability(&Outcome::Number(*v)))
            .sum();
        assert_eq!(short, ratio(1, sides));
    }
}

/// The index of a result of the Assault Results table.
fn result_index(result: &str) -> i64 {
    ["attacker_routed", "attacker_repulsed", "stalled", "defender_retreats", "defender_routed"]
        .iter()
        .position(|r| *r == result)
        .unwrap() as i64
}

#[test]
fn one_round_assaults_with_crack_troops_markers_and_overlap_against_an_independent_count() {
    // Six bases (one crack, two markers) against four, a base of overlap on each flank,
    // unsupported; rule 506 keeps the assault to one round. Returns the result's index.
    // A rule's own inputs are given only with the rule on: off, they are refused.
    let code = r#"let a = unit(#{name: "A", arm: "infantry", stands: 6, formation: "line", grade: GRADE, markers: if option("attached_artillery") { #{attached_artillery: 2} } else { #{} }});
        let d = unit(#{name: "D", arm: "infantry", stands: 4, formation: "line"});
        let r = assault(a, d, if option("unopposed_overlap") { #{overlap: #{left: 1, right: 1}} } else { #{} });
        switch r.result { "attacker_routed" => 0, "attacker_repulsed" => 1, "stalled" => 2, "defender_retreats" => 3, "defender_routed" => 4 }"#;
    let cases: [(&[&str], &str, i64); 5] = [
        (&[], "trained", 0),
        (&["crack_troops"], "crack", 3),
        (&["attached_artillery"], "trained", 2),
        (&["unopposed_overlap"], "trained", 2),
        (&["crack_troops", "attached_artillery", "unopposed_overlap"], "crack", 7),
    ];
    for (with, grade, modifier) in cases {
        let mut options = vec!["firefights"];
        options.extend_from_slice(with);
        let host = host_with(&options, &[]);
        let limits = EnumLimits { max_depth: 2, max_outcomes: 1_000 };
        let odds = host.odds(&Scope::new(), &code.replace("GRADE", &format!("{grade:?}")), limits, (100, 1)).unwrap();
        assert!(odds.exact && odds.distribution.residual().is_zero(), "{with:?}");
        let mut ways = [0i64; 5];
        for a in 1..=10 {
            for d in 1..=10 {
                ways[result_index(aa(a + modifier - d)) as usize] += 1;
            }
        }
        for (i, n) in ways.iter().enumerate() {
            assert_eq!(
                odds.distribution.probability(&Outcome::Number(i as i64)),
                ratio(*n, 100),
                "{with:?}: result {i}"
            );
        }
    }
}
