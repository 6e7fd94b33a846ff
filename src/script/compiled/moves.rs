//! Last reads: a local read for the last time is moved out of its slot instead of copied.
//!
//! Copying a value held in a slot costs an allocation when it is a unit, a
//! cell, a roll or a map (Rhai boxes them), and a procedure passes such values
//! on (`apply(target, cell)`, `#{ firer: firer, .. }`) more than it reads
//! anything else. A read that nothing after it can see the slot again may take
//! the value instead: the slot is never read before the function returns.
//!
//! "After" is the order `run` evaluates in, which is the order `walk` visits
//! in: every run of a function mentions its slots in an order that is a
//! subsequence of the walk's. Loops repeat, so no read inside one is moved; a
//! `switch` whose arms are not in order is treated like a loop.
//!
//! The same walk tells whether a function only reads its first parameter: then
//! a caller's variable passed by reference may be lent to it instead of copied.

use super::code::{Code, Ex, Function, SwitchTable};
use super::code::{PURE_METHODS, place_of};

/// How a slot is mentioned.
enum Mention<'e> {
    /// Its value copied out: the expression a move may replace.
    Read(&'e mut Ex),
    /// Read where it lies (a property, an operand).
    InPlace,
    /// Lent to a method, which may change it.
    Lent,
    /// Given a value, or its value taken.
    Written,
}

/// Whether `f` never changes nor takes its first parameter's value (call before `move_last_reads`).
pub fn only_reads_first(f: &mut Function) -> bool {
    let mut only_read = true;
    walk_block(&mut f.body, false, &mut |slot, mention, _| {
        if slot == 0 && matches!(mention, Mention::Lent | Mention::Written) {
            only_read = false;
        }
    });
    only_read
}

/// Turns each slot's last read into a move, where it is a plain read outside
/// any loop; not the first parameter's when it is `lent` (it goes back to the caller).
pub fn move_last_reads(f: &mut Function, lent: bool) {
    // The first walk finds each slot's last mention; the second, in the same order, changes it.
    let mut last: Vec<Option<(usize, bool)>> = vec![None; f.slots];
    let mut count = 0;
    walk_block(&mut f.body, false, &mut |slot, mention, looped| {
        let movable = matches!(mention, Mention::Read(_)) && !looped && !(lent && slot == 0);
        last[slot] = Some((count, movable));
        count += 1;
    });
    let mut count = 0;
    walk_block(&mut f.body, false, &mut |slot, mention, _| {
        if last[slot] == Some((count, true))
            && let Mention::Read(read) = mention
        {
            *read = Ex::Move(slot);
        }
        count += 1;
    });
}

/// What a walk tells of each mention of a slot: the slot, how, and whether it is in a loop.
type Visit<'v> = dyn FnMut(usize, Mention, bool) + 'v;

fn walk_block(code: &mut [Code], looped: bool, visit: &mut Visit) {
    for stmt in code {
        walk_code(stmt, looped, visit);
    }
}

fn walk_code(code: &mut Code, looped: bool, visit: &mut Visit) {
    match code {
        Code::Expr(ex) => walk(ex, looped, visit),
        // The value first, then the slot it is stored in (`x = x + 1`, `x.n += x.m`).
        Code::Let(slot, ex) | Code::Set(slot, _, ex, _) => {
            walk(ex, looped, visit);
            visit(*slot, Mention::Written, looped);
        }
        // The value, then the indices of the place (see `place`), then the slot.
        Code::SetAt(slot, steps, _, ex, _) => {
            walk(ex, looped, visit);
            for index in steps.iter_mut().filter_map(|s| s.index_mut()) {
                walk(index, looped, visit);
            }
            visit(*slot, Mention::Written, looped);
        }
        Code::If(guard, then, otherwise, _) => {
            walk(guard, looped, visit);
            walk_block(then, looped, visit);
            walk_block(otherwise, looped, visit);
        }
        Code::Switch(value, table) => {
            walk(value, looped, visit);
            let in_order = arms_in_order(table);
            for (guard, result) in &mut table.arms {
                if let Some((guard, _)) = guard {
                    walk(guard, looped || !in_order, visit);
                }
                walk(result, looped || !in_order, visit);
            }
        }
        Code::While(guard, body, _) => {
            if let Some((guard, _)) = guard {
                walk(guard, true, visit);
            }
            walk_block(body, true, visit);
        }
        Code::For(each) => {
            walk(&mut each.items, looped, visit);
            if let Some(counter) = each.counter {
                visit(counter, Mention::Written, true);
            }
            visit(each.item, Mention::Written, true);
            walk_block(&mut each.body, true, visit);
        }
        Code::Return(Some(ex)) | Code::Throw(Some(ex), _) => walk(ex, looped, visit),
        Code::Block(code) => walk_block(code, looped, visit),
        Code::Break | Code::Continue | Code::Return(None) | Code::Throw(None, _) => {}
    }
}

