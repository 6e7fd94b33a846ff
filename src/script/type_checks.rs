//! What `check` finds with the kinds `type_flow` follows: a word compared with, switched on,
//! assigned to or passed as a value of a closed set of words that is not one of them (a
//! formation, a table's result id, an interpretation's choice, a situation key's word); a key
//! read off a declared situation that it does not have; and two values of different kinds
//! compared (`situation.range <= "8"`). Each with where it is written.

use std::collections::BTreeSet;

use crate::script::syntax::{ASTNode, Expr, FnCallExpr, Stmt};
use rhai::Position;

use super::type_flow::{Body, Env, Flow, Plain, Ty, Words, WordsOf};
use crate::rules::did_you_mean;

/// A slip and where it is written.
pub(super) type Slip = (String, Position);

/// The slips in every function of `bodies`, whose source text is `source`. `written` holds the
/// keys some procedure sets on a map (`situation.x = ..`): reading one is not a slip.
pub(super) fn in_functions(flow: &Flow, bodies: &[Body], source: &str, written: &BTreeSet<String>) -> Vec<Slip> {
    let mut found = Vec::new();
    for body in bodies {
        let env = flow.env(body);
        let checker = Checker { flow, env: &env, source: Some(source), written };
        for stmt in &body.statements {
            stmt.walk(&mut Vec::new(), &mut |path: &[ASTNode]| {
                checker.node(path, &mut found);
                true
            });
        }
    }
    found
}

/// The slips in a condition (`when:`), with its names known by `env`.
pub(super) fn in_condition(flow: &Flow, ast: &rhai::AST, env: &Env) -> Vec<Slip> {
    let mut found = Vec::new();
    let written = BTreeSet::new();
    let checker = Checker { flow, env, source: None, written: &written };
    ast.walk(&mut |path: &[ASTNode]| {
        checker.node(path, &mut found);
        true
    });
    found
}

/// The keys any function sets on a map by name (`x.key = ..`, `x["key"] = ..`).
pub(super) fn written_keys(bodies: &[&Body]) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for body in bodies {
        for stmt in &body.statements {
            stmt.walk(&mut Vec::new(), &mut |path: &[ASTNode]| {
                if let Some(ASTNode::Stmt(Stmt::Assignment(x))) = path.last() {
                    match &x.1.lhs {
                        Expr::Dot(chain, ..) => {
                            if let Expr::Property(p, _) = last_step(&chain.rhs) {
                                keys.insert(p.2.to_string());
                            }
                        }
                        Expr::Index(chain, ..) => {
                            if let Expr::StringConstant(key, _) = &chain.rhs {
                                keys.insert(key.to_string());
                            }
                        }
                        _ => {}
                    }
                }
                true
            });
        }
    }
    keys
}

struct Checker<'a> {
    flow: &'a Flow<'a>,
    env: &'a Env,
    /// The text the positions point into (to read a switch's cases); none for a condition.
    source: Option<&'a str>,
    written: &'a BTreeSet<String>,
}

