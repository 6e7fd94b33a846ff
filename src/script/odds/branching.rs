//! Which statements may branch (roll dice, draw, or call a procedure that may): the rest run once, on their state itself.
//!
//! A statement that cannot branch needs no copy of its state to replay from, and a
//! procedure that cannot branch is simply run, not worked out as a distribution.
//! This guess may be wrong only one way without harm: a statement called
//! non-branching that rolls all the same (a procedure redefined at the REPL, say)
//! is caught when it runs (`flow::run_once`), and the walk gives up and replays
//! every face instead. So the list of calls that never branch may be short; it
//! is never wrong the other way round, which would matter only for speed.

use crate::script::compiled::code::{Callee, Code, Ex};

/// Calls of grognard's and Rhai's that never roll nor draw, beside those whose value
/// follows from their arguments alone (`pure::OF_ARGUMENTS`).
const STEADY: [&str; 26] = [
    "note",
    "detail",
    "lookup",
    "table_result",
    "modifiers",
    "option",
    "interpretation",
    "apply",
    "split",
    "keys",
    "values",
    "push",
    "append",
    "remove",
    "tally",
    "record",
    "has_any",
    "any_marker",
    "unit",
    "leader",
    "on_table",
    "within",
    "front",
    "distance",
    "contact",
    "aspect",
];

/// Whether running `stmt` may take a branch; `procedure(index)` says whether calling the
/// compiled procedure `index` may.
pub fn may_branch(stmt: &Code, procedure: &dyn Fn(usize) -> bool) -> bool {
    let may_branch = |stmt: &Code| may_branch(stmt, procedure);
    let ex_may_branch = |ex: &Ex| ex_may_branch(ex, procedure);
    match stmt {
        Code::Expr(ex) | Code::Let(_, ex) | Code::Set(_, _, ex, _) => ex_may_branch(ex),
        Code::SetAt(_, steps, _, ex, _) => {
            ex_may_branch(ex) || steps.iter().filter_map(|s| s.index()).any(ex_may_branch)
        }
        Code::If(guard, then, otherwise, _) => ex_may_branch(guard) || then.iter().chain(otherwise).any(may_branch),
        Code::Switch(value, table) => {
            ex_may_branch(value)
                || table.arms.iter().any(|(guard, result)| {
                    guard.as_ref().is_some_and(|(g, _)| ex_may_branch(g)) || ex_may_branch(result)
                })
        }
        Code::While(guard, body, _) => {
            guard.as_ref().is_some_and(|(g, _)| ex_may_branch(g)) || body.iter().any(may_branch)
        }
        Code::For(each) => ex_may_branch(&each.items) || each.body.iter().any(may_branch),
        Code::Return(Some(ex)) | Code::Throw(Some(ex), _) => ex_may_branch(ex),
        Code::Block(code) => code.iter().any(may_branch),
        Code::Break | Code::Continue | Code::Return(None) | Code::Throw(None, _) => false,
    }
}

/// Whether working out `ex` may take a branch.
pub fn ex_may_branch(ex: &Ex, procedure: &dyn Fn(usize) -> bool) -> bool {
    let itself = match ex {
        Ex::Call(Callee::Procedure(index, ..), ..) => procedure(*index),
        Ex::Call(Callee::Other(name, _), ..) => {
            let steady = STEADY.contains(&name.as_str()) || super::pure::OF_ARGUMENTS.contains(&name.as_str());
            !steady && !super::pure::is_operator(name)
        }
        // A compiled method may branch as its body may; a deck's draw does; Rhai's methods do not.
        Ex::Method(_, name, _, _, method, _) => method.is_some_and(procedure) || name == "draw",
        Ex::Block(code) => code.iter().any(|stmt| may_branch(stmt, procedure)),
        _ => false,
    };
    itself || ex.any_child(&mut |e| ex_may_branch(e, procedure))
}