/// Whether a switch tries its arms in the order they are written: each case's
/// arms in rising order, the default last. Then a run visits a subsequence of them.
fn arms_in_order(table: &SwitchTable) -> bool {
    let cases_rise = table.cases.iter().all(|(_, arms)| arms.windows(2).all(|w| w[0] < w[1]));
    let default_last = table.default.is_none_or(|d| d + 1 == table.arms.len());
    cases_rise && default_last
}

fn walk(ex: &mut Ex, looped: bool, visit: &mut Visit) {
    match ex {
        Ex::Const(_) => {}
        Ex::Var(slot) => {
            let slot = *slot;
            visit(slot, Mention::Read(ex), looped);
        }
        Ex::Move(slot) => visit(*slot, Mention::Written, looped),
        // Read in place where they lie (see `run`): nothing to gain by moving them.
        Ex::Property(base, ..) if matches!(**base, Ex::Var(_)) => walk_in_place(base, looped, visit),
        Ex::WordCompare(compare) => walk(&mut compare.written, looped, visit),
        Ex::Binary(_, a, b, _) => {
            walk_in_place(a, looped, visit);
            walk_in_place(b, looped, visit);
        }
        Ex::Property(base, ..) | Ex::Not(base, _) | Ex::Negate(base, _) | Ex::TypeOf(base) => walk(base, looped, visit),
        // The index first, then the base, read in place (see `run`).
        Ex::Index(base, index, _) => {
            walk(index, looped, visit);
            walk_in_place(base, looped, visit);
        }
        // The arguments are worked out first, then the receiver is lent (see `run`): a
        // variable, or a place in one (its indices worked out first) for a method that may change it.
        Ex::Method(receiver, name, args, ..) => {
            for arg in args {
                walk(arg, looped, visit);
            }
            match receiver.as_mut() {
                Ex::Var(slot) => visit(*slot, Mention::Lent, looped),
                other if !PURE_METHODS.contains(&name.as_str()) && place_of(other).is_some() => {
                    let slot = walk_place(other, looped, visit);
                    visit(slot, Mention::Lent, looped);
                }
                other => walk(other, looped, visit),
            }
        }
        Ex::Array(items) | Ex::Interpolated(items) | Ex::Coalesce(items) | Ex::Call(_, items, _) => {
            for item in items {
                walk(item, looped, visit);
            }
        }
        Ex::Map(entries) => {
            for (_, value) in entries {
                walk(value, looped, visit);
            }
        }
        Ex::And(terms) | Ex::Or(terms) => {
            for (term, _) in terms {
                walk(term, looped, visit);
            }
        }
        Ex::Block(code) => walk_block(code, looped, visit),
    }
}

/// Walks the indices of a place in a variable, in order; its slot.
fn walk_place(ex: &mut Ex, looped: bool, visit: &mut Visit) -> usize {
    match ex {
        Ex::Property(base, ..) => walk_place(base, looped, visit),
        Ex::Index(base, index, _) => {
            let slot = walk_place(base, looped, visit);
            walk(index, looped, visit);
            slot
        }
        Ex::Var(slot) | Ex::Move(slot) => *slot,
        _ => unreachable!("a place is a variable's property or item"),
    }
}

/// A variable read where it lies (a receiver, an operand) is a mention, never a move.
fn walk_in_place(ex: &mut Ex, looped: bool, visit: &mut Visit) {
    match ex {
        Ex::Var(slot) => visit(*slot, Mention::InPlace, looped),
        other => walk(other, looped, visit),
    }
}
