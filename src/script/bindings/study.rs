//! What a study counts: `tally("result", r.result)` and `record("stands_lost", n)`.

use rhai::{Dynamic, Engine, EvalAltResult, FuncRegistration};

use super::fail;
use crate::script::state::Shared;

pub fn register(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    FuncRegistration::new("tally").with_volatility(true).register_into_engine(
        engine,
        move |key: &str, value: Dynamic| -> Result<(), Box<EvalAltResult>> {
            if key.is_empty() {
                return fail("tally needs a key: tally(\"result\", r.result)");
            }
            let value = if value.is_unit() { "(nothing)".to_string() } else { value.to_string() };
            st.borrow_mut().observations.tallies.push((key.to_string(), value));
            Ok(())
        },
    );
    for integer in [false, true] {
        let st = state.clone();
        let record = move |key: &str, value: f64| -> Result<(), Box<EvalAltResult>> {
            if key.is_empty() {
                return fail("record needs a key: record(\"stands_lost\", n)");
            }
            if !value.is_finite() {
                return fail(format!("record(\"{key}\", ...) needs a number, not {value}"));
            }
            st.borrow_mut().observations.records.push((key.to_string(), value));
            Ok(())
        };
        let registration = FuncRegistration::new("record").with_volatility(true);
        if integer {
            registration.register_into_engine(engine, move |key: &str, value: i64| record(key, value as f64));
        } else {
            registration.register_into_engine(engine, move |key: &str, value: f64| record(key, value));
        }
    }
}
