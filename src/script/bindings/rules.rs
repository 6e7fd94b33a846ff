//! The ruleset for Rhai: `lookup` a table, sum `modifiers`, `apply` a result, read `option` and `interpretation`.

use std::collections::BTreeMap;
use std::rc::Rc;

use rhai::{Array, Dynamic, Engine, EvalAltResult, FuncRegistration, ImmutableString, Map, NativeCallContext, Scope};

use super::fail;
use super::unit::marker_from;
use crate::rules::{Effects, GroupRule, LookupValue, ModEffect, ModifierList, Pick, Reading, RowKey};
use crate::script::condition::Condition;
use crate::script::handles::{LeaderRef, UnitRef};
use crate::script::state::{DiceMode, Shared};
use crate::script::trace::Step;
use crate::unit::Marker;

/// The names a `when:` condition may use; each is `()` unless the caller gives it.
pub const CONDITION_NAMES: [&str; 9] =
    ["firer", "target", "attacker", "defender", "unit", "enemy", "leader", "situation", "roll"];

/// The value of each of the `CONDITION_NAMES` in a `modifiers` call, in that order.
pub type ConditionValues<'a> = [&'a Dynamic; CONDITION_NAMES.len()];

/// What a modifier list came to: the sum of added values and the halvings and doublings of each quantity.
#[derive(Clone, Debug, Default)]
pub struct Mods {
    pub list: Rc<str>,
    pub total: i64,
    pub halve: BTreeMap<String, i64>,
    pub double: BTreeMap<String, i64>,
    pub applied: Vec<Rc<str>>,
}

impl Mods {
    /// How many of the modifiers halve `quantity`.
    pub fn halvings(&self, quantity: &str) -> i64 {
        self.halve.get(quantity).copied().unwrap_or(0)
    }

    /// `value` halved and doubled as the modifiers say.
    pub fn adjust(&self, quantity: &str, value: f64) -> f64 {
        let times = self.double.get(quantity).copied().unwrap_or(0) - self.halvings(quantity);
        value * 2f64.powi(times as i32)
    }
}

pub fn register(engine: &mut Engine, state: &Shared) {
    register_reading(engine);
    register_mods(engine);

    let st = state.clone();
    FuncRegistration::new("option")
        .with_volatility(true)
        .register_into_engine(engine, move |name: &str| -> Result<bool, Box<EvalAltResult>> {
            st.borrow().ruleset.option(name).map_err(Into::into)
        });
    let st = state.clone();
    FuncRegistration::new("interpretation").with_volatility(true).register_into_engine(
        engine,
        move |name: &str| -> Result<String, Box<EvalAltResult>> {
            st.borrow().ruleset.interpretation(name).map(str::to_string).map_err(Into::into)
        },
    );
    let st = state.clone();
    FuncRegistration::new("note").with_volatility(true).register_into_engine(engine, move |text: &str| note(&st, text));

    // has_any(situation.cover, ["woods", "hedge"]): a word, or any word of a list, among the given words.
    engine.register_fn("has_any", |value: Dynamic, words: Array| has_any(value, &words));
    engine.register_fn("any_marker", |items: Array, marker: &str| any_marker(&items, marker));
    register_lookup(engine, state);
    register_table_result(engine, state);
    register_modifiers(engine, state);
    register_apply(engine, state);
}

/// `note(text)`: words for the trace.
pub(crate) fn note(st: &Shared, text: &str) {
    st.borrow_mut().record(|| Step::Note { text: text.to_string() });
}

/// `has_any(situation.cover, ["woods", "hedge"])`: whether a word, or any word of a list, is among `words`.
pub(crate) fn has_any(value: Dynamic, words: &Array) -> bool {
    let wanted = |v: &Dynamic| {
        let Ok(v) = v.clone().into_immutable_string() else { return false };
        words.iter().any(|w| match w.clone().into_immutable_string() {
            Ok(w) => w == v,
            Err(_) => w.to_string() == v.as_str(),
        })
    };
    if value.is_array() { value.cast::<Array>().iter().any(wanted) } else { wanted(&value) }
}

/// `any_marker(unit.leaders, "exceptional")`: whether any unit or leader of a list carries a marker.
pub(crate) fn any_marker(items: &Array, marker: &str) -> bool {
    items.iter().any(|item| {
        if let Some(unit) = item.read_lock::<UnitRef>() {
            unit.0.borrow().has_marker(marker)
        } else if let Some(leader) = item.read_lock::<LeaderRef>() {
            leader.0.borrow().has_marker(marker)
        } else {
            false
        }
    })
}

