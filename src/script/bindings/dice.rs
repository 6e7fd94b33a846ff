//! Dice for Rhai: `roll("2d6")`, `roll("1d10", "fire die")`, and the natural faces of a roll.

use rhai::{Array, Dynamic, Engine, EvalAltResult, FuncRegistration};

use crate::dice::{Roll, RollSource};
use crate::script::error::fail;
use crate::script::mode::{Mode, WalkBy, Walking};
use crate::script::state::Shared;
use crate::script::trace::Step;

pub fn register(engine: &mut Engine, state: &Shared) {
    engine
        .register_type_with_name::<Roll>("Roll")
        .register_get("total", |r: &mut Roll| r.total)
        .register_get("natural", |r: &mut Roll| faces_known(r).map(|r| roll_natural(r)))
        .register_get("naturals", |r: &mut Roll| {
            faces_known(r).map(|r| r.naturals().map(Dynamic::from).collect::<Array>())
        })
        .register_get("success", |r: &mut Roll| r.success.map_or(Dynamic::UNIT, Dynamic::from))
        .register_get("hits", |r: &mut Roll| r.hits.map_or(Dynamic::UNIT, Dynamic::from))
        .register_fn("has_natural", |r: &mut Roll, sides: i64, face: i64| {
            faces_known(r).map(|r| r.has_natural(sides as u32, face))
        })
        .register_fn("to_string", |r: &mut Roll| r.to_string())
        .register_fn("to_debug", |r: &mut Roll| r.to_string());

    register_arithmetic(engine);

    for labelled in [false, true] {
        let state = state.clone();
        // Volatile: the optimizer must never fold a roll into a constant.
        let registration = FuncRegistration::new("roll").with_volatility(true);
        if labelled {
            registration.register_into_engine(engine, move |expr: &str, label: &str| roll(&state, expr, Some(label)));
        } else {
            registration.register_into_engine(engine, move |expr: &str| roll(&state, expr, None));
        }
    }
}

/// `roll(expr)` and `roll(expr, label)`: the dice rolled from the current source, and traced.
pub(crate) fn roll(state: &Shared, expr: &str, label: Option<&str>) -> Result<Roll, Box<EvalAltResult>> {
    let mut st = state.borrow_mut();
    let parsed = match st.dice(expr) {
        Ok(parsed) => parsed,
        Err(err) => return dice_failure(&mut st, err),
    };
    let (expr, written) = &*parsed;
    // A player asked for the faces first sees what the rounds before decided.
    if st.mode.shows_purpose() {
        st.show_progress();
    }
    // An exact walk that works calls out whole branches over the values of a pool, not over its faces.
    if let Mode::Walking(Walking { dice, by: WalkBy::WholeCalls(pools) }) = &st.mode
        && let Some(pool) = pools.odds(expr, written)
    {
        let chosen = dice.borrow_mut().choose(&pool.weights);
        return match chosen {
            Ok(i) => Ok(expr.of_value(written, pool.values[i])),
            Err(err) => dice_failure(&mut st, err),
        };
    }
    let rolled = expr.roll_written(written, &mut st.mode as &mut dyn RollSource, label.unwrap_or(""));
    match rolled {
        Ok(roll) => {
            st.record(|| Step::Roll {
                label: label.map(str::to_string),
                roll: Box::new(roll.clone()),
                luck: crate::script::luck::of_roll(expr, &roll),
                chance: crate::script::luck::of_question(expr, &roll),
            });
            Ok(roll)
        }
        Err(err) => dice_failure(&mut st, err),
    }
}

/// A roll's value where a number is wanted: its total (for `6d6 hits 4+`, the hits).
/// Without these operators Rhai compares a Roll with a number as unequal types, which
/// is always false, and `roll("1d6") >= 4` would never hold without a word.
fn value(r: &Roll) -> Result<i64, Box<EvalAltResult>> {
    match r.success {
        None => Ok(r.total),
        Some(_) => fail(format!("`{}` asks yes or no: read its `.success`, not its value as a number", r.expr)),
    }
}

fn register_arithmetic(engine: &mut Engine) {
    type R<T> = Result<T, Box<EvalAltResult>>;
    macro_rules! compare {
        ($($op:literal => $f:expr),*) => {$(
            engine.register_fn($op, |a: &mut Roll, b: i64| -> R<bool> { Ok($f(value(a)?, b)) });
            engine.register_fn($op, |a: i64, b: Roll| -> R<bool> { Ok($f(a, value(&b)?)) });
            engine.register_fn($op, |a: &mut Roll, b: Roll| -> R<bool> { Ok($f(value(a)?, value(&b)?)) });
        )*};
    }
    compare!(">=" => |a, b| a >= b, "<=" => |a, b| a <= b, ">" => |a, b| a > b, "<" => |a, b| a < b,
             "==" => |a, b| a == b, "!=" => |a, b| a != b);
    macro_rules! arithmetic {
        ($($op:literal => $f:expr),*) => {$(
            engine.register_fn($op, |a: &mut Roll, b: i64| -> R<i64> { $f(value(a)?, b) });
            engine.register_fn($op, |a: i64, b: Roll| -> R<i64> { $f(a, value(&b)?) });
            engine.register_fn($op, |a: &mut Roll, b: Roll| -> R<i64> { $f(value(a)?, value(&b)?) });
        )*};
    }
    arithmetic!(
        "+" => |a: i64, b: i64| a.checked_add(b).map_or_else(|| fail("a roll's sum is too large"), Ok),
        "-" => |a: i64, b: i64| a.checked_sub(b).map_or_else(|| fail("a roll's difference is too large"), Ok)
    );
}

/// `r`, if its faces are known: a roll an exact walk knows by its value alone sends the
/// walk back to replaying every face.
fn faces_known(r: &mut Roll) -> Result<&mut Roll, Box<EvalAltResult>> {
    if r.faces_unknown {
        return Err(crate::script::error::unsupported(format!("the faces of `{}` are read", r.expr)));
    }
    Ok(r)
}

/// A roll's `natural`: its first die's face.
pub(crate) fn roll_natural(r: &Roll) -> i64 {
    r.dice.first().map_or(0, |d| d.natural)
}

/// Keeps the dice error whole for the report, and stops the script.
fn dice_failure<T>(
    state: &mut crate::script::state::State,
    err: crate::dice::DiceError,
) -> Result<T, Box<EvalAltResult>> {
    let message = err.to_string();
    state.dice_error = Some(err);
    fail(message)
}
