//! Lowering: a procedure function's Rhai AST to `Code`, or none when any part of it is not one this compiler knows.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash, Hasher};

use crate::script::syntax::{ASTFlags, ASTNode, Expr, FnCallExpr, Stmt, StmtBlock};
use rhai::{AST, ImmutableString};

use super::code::{Callee, Code, Ex, ForLoop, Function, Op, Step, SwitchTable, WordCompare};
use crate::script::properties::UnitWord;

/// Methods left to Rhai whole: they read the caller's scope.
const METHODS_LEFT: &[&str] = &["eval", "Fn", "is_def_var", "is_def_fn", "is_shared"];

/// One link of a chain, before it is known to be read or written.
enum Link {
    Property(ImmutableString, rhai::Position),
    Index(Ex, rhai::Position),
    /// A method's name, arguments, script hash, compiled method's index, and position.
    Method(ImmutableString, Vec<Ex>, Option<u64>, Option<usize>, rhai::Position),
}

/// Calls left to Rhai whole: they read the caller's scope or engine state this compiler does not keep.
const REFUSED_CALLS: &[&str] =
    &["print", "debug", "Fn", "call", "curry", "is_def_var", "is_def_fn", "is_shared", "eval", "this", "type_of"];

/// The hash Rhai files a `switch` case under (`calc_switch_value_hash`): `Dynamic`'s
/// hash through ahash's default hasher. Checked against Rhai's own table before use.
pub fn switch_hash(value: &rhai::Dynamic) -> u64 {
    // As Rhai makes its hasher (`func::hashing::get_hasher`).
    let mut hasher = match rhai::config::hashing::get_hashing_seed() {
        Some([a, b, c, d]) if (a | b | c | d) != 0 => ahash::RandomState::with_seeds(*a, *b, *c, *d).build_hasher(),
        _ => ahash::AHasher::default(),
    };
    value.hash(&mut hasher);
    hasher.finish()
}

/// Whether `switch_hash` files values where Rhai does, tried on a probe `switch`
/// (once per process): if not, no `switch` is compiled.
pub fn switch_hashes_agree() -> bool {
    static AGREE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AGREE.get_or_init(|| {
        crate::script::fix_hashing();
        let engine = rhai::Engine::new_raw();
        let Ok(ast) = engine.compile(r#"fn probe(x) { switch x { "probe" => 1, 7 => 2, _ => 3 } }"#) else {
            return false;
        };
        let mut found: Vec<u64> = Vec::new();
        ast.walk(&mut |path: &[ASTNode]| {
            if let [ASTNode::Stmt(Stmt::Switch(x, _))] = path {
                found = x.1.cases.keys().copied().collect();
            }
            true
        });
        let mut expected = vec![switch_hash(&rhai::Dynamic::from("probe")), switch_hash(&rhai::Dynamic::from(7_i64))];
        found.sort_unstable();
        expected.sort_unstable();
        found == expected
    })
}

/// The functions of `procedures` (by their index) that are methods: they read `this`. A
/// method `name()` is registered as `name(receiver)` beside `name()`, so not where a
/// procedure or a function of the engine (`natives`: names and arities) is called so
/// already: such a method is left to Rhai, whose script methods stand beside them.
pub fn methods(
    reading_this: &HashSet<(String, usize)>,
    index: &HashMap<(String, usize), usize>,
    natives: &HashSet<(String, usize)>,
) -> HashSet<usize> {
    reading_this
        .iter()
        .filter(|(name, arity)| {
            let taken = |arity: usize| natives.contains(&(name.clone(), arity));
            !index.contains_key(&(name.clone(), arity + 1)) && !taken(*arity) && !taken(arity + 1)
        })
        .filter_map(|key| index.get(key).copied())
        .collect()
}

