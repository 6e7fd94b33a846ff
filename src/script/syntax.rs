//! Rhai's internals, named in one place: the syntax tree and the evaluator's state the crate reads, and what it relies on of them.
//!
//! grognard reads the syntax tree of the procedures it is given: to check them (types, words,
//! contracts, overlays), to compile them to native steps (`compiled`), and to see what the
//! code of an `odds` command reads of its call (`odds::projection`). Rhai exports that tree
//! only under its `internals` feature, as "volatile": a new Rhai may change it without a major
//! version. So Rhai is pinned to one exact version (`Cargo.toml`), every internal item the
//! crate names is named here, and no other file names one from `rhai::` (a test holds them to
//! it). A Rhai upgrade is this file to re-read, then the files in `READERS`, which match on
//! the shapes below; the compiler points at every shape that changed, and the differential
//! tests of `compiled` against Rhai (`script::tests`, `tests/sandbox.rs`) at every meaning.
//!
//! What the crate relies on, as of Rhai 1.27.0:
//! - `Expr` and `Stmt`, matched by variant: calls (`Expr::FnCall` with `FnCallExpr`'s `name`,
//!   `args`, `hashes`, `op_token`), method calls and property reads (`Expr::Dot`,
//!   `Expr::Index` with `BinaryExpr`'s `lhs`, `rhs`, and `ASTFlags` for `?.`), variables,
//!   constants of each type, interpolated strings, `Stmt::If`/`Switch`/`While`/`Do`/`For`/
//!   `Var`/`Assignment`/`Return`/`Expr`/`Block`/`Import`, each with the fields it has now.
//! - `ASTNode` and `AST::walk`: a depth-first visit of every statement and expression, with
//!   the path from the root.
//! - `AST::statements`, `StmtBlock::statements`, `AST::shared_lib`, `AST::clear_statements`,
//!   and the functions an `AST` defines (`functions`: `ScriptFuncDef`'s `name`, `params`, `body`).
//! - The evaluator's state seen by a native function: its call depth (`call_level`) and the
//!   functions defined by the code that called it (`defined_again`).
//! - `Caches` and `Engine::eval_statements_raw` (`eval_with_caches`): a study keeps Rhai's own
//!   function resolutions from trial to trial, which no other entry point takes (deprecated
//!   since Rhai 1.12, kept until Rhai 2; it saves about 8% of a one-fire trial).

use rhai::{AST, Dynamic, Engine, EvalAltResult, NativeCallContext, Scope};

pub use rhai::{ASTFlags, ASTNode, BinaryExpr, Caches, Expr, FnCallExpr, Stmt, StmtBlock};

/// The files that read the syntax tree or the evaluator's state through this module: what to
/// re-read after a Rhai upgrade (a test holds the list to the files that name this module).
#[cfg_attr(not(test), allow(dead_code))]
pub const READERS: &[&str] = &[
    "script/base_calls.rs",
    "script/bindings/unseen.rs",
    "script/call_checks.rs",
    "script/compiled/lower.rs",
    "script/compiled/mod.rs",
    "script/compiled/run.rs",
    "script/condition.rs",
    "script/contracted.rs",
    "script/host/check.rs",
    "script/host/eval.rs",
    "script/host/reach.rs",
    "script/host/resolutions.rs",
    "script/host/setup.rs",
    "script/marker_kinds.rs",
    "script/marker_values.rs",
    "script/odds/projection.rs",
    "script/odds/seam.rs",
    "script/odds/walk.rs",
    "script/overlay_check.rs",
    "script/roll_readings.rs",
    "script/type_checks.rs",
    "script/type_flow.rs",
    "script/unread.rs",
    "script/words.rs",
];

/// The script functions `ast` defines, in order.
pub fn functions(ast: &AST) -> impl Iterator<Item = &rhai::Shared<rhai::ScriptFuncDef>> {
    ast.iter_fn_def()
}

/// How deep in calls the code that called a native function stands (Rhai's own count, which
/// `max_call_levels` limits).
pub fn call_level(ctx: &NativeCallContext) -> usize {
    ctx.global_runtime_state().level
}

/// Whether the code that called a native function defines the script function of hash `script`
/// again (a house rule typed at the REPL wins over a compiled procedure, as in Rhai).
pub fn defined_again(ctx: &NativeCallContext, script: u64) -> bool {
    ctx.namespaces().iter().any(|m| m.contains_fn(script))
}

/// Evaluates `ast` in `scope` as `Engine::eval_ast_with_scope` sets up an evaluation (Rhai 1.27
/// `src/api/eval.rs`), with the function resolutions in `caches` instead of fresh ones.
pub fn eval_with_caches(
    engine: &Engine,
    caches: &mut Caches,
    scope: &mut Scope,
    ast: &AST,
) -> Result<Dynamic, Box<EvalAltResult>> {
    let mut global = engine.new_global_runtime_state();
    global.source = ast.source().map(Into::into);
    global.lib.push(ast.shared_lib().clone());
    global.embedded_module_resolver = ast.resolver().cloned();
    #[allow(deprecated)]
    engine.eval_statements_raw(&mut global, caches, scope, ast.statements())
}
