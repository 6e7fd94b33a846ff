//! The helpers the ruleset tests share: loading a shipped ruleset, a host with
//! options and interpretations, running code with chosen dice, and reading back
//! what came out (a result's fields, a table's cells, a unit of the scope).

use std::path::PathBuf;

use grognard::dice::Supplied;
use grognard::rules::{LookupValue, Ruleset, Switches, Table, load};
use grognard::script::{Evaluation, Host, UnitRef};
use grognard::unit::Unit;
use num_bigint::BigInt;
use num_rational::BigRational;
use rhai::{Dynamic, Map, Scope};

// ---- rulesets and hosts ----------------------------------------------------------

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

/// A host for a shipped ruleset.
pub fn host(specs: &[&str]) -> Host {
    Host::new(ruleset(specs)).unwrap_or_else(|p| panic!("{specs:?} does not compile: {p:?}"))
}

/// linear-warfare with interpretations set and options switched on. The order,
/// `set` before `with`, is the one every linear-warfare test writes.
pub fn lw_rules(set: &[(&str, &str)], with: &[&str]) -> Ruleset {
    switched("linear-warfare", with, set)
}

/// A host for linear-warfare with interpretations set and options on.
pub fn lw_host(set: &[(&str, &str)], with: &[&str]) -> Host {
    Host::new(lw_rules(set, with)).unwrap_or_else(|p| panic!("linear-warfare does not compile: {p:?}"))
}

/// A host for linear-warfare as shipped: no option on, every interpretation at its default.
pub fn lw() -> Host {
    lw_host(&[], &[])
}

// ---- running code ----------------------------------------------------------------

/// Runs `code` with the dice given, in a fresh scope kept for inspection. Supplied
/// dice that run out fail the run, so a test also learns when a roll it did not
/// expect was made.
pub fn run(host: &Host, dice: &[i64], code: &str) -> (Evaluation, Scope<'static>) {
    host.set_dice(Box::new(Supplied::new(dice.to_vec())));
    let mut scope = Scope::new();
    let eval = host.eval(&mut scope, code).unwrap_or_else(|e| panic!("{code}\n{e}"));
    (eval, scope)
}