fn register_reading(engine: &mut Engine) {
    engine
        .register_type_with_name::<Reading>("Cell")
        .register_get("result", |r: &mut Reading| reading_result(r))
        .register_get("text", |r: &mut Reading| {
            r.result.as_ref().map_or_else(|| "no result".to_string(), |x| x.text.clone())
        })
        .register_get("effects", |r: &mut Reading| {
            r.result.as_ref().map_or_else(|| "no effect".to_string(), |x| x.effects.describe())
        })
        .register_get("band", |r: &mut Reading| {
            r.band.as_deref().map_or(Dynamic::UNIT, |b| Dynamic::from(b.to_string()))
        })
        .register_get("total", |r: &mut Reading| r.total)
        .register_get("read_as", |r: &mut Reading| r.read_as)
        .register_get("row", |r: &mut Reading| {
            r.row.as_deref().map_or(Dynamic::UNIT, |row| Dynamic::from(row.to_string()))
        })
        .register_get("table", |r: &mut Reading| r.table.to_string())
        .register_get("is_none", |r: &mut Reading| reading_is_none(r))
        .register_fn("to_string", |r: &mut Reading| {
            r.result.as_ref().map_or_else(|| "no result".to_string(), |x| x.id.clone())
        })
        .register_fn("to_debug", |r: &mut Reading| {
            r.result.as_ref().map_or_else(|| "no result".to_string(), |x| x.id.clone())
        });
}

/// `cell.is_none`: the chart reads nothing there.
pub(crate) fn reading_is_none(r: &Reading) -> bool {
    r.result.is_none()
}

/// A cell's `result`: the result's id, or `()` where the chart reads nothing.
pub(crate) fn reading_result(r: &Reading) -> Dynamic {
    r.result.as_ref().map_or(Dynamic::UNIT, |x| Dynamic::from(ImmutableString::from(x.id.as_str())))
}

fn register_mods(engine: &mut Engine) {
    engine
        .register_type_with_name::<Mods>("Modifiers")
        .register_get("total", |m: &mut Mods| m.total)
        .register_get("applied", |m: &mut Mods| {
            m.applied.iter().map(|id| Dynamic::from(id.to_string())).collect::<Array>()
        })
        .register_fn("halvings", |m: &mut Mods, q: &str| m.halvings(q))
        .register_fn("doublings", |m: &mut Mods, q: &str| m.double.get(q).copied().unwrap_or(0))
        .register_fn("adjust", |m: &mut Mods, q: &str, value: f64| m.adjust(q, value))
        .register_fn("adjust", |m: &mut Mods, q: &str, value: i64| m.adjust(q, value as f64))
        .register_fn("to_string", |m: &mut Mods| format!("{:+} from {}", m.total, m.list))
        .register_fn("to_debug", |m: &mut Mods| format!("{:+} from {}", m.total, m.list));
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
    let st = st.borrow();
    let t = st.ruleset.tables.get(table).ok_or_else(|| unknown_table(&st.ruleset, table))?;
    t.read_lookup_words(keys).map(to_dynamic).map_err(|e| e.to_string().into())
}

/// `lookup(table, total)` of a bands table, or `lookup(table, row, total)` of a grid: the cell read, and traced.
pub(crate) fn lookup_read(
    st: &Shared,
    table: &str,
    row: Option<RowKey>,
    total: i64,
) -> Result<Reading, Box<EvalAltResult>> {
    let mut st = st.borrow_mut();
    let t = st.ruleset.tables.get(table).ok_or_else(|| unknown_table(&st.ruleset, table))?;
    let reading = match &row {
        None => t.read_bands(total),
        Some(row) => t.read_grid(row, total),
    }
    .map_err(|e| e.to_string())?;
    // Only when tracing: naming the table and its source costs as much as the read.
    if st.tracing {
        let (title, source) = (t.title.clone(), t.source_of(&reading).to_string());
        st.record(|| Step::Table { title, source, reading: Box::new(reading.clone()) });
    }
    Ok(reading)
}

