//! `Condition`: a modifier's `when:` or `per:` expression, compiled once to a native form when it only reads.
//!
//! A `modifiers()` call tests every condition of its list, and Rhai's cost per
//! evaluation (runtime state, scope search, a getter call per property) made
//! conditions most of the time of a scripted fire. Most conditions only read:
//! properties of the units and the situation, literals, comparisons, `in`,
//! `&&`/`||`/`!`, `has_marker`, `marker`, `has_any`, a unit's `leaders`, a
//! list's `len()` and `any_marker`. Such a condition is
//! also compiled to a `Native` tree and evaluated here, with Rhai's own
//! semantics for each operation. Anything else (arithmetic, other calls, a
//! property this file does not know, a value of another type) is not decided
//! here: the condition is then evaluated by Rhai, which also words any error,
//! so the native form changes speed only, never a result or a message. A
//! property test holds both evaluations equal.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::script::syntax::{ASTFlags, Expr, FnCallExpr, Stmt};
use rhai::{AST, Array, Dynamic, ImmutableString};

use super::handles::{LeaderRef, UnitRef};
use super::properties::{UnitWord, leader_method, leader_property, unit_method, unit_property};
use super::value_compare::{Op, any_equal_text, compare, compare_text};

/// The names a `when:` condition may use; each is `()` unless the caller gives it.
pub const CONDITION_NAMES: [&str; 9] =
    ["firer", "target", "attacker", "defender", "unit", "enemy", "leader", "situation", "roll"];

/// The value of each of the `CONDITION_NAMES` in a `modifiers` call, in that order.
pub type ConditionValues<'a> = [&'a Dynamic; CONDITION_NAMES.len()];

/// `has_any(situation.cover, ["woods", "hedge"])`: whether a word, or any word of a list, is among `words`.
pub(crate) fn has_any(value: Dynamic, words: &Array) -> bool {
    let wanted = |v: &Dynamic| {
        let Ok(v) = v.clone().into_immutable_string() else { return false };
        words.iter().any(|w| match w.clone().into_immutable_string() {
            Ok(w) => w == v,
            Err(_) => w.to_string() == v.as_str(),
        })
    };
    if value.is_array() { value.cast::<Array>().iter().any(wanted) } else { wanted(&value) }
}

/// `any_marker(unit.leaders, "exceptional")`: whether any unit or leader of a list carries a marker.
pub(crate) fn any_marker(items: &Array, marker: &str) -> bool {
    items.iter().any(|item| {
        if let Some(unit) = item.read_lock::<UnitRef>() {
            unit.0.borrow().has_marker(marker)
        } else if let Some(leader) = item.read_lock::<LeaderRef>() {
            leader.0.borrow().has_marker(marker)
        } else {
            false
        }
    })
}

/// A compiled condition: Rhai's AST always, and the native form when the expression allows one.
#[derive(Clone, Debug)]
pub struct Condition {
    pub ast: Rc<AST>,
    pub native: Option<Native>,
}

impl Condition {
    /// Compiles the native form of `ast` where it can; `shadowed` are the
    /// script functions of the ruleset, which would take a call's name over grognard's own.
    pub fn new(ast: AST, shadowed: &dyn Fn(&str) -> bool) -> Self {
        let native = match ast.statements() {
            [Stmt::Expr(expr)] => Native::compile(expr, shadowed),
            // A condition that is one call (`a == b`, `has_any(..)`) is a call statement.
            [Stmt::FnCall(call, _)] => Native::call(call, shadowed),
            _ => None,
        };
        Condition { ast: Rc::new(ast), native }
    }
}

/// A condition read natively: each node mirrors one Rhai operation.
#[derive(Clone, Debug)]
pub enum Native {
    /// One of the `CONDITION_NAMES`, by its index.
    Var(usize),
    Literal(Dynamic),
    /// `value.property`, `value.marker("x")`, `value.has_marker("x")`, in a chain.
    Chain(Box<Native>, Vec<Access>),
    Compare(Op, Box<Native>, Box<Native>),
    /// `value in [literals]`.
    In(Box<Native>, Array),
    /// `has_any(value, [literals])`.
    HasAny(Box<Native>, Array),
    /// `any_marker(list, "name")`.
    AnyMarker(Box<Native>, ImmutableString),
    Not(Box<Native>),
    And(Vec<Native>),
    Or(Vec<Native>),
}

