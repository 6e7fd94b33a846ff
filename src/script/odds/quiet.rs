//! Quiet notes: a note nobody reads whose words cannot fail is skipped by an exact walk, and what it would read is not kept alive for it.
//!
//! The melee notes `differential: (${a_die.total} ${signed(a_mod)}) - ...` after
//! every pair of dice. Untraced, nobody reads those words; working them out could
//! only fail, and these cannot: a constant, a variable, the total of a roll held
//! by a variable that only ever holds a roll, and `signed(a_mod)`, whose body
//! compares its argument with a number (Rhai answers false for another kind of
//! value) and makes text of it. Skipped, the note no longer keeps both dice alive
//! after the differential is known: the hundred ways two dice fall merge into the
//! twenty differentials there.
//!
//! What "cannot fail" covers is short on purpose; anything else is worked out as written.

use crate::script::compiled::Table;
use crate::script::compiled::code::{Callee, Code, Ex, Function, Op};

/// Whether `stmt`, a statement of `f`, is a note that cannot fail (see the module's note).
/// `redefined(hash)` says whether the walk's code defines that function again.
pub fn is_quiet(stmt: &Code, f: &Function, table: &Table, redefined: &dyn Fn(u64) -> bool) -> bool {
    let Code::Expr(Ex::Call(Callee::Other(name, Some(script)), args, _)) = stmt else { return false };
    let [Ex::Interpolated(parts)] = &args[..] else { return false };
    (name == "note" || name == "detail")
        && !redefined(*script)
        && parts.iter().all(|part| match part {
            Ex::Const(_) | Ex::Var(_) => true,
            Ex::Property(base, property, _) => {
                property == "total" && matches!(base.as_ref(), Ex::Var(slot) if holds_a_roll(f, *slot, redefined))
            }
            Ex::Call(Callee::Procedure(index, _, script), args, _) => {
                !redefined(*script)
                    && args.iter().all(|a| matches!(a, Ex::Const(_) | Ex::Var(_)))
                    && table.function(*index).is_some_and(|callee| body_cannot_fail(&callee.body))
            }
            _ => false,
        })
}

/// Whether `slot` of `f` only ever holds a roll: it is no parameter, its one `let` is a
/// call of grognard's `roll`, and nothing else writes it.
fn holds_a_roll(f: &Function, slot: usize, redefined: &dyn Fn(u64) -> bool) -> bool {
    let mut lets = 0;
    let mut other_writes = false;
    visit(&f.body, &mut |stmt| match stmt {
        Code::Let(s, Ex::Call(Callee::Other(name, Some(script)), _, _))
            if *s == slot && name == "roll" && !redefined(*script) =>
        {
            lets += 1
        }
        Code::Let(s, _) | Code::Set(s, ..) | Code::SetAt(s, ..) if *s == slot => other_writes = true,
        Code::For(each) if each.item == slot || each.counter == Some(slot) => other_writes = true,
        _ => {}
    });
    // One `let` (a parameter's slot has none), and no method called on it, which may change it.
    lets == 1 && !other_writes && !f.body.iter().any(|s| mentions_as_receiver(s, slot))
}

/// Whether a body (`signed`'s) cannot fail: each statement an `if` on a comparison of a
/// variable or constant with a number, or a value of constants, variables and text made of them.
fn body_cannot_fail(body: &[Code]) -> bool {
    body.iter().all(|stmt| match stmt {
        Code::Expr(ex) | Code::Return(Some(ex)) => value_cannot_fail(ex),
        Code::If(guard, then, otherwise, _) => {
            comparison_cannot_fail(guard) && body_cannot_fail(then) && body_cannot_fail(otherwise)
        }
        _ => false,
    })
}

fn value_cannot_fail(ex: &Ex) -> bool {
    match ex {
        Ex::Const(_) | Ex::Var(_) => true,
        Ex::Interpolated(parts) => parts.iter().all(|p| matches!(p, Ex::Const(_) | Ex::Var(_))),
        Ex::Block(code) => body_cannot_fail(code),
        _ => false,
    }
}

/// `x < 0` and the like: a comparison with a number is a boolean whatever `x` holds (Rhai
/// compares values of two kinds as false).
fn comparison_cannot_fail(ex: &Ex) -> bool {
    let Ex::Binary(Op::Compare(_), a, b, _) = ex else { return false };
    let number = |e: &Ex| matches!(e, Ex::Const(c) if c.is_int() || c.is_float());
    let plain = |e: &Ex| matches!(e, Ex::Const(_) | Ex::Var(_));
    (number(a) && plain(b)) || (plain(a) && number(b))
}

/// Calls `each` with every statement of `code`, at any depth (inside expressions too).
fn visit(code: &[Code], each: &mut dyn FnMut(&Code)) {
    for stmt in code {
        each(stmt);
        match stmt {
            Code::If(_, then, otherwise, _) => {
                visit(then, each);
                visit(otherwise, each);
            }
            Code::While(_, body, _) => visit(body, each),
            Code::For(each_loop) => visit(&each_loop.body, each),
            Code::Block(inner) => visit(inner, each),
            _ => {}
        }
        visit_blocks_in(stmt, each);
    }
}

/// The statements of blocks used as values inside `stmt`'s expressions.
fn visit_blocks_in(stmt: &Code, each: &mut dyn FnMut(&Code)) {
    let mut blocks: Vec<&[Code]> = Vec::new();
    expressions(stmt, &mut |ex| collect_blocks(ex, &mut blocks));
    for block in blocks {
        visit(block, each);
    }
}

fn collect_blocks<'a>(ex: &'a Ex, blocks: &mut Vec<&'a [Code]>) {
    match ex {
        Ex::Block(code) => blocks.push(code),
        _ => {
            ex.any_child(&mut |e| {
                collect_blocks(e, blocks);
                false
            });
        }
    }
}

/// Calls `each` with the expressions a statement holds directly.
fn expressions<'a>(stmt: &'a Code, each: &mut dyn FnMut(&'a Ex)) {
    match stmt {
        Code::Expr(ex) | Code::Let(_, ex) | Code::Set(_, _, ex, _) => each(ex),
        Code::SetAt(_, steps, _, ex, _) => {
            each(ex);
            steps.iter().filter_map(|s| s.index()).for_each(each);
        }
        Code::If(guard, ..) => each(guard),
        Code::Switch(value, table) => {
            each(value);
            for (guard, result) in &table.arms {
                if let Some((guard, _)) = guard {
                    each(guard);
                }
                each(result);
            }
        }
        Code::While(Some((guard, _)), ..) => each(guard),
        Code::For(each_loop) => each(&each_loop.items),
        Code::Return(Some(ex)) | Code::Throw(Some(ex), _) => each(ex),
        _ => {}
    }
}

/// Whether `slot` is the receiver of a method call anywhere in `stmt` (which may change it).
fn mentions_as_receiver(stmt: &Code, slot: usize) -> bool {
    let mut found = false;
    let mut look = |stmt: &Code| {
        expressions(stmt, &mut |ex| found |= receiver_in(ex, slot));
    };
    look(stmt);
    visit(std::slice::from_ref(stmt), &mut look);
    found
}

fn receiver_in(ex: &Ex, slot: usize) -> bool {
    let receiver = matches!(ex, Ex::Method(receiver, ..) if receiver.place_root() == Some(slot));
    receiver || ex.any_child(&mut |e| receiver_in(e, slot))
}
