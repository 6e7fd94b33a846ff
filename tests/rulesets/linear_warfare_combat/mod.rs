//! Linear Warfare (seed 003), charges and fire: the Charge Combat, fire,
//! trophies, pursuit and skirmisher rules, their tables against the seed and
//! inventory text, traces, effects and exact odds.

mod charge;
mod charge_combat;
mod fire;
mod skirmishers;
mod tables;
mod trophies;

use grognard::dice::Supplied;
use grognard::rules::Ruleset;
use grognard::script::Host;
use rhai::{Map, Scope};

/// linear-warfare with interpretations set and options switched on.
pub fn lw(set: &[(&str, &str)], with: &[&str]) -> Ruleset {
    crate::switched("linear-warfare", with, set)
}

/// A host for linear-warfare with interpretations set and options on.
pub fn lw_host(set: &[(&str, &str)], with: &[&str]) -> Host {
    Host::new(lw(set, with)).unwrap_or_else(|p| panic!("linear-warfare does not compile: {p:?}"))
}

/// Runs `code` with the supplied dice: its value as a map, the trace and the scope.
pub fn run(host: &Host, dice: &[i64], code: &str) -> (Map, Vec<String>, Scope<'static>) {
    host.set_dice(Box::new(Supplied::new(dice.to_vec())));
    let mut scope = Scope::new();
    let eval = host.eval(&mut scope, code).unwrap_or_else(|e| panic!("{e}"));
    let lines = eval.trace.lines();
    (eval.value.try_cast::<Map>().unwrap_or_default(), lines, scope)
}

/// The unit a script left in `name`, as it stands now.
pub fn unit(scope: &Scope, name: &str) -> grognard::unit::Unit {
    crate::unit_in(scope, name)
}
