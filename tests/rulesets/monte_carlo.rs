//! The exact odds engine against a million sampled trials of each workload `cargo bench` times
//! (ignored by `cargo test`, for its time: `cargo test --release --test rulesets -- --ignored
//! a_million`). Each exact chance must lie within 3.29 standard errors of its sampled share
//! (a 99.9% interval, so that the thirty-odd outcomes together fail by chance about once in
//! thirty runs, not once in two), and every sampled outcome must be one the engine gives.

use grognard::dice::EnumLimits;
use grognard::dice::to_f64;
use num_traits::Zero;
use rhai::Scope;

use crate::support::{host, ruleset};
use grognard::script::Host;

const TRIALS: u64 = 1_000_000;

fn agrees_with_a_million_trials(host: &Host, code: &str) {
    let exact = host.odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap();
    assert!(exact.exact && exact.distribution.residual().is_zero(), "{code}: not exact");
    host.set_exact_engine(false);
    let sampled = host.odds(&Scope::new(), code, EnumLimits { max_outcomes: 1, max_depth: 64 }, (TRIALS, 11)).unwrap();
    host.set_exact_engine(true);
    assert!(!sampled.exact, "{code}: not sampled");
    for (outcome, p) in exact.distribution.iter() {
        let p = to_f64(&p);
        let seen = to_f64(&sampled.distribution.probability(outcome));
        let error = (p * (1.0 - p) / TRIALS as f64).sqrt();
        assert!((seen - p).abs() <= 3.29 * error, "{code}: {outcome}: exact {p}, sampled {seen}");
        println!("{outcome:<40} exact {p:.6}  sampled {seen:.6}  ({:+.2} standard errors)", (seen - p) / error);
    }
    for (outcome, _) in sampled.distribution.iter() {
        assert!(!exact.distribution.probability(outcome).is_zero(), "{code}: {outcome} sampled, not exact");
    }
}

#[test]
#[ignore = "a million trials of each workload: run in release with --ignored"]
fn a_million_trials_agree_with_the_exact_odds() {
    let ff = host(&["ff-napoleonic"]);
    let french = r#"unit(#{ name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column", markers: #{ fresh: true } })"#;
    let austrians =
        r#"unit(#{ name: "IR 4 Deutschmeister", nation: "austria", arm: "infantry", stands: 5, formation: "line" })"#;
    let british = r#"unit(#{ name: "1/52nd Foot", nation: "britain", arm: "infantry", stands: 6, formation: "line" })"#;
    for code in [
        format!("melee({french}, {austrians}, #{{ year: 1809 }}).result"),
        format!(r#"melee({french}, {british}, #{{ cover: "hedge", year: 1812 }}).result"#),
        format!("fire({british}, {french}, #{{fire_points: 6}}).result"),
    ] {
        agrees_with_a_million_trials(&ff, &code);
    }
    let volley = Host::new(ruleset(&["volley-example"])).unwrap();
    agrees_with_a_million_trials(
        &volley,
        r#"volley(unit(#{name: "A", arm: "infantry", stands: 6, formation: "line"}), unit(#{name: "B", arm: "infantry", stands: 40, formation: "line"}), #{cover: "cover"}).lost"#,
    );
    agrees_with_a_million_trials(
        &host(&["linear-warfare"]),
        r#"let day = card_day(#{runs: 2, sides: [#{name: "french", colour: "red", trumps: 1, policy: "first"}, #{name: "allies", colour: "black", trumps: 2, policy: "always"}]});
           let s = ""; for p in day.play_turn().phases { s += p[0]; } s"#,
    );
}
