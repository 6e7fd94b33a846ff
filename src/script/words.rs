//! `check` reads every word: properties read off units and leaders, words compared with a
//! unit's vocabulary field, marker names and table result ids written in procedures and
//! conditions, each against what the ruleset has, so that a misspelt word is an error and
//! not a comparison that is quietly never true.

use std::collections::{BTreeMap, BTreeSet};

use rhai::{AST, ASTNode, Expr, FnCallExpr, Position, Stmt};

use super::bindings::unit::{LEADER_PROPERTIES, UNIT_PROPERTIES};
use crate::rules::contract::Kind;
use crate::rules::{Ruleset, did_you_mean};

/// What a name stands for, where it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Typed {
    Unit,
    Leader,
    Units,
    Leaders,
}

/// The methods that name a marker: `x.has_marker("name")`.
const MARKER_METHODS: [&str; 4] = ["has_marker", "marker", "set_marker", "clear_marker"];

/// Properties a unit has besides its own fields: where it stands and who leads it.
const UNIT_EXTRAS: [&str; 2] = ["placed", "leaders"];

/// The unit fields whose words a ruleset's vocabulary lists.
fn vocabulary_of<'a>(ruleset: &'a Ruleset, field: &str) -> Option<(&'static str, &'a BTreeSet<String>)> {
    let v = &ruleset.vocabulary;
    Some(match field {
        "arm" => ("arm", &v.arms),
        "type" => ("type", &v.types),
        "grade" => ("grade", &v.grades),
        "formation" => ("formation", &v.formations),
        "order" => ("order", &v.orders),
        "nation" => ("nation", &v.nations),
        _ => return None,
    })
}

/// What a modifier's condition knows by name: the units and the leader it is about.
pub(super) fn condition_names() -> BTreeMap<String, Typed> {
    let units = ["firer", "target", "attacker", "defender", "unit", "enemy"];
    let mut names: BTreeMap<String, Typed> = units.iter().map(|n| (n.to_string(), Typed::Unit)).collect();
    names.insert("leader".into(), Typed::Leader);
    names
}

/// Every misspelt word in `ast`, read with `names` known (a condition's `unit`, a
/// contracted procedure's parameters), each with where it is written.
pub(super) fn misspelt(ast: &AST, ruleset: &Ruleset, names: &BTreeMap<String, Typed>) -> Vec<(String, Position)> {
    misspelt_with(ast, ruleset, names, None)
}

/// `misspelt`, with the keys `situation` may hold when they are known (a modifier list's).
pub(super) fn misspelt_with(
    ast: &AST,
    ruleset: &Ruleset,
    names: &BTreeMap<String, Typed>,
    situation: Option<&[&str]>,
) -> Vec<(String, Position)> {
    let mut found = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        check_node(path, ruleset, names, &mut found);
        if let (Some(keys), Some(ASTNode::Expr(Expr::Dot(chain, ..)))) = (situation, path.last())
            && let Expr::Variable(var, ..) = &chain.lhs
            && var.1 == "situation"
            && let Expr::Property(p, at) = first_step(&chain.rhs)
            && !keys.contains(&p.2.as_str())
        {
            let hint = did_you_mean(&p.2, keys.iter().copied());
            found.push((format!("the situation has no key `{}`{hint}; it has {}", p.2, keys.join(", ")), *at));
        }
        true
    });
    found
}

/// The keys a modifier list's conditions may read off `situation`, when it says.
pub(super) fn list_situation<'a>(ruleset: &'a Ruleset, list: &'a crate::rules::ModifierList) -> Option<Vec<&'a str>> {
    use crate::rules::ListSituation;
    let keys = match list.situation.as_ref()? {
        ListSituation::Of(name, _) => &ruleset.contracts.get(name)?.situation,
        ListSituation::Keys(keys) => keys,
    };
    Some(keys.iter().map(|k| k.name.as_str()).collect())
}