/// `table_result("fallen_leader", "captured")`: a table's result named by a rule
/// rather than read by a roll, as a cell that `apply` takes.
fn register_table_result(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    FuncRegistration::new("table_result").with_volatility(true).register_into_engine(
        engine,
        move |table: &str, id: &str| -> Result<Reading, Box<EvalAltResult>> {
            let st = st.borrow();
            let t = st.ruleset.tables.get(table).ok_or_else(|| unknown_table(&st.ruleset, table))?;
            let Some(result) = t.results.get(id) else {
                let hint = crate::rules::did_you_mean(id, t.results.keys().map(String::as_str));
                return fail(format!("table `{table}` has no result `{id}`{hint}"));
            };
            Ok(Reading {
                table: t.id.clone(),
                row: None,
                total: 0,
                read_as: 0,
                band: None,
                result: Some(result.clone()),
            })
        },
    );
}

fn unknown_table(ruleset: &crate::rules::Ruleset, table: &str) -> Box<EvalAltResult> {
    let hint = crate::rules::did_you_mean(table, ruleset.tables.keys().map(String::as_str));
    format!("ruleset `{}` has no table `{table}`{hint}", ruleset.id).into()
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

/// `modifiers(list, vars)`: which modifiers of a list apply, and what they come to.
pub(crate) fn modifiers(
    ctx: &NativeCallContext,
    st: &Shared,
    list: &str,
    mut vars: Map,
) -> Result<Mods, Box<EvalAltResult>> {
    let values = CONDITION_NAMES.map(|name| vars.remove(name).unwrap_or(Dynamic::UNIT));
    modifiers_of(ctx, st, list, &values.each_ref())
}

/// `modifiers` with the value of each of the `CONDITION_NAMES` (`()` where the
/// call names none) where it lies: a compiled procedure lends its locals.
pub(crate) fn modifiers_of(
    ctx: &NativeCallContext,
    st: &Shared,
    list: &str,
    values: &ConditionValues,
) -> Result<Mods, Box<EvalAltResult>> {
    // A condition may call `modifiers` again; each call is a fresh evaluation,
    // so Rhai's own depth limit does not see the nesting: count it here.
    if st.borrow().modifier_depth >= crate::script::state::MAX_MODIFIER_DEPTH {
        return fail(format!(
            "modifiers(\"{list}\") nested more than {} deep: a condition calls modifiers without end?",
            crate::script::state::MAX_MODIFIER_DEPTH
        ));
    }
    let key = replay_key(st);
    if let Some(kept) = key.as_ref().and_then(|key| st.borrow().replayed.as_ref()?.get(key).cloned()) {
        return Ok(kept);
    }
    st.borrow_mut().modifier_depth += 1;
    let result = evaluate_list(ctx, st, list, values);
    st.borrow_mut().modifier_depth -= 1;
    let (mods, by_rhai) = result?;
    if let (Some(key), false) = (key, by_rhai)
        && let Some(replayed) = &mut st.borrow_mut().replayed
    {
        replayed.keep(key, mods.clone());
    }
    Ok(mods)
}

/// In a walk replayed face by face (and not traced), the key of this call among the runs'
/// (see `script::replayed`); none otherwise.
fn replay_key(st: &Shared) -> Option<crate::script::replayed::Key> {
    let mut st = st.borrow_mut();
    let st = &mut *st;
    match (&mut st.replayed, &st.dice) {
        (Some(replayed), DiceMode::Walk(walk)) if st.walk.is_none() && !st.tracing => Some(replayed.next_key(walk)),
        _ => None,
    }
}

/// The body of `modifiers(list, vars)`, and whether Rhai evaluated any of its conditions.
fn evaluate_list(
    ctx: &NativeCallContext,
    st: &Shared,
    list: &str,
    values: &ConditionValues,
) -> Result<(Mods, bool), Box<EvalAltResult>> {
    let compiled = {
        let st = st.borrow();
        let Some(found) = st.lists.get(list) else {
            let hint = crate::rules::did_you_mean(list, st.ruleset.modifiers.keys().map(String::as_str));
            return fail(format!("ruleset `{}` has no modifier list `{list}`{hint}", st.ruleset.id));
        };
        found.clone()
    };
    let modifiers = &compiled.list;
    // Made only when a condition needs Rhai (see `script::condition`).
    let mut scope = None;
    // First which modifiers apply on their own, and how many times those with
    // `per:` count (0 times is not applying); then each group keeps what its
    // rule allows, comparing what each would add.
    let mut verdicts: smallvec::SmallVec<[Verdict; 32]> = smallvec::SmallVec::with_capacity(modifiers.modifiers.len());
    for (i, m) in modifiers.modifiers.iter().enumerate() {
        let mut why_not = gate(&st.borrow().ruleset.settings, m);
        let mut applies = match (&why_not, &m.when) {
            (Some(_), _) => false,
            (None, None) => true,
            (None, Some(_)) => {
                let Some(condition) = &compiled.when[i] else {
                    return fail(format!("modifier {list}.{} was not compiled", m.id));
                };
                // A native condition's truth is read without making a value of it.
                let truth = condition.native.as_ref().and_then(|n| n.truth(values, &st.borrow().leaders));
                if let Some(truth) = truth {
                    truth
                } else {
                    // Not true or false natively: Rhai evaluates it (and words what is wrong).
                    let value = by_rhai(ctx, condition, values, &mut scope).map_err(|e| {
                        format!("in the condition of modifier {list}.{} ({}): {e}", m.id, m.origin_text())
                    })?;
                    value.as_bool().map_err(|kind| {
                        format!(
                            "the condition of modifier {list}.{} ({}) gave {kind}, not true or false",
                            m.id,
                            m.origin_text()
                        )
                    })?
                }
            }
        };
        let mut times = None;
        if let (true, Some(_)) = (applies, &m.per) {
            let Some(condition) = &compiled.per[i] else {
                return fail(format!("the `per:` of modifier {list}.{} was not compiled", m.id));
            };
            let n = count(ctx, st, list, m, condition, values, &mut scope)?;
            times = Some(n);
            if n == 0 {
                applies = false;
                why_not = Some(WhyNot::CountsZero);
            }
        }
        let value = match &m.effect {
            ModEffect::Add(n) => n.checked_mul(times.unwrap_or(1)).ok_or_else(|| {
                format!("modifier {list}.{} counts {} times: too large a total", m.id, times.unwrap_or(1))
            })?,
            _ => 0,
        };
        verdicts.push(Verdict { applies, why_not, times, value });
    }
    apply_groups(&st.borrow().ruleset.settings, modifiers, &mut verdicts);

    let mut mods = Mods {
        list: compiled.name.clone(),
        total: 0,
        halve: BTreeMap::new(),
        double: BTreeMap::new(),
        applied: Vec::new(),
    };
    for ((m, verdict), id) in modifiers.modifiers.iter().zip(verdicts).zip(&compiled.ids) {
        if verdict.applies {
            mods.applied.push(id.clone());
            match &m.effect {
                ModEffect::Add(_) => {
                    mods.total = mods
                        .total
                        .checked_add(verdict.value)
                        .ok_or_else(|| format!("the modifiers of {list} add up past any die roll"))?;
                }
                ModEffect::Halve(q) => *mods.halve.entry(q.clone()).or_default() += 1,
                ModEffect::Double(q) => *mods.double.entry(q.clone()).or_default() += 1,
            }
        }
        st.borrow_mut().record(|| Step::Modifier {
            list: list.to_string(),
            id: m.id.clone(),
            effect: m.effect.clone(),
            times: verdict.times,
            applied: verdict.applies,
            why_not: verdict.why_not.map(|w| w.to_string()),
            text: m.text.clone(),
            source: m.source.to_string(),
        });
    }
    Ok((mods, scope.is_some()))
}

/// A condition's value: natively where it can be, else by Rhai.
fn evaluate(
    ctx: &NativeCallContext,
    st: &Shared,
    condition: &Condition,
    values: &ConditionValues,
    scope: &mut Option<Scope<'static>>,
) -> Result<Dynamic, Box<EvalAltResult>> {
    if let Some(native) = &condition.native
        && let Some(value) = native.eval(values, &st.borrow().leaders)
    {
        return Ok(value);
    }
    by_rhai(ctx, condition, values, scope)
}

/// A condition's value by Rhai, in a scope of the condition names (made once per `modifiers()` call).
fn by_rhai(
    ctx: &NativeCallContext,
    condition: &Condition,
    values: &ConditionValues,
    scope: &mut Option<Scope<'static>>,
) -> Result<Dynamic, Box<EvalAltResult>> {
    let scope = scope.get_or_insert_with(|| {
        let mut scope = Scope::new();
        for (name, value) in CONDITION_NAMES.iter().zip(values) {
            scope.push_constant_dynamic(*name, (*value).clone());
        }
        scope
    });
    ctx.engine().eval_ast_with_scope::<Dynamic>(scope, &condition.ast)
}

/// Whether a modifier applies, why not, how many times it counts and what it adds.
struct Verdict<'a> {
    applies: bool,
    why_not: Option<WhyNot<'a>>,
    times: Option<i64>,
    value: i64,
}

