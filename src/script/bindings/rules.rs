//! The ruleset for Rhai: `lookup` a table and read its `Cell` (`cell.value(..)`), `table_result`
//! and `results_of`, sum `modifiers` (the `Modifiers` type), `apply` a result, read `option`,
//! `interpretation` and `constant`, `note` for the trace, `has_any` and `any_marker`.

use rhai::{Array, Dynamic, Engine, EvalAltResult, FuncRegistration, ImmutableString, Map, NativeCallContext};

use super::unit::checked_marker;
use crate::rules::{Cell, Effects, LookupValue, RowKey};
use crate::script::condition::{any_marker, has_any};
use crate::script::error::fail;
use crate::script::handles::{LeaderRef, UnitRef};
use crate::script::modifier_engine::modifiers;
use crate::script::modifiers::Modifiers;
use crate::script::state::Shared;
use crate::script::trace::Step;

pub fn register(engine: &mut Engine, state: &Shared) {
    register_reading(engine);
    register_mods(engine);

    let st = state.clone();
    FuncRegistration::new("option").with_volatility(true).register_into_engine(
        engine,
        move |name: &str| -> Result<bool, Box<EvalAltResult>> {
            st.borrow().ruleset.option(name).map_err(|e| e.to_string().into())
        },
    );
    let st = state.clone();
    FuncRegistration::new("interpretation").with_volatility(true).register_into_engine(
        engine,
        move |name: &str| -> Result<String, Box<EvalAltResult>> {
            st.borrow().ruleset.interpretation(name).map(str::to_string).map_err(|e| e.to_string().into())
        },
    );
    // constant("struggle_cap"): a value the rules give by name (`constants:` in ruleset.yaml).
    let st = state.clone();
    FuncRegistration::new("constant")
        .with_volatility(true)
        .register_into_engine(engine, move |name: &str| constant(&st.borrow().ruleset, name));
    let st = state.clone();
    FuncRegistration::new("note").with_volatility(true).register_into_engine(engine, move |text: &str| note(&st, text));
    let st = state.clone();
    FuncRegistration::new("detail")
        .with_volatility(true)
        .register_into_engine(engine, move |text: &str| detail(&st, text));

    // has_any(situation.cover, ["woods", "hedge"]): a word, or any word of a list, among the given words.
    engine.register_fn("has_any", |value: Dynamic, words: Array| has_any(value, &words));
    engine.register_fn("any_marker", |items: Array, marker: &str| any_marker(&items, marker));
    register_lookup(engine, state);
    register_table_result(engine, state);
    register_modifiers(engine, state);
    register_apply(engine, state);
}

/// `constant(name)`: the value of a constant of the ruleset; an error naming the constants
/// there are when it has none of that name.
pub(crate) fn constant(ruleset: &crate::rules::Ruleset, name: &str) -> Result<Dynamic, Box<EvalAltResult>> {
    let Some(info) = ruleset.constants.get(name) else {
        let hint = crate::rules::did_you_mean(name, ruleset.constants.keys().map(String::as_str));
        let known: Vec<&str> = ruleset.constants.keys().map(String::as_str).collect();
        let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
        return fail(format!("ruleset `{}` has no constant `{name}`{hint}; its constants: {known}", ruleset.id));
    };
    Ok(to_dynamic(&info.value))
}

/// `note(text)`: words for the trace.
pub(crate) fn note(st: &Shared, text: &str) {
    st.borrow_mut().record(|| Step::Note { text: text.to_string() });
}

/// `detail(text)`: words for the whole trace (`:why`), not the brief one.
pub(crate) fn detail(st: &Shared, text: &str) {
    st.borrow_mut().record(|| Step::Detail { text: text.to_string() });
}

