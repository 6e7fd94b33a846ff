//! Lengths for Rhai: `length("1-1/2\"")` in inches, on the table at the ruleset's figure scale.

use rhai::{Engine, EvalAltResult};

use crate::measure::{parse_length, within};
use crate::script::state::Shared;

pub fn register(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    engine.register_fn("length", move |text: &str| -> Result<f64, Box<EvalAltResult>> {
        let scale = st.borrow().ruleset.scale;
        parse_length(text, &scale).map(|l| l.inches()).map_err(|e| e.to_string().into())
    });
    let st = state.clone();
    engine.register_fn("on_table", move |text: &str| -> Result<f64, Box<EvalAltResult>> {
        let scale = st.borrow().ruleset.scale;
        parse_length(text, &scale).map(|l| scale.on_table(l).inches()).map_err(|e| e.to_string().into())
    });
    engine.register_fn("within", |distance: f64, limit: f64| within(distance, limit));
    engine.register_fn("within", |distance: i64, limit: i64| within(distance as f64, limit as f64));
    engine.register_fn("within", |distance: f64, limit: i64| within(distance, limit as f64));
}