/// The same in every function of `ast`; in a function with a contract its parameters are
/// typed by it, and the variables of its `for` loops over their units and leaders.
pub(super) fn misspelt_in_procedures(ast: &AST, ruleset: &Ruleset) -> Vec<(String, Position)> {
    let mut found = misspelt(ast, ruleset, &BTreeMap::new());
    for def in ast.iter_fn_def() {
        let Some(contract) = ruleset.contracts.get(def.name.as_str()) else { continue };
        if contract.params.len() != def.params.len() {
            continue;
        }
        let mut names: BTreeMap<String, Typed> = BTreeMap::new();
        for p in &contract.params {
            let typed = match p.kind {
                Kind::Unit => Typed::Unit,
                Kind::Leader => Typed::Leader,
                Kind::Units => Typed::Units,
                Kind::Leaders => Typed::Leaders,
                _ => continue,
            };
            names.insert(p.name.clone(), typed);
        }
        if names.is_empty() {
            continue;
        }
        let mut alone = ast.clone_functions_only();
        let arity = def.params.len();
        alone.retain_functions(|_, _, n, a| n == def.name.as_str() && a == arity);
        // Loop variables first: `for l in unit.leaders` makes `l` a leader.
        alone.walk(&mut |path: &[ASTNode]| {
            if let Some(ASTNode::Stmt(Stmt::For(x, _))) = path.last()
                && let Some(typed) = item_of(&x.2.expr, &names)
            {
                names.insert(x.0.name.to_string(), typed);
            }
            true
        });
        for breach in misspelt(&alone, ruleset, &names) {
            if !found.contains(&breach) {
                found.push(breach);
            }
        }
    }
    found
}

/// What the items of the list `expr` are, when known.
fn item_of(expr: &Expr, names: &BTreeMap<String, Typed>) -> Option<Typed> {
    match expr {
        Expr::Variable(var, ..) => match names.get(var.1.as_str())? {
            Typed::Units => Some(Typed::Unit),
            Typed::Leaders => Some(Typed::Leader),
            _ => None,
        },
        Expr::Dot(chain, ..) => match (root(&chain.lhs, names)?, &chain.rhs) {
            (Typed::Unit, Expr::Property(p, _)) if p.2 == "leaders" => Some(Typed::Leader),
            _ => None,
        },
        _ => None,
    }
}

/// The type of a plain variable known by name.
fn root(expr: &Expr, names: &BTreeMap<String, Typed>) -> Option<Typed> {
    match expr {
        Expr::Variable(var, ..) => names.get(var.1.as_str()).copied(),
        _ => None,
    }
}

/// `unit.nation`: the field read off a known unit, with the property's position.
fn unit_field<'a>(expr: &'a Expr, names: &BTreeMap<String, Typed>) -> Option<&'a str> {
    let Expr::Dot(chain, ..) = expr else { return None };
    match (root(&chain.lhs, names)?, &chain.rhs) {
        (Typed::Unit, Expr::Property(p, _)) => Some(p.2.as_str()),
        _ => None,
    }
}

fn check_node(
    path: &[ASTNode],
    ruleset: &Ruleset,
    names: &BTreeMap<String, Typed>,
    found: &mut Vec<(String, Position)>,
) {
    match path.last() {
        Some(ASTNode::Expr(Expr::Dot(chain, ..))) => {
            // A property read off a known unit or leader.
            if let (Some(typed), Expr::Property(p, at)) = (root(&chain.lhs, names), first_step(&chain.rhs)) {
                let property = p.2.as_str();
                let known: Vec<&str> = match typed {
                    Typed::Unit => UNIT_PROPERTIES.iter().chain(UNIT_EXTRAS.iter()).copied().collect(),
                    Typed::Leader => LEADER_PROPERTIES.to_vec(),
                    Typed::Units | Typed::Leaders => Vec::new(),
                };
                if !known.is_empty() && !known.contains(&property) {
                    let what = if typed == Typed::Unit { "a unit" } else { "a leader" };
                    let hint = did_you_mean(property, known.iter().copied());
                    found
                        .push((format!("{what} has no property `{property}`{hint}; it has {}", known.join(", ")), *at));
                }
            }
            if let Expr::MethodCall(call, _) = first_step(&chain.rhs) {
                check_marker_call(call, 0, ruleset, found);
            }
        }
        Some(ASTNode::Expr(Expr::FnCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _))) => {
            check_call(call, ruleset, names, found);
        }
        _ => {}
    }
}

