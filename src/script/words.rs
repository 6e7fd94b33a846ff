//! `check` reads every word of procedures and conditions against what the ruleset has:
//! properties read off units and leaders, words compared with a unit's vocabulary field or
//! a situation key's words, situation keys a modifier list's conditions read, marker names
//! and the words markers are given, table result ids, method names, and a yes-or-no roll
//! used as a number. A misspelt word is then an error, not a comparison quietly never true.

use std::collections::{BTreeMap, BTreeSet};

use crate::script::syntax::{ASTNode, Expr, FnCallExpr, Stmt};
use rhai::{AST, Position};

use super::marker_values::MarkerValues;
use super::properties::{LEADER_PROPERTIES, UNIT_PROPERTIES};
use crate::rules::contract::Key;
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

/// The vocabulary field that lists the words of a unit's property, and the property's name.
fn vocabulary_of<'a>(ruleset: &'a Ruleset, property: &str) -> Option<(&'static str, &'a BTreeSet<String>)> {
    let (name, field) = match property {
        "arm" => ("arm", "arms"),
        "type" => ("type", "types"),
        "grade" => ("grade", "grades"),
        "formation" => ("formation", "formations"),
        "order" => ("order", "orders"),
        "nation" => ("nation", "nations"),
        _ => return None,
    };
    Some((name, ruleset.vocabulary.field(field)?))
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
pub(super) fn misspelt(
    ast: &AST,
    ruleset: &Ruleset,
    names: &BTreeMap<String, Typed>,
    marker_values: &MarkerValues,
) -> Vec<(String, Position)> {
    misspelt_with(ast, ruleset, names, marker_values, None)
}

/// `misspelt`, with the keys `situation` may hold when they are known (a modifier list's):
/// a key read that is not one of them, or a word compared with a key's value that is not
/// among its words, is misspelt too.
pub(super) fn misspelt_with(
    ast: &AST,
    ruleset: &Ruleset,
    names: &BTreeMap<String, Typed>,
    marker_values: &MarkerValues,
    situation: Option<&[Key]>,
) -> Vec<(String, Position)> {
    let mut found = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        check_node(path, ruleset, names, marker_values, &mut found);
        let Some(keys) = situation else { return true };
        match path.last() {
            Some(ASTNode::Expr(Expr::Dot(chain, ..))) => {
                if let Some((key, at)) = situation_key(&chain.lhs, &chain.rhs)
                    && !keys.iter().any(|k| k.name == key)
                {
                    let names: Vec<&str> = keys.iter().map(|k| k.name.as_str()).collect();
                    let hint = did_you_mean(key, names.iter().copied());
                    found.push((format!("the situation has no key `{key}`{hint}; it has {}", names.join(", ")), at));
                }
            }
            Some(ASTNode::Expr(Expr::FnCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _)))
                if call.namespace.is_empty() =>
            {
                for (value, words) in compared_words(call) {
                    let Expr::Dot(chain, ..) = value else { continue };
                    let Some((key, _)) = situation_key(&chain.lhs, &chain.rhs) else { continue };
                    let Some(spec) = keys.iter().find(|k| k.name == key) else { continue };
                    for (word, at) in words {
                        if !spec.words.is_empty() && !spec.words.contains(&word) {
                            let hint = did_you_mean(&word, spec.words.iter().map(String::as_str));
                            let list: Vec<&str> = spec.words.iter().map(String::as_str).collect();
                            found.push((
                                format!(
                                    "situation.{key} has no word \"{word}\"{hint}; its words are {}",
                                    list.join(", ")
                                ),
                                at,
                            ));
                        }
                    }
                }
            }
            _ => {}
        }
        true
    });
    found
}

/// `situation.key`: the key read off the situation, and where.
fn situation_key<'a>(lhs: &Expr, rhs: &'a Expr) -> Option<(&'a str, Position)> {
    match (lhs, first_step(rhs)) {
        (Expr::Variable(var, ..), Expr::Property(p, at)) if var.1 == "situation" => Some((p.2.as_str(), *at)),
        _ => None,
    }
}

/// The value compared and the words it is compared with, in `x == "w"` (either way round),
/// `x != "w"`, `x in [..]` and `has_any(x, [..])`.
fn compared_words(call: &FnCallExpr) -> Vec<(&Expr, Vec<(String, Position)>)> {
    let args = &call.args[..];
    match (call.name.as_str(), args) {
        ("==" | "!=", [a, b]) => [(a, b), (b, a)]
            .into_iter()
            .filter_map(|(value, other)| match other {
                Expr::StringConstant(word, at) => Some((value, vec![(word.to_string(), *at)])),
                _ => None,
            })
            .collect(),
        ("contains", [list, value]) | ("has_any", [value, list]) => vec![(value, words_of(list))],
        _ => Vec::new(),
    }
}

/// The keys a modifier list's conditions may read off `situation`, when it says.
pub(super) fn list_situation<'a>(ruleset: &'a Ruleset, list: &'a crate::rules::ModifierList) -> Option<&'a [Key]> {
    use crate::rules::ListSituation;
    Some(match list.situation.as_ref()? {
        ListSituation::Of(name, _) => &ruleset.contracts.get(name)?.situation,
        ListSituation::Keys(keys) => keys,
    })
}

