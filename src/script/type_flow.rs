//! What `check` knows a value is, followed into every function of a ruleset: from the
//! contracts, the kernel's getters (`unit.formation`), table readings (`cell.result`),
//! `interpretation()` and `option()`, through `let`, assignments, loops, map literals, the
//! arguments of helper calls and what functions return. Flow-insensitive on purpose: a
//! variable given two kinds of value is simply not known, so nothing is claimed of it.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::script::syntax::{ASTNode, Expr, FnCallExpr, Stmt};
use rhai::AST;

use crate::rules::Ruleset;
use crate::rules::contract::{Key, Kind};

/// Whose words a closed set of words is: how an error names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum WordsOf {
    /// A unit's property read off its vocabulary field: "formation".
    Vocabulary(&'static str),
    /// A ruleset's own unit field of words.
    Field(String),
    /// The result ids of a table.
    Results(String),
    /// The choices of an interpretation.
    Choices(String),
    /// A contract's word key, by its path: "situation.cover".
    Key(String),
    /// The words a marker is declared to take.
    Marker(String),
    /// The string literals a variable, parameter or function's result is ever given, as
    /// written: "`side`".
    Given(String),
}

/// A closed set of words and whose they are.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Words {
    pub(super) of: WordsOf,
    pub(super) words: BTreeSet<String>,
}

/// A map whose keys are declared (a contract's situation): reading another is a slip.
#[derive(Debug, PartialEq)]
pub(super) struct Declared {
    /// "the situation of `fire`", "the situation of modifier list `fire_modifiers`".
    pub(super) what: String,
    pub(super) keys: BTreeMap<String, Ty>,
}

/// What a value is, as far as `check` knows.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Ty {
    /// Nothing is known.
    Unknown,
    /// `()`: no value, which goes with anything.
    Nothing,
    Unit,
    Leader,
    List(Rc<Ty>),
    Number,
    Bool,
    /// A text made by the script (interpolated, joined).
    Text,
    /// One of the string literals a place is ever given: joined with a closed set of words it
    /// takes that set's words (each literal checked against them).
    Literal(Rc<BTreeSet<String>>),
    Word(Rc<Words>),
    Declared(Rc<Declared>),
    /// A map literal with the kinds of its keys.
    Map(Rc<BTreeMap<String, Ty>>),
    /// What `lookup` and `table_result` give: a table's reading.
    Cell(Option<String>),
    /// What `roll` gives.
    Roll,
}

/// Which of the plain kinds a value is, for comparisons: comparing two different ones is a slip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Plain {
    Number,
    Bool,
    Text,
}

impl Ty {
    pub(super) fn plain(&self) -> Option<Plain> {
        match self {
            Ty::Number => Some(Plain::Number),
            Ty::Bool => Some(Plain::Bool),
            Ty::Text | Ty::Literal(_) | Ty::Word(_) => Some(Plain::Text),
            _ => None,
        }
    }

    /// How a message names a value of this kind: "a number".
    pub(super) fn wanted(&self) -> &'static str {
        match self {
            Ty::Number => "a number",
            Ty::Bool => "true or false",
            Ty::Text | Ty::Literal(_) | Ty::Word(_) => "a word",
            Ty::Unit => "a unit",
            Ty::Leader => "a leader",
            _ => "a value",
        }
    }

    /// The string literal `word`.
    pub(super) fn literal(word: &str) -> Ty {
        Ty::Literal(Rc::new(std::iter::once(word.to_string()).collect()))
    }

    /// Whether what a parameter's known callers pass still holds when another caller passes
    /// something unknown: a unit stays a unit (a helper is not given a unit by some callers and a
    /// look-alike map by others), but a set of words or a number is no longer closed.
    fn survives_unknown_callers(&self) -> bool {
        match self {
            Ty::Unit | Ty::Leader | Ty::Declared(_) | Ty::Cell(_) | Ty::Roll => true,
            Ty::List(item) => matches!(**item, Ty::Unit | Ty::Leader),
            _ => false,
        }
    }

    /// Two values known in one place: what the place then holds (`None`: nothing yet).
    pub(super) fn join(known: Option<&Ty>, new: &Ty) -> Option<Ty> {
        let Some(known) = known else { return Some(new.clone()) };
        Some(match (known, new) {
            (a, Ty::Nothing) => a.clone(),
            (Ty::Nothing, b) => b.clone(),
            (a, b) if a == b => a.clone(),
            (Ty::Word(w), Ty::Literal(_)) | (Ty::Literal(_), Ty::Word(w)) => Ty::Word(w.clone()),
            (Ty::Literal(a), Ty::Literal(b)) => Ty::Literal(Rc::new(a.union(b).cloned().collect())),
            (Ty::Text | Ty::Literal(_) | Ty::Word(_), Ty::Text | Ty::Literal(_) | Ty::Word(_)) => Ty::Text,
            (Ty::List(a), Ty::List(b)) => Ty::List(Rc::new(Ty::join(Some(a), b).unwrap_or(Ty::Unknown))),
            (Ty::Cell(_), Ty::Cell(_)) => Ty::Cell(None),
            _ => Ty::Unknown,
        })
    }
}