/// How many times a modifier with `per:` counts: a whole number, 0 or more.
fn count(
    ctx: &NativeCallContext,
    st: &Shared,
    list: &str,
    m: &crate::rules::Modifier,
    condition: &Condition,
    values: &ConditionValues,
    scope: &mut Option<Scope<'static>>,
) -> Result<i64, Box<EvalAltResult>> {
    let place = || {
        m.per.as_ref().map(|(_, o)| crate::rules::Problem::error("", "", &o.file, o.span).place()).unwrap_or_default()
    };
    let value = evaluate(ctx, st, condition, values, scope)
        .map_err(|e| format!("in the `per:` of modifier {list}.{} ({}): {e}", m.id, place()))?;
    let n = if value.is_unit() { Ok(0) } else { value.as_int() };
    match n {
        Ok(n) if n >= 0 => Ok(n),
        Ok(n) => fail(format!("the `per:` of modifier {list}.{} ({}) gave {n}, not 0 or more", m.id, place())),
        Err(kind) => {
            fail(format!("the `per:` of modifier {list}.{} ({}) gave {kind}, not a whole number", m.id, place()))
        }
    }
}

/// Why an option or interpretation keeps a modifier out, if one does.
fn gate<'m>(settings: &crate::rules::Settings, m: &'m crate::rules::Modifier) -> Option<WhyNot<'m>> {
    if let Some(option) = &m.option
        && !settings.options.get(option).copied().unwrap_or(false)
    {
        return Some(WhyNot::OptionOff(option));
    }
    m.interpretation
        .iter()
        .find(|(name, choices)| !settings.interpretations.get(name).is_some_and(|set| choices.contains(set)))
        .map(|(name, choices)| WhyNot::Interpretation(name, choices))
}