fn register_reading(engine: &mut Engine) {
    engine
        .register_type_with_name::<Cell>("Cell")
        .register_get("result", |r: &mut Cell| reading_result(r))
        .register_get("text", |r: &mut Cell| {
            r.result.as_ref().map_or_else(|| "no result".to_string(), |x| x.text.clone())
        })
        .register_get("effects", |r: &mut Cell| {
            r.result.as_ref().map_or_else(|| "no effect".to_string(), |x| x.effects.describe())
        })
        .register_get("band", |r: &mut Cell| r.band.as_deref().map_or(Dynamic::UNIT, |b| Dynamic::from(b.to_string())))
        .register_get("total", |r: &mut Cell| r.total)
        .register_get("read_as", |r: &mut Cell| r.read_as)
        .register_get("row", |r: &mut Cell| {
            r.row.as_deref().map_or(Dynamic::UNIT, |row| Dynamic::from(row.to_string()))
        })
        .register_get("table", |r: &mut Cell| r.table.to_string())
        .register_get("is_none", |r: &mut Cell| reading_is_none(r))
        // cell.value("fire_points"): a value the result gives (`values:` in the table file).
        .register_fn("value", |r: &mut Cell, name: &str| cell_value(r, name))
        .register_fn("to_string", |r: &mut Cell| {
            r.result.as_ref().map_or_else(|| "no result".to_string(), |x| x.id.clone())
        })
        .register_fn("to_debug", |r: &mut Cell| {
            r.result.as_ref().map_or_else(|| "no result".to_string(), |x| x.id.clone())
        });
}

/// `cell.is_none`: the chart reads nothing there.
pub(crate) fn reading_is_none(r: &Cell) -> bool {
    r.result.is_none()
}

/// A cell's `result`: the result's id, or `()` where the chart reads nothing.
pub(crate) fn reading_result(r: &Cell) -> Dynamic {
    r.result.as_ref().map_or(Dynamic::UNIT, |x| Dynamic::from(ImmutableString::from(x.id.as_str())))
}

fn register_mods(engine: &mut Engine) {
    engine
        .register_type_with_name::<Modifiers>("Modifiers")
        .register_get("total", |m: &mut Modifiers| m.total)
        .register_get("applied", |m: &mut Modifiers| {
            m.applied.iter().map(|id| Dynamic::from(id.to_string())).collect::<Array>()
        })
        .register_fn("halvings", |m: &mut Modifiers, q: &str| m.halvings(q))
        .register_fn("doublings", |m: &mut Modifiers, q: &str| m.double.get(q).copied().unwrap_or(0))
        .register_fn("adjust", |m: &mut Modifiers, q: &str, value: f64| m.adjust(q, value))
        .register_fn("adjust", |m: &mut Modifiers, q: &str, value: i64| m.adjust(q, value as f64))
        .register_fn("to_string", |m: &mut Modifiers| format!("{:+} from {}", m.total, m.list))
        .register_fn("to_debug", |m: &mut Modifiers| format!("{:+} from {}", m.total, m.list));
}

fn register_lookup(engine: &mut Engine, state: &Shared) {
    // A bands table read at a total.
    let st = state.clone();
    FuncRegistration::new("lookup")
        .with_volatility(true)
        .register_into_engine(engine, move |table: &str, total: i64| lookup_read(&st, table, None, total));
    // A grid read at a row (a number or a label) and a total.
    for by_label in [false, true] {
        let st = state.clone();
        let read = move |table: &str, row: RowKey, total: i64| lookup_read(&st, table, Some(row), total);
        let registration = FuncRegistration::new("lookup").with_volatility(true);
        if by_label {
            registration.register_into_engine(engine, move |table: &str, row: &str, total: i64| {
                read(table, RowKey::Label(row.to_string()), total)
            });
        } else {
            registration.register_into_engine(engine, move |table: &str, row: i64, total: i64| {
                read(table, RowKey::Number(row), total)
            });
        }
    }
    // A lookup by one key or several.
    for many in [false, true] {
        let st = state.clone();
        let read = move |table: &str, keys: Vec<String>| -> Result<Dynamic, Box<EvalAltResult>> {
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            lookup_keys(&st, table, &keys)
        };
        let registration = FuncRegistration::new("lookup").with_volatility(true);
        if many {
            registration.register_into_engine(engine, move |table: &str, keys: Array| {
                read(table, keys.iter().map(|k| k.to_string()).collect())
            });
        } else {
            registration.register_into_engine(engine, move |table: &str, key: &str| read(table, vec![key.to_string()]));
        }
    }
}