/// A function as `check` reads it: its name, its parameters and its top-level statements.
pub(super) struct Body {
    pub(super) name: String,
    pub(super) params: Vec<String>,
    pub(super) statements: Vec<Stmt>,
}

/// Every function of an AST with its statements (Rhai keeps a function's statements behind a
/// type it does not export; its walk over an AST of one function hands them over at depth 1).
pub(super) fn bodies(ast: &AST) -> Vec<Body> {
    let all = ast.clone_functions_only();
    crate::script::syntax::functions(ast)
        .map(|def| {
            let (name, arity) = (def.name.clone(), def.params.len());
            let mut alone = all.clone();
            alone.retain_functions(|_, _, n, a| n == name.as_str() && a == arity);
            let mut statements = Vec::new();
            alone.walk(&mut |path: &[ASTNode]| {
                if let [ASTNode::Stmt(stmt)] = path {
                    statements.push((*stmt).clone());
                }
                true
            });
            Body { name: name.to_string(), params: def.params.iter().map(|p| p.to_string()).collect(), statements }
        })
        .collect()
}

/// What is known of one function name and arity: its parameters and what it returns.
#[derive(Clone, Debug, Default, PartialEq)]
struct Signature {
    params: Vec<Option<Ty>>,
    /// A parameter some caller passes a value nothing knows.
    open: Vec<bool>,
    returns: Option<Ty>,
    /// Its parameters come from a contract, not from its callers.
    contracted: bool,
}

/// The kinds of every function's parameters, locals and results across a ruleset's procedures.
pub(super) struct Flow<'r> {
    pub(super) ruleset: &'r Ruleset,
    signatures: BTreeMap<(String, usize), Signature>,
}

/// The variables of one function as known.
pub(super) type Env = BTreeMap<String, Ty>;

