//! `contract_check`: what a call of an entry procedure passed, held to its contract
//! (`rules::contract`), so that a misspelt situation key or word is an error, not a
//! modifier quietly left out.

use rhai::{Array, Dynamic, Engine, EvalAltResult, FuncRegistration, ImmutableString, Map, Position};

use crate::rules::contract::{Contract, Key, Kind};
use crate::rules::option_inputs::Brought;
use crate::rules::{Ruleset, did_you_mean};
use crate::script::handles::{LeaderRef, UnitRef};
use crate::script::state::Shared;

/// The name of the check the host puts first in every contracted procedure.
pub const CHECK: &str = "contract_check";

pub(super) fn register(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    // Not volatile: it reads only its arguments and the contracts, which do not change.
    FuncRegistration::new(CHECK).register_into_engine(
        engine,
        move |name: ImmutableString, args: Array| -> Result<(), Box<EvalAltResult>> {
            let st = st.borrow();
            let Some(contract) = st.ruleset.contracts.get(name.as_str()) else { return Ok(()) };
            check_call(contract, &args, Some(Live { ruleset: &st.ruleset, procedure: &contract.name })).map_err(
                |breach| EvalAltResult::ErrorRuntime(Dynamic::from(ContractBreach(breach)), Position::NONE).into(),
            )
        },
    );
}

/// A call that broke its procedure's contract, as a Rhai error carries it: the host
/// points at the call, not inside the procedure.
#[derive(Clone, Debug)]
pub struct ContractBreach(pub String);

impl std::fmt::Display for ContractBreach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a check at call time knows that `check` does not: the switches as they stand,
/// and the procedure called (an option's words may be refused in some procedures only).
#[derive(Clone, Copy)]
pub struct Live<'a> {
    pub ruleset: &'a Ruleset,
    pub procedure: &'a str,
}

/// Whether `args` are what `contract` asks for under `settings`; else the first mistake,
/// worded for a player with the path to it (`situation.supported.left`).
pub fn check_call(contract: &Contract, args: &[Dynamic], ruleset: Option<Live<'_>>) -> Result<(), String> {
    let at = |path: &str, why: String| format!("{}: {} {why}", contract.signature(), shown(path));
    for (param, value) in contract.params.iter().zip(args) {
        // A situation given as () would fail at its first key: it is refused here, unless optional.
        if value.is_unit() {
            if param.optional {
                continue;
            }
            return Err(format!(
                "{}: `{}` is missing (it is {}: {})",
                contract.signature(),
                param.name,
                wanted(contract, param),
                param.text
            ));
        }
        if param.kind == Kind::Situation {
            let Some(map) = value.read_lock::<Map>() else {
                return Err(format!(
                    "{}: `{}` is {}, not {}",
                    contract.signature(),
                    param.name,
                    wanted(contract, param),
                    describe(value)
                ));
            };
            for (key, value) in map.iter() {
                check_situation_key(contract, &param.name, key, Some(value), ruleset)?;
            }
            continue;
        }
        check_value(param, value, &param.name, ruleset).map_err(|(path, why)| at(&path, why))?;
    }
    Ok(())
}

/// A path as an error shows it: a parameter alone in backticks (`` `battery` ``), a
/// path into it as written (`first[0].range`, `situation.overlap.left`).
pub fn shown(path: &str) -> String {
    if path.contains(['.', '[']) { path.to_string() } else { format!("`{path}`") }
}

/// What a parameter wants, for an error: a situation names the keys it may hold.
fn wanted(contract: &Contract, param: &Key) -> String {
    if param.kind != Kind::Situation {
        return param.kind.wanted().to_string();
    }
    match contract.situation.first() {
        None => "a map, #{} (it takes no keys)".to_string(),
        Some(first) => format!("a map such as #{{{}: ...}} (its keys: {})", first.name, names(&contract.situation)),
    }
}