impl Checker<'_> {
    fn ty(&self, expr: &Expr) -> Ty {
        self.flow.ty(expr, self.env)
    }

    fn node(&self, path: &[ASTNode], found: &mut Vec<Slip>) {
        match path.last() {
            Some(ASTNode::Expr(Expr::FnCall(call, at)) | ASTNode::Stmt(Stmt::FnCall(call, at))) => {
                self.call(call, *at, found);
            }
            Some(ASTNode::Expr(Expr::Dot(chain, ..))) => {
                // Each key read down the chain (`situation.overlap.left`) off a map whose keys
                // are declared.
                let mut base = self.ty(&chain.lhs);
                let mut rest = &chain.rhs;
                loop {
                    let (step, next) = match rest {
                        Expr::Dot(inner, ..) => (&inner.lhs, Some(&inner.rhs)),
                        other => (other, None),
                    };
                    let Expr::Property(p, at) = step else { break };
                    let key = p.2.as_str();
                    if let Ty::Declared(map) = &base
                        && !map.keys.contains_key(key)
                        && !self.written.contains(key)
                    {
                        let names: Vec<&str> = map.keys.keys().map(String::as_str).collect();
                        let hint = did_you_mean(key, names.iter().copied());
                        let has = if names.is_empty() { "no keys".to_string() } else { names.join(", ") };
                        found.push((format!("{} has no key `{key}`{hint}; it has {has}", map.what), *at));
                        break;
                    }
                    base = self.flow.property(&base, key);
                    match next {
                        Some(next) => rest = next,
                        None => break,
                    }
                }
                // `["a", "b"].contains(x)`.
                if let (Expr::Array(..), Expr::MethodCall(call, _)) = (&chain.lhs, first_step(&chain.rhs))
                    && call.name == "contains"
                    && let [value] = &call.args[..]
                {
                    self.words_in(value, &chain.lhs, found);
                }
            }
            Some(ASTNode::Stmt(Stmt::Switch(x, at))) => {
                if let (Some(words), Some(source)) = (closed(&x.0, &self.ty(&x.0)), self.source) {
                    for (word, at) in crate::script::switch_cases::case_words(source, *at) {
                        check_word(&words, &word, at, found);
                    }
                }
            }
            // `result = "swept"`, `unit.formation = "column"`, `unit.stands = "3"`.
            Some(ASTNode::Stmt(Stmt::Assignment(x))) if !x.0.is_op_assignment() => {
                let (lhs, rhs) = (&x.1.lhs, &x.1.rhs);
                let target = match lhs {
                    Expr::Variable(var, ..) => self.env.get(var.1.as_str()).cloned().unwrap_or(Ty::Unknown),
                    other => self.ty(other),
                };
                match (&target, rhs) {
                    (Ty::Word(words), Expr::StringConstant(word, at)) => check_word(words, word, *at, found),
                    // A variable may be given values of two kinds on purpose; a property may not.
                    (_, _) if !matches!(lhs, Expr::Variable(..)) => {
                        let given = self.ty(rhs);
                        if let (Some(want), Some(got)) = (target.plain(), given.plain())
                            && want != got
                        {
                            let fix = match rhs {
                                Expr::StringConstant(word, _) => literal_fix(word, want),
                                _ => String::new(),
                            };
                            found.push((
                                format!(
                                    "{} is {}, not {} ({}){fix}",
                                    shown(lhs),
                                    target.wanted(),
                                    shown(rhs),
                                    given.wanted()
                                ),
                                rhs.position(),
                            ));
                        }
                    }
                    _ => {}
                }
            }
            Some(ASTNode::Stmt(Stmt::Var(x, ..))) => {
                if let (Some(Ty::Word(words)), Expr::StringConstant(word, at)) = (self.env.get(x.0.name.as_str()), &x.1)
                {
                    check_word(words, word, *at, found);
                }
            }
            _ => {}
        }
    }

    fn call(&self, call: &FnCallExpr, at: Position, found: &mut Vec<Slip>) {
        if !call.namespace.is_empty() {
            return;
        }
        let args = &call.args[..];
        match (call.name.as_str(), args) {
            ("==" | "!=", [a, b]) => {
                let (ta, tb) = (self.ty(a), self.ty(b));
                match (closed(a, &ta), closed(b, &tb), a, b) {
                    (Some(words), _, _, Expr::StringConstant(word, at))
                    | (_, Some(words), Expr::StringConstant(word, at), _) => check_word(&words, word, *at, found),
                    _ => self.kinds(a, &ta, b, &tb, at, found),
                }
            }
            ("<" | "<=" | ">" | ">=", [a, b]) => {
                let (ta, tb) = (self.ty(a), self.ty(b));
                self.kinds(a, &ta, b, &tb, at, found);
            }
            ("contains", [list, value]) | ("has_any", [value, list]) => self.words_in(value, list, found),
            // `apply(unit, #{order: "shaken"})`: the order is a word of the vocabulary.
            ("apply", [_, Expr::Map(spec, _)]) => {
                let orders = &self.flow.ruleset.vocabulary.orders;
                for (key, value) in &spec.0 {
                    if let ("order", Expr::StringConstant(word, at)) = (key.name.as_str(), value)
                        && !orders.is_empty()
                    {
                        let words = Words { of: WordsOf::Vocabulary("order"), words: orders.clone() };
                        check_word(&words, word, *at, found);
                    }
                }
            }
            (name, args) if !call.is_operator_call() => {
                for (i, arg) in args.iter().enumerate() {
                    if let (Expr::StringConstant(word, at), Some(Ty::Word(words))) =
                        (arg, self.flow.param(name, args.len(), i))
                    {
                        check_word(words, word, *at, found);
                    }
                }
            }
            _ => {}
        }
    }

    /// `x in ["a", "b"]`: each word written, when `x` takes a closed set of words.
    fn words_in(&self, value: &Expr, list: &Expr, found: &mut Vec<Slip>) {
        let Some(words) = closed(value, &self.ty(value)) else { return };
        if let Expr::Array(items, _) = list {
            for item in items.iter() {
                if let Expr::StringConstant(word, at) = item {
                    check_word(&words, word, *at, found);
                }
            }
        }
    }

    /// Two values of different plain kinds compared.
    fn kinds(&self, a: &Expr, ta: &Ty, b: &Expr, tb: &Ty, at: Position, found: &mut Vec<Slip>) {
        let (Some(pa), Some(pb)) = (ta.plain(), tb.plain()) else { return };
        if pa == pb {
            return;
        }
        // Point at the literal when there is one: it is what was mistyped.
        let (at, fix) = match (a, b) {
            (_, Expr::StringConstant(word, lit)) | (Expr::StringConstant(word, lit), _) => {
                let other = if matches!(a, Expr::StringConstant(..)) { pb } else { pa };
                (*lit, literal_fix(word, other))
            }
            _ => (at, String::new()),
        };
        found.push((
            format!(
                "compares {} ({}) with {} ({}): values of two kinds{fix}",
                shown(a),
                ta.wanted(),
                shown(b),
                tb.wanted()
            ),
            at,
        ));
    }
}