impl<'r> Flow<'r> {
    /// Follows values through every function of `bodies` until nothing more is learnt.
    pub(super) fn new(ruleset: &'r Ruleset, bodies: &[&Body]) -> Flow<'r> {
        let mut flow = Flow { ruleset, signatures: BTreeMap::new() };
        for body in bodies {
            let key = (body.name.clone(), body.params.len());
            let contract = ruleset.contracts.get(&body.name).filter(|c| c.params.len() == body.params.len());
            let signature = match contract {
                Some(contract) => Signature {
                    params: contract.params.iter().map(|p| Some(flow.of_key(p, &p.name, &contract.name))).collect(),
                    open: vec![false; body.params.len()],
                    returns: None,
                    contracted: true,
                },
                None => Signature {
                    params: vec![None; body.params.len()],
                    open: vec![false; body.params.len()],
                    returns: None,
                    contracted: false,
                },
            };
            flow.signatures.insert(key, signature);
        }
        // Each round can only make a place known or make it unknown, so this ends; the cap
        // only guards against a bug.
        for _ in 0..12 {
            let before = flow.signatures.clone();
            for body in bodies {
                let env = flow.env(body);
                flow.learn_calls_and_return(body, &env);
            }
            if flow.signatures == before {
                break;
            }
        }
        flow
    }

    /// The kind of a contract's parameter or key (`path` names it in messages).
    pub(super) fn of_key(&self, key: &Key, path: &str, procedure: &str) -> Ty {
        match key.kind {
            Kind::Unit => Ty::Unit,
            Kind::Leader => Ty::Leader,
            Kind::Units => Ty::List(Rc::new(Ty::Unit)),
            Kind::Leaders => Ty::List(Rc::new(Ty::Leader)),
            Kind::Number | Kind::Int => Ty::Number,
            Kind::Bool => Ty::Bool,
            Kind::Word | Kind::Words if !key.words.is_empty() => {
                Ty::Word(Rc::new(Words { of: WordsOf::Key(path.to_string()), words: key.words.clone() }))
            }
            Kind::Word | Kind::Text => Ty::Text,
            Kind::Situation => {
                let Some(contract) = self.ruleset.contracts.get(procedure) else { return Ty::Unknown };
                self.declared(&format!("the situation of `{procedure}`"), &contract.situation, path, procedure)
            }
            // A map or list whose keys or items the contract declares: followed as deep as written.
            Kind::Map => match &key.keys {
                Some(keys) => self.declared(&format!("`{path}`"), keys, path, procedure),
                None => Ty::Unknown,
            },
            Kind::List => match &key.items {
                Some(item) => Ty::List(Rc::new(self.of_key(item, &format!("{path}[]"), procedure))),
                None => Ty::Unknown,
            },
            Kind::Words | Kind::Any => Ty::Unknown,
        }
    }

    /// A map of declared keys, each of its kind.
    pub(super) fn declared(&self, what: &str, keys: &[Key], path: &str, procedure: &str) -> Ty {
        let keys = keys
            .iter()
            .map(|k| {
                let ty = match k.kind {
                    Kind::Situation => Ty::Unknown,
                    _ => self.of_key(k, &format!("{path}.{}", k.name), procedure),
                };
                (k.name.clone(), ty)
            })
            .collect();
        Ty::Declared(Rc::new(Declared { what: what.to_string(), keys }))
    }

    /// The parameters of `body` as known, and its locals learnt from them.
    pub(super) fn env(&self, body: &Body) -> Env {
        let mut env = Env::new();
        if let Some(signature) = self.signatures.get(&(body.name.clone(), body.params.len())) {
            for ((name, ty), open) in body.params.iter().zip(&signature.params).zip(&signature.open) {
                match ty {
                    Some(ty) if !*open || ty.survives_unknown_callers() => env.insert(name.clone(), ty.clone()),
                    Some(_) => env.insert(name.clone(), Ty::Unknown),
                    None => None,
                };
            }
        }
        self.locals(&body.statements, &mut env);
        env
    }

    /// Learns the locals of `statements` into `env` (parameters already in it).
    pub(super) fn locals(&self, statements: &[Stmt], env: &mut Env) {
        let params: BTreeSet<String> = env.keys().cloned().collect();
        for _ in 0..6 {
            let current: &Env = env;
            let mut learnt: BTreeMap<String, Option<Ty>> = BTreeMap::new();
            let mut learn = |name: &str, ty: Ty| {
                if !params.contains(name) {
                    let slot = learnt.entry(name.to_string()).or_default();
                    *slot = Ty::join(slot.as_ref(), &ty);
                }
            };
            for stmt in statements {
                stmt.walk(&mut Vec::new(), &mut |path: &[ASTNode]| {
                    match path.last() {
                        Some(ASTNode::Stmt(Stmt::Var(x, ..))) => learn(x.0.name.as_str(), self.ty(&x.1, current)),
                        Some(ASTNode::Stmt(Stmt::Assignment(x))) => {
                            if let Expr::Variable(var, ..) = &x.1.lhs {
                                let ty = self.ty(&x.1.rhs, current);
                                // `n += 1` keeps a number a number, `t += "..."` a text a text.
                                let ty = match (x.0.is_op_assignment(), ty.plain()) {
                                    (false, _) => ty,
                                    (true, Some(Plain::Number)) => Ty::Number,
                                    (true, Some(Plain::Text)) => Ty::Text,
                                    (true, _) => Ty::Unknown,
                                };
                                learn(var.1.as_str(), ty);
                            }
                        }
                        Some(ASTNode::Stmt(Stmt::For(x, _))) => {
                            let item = match self.ty(&x.2.expr, current) {
                                Ty::List(item) => (*item).clone(),
                                _ => Ty::Unknown,
                            };
                            learn(x.0.name.as_str(), item);
                            if let Some(counter) = &x.1 {
                                learn(counter.name.as_str(), Ty::Number);
                            }
                        }
                        _ => {}
                    }
                    true
                });
            }
            let mut next = current.clone();
            for (name, ty) in learnt {
                next.insert(name, ty.unwrap_or(Ty::Unknown));
            }
            if next == *env {
                break;
            }
            *env = next;
        }
    }

    /// Adds what `body` passes to the functions it calls, and what it returns.
    fn learn_calls_and_return(&mut self, body: &Body, env: &Env) {
        let mut passed: Vec<((String, usize), Vec<Ty>)> = Vec::new();
        let mut returned: Vec<Ty> = Vec::new();
        for stmt in &body.statements {
            stmt.walk(&mut Vec::new(), &mut |path: &[ASTNode]| {
                match path.last() {
                    Some(ASTNode::Expr(Expr::FnCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _)))
                        if call.namespace.is_empty() && !call.is_operator_call() =>
                    {
                        let key = (call.name.to_string(), call.args.len());
                        if self.signatures.contains_key(&key) {
                            passed.push((key, call.args.iter().map(|a| self.ty(a, env)).collect()));
                        }
                    }
                    Some(ASTNode::Stmt(Stmt::Return(Some(e), ..))) => returned.push(self.ty(e, env)),
                    _ => {}
                }
                true
            });
        }
        if let Some(last) = body.statements.last() {
            returned.push(self.stmt_ty(last, env));
        }
        for (key, args) in passed {
            let signature = self.signatures.get_mut(&key).expect("looked up above");
            if signature.contracted {
                continue;
            }
            for ((slot, open), ty) in signature.params.iter_mut().zip(signature.open.iter_mut()).zip(args) {
                // A caller that passes what nothing knows tells nothing of a unit the others pass
                // (see `survives_unknown_callers`).
                if ty == Ty::Unknown {
                    *open = true;
                } else {
                    *slot = Ty::join(slot.as_ref(), &ty);
                }
            }
        }
        let signature = self.signatures.entry((body.name.clone(), body.params.len())).or_default();
        for ty in returned {
            signature.returns = Ty::join(signature.returns.as_ref(), &ty);
        }
    }

