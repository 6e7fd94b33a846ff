//! The words each marker is given anywhere in the rules, read once for `check`: by table results' effects, `set_marker` and `apply` in procedures.

use std::collections::{BTreeMap, BTreeSet};

use crate::rules::Ruleset;
use crate::script::syntax::{ASTNode, Expr, Stmt};
use rhai::AST;

/// The words each marker is given anywhere in the rules: by a table result's effects, by
/// `set_marker("name", "word")` and by `apply(x, #{markers: #{name: "word"}})` in procedures.
pub(super) type MarkerValues = BTreeMap<String, BTreeSet<String>>;

pub(super) fn marker_values(ruleset: &Ruleset, procedures: &AST) -> MarkerValues {
    let mut values = MarkerValues::new();
    for table in ruleset.tables.values() {
        for result in table.results.values() {
            for (name, marker) in &result.effects.markers {
                if let crate::unit::Marker::Text(word) = marker {
                    values.entry(name.clone()).or_default().insert(word.clone());
                }
            }
        }
    }
    procedures.walk(&mut |path: &[ASTNode]| {
        let call = match path.last() {
            Some(
                ASTNode::Expr(Expr::FnCall(call, _) | Expr::MethodCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _)),
            ) => call,
            _ => return true,
        };
        let args = &call.args[..];
        match (call.name.as_str(), args) {
            ("set_marker", [.., Expr::StringConstant(name, _), value]) => {
                if let Some(word) = value.get_literal_value(None).filter(rhai::Dynamic::is_string) {
                    values.entry(name.to_string()).or_default().insert(word.to_string());
                }
            }
            ("apply", [_, spec]) => {
                let markers = spec
                    .get_literal_value(None)
                    .and_then(|s| s.try_cast::<rhai::Map>())
                    .and_then(|m| m.get("markers").and_then(|m| m.clone().try_cast::<rhai::Map>()));
                for (name, word) in markers.into_iter().flatten() {
                    if word.is_string() {
                        values.entry(name.to_string()).or_default().insert(word.to_string());
                    }
                }
            }
            _ => {}
        }
        true
    });
    values
}