/// One step of a property chain.
#[derive(Clone, Debug)]
pub enum Access {
    /// A property, and which of a unit's words it is (if it is one), to read off a unit without its name.
    Property(ImmutableString, Option<UnitWord>),
    /// A method with one text argument: `marker` or `has_marker`.
    Method(ImmutableString, ImmutableString),
    /// `len()` of a list.
    Len,
}

/// What a condition reads besides its variables: the leaders, by id, that a unit's `leaders` names.
pub type Leaders = BTreeMap<String, LeaderRef>;

impl Native {
    /// The native form of `expr`, or none if any part of it is not one this file reads.
    fn compile(expr: &Expr, shadowed: &dyn Fn(&str) -> bool) -> Option<Native> {
        let compile = |e: &Expr| Native::compile(e, shadowed).map(Box::new);
        if expr.is_constant() {
            return expr.get_literal_value(None).map(Native::Literal);
        }
        match expr {
            Expr::Variable(var, ..) => {
                let name = var.1.as_str();
                CONDITION_NAMES.iter().position(|n| *n == name).map(Native::Var)
            }
            Expr::Dot(chain, flags, _) if !flags.contains(ASTFlags::NEGATED) => {
                let mut accesses = Vec::new();
                accessors(&chain.rhs, &mut accesses, shadowed)?;
                Some(Native::Chain(compile(&chain.lhs)?, accesses))
            }
            Expr::And(terms, _) => {
                terms.iter().map(|t| Native::compile(t, shadowed)).collect::<Option<_>>().map(Native::And)
            }
            Expr::Or(terms, _) => {
                terms.iter().map(|t| Native::compile(t, shadowed)).collect::<Option<_>>().map(Native::Or)
            }
            Expr::FnCall(call, _) => Native::call(call, shadowed),
            _ => None,
        }
    }

    /// The native form of an operator or a call.
    fn call(call: &FnCallExpr, shadowed: &dyn Fn(&str) -> bool) -> Option<Native> {
        let compile = |e: &Expr| Native::compile(e, shadowed).map(Box::new);
        if !call.namespace.is_empty() {
            return None;
        }
        let name = call.name.as_str();
        let args = &call.args;
        if call.is_operator_call() {
            let op = match name {
                "!" if args.len() == 1 => return Some(Native::Not(compile(&args[0])?)),
                _ => Op::from_syntax(name)?,
            };
            return match &args[..] {
                [a, b] => Some(Native::Compare(op, compile(a)?, compile(b)?)),
                _ => None,
            };
        }
        if shadowed(name) {
            return None;
        }
        match (name, &args[..]) {
            // `x in [..]` is Rhai's `contains([..], x)`.
            ("contains", [list, value]) => Some(Native::In(compile(value)?, literal_array(list)?)),
            ("has_any", [value, list]) => Some(Native::HasAny(compile(value)?, literal_array(list)?)),
            ("any_marker", [list, Expr::StringConstant(marker, _)]) => {
                Some(Native::AnyMarker(compile(list)?, marker.clone()))
            }
            _ => None,
        }
    }

    /// The condition's value, or none where Rhai must decide (an error, a type this file does not compare).
    pub fn eval(&self, vars: &[&Dynamic], leaders: &Leaders) -> Option<Dynamic> {
        match self {
            Native::Var(i) => vars.get(*i).map(|v| (*v).clone()),
            Native::Literal(value) => Some(value.clone()),
            Native::Chain(base, accesses) => {
                // A chain off a name reads it in place: `situation.range` does not copy the situation.
                let (mut value, rest) = match base.as_ref() {
                    Native::Var(i) => (accesses.first()?.read(vars.get(*i)?, leaders)?, accesses.get(1..)?),
                    other => (other.eval(vars, leaders)?, &accesses[..]),
                };
                for access in rest {
                    value = access.read(&value, leaders)?;
                }
                Some(value)
            }
            Native::Compare(..)
            | Native::In(..)
            | Native::HasAny(..)
            | Native::AnyMarker(..)
            | Native::Not(_)
            | Native::And(_)
            | Native::Or(_) => self.truth(vars, leaders).map(Dynamic::from),
        }
    }