/// The functions of `procedures` (by name and arity) that read `this`. One walk finds where
/// `this` is read; only a function whose lines hold such a place (in some file: positions
/// do not say which) is looked at alone, which costs a copy of the functions.
pub fn reading_this(procedures: &AST) -> HashSet<(String, usize)> {
    let mut at: Vec<rhai::Position> = Vec::new();
    procedures.walk(&mut |path: &[ASTNode]| {
        if let Some(ASTNode::Expr(Expr::ThisPtr(pos))) = path.last() {
            at.push(*pos);
        }
        true
    });
    if at.is_empty() {
        return HashSet::new();
    }
    let key = |p: rhai::Position| (p.line().unwrap_or(0), p.position().unwrap_or(0));
    crate::script::syntax::functions(procedures)
        .filter(|def| {
            let (start, end) = (key(def.body.start_position()), key(def.body.end_position()));
            at.iter().any(|p| (start..=end).contains(&key(*p)))
        })
        .map(|def| (def.name.to_string(), def.params.len()))
        .filter(|(name, arity)| uses_this(procedures, name, *arity))
        .collect()
}

/// Whether the function `name` of `arity` in `procedures` reads `this`.
fn uses_this(procedures: &AST, name: &str, arity: usize) -> bool {
    let mut alone = procedures.clone_functions_only();
    alone.retain_functions(|_, _, n, a| n == name && a == arity);
    let mut found = false;
    alone.walk(&mut |path: &[ASTNode]| {
        found |= matches!(path.last(), Some(ASTNode::Expr(Expr::ThisPtr(_))));
        !found
    });
    found
}

/// Lowers the function `name` of `arity` in `procedures`; `index` numbers every procedure
/// function, and `methods` holds the indices of those that are methods (see `uses_this`).
pub fn lower(
    procedures: &AST,
    name: &str,
    arity: usize,
    index: &HashMap<(String, usize), usize>,
    methods: &HashSet<usize>,
    switches: bool,
) -> Option<Function> {
    // Anonymous functions (closures) are reached through function pointers: left to Rhai.
    if name.starts_with("anon$") {
        return None;
    }
    let def = crate::script::syntax::functions(procedures).find(|d| d.name == name && d.params.len() == arity)?;
    // A method bound to a type (`fn Type.name()`) is left to Rhai.
    if def.this_type.is_some() {
        return None;
    }
    let method = index.get(&(name.to_string(), arity)).is_some_and(|i| methods.contains(i));
    let mut lower = Lower {
        names: Vec::new(),
        slots: 0,
        loops: 0,
        in_value: false,
        procedures: index,
        methods,
        switches,
        this: None,
    };
    if method {
        // The receiver comes first; `this` is a keyword, so no name can reach its slot.
        lower.this = Some(lower.declare("this".into()));
    }
    for param in &def.params {
        lower.declare(param.clone());
    }
    // Rhai keeps a function's statements behind a type it does not export; its walk
    // over an AST of this one function hands them over, each body statement at depth 1.
    // (`clone_functions_only_filtered` copies every function into a new AST, unfiltered.)
    let mut alone = procedures.clone_functions_only();
    alone.retain_functions(|_, _, n, a| n == name && a == arity);
    let mut body = Vec::new();
    let mut failed = false;
    alone.walk(&mut |path: &[ASTNode]| {
        if let [ASTNode::Stmt(stmt)] = path {
            match lower.stmt(stmt) {
                Some(code) => body.push(code),
                None => {
                    if std::env::var_os("GROGNARD_DEBUG_LOWER").is_some() {
                        eprintln!("LOWER {name}: {}", format!("{stmt:?}").chars().take(150).collect::<String>());
                    }
                    failed = true;
                    return false;
                }
            }
        }
        true
    });
    if failed {
        return None;
    }
    let mut function = Function { name: def.name.clone(), slots: lower.slots, body, lends_first: false, method };
    // A method's receiver is always taken and given back; a function's first argument is lent when only read.
    function.lends_first = !method && !def.params.is_empty() && super::moves::only_reads_first(&mut function);
    // A receiver goes back to the caller as a lent argument does: never moved out.
    let keep_first = function.lends_first || method;
    super::moves::move_last_reads(&mut function, keep_first);
    Some(function)
}

