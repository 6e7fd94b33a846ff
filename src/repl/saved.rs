//! A saved game: every variable of a session (units, leaders, lists and maps of them, plain values) and every unit and leader it knows, as YAML that `:load` reads back whole.
//!
//! Units and leaders are saved once each, by id, and variables name them by
//! id: two variables that held one unit hold one unit again after `:load`,
//! and a leader attached to a unit comes back attached though no variable
//! names him. A value that cannot be saved (a roll, a table cell, a
//! function...) refuses the save and is named, so nothing is lost without a word.

use std::collections::BTreeMap;

use rhai::{Dynamic, Scope};
use serde::{Deserialize, Serialize};

use super::session::DiceSetting;
use crate::rules::{Problem, SourceFile};
use crate::script::{LeaderRef, UnitRef};
use crate::unit::{Leader, Unit};

/// The version of the format written here; a file of another version is refused.
pub const FORMAT: u32 = 2;

/// How deep a saved value may nest (a list in a map in a list...): YAML is read
/// with a bounded depth, and what `:save` writes `:load` must read.
pub const MAX_DEPTH: usize = 48;

/// A session saved to a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Saved {
    /// Always `FORMAT`: a file from another version of grognard is refused, not misread.
    pub format: u32,
    pub rules: Vec<String>,
    #[serde(default)]
    pub with: Vec<String>,
    #[serde(default)]
    pub without: Vec<String>,
    #[serde(default)]
    pub set: BTreeMap<String, String>,
    pub seed: u64,
    pub dice: DiceSetting,
    pub trace: bool,
    /// Every unit the session knows, by id.
    #[serde(default)]
    pub units: BTreeMap<String, Unit>,
    /// Every leader the session knows, by id.
    #[serde(default)]
    pub leaders: BTreeMap<String, Leader>,
    /// Every variable, by name.
    #[serde(default)]
    pub variables: BTreeMap<String, Value>,
    /// The variables that are constants (`const x = ...`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constants: Vec<String>,
    /// Where the game stood in the sequence of play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<super::turn::Turn>,
    /// The ground each unit stood on (`:at`), by unit id.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub standing: super::game::Standing,
    /// The log of the game so far.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<super::game::Logged>,
}

/// A variable's value as saved: each kind tagged, so that it reads back as the same kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Value {
    /// `()`.
    Nothing,
    Bool(bool),
    Int(i64),
    Float(f64),
    Char(char),
    Text(String),
    List(Vec<Value>),
    Map(BTreeMap<String, Value>),
    /// A unit, by id.
    Unit(String),
    /// A leader, by id.
    Leader(String),
}

/// The session's variables and handles as saved: `Err` names every variable that cannot be.
pub fn variables(
    scope: &Scope,
    units: &mut BTreeMap<String, UnitRef>,
    leaders: &mut BTreeMap<String, LeaderRef>,
) -> Result<(BTreeMap<String, Value>, Vec<String>), String> {
    let mut saved = BTreeMap::new();
    let mut constants = Vec::new();
    let mut refused = Vec::new();
    // A name defined twice is shadowed: the last is the one the session reads.
    for (name, constant, value) in scope.iter() {
        match to_saved(&value, units, leaders, 0) {
            Ok(value) => {
                saved.insert(name.to_string(), value);
                constants.retain(|c| c != name);
                if constant {
                    constants.push(name.to_string());
                }
            }
            Err(why) => refused.push(format!("`{name}` ({why})")),
        }
    }
    if refused.is_empty() {
        Ok((saved, constants))
    } else {
        Err(format!(
            "cannot save {}: only units, leaders, numbers, text, true/false, () and lists and maps of them \
             are saved; remove or change {} (e.g. keep a roll's `.total`) and save again",
            refused.join(", "),
            if refused.len() == 1 { "it" } else { "them" }
        ))
    }
}

fn to_saved(
    value: &Dynamic,
    units: &mut BTreeMap<String, UnitRef>,
    leaders: &mut BTreeMap<String, LeaderRef>,
    depth: usize,
) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("nested more than {MAX_DEPTH} deep"));
    }
    if value.is_unit() {
        return Ok(Value::Nothing);
    }
    if let Ok(b) = value.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Ok(i) = value.as_int() {
        return Ok(Value::Int(i));
    }
    if let Ok(x) = value.as_float() {
        return Ok(Value::Float(x));
    }
    if let Ok(c) = value.as_char() {
        return Ok(Value::Char(c));
    }
    if let Some(text) = value.read_lock::<rhai::ImmutableString>() {
        return Ok(Value::Text(text.to_string()));
    }
    if let Some(unit) = value.read_lock::<UnitRef>() {
        let id = unit.0.borrow().id.clone();
        units.entry(id.clone()).or_insert_with(|| unit.clone());
        return Ok(Value::Unit(id));
    }
    if let Some(leader) = value.read_lock::<LeaderRef>() {
        let id = leader.0.borrow().id.clone();
        leaders.entry(id.clone()).or_insert_with(|| leader.clone());
        return Ok(Value::Leader(id));
    }
    if let Some(array) = value.read_lock::<rhai::Array>() {
        return array.iter().map(|v| to_saved(v, units, leaders, depth + 1)).collect::<Result<_, _>>().map(Value::List);
    }
    if let Some(map) = value.read_lock::<rhai::Map>() {
        let mut saved = BTreeMap::new();
        for (key, v) in map.iter() {
            saved.insert(key.to_string(), to_saved(v, units, leaders, depth + 1)?);
        }
        return Ok(Value::Map(saved));
    }
    Err(format!("a {}", friendly_type(value)))
}