    /// The condition's value when it is true or false, without making a value
    /// of it; none where it is not a boolean or Rhai must decide.
    pub fn truth(&self, vars: &[&Dynamic], leaders: &Leaders) -> Option<bool> {
        match self {
            Native::Compare(op, a, b) => {
                // `unit.arm == "artillery"`: the word compared where it lies, not copied out.
                let in_place = match (a.as_ref(), b.as_ref()) {
                    (word, Native::Literal(text)) => word.with_unit_text(vars, |w| compare_text(*op, w, text)),
                    (Native::Literal(text), word) => word.with_unit_text(vars, |w| compare_text(op.flipped(), w, text)),
                    _ => None,
                };
                if let Some(Some(result)) = in_place {
                    return Some(result);
                }
                // `situation.range <= 8`: both sides read where they lie when they can be.
                if let Some(result) = a.peek(vars, |x| b.peek(vars, |y| compare(*op, x, y))) {
                    return Some(result);
                }
                compare(*op, &a.eval(vars, leaders)?, &b.eval(vars, leaders)?)
            }
            Native::In(value, list) => {
                let in_place = value.with_unit_text(vars, |w| any_equal_text(w, list));
                if let Some(Some(found)) = in_place {
                    return Some(found);
                }
                let value = value.eval(vars, leaders)?;
                let mut found = false;
                for item in list {
                    found |= compare(Op::Eq, item, &value)?;
                }
                Some(found)
            }
            Native::HasAny(value, list) => Some(has_any(value.eval(vars, leaders)?, list)),
            // Not a list: Rhai decides (and words the error).
            Native::AnyMarker(list, marker) => {
                Some(any_marker(&list.eval(vars, leaders)?.try_cast::<Array>()?, marker))
            }
            Native::Not(value) => Some(!value.truth(vars, leaders)?),
            Native::And(terms) => {
                for term in terms {
                    if !term.truth(vars, leaders)? {
                        return Some(false);
                    }
                }
                Some(true)
            }
            Native::Or(terms) => {
                for term in terms {
                    if term.truth(vars, leaders)? {
                        return Some(true);
                    }
                }
                Some(false)
            }
            Native::Var(_) | Native::Literal(_) | Native::Chain(..) => self.eval(vars, leaders)?.as_bool().ok(),
        }
    }
}

impl Native {
    /// Calls `f` with this node's value where it lies, when it is a variable, a
    /// literal or a map's entry off a variable (`situation.range`); none otherwise
    /// (and when `f` says none).
    fn peek<R>(&self, vars: &[&Dynamic], f: impl FnOnce(&Dynamic) -> Option<R>) -> Option<R> {
        match self {
            Native::Var(i) => f(vars.get(*i)?),
            Native::Literal(value) => f(value),
            Native::Chain(base, accesses) => {
                let (Native::Var(i), [Access::Property(name, _)]) = (base.as_ref(), &accesses[..]) else { return None };
                let map = vars.get(*i)?.read_lock::<rhai::Map>()?;
                match map.get(name.as_str()) {
                    Some(value) => f(value),
                    // A missing entry reads as `()`, as Rhai reads it.
                    None => f(&Dynamic::UNIT),
                }
            }
            _ => None,
        }
    }

    /// Calls `f` with a unit's word property (`firer.arm`) read in place,
    /// when this node is one; `None` to `f` is the unit having none (`()`).
    fn with_unit_text<R>(&self, vars: &[&Dynamic], f: impl FnOnce(Option<&str>) -> R) -> Option<R> {
        let Native::Chain(base, accesses) = self else { return None };
        let (Native::Var(i), [Access::Property(_, Some(word))]) = (base.as_ref(), &accesses[..]) else { return None };
        let unit = vars.get(*i)?.read_lock::<UnitRef>()?;
        let unit = unit.0.borrow();
        Some(f(word.of(&unit)))
    }
}

/// The steps of the right side of a `.` chain: `a.b.c` is `a` then [b, c].
fn accessors(expr: &Expr, out: &mut Vec<Access>, shadowed: &dyn Fn(&str) -> bool) -> Option<()> {
    match expr {
        Expr::Property(names, _) => out.push(Access::Property(names.2.clone(), UnitWord::named(&names.2))),
        Expr::MethodCall(call, _) => out.push(method(call, shadowed)?),
        Expr::Dot(chain, flags, _) if !flags.contains(ASTFlags::NEGATED) => {
            accessors(&chain.lhs, out, shadowed)?;
            accessors(&chain.rhs, out, shadowed)?;
        }
        _ => return None,
    }
    Some(())
}

fn method(call: &FnCallExpr, shadowed: &dyn Fn(&str) -> bool) -> Option<Access> {
    let name = call.name.as_str();
    if name == "len" && call.args.is_empty() && !shadowed(name) && call.namespace.is_empty() {
        return Some(Access::Len);
    }
    if !matches!(name, "marker" | "has_marker") || shadowed(name) || !call.namespace.is_empty() {
        return None;
    }
    match &call.args[..] {
        [Expr::StringConstant(text, _)] => Some(Access::Method(call.name.clone(), text.clone())),
        _ => None,
    }
}

