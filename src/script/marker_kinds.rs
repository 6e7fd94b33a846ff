//! `check`'s reading of the marker values procedures write as literals (`set_marker("spent",
//! "no")`, `apply(x, #{markers: #{spent: "no"}})`, `unit(#{.., markers: #{..}})`) against the
//! kind the ruleset gives each marker. Marker names are `words.rs`'s.

use crate::script::syntax::{ASTNode, Expr, Stmt};
use rhai::{AST, Dynamic, Position};

use crate::rules::Ruleset;
use crate::unit::{Marker, MarkerFault, Vocabulary};

/// Each literal marker value of `ast` that is not of its marker's kind: why, and where.
pub(super) fn wrong_kinds(ast: &AST, ruleset: &Ruleset) -> Vec<(String, Position)> {
    let vocabulary = &ruleset.vocabulary;
    let mut found = Vec::new();
    if vocabulary.marker_kinds.is_empty() {
        return found;
    }
    ast.walk(&mut |path: &[ASTNode]| {
        let call = match path.last() {
            Some(
                ASTNode::Expr(Expr::FnCall(call, _) | Expr::MethodCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _)),
            ) => call,
            _ => return true,
        };
        match (call.name.as_str(), &call.args[..]) {
            // `u.set_marker("spent", "no")` and `set_marker(u, "spent", "no")`.
            ("set_marker", [.., Expr::StringConstant(name, _), value]) => {
                check(vocabulary, "set_marker", name, value, &mut found);
            }
            ("apply" | "unit" | "leader", args) => {
                for arg in args {
                    for (name, value) in markers_of(arg) {
                        check(vocabulary, &call.name, &name, value, &mut found);
                    }
                }
            }
            _ => {}
        }
        true
    });
    found
}

/// The entries of the `markers` map written in the map `spec`, each with the expression of its value.
fn markers_of(spec: &Expr) -> Vec<(String, &Expr)> {
    let Expr::Map(spec, _) = spec else { return Vec::new() };
    spec.0
        .iter()
        .filter(|(key, _)| key.name == "markers")
        .flat_map(|(_, markers)| match markers {
            Expr::Map(markers, _) => markers.0.iter().map(|(name, value)| (name.name.to_string(), value)).collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// The literal `value` written for the marker `name` in a call of `function`, if it is not of
/// the marker's kind. A name the ruleset does not list is left to `words.rs`.
fn check(vocabulary: &Vocabulary, function: &str, name: &str, value: &Expr, found: &mut Vec<(String, Position)>) {
    let Some(literal) = value.get_literal_value(None) else { return };
    let Some(kind) = vocabulary.marker_kind(name) else { return };
    let why = match as_marker(&literal) {
        Some(marker) => match vocabulary.marker_fault(name, &marker) {
            Some(fault @ MarkerFault::Kind(_)) => fault.sentence(name),
            _ => return,
        },
        None if literal.is_float() => format!("`{name}` is {}, not the decimal {literal}", kind.describe()),
        None => format!("`{name}` is {}, not {literal}", kind.describe()),
    };
    found.push((format!("{function}: {why}"), value.position()));
}

/// A literal as a marker's value: true or false, a whole number, a word.
fn as_marker(value: &Dynamic) -> Option<Marker> {
    if let Ok(flag) = value.as_bool() {
        Some(Marker::Flag(flag))
    } else if let Ok(n) = value.as_int() {
        Some(Marker::Count(n))
    } else if value.is_string() {
        Some(Marker::Text(value.to_string()))
    } else {
        None
    }
}
