//! The shipped rulesets, through the library: every table against its seed,
//! the procedures' results, traces, effects and exact odds.

mod ff_napoleonic;
mod linear_warfare;
mod linear_warfare_combat;
mod republique;

use std::path::PathBuf;

use grognard::rules::{Ruleset, load};
use grognard::script::Host;

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

/// A host for a shipped ruleset.
pub fn host(specs: &[&str]) -> Host {
    Host::new(ruleset(specs)).unwrap_or_else(|p| panic!("{specs:?} does not compile: {p:?}"))
}
