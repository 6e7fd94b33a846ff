//! `contract_check`: what a call of an entry procedure passed, held to its contract
//! (`rules::contract`), so that a misspelt situation key or word is an error, not a
//! modifier quietly left out.

use rhai::{Array, Dynamic, Engine, EvalAltResult, FuncRegistration, ImmutableString, Map, Position};

use crate::rules::contract::{Contract, Key, Kind};
use crate::rules::did_you_mean;
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
            check_call(contract, &args).map_err(|breach| {
                EvalAltResult::ErrorRuntime(Dynamic::from(ContractBreach(breach)), Position::NONE).into()
            })
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

/// Whether `args` are what `contract` asks for; else the first mistake, worded for a player.
pub fn check_call(contract: &Contract, args: &[Dynamic]) -> Result<(), String> {
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
            check_situation(contract, &param.name, &map)?;
            continue;
        }
        check_value(param, value).map_err(|why| format!("{}: `{}` {why}", contract.signature(), param.name))?;
    }
    Ok(())
}

/// What a parameter wants, for an error: a situation names the keys it may hold.
fn wanted(contract: &Contract, param: &Key) -> String {
    if param.kind != Kind::Situation {
        return param.kind.wanted().to_string();
    }
    match contract.situation.first() {
        None => "a map, #{} (it takes no keys)".to_string(),
        Some(first) => format!("a map such as #{{{}: ...}} (its keys: {})", first.name, key_names(contract)),
    }
}

fn key_names(contract: &Contract) -> String {
    contract.situation.iter().map(|k| k.name.as_str()).collect::<Vec<_>>().join(", ")
}

fn check_situation(contract: &Contract, param: &str, map: &Map) -> Result<(), String> {
    for (key, value) in map {
        check_situation_key(contract, param, key, Some(value))?;
    }
    Ok(())
}

/// One key of a situation, and its value when known (`check` reads literal maps).
pub fn check_situation_key(contract: &Contract, param: &str, key: &str, value: Option<&Dynamic>) -> Result<(), String> {
    let Some(spec) = contract.situation_key(key) else {
        let hint = did_you_mean(key, contract.situation.iter().map(|k| k.name.as_str()));
        let known = if contract.situation.is_empty() { "none".to_string() } else { key_names(contract) };
        return Err(format!(
            "{}: {param} has no key `{key}`{hint}; {} reads: {known}",
            contract.signature(),
            contract.name
        ));
    };
    match value {
        // () is the same as leaving the key out.
        Some(value) if !value.is_unit() => {
            check_value(spec, value).map_err(|why| format!("{}: {param}.{key} {why}", contract.signature()))
        }
        _ => Ok(()),
    }
}

/// A parameter's value (not a situation's), worded as a call's error.
pub fn check_param(contract: &Contract, param: &Key, value: &Dynamic) -> Result<(), String> {
    if value.is_unit() {
        return Ok(());
    }
    check_value(param, value).map_err(|why| format!("{}: `{}` {why}", contract.signature(), param.name))
}

/// Whether `value` is of `key`'s kind (and one of its words); else why not.
fn check_value(key: &Key, value: &Dynamic) -> Result<(), String> {
    let fits = match key.kind {
        Kind::Unit => value.is::<UnitRef>(),
        Kind::Leader => value.is::<LeaderRef>(),
        Kind::Units => value.read_lock::<Array>().is_some_and(|a| a.iter().all(|u| u.is::<UnitRef>())),
        Kind::Leaders => value.read_lock::<Array>().is_some_and(|a| a.iter().all(|l| l.is::<LeaderRef>())),
        Kind::Number => value.is_int() || value.is_float(),
        Kind::Int => value.is_int(),
        Kind::Bool => value.is_bool(),
        Kind::Text => value.is_string(),
        Kind::List => value.is_array(),
        Kind::Map | Kind::Situation => value.is_map(),
        Kind::Any => true,
        Kind::Word => return check_word(key, value),
        Kind::Words => {
            if let Some(list) = value.read_lock::<Array>() {
                return list.iter().try_for_each(|w| check_word(key, w));
            }
            return check_word(key, value);
        }
    };
    if fits { Ok(()) } else { Err(format!("is {}, not {}", key.kind.wanted(), describe(value))) }
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
    } else if value.is::<UnitRef>() {
        format!("the unit {value}")
    } else if value.is::<LeaderRef>() {
        format!("the leader {value}")
    } else if value.is_map() {
        "a map".to_string()
    } else if value.is_array() {
        "a list".to_string()
    } else {
        format!("{} {value}", value.type_name())
    }
}