    /// What a parameter of a function is known to be, from its contract or its callers.
    pub(super) fn param(&self, name: &str, arity: usize, index: usize) -> Option<&Ty> {
        let signature = self.signatures.get(&(name.to_string(), arity))?;
        let ty = signature.params.get(index)?.as_ref()?;
        (!signature.open[index] || ty.survives_unknown_callers()).then_some(ty)
    }

    /// The value of a statement used as a value (the last of a block).
    fn stmt_ty(&self, stmt: &Stmt, env: &Env) -> Ty {
        match stmt {
            Stmt::Expr(e) => self.ty(e, env),
            Stmt::FnCall(call, _) => self.call_ty(call, env),
            Stmt::If(x, _) => {
                let body = self.block_ty(x.body.statements(), env);
                let branch = self.block_ty(x.branch.statements(), env);
                Ty::join(Some(&body), &branch).unwrap_or(Ty::Unknown)
            }
            Stmt::Switch(x, _) => {
                let mut ty: Option<Ty> = None;
                for case in &x.1.expressions {
                    ty = Ty::join(ty.as_ref(), &self.ty(&case.rhs, env));
                }
                ty.unwrap_or(Ty::Unknown)
            }
            Stmt::Block(block) => self.block_ty(block.statements(), env),
            _ => Ty::Unknown,
        }
    }

    fn block_ty(&self, statements: &[Stmt], env: &Env) -> Ty {
        // An empty branch (an `if` without `else`) gives `()`.
        statements.last().map_or(Ty::Nothing, |s| self.stmt_ty(s, env))
    }

    /// What `expr` is, with `env`'s variables known.
    pub(super) fn ty(&self, expr: &Expr, env: &Env) -> Ty {
        match expr {
            Expr::StringConstant(word, _) => Ty::literal(word),
            Expr::InterpolatedString(..) | Expr::CharConstant(..) => Ty::Text,
            Expr::IntegerConstant(..) | Expr::FloatConstant(..) => Ty::Number,
            Expr::BoolConstant(..) => Ty::Bool,
            Expr::Unit(_) => Ty::Nothing,
            Expr::DynamicConstant(value, _) => of_constant(value),
            Expr::Array(items, _) => {
                let mut item: Option<Ty> = None;
                for i in items.iter() {
                    item = Ty::join(item.as_ref(), &self.ty(i, env));
                }
                Ty::List(Rc::new(item.unwrap_or(Ty::Unknown)))
            }
            Expr::Map(x, _) => {
                Ty::Map(Rc::new(x.0.iter().map(|(k, v)| (k.name.to_string(), self.ty(v, env))).collect()))
            }
            Expr::Variable(var, ..) => env.get(var.1.as_str()).cloned().unwrap_or(Ty::Unknown),
            Expr::And(..) | Expr::Or(..) => Ty::Bool,
            Expr::Coalesce(items, _) => {
                let mut ty: Option<Ty> = None;
                for i in items.iter() {
                    ty = Ty::join(ty.as_ref(), &self.ty(i, env));
                }
                ty.unwrap_or(Ty::Unknown)
            }
            Expr::Stmt(block) => self.block_ty(block.statements(), env),
            Expr::FnCall(call, _) => self.call_ty(call, env),
            Expr::Dot(chain, ..) => {
                let base = self.ty(&chain.lhs, env);
                self.step(&base, &chain.rhs)
            }
            Expr::Index(chain, ..) => {
                let base = self.ty(&chain.lhs, env);
                match (&base, &chain.rhs) {
                    (Ty::List(item), _) => (**item).clone(),
                    (_, Expr::StringConstant(key, _)) => self.property(&base, key),
                    _ => Ty::Unknown,
                }
            }
            _ => Ty::Unknown,
        }
    }

