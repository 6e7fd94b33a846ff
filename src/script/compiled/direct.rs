//! Getters and methods of grognard's own types, and a few of Rhai's on numbers, read
//! here instead of through Rhai's function lookup: the same functions the registered ones call.

use rhai::{Array, Dynamic, EvalAltResult, ImmutableString, Map, NativeCallContext};

use crate::dice::Roll;
use crate::rules::Cell;
use crate::rules::RowKey;
use crate::script::bindings::dice::{roll, roll_natural};
use crate::script::bindings::measure::placed;
use crate::script::bindings::rules::{
    apply_cell, apply_spec, detail, lookup_keys, lookup_read, note, reading_is_none, reading_result,
};
use crate::script::condition::has_any;
use crate::script::modifier_engine::modifiers;
use crate::script::modifiers::Modifiers;
use crate::script::properties::{
    LEADER_PROPERTIES, UNIT_PROPERTIES, leader_method, leader_property, unit_method, unit_property,
};
use crate::script::state::Shared;
use crate::script::value_compare::{Op as Comparison, compare};
use crate::script::{LeaderRef, UnitRef};

/// `base.name` for a unit, leader, roll, cell or modifiers; none for anything else (Rhai reads it).
pub fn property(base: &Dynamic, name: &str) -> Option<Dynamic> {
    if let Some(unit) = base.read_lock::<UnitRef>() {
        if name == "placed" {
            return Some(Dynamic::from(placed(&unit.0.borrow())));
        }
        if UNIT_PROPERTIES.contains(&name) {
            return Some(unit_property(&unit.0.borrow(), name).unwrap_or_default());
        }
        // A field the ruleset declares, or none (Rhai then says there is no such property).
        return unit_property(&unit.0.borrow(), name);
    }
    if let Some(leader) = base.read_lock::<LeaderRef>() {
        return LEADER_PROPERTIES
            .contains(&name)
            .then(|| leader_property(&leader.0.borrow(), name).unwrap_or_default());
    }
    if let Some(roll) = base.read_lock::<Roll>() {
        return match name {
            "total" => Some(Dynamic::from(roll.total)),
            "natural" => Some(Dynamic::from(roll_natural(&roll))),
            _ => None,
        };
    }
    if let Some(cell) = base.read_lock::<Cell>() {
        return match name {
            "result" => Some(reading_result(&cell)),
            "is_none" => Some(Dynamic::from(reading_is_none(&cell))),
            _ => None,
        };
    }
    if let Some(mods) = base.read_lock::<Modifiers>() {
        return (name == "total").then(|| Dynamic::from(mods.total));
    }
    None
}

/// `values[0].name(values[1..])` for the few methods read here; none for the rest.
pub fn method(name: &ImmutableString, values: &[Dynamic]) -> Option<Dynamic> {
    match (name.as_str(), values) {
        ("to_float", [x]) if x.is_int() => Some(Dynamic::from(x.as_int().ok()? as f64)),
        ("to_float", [x]) if x.is_float() => Some(x.clone()),
        ("floor", [x]) if x.is_float() => Some(Dynamic::from(x.as_float().ok()?.floor())),
        ("ceiling", [x]) if x.is_float() => Some(Dynamic::from(x.as_float().ok()?.ceil())),
        // Rhai's own test: past the whole numbers it raises its overflow error, worded by Rhai.
        ("to_int", [x]) if x.is_float() => {
            let x = x.as_float().ok()?;
            let outside = x > (i64::MAX as f64) || x < (i64::MIN as f64);
            (!outside).then(|| Dynamic::from(x.trunc() as i64))
        }
        ("halvings", [m, q]) => {
            let (mods, q) = (m.read_lock::<Modifiers>()?, q.read_lock::<ImmutableString>()?);
            Some(Dynamic::from(mods.halvings(&q)))
        }
        ("marker" | "has_marker", [u, m]) => {
            let m = m.read_lock::<ImmutableString>()?;
            if let Some(unit) = u.read_lock::<UnitRef>() {
                return unit_method(&unit.0.borrow(), name, &m);
            }
            leader_method(&u.read_lock::<LeaderRef>()?.0.borrow(), name, &m)
        }
        ("adjust", [m, q, x]) => {
            let (mods, q) = (m.read_lock::<Modifiers>()?, q.read_lock::<ImmutableString>()?);
            let x = if x.is_float() { x.as_float().ok()? } else { x.as_int().ok()? as f64 };
            Some(Dynamic::from(mods.adjust(&q, x)))
        }
        _ => None,
    }
}

