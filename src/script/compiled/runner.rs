//! `Runner`: one call into compiled code, and `Seam`, where an exact walk or a study's kept calls may take a procedure's call over from it.
//!
//! The runner knows nothing of either: at each call of a compiled procedure it asks the seam
//! put in place for the command (`Compiled::set_seam`), and runs the call itself when the seam
//! declines. The exact engine (`script::odds`) answers with one outcome of the call's whole
//! distribution, worked out over merged states, the walk branching once over its outcomes (a
//! chance node); a study (`script::dice_paths`) answers from a path kept by the dice an earlier
//! trial's same call rolled.

use std::rc::Rc;

use rhai::{Dynamic, EvalAltResult, NativeCallContext, Position};

use super::Table;
use super::code::Function;

pub type R<T> = Result<T, Box<EvalAltResult>>;

/// A call's local slots, its arguments first: on the stack for most functions.
pub type Slots = smallvec::SmallVec<[Dynamic; 16]>;

/// How a statement ended.
#[derive(Clone)]
pub enum Flow {
    Value(Dynamic),
    Break,
    Continue,
    Return(Dynamic),
}

impl Flow {
    /// The value it carries, if any.
    pub fn value(&self) -> Option<&Dynamic> {
        match self {
            Flow::Value(v) | Flow::Return(v) => Some(v),
            Flow::Break | Flow::Continue => None,
        }
    }
}

/// One call into compiled code: the context Rhai called it in, the table of compiled functions.
pub struct Runner<'a, 'c> {
    pub ctx: &'a NativeCallContext<'c>,
    pub table: &'a Table,
    /// What grognard's own functions share, for those called directly (see `direct::call`).
    pub state: &'a crate::script::state::Shared,
    /// What the command may still spend: ticked on each statement, call and loop turn.
    pub meter: &'a crate::script::budget::Meter,
    /// Compiled calls in progress, for the call-depth limit.
    pub depth: usize,
    /// What may take a compiled procedure's call over, for the command running now (see `Seam`).
    pub seam: Option<&'a dyn Seam>,
}

/// Who made a call that reaches the seam.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    /// Rhai: the code of the command, or a function left to Rhai.
    Rhai,
    /// Compiled code, calling another compiled procedure.
    Compiled,
}

/// What may take a compiled procedure's call over from the runner.
pub trait Seam {
    /// The call of the compiled procedure `index` (`f`) on `args` that `runner` is about to
    /// make: its answer, or None to let the runner run it. `args` are left as they were, but a
    /// method's receiver (the first), which is the call's.
    fn call(
        &self,
        runner: &mut Runner,
        index: usize,
        f: &Rc<Function>,
        args: &mut Slots,
        pos: Position,
        caller: Caller,
    ) -> Option<R<Dynamic>>;
}
