//! Contracts put to work: each procedure a contract names first checks what it was passed
//! (`contract_check`), on every path that runs it, Rhai's and the compiled one alike.

use crate::script::syntax::{ASTNode, Expr, Stmt};
use rhai::{AST, Engine, Position};

use super::bindings::contract::{CHECK, check_situation_key, check_value, shown, unknown_key};
use super::error::offset_of;
use crate::rules::contract::{Contract, Key, Kind};
use crate::rules::{Problem, Ruleset, SourceFile, did_you_mean};

/// The procedure files with `contract_check(...)` put first in the body of every function
/// a contract names, and a problem for each contract that names no procedure or whose
/// parameters differ from the procedure's. The check is written on the line of the body's
/// `{`, so no line number of the file moves.
pub(super) fn put_checks(
    engine: &Engine,
    ruleset: &Ruleset,
    compiled: &[(SourceFile, AST)],
    problems: &mut Vec<Problem>,
) -> Vec<(SourceFile, AST)> {
    let mut found = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (file, ast) in compiled {
        let text = file.inner();
        let mut inserts: Vec<(usize, String)> = Vec::new();
        for def in crate::script::syntax::functions(ast) {
            let Some(contract) = ruleset.contracts.get(def.name.as_str()) else { continue };
            let params: Vec<&str> = def.params.iter().map(|p| p.as_str()).collect();
            let declared: Vec<&str> = contract.params.iter().map(|p| p.name.as_str()).collect();
            if params.len() != declared.len() {
                continue;
            }
            found.insert(contract.name.clone());
            if params != declared {
                problems.push(
                    Problem::error(
                        "rules::contract",
                        format!(
                            "the contract of `{}` names its parameters {}, but {} names them {}",
                            contract.name,
                            declared.join(", "),
                            file.name(),
                            params.join(", ")
                        ),
                        &contract.origin.file,
                        contract.origin.span,
                    )
                    .with_label("here")
                    .with_help("list the parameters as the procedure names them, in its order"),
                );
                continue;
            }
            let brace = offset_of(text, def.body.start_position());
            if text.as_bytes().get(brace) != Some(&b'{') {
                continue;
            }
            inserts.push((brace + 1, format!(" {CHECK}(\"{}\", [{}]);", contract.name, params.join(", "))));
        }
        if inserts.is_empty() {
            out.push((file.clone(), ast.clone()));
            continue;
        }
        inserts.sort();
        let mut checked = String::with_capacity(text.len() + 100 * inserts.len());
        let mut at = 0;
        for (offset, insert) in inserts {
            checked.push_str(&text[at..offset]);
            checked.push_str(&insert);
            at = offset;
        }
        checked.push_str(&text[at..]);
        match engine.compile(&checked) {
            Ok(mut with_checks) => {
                if let Some(source) = ast.source() {
                    with_checks.set_source(source);
                }
                out.push((file.clone(), with_checks));
            }
            // Cannot happen for a file that compiled; kept as written if it does.
            Err(_) => out.push((file.clone(), ast.clone())),
        }
    }
    for contract in ruleset.contracts.values().filter(|c| !found.contains(&c.name)) {
        let arities: Vec<usize> = compiled
            .iter()
            .flat_map(|(_, ast)| {
                crate::script::syntax::functions(ast).filter(|d| d.name == contract.name).map(|d| d.params.len())
            })
            .collect();
        let message = if arities.is_empty() {
            let names = compiled.iter().flat_map(|(_, ast)| ast.iter_functions().map(|f| f.name.to_string()));
            let names: Vec<String> = names.collect();
            let hint = did_you_mean(&contract.name, names.iter().map(String::as_str));
            format!("the contract `{}` names no procedure of this ruleset{hint}", contract.name)
        } else {
            format!(
                "the contract of `{}` lists {} parameters; the procedure takes {}",
                contract.name,
                contract.params.len(),
                arities.iter().map(usize::to_string).collect::<Vec<_>>().join(" or ")
            )
        };
        problems.push(
            Problem::error("rules::contract", message, &contract.origin.file, contract.origin.span).with_label("here"),
        );
    }
    out
}

/// Calls in `ast` of a contracted procedure that break its contract where it can be seen
/// without running them: a literal key that is not listed (in the situation or in any map
/// a contract declares the keys of, at any depth), and a literal value (a word, a number,
/// a flag, a list of words) of the wrong kind or not among its words. Each with the
/// position of the key or value to point at.
pub(super) fn literal_breaches(ast: &AST, ruleset: &Ruleset) -> Vec<(String, Position)> {
    let mut found = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        let call = match path.last() {
            Some(ASTNode::Expr(Expr::FnCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _))) => call,
            _ => return true,
        };
        if !call.namespace.is_empty() || call.name.as_str() == CHECK {
            return true;
        }
        let Some(contract) = ruleset.contracts.get(call.name.as_str()) else { return true };
        if call.args.len() != contract.params.len() {
            return true;
        }
        for (param, arg) in contract.params.iter().zip(call.args.iter()) {
            match (param.kind, arg) {
                (Kind::Situation, Expr::Map(map, _)) => {
                    for (key, value) in &map.0 {
                        let Some(spec) = contract.situation_key(&key.name) else {
                            if let Err(why) = check_situation_key(contract, &param.name, &key.name, None, None) {
                                found.push((why, key.pos));
                            }
                            continue;
                        };
                        let at = format!("{}.{}", param.name, key.name);
                        literal_in(contract, spec, value, &at, &mut found);
                    }
                }
                (Kind::Situation, _) => {}
                (_, arg) => literal_in(contract, param, arg, &param.name, &mut found),
            }
        }
        true
    });
    found
}

/// A literal `expr` given for `key` at `path`: a map literal is looked into key by key
/// when its keys are declared, a list literal item by item when its items are.
fn literal_in(contract: &Contract, key: &Key, expr: &Expr, path: &str, found: &mut Vec<(String, Position)>) {
    match (key.kind, expr) {
        (Kind::Map, Expr::Map(map, _)) if key.keys.is_some() => {
            for (name, value) in &map.0 {
                match key.key(&name.name) {
                    None => {
                        let why = unknown_key(key, &name.name);
                        found.push((format!("{}: {} {why}", contract.signature(), shown(path)), name.pos));
                    }
                    Some(spec) => literal_in(contract, spec, value, &format!("{path}.{}", name.name), found),
                }
            }
        }
        (Kind::List, Expr::Array(items, _)) if key.items.is_some() => {
            let spec = key.items.as_deref().expect("items checked above");
            for (i, item) in items.iter().enumerate() {
                literal_in(contract, spec, item, &format!("{path}[{i}]"), found);
            }
        }
        _ => {
            if let Some(value) = expr.get_literal_value(None)
                && !value.is_unit()
                && let Err((at, why)) = check_value(key, &value, path, None)
            {
                found.push((format!("{}: {} {why}", contract.signature(), shown(&at)), expr.position()));
            }
        }
    }
}