/// Why a modifier does not apply, worded only when a trace records it.
enum WhyNot<'a> {
    OptionOff(&'a str),
    Interpretation(&'a str, &'a [String]),
    CountsZero,
    Group { word: &'static str, group: &'a str, kept: &'a str },
}

impl std::fmt::Display for WhyNot<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WhyNot::OptionOff(option) => write!(f, "option {option} is off"),
            WhyNot::Interpretation(name, choices) => write!(f, "{name} is not {}", choices.join(" or ")),
            WhyNot::CountsZero => f.write_str("counts 0 times"),
            WhyNot::Group { word, group, kept } => write!(f, "only the {word} of group {group} counts: {kept}"),
        }
    }
}

/// Keeps, in each group whose rule is `best` or `worst`, only the one
/// applicable modifier with the largest (or smallest) value; the first listed wins a tie.
fn apply_groups<'a>(settings: &crate::rules::Settings, list: &'a ModifierList, verdicts: &mut [Verdict<'a>]) {
    for (group, rule) in &list.groups {
        let pick = match rule {
            GroupRule::Fixed(pick) => *pick,
            GroupRule::ByInterpretation { interpretation, choices } => settings
                .interpretations
                .get(interpretation)
                .and_then(|choice| choices.get(choice))
                .copied()
                .unwrap_or(Pick::All),
        };
        if pick == Pick::All {
            continue;
        }
        let members: Vec<(usize, i64)> = list
            .modifiers
            .iter()
            .enumerate()
            .filter(|(i, m)| m.group.as_deref() == Some(group.as_str()) && verdicts[*i].applies)
            .filter(|(_, m)| matches!(m.effect, ModEffect::Add(_)))
            .map(|(i, _)| (i, verdicts[i].value))
            .collect();
        let keep = match pick {
            Pick::Best => members.iter().copied().reduce(|a, b| if b.1 > a.1 { b } else { a }),
            _ => members.iter().copied().reduce(|a, b| if b.1 < a.1 { b } else { a }),
        };
        let Some((kept, _)) = keep else { continue };
        let word = if pick == Pick::Best { "best" } else { "worst" };
        for (i, _) in members {
            if i != kept {
                verdicts[i].applies = false;
                verdicts[i].why_not = Some(WhyNot::Group { word, group, kept: &list.modifiers[kept].id });
            }
        }
    }
}