/// The first step of the right side of a `.` chain: `b` of `a.b.c`.
fn first_step(expr: &Expr) -> &Expr {
    match expr {
        Expr::Dot(chain, ..) => first_step(&chain.lhs),
        other => other,
    }
}

fn check_call(
    call: &FnCallExpr,
    ruleset: &Ruleset,
    names: &BTreeMap<String, Typed>,
    found: &mut Vec<(String, Position)>,
) {
    if !call.namespace.is_empty() {
        return;
    }
    let args = &call.args[..];
    match (call.name.as_str(), args) {
        // `unit.nation == "britain"`, either way round.
        ("==" | "!=", [a, b]) => {
            for (side, other) in [(a, b), (b, a)] {
                if let (Some(field), Expr::StringConstant(word, at)) = (unit_field(side, names), other) {
                    check_word(ruleset, field, word, *at, found);
                }
            }
        }
        // `unit.arm in ["infantry", "cavalry"]` is Rhai's `contains([..], unit.arm)`.
        ("contains", [Expr::Array(items, _), value]) | ("has_any", [value, Expr::Array(items, _)]) => {
            if let Some(field) = unit_field(value, names) {
                for item in items.iter() {
                    if let Expr::StringConstant(word, at) = item {
                        check_word(ruleset, field, word, *at, found);
                    }
                }
            }
        }
        ("any_marker", [_, Expr::StringConstant(marker, at)]) => check_marker(ruleset, marker, *at, found),
        ("has_marker" | "marker" | "set_marker" | "clear_marker", _) => check_marker_call(call, 1, ruleset, found),
        ("table_result", [Expr::StringConstant(table, _), Expr::StringConstant(result, at)]) => {
            if let Some(t) = ruleset.tables.get(table.as_str())
                && !t.results.contains_key(result.as_str())
            {
                let hint = did_you_mean(result, t.results.keys().map(String::as_str));
                found.push((format!("table `{table}` has no result `{result}`{hint}"), *at));
            }
        }
        _ => {}
    }
}

/// `x.has_marker("name")` (the name `first` arguments in: 0 as a method, 1 as a function).
fn check_marker_call(call: &FnCallExpr, first: usize, ruleset: &Ruleset, found: &mut Vec<(String, Position)>) {
    if !MARKER_METHODS.contains(&call.name.as_str()) {
        return;
    }
    if let Some(Expr::StringConstant(marker, at)) = call.args.get(first) {
        check_marker(ruleset, marker, *at, found);
    }
}

fn check_marker(ruleset: &Ruleset, marker: &str, at: Position, found: &mut Vec<(String, Position)>) {
    let markers = &ruleset.vocabulary.markers;
    // `removed` is grognard's own: the `removed: true` effect sets it.
    if markers.is_empty() || markers.contains(marker) || marker == "removed" {
        return;
    }
    let hint = did_you_mean(marker, markers.iter().map(String::as_str));
    found.push((
        format!("`{marker}` is not a marker of this ruleset{hint}; its vocabulary lists the markers it uses"),
        at,
    ));
}

fn check_word(ruleset: &Ruleset, field: &str, word: &str, at: Position, found: &mut Vec<(String, Position)>) {
    let Some((name, words)) = vocabulary_of(ruleset, field) else { return };
    if words.is_empty() || words.contains(word) {
        return;
    }
    let hint = did_you_mean(word, words.iter().map(String::as_str));
    found.push((format!("\"{word}\" is not a {name} of this ruleset{hint}"), at));
}