struct Lower<'a> {
    /// Names in scope, innermost last, with their slots.
    names: Vec<(ImmutableString, usize)>,
    slots: usize,
    /// How deep in loops: `break` and `continue` need one.
    loops: usize,
    /// Inside a block used as a value (an `if` or `switch` arm as an expression, `{ .. }`):
    /// there a `break`, `continue` or `return` would leave what is around the block, which
    /// `Ex::Block` cannot carry out (its value would be `()`), so it is left to Rhai.
    in_value: bool,
    procedures: &'a HashMap<(String, usize), usize>,
    /// The procedures that are methods: called only as `x.name()`.
    methods: &'a HashSet<usize>,
    /// The receiver's slot, in a method.
    this: Option<usize>,
    /// Whether `switch` hashes agree with Rhai's (see `switch_hash`).
    switches: bool,
}

impl Lower<'_> {
    fn declare(&mut self, name: ImmutableString) -> usize {
        let slot = self.slots;
        self.slots += 1;
        self.names.push((name, slot));
        slot
    }

    fn slot(&self, name: &str) -> Option<usize> {
        self.names.iter().rev().find(|(n, _)| n == name).map(|(_, s)| *s)
    }

    /// A block with its own scope.
    fn block(&mut self, block: &StmtBlock) -> Option<Vec<Code>> {
        let depth = self.names.len();
        let code = block.statements().iter().map(|s| self.stmt(s)).collect::<Option<Vec<_>>>();
        self.names.truncate(depth);
        code
    }

    fn stmt(&mut self, stmt: &Stmt) -> Option<Code> {
        Some(match stmt {
            Stmt::Noop(_) => Code::Expr(Ex::Const(rhai::Dynamic::UNIT)),
            // A `const` refuses changes through its methods in Rhai; slots would not: left to Rhai.
            Stmt::Var(x, flags, _) if !flags.intersects(ASTFlags::EXPORTED | ASTFlags::CONSTANT) => {
                let (ident, init, _) = &**x;
                // The initial value is read before the name is in scope: `let x = x + 1`.
                let init = self.expr(init)?;
                Code::Let(self.declare(ident.name.clone()), init)
            }
            Stmt::Assignment(x) => {
                let (op, target) = &**x;
                let op = match op.get_op_assignment_info() {
                    None => None,
                    Some((.., syntax)) => Some(Op::from_syntax(syntax).filter(|o| o.assign_syntax().is_some())?),
                };
                let value = self.expr(&target.rhs)?;
                match &target.lhs {
                    Expr::Variable(var, _, pos) if var.2.is_empty() => Code::Set(self.slot(&var.1)?, op, value, *pos),
                    Expr::ThisPtr(pos) => Code::Set(self.this?, op, value, *pos),
                    lhs @ (Expr::Dot(..) | Expr::Index(..)) => {
                        let (root, links) = self.chain_of(lhs)?;
                        let Ex::Var(slot) = root else { return None };
                        let steps = links
                            .into_iter()
                            .map(|link| match link {
                                Link::Property(name, pos) => Some(Step::Property(name, pos)),
                                Link::Index(index, pos) => Some(Step::Index(index, pos)),
                                Link::Method(..) => None,
                            })
                            .collect::<Option<Box<[Step]>>>()?;
                        Code::SetAt(slot, steps, op, value, lhs.position())
                    }
                    _ => return None,
                }
            }
            Stmt::FnCall(call, pos) => Code::Expr(self.call(call, *pos)?),
            Stmt::Expr(expr) => Code::Expr(self.expr(expr)?),
            Stmt::If(x, _) => {
                let guard = self.expr(&x.expr)?;
                Code::If(guard, self.block(&x.body)?, self.block(&x.branch)?, x.expr.position())
            }
            Stmt::Switch(x, _) if self.switches => {
                let (value, cases) = &**x;
                if !cases.ranges.is_empty() {
                    return None;
                }
                let arms = cases
                    .expressions
                    .iter()
                    .map(|arm| {
                        let guard = match &arm.lhs {
                            Expr::BoolConstant(true, _) => None,
                            other => Some((self.expr(other)?, other.position())),
                        };
                        Some((guard, self.expr(&arm.rhs)?))
                    })
                    .collect::<Option<Vec<_>>>()?;
                let table = SwitchTable {
                    cases: cases.cases.iter().map(|(hash, list)| (*hash, list.blocks.to_vec())).collect(),
                    arms,
                    default: cases.def_case,
                };
                Code::Switch(self.expr(value)?, Box::new(table))
            }
            Stmt::While(x, pos) => {
                let guard = match &x.expr {
                    Expr::Unit(_) | Expr::BoolConstant(true, _) => None,
                    other => Some((self.expr(other)?, other.position())),
                };
                self.loops += 1;
                let body = self.block(&x.body);
                self.loops -= 1;
                Code::While(guard, body?, *pos)
            }
            Stmt::For(x, pos) => {
                let (item, counter, flow) = &**x;
                // The items are worked out before the loop's names are in scope.
                let items = self.expr(&flow.expr)?;
                let depth = self.names.len();
                let counter = counter.as_ref().map(|c| self.declare(c.name.clone()));
                let item = self.declare(item.name.clone());
                self.loops += 1;
                let body = self.block(&flow.body);
                self.loops -= 1;
                self.names.truncate(depth);
                Code::For(Box::new(ForLoop {
                    item,
                    counter,
                    items,
                    items_at: flow.expr.start_position(),
                    body: body?,
                    pos: *pos,
                }))
            }
            Stmt::BreakLoop(None, flags, _) if self.loops > 0 => {
                if flags.contains(ASTFlags::BREAK) {
                    Code::Break
                } else {
                    Code::Continue
                }
            }
            // A `throw` leaves through the error, which a block used as a value carries.
            Stmt::Return(_, flags, _) if self.in_value && !flags.contains(ASTFlags::BREAK) => return None,
            Stmt::Return(value, flags, pos) => {
                let value = match value {
                    Some(v) => Some(self.expr(v)?),
                    None => None,
                };
                if flags.contains(ASTFlags::BREAK) { Code::Throw(value, *pos) } else { Code::Return(value) }
            }
            Stmt::Block(block) => Code::Block(self.block(block)?),
            _ => return None,
        })
    }

    fn expr(&mut self, expr: &Expr) -> Option<Ex> {
        if expr.is_constant() {
            return expr.get_literal_value(None).map(Ex::Const);
        }
        Some(match expr {
            Expr::InterpolatedString(parts, _) => {
                Ex::Interpolated(parts.iter().map(|p| self.expr(p)).collect::<Option<_>>()?)
            }
            Expr::Array(items, _) => Ex::Array(items.iter().map(|i| self.expr(i)).collect::<Option<_>>()?),
            Expr::Map(x, _) => {
                Ex::Map(x.0.iter().map(|(k, v)| Some((k.name.clone(), self.expr(v)?))).collect::<Option<_>>()?)
            }
            Expr::Variable(var, _, _) if var.2.is_empty() => Ex::Var(self.slot(&var.1)?),
            Expr::Stmt(block) => {
                // Loops begun inside the block may be left from inside it; those around it may not.
                let (loops, in_value) = (self.loops, self.in_value);
                (self.loops, self.in_value) = (0, true);
                let code = self.block(block);
                (self.loops, self.in_value) = (loops, in_value);
                Ex::Block(code?)
            }
            Expr::FnCall(call, pos) => self.call(call, *pos)?,
            Expr::ThisPtr(_) => Ex::Var(self.this?),
            Expr::Dot(..) | Expr::Index(..) => {
                let (root, links) = self.chain_of(expr)?;
                // A method may change its receiver: in place when the receiver is a variable
                // or a place in one (`this.deck`, `a[i]`), else a copy, as in Rhai (see `run`).
                links.into_iter().fold(root, |value, link| match link {
                    Link::Property(name, pos) => Ex::Property(Box::new(value), name, pos),
                    Link::Index(index, pos) => Ex::Index(Box::new(value), Box::new(index), pos),
                    Link::Method(name, args, script, method, pos) => {
                        Ex::Method(Box::new(value), name, args, script, method, pos)
                    }
                })
            }
            Expr::And(terms, _) => Ex::And(self.terms(terms)?),
            Expr::Or(terms, _) => Ex::Or(self.terms(terms)?),
            Expr::Coalesce(terms, _) => Ex::Coalesce(terms.iter().map(|t| self.expr(t)).collect::<Option<_>>()?),
            _ => return None,
        })
    }

    /// A chain (`a.b[i].c(x)`, Rhai's `Dot` and `Index` nodes) as its root and its links in order.
    fn chain_of(&mut self, expr: &Expr) -> Option<(Ex, Vec<Link>)> {
        let mut links = Vec::new();
        let root = match expr {
            Expr::Dot(x, flags, _) if !flags.contains(ASTFlags::NEGATED) => {
                let root = self.expr(&x.lhs)?;
                self.dot_links(&x.rhs, &mut links)?;
                root
            }
            // Not `a?[i]`.
            Expr::Index(x, flags, _) if !flags.contains(ASTFlags::NEGATED) => {
                let root = self.expr(&x.lhs)?;
                self.index_links(&x.rhs, flags.contains(ASTFlags::BREAK), &mut links)?;
                root
            }
            _ => return None,
        };
        Some((root, links))
    }

    /// The links after a `.`: Rhai nests the rest of a chain in the right side of each node.
    fn dot_links(&mut self, node: &Expr, links: &mut Vec<Link>) -> Option<()> {
        match node {
            Expr::Property(..) | Expr::MethodCall(..) => {
                links.push(self.dot_link(node)?);
                Some(())
            }
            Expr::Dot(x, flags, _) if !flags.contains(ASTFlags::NEGATED) => {
                links.push(self.dot_link(&x.lhs)?);
                self.dot_links(&x.rhs, links)
            }
            Expr::Index(x, flags, _) if !flags.contains(ASTFlags::NEGATED) => {
                links.push(self.dot_link(&x.lhs)?);
                self.index_links(&x.rhs, flags.contains(ASTFlags::BREAK), links)
            }
            _ => None,
        }
    }

    /// The links after a `[`: the index, alone when it ends the chain (`last`), else with the rest.
    fn index_links(&mut self, node: &Expr, last: bool, links: &mut Vec<Link>) -> Option<()> {
        if last {
            links.push(Link::Index(self.expr(node)?, node.start_position()));
            return Some(());
        }
        match node {
            Expr::Dot(x, flags, _) if !flags.contains(ASTFlags::NEGATED) => {
                links.push(Link::Index(self.expr(&x.lhs)?, x.lhs.start_position()));
                self.dot_links(&x.rhs, links)
            }
            Expr::Index(x, flags, _) if !flags.contains(ASTFlags::NEGATED) => {
                links.push(Link::Index(self.expr(&x.lhs)?, x.lhs.start_position()));
                self.index_links(&x.rhs, flags.contains(ASTFlags::BREAK), links)
            }
            _ => None,
        }
    }

    /// One link after a `.`: a property or a method call.
    fn dot_link(&mut self, node: &Expr) -> Option<Link> {
        match node {
            Expr::Property(prop, pos) => Some(Link::Property(prop.2.clone(), *pos)),
            Expr::MethodCall(call, pos) => {
                if !call.namespace.is_empty() || call.capture_parent_scope || METHODS_LEFT.contains(&call.name.as_str())
                {
                    return None;
                }
                let args = call.args.iter().map(|a| self.expr(a)).collect::<Option<_>>()?;
                let script = (!call.hashes.is_native_only()).then(|| call.hashes.script());
                // A compiled method of that name, called with its receiver as `this`.
                let method = script
                    .and_then(|_| self.procedures.get(&(call.name.to_string(), call.args.len())))
                    .copied()
                    .filter(|i| self.methods.contains(i));
                Some(Link::Method(call.name.clone(), args, script, method, *pos))
            }
            _ => None,
        }
    }

    fn call(&mut self, call: &FnCallExpr, pos: rhai::Position) -> Option<Ex> {
        if !call.namespace.is_empty() || call.capture_parent_scope {
            return None;
        }
        let name = call.name.as_str();
        let args = &call.args;
        if call.is_operator_call() {
            return Some(match (name, &args[..]) {
                ("!", [value]) => Ex::Not(Box::new(self.expr(value)?), pos),
                ("-", [value]) => Ex::Negate(Box::new(self.expr(value)?), pos),
                (_, [a, b]) if Op::from_syntax(name).is_some() => {
                    let op = Op::from_syntax(name)?;
                    word_compare(Ex::Binary(op, Box::new(self.expr(a)?), Box::new(self.expr(b)?), pos))
                }
                _ => Ex::Call(Callee::Other(call.name.clone(), None), self.args(args)?, pos),
            });
        }
        if name == "type_of" && args.len() == 1 {
            return Some(Ex::TypeOf(Box::new(self.expr(&args[0])?)));
        }
        if REFUSED_CALLS.contains(&name) {
            return None;
        }
        let script = (!call.hashes.is_native_only()).then(|| call.hashes.script());
        let callee = match (self.procedures.get(&(name.to_string(), args.len())), script) {
            // A method called as a function has no receiver: Rhai's call, and Rhai's error.
            (Some(index), Some(script)) if !self.methods.contains(index) => {
                Callee::Procedure(*index, call.name.clone(), script)
            }
            _ => Callee::Other(call.name.clone(), script),
        };
        Some(Ex::Call(callee, self.args(args)?, pos))
    }

    fn terms(&mut self, terms: &[Expr]) -> Option<Vec<(Ex, rhai::Position)>> {
        terms.iter().map(|t| Some((self.expr(t)?, t.position()))).collect()
    }

    fn args(&mut self, args: &[Expr]) -> Option<Vec<Ex>> {
        args.iter().map(|a| self.expr(a)).collect()
    }
}