impl crate::rules::Modifier {
    /// `modifiers/fire.yaml:12:11`: where the condition is written.
    fn origin_text(&self) -> String {
        let problem = crate::rules::Problem::error("", "", &self.origin.file, self.origin.span);
        problem.place()
    }
}

fn register_apply(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    FuncRegistration::new("apply")
        .with_volatility(true)
        .register_into_engine(engine, move |unit: UnitRef, cell: Reading| apply_cell(&st, &unit, &cell));
    let st = state.clone();
    FuncRegistration::new("apply").with_volatility(true).register_into_engine(
        engine,
        move |leader: LeaderRef, cell: Reading| -> Result<(), Box<EvalAltResult>> {
            let Some(result) = cell.result.as_ref().filter(|r| !r.effects.is_empty()) else { return Ok(()) };
            apply_to_leader(&st, &leader, &result.effects)
        },
    );
    // apply(leader, #{removed: true, markers: #{captured: true}}): effects written in a script.
    let st = state.clone();
    FuncRegistration::new("apply").with_volatility(true).register_into_engine(
        engine,
        move |leader: LeaderRef, spec: Map| -> Result<(), Box<EvalAltResult>> {
            apply_to_leader(&st, &leader, &effects_from(spec)?)
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
    let effects = effects_from(spec)?;
    apply_to_unit(unit, &effects);
    st.borrow_mut().record(|| Step::Effect { subject: unit.name(), effects: effects.describe() });
    Ok(())
}

/// Effects written in a script as a map, each key checked.
fn effects_from(spec: Map) -> Result<Effects, Box<EvalAltResult>> {
    let mut effects = Effects::default();
    for (key, value) in spec {
        match key.as_str() {
            "order" => effects.order = Some(value.to_string()),
            "lose_stands" => {
                let n = value.as_int().map_err(|t| format!("lose_stands is a whole number, not {t}"))?;
                effects.lose_stands = Some(n.clamp(0, i64::from(u32::MAX)) as u32);
            }
            "removed" => effects.removed = value.as_bool().map_err(|t| format!("removed is true or false, not {t}"))?,
            "markers" => {
                let markers = value.try_cast::<Map>().ok_or("markers is a map such as #{battery: \"silenced\"}")?;
                for (name, v) in markers {
                    effects.markers.insert(name.to_string(), marker_from(v)?);
                }
            }
            "clear_markers" => {
                let names = value
                    .try_cast::<Array>()
                    .filter(|names| names.iter().all(Dynamic::is_string))
                    .ok_or("clear_markers is a list of marker names such as [\"alert\"]")?;
                effects.clear_markers = names.into_iter().map(|n| n.to_string()).collect();
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
    if effects.order.is_some() || effects.lose_stands.is_some() {
        return fail(format!(
            "{} is a leader: he has no order and no stands, only markers and removal ({})",
            leader.name(),
            effects.describe()
        ));
    }
    let detached_from = {
        let mut l = leader.edit();
        for (name, value) in &effects.markers {
            l.markers.insert(name.clone(), value.clone());
        }
        for name in &effects.clear_markers {
            l.markers.remove(name);
        }
        if effects.removed {
            l.markers.insert("removed".into(), Marker::Flag(true));
            l.attached_to.take().map(|unit| (unit, l.id.clone()))
        } else {
            None
        }
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
pub(crate) fn apply_cell(st: &Shared, unit: &UnitRef, cell: &Reading) {
    let Some(result) = &cell.result else { return };
    if result.effects.is_empty() {
        return;
    }
    apply_to_unit(unit, &result.effects);
    // Described only when tracing: the words cost more than the effect.
    st.borrow_mut().record(|| Step::Effect { subject: unit.name(), effects: result.effects.describe() });
}

fn apply_to_unit(unit: &UnitRef, effects: &Effects) {
    let mut u = unit.edit();
    if let Some(order) = &effects.order {
        u.order = order.clone();
    }
    if let Some(n) = effects.lose_stands {
        u.lose_stands(n);
    }
    for (name, value) in &effects.markers {
        u.set_marker(name, value.clone());
    }
    for name in &effects.clear_markers {
        u.clear_marker(name);
    }
    if effects.removed {
        u.set_marker("removed", Marker::Flag(true));
    }
}
