//! `check`'s warning where a Roll is compared or added without a reading (`roll("1d6") >= 4`, not `.total`).
//!
//! A Roll compares and adds as its value (its total; for `hits`, the count), so such code
//! works; the warning asks for the reading to be written, so that a reader (and the rule
//! author, a month later) sees which number is meant.

use crate::script::syntax::{ASTNode, Expr, Stmt};
use rhai::{AST, Position};

use crate::rules::{Problem, SourceFile};
use crate::script::error::span_at;

/// Operators a Roll takes part in as a number.
const NUMERIC_OPERATORS: [&str; 8] = [">=", "<=", ">", "<", "==", "!=", "+", "-"];

/// A warning for each place in `ast` where a roll, or a variable that holds one, is an
/// operand of a comparison or a sum, or is added to a variable (`t += roll("2d6")`).
pub fn unread_rolls(file: &SourceFile, ast: &AST) -> Vec<Problem> {
    let mut found = Vec::new();
    // Variables are followed within one function: `let die = roll(...)` in one says
    // nothing of a parameter `die` in another. Top-level statements are a function of their own.
    let mut top = ast.clone();
    top.clear_functions();
    let mut scripts = vec![top];
    for def in crate::script::syntax::functions(ast) {
        let (name, arity) = (def.name.clone(), def.params.len());
        let mut alone = ast.clone_functions_only();
        alone.retain_functions(|_, _, n, a| n == name && a == arity);
        scripts.push(alone);
    }
    for script in &scripts {
        let mut rolls: Vec<String> = Vec::new();
        script.walk(&mut |path: &[ASTNode]| {
            if let Some(ASTNode::Stmt(Stmt::Var(x, ..))) = path.last()
                && is_roll(&x.1)
            {
                rolls.push(x.0.name.to_string());
            }
            true
        });
        script.walk(&mut |path: &[ASTNode]| {
            let operands: Vec<&Expr> = match path.last() {
                Some(ASTNode::Expr(Expr::FnCall(call, _)))
                    if call.op_token.is_some() && NUMERIC_OPERATORS.contains(&call.name.as_str()) =>
                {
                    call.args.iter().collect()
                }
                Some(ASTNode::Stmt(Stmt::Assignment(x))) if x.0.is_op_assignment() => vec![&x.1.rhs],
                _ => return true,
            };
            for operand in operands {
                let held = match operand {
                    Expr::Variable(var, _, _) if rolls.iter().any(|r| r.as_str() == var.1.as_str()) => {
                        Some(format!("`{}` holds a Roll, used as a number here", var.1))
                    }
                    _ if is_roll(operand) => Some("a Roll is used as a number here".to_string()),
                    _ => None,
                };
                if let Some(what) = held {
                    found.push((operand.position(), what));
                }
            }
            true
        });
    }
    found.sort_by_key(|(at, _)| (at.line(), at.position()));
    found.dedup_by_key(|(at, _)| *at);
    found
        .into_iter()
        .map(|(at, what): (Position, String)| {
            Problem::error(
                "script::roll_reading",
                format!("{what}: it counts as its total (for `hits`, the count)"),
                file,
                span_at(file, at),
            )
            .with_label("read without `.total` or `.hits`")
            .with_help("write the reading: `roll(\"1d6\").total >= 4`, `roll(\"6d6 hits 4+\").hits`")
            .warning()
        })
        .collect()
}

/// Whether `expr` is a call of `roll(...)` itself.
fn is_roll(expr: &Expr) -> bool {
    matches!(expr, Expr::FnCall(call, _) if call.name == "roll" && call.namespace.is_empty() && call.op_token.is_none())
}