    /// `base.rhs`: a property, a method, or a longer chain.
    fn step(&self, base: &Ty, rhs: &Expr) -> Ty {
        match rhs {
            Expr::Property(p, _) => self.property(base, p.2.as_str()),
            Expr::MethodCall(call, _) => self.method(base, call),
            Expr::Dot(chain, ..) => {
                let inner = self.step(base, &chain.lhs);
                self.step(&inner, &chain.rhs)
            }
            Expr::Index(chain, ..) => match self.step(base, &chain.lhs) {
                Ty::List(item) => (*item).clone(),
                _ => Ty::Unknown,
            },
            _ => Ty::Unknown,
        }
    }

    /// The kind of property `name` of a value of kind `base`.
    pub(super) fn property(&self, base: &Ty, name: &str) -> Ty {
        let vocabulary = &self.ruleset.vocabulary;
        match base {
            Ty::Unit => match name {
                "arm" | "type" | "grade" | "formation" | "order" | "nation" => {
                    let (word, field) = match name {
                        "arm" => ("arm", "arms"),
                        "type" => ("type", "types"),
                        "grade" => ("grade", "grades"),
                        "formation" => ("formation", "formations"),
                        "order" => ("order", "orders"),
                        _ => ("nation", "nations"),
                    };
                    match vocabulary.field(field) {
                        Some(words) if !words.is_empty() => {
                            Ty::Word(Rc::new(Words { of: WordsOf::Vocabulary(word), words: words.clone() }))
                        }
                        _ => Ty::Text,
                    }
                }
                "id" | "name" | "side" | "command" => Ty::Text,
                "stands" | "stands_at_start" | "stands_lost" => Ty::Number,
                "eliminated" => Ty::Bool,
                "leaders" => Ty::List(Rc::new(Ty::Leader)),
                _ => match vocabulary.unit_fields.get(name) {
                    Some(spec) => match spec.kind {
                        crate::unit::FieldKind::Flag => Ty::Bool,
                        crate::unit::FieldKind::Count => Ty::Number,
                        crate::unit::FieldKind::Word if !spec.words.is_empty() => {
                            Ty::Word(Rc::new(Words { of: WordsOf::Field(name.to_string()), words: spec.words.clone() }))
                        }
                        crate::unit::FieldKind::Word => Ty::Text,
                    },
                    None => Ty::Unknown,
                },
            },
            Ty::Leader => match name {
                "id" | "name" | "side" => Ty::Text,
                "attached" => Ty::Bool,
                _ => Ty::Unknown,
            },
            Ty::Declared(map) => map.keys.get(name).cloned().unwrap_or(Ty::Unknown),
            Ty::Map(map) => map.get(name).cloned().unwrap_or(Ty::Unknown),
            Ty::Cell(table) => match name {
                "result" => match table.as_deref().map(|t| self.results(t)) {
                    Some(words) if !words.is_empty() => {
                        let table = table.clone().unwrap_or_default();
                        Ty::Word(Rc::new(Words { of: WordsOf::Results(table), words }))
                    }
                    _ => Ty::Text,
                },
                "total" | "row" | "read_as" => Ty::Number,
                _ => Ty::Unknown,
            },
            Ty::Roll => match name {
                "total" | "natural" => Ty::Number,
                "success" => Ty::Bool,
                _ => Ty::Unknown,
            },
            _ => Ty::Unknown,
        }
    }

    /// The kind of value marker `name` holds, as the vocabulary declares it.
    fn marker(&self, name: &str) -> Ty {
        use crate::unit::MarkerKind;
        match self.ruleset.vocabulary.marker_kind(name) {
            Some(MarkerKind::Flag) => Ty::Bool,
            Some(MarkerKind::Count) => Ty::Number,
            Some(MarkerKind::Word(words)) if !words.is_empty() => {
                Ty::Word(Rc::new(Words { of: WordsOf::Marker(name.to_string()), words: words.clone() }))
            }
            Some(MarkerKind::Word(_)) => Ty::Text,
            _ => Ty::Unknown,
        }
    }

