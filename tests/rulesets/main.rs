//! The shipped rulesets, through the library: every table against its seed,
//! the procedures' results, traces, effects and exact odds.

mod compiled;
mod contracts;
mod exact_engine;
mod ff_napoleonic;
mod fields_and_observations;
mod generated_programs;
mod linear_warfare;
mod linear_warfare_combat;
mod monte_carlo;
mod republique;
mod rule_values;
mod volley_example;

use std::path::PathBuf;

use grognard::rules::{Ruleset, Switches, load};
use grognard::script::{Host, UnitRef};
use grognard::unit::Unit;
use num_bigint::BigInt;
use num_rational::BigRational;
use rhai::Scope;

/// The folder of the shipped rulesets.
pub fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

/// A shipped ruleset (with overlays, by id or folder), loaded or the test fails.
pub fn ruleset(specs: &[&str]) -> Ruleset {
    let specs: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    match load(&specs, &rules_dir()) {
        Ok(loaded) => loaded.ruleset,
        Err(problems) => panic!("{specs:?} does not load: {:?}", problems.0),
    }
}

/// A shipped ruleset with options switched on (`with`) and interpretations chosen (`set`).
pub fn switched(id: &str, with: &[&str], set: &[(&str, &str)]) -> Ruleset {
    let mut rs = ruleset(&[id]);
    let switches = Switches {
        with: with.iter().map(|s| s.to_string()).collect(),
        set: set.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        ..Switches::default()
    };
    rs.apply(&switches).unwrap_or_else(|e| panic!("{id} {with:?} {set:?}: {e:?}"));
    rs
}

/// The unit a script left in the variable `name`, as it stands now.
pub fn unit_in(scope: &Scope, name: &str) -> Unit {
    scope.get_value::<UnitRef>(name).unwrap_or_else(|| panic!("no unit `{name}`")).0.borrow().clone()
}

/// n/d as an exact chance.
pub fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// A host for a shipped ruleset.
pub fn host(specs: &[&str]) -> Host {
    Host::new(ruleset(specs)).unwrap_or_else(|p| panic!("{specs:?} does not compile: {p:?}"))
}