/// The same in every function of `ast`, with the units and leaders each function's variables
/// are known to hold (`typed`, by function name and arity: from its contract, its callers and
/// its own `let`s and loops, as `type_flow` follows them).
pub(super) fn misspelt_in_procedures(
    ast: &AST,
    ruleset: &Ruleset,
    marker_values: &MarkerValues,
    typed: &BTreeMap<(String, usize), BTreeMap<String, Typed>>,
) -> Vec<(String, Position)> {
    let mut found = misspelt(ast, ruleset, &BTreeMap::new(), marker_values);
    for def in crate::script::syntax::functions(ast) {
        let arity = def.params.len();
        let Some(names) = typed.get(&(def.name.to_string(), arity)).filter(|n| !n.is_empty()) else { continue };
        let mut alone = ast.clone_functions_only();
        alone.retain_functions(|_, _, n, a| n == def.name.as_str() && a == arity);
        for breach in misspelt(&alone, ruleset, names, marker_values) {
            if !found.contains(&breach) {
                found.push(breach);
            }
        }
    }
    found
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
    marker_values: &MarkerValues,
    found: &mut Vec<(String, Position)>,
) {
    match path.last() {
        Some(ASTNode::Expr(Expr::Dot(chain, ..))) => {
            // A property read off a known unit or leader.
            if let (Some(typed), Expr::Property(p, at)) = (root(&chain.lhs, names), first_step(&chain.rhs)) {
                let property = p.2.as_str();
                let known: Vec<&str> = match typed {
                    Typed::Unit => UNIT_PROPERTIES
                        .iter()
                        .chain(UNIT_EXTRAS.iter())
                        .copied()
                        .chain(ruleset.vocabulary.unit_fields.keys().map(String::as_str))
                        .collect(),
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
            check_call(call, ruleset, names, marker_values, found);
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
    marker_values: &MarkerValues,
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
                // `unit.marker("battery") == "damaged"`: a word the marker is ever given.
                if let (Some(marker), Expr::StringConstant(word, at)) = (marker_read(side), other)
                    && let Some(values) = marker_values.get(marker)
                    && !values.contains(word.as_str())
                {
                    let hint = did_you_mean(word, values.iter().map(String::as_str));
                    let list: Vec<&str> = values.iter().map(String::as_str).collect();
                    found.push((
                        format!("marker `{marker}` is never \"{word}\"{hint}; the rules give it {}", list.join(", ")),
                        *at,
                    ));
                }
            }
        }
        // `unit.arm in ["infantry", "cavalry"]` is Rhai's `contains([..], unit.arm)`.
        ("contains", [list, value]) | ("has_any", [value, list]) => {
            if let Some(field) = unit_field(value, names) {
                for (word, at) in words_of(list) {
                    check_word(ruleset, field, &word, at, found);
                }
            }
        }
        ("any_marker", [_, Expr::StringConstant(marker, at)]) => check_marker(ruleset, marker, *at, found),
        // `apply(unit, #{markers: #{name: ..}, clear_markers: ["name"]})`: the names of the markers.
        ("apply", [_, Expr::Map(spec, _)]) => {
            for (key, value) in &spec.0 {
                match (key.name.as_str(), value) {
                    ("markers", Expr::Map(markers, _)) => {
                        for (name, _) in &markers.0 {
                            check_marker(ruleset, &name.name, name.pos, found);
                        }
                    }
                    ("markers" | "clear_markers", other) if other.is_constant() => {
                        let at = other.position();
                        let value = other.get_literal_value(None);
                        let names: Vec<String> = match value {
                            Some(v) if v.is_map() => v.cast::<rhai::Map>().keys().map(|k| k.to_string()).collect(),
                            Some(v) if v.is_array() => v.cast::<rhai::Array>().iter().map(|n| n.to_string()).collect(),
                            _ => Vec::new(),
                        };
                        for name in names {
                            check_marker(ruleset, &name, at, found);
                        }
                    }
                    ("clear_markers", list) => {
                        for (name, at) in words_of(list) {
                            check_marker(ruleset, &name, at, found);
                        }
                    }
                    _ => {}
                }
            }
        }
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

/// The words of a list written in the code, each where it is written (or, folded into
/// one constant by the optimizer, where the list is).
fn words_of(list: &Expr) -> Vec<(String, Position)> {
    match list {
        Expr::Array(items, _) => items
            .iter()
            .filter_map(|item| match item {
                Expr::StringConstant(word, at) => Some((word.to_string(), *at)),
                _ => None,
            })
            .collect(),
        other if other.is_constant() => {
            let at = other.position();
            let Some(items) = other.get_literal_value(None).and_then(|v| v.try_cast::<rhai::Array>()) else {
                return Vec::new();
            };
            items.iter().filter(|w| w.is_string()).map(|w| (w.to_string(), at)).collect()
        }
        _ => Vec::new(),
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
    let article = if name.starts_with(['a', 'o']) { "an" } else { "a" };
    found.push((format!("\"{word}\" is not {article} {name} of this ruleset{hint}"), at));
}

/// `x.marker("name")`: the marker read.
fn marker_read(expr: &Expr) -> Option<&str> {
    let Expr::Dot(chain, ..) = expr else { return None };
    match first_step(&chain.rhs) {
        Expr::MethodCall(call, _) if call.name == "marker" => match call.args.first() {
            Some(Expr::StringConstant(name, _)) => Some(name.as_str()),
            _ => None,
        },
        _ => None,
    }
}
