//! What the walk's code reads of a call's outcomes: `melee(a, b, s).result` reads one field of what the call returns and nothing after, so outcomes alike in that field are one.
//!
//! The melee study's melee has 181 outcomes (result, differential, rounds,
//! stands lost, and the units as they are left), but `.result` tells only six
//! apart. Branching the walk over 181 would replay the code around the call
//! 181 times, each to read a result one of six. So when the code is that one
//! statement, the call's outcomes are merged by the field (and by what the
//! study counted, which the walk adds up after), before the walk branches.

use crate::script::syntax::{Expr, Stmt};
use rhai::{AST, Dynamic, ImmutableString};

/// The one statement `name(args).field`, whose arguments call nothing but `unit(..)` and
/// `leader(..)`: the only call of `name` a walk of it makes outside procedures.
pub struct Projection {
    name: ImmutableString,
    arity: usize,
    field: ImmutableString,
}

impl Projection {
    /// The projection `code` allows, if any: `code` is the walk's code as written (no
    /// functions of its own), `whole` any code holding the functions it may call.
    pub fn of(code: &AST, whole: &AST) -> Option<Projection> {
        if code.iter_functions().next().is_some() {
            return None;
        }
        // `unit` and `leader` must be grognard's, not functions defined again.
        if whole.iter_functions().any(|f| ["unit", "leader"].contains(&f.name)) {
            return None;
        }
        let [Stmt::Expr(expr)] = code.statements() else { return None };
        let Expr::Dot(chain, _, _) = expr.as_ref() else { return None };
        let (Expr::FnCall(call, _), Expr::Property(property, _)) = (&chain.lhs, &chain.rhs) else { return None };
        if !call.namespace.is_empty() || call.is_operator_call() || !call.args.iter().all(calls_nothing_else) {
            return None;
        }
        Some(Projection { name: call.name.clone(), arity: call.args.len(), field: property.2.clone() })
    }

    /// The arguments of the code's call (`code` as `of` took it), each as code of its own: they
    /// make the same units and leaders each time and roll nothing, so a walk that replays the
    /// call face by face may work them out once (`called_with`).
    pub fn arguments(code: &AST) -> Vec<AST> {
        let Some(call) = the_call(code) else { return Vec::new() };
        call.args.iter().map(|arg| AST::new([Stmt::Expr(Box::new(arg.clone()))], rhai::Module::new())).collect()
    }

    /// `code` with its call's arguments given as `values`, worked out before.
    pub fn called_with(code: &AST, values: Vec<Dynamic>) -> Option<AST> {
        let [Stmt::Expr(expr)] = code.statements() else { return None };
        let Expr::Dot(chain, flags, pos) = expr.as_ref() else { return None };
        let Expr::FnCall(call, call_pos) = &chain.lhs else { return None };
        if values.len() != call.args.len() {
            return None;
        }
        // Made anew, not copied: a copy would copy the arguments' code only to drop it.
        let call = crate::script::syntax::FnCallExpr {
            namespace: call.namespace.clone(),
            name: call.name.clone(),
            hashes: call.hashes,
            args: call
                .args
                .iter()
                .zip(values)
                .map(|(arg, v)| Expr::DynamicConstant(Box::new(v), arg.position()))
                .collect(),
            capture_parent_scope: call.capture_parent_scope,
            op_token: call.op_token.clone(),
        };
        let chain =
            crate::script::syntax::BinaryExpr { lhs: Expr::FnCall(Box::new(call), *call_pos), rhs: chain.rhs.clone() };
        let stmt = Stmt::Expr(Box::new(Expr::Dot(Box::new(chain), *flags, *pos)));
        Some(AST::new([stmt], rhai::Module::new()))
    }

    /// Whether a call of `name` with `arity` arguments is the one projected.
    pub fn applies(&self, name: &str, arity: usize) -> bool {
        self.name == name && self.arity == arity
    }

    /// What the code reads of `value`: of a map, a map of the field alone (none when it has
    /// none, as Rhai reads it: `()`); any other value as it is (reading it fails the same).
    pub fn project(&self, value: &Dynamic) -> Dynamic {
        match value.read_lock::<rhai::Map>() {
            Some(map) => {
                let mut only = rhai::Map::new();
                if let Some(v) = map.get(self.field.as_str()) {
                    only.insert(self.field.as_str().into(), v.clone());
                }
                Dynamic::from_map(only)
            }
            None => value.clone(),
        }
    }
}

/// The call of the one statement `name(args).field`.
fn the_call(code: &AST) -> Option<&crate::script::syntax::FnCallExpr> {
    let [Stmt::Expr(expr)] = code.statements() else { return None };
    let Expr::Dot(chain, _, _) = expr.as_ref() else { return None };
    match &chain.lhs {
        Expr::FnCall(call, _) => Some(call),
        _ => None,
    }
}

/// Whether `expr` makes no call but `unit(..)` and `leader(..)` of values that make none.
fn calls_nothing_else(expr: &Expr) -> bool {
    match expr {
        Expr::DynamicConstant(..)
        | Expr::BoolConstant(..)
        | Expr::IntegerConstant(..)
        | Expr::FloatConstant(..)
        | Expr::CharConstant(..)
        | Expr::StringConstant(..)
        | Expr::Unit(..)
        | Expr::Variable(..) => true,
        Expr::Array(items, _) => items.iter().all(calls_nothing_else),
        Expr::Map(entries, _) => entries.0.iter().all(|(_, e)| calls_nothing_else(e)),
        Expr::FnCall(call, _) => {
            call.namespace.is_empty()
                && ["unit", "leader"].contains(&call.name.as_str())
                && call.args.iter().all(calls_nothing_else)
        }
        _ => false,
    }
}