fn names(keys: &[Key]) -> String {
    if keys.is_empty() {
        return "none".to_string();
    }
    keys.iter().map(|k| k.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// One key of a situation, and its value when known (`check` reads literal maps).
pub fn check_situation_key(
    contract: &Contract,
    param: &str,
    key: &str,
    value: Option<&Dynamic>,
    ruleset: Option<Live<'_>>,
) -> Result<(), String> {
    let Some(spec) = contract.situation_key(key) else {
        let hint = did_you_mean(key, contract.situation.iter().map(|k| k.name.as_str()));
        return Err(format!(
            "{}: {param} has no key `{key}`{hint}; {} reads: {}",
            contract.signature(),
            contract.name,
            names(&contract.situation)
        ));
    };
    match value {
        // () is the same as leaving the key out.
        Some(value) if !value.is_unit() => check_value(spec, value, &format!("{param}.{key}"), ruleset)
            .map_err(|(path, why)| format!("{}: {path} {why}", contract.signature())),
        _ => Ok(()),
    }
}

/// A key of a declared map that is not among its keys: why, naming the keys it has.
pub fn unknown_key(map: &Key, key: &str) -> String {
    let keys = map.keys.as_deref().unwrap_or_default();
    let hint = did_you_mean(key, keys.iter().map(|k| k.name.as_str()));
    format!("has no key `{key}`{hint}; it reads: {}", names(keys))
}

/// Whether `value`, found at `path`, is of `key`'s kind (one of its words, a map of its
/// keys, a list of its items, a unit with no input of a switched-off option); else the
/// path to the first mistake inside it and why. Without a ruleset (`check`, which does
/// not know the switches a script will run under) options are not looked at.
pub fn check_value(key: &Key, value: &Dynamic, path: &str, ruleset: Option<Live<'_>>) -> Result<(), (String, String)> {
    let fail = |why: String| Err((path.to_string(), why));
    if let (Some(option), Some(live)) = (&key.option, ruleset)
        && !live.ruleset.settings.options.get(option).copied().unwrap_or(false)
    {
        return fail(format!("is read only with the optional rule {option}: add --with {option}"));
    }
    let fits = match key.kind {
        Kind::Unit => {
            if value.is::<UnitRef>() {
                return inside_any(value, path, ruleset);
            }
            false
        }
        Kind::Leader => {
            if value.is::<LeaderRef>() {
                return inside_any(value, path, ruleset);
            }
            false
        }
        Kind::Units | Kind::Leaders => {
            let units = key.kind == Kind::Units;
            let fits = value
                .read_lock::<Array>()
                .is_some_and(|a| a.iter().all(|v| if units { v.is::<UnitRef>() } else { v.is::<LeaderRef>() }));
            if !fits {
                return fail(wrong(key, value));
            }
            return inside_any(value, path, ruleset);
        }
        Kind::Number => value.is_int() || value.is_float(),
        Kind::Int => value.is_int(),
        Kind::Bool => value.is_bool(),
        Kind::Text => value.is_string(),
        Kind::List => {
            let Some(list) = value.read_lock::<Array>() else { return fail(wrong(key, value)) };
            for (i, item) in list.iter().enumerate() {
                let at = format!("{path}[{i}]");
                match &key.items {
                    Some(items) if !item.is_unit() => check_value(items, item, &at, ruleset)?,
                    _ => inside_any(item, &at, ruleset)?,
                }
            }
            return Ok(());
        }
        Kind::Map | Kind::Situation => {
            let Some(map) = value.read_lock::<Map>() else { return fail(wrong(key, value)) };
            for (name, item) in map.iter() {
                let at = format!("{path}.{name}");
                match (&key.keys, key.key(name)) {
                    (Some(_), None) => return fail(unknown_key(key, name)),
                    // () is the same as leaving the key out.
                    (_, Some(spec)) if !item.is_unit() => check_value(spec, item, &at, ruleset)?,
                    _ => inside_any(item, &at, ruleset)?,
                }
            }
            return Ok(());
        }
        Kind::Any => return inside_any(value, path, ruleset),
        Kind::Word => return check_word(key, value).or_else(fail),
        Kind::Words => {
            if let Some(list) = value.read_lock::<Array>() {
                return list.iter().try_for_each(|w| check_word(key, w)).or_else(fail);
            }
            return check_word(key, value).or_else(fail);
        }
    };
    if fits { Ok(()) } else { fail(wrong(key, value)) }
}

/// Anything is taken, but a unit or leader inside it still may not carry an input of a
/// switched-off option (`attackers` is a unit or a list of units).
fn inside_any(value: &Dynamic, path: &str, ruleset: Option<Live<'_>>) -> Result<(), (String, String)> {
    let Some(ruleset) = ruleset else { return Ok(()) };
    if let Some(unit) = value.read_lock::<UnitRef>() {
        return switched_off(&unit, ruleset).map_or(Ok(()), |why| Err((path.to_string(), why)));
    }
    if let Some(leader) = value.read_lock::<LeaderRef>() {
        return switched_off_leader(&leader, ruleset).map_or(Ok(()), |why| Err((path.to_string(), why)));
    }
    if let Some(list) = value.read_lock::<Array>() {
        for (i, item) in list.iter().enumerate() {
            if item.is::<UnitRef>() || item.is::<LeaderRef>() {
                inside_any(item, &format!("{path}[{i}]"), Some(ruleset))?;
            }
        }
    }
    Ok(())
}

fn wrong(key: &Key, value: &Dynamic) -> String {
    format!("is {}, not {}", key.kind.wanted(), describe(value))
}

/// The first input of a switched-off option that `unit` carries, worded as an error.
fn switched_off(unit: &UnitRef, ruleset: Live<'_>) -> Option<String> {
    let unit = unit.0.borrow();
    refused(ruleset, |b| b.in_unit(&unit)).map(|why| format!("({}): {why}", unit.name))
}

fn switched_off_leader(leader: &LeaderRef, ruleset: Live<'_>) -> Option<String> {
    let leader = leader.0.borrow();
    refused(ruleset, |b| b.in_leader(&leader)).map(|why| format!("({}): {why}", leader.name))
}

fn refused(live: Live<'_>, found: impl Fn(&Brought) -> Option<String>) -> Option<String> {
    for (name, option) in &live.ruleset.options {
        if option.brings.is_empty() || live.ruleset.settings.options.get(name).copied().unwrap_or(false) {
            continue;
        }
        if let Some(what) = option.brings.iter().filter(|b| b.refused_in(live.procedure)).find_map(&found) {
            return Some(format!("{what} is read only with the optional rule {name}: add --with {name}"));
        }
    }
    None
}

fn check_word(key: &Key, value: &Dynamic) -> Result<(), String> {
    let Some(word) = value.read_lock::<ImmutableString>() else {
        return Err(format!("is {}, not {}", key.kind.wanted(), describe(value)));
    };
    if key.words.is_empty() || key.words.contains(word.as_str()) {
        return Ok(());
    }
    let hint = did_you_mean(&word, key.words.iter().map(String::as_str));
    let words: Vec<&str> = key.words.iter().map(String::as_str).collect();
    Err(format!("has no word \"{}\"{hint}; its words are {}", word.as_str(), words.join(", ")))
}

/// `the number 3`, `the text "yes"`: a value as an error shows it.
fn describe(value: &Dynamic) -> String {
    if value.is_string() {
        format!("the text \"{value}\"")
    } else if value.is_int() || value.is_float() {
        format!("the number {value}")
    } else if value.is_bool() {
        format!("{value}")
    } else if let Some(unit) = value.read_lock::<UnitRef>() {
        format!("the unit {}", unit.name())
    } else if let Some(leader) = value.read_lock::<LeaderRef>() {
        format!("the leader {}", leader.name())
    } else if value.is_map() {
        "a map".to_string()
    } else if value.is_array() {
        "a list".to_string()
    } else {
        format!("{} {value}", value.type_name())
    }
}