/// What a player calls the kind of a value that is not saved.
fn friendly_type(value: &Dynamic) -> String {
    let name = value.type_name();
    let short = name.rsplit("::").next().unwrap_or(name);
    match short {
        "Roll" => "roll".to_string(),
        "Cell" => "table cell".to_string(),
        "Modifiers" => "modifier total".to_string(),
        "FnPtr" | "Fn" => "function".to_string(),
        "Vec<u8>" => "blob".to_string(),
        other => other.to_lowercase(),
    }
}

/// The scope that `variables` describes, with each unit and leader made once and shared.
pub fn scope_of(saved: &Saved) -> Result<(Scope<'static>, Vec<UnitRef>, Vec<LeaderRef>), String> {
    let units: BTreeMap<&str, UnitRef> =
        saved.units.iter().map(|(id, u)| (id.as_str(), UnitRef::new(u.clone()))).collect();
    let leaders: BTreeMap<&str, LeaderRef> =
        saved.leaders.iter().map(|(id, l)| (id.as_str(), LeaderRef::new(l.clone()))).collect();
    for (id, unit) in &saved.units {
        if unit.id != *id {
            return Err(format!("unit `{id}` is saved with the id `{}`", unit.id));
        }
        if let Some(missing) = unit.leaders.iter().find(|l| !leaders.contains_key(l.as_str())) {
            return Err(format!("unit `{id}` has leader `{missing}` attached, who is not in the file"));
        }
    }
    for (id, leader) in &saved.leaders {
        if leader.id != *id {
            return Err(format!("leader `{id}` is saved with the id `{}`", leader.id));
        }
    }
    let mut scope = Scope::new();
    for (name, value) in &saved.variables {
        let value = from_saved(value, &units, &leaders).map_err(|why| format!("variable `{name}`: {why}"))?;
        if saved.constants.contains(name) {
            scope.push_constant_dynamic(name.clone(), value);
        } else {
            scope.push_dynamic(name.clone(), value);
        }
    }
    if let Some(stray) = saved.constants.iter().find(|c| !saved.variables.contains_key(*c)) {
        return Err(format!("`{stray}` is listed as a constant, but there is no such variable"));
    }
    Ok((scope, units.into_values().collect(), leaders.into_values().collect()))
}

fn from_saved(
    value: &Value,
    units: &BTreeMap<&str, UnitRef>,
    leaders: &BTreeMap<&str, LeaderRef>,
) -> Result<Dynamic, String> {
    from_saved_with(value, &|id| units.get(id).cloned(), &|id| leaders.get(id).cloned())
}

/// A saved value made a Rhai value again, with units and leaders found by id.
pub fn from_saved_with(
    value: &Value,
    unit: &dyn Fn(&str) -> Option<UnitRef>,
    leader: &dyn Fn(&str) -> Option<LeaderRef>,
) -> Result<Dynamic, String> {
    Ok(match value {
        Value::Nothing => Dynamic::UNIT,
        Value::Bool(b) => Dynamic::from(*b),
        Value::Int(i) => Dynamic::from(*i),
        Value::Float(x) => Dynamic::from(*x),
        Value::Char(c) => Dynamic::from(*c),
        Value::Text(t) => Dynamic::from(t.clone()),
        Value::List(items) => {
            Dynamic::from_array(items.iter().map(|v| from_saved_with(v, unit, leader)).collect::<Result<_, _>>()?)
        }
        Value::Map(entries) => {
            let mut map = rhai::Map::new();
            for (k, v) in entries {
                map.insert(k.as_str().into(), from_saved_with(v, unit, leader)?);
            }
            Dynamic::from_map(map)
        }
        Value::Unit(id) => Dynamic::from(unit(id).ok_or_else(|| format!("no unit `{id}` in the file"))?),
        Value::Leader(id) => Dynamic::from(leader(id).ok_or_else(|| format!("no leader `{id}` in the file"))?),
    })
}

/// Reads a saved game, with room for as large a game as `:save` writes.
pub fn parse(file: &SourceFile) -> Result<Saved, Box<Problem>> {
    let saved: Saved = crate::rules::parse_yaml_with_budget(file, budget())?;
    if saved.format != FORMAT {
        return Err(Box::new(Problem::general(
            "repl::saved_format",
            format!("{} is a saved game of format {}; this grognard reads format {FORMAT}", file.name(), saved.format),
        )));
    }
    Ok(saved)
}

/// The YAML budget of a saved game: rule files' budget is made for files a person writes;
/// a saved battle of thousands of units is larger, and deeper by its nested variables.
fn budget() -> serde_saphyr::Budget {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_events = 200_000_000;
    budget.max_nodes = 100_000_000;
    budget.max_depth = 4 * MAX_DEPTH + 16;
    budget.max_reader_input_bytes = Some(2 * 1024 * 1024 * 1024);
    budget.max_total_scalar_bytes = 1024 * 1024 * 1024;
    budget
}