/// The closed set of words `expr` (of kind `ty`) holds, if it is one: a vocabulary's, a
/// table's results, an interpretation's choices, or the literals it is only ever given.
fn closed(expr: &Expr, ty: &Ty) -> Option<std::rc::Rc<Words>> {
    match ty {
        Ty::Word(words) => Some(words.clone()),
        // Only a named place: a variable, or what a function of the rules returns (`"a" == "b"`
        // or an `if` written in place is the writer's own business).
        Ty::Literal(given)
            if matches!(expr, Expr::Variable(..))
                || matches!(expr, Expr::FnCall(call, _) if !call.is_operator_call()) =>
        {
            Some(std::rc::Rc::new(Words { of: WordsOf::Given(shown(expr)), words: (**given).clone() }))
        }
        _ => None,
    }
}

/// What a string literal may have meant as a value of another kind.
fn literal_fix(word: &str, wanted: Plain) -> String {
    match wanted {
        Plain::Number if word.trim().parse::<f64>().is_ok() => format!("; write {}, without quotes", word.trim()),
        Plain::Bool => match word.to_ascii_lowercase().as_str() {
            "yes" | "true" | "y" | "1" => "; write true, without quotes".to_string(),
            "no" | "false" | "n" | "0" => "; write false, without quotes".to_string(),
            _ => "; write true or false".to_string(),
        },
        _ => String::new(),
    }
}

/// A word held to its set: the error when it is not one of them.
fn check_word(words: &Words, word: &str, at: Position, found: &mut Vec<Slip>) {
    // "" is what a unit without a nation (or another kernel word) holds.
    if words.words.contains(word) || (word.is_empty() && matches!(words.of, WordsOf::Vocabulary(_))) {
        return;
    }
    let hint = did_you_mean(word, words.words.iter().map(String::as_str));
    let list: Vec<&str> = words.words.iter().map(String::as_str).collect();
    let list = list.join(", ");
    let message = match &words.of {
        WordsOf::Vocabulary(name) => {
            let article = if name.starts_with(['a', 'o']) { "an" } else { "a" };
            format!("\"{word}\" is not {article} {name} of this ruleset{hint}")
        }
        WordsOf::Field(name) => format!("unit field `{name}` has no word \"{word}\"{hint}; its words are {list}"),
        WordsOf::Results(table) => format!("table `{table}` has no result `{word}`{hint}; its results are {list}"),
        WordsOf::Choices(name) => {
            format!("interpretation `{name}` has no choice \"{word}\"{hint}; its choices are {list}")
        }
        WordsOf::Key(path) => format!("{path} has no word \"{word}\"{hint}; its words are {list}"),
        WordsOf::Marker(name) => format!("marker `{name}` has no word \"{word}\"{hint}; its words are {list}"),
        WordsOf::Given(what) => {
            let given: Vec<String> = words.words.iter().map(|w| format!("\"{w}\"")).collect();
            format!("{what} is only ever given {}{hint}: it is never \"{word}\"", given.join(" or "))
        }
    };
    found.push((message, at));
}

/// A value as a message shows it: `situation.range`, `"8"`, `option("x")`.
fn shown(expr: &Expr) -> String {
    match expr {
        Expr::StringConstant(word, _) => format!("\"{word}\""),
        Expr::IntegerConstant(n, _) => n.to_string(),
        Expr::FloatConstant(f, _) => f.to_string(),
        Expr::BoolConstant(b, _) => b.to_string(),
        _ => match path_of(expr) {
            Some(path) => format!("`{path}`"),
            None => "a value".to_string(),
        },
    }
}

/// `a.b.c` written as names only.
fn path_of(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Variable(var, ..) => Some(var.1.to_string()),
        Expr::Property(p, _) => Some(p.2.to_string()),
        Expr::Dot(chain, ..) => Some(format!("{}.{}", path_of(&chain.lhs)?, path_of(&chain.rhs)?)),
        Expr::FnCall(call, _) | Expr::MethodCall(call, _) if call.args.len() == 1 => match &call.args[0] {
            Expr::StringConstant(name, _) => Some(format!("{}(\"{name}\")", call.name)),
            _ => None,
        },
        _ => None,
    }
}

/// The first step of the right side of a `.` chain: `b` of `a.b.c`.
fn first_step(expr: &Expr) -> &Expr {
    match expr {
        Expr::Dot(chain, ..) => first_step(&chain.lhs),
        other => other,
    }
}

/// The last step of a `.` chain: `c` of `a.b.c`.
fn last_step(expr: &Expr) -> &Expr {
    match expr {
        Expr::Dot(chain, ..) => last_step(&chain.rhs),
        other => other,
    }
}