    /// Every result id a table can give, whichever way its switches stand.
    pub(super) fn results(&self, table: &str) -> BTreeSet<String> {
        let mut ids: BTreeSet<String> = BTreeSet::new();
        if let Some(t) = self.ruleset.tables.get(table) {
            ids.extend(t.results.keys().cloned());
        }
        if let Some(switched) = self.ruleset.switched_tables.get(table) {
            for (_, t) in &switched.variants {
                ids.extend(t.results.keys().cloned());
            }
        }
        ids
    }

    fn method(&self, base: &Ty, call: &FnCallExpr) -> Ty {
        match (base, call.name.as_str()) {
            (Ty::Unit | Ty::Leader, "has_marker") => Ty::Bool,
            // `unit.marker("battery")`: what the vocabulary says the marker holds (or `()`).
            (Ty::Unit | Ty::Leader, "marker") => match call.args.first() {
                Some(Expr::StringConstant(name, _)) => self.marker(name),
                _ => Ty::Unknown,
            },
            (_, "len") => Ty::Number,
            (_, "contains" | "is_empty") => Ty::Bool,
            _ => Ty::Unknown,
        }
    }

    fn call_ty(&self, call: &FnCallExpr, env: &Env) -> Ty {
        if !call.namespace.is_empty() {
            return Ty::Unknown;
        }
        let args = &call.args[..];
        let first_text = match args.first() {
            Some(Expr::StringConstant(text, _)) => Some(text.as_str()),
            _ => None,
        };
        match call.name.as_str() {
            "==" | "!=" | "<" | "<=" | ">" | ">=" | "!" | "contains" | "has_any" | "option" | "has_marker" => Ty::Bool,
            "+" | "-" | "*" | "/" | "%" | "**" => {
                let kinds: Vec<Ty> = args.iter().map(|a| self.ty(a, env)).collect();
                if kinds.iter().all(|k| *k == Ty::Number) {
                    Ty::Number
                } else if call.name == "+" && kinds.iter().any(|k| k.plain() == Some(Plain::Text)) {
                    Ty::Text
                } else {
                    Ty::Unknown
                }
            }
            "max" | "min" | "abs" | "floor" | "ceiling" | "round" | "to_int" | "to_float" => Ty::Number,
            "roll" => Ty::Roll,
            "constant" => match first_text.and_then(|name| self.ruleset.constants.get(name)) {
                Some(info) => match &info.value {
                    crate::rules::LookupValue::Flag(_) => Ty::Bool,
                    crate::rules::LookupValue::Int(_) | crate::rules::LookupValue::Number(_) => Ty::Number,
                    crate::rules::LookupValue::Text(_) => Ty::Text,
                    crate::rules::LookupValue::Map(_) => Ty::Unknown,
                },
                None => Ty::Unknown,
            },
            "interpretation" => match first_text.and_then(|name| Some((name, self.ruleset.interpretations.get(name)?)))
            {
                Some((name, info)) => Ty::Word(Rc::new(Words {
                    of: WordsOf::Choices(name.to_string()),
                    words: info.choices.iter().map(|(c, _)| c.clone()).collect(),
                })),
                None => Ty::Text,
            },
            "lookup" | "table_result" => Ty::Cell(first_text.map(str::to_string)),
            "results_of" => match first_text {
                Some(table) => Ty::List(Rc::new(Ty::Word(Rc::new(Words {
                    of: WordsOf::Results(table.to_string()),
                    words: self.results(table),
                })))),
                None => Ty::List(Rc::new(Ty::Text)),
            },
            name => self
                .signatures
                .get(&(name.to_string(), args.len()))
                .and_then(|s| s.returns.clone())
                .unwrap_or(Ty::Unknown),
        }
    }
}

/// The kind of a constant the parser folded (a list of words, a number).
fn of_constant(value: &rhai::Dynamic) -> Ty {
    if value.is_int() || value.is_float() {
        Ty::Number
    } else if value.is_bool() {
        Ty::Bool
    } else if value.is_string() {
        Ty::literal(&value.to_string())
    } else if value.is_array() {
        Ty::List(Rc::new(Ty::Unknown))
    } else {
        Ty::Unknown
    }
}