fn literal_array(expr: &Expr) -> Option<Array> {
    if !expr.is_constant() {
        return None;
    }
    expr.get_literal_value(None)?.try_cast::<Array>()
}

impl Access {
    /// This step read off `value`: a map's entry (`()` when missing, as Rhai
    /// reads it), or a unit's or leader's property or method.
    fn read(&self, value: &Dynamic, leaders: &Leaders) -> Option<Dynamic> {
        if let Access::Len = self {
            // A list's length; Rhai decides any other value's.
            return value.read_lock::<Array>().map(|list| Dynamic::from(list.len() as i64));
        }
        if value.is_map() {
            let Access::Property(name, _) = self else { return None };
            let map = value.read_lock::<rhai::Map>()?;
            return Some(map.get(name.as_str()).cloned().unwrap_or(Dynamic::UNIT));
        }
        if let Some(unit) = value.read_lock::<UnitRef>() {
            let unit = unit.0.borrow();
            return match self {
                // As the `leaders` getter reads them: the attached leaders that exist.
                Access::Property(name, _) if name == "leaders" => Some(Dynamic::from_array(
                    unit.leaders.iter().filter_map(|id| leaders.get(id)).map(|l| Dynamic::from(l.clone())).collect(),
                )),
                Access::Property(name, _) => unit_property(&unit, name),
                Access::Method(name, arg) => unit_method(&unit, name, arg),
                Access::Len => None,
            };
        }
        if let Some(leader) = value.read_lock::<LeaderRef>() {
            let leader = leader.0.borrow();
            return match self {
                Access::Property(name, _) => leader_property(&leader, name),
                Access::Method(name, arg) => leader_method(&leader, name, arg),
                Access::Len => None,
            };
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rhai::{Dynamic, Engine, Scope};

    use super::{CONDITION_NAMES, Condition};
    use crate::rules::Ruleset;
    use crate::script::Host;

    /// A unit in Rhai notation, from its varying parts.
    fn unit_spec(arm: &str, kind: Option<&str>, stands: u32, formation: &str, marker: Option<&str>) -> String {
        let kind = kind.map(|k| format!(", type: \"{k}\"")).unwrap_or_default();
        let markers = marker.map(|m| format!(", markers: #{{ battery: \"{m}\", flag: true }}")).unwrap_or_default();
        format!("unit(#{{ name: \"U\", arm: \"{arm}\", stands: {stands}, formation: \"{formation}\"{kind}{markers} }})")
    }

    /// A unit with `leaders` attached, the first of them exceptional when `exceptional`.
    fn with_leaders(unit: String, leaders: usize, exceptional: bool) -> String {
        let attach: String = (0..leaders)
            .map(|i| {
                let mark = if i == 0 && exceptional { "l.set_marker(\"exceptional\", true); " } else { "" };
                format!("let l = leader(#{{ name: \"L{i}\" }}); {mark}u.attach(l); ")
            })
            .collect();
        format!("{{ let u = {unit}; {attach}u }}")
    }

    fn atom() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("firer.arm".to_string()),
            Just("firer.type".to_string()),
            Just("firer.stands".to_string()),
            Just("target.formation".to_string()),
            Just("target.eliminated".to_string()),
            Just("situation.range".to_string()),
            Just("situation.cover".to_string()),
            Just("situation.flag".to_string()),
            Just("situation.missing".to_string()),
            Just("roll".to_string()),
            Just("firer.marker(\"battery\")".to_string()),
            Just("target.has_marker(\"flag\")".to_string()),
            Just("firer.leaders.len()".to_string()),
            Just("target.leaders.len()".to_string()),
            Just("any_marker(firer.leaders, \"exceptional\")".to_string()),
            Just("any_marker(situation.cover, \"exceptional\")".to_string()),
            Just("situation.cover.len()".to_string()),
            Just("\"line\"".to_string()),
            Just("\"infantry\"".to_string()),
            Just("3".to_string()),
            Just("1".to_string()),
            Just("2.5".to_string()),
            Just("target.stands".to_string()),
            Just("true".to_string()),
            Just("()".to_string()),
        ]
    }

