//! The modifier engine: which modifiers of a list apply to the units and situation at hand,
//! natively or by Rhai, gated by options and interpretations, kept or dropped by their groups,
//! and what they come to (`Modifiers`), each step traced.

use std::collections::BTreeMap;

use rhai::{Dynamic, EvalAltResult, Map, NativeCallContext, Scope};

use super::condition::{CONDITION_NAMES, Condition, ConditionValues};
use super::condition_reason::why_false;
use super::error::fail;
use super::handles::UnitRef;
use super::mode::{Mode, WalkBy, Walking};
use super::modifiers::Modifiers;
use super::state::Shared;
use super::trace::Step;
use crate::rules::{ModEffect, Verdict, WhyNot, apply_groups, gate};

/// `modifiers(list, vars)`: which modifiers of a list apply, and what they come to.
pub(crate) fn modifiers(
    ctx: &NativeCallContext,
    st: &Shared,
    list: &str,
    mut vars: Map,
) -> Result<Modifiers, Box<EvalAltResult>> {
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
) -> Result<Modifiers, Box<EvalAltResult>> {
    // A condition may call `modifiers` again; each call is a fresh evaluation,
    // so Rhai's own depth limit does not see the nesting: count it here.
    if st.borrow().modifier_depth >= crate::script::state::MAX_MODIFIER_DEPTH {
        return fail(format!(
            "modifiers(\"{list}\") nested more than {} deep: a condition calls modifiers without end?",
            crate::script::state::MAX_MODIFIER_DEPTH
        ));
    }
    let key = replay_key(st);
    if let Some(kept) = key.as_ref().and_then(|key| replayed(&st.borrow().mode)?.get(key).cloned()) {
        seen(st, &kept);
        return Ok(kept);
    }
    st.borrow_mut().modifier_depth += 1;
    let result = evaluate_list(ctx, st, list, values);
    st.borrow_mut().modifier_depth -= 1;
    let (mods, by_rhai) = result?;
    if let (Some(key), false) = (key, by_rhai)
        && let Mode::Walking(Walking { by: WalkBy::Faces(replayed), .. }) = &mut st.borrow_mut().mode
    {
        replayed.keep(key, mods.clone());
    }
    seen(st, &mods);
    Ok(mods)
}

/// Notes the modifiers that applied, when an `odds` command asks which did on any path.
fn seen(st: &Shared, mods: &Modifiers) {
    if let Some(seen) = &mut st.borrow_mut().seen {
        seen.modifiers.extend(mods.applied.iter().map(|id| (mods.list.clone(), id.clone())));
    }
}

/// In a walk replayed face by face (and not traced), the key of this call among the runs'
/// (see `script::replayed`); none otherwise.
fn replay_key(st: &Shared) -> Option<crate::script::replayed::Key> {
    let mut st = st.borrow_mut();
    let tracing = st.tracing;
    match &mut st.mode {
        Mode::Walking(Walking { dice, by: WalkBy::Faces(replayed) }) if !tracing => {
            Some(replayed.next_key(&dice.borrow()))
        }
        _ => None,
    }
}

/// The answers a walk replayed face by face keeps, in that mode.
fn replayed(mode: &Mode) -> Option<&crate::script::replayed::Replayed> {
    match mode {
        Mode::Walking(Walking { by: WalkBy::Faces(replayed), .. }) => Some(replayed),
        _ => None,
    }
}

/// The body of `modifiers(list, vars)`, and whether Rhai evaluated any of its conditions.
fn evaluate_list(
    ctx: &NativeCallContext,
    st: &Shared,
    list: &str,
    values: &ConditionValues,
) -> Result<(Modifiers, bool), Box<EvalAltResult>> {
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
    // Attribution's odds without one modifier: it never applies, as if the list had none such.
    let left_out = match &st.borrow().left_out {
        Some((of, id)) if **of == *compiled.name => Some(id.clone()),
        _ => None,
    };
    for (i, m) in modifiers.modifiers.iter().enumerate() {
        if left_out.as_deref() == Some(m.id.as_str()) {
            verdicts.push(Verdict { applies: false, why_not: Some(WhyNot::LeftOut), times: None, value: 0 });
            continue;
        }
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

    let mut mods = Modifiers {
        list: compiled.name.clone(),
        total: 0,
        halve: BTreeMap::new(),
        double: BTreeMap::new(),
        applied: Vec::new(),
    };
    let tracing = st.borrow().tracing;
    // Whose roll the list modifies, when it says (`unit`, with `situation.side`): a melee's sides.
    let side = if tracing { side_of(values) } else { None };
    for (((m, verdict), id), when) in modifiers.modifiers.iter().zip(verdicts).zip(&compiled.ids).zip(&compiled.when) {
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
        if !tracing {
            continue;
        }
        // Every modifier that did not apply says why: a switch, its group, or the part of its condition that failed.
        let why_not = match (verdict.applies, verdict.why_not, &m.when, when) {
            (true, ..) => None,
            (false, Some(why), ..) => Some(why.to_string()),
            (false, None, Some(text), Some(condition)) => {
                Some(why_false(condition.native.as_ref(), text, values, &st.borrow().leaders))
            }
            (false, None, ..) => None,
        };
        st.borrow_mut().record(|| Step::Modifier {
            list: list.to_string(),
            id: m.id.clone(),
            side: side.clone(),
            effect: m.effect.clone(),
            times: verdict.times,
            applied: verdict.applies,
            why_not,
            text: m.text.clone(),
            source: m.source.to_string(),
        });
    }
    Ok((mods, scope.is_some()))
}

/// `1/4e Ligne (attacker)`: the `unit` a list modifies, with its `situation.side` when that is a word.
fn side_of(values: &ConditionValues) -> Option<String> {
    let unit =
        values[CONDITION_NAMES.iter().position(|n| *n == "unit")?].read_lock::<UnitRef>()?.0.borrow().name.clone();
    let situation = values[CONDITION_NAMES.iter().position(|n| *n == "situation")?].read_lock::<Map>();
    match situation.as_ref().and_then(|s| s.get("side")).and_then(|side| side.clone().into_immutable_string().ok()) {
        Some(side) => Some(format!("{unit} ({side})")),
        None => Some(unit),
    }
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