/// Names of Rhai's functions that `builtin` reads.
pub const BUILTINS: &[&str] = &["contains", "max", "min"];

/// A few of Rhai's own functions: `value in list` (Rhai's `contains(list, value)`)
/// over values `compare` knows, item by item as Rhai's `==` finds them, and
/// `max`/`min` of two whole numbers; none for anything else (Rhai decides).
pub fn builtin(name: &str, values: &[Dynamic]) -> Option<Dynamic> {
    match (name, values) {
        ("contains", [list, value]) => {
            let list = list.read_lock::<Array>()?;
            for item in list.iter() {
                if compare(Comparison::Eq, item, value)? {
                    return Some(Dynamic::TRUE);
                }
            }
            Some(Dynamic::FALSE)
        }
        ("max", [a, b]) if a.is_int() && b.is_int() => Some(Dynamic::from(a.as_int().ok()?.max(b.as_int().ok()?))),
        ("min", [a, b]) if a.is_int() && b.is_int() => Some(Dynamic::from(a.as_int().ok()?.min(b.as_int().ok()?))),
        _ => None,
    }
}

/// Names of grognard's functions that `call` runs directly.
pub const CALLS: &[&str] = &["roll", "lookup", "apply", "modifiers", "has_any", "note", "detail"];

/// `name(values)` for the grognard functions a procedure calls most, called as
/// their registrations call them; none where the values are not of the types
/// those take (then Rhai finds the function, or words the error).
pub fn call(
    ctx: &NativeCallContext,
    state: &Shared,
    name: &str,
    values: &mut [Dynamic],
) -> Option<Result<Dynamic, Box<EvalAltResult>>> {
    // The words are read where they lie: a copy would cost as much as the read.
    let text = |v: &Dynamic| v.read_lock::<ImmutableString>().map(|s| s.clone());
    Some(match (name, &mut *values) {
        ("roll", [expr]) => roll(state, &text(expr)?, None).map(Dynamic::from),
        ("roll", [expr, label]) => roll(state, &text(expr)?, Some(&text(label)?)).map(Dynamic::from),
        ("lookup", [table, total]) if total.is_int() => {
            lookup_read(state, &text(table)?, None, total.as_int().ok()?).map(Dynamic::from)
        }
        ("lookup", [table, row, total]) if total.is_int() && (row.is_int() || row.is_string()) => {
            let row =
                if row.is_int() { RowKey::Number(row.as_int().ok()?) } else { RowKey::Label(text(row)?.to_string()) };
            lookup_read(state, &text(table)?, Some(row), total.as_int().ok()?).map(Dynamic::from)
        }
        ("lookup", [table, key]) if key.is_string() => lookup_keys(state, &text(table)?, &[&text(key)?]),
        // Keys that are all words; any other key is made a word by Rhai's registration.
        ("lookup", [table, keys]) if keys.is_array() => {
            let keys: smallvec::SmallVec<[ImmutableString; 4]> = keys
                .read_lock::<Array>()?
                .iter()
                .map(|k| k.read_lock::<ImmutableString>().map(|s| s.clone()))
                .collect::<Option<_>>()?;
            let keys: smallvec::SmallVec<[&str; 4]> = keys.iter().map(|k| k.as_str()).collect();
            lookup_keys(state, &text(table)?, &keys)
        }
        ("apply", [unit, cell]) if cell.is::<Cell>() => {
            let (unit, cell) = (unit.read_lock::<UnitRef>()?, cell.read_lock::<Cell>()?);
            apply_cell(state, &unit, &cell);
            Ok(Dynamic::UNIT)
        }
        ("apply", [unit, spec]) if spec.is_map() => {
            let unit = unit.read_lock::<UnitRef>()?;
            apply_spec(state, &unit, std::mem::take(spec).cast::<Map>()).map(|()| Dynamic::UNIT)
        }
        ("has_any", [value, words]) if words.is_array() => {
            let words = words.read_lock::<Array>()?;
            Ok(Dynamic::from(has_any(std::mem::take(value), &words)))
        }
        ("note", [text]) => {
            note(state, &text.read_lock::<ImmutableString>()?);
            Ok(Dynamic::UNIT)
        }
        ("detail", [text]) => {
            detail(state, &text.read_lock::<ImmutableString>()?);
            Ok(Dynamic::UNIT)
        }
        ("modifiers", [list, vars]) if vars.is_map() => {
            let list = text(list)?;
            modifiers(ctx, state, &list, std::mem::take(vars).cast::<Map>()).map(Dynamic::from)
        }
        _ => return None,
    })
}
