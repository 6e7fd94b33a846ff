//! Procedure functions compiled to a tree of native steps instead of walked by Rhai.
//!
//! Rhai spends most of a scripted fire walking its syntax tree (about 120 ns a
//! node on this project's machines); a procedure is many nodes around a few
//! table reads and rolls. A function whose every statement and expression is
//! one `lower` knows is compiled here: local variables become numbered slots,
//! control flow and arithmetic, comparisons and property reads on numbers,
//! text, maps and grognard's own types run natively, and every other call
//! (grognard's bindings, Rhai's library, functions left to Rhai) goes through
//! the `NativeCallContext` Rhai called in, so it finds and does what Rhai
//! would. A function with anything else in it (closures, `a[i].b` chains,
//! `this`, `try`, ranges in a `switch`, a `break` or `return` inside a block
//! used as a value...) is left whole to Rhai.
//!
//! A compiled function is registered with the engine under its name and arity,
//! and removed from the procedures' AST: Rhai then calls it as a native
//! function. A function that code evaluated later defines again (a house rule
//! typed at the REPL) still wins, as a script function does in Rhai.
//!
//! The sandbox is the same: compiled code ticks the command's one meter (see
//! `script::budget`) on each statement, call and loop turn, as Rhai ticks it
//! on each of its operations, and checks the size of every string, array and
//! map it makes or stores against the engine's limits, as Rhai does.
//! What differs from Rhai: the count of operations (a compiled statement is
//! one, where Rhai may count several), and untraced, the text of a `note` or
//! of a roll label nobody reads is not made at all: only its parts are worked out.

pub(crate) mod code;
mod direct;
mod lower;
mod moves;
mod ops;
mod place;
pub(crate) mod run;
pub(crate) mod runner;
mod table;

pub use table::Table;

use std::any::TypeId;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use rhai::{AST, Dynamic, Engine, NativeCallContext};

use super::state::Shared;
use runner::{Caller, Seam};

/// The Rust types of the parameters `name`'s contract declares, when it declares `arity` of them,
/// each of one type (a unit, a leader, a situation or other map, a whole number, a flag, a word
/// or text, a list).
fn contract_types(state: &Shared, name: &str, arity: usize) -> Option<Vec<TypeId>> {
    use crate::rules::contract::Kind;
    let st = state.borrow();
    let contract = st.ruleset.contracts.get(name)?;
    if contract.params.len() != arity {
        return None;
    }
    contract
        .params
        .iter()
        .map(|p| match p.kind {
            Kind::Unit => Some(TypeId::of::<crate::script::handles::UnitRef>()),
            Kind::Leader => Some(TypeId::of::<crate::script::handles::LeaderRef>()),
            Kind::Situation | Kind::Map => Some(TypeId::of::<rhai::Map>()),
            Kind::Int => Some(TypeId::of::<i64>()),
            Kind::Bool => Some(TypeId::of::<bool>()),
            Kind::Word | Kind::Text => Some(TypeId::of::<rhai::ImmutableString>()),
            Kind::Units | Kind::Leaders | Kind::Words | Kind::List => Some(TypeId::of::<rhai::Array>()),
            Kind::Number | Kind::Any => None,
        })
        .collect()
}

/// The compiled procedures of one host: which functions are registered with its engine, and their code.
pub struct Compiled {
    /// Every procedure function's (name, arity), by index.
    index: HashMap<(String, usize), usize>,
    /// Shared with the functions registered on the engine, which read the current code.
    table: Rc<RefCell<Table>>,
    /// The functions registered on the engine (a function must be registered to be compiled).
    registered: Vec<bool>,
    /// The functions that read `this`: registered with the receiver as a first argument.
    methods: HashSet<usize>,
    /// What may take a procedure's call over from the runner for the command running now
    /// (shared with the functions registered on the engine).
    seam: Rc<RefCell<Option<Rc<dyn Seam>>>>,
}