/// What a `run` gave, taken apart for the tests that read a result's fields and its
/// trace: the value as a map (empty when it is not one), the trace's lines, the scope.
pub fn map_and_trace((eval, scope): (Evaluation, Scope<'static>)) -> (Map, Vec<String>, Scope<'static>) {
    let lines = eval.trace.lines();
    (eval.value.try_cast::<Map>().unwrap_or_default(), lines, scope)
}

/// The error `code` ends with, run with the dice given.
pub fn fails(host: &Host, dice: &[i64], code: &str) -> String {
    host.set_dice(Box::new(Supplied::new(dice.to_vec())));
    match host.eval(&mut Scope::new(), code) {
        Ok(v) => panic!("{code} should fail, gave {:?}", v.value),
        Err(e) => e.to_string(),
    }
}

/// The value of `code`, with the dice the host has.
pub fn value(host: &Host, code: &str) -> Dynamic {
    host.eval(&mut Scope::new(), code).unwrap_or_else(|e| panic!("{code}: {e}")).value
}

/// The value of `code` as a map, with the dice the host has.
pub fn eval_map(host: &Host, code: &str) -> Map {
    value(host, code).cast::<Map>()
}

/// The error `code` ends with, as the error shows itself, with the dice the host has.
pub fn error(host: &Host, code: &str) -> String {
    match host.eval(&mut Scope::new(), code) {
        Ok(eval) => panic!("{code} gave {:?}", eval.value),
        Err(e) => e.to_string(),
    }
}

/// The error `code` ends with, in its debug form (the error's variant and every part
/// of it), with the dice the host has. The linear-warfare tests read this form; it
/// is kept apart from `error` so that what they check does not change.
pub fn error_debug(host: &Host, code: &str) -> String {
    match host.eval(&mut Scope::new(), code) {
        Ok(e) => panic!("`{code}` should fail, gave {:?}", e.value),
        Err(e) => format!("{e:?}"),
    }
}

// ---- reading results -------------------------------------------------------------

/// What a result's fields are read from: the map a procedure returned, or the
/// evaluation that returned it.
pub trait Fields {
    /// The field `key`, or the test fails.
    fn field(&self, key: &str) -> Dynamic;
}

impl Fields for Map {
    fn field(&self, key: &str) -> Dynamic {
        self.get(key).cloned().unwrap_or_else(|| panic!("no `{key}` in {self:?}"))
    }
}

impl Fields for Evaluation {
    fn field(&self, key: &str) -> Dynamic {
        let map = self.value.clone().try_cast::<Map>().unwrap_or_else(|| panic!("{:?} is not a map", self.value));
        map.field(key)
    }
}

/// So that a reference to a map or an evaluation reads as well as the thing itself.
impl<T: Fields + ?Sized> Fields for &T {
    fn field(&self, key: &str) -> Dynamic {
        (**self).field(key)
    }
}

/// A field of a result.
pub fn field(of: &impl Fields, key: &str) -> Dynamic {
    of.field(key)
}

/// A field of a result as a whole number.
pub fn int(of: &impl Fields, key: &str) -> i64 {
    let value = of.field(key);
    value.as_int().unwrap_or_else(|_| panic!("`{key}` is {value:?}, not a whole number"))
}

/// A field of a result as text (a word, or any value as it prints).
pub fn text(of: &impl Fields, key: &str) -> String {
    of.field(key).to_string()
}

/// The unit a script left in the variable `name`, as it stands now.
pub fn unit_in(scope: &Scope, name: &str) -> Unit {
    scope.get_value::<UnitRef>(name).unwrap_or_else(|| panic!("no unit `{name}`")).0.borrow().clone()
}

/// n/d as an exact chance.
pub fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

// ---- reading tables --------------------------------------------------------------

/// A table of a shipped ruleset (loaded afresh, so that a test sees the files as shipped).
pub fn table(rules: &str, id: &str) -> Table {
    ruleset(&[rules]).tables.get(id).unwrap_or_else(|| panic!("{rules} has no table `{id}`")).clone()
}

/// A table of linear-warfare as shipped.
pub fn lw_table(id: &str) -> Table {
    table("linear-warfare", id)
}

/// A lookup table read at `keys` (none for the whole table).
pub fn lookup(table: &Table, keys: &[&str]) -> LookupValue {
    let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    table.read_lookup(&keys).unwrap_or_else(|e| panic!("{}: {keys:?}: {e}", table.id)).clone()
}

/// A lookup cell that must be a whole number.
pub fn int_cell(table: &Table, keys: &[&str]) -> i64 {
    match lookup(table, keys) {
        LookupValue::Int(n) => n,
        other => panic!("{}{keys:?} is {other:?}, not a whole number", table.id),
    }
}

/// A lookup cell that must be a number, whole or not.
pub fn number_cell(table: &Table, keys: &[&str]) -> f64 {
    match lookup(table, keys) {
        LookupValue::Int(n) => n as f64,
        LookupValue::Number(x) => x,
        other => panic!("{}{keys:?} is {other:?}, not a number", table.id),
    }
}

/// A lookup cell that must be a word.
pub fn text_cell(table: &Table, keys: &[&str]) -> String {
    match lookup(table, keys) {
        LookupValue::Text(t) => t,
        other => panic!("{}{keys:?} is {other:?}, not a word", table.id),
    }
}

/// A bands table read at `total`: the result's id, or none.
pub fn read_bands(table: &Table, total: i64) -> Option<String> {
    table.read_bands(total).unwrap_or_else(|e| panic!("{e}")).result.map(|r| r.id.clone())
}
