//! Pure procedures (`signed(n)`): calls that read nothing but their plain arguments are run once per walk for each set of arguments.
//!
//! A melee notes `signed(a_mod)` for each of a round's hundred ways the dice
//! fall, always with the same modifier: the call is the same each time, so its
//! value is kept. A procedure is pure when it cannot branch and calls nothing
//! but Rhai's operators, a short list of functions of their arguments alone,
//! and other pure procedures, none of them defined again by the code of the walk.
//! Its arguments must hold no handle (a unit's values are the world's, which
//! the procedure could read), and be values `fingerprint` can compare.
//! A failed call is not kept: it fails again, as it would have.

use rhai::Dynamic;

use crate::script::compiled::code::{Callee, Code, Ex, Function};
use crate::script::handles::DeckRef;
use crate::script::handles::{LeaderRef, UnitRef};

/// Functions whose value follows from their arguments alone (called or as methods), whatever those hold.
pub const OF_ARGUMENTS: [&str; 19] = [
    "max",
    "min",
    "abs",
    "to_int",
    "to_float",
    "ceiling",
    "floor",
    "round",
    "len",
    "contains",
    "parse_int",
    "sub_string",
    "to_string",
    "to_upper",
    "to_lower",
    "trim",
    "is_empty",
    "sign",
    "type_of",
];

/// Whether the body of `f` reads nothing but its slots: see the module's note.
/// `procedure(index)` says whether the compiled procedure `index` is pure;
/// `redefined(hash)` whether the walk's code defines that function again.
pub fn is_pure(f: &Function, procedure: &dyn Fn(usize) -> bool, redefined: &dyn Fn(u64) -> bool) -> bool {
    f.body.iter().all(|stmt| stmt_pure(stmt, procedure, redefined))
}

fn stmt_pure(stmt: &Code, procedure: &dyn Fn(usize) -> bool, redefined: &dyn Fn(u64) -> bool) -> bool {
    let stmt_pure = |s: &Code| stmt_pure(s, procedure, redefined);
    let ex_pure = |e: &Ex| ex_pure(e, procedure, redefined);
    match stmt {
        Code::Expr(ex) | Code::Let(_, ex) | Code::Set(_, _, ex, _) => ex_pure(ex),
        Code::SetAt(_, steps, _, ex, _) => ex_pure(ex) && steps.iter().filter_map(|s| s.index()).all(ex_pure),
        Code::If(guard, then, otherwise, _) => ex_pure(guard) && then.iter().chain(otherwise).all(stmt_pure),
        Code::Switch(value, table) => {
            ex_pure(value)
                && table
                    .arms
                    .iter()
                    .all(|(guard, result)| guard.as_ref().is_none_or(|(g, _)| ex_pure(g)) && ex_pure(result))
        }
        Code::While(guard, body, _) => guard.as_ref().is_none_or(|(g, _)| ex_pure(g)) && body.iter().all(stmt_pure),
        Code::For(each) => ex_pure(&each.items) && each.body.iter().all(stmt_pure),
        Code::Return(Some(ex)) | Code::Throw(Some(ex), _) => ex_pure(ex),
        Code::Block(code) => code.iter().all(stmt_pure),
        Code::Break | Code::Continue | Code::Return(None) | Code::Throw(None, _) => true,
    }
}

fn ex_pure(ex: &Ex, procedure: &dyn Fn(usize) -> bool, redefined: &dyn Fn(u64) -> bool) -> bool {
    let own = |script: &Option<u64>| script.is_none_or(|s| !redefined(s));
    let itself = match ex {
        Ex::Call(Callee::Procedure(index, _, script), ..) => !redefined(*script) && procedure(*index),
        Ex::Call(Callee::Other(name, script), ..) => {
            (OF_ARGUMENTS.contains(&name.as_str()) || is_operator(name)) && own(script)
        }
        Ex::Method(_, name, _, script, _, _) => OF_ARGUMENTS.contains(&name.as_str()) && own(script),
        Ex::Block(code) => code.iter().all(|s| stmt_pure(s, procedure, redefined)),
        _ => true,
    };
    itself && !ex.any_child(&mut |e| !ex_pure(e, procedure, redefined))
}

/// Rhai's operators, called by name (`+`, `==`, `..`): no script can define them again, and none rolls.
pub(crate) fn is_operator(name: &str) -> bool {
    !name.starts_with(|c: char| c.is_alphabetic() || c == '_')
}

/// Whether `value` holds no handle to the world (a unit, leader or deck), at any depth.
pub(super) fn plain(value: &Dynamic) -> bool {
    !crate::script::plain::any_within(value, &|v| v.is::<UnitRef>() || v.is::<LeaderRef>() || v.is::<DeckRef>())
}
