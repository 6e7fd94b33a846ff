//! Calls `check` refuses where they are written: a method no function answers, a value no table result gives, a yes-or-no roll used as a number.

use std::collections::{BTreeMap, BTreeSet};

use crate::rules::{Ruleset, did_you_mean};
use crate::script::syntax::{ASTNode, Expr, Stmt};
use rhai::{AST, Position};

/// Methods called in `ast` (`x.has_marker(..)`) that no function of the engine or the
/// rules is called, each with where it is written.
pub(super) fn unknown_methods(ast: &AST, known: &BTreeSet<String>) -> Vec<(String, Position)> {
    let mut found = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        if let Some(ASTNode::Expr(Expr::MethodCall(call, at))) = path.last()
            && call.namespace.is_empty()
            && !known.contains(call.name.as_str())
        {
            let hint = did_you_mean(&call.name, known.iter().map(String::as_str));
            found.push((format!("there is no method `{}`{hint}", call.name), *at));
        }
        true
    });
    found
}

/// `cell.value("fire_points")` with a name no result of any table gives.
pub(super) fn unknown_values(ast: &AST, ruleset: &Ruleset) -> Vec<(String, Position)> {
    let given: BTreeSet<&str> = ruleset
        .tables
        .values()
        .flat_map(|t| t.results.values())
        .flat_map(|r| r.values.keys())
        .map(String::as_str)
        .collect();
    let mut found = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        if let Some(ASTNode::Expr(Expr::MethodCall(call, _))) = path.last()
            && call.name == "value"
            && let Some(Expr::StringConstant(name, at)) = call.args.first()
            && !given.contains(name.as_str())
        {
            let hint = did_you_mean(name, given.iter().copied());
            found.push((format!("no result of any table gives a value `{name}`{hint}"), *at));
        }
        true
    });
    found
}

/// A yes-or-no roll (`roll("2d6 >= 7")`) used as a number, written into an operator:
/// at run time it is refused ("read its `.success`"); `check` says so where it is written.
/// Reads the roll itself and the names `let` binds to one.
pub(super) fn yes_no_rolls_as_numbers(ast: &AST, ruleset: &Ruleset) -> Vec<(String, Position)> {
    let asks = |expr: &Expr| -> Option<String> {
        let Expr::FnCall(call, _) = expr else { return None };
        if call.name != "roll" || !call.namespace.is_empty() {
            return None;
        }
        let Some(Expr::StringConstant(text, _)) = call.args.first() else { return None };
        let parsed = crate::dice::parse_with(text, &ruleset.dice, &crate::dice::DiceLimits::default()).ok()?;
        parsed.is_chance().then(|| text.to_string())
    };
    let mut bound: BTreeMap<String, String> = BTreeMap::new();
    ast.walk(&mut |path: &[ASTNode]| {
        if let Some(ASTNode::Stmt(Stmt::Var(x, ..))) = path.last()
            && let Some(text) = asks(&x.1)
        {
            bound.insert(x.0.name.to_string(), text);
        }
        true
    });
    let mut found = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        let call = match path.last() {
            Some(ASTNode::Expr(Expr::FnCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _))) => call,
            _ => return true,
        };
        if !call.is_operator_call() || !matches!(call.name.as_str(), "+" | "-" | ">=" | "<=" | ">" | "<" | "==" | "!=")
        {
            return true;
        }
        for arg in call.args.iter() {
            let text = match arg {
                Expr::Variable(var, ..) => bound.get(var.1.as_str()).cloned(),
                other => asks(other),
            };
            if let Some(text) = text {
                found.push((
                    format!("`{text}` asks yes or no: read its `.success`, not its value as a number"),
                    arg.position(),
                ));
            }
        }
        true
    });
    found
}
