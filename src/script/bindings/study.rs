//! What a study counts: `tally("result", r.result)` and `record("stands_lost", n)`.

use rhai::{Dynamic, Engine, EvalAltResult, FuncRegistration, ImmutableString};

use crate::script::error::fail;
use crate::script::state::{Observations, Shared};

/// The most `tally` and `record` calls one trial may make: a study keeps every trial's
/// observations until it ends, so a script that counts in a loop would fill the memory.
pub const MAX_OBSERVATIONS: usize = 1_000;

/// The longest key, and the longest value `tally` counts, in characters.
pub const MAX_KEY: usize = 100;
pub const MAX_VALUE: usize = 200;

/// Refuses a key or an observation past the limits, naming the call.
fn within(observations: &Observations, call: &str, key: &str) -> Result<(), Box<EvalAltResult>> {
    if key.chars().count() > MAX_KEY {
        return fail(format!("{call}: a key is at most {MAX_KEY} characters"));
    }
    if observations.tallies.len() + observations.records.len() >= MAX_OBSERVATIONS {
        return fail(format!(
            "{call}(\"{key}\", ...): more than {MAX_OBSERVATIONS} tallies and records in one trial; count once per trial"
        ));
    }
    Ok(())
}

pub fn register(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    let tally = move |key: ImmutableString, value: Dynamic| -> Result<(), Box<EvalAltResult>> {
        if key.is_empty() {
            return fail("tally needs a key: tally(\"result\", r.result)");
        }
        if super::unseen::holds_unseen(&value) {
            // Counted by the name of a card drawn by kind: the walk must tell the cards apart.
            st.borrow_mut().cards.told_apart = true;
        }
        let value: ImmutableString = if value.is_unit() {
            "(nothing)".into()
        } else if value.is_string() {
            value.cast()
        } else {
            value.to_string().into()
        };
        if value.chars().count() > MAX_VALUE {
            return fail(format!("tally(\"{key}\", ...): a value is at most {MAX_VALUE} characters as text"));
        }
        let mut st = st.borrow_mut();
        within(&st.observations, "tally", &key)?;
        st.observations_mut().tallies.push((key, value));
        Ok(())
    };
    let registration = || FuncRegistration::new("tally").with_volatility(true);
    // A value of any type; and the same for words, numbers and flags, which Rhai then finds at
    // its first look rather than after trying `Dynamic` for the value.
    let any = tally.clone();
    registration().register_into_engine(engine, move |key: ImmutableString, value: Dynamic| any(key, value));
    let word = tally.clone();
    registration().register_into_engine(engine, move |key: ImmutableString, value: ImmutableString| {
        word(key, Dynamic::from(value))
    });
    let number = tally.clone();
    registration()
        .register_into_engine(engine, move |key: ImmutableString, value: i64| number(key, Dynamic::from(value)));
    registration()
        .register_into_engine(engine, move |key: ImmutableString, value: bool| tally(key, Dynamic::from(value)));
    for integer in [false, true] {
        let st = state.clone();
        let record = move |key: ImmutableString, value: f64| -> Result<(), Box<EvalAltResult>> {
            if key.is_empty() {
                return fail("record needs a key: record(\"stands_lost\", n)");
            }
            if !value.is_finite() {
                return fail(format!("record(\"{key}\", ...) needs a number, not {value}"));
            }
            let mut st = st.borrow_mut();
            within(&st.observations, "record", &key)?;
            st.observations_mut().records.push((key, value));
            Ok(())
        };
        let registration = FuncRegistration::new("record").with_volatility(true);
        if integer {
            registration
                .register_into_engine(engine, move |key: ImmutableString, value: i64| record(key, value as f64));
        } else {
            registration.register_into_engine(engine, move |key: ImmutableString, value: f64| record(key, value));
        }
    }
}
