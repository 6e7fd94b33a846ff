//! Rhai values as JSON and as text, for `eval --json`, `odds --json` and printing. As text,
//! every control character a value holds is escaped (`present::escape`); as JSON, kept exact.

use rhai::Dynamic;
use serde_json::{Value, json};

use crate::dice::Roll;
use crate::rules::Cell;
use crate::script::{LeaderRef, Modifiers, UnitRef};

/// A Rhai value as JSON; units, leaders, rolls and table cells as their data.
pub fn dynamic_to_json(value: &Dynamic) -> Value {
    if value.is_unit() {
        return Value::Null;
    }
    if let Ok(b) = value.as_bool() {
        return Value::Bool(b);
    }
    if let Ok(n) = value.as_int() {
        return json!(n);
    }
    if let Ok(x) = value.as_float() {
        return json!(x);
    }
    if value.is_string() {
        return Value::String(value.to_string());
    }
    if let Some(unit) = value.clone().try_cast::<UnitRef>() {
        return serde_json::to_value(&*unit.0.borrow()).unwrap_or(Value::Null);
    }
    if let Some(leader) = value.clone().try_cast::<LeaderRef>() {
        return serde_json::to_value(&*leader.0.borrow()).unwrap_or(Value::Null);
    }
    if let Some(roll) = value.clone().try_cast::<Roll>() {
        return serde_json::to_value(&roll).unwrap_or(Value::Null);
    }
    if let Some(reading) = value.clone().try_cast::<Cell>() {
        return serde_json::to_value(&reading).unwrap_or(Value::Null);
    }
    if let Some(mods) = value.clone().try_cast::<Modifiers>() {
        return json!({ "list": mods.list, "total": mods.total, "halve": mods.halve, "double": mods.double, "applied": mods.applied });
    }
    // Read in place: a copy at each level of a nested value would cost its depth squared.
    if let Some(array) = value.read_lock::<rhai::Array>() {
        return Value::Array(array.iter().map(dynamic_to_json).collect());
    }
    if let Some(map) = value.read_lock::<rhai::Map>() {
        return Value::Object(map.iter().map(|(k, v)| (k.to_string(), dynamic_to_json(v))).collect());
    }
    Value::String(value.to_string())
}

/// A Rhai value as a player reads it: maps as `key: value` lists, cells by their result.
pub fn display(value: &Dynamic) -> String {
    let mut text = String::new();
    display_into(value, &mut text);
    // A unit's name, a map's key, a cell's result: any of them came from a script or a rule file.
    super::escape::escape_owned(text)
}

/// `display`, written onto `text`: maps and arrays are read in place and written straight
/// onto the one text, so printing a nested value costs memory in proportion to what it prints.
fn display_into(value: &Dynamic, text: &mut String) {
    if let Some(map) = value.read_lock::<rhai::Map>() {
        text.push_str("#{");
        for (i, (k, v)) in map.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            text.push_str(k);
            text.push_str(": ");
            display_into(v, text);
        }
        text.push('}');
        return;
    }
    if let Some(array) = value.read_lock::<rhai::Array>() {
        text.push('[');
        for (i, v) in array.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            display_into(v, text);
        }
        text.push(']');
        return;
    }
    text.push_str(&display_leaf(value));
}

/// A value that holds no others, as `display` writes it.
fn display_leaf(value: &Dynamic) -> String {
    if value.is_string() {
        return format!("{:?}", value.to_string());
    }
    if let Some(unit) = value.clone().try_cast::<UnitRef>() {
        return unit.to_string();
    }
    if let Some(leader) = value.clone().try_cast::<LeaderRef>() {
        return leader.to_string();
    }
    if let Some(roll) = value.clone().try_cast::<Roll>() {
        return roll.to_string();
    }
    if let Some(reading) = value.clone().try_cast::<Cell>() {
        return match &reading.result {
            Some(result) => format!("{} ({})", result.id, result.text),
            None => "no result".to_string(),
        };
    }
    if let Some(mods) = value.clone().try_cast::<Modifiers>() {
        return format!("{:+} from {}", mods.total, mods.list);
    }
    value.to_string()
}