/// `lookup(table, keys)` of a lookup table: the value at those keys.
pub(crate) fn lookup_keys(st: &Shared, table: &str, keys: &[&str]) -> Result<Dynamic, Box<EvalAltResult>> {
    let mut st = st.borrow_mut();
    let t = st.ruleset.tables.get(table).ok_or_else(|| unknown_table(&st.ruleset, table))?;
    let value = t.read_lookup_words(keys).map(to_dynamic).map_err(|e| e.to_string())?;
    let id = t.id.clone();
    if let Some(seen) = &mut st.seen {
        seen.rows.insert((id, None));
    }
    Ok(value)
}

/// `lookup(table, total)` of a bands table, or `lookup(table, row, total)` of a grid: the cell read, and traced.
pub(crate) fn lookup_read(
    st: &Shared,
    table: &str,
    row: Option<RowKey>,
    total: i64,
) -> Result<Cell, Box<EvalAltResult>> {
    let mut st = st.borrow_mut();
    let t = st.ruleset.tables.get(table).ok_or_else(|| unknown_table(&st.ruleset, table))?;
    let reading = match &row {
        None => t.read_bands(total),
        Some(row) => t.read_grid(row, total),
    }
    .map_err(|e| e.to_string())?;
    // Only when tracing: naming the table and its source costs as much as the read.
    if st.tracing {
        let (title, source, near) = (t.title.clone(), t.credit(&reading), t.near(&reading));
        let luck = crate::script::luck::of_reading(&st.trace, &st.ruleset.dice, t, row.as_ref(), &reading);
        st.record(|| Step::Table { title, source, reading: Box::new(reading.clone()), near, luck });
    }
    if let Some(seen) = &mut st.seen {
        seen.rows.insert((reading.table.clone(), reading.row.clone()));
        if let Some(result) = &reading.result {
            seen.results.insert((reading.table.clone(), result.id.clone()));
        }
    }
    Ok(reading)
}

/// `table_result("fallen_leader", "captured")`: a table's result named by a rule
/// rather than read by a roll, as a cell that `apply` takes.
fn register_table_result(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    let results = state.clone();
    FuncRegistration::new("results_of")
        .with_volatility(true)
        .register_into_engine(engine, move |table: &str| results_of(&results, table));
    FuncRegistration::new("table_result").with_volatility(true).register_into_engine(
        engine,
        move |table: &str, id: &str| -> Result<Cell, Box<EvalAltResult>> {
            let mut st = st.borrow_mut();
            let t = st.ruleset.tables.get(table).ok_or_else(|| unknown_table(&st.ruleset, table))?;
            let Some(result) = t.results.get(id) else {
                let hint = crate::rules::did_you_mean(id, t.results.keys().map(String::as_str));
                return fail(format!("table `{table}` has no result `{id}`{hint}"));
            };
            let cell =
                Cell { table: t.id.clone(), row: None, total: 0, read_as: 0, band: None, result: Some(result.clone()) };
            if let Some(seen) = &mut st.seen {
                seen.rows.insert((cell.table.clone(), None));
                seen.results.insert((cell.table.clone(), id.to_string()));
            }
            Ok(cell)
        },
    );
}

/// `results_of(table)`: the ids of a table's results, in the order its chart prints them.
fn results_of(st: &Shared, table: &str) -> Result<Array, Box<EvalAltResult>> {
    let st = st.borrow();
    let t = st.ruleset.tables.get(table).ok_or_else(|| unknown_table(&st.ruleset, table))?;
    Ok(t.result_order.iter().map(|id| Dynamic::from(ImmutableString::from(id.as_str()))).collect())
}

fn unknown_table(ruleset: &crate::rules::Ruleset, table: &str) -> Box<EvalAltResult> {
    let hint = crate::rules::did_you_mean(table, ruleset.tables.keys().map(String::as_str));
    format!("ruleset `{}` has no table `{table}`{hint}", ruleset.id).into()
}

