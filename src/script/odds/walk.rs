//! `Walk`: what one exact walk keeps while it runs: its dice, the calls worked out so far, and what it learnt of each procedure.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use ahash::AHashMap as HashMap;
use rhai::Dynamic;

use super::call_odds::CallOdds;
use super::liveness::Liveness;
use super::{branching, projection, pure, quiet};
use crate::script::compiled::Table;
use crate::script::compiled::code::Function;
use crate::script::compiled::runner::{Runner, Slots};
use crate::script::mode::WalkDice;
use crate::script::world::World;

/// What one exact walk keeps: the calls worked out so far, and each function's liveness.
pub struct Walk {
    /// The dice the walk steers, shared with the mode the bindings roll through.
    pub(super) dice: WalkDice,
    pub(super) memo: RefCell<HashMap<u64, Vec<Memo>>>,
    liveness: RefCell<HashMap<usize, Rc<Liveness>>>,
    branching: RefCell<HashMap<usize, bool>>,
    /// Whether each compiled procedure (by index) may branch.
    procedures: RefCell<HashMap<usize, bool>>,
    /// Calls being worked out, one inside another.
    pub(super) nesting: Cell<usize>,
    /// Whether each compiled procedure (by index) is pure, and the pure calls made so far (see `pure`).
    pure: RefCell<HashMap<usize, bool>>,
    pub(super) pure_calls: RefCell<HashMap<u64, Vec<PureCall>>>,
    /// What the walk's code reads of its one call, if that is all it does (see `projection`).
    pub(super) projection: Option<projection::Projection>,
}

pub(super) struct Memo {
    pub function: usize,
    /// Whether `odds` are the walk's call, its outcomes merged by what the code reads of them.
    pub projected: bool,
    pub args: Slots,
    pub world: Rc<World>,
    pub odds: Rc<CallOdds>,
}

impl Walk {
    /// A walk of code that reads only what `projection` says of its one call (none: anything).
    pub fn reading(projection: Option<projection::Projection>, dice: WalkDice) -> Walk {
        Walk {
            dice,
            memo: RefCell::default(),
            liveness: RefCell::default(),
            branching: RefCell::default(),
            procedures: RefCell::default(),
            nesting: Cell::default(),
            pure: RefCell::default(),
            pure_calls: RefCell::default(),
            projection,
        }
    }

    /// Whether `stmt` may branch (see `branching`), worked out once a statement.
    pub(super) fn may_branch(&self, table: &Table, stmt: &crate::script::compiled::code::Code) -> bool {
        let key = stmt as *const _ as usize;
        if let Some(known) = self.branching.borrow().get(&key) {
            return *known;
        }
        let answer = branching::may_branch(stmt, &|i| self.procedure_may_branch(table, i));
        self.branching.borrow_mut().insert(key, answer);
        answer
    }

    /// Whether `guard` may branch.
    pub(super) fn guard_may_branch(&self, table: &Table, guard: &crate::script::compiled::code::Ex) -> bool {
        branching::ex_may_branch(guard, &|i| self.procedure_may_branch(table, i))
    }

    /// Whether calling the compiled procedure `index` may branch: it rolls, draws, or calls
    /// what may; worked out once a walk. One left to Rhai may.
    pub(super) fn procedure_may_branch(&self, table: &Table, index: usize) -> bool {
        if let Some(known) = self.procedures.borrow().get(&index) {
            return *known;
        }
        // While it is being worked out (it calls itself, at some depth), it may: the safe guess.
        self.procedures.borrow_mut().insert(index, true);
        let answer = table.function(index).is_none_or(|f| {
            f.body.iter().any(|stmt| branching::may_branch(stmt, &|i| self.procedure_may_branch(table, i)))
        });
        self.procedures.borrow_mut().insert(index, answer);
        answer
    }

    /// Whether the compiled procedure `index` is pure (see `pure`): worked out once a walk.
    pub(super) fn procedure_is_pure(&self, runner: &Runner, index: usize) -> bool {
        if let Some(known) = self.pure.borrow().get(&index) {
            return *known;
        }
        // While it is being worked out (it calls itself, at some depth), it is not: the safe guess.
        self.pure.borrow_mut().insert(index, false);
        let answer = !self.procedure_may_branch(runner.table, index)
            && runner.table.function(index).is_some_and(|f| {
                pure::is_pure(&f, &|i| self.procedure_is_pure(runner, i), &|script| runner.redefined(script))
            });
        self.pure.borrow_mut().insert(index, answer);
        answer
    }

    /// The liveness of `f`'s slots in this walk, with the quiet notes it skips (none while tracing).
    pub(super) fn liveness(
        &self,
        f: &Function,
        table: &Table,
        ctx: &rhai::NativeCallContext,
        tracing: bool,
    ) -> Rc<Liveness> {
        let key = f as *const Function as usize;
        if let Some(known) = self.liveness.borrow().get(&key) {
            return known.clone();
        }
        let redefined = |script: u64| crate::script::syntax::defined_again(ctx, script);
        let quiet =
            |stmt: &crate::script::compiled::code::Code| !tracing && quiet::is_quiet(stmt, f, table, &redefined);
        let live = Rc::new(Liveness::of(f, &quiet));
        self.liveness.borrow_mut().insert(key, live.clone());
        live
    }
}

/// One kept call: the procedure, its arguments, its value.
pub struct PureCall {
    pub function: usize,
    pub args: Slots,
    pub value: Dynamic,
}
