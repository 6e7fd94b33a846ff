//! `FieldOdds`: a field of the map a procedure returns (`attacker_lost`, or a path `attacker.stands`), counted apart by an odds walk.

use std::collections::BTreeSet;

use num_bigint::BigUint;
use rhai::Dynamic;

use super::error::ScriptError;
use super::outcome::{Outcome, ordered_rows};
use crate::dice::Distribution;
use crate::rules::Problem;

/// The distribution of one field of a procedure's returned map, filled run by run.
#[derive(Clone, Debug)]
pub struct FieldOdds {
    /// As asked: `attacker_lost`, or a path into maps, `attacker.stands`.
    pub name: String,
    path: Vec<String>,
    pub distribution: Distribution<Outcome>,
    /// The outcomes in the order to show them (as `ProcedureOdds::order`).
    pub order: Vec<Outcome>,
    /// Whether some run's result had the field: one that none has is refused, not shown as
    /// "(nothing)" (a misspelt field would otherwise read as a certain nothing).
    found: bool,
    /// Where the path first went missing: the name looked for and the keys of the map it was not in.
    missing: Option<(String, BTreeSet<String>)>,
}

impl FieldOdds {
    /// A field to count, by its name or path; refused when a part of the path is empty.
    pub fn new(name: &str) -> Result<FieldOdds, ScriptError> {
        let path: Vec<String> = name.split('.').map(str::to_string).collect();
        if path.iter().any(|p| p.trim().is_empty() || p.trim() != p) {
            return Err(Problem::general(
                "script::field",
                format!("`{name}` is not a field name: write one as `attacker_lost`, or a path as `attacker.stands`"),
            )
            .into());
        }
        Ok(FieldOdds {
            name: name.to_string(),
            path,
            distribution: Distribution::new(),
            order: Vec::new(),
            found: false,
            missing: None,
        })
    }

    /// Adds chance `num / den` to what the field holds in `value`, a run's result. A result
    /// without the field counts as nothing (what `r.field` reads in Rhai); one that is not a
    /// map (or a value on the path that is not) is an error naming it.
    pub fn add(&mut self, value: &Dynamic, num: &BigUint, den: &BigUint) -> Result<(), ScriptError> {
        let outcome = match self.read(value, 0)? {
            Some(outcome) => {
                self.found = true;
                outcome
            }
            None => Outcome::Nothing,
        };
        self.distribution.add_fraction(outcome, num, den);
        Ok(())
    }

    /// Adds chance `num / den` cut off (a run that did not finish has no field either).
    pub fn add_residual(&mut self, num: &BigUint, den: &BigUint) {
        self.distribution.add_residual_fraction(num, den);
    }

    /// The outcomes with their chances, in display order.
    pub fn rows(&self) -> Vec<(Outcome, num_rational::BigRational)> {
        ordered_rows(&self.distribution, &self.order)
    }

    /// The field's outcome in `value`, the part of the result reached after `depth` names of the path.
    fn read(&mut self, value: &Dynamic, depth: usize) -> Result<Option<Outcome>, ScriptError> {
        let Some(map) = value.read_lock::<rhai::Map>() else {
            return Err(self.not_a_map(value, depth));
        };
        let name = &self.path[depth];
        match map.get(name.as_str()) {
            Some(inner) if depth + 1 == self.path.len() => Ok(Some(Outcome::of(inner))),
            Some(inner) => {
                let inner = inner.clone();
                drop(map);
                self.read(&inner, depth + 1)
            }
            None => {
                if self.missing.is_none() {
                    let keys = map.keys().map(|k| k.to_string()).collect();
                    self.missing = Some((name.clone(), keys));
                }
                Ok(None)
            }
        }
    }

    fn not_a_map(&self, value: &Dynamic, depth: usize) -> ScriptError {
        let what = describe(value);
        let message = if depth == 0 {
            format!("--field {} reads a field of the map a procedure returns, but a result was {what}", self.name)
        } else {
            let at = self.path[..depth].join(".");
            format!("--field {}: `{at}` was {what}, not a map, so `{}` cannot be read", self.name, self.name)
        };
        Problem::general("script::field", message)
            .with_help("a procedure that returns `#{ result: ..., attacker_lost: ... }` has fields to count apart")
            .into()
    }

    /// An error when no result had the field, with the nearest name the results have.
    pub fn check_found(&self) -> Result<(), ScriptError> {
        if self.found {
            return Ok(());
        }
        let Some((name, keys)) = &self.missing else {
            // No run finished to have a result (all cut off): nothing to refuse.
            return Ok(());
        };
        let hint = crate::rules::did_you_mean(name, keys.iter().map(String::as_str));
        let list = keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
        let within = if self.path.len() == 1 { String::new() } else { format!(" (in --field {})", self.name) };
        let message = format!("no result has a field `{name}`{within}{hint}");
        let help = if keys.is_empty() { "the map was empty".to_string() } else { format!("its fields: {list}") };
        Err(Problem::general("script::field", message).with_help(help).into())
    }
}

/// A value as an error names it: `a number (3)`, `a word ("swept")`, `nothing`.
fn describe(value: &Dynamic) -> String {
    if value.is_unit() {
        "nothing (`()`)".to_string()
    } else if let Ok(n) = value.as_int() {
        format!("a number ({n})")
    } else if let Ok(x) = value.as_float() {
        format!("a number ({x:?})")
    } else if let Ok(b) = value.as_bool() {
        format!("{b}")
    } else if value.is_string() {
        format!("a word ({value:?})")
    } else if value.is_array() {
        "an array".to_string()
    } else {
        format!("a {} ({value})", value.type_name().rsplit("::").next().unwrap_or("value"))
    }
}