/// `cell.value(name)`: the value `name` of the result read; an error, with the names the
/// result gives, when it gives none of that name or the cell reads nothing.
pub(crate) fn cell_value(cell: &Cell, name: &str) -> Result<Dynamic, Box<EvalAltResult>> {
    let Some(result) = &cell.result else {
        return fail(format!(
            "cell.value(\"{name}\"): table `{}` reads nothing here (check `cell.is_none` first)",
            cell.table
        ));
    };
    match result.values.get(name) {
        Some(value) => Ok(to_dynamic(value)),
        None if result.values.is_empty() => fail(format!(
            "result `{}` of table `{}` gives no values; `{name}` is not one of them",
            result.id, cell.table
        )),
        None => {
            let hint = crate::rules::did_you_mean(name, result.values.keys().map(String::as_str));
            let known: Vec<&str> = result.values.keys().map(String::as_str).collect();
            fail(format!(
                "result `{}` of table `{}` gives no value `{name}`{hint}; it gives {}",
                result.id,
                cell.table,
                known.join(", ")
            ))
        }
    }
}

fn to_dynamic(value: &LookupValue) -> Dynamic {
    match value {
        LookupValue::Flag(b) => Dynamic::from(*b),
        LookupValue::Int(n) => Dynamic::from(*n),
        LookupValue::Number(x) => Dynamic::from(*x),
        LookupValue::Text(t) => Dynamic::from(ImmutableString::from(t.as_str())),
        LookupValue::Map(m) => Dynamic::from_map(m.iter().map(|(k, v)| (k.into(), to_dynamic(v))).collect()),
    }
}

fn register_modifiers(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    FuncRegistration::new("modifiers")
        .with_volatility(true)
        .register_into_engine(engine, move |ctx: NativeCallContext, list: &str, vars: Map| {
            modifiers(&ctx, &st, list, vars)
        });
}

fn register_apply(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    FuncRegistration::new("apply")
        .with_volatility(true)
        .register_into_engine(engine, move |unit: UnitRef, cell: Cell| apply_cell(&st, &unit, &cell));
    let st = state.clone();
    FuncRegistration::new("apply").with_volatility(true).register_into_engine(
        engine,
        move |leader: LeaderRef, cell: Cell| -> Result<(), Box<EvalAltResult>> {
            let Some(result) = cell.result.as_ref().filter(|r| !r.effects.is_empty()) else { return Ok(()) };
            apply_to_leader(&st, &leader, &result.effects)
        },
    );
    // apply(leader, #{removed: true, markers: #{captured: true}}): effects written in a script.
    let st = state.clone();
    FuncRegistration::new("apply").with_volatility(true).register_into_engine(
        engine,
        move |leader: LeaderRef, spec: Map| -> Result<(), Box<EvalAltResult>> {
            let effects = effects_from(&st, &|| format!("apply to `{}`", leader.name()), spec)?;
            apply_to_leader(&st, &leader, &effects)
        },
    );
    // Effects written in a script: apply(unit, #{order: "disordered", lose_stands: 1}).
    let st = state.clone();
    FuncRegistration::new("apply")
        .with_volatility(true)
        .register_into_engine(engine, move |unit: UnitRef, spec: Map| apply_spec(&st, &unit, spec));
}

/// `apply(unit, #{order: "disordered", lose_stands: 1})`: effects written in a script, traced.
pub(crate) fn apply_spec(st: &Shared, unit: &UnitRef, spec: Map) -> Result<(), Box<EvalAltResult>> {
    let effects = effects_from(st, &|| format!("apply to `{}`", unit.name()), spec)?;
    let lost = apply_to_unit(unit, &effects);
    st.borrow().count_stands_lost(unit, lost);
    st.borrow_mut().record(|| Step::Effect { subject: unit.name(), effects: effects.describe_applied(lost) });
    Ok(())
}