/// `written` as a `WordCompare` when it compares a variable's word property with a literal word.
fn word_compare(written: Ex) -> Ex {
    let Ex::Binary(Op::Compare(op), a, b, _) = &written else { return written };
    let (op, property, literal) = match (a.as_ref(), b.as_ref()) {
        (property @ Ex::Property(..), Ex::Const(literal)) => (*op, property, literal),
        (Ex::Const(literal), property @ Ex::Property(..)) => (op.flipped(), property, literal),
        _ => return written,
    };
    let Ex::Property(base, name, _) = property else { return written };
    let (Ex::Var(slot), Some(word)) = (base.as_ref(), UnitWord::named(name)) else { return written };
    if !literal.is_string() {
        return written;
    }
    let (slot, literal) = (*slot, literal.clone());
    Ex::WordCompare(Box::new(WordCompare { op, slot, word, literal, written }))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// Lowers each function of `code`; the names of those that compiled and pass `keep`.
    fn lowered(code: &str, keep: impl Fn(&Function) -> bool) -> Vec<String> {
        crate::script::fix_hashing();
        let ast = rhai::Engine::new().compile(code).unwrap();
        let index: HashMap<(String, usize), usize> = crate::script::syntax::functions(&ast)
            .enumerate()
            .map(|(i, d)| ((d.name.to_string(), d.params.len()), i))
            .collect();
        // As if the engine had a function `to_string(x)`, as Rhai's library has.
        let natives: HashSet<(String, usize)> = [("to_string".to_string(), 1)].into_iter().collect();
        let methods = methods(&reading_this(&ast), &index, &natives);
        let mut names: Vec<String> = index
            .keys()
            .filter(|(name, arity)| lower(&ast, name, *arity, &index, &methods, true).is_some_and(|f| keep(&f)))
            .map(|(name, _)| name.clone())
            .collect();
        names.sort();
        names
    }

    /// The functions of `code` that compile.
    fn compiled(code: &str) -> Vec<String> {
        lowered(code, |_| true)
    }

    /// The functions of `code` whose first parameter is lent, not copied.
    fn lending(code: &str) -> Vec<String> {
        lowered(code, |f| f.lends_first)
    }

    #[test]
    fn a_first_parameter_only_read_is_lent() {
        let code = r#"
            fn reads(u, n) { let copy = u; if u.arm == "infantry" { u.stands + n } else { copy } }
            fn passes_on(u) { reads(u, 1) }
            fn sets_a_property(u) { u.stands = 3; }
            fn assigns(u) { u = 3; u }
            fn lends_to_a_method(u) { u.to_float() }
            fn reads_the_second(a, u) { u.stands = a; }
            fn none() { 1 }
        "#;
        assert_eq!(lending(code), ["passes_on", "reads", "reads_the_second"]);
    }

    #[test]
    fn rhai_files_switch_cases_where_this_file_looks() {
        assert!(switch_hashes_agree());
    }

    #[test]
    fn what_is_compiled_and_what_is_left_to_rhai() {
        let code = r#"
            fn plain(a, b) { let c = a + b; if c > 2 { c } else { -c } }
            fn switches(x) { switch x { "a" | "b" => 1, 2 => 2, _ => 3 } }
            fn loops(n) { let i = 0; while i < n { i += 1; if i == 5 { break; } } loop { return i; } }
            fn calls(u) { u.stands = u.stands - 1; plain(u.stands, 1).to_float() + roll("1d6").total }
            fn looping_for(list) { for x in list { x } }
            fn indexing(list) { list[0] }
            fn closure(list) { list.map(|x| x + 1) }
            fn capturing(list, n) { list.map(|x| x + n) }
            fn method(x) { this.total = x; }
            fn ranges(x) { switch x { 0..5 => 1, _ => 2 } }
            fn trying(x) { try { x.total } catch { 2 } }
            fn mutating_a_property(m) { m.list.push(1); }
            fn printing(x) { print(x); }
            fn constant(x) { const c = [x]; c.len() }
            fn arm_breaks(x) { loop { switch x { 1 => { break; }, _ => {} } } }
            fn value_returns(x) { let y = if x > 0 { return 1; } else { 2 }; y }
            fn value_loops(x) { let y = { let t = 0; loop { t += 1; if t > x { break; } } t }; y }
            fn chains(m, k) { m.list[k].n += 1; m.list[0].tags.push(k); m["list"][-1].n }
            fn drawing() { let card = this.deck.draw("x"); this.seen[card.colour] += 1; this.next() }
            fn typed_method() { this.list.len() }
            fn typed_method(x) { x }
            fn optional(m) { m?.list }
            fn to_string() { this.name }
        "#;
        // A closure that captures nothing is a constant function pointer: its body stays Rhai's.
        // A method that would be registered where a function of its name takes one more
        // argument (`typed_method(x)`, the engine's `to_string(x)`) is left to Rhai.
        assert_eq!(
            compiled(code),
            [
                "calls",
                "chains",
                "closure",
                "drawing",
                "indexing",
                "looping_for",
                "loops",
                "method",
                "mutating_a_property",
                "plain",
                "switches",
                "typed_method",
                "value_loops"
            ]
        );
    }
}