    fn expression() -> impl Strategy<Value = String> {
        let comparison = (atom(), prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="]), atom())
            .prop_map(|(a, op, b)| format!("{a} {op} {b}"));
        let membership = atom().prop_map(|a| format!("{a} in [\"line\", 3, 2.5, (), \"woods\"]"));
        let has_any = atom().prop_map(|a| format!("has_any({a}, [\"woods\", \"hedge\"])"));
        let leaf = prop_oneof![comparison, membership, has_any, atom()];
        leaf.prop_recursive(3, 12, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) && ({b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) || ({b})")),
                inner.prop_map(|a| format!("!({a})")),
            ]
        })
    }

    fn situation() -> impl Strategy<Value = String> {
        let range = prop_oneof![Just("()"), Just("2"), Just("8"), Just("2.5"), Just("\"far\"")];
        let cover = prop_oneof![Just("()"), Just("\"woods\""), Just("[\"town\", \"hedge\"]"), Just("3")];
        let flag = prop_oneof![Just("true"), Just("false"), Just("()"), Just("1")];
        (range, cover, flag).prop_map(|(r, c, f)| format!("#{{ range: {r}, cover: {c}, flag: {f} }}"))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// The native form decides a condition only as Rhai does: the same
        /// value where it gives one, and nothing where Rhai fails.
        #[test]
        fn native_conditions_agree_with_rhai(
            text in expression(),
            arm in prop::sample::select(vec!["infantry", "artillery"]),
            kind in prop::option::of(prop::sample::select(vec!["heavy", "line"])),
            stands in 0u32..4,
            formation in prop::sample::select(vec!["line", "column"]),
            marker in prop::option::of(prop::sample::select(vec!["damaged", "silenced"])),
            situation in situation(),
            roll in prop_oneof![Just("()"), Just("3"), Just("\"x\"")],
            leaders in 0usize..3,
            exceptional: bool,
        ) {
            let firer = with_leaders(unit_spec(arm, kind, stands, formation, marker), leaders, exceptional);
            HOST.with(|host| agree(host, &text, [firer, unit_spec(arm, None, stands + 1, formation, None), situation, roll.to_string()]))?;
        }
    }

    thread_local! {
        static HOST: Host = Host::new(Ruleset::empty()).unwrap();
    }

    /// Evaluates `text` natively and by Rhai with firer, target, situation and roll set from `specs`.
    fn agree(host: &Host, text: &str, specs: [String; 4]) -> Result<(), TestCaseError> {
        {
            let mut scope = Scope::new();
            for name in CONDITION_NAMES {
                scope.push_dynamic(name, Dynamic::UNIT);
            }
            for (name, spec) in ["firer", "target", "situation", "roll"].into_iter().zip(specs) {
                let value = host.eval(&mut scope, &spec).unwrap().value;
                scope.set_value(name, value);
            }
            let vars: Vec<Dynamic> =
                CONDITION_NAMES.iter().map(|name| scope.get_value::<Dynamic>(name).unwrap()).collect();

            crate::script::fix_hashing();
            let mut engine = Engine::new();
            engine.set_strict_variables(true);
            // Some generated expressions are not Rhai (`!()`): those say nothing.
            let ast = engine.compile_expression_with_scope(&scope, text);
            prop_assume!(ast.is_ok());
            let ast = ast.unwrap();
            let condition = Condition::new(ast, &|_| false);
            let by_rhai = host.eval(&mut scope, text);
            let vars: Vec<&Dynamic> = vars.iter().collect();
            if let Some(native) = condition.native.as_ref().and_then(|n| n.eval(&vars, &host.state().leaders)) {
                let by_rhai = by_rhai.map_err(|e| format!("{e:?}"));
                prop_assert!(by_rhai.is_ok(), "{text}: native {native:?}, Rhai failed: {by_rhai:?}");
                let by_rhai = by_rhai.unwrap().value;
                prop_assert_eq!(native.type_name(), by_rhai.type_name(), "{}", text);
                prop_assert_eq!(native.to_string(), by_rhai.to_string(), "{}", text);
            }
        }
        Ok(())
    }

    #[test]
    fn the_shipped_ff_modifiers_are_read_natively() {
        let specs = ["ff-napoleonic".to_string()];
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules");
        let rs = crate::rules::load(&specs, &dir).unwrap().ruleset;
        let host = Host::new(rs).unwrap();
        let st = host.state();
        for (id, list) in &st.lists {
            for (m, when) in list.list.modifiers.iter().zip(&list.when) {
                let when = when.as_ref().map(|c| c.native.is_some());
                assert_ne!(
                    when,
                    Some(false),
                    "{id}.{}: `when: {}` is read by Rhai",
                    m.id,
                    m.when.as_deref().unwrap_or("")
                );
            }
        }
    }
}