/// Effects written in a script as a map, each key checked, and each order and marker against
/// the ruleset's words and the marker's kind (`what` names the call, for an error).
fn effects_from(st: &Shared, what: &dyn Fn() -> String, spec: Map) -> Result<Effects, Box<EvalAltResult>> {
    let st = st.borrow();
    let vocabulary = &st.ruleset.vocabulary;
    let mut effects = Effects::default();
    for (key, value) in spec {
        match key.as_str() {
            "order" => {
                let order = value.to_string();
                if !crate::unit::Vocabulary::allows(&vocabulary.orders, &order) {
                    let hint = crate::rules::did_you_mean(&order, vocabulary.orders.iter().map(String::as_str));
                    return fail(format!("{}: `{order}` is not an order of this ruleset{hint}", what()));
                }
                effects.order = Some(order);
            }
            "lose_stands" => {
                let n = value.as_int().map_err(|t| format!("lose_stands is a whole number, not {t}"))?;
                effects.lose_stands = Some(n.clamp(0, i64::from(u32::MAX)) as u32);
            }
            "removed" => effects.removed = value.as_bool().map_err(|t| format!("removed is true or false, not {t}"))?,
            "markers" => {
                let markers = value.try_cast::<Map>().ok_or("markers is a map such as #{battery: \"damaged\"}")?;
                for (name, v) in markers {
                    let marker = checked_marker(vocabulary, &|| format!("{}, markers", what()), &name, v)?;
                    effects.markers.insert(name.to_string(), marker);
                }
            }
            "clear_markers" => {
                let names = value
                    .try_cast::<Array>()
                    .filter(|names| names.iter().all(Dynamic::is_string))
                    .ok_or("clear_markers is a list of marker names such as [\"alert\"]")?;
                effects.clear_markers = names.into_iter().map(|n| n.to_string()).collect();
                let unknown = effects
                    .clear_markers
                    .iter()
                    .find(|n| !vocabulary.markers.is_empty() && vocabulary.marker_kind(n).is_none());
                if let Some(name) = unknown {
                    let hint = crate::rules::did_you_mean(name, vocabulary.markers.iter().map(String::as_str));
                    return fail(format!("{}, clear_markers: `{name}` is not a marker of this ruleset{hint}", what()));
                }
            }
            other => {
                let known = ["order", "lose_stands", "markers", "clear_markers", "removed"];
                let hint = crate::rules::did_you_mean(other, known.into_iter());
                return fail(format!(
                    "`{other}` is not an effect{hint}; effects are order, lose_stands, markers, clear_markers and removed"
                ));
            }
        }
    }
    Ok(effects)
}

/// Effects on a leader: markers set and cleared, and removal from play, which also takes
/// him off the unit he was attached to, so that nothing counts a fallen or captured
/// leader as still with his men. A leader has no order and no stands.
fn apply_to_leader(st: &Shared, leader: &LeaderRef, effects: &Effects) -> Result<(), Box<EvalAltResult>> {
    if !effects.fit_a_leader() {
        return fail(format!(
            "{} is a leader: he has no order and no stands, only markers and removal ({})",
            leader.name(),
            effects.describe()
        ));
    }
    let detached_from = {
        let mut l = leader.edit();
        effects.apply_to_leader(&mut l).map(|unit| (unit, l.id.clone()))
    };
    let mut words = effects.describe();
    if let Some((unit_id, leader_id)) = detached_from {
        let unit = st.borrow().units.get(&unit_id).cloned();
        if let Some(unit) = unit {
            let mut u = unit.edit();
            u.leaders.retain(|id| *id != leader_id);
            words = format!("{words}; no longer with {}", u.name);
        }
    }
    st.borrow_mut().record(|| Step::Effect { subject: leader.name(), effects: words });
    Ok(())
}

/// `apply(unit, cell)`: a table result's effects on a unit, traced.
pub(crate) fn apply_cell(st: &Shared, unit: &UnitRef, cell: &Cell) {
    let Some(result) = &cell.result else { return };
    if result.effects.is_empty() {
        return;
    }
    let lost = apply_to_unit(unit, &result.effects);
    st.borrow().count_stands_lost(unit, lost);
    // Described only when tracing: the words cost more than the effect.
    st.borrow_mut().record(|| Step::Effect { subject: unit.name(), effects: result.effects.describe_applied(lost) });
}

/// Applies effects to a unit; the stands it actually lost.
fn apply_to_unit(unit: &UnitRef, effects: &Effects) -> u32 {
    effects.apply_to_unit(&mut unit.edit())
}