impl Compiled {
    /// Lowers every function of `procedures` that it can, registers those with `engine`,
    /// and returns the procedures with them taken out (Rhai calls the registered ones).
    pub fn new(engine: &mut Engine, procedures: &AST, state: &Shared) -> (Compiled, AST) {
        let mut index = HashMap::new();
        for def in crate::script::syntax::functions(procedures) {
            let next = index.len();
            index.entry((def.name.to_string(), def.params.len())).or_insert(next);
        }
        // The engine's own functions, by name and arity (listed only when some function reads
        // `this`): a method is not registered over one.
        let reading_this = lower::reading_this(procedures);
        let natives: HashSet<(String, usize)> = if reading_this.is_empty() {
            HashSet::new()
        } else {
            engine
                .collect_fn_metadata(None, |f| Some((f.metadata.name.to_string(), f.metadata.num_params)), true)
                .into_iter()
                .collect()
        };
        let methods = lower::methods(&reading_this, &index, &natives);
        let mut compiled = Compiled {
            registered: vec![false; index.len()],
            index,
            table: Rc::new(RefCell::new(Table::default())),
            methods,
            seam: Rc::default(),
        };
        let table = compiled.lower_all(procedures);
        for (key, &i) in &compiled.index {
            if table.functions[i].is_none() {
                continue;
            }
            let arity = key.1 + usize::from(compiled.methods.contains(&i));
            compiled.registered[i] = true;
            let shared = compiled.table.clone();
            let seam = compiled.seam.clone();
            let state = state.clone();
            let meter = state.borrow().meter.clone();
            // The types its contract names, where it names a type for every parameter.
            let typed = if compiled.methods.contains(&i) { None } else { contract_types(&state, &key.0, key.1) };
            let call = move |ctx: NativeCallContext, args: &mut [&mut Dynamic]| {
                let table = shared.borrow();
                let Some(f) = table.function(i) else {
                    return Err(format!("{} was not compiled", ctx.fn_name()).into());
                };
                // Arguments are passed by value, as to a script function: Rhai's own
                // temporaries are taken, but the first may be the caller's variable
                // (`fire(a, b, c)` passes `a` by reference): copied, or lent to a
                // function that only reads it and given back after.
                // A method's receiver is taken too, and given back after, changed (even by a
                // call that failed half way, as Rhai's `this` is changed where it lies).
                let mut slots: runner::Slots =
                    args.iter_mut()
                        .enumerate()
                        .map(|(i, a)| {
                            if i == 0 && !f.lends_first && !f.method { (**a).clone() } else { std::mem::take(&mut **a) }
                        })
                        .collect();
                let seam = seam.borrow().clone();
                let mut runner = runner::Runner {
                    ctx: &ctx,
                    table: &table,
                    state: &state,
                    meter: &meter,
                    depth: 0,
                    seam: seam.as_deref(),
                };
                let pos = ctx.call_position();
                let taken = runner.seam.and_then(|seam| seam.call(&mut runner, i, &f, &mut slots, pos, Caller::Rhai));
                let result = taken.unwrap_or_else(|| runner.call(&f, &mut slots, pos));
                if (f.lends_first || f.method)
                    && let (Some(first), Some(lent)) = (args.first_mut(), slots.first_mut())
                {
                    **first = std::mem::take(lent);
                }
                result
            };
            engine.register_raw_fn(key.0.clone(), vec![TypeId::of::<Dynamic>(); arity], call.clone());
            // Also under the types its contract names: Rhai finds a call of those types at its
            // first look, where a function of any types is found after trying every mix of
            // them with `Dynamic` (most of what it costs Rhai to call a procedure).
            if let Some(types) = typed {
                engine.register_raw_fn(key.0.clone(), types, call);
            }
            if compiled.methods.contains(&i) {
                // Called as a function (`draw_card()`), a method has no receiver: Rhai's error.
                let name = key.0.clone();
                engine.register_raw_fn(
                    key.0.clone(),
                    vec![TypeId::of::<Dynamic>(); key.1],
                    move |ctx: NativeCallContext, _: &mut [&mut Dynamic]| -> Result<Dynamic, _> {
                        let source = ctx.call_source().unwrap_or("").to_string();
                        let unbound = rhai::EvalAltResult::ErrorUnboundThis(rhai::Position::NONE).into();
                        Err(rhai::EvalAltResult::ErrorInFunctionCall(
                            name.clone(),
                            source,
                            unbound,
                            ctx.call_position(),
                        )
                        .into())
                    },
                );
            }
        }
        let rest = compiled.install(table, procedures);
        (compiled, rest)
    }

    /// Lowers the functions of `procedures` (the same functions, with other constants
    /// folded in after a switch changed) and returns them with the compiled ones taken out.
    pub fn relower(&self, procedures: &AST) -> AST {
        let table = self.lower_all(procedures);
        self.install(table, procedures)
    }

    /// The compiled functions' names, sorted.
    pub fn names(&self) -> Vec<String> {
        let table = self.table.borrow();
        let mut names: Vec<String> = self
            .index
            .iter()
            .filter(|(_, i)| table.functions[**i].is_some())
            .map(|((name, _), _)| name.clone())
            .collect();
        names.sort();
        names
    }

    /// Puts `seam` in place for the command running now: what may take a compiled procedure's
    /// call over from the runner (none: the runner runs every call).
    pub fn set_seam(&self, seam: Option<Rc<dyn Seam>>) {
        *self.seam.borrow_mut() = seam;
    }

    fn lower_all(&self, procedures: &AST) -> Table {
        let switches = lower::switch_hashes_agree();
        let mut functions = vec![None; self.index.len()];
        for ((name, arity), &i) in &self.index {
            functions[i] = lower::lower(procedures, name, *arity, &self.index, &self.methods, switches).map(Rc::new);
        }
        Table::new(functions)
    }

    /// Keeps the lowered functions that are registered; returns the procedures without them.
    fn install(&self, mut table: Table, procedures: &AST) -> AST {
        for (i, f) in table.functions.iter_mut().enumerate() {
            if !self.registered[i] {
                *f = None;
            }
        }
        let taken: Vec<bool> = table.functions.iter().map(Option::is_some).collect();
        *self.table.borrow_mut() = table;
        let mut rest = procedures.clone();
        rest.retain_functions(|_, _, name, arity| {
            self.index.get(&(name.to_string(), arity)).is_none_or(|&i| !taken[i])
        });
        rest
    }
}
