//! What `check` finds in procedures and conditions beyond compiling them: dice that do not
//! read, unknown tables, lists and switches named by a literal, and unknown functions.

use std::collections::BTreeSet;

use rhai::{AST, Dynamic, Scope};

use super::Host;
use crate::rules::{Problem, SourceFile};
use crate::script::condition::CONDITION_NAMES;
use crate::script::error::span_at;
use crate::script::sandbox::{self};
use crate::script::type_flow::Ty;
use crate::script::words::Typed;

/// A plain function call found in an AST (no operators, no namespaces).
pub(super) struct Call {
    name: String,
    position: rhai::Position,
    /// The first argument, when it is a string written in the script.
    first_text: Option<(String, rhai::Position)>,
}

pub(super) fn calls(ast: &AST) -> Vec<Call> {
    let mut found = Vec::new();
    ast.walk(&mut |path: &[crate::script::syntax::ASTNode]| {
        let found_call = match path.last() {
            Some(crate::script::syntax::ASTNode::Expr(crate::script::syntax::Expr::FnCall(call, position))) => {
                Some((call, position))
            }
            // A call standing alone as a statement is a statement node.
            Some(crate::script::syntax::ASTNode::Stmt(crate::script::syntax::Stmt::FnCall(call, position))) => {
                Some((call, position))
            }
            _ => None,
        };
        if let Some((call, position)) = found_call {
            let plain = call.namespace.is_empty() && call.op_token.is_none();
            let is_name = call.name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_');
            if plain && is_name {
                let first_text = match call.args.first() {
                    Some(crate::script::syntax::Expr::StringConstant(text, at)) => Some((text.to_string(), *at)),
                    _ => None,
                };
                found.push(Call { name: call.name.to_string(), position: *position, first_text });
            }
        }
        true
    });
    found
}

impl Host {
    /// What `check` finds in one procedure file beyond its compiling: unknown functions and
    /// methods, names and dice written as literals, rolls never read, contracts broken by literal
    /// arguments, and misspelt words.
    pub(super) fn check_procedure(
        &self,
        file: &SourceFile,
        ast: &AST,
        known: &BTreeSet<String>,
        marker_values: &crate::script::marker_values::MarkerValues,
        flow: &FlowOfFile,
        problems: &mut Vec<Problem>,
    ) {
        for call in calls(ast) {
            if !known.contains(&call.name) {
                let hint = crate::rules::did_you_mean(&call.name, known.iter().map(String::as_str));
                let message = format!("`{}` is not a function of this ruleset or of grognard{hint}", call.name);
                problems.push(
                    Problem::error("script::unknown_function", message, file, span_at(file, call.position))
                        .with_label("called here"),
                );
            }
            if let Some(problem) = self.check_name(file, &call) {
                problems.push(problem);
            }
            if let Some(problem) = self.check_dice(file, &call) {
                problems.push(problem);
            }
        }
        problems.extend(crate::script::roll_readings::unread_rolls(file, ast));
        for (why, at) in crate::script::contracted::literal_breaches(ast, &self.state.borrow().ruleset) {
            problems.push(Problem::error("script::contract", why, file, span_at(file, at)).with_label("here"));
        }
        let ruleset = &self.state.borrow().ruleset;
        let mut words = crate::script::words::misspelt_in_procedures(ast, ruleset, marker_values, flow.typed);
        // The kinds followed through every function: a word of a closed set, a key a declared
        // map lacks, values of two kinds compared. A slip both find is said once.
        for slip in flow.slips.iter() {
            if !words.iter().any(|(_, at)| *at == slip.1) {
                words.push(slip.clone());
            }
        }
        for (why, at) in words {
            problems.push(Problem::error("script::word", why, file, span_at(file, at)).with_label("here"));
        }
        for (why, at) in crate::script::call_checks::yes_no_rolls_as_numbers(ast, &self.state.borrow().ruleset) {
            problems.push(Problem::error("script::word", why, file, span_at(file, at)).with_label("here"));
        }
        for (why, at) in crate::script::call_checks::unknown_values(ast, &self.state.borrow().ruleset) {
            problems.push(Problem::error("script::word", why, file, span_at(file, at)).with_label("here"));
        }
        for (why, at) in crate::script::marker_kinds::wrong_kinds(ast, &self.state.borrow().ruleset) {
            problems.push(Problem::error("script::marker_kind", why, file, span_at(file, at)).with_label("this value"));
        }
        for (why, at) in crate::script::call_checks::unknown_methods(ast, known) {
            problems.push(
                Problem::error("script::unknown_function", why, file, span_at(file, at)).with_label("not a method"),
            );
        }
    }

    /// A condition (or `per:` count) compiled, with every problem in it: it does not
    /// compile, calls a function that does not exist, or misspells a word.
    pub(super) fn condition(
        &self,
        scope: &Scope,
        known: &BTreeSet<String>,
        w: &Written,
    ) -> (Option<AST>, Vec<Problem>) {
        let at = |message: String, position: rhai::Position| {
            Problem::error("script::condition", message, &w.origin.file, expression_span(w.origin, w.text, position))
        };
        let mut problems = Vec::new();
        let ast = match self.engine.compile_expression_with_scope(scope, w.text) {
            Ok(ast) => ast,
            Err(err) => {
                let names = CONDITION_NAMES.join(", ");
                problems.push(
                    at(format!("the {} of modifier `{}` does not compile: {}", w.what, w.modifier, err.0), err.1)
                        .with_label("here")
                        .with_help(format!("it is one Rhai expression over {names}")),
                );
                return (None, problems);
            }
        };
        for call in calls(&ast) {
            if !known.contains(&call.name) {
                let hint = crate::rules::did_you_mean(&call.name, known.iter().map(String::as_str));
                let message = format!(
                    "the {} of modifier `{}` calls `{}`, which does not exist{hint}",
                    w.what, w.modifier, call.name
                );
                problems.push(at(message, call.position).with_label("not a function"));
            }
        }
        for (why, pos) in crate::script::call_checks::unknown_methods(&ast, known) {
            problems.push(
                at(format!("the {} of modifier `{}`: {why}", w.what, w.modifier), pos).with_label("not a method"),
            );
        }
        let st = self.state.borrow();
        let keys = crate::script::words::list_situation(&st.ruleset, w.list);
        let names = crate::script::words::condition_names();
        let mut slips = crate::script::words::misspelt_with(&ast, &st.ruleset, &names, w.marker_values, keys);
        // The same kinds procedures are held to: the units named, and the situation's keys.
        let flow = crate::script::type_flow::Flow::new(&st.ruleset, &[]);
        let mut env: crate::script::type_flow::Env = names
            .iter()
            .map(|(name, typed)| {
                let ty = if *typed == Typed::Leader { Ty::Leader } else { Ty::Unit };
                (name.clone(), ty)
            })
            .collect();
        if let Some(keys) = keys {
            let what = format!("the situation of modifier list `{}`", w.list.id);
            env.insert("situation".into(), flow.declared(&what, keys, "situation", ""));
        }
        for slip in crate::script::type_checks::in_condition(&flow, &ast, &env) {
            if !slips.iter().any(|(_, at)| *at == slip.1) {
                slips.push(slip);
            }
        }
        for (why, pos) in slips {
            problems.push(at(format!("modifier `{}`: {why}", w.modifier), pos).with_label("here"));
        }
        (Some(ast), problems)
    }

    /// The problems `check` finds in `text` written as the condition of a modifier of the
    /// list `list` (which must exist): what an editor of rule files would show as it is typed.
    pub fn check_condition(&self, list: &str, text: &str) -> Vec<Problem> {
        let Some(list) = self.state.borrow().ruleset.modifiers.get(list).cloned() else {
            return vec![Problem::general("rules::unknown_list", format!("there is no modifier list `{list}`"))];
        };
        let origin = crate::rules::Origin {
            file: crate::rules::source_file("condition", text.to_string()),
            span: (0, text.len()).into(),
        };
        let marker_values = self.marker_values.borrow();
        let written = Written {
            list: &list,
            marker_values: &marker_values,
            modifier: "(checked)",
            what: "condition",
            text,
            origin: &origin,
        };
        self.condition(&condition_scope(), &self.known_functions(&BTreeSet::new()), &written).1
    }

    /// Dice written as a literal in `roll("...")` must read under the ruleset's conventions,
    /// and a comparison in them that the dice cannot change (`6d6>=4`) is worth a warning.
    pub(super) fn check_dice(&self, file: &SourceFile, call: &Call) -> Option<Problem> {
        if call.name != "roll" {
            return None;
        }
        let (text, at) = call.first_text.as_ref()?;
        let st = self.state.borrow();
        let span = span_at(file, *at);
        match crate::dice::parse_with(text, &st.ruleset.dice, &crate::dice::DiceLimits::default()) {
            Err(err) => {
                // A literal written as it reads (no escapes): the mistake is pointed at inside it.
                let written = file.inner().get(span.offset()..span.offset() + span.len()).unwrap_or_default();
                let problem = if written.len() == text.len() + 2 {
                    Problem::within(file, "script::dice", (span.offset() + 1, text.len()).into(), &err)
                } else {
                    Problem::error("script::dice", err.to_string(), file, span).with_label("these dice")
                };
                Some(problem.with_message(format!("`{text}` is not dice grognard can roll: {err}")))
            }
            Ok(expr) => expr.certainty_note().map(|note| {
                Problem::error("script::certain_roll", note, file, span)
                    .with_label("the dice cannot change this")
                    .warning()
            }),
        }
    }

    /// A table, modifier list, option or interpretation named by a literal in a
    /// call such as `lookup("musketry", ...)` must exist in the ruleset.
    pub(super) fn check_name(&self, file: &SourceFile, call: &Call) -> Option<Problem> {
        let (name, at) = call.first_text.as_ref()?;
        let st = self.state.borrow();
        let rs = &st.ruleset;
        let (kind, known): (&str, Vec<&str>) = match call.name.as_str() {
            "lookup" | "table_result" | "results_of" => ("table", rs.tables.keys().map(String::as_str).collect()),
            "modifiers" => ("modifier list", rs.modifiers.keys().map(String::as_str).collect()),
            "option" => ("option", rs.options.keys().map(String::as_str).collect()),
            "constant" => ("constant", rs.constants.keys().map(String::as_str).collect()),
            "interpretation" => ("interpretation", rs.interpretations.keys().map(String::as_str).collect()),
            _ => return None,
        };
        if known.contains(&name.as_str()) {
            return None;
        }
        let hint = crate::rules::did_you_mean(name, known.iter().copied());
        Some(
            Problem::error(
                "script::unknown_name",
                format!("ruleset `{}` has no {kind} `{name}`{hint}", rs.id),
                file,
                span_at(file, *at),
            )
            .with_label(format!("no such {kind}")),
        )
    }

    /// Every function a script may call: registered, built into Rhai, or defined by the ruleset.
    pub(super) fn known_functions(&self, script_fns: &BTreeSet<String>) -> BTreeSet<String> {
        let mut known: BTreeSet<String> = self
            .engine
            .gen_fn_signatures(true)
            .iter()
            .filter_map(|sig| sig.split('(').next())
            .map(|name| name.trim_start_matches("fn ").trim().to_string())
            .collect();
        // Keywords Rhai parses as calls.
        for keyword in
            ["Fn", "call", "curry", "type_of", "print", "debug", "is_def_var", "is_def_fn", "is_shared", "this"]
        {
            known.insert(keyword.to_string());
        }
        known.extend(script_fns.iter().cloned());
        for refused in sandbox::REFUSED_FUNCTIONS {
            known.remove(*refused);
        }
        known
    }
}

/// What following values through every function found for one procedure file.
pub(super) struct FlowOfFile<'a> {
    /// The units and leaders each function's variables hold, by function name and arity.
    pub(super) typed: &'a std::collections::BTreeMap<(String, usize), std::collections::BTreeMap<String, Typed>>,
    /// The slips `type_checks` found in the file's functions.
    pub(super) slips: Vec<crate::script::type_checks::Slip>,
}

/// A condition as a modifier list holds it, for its problems to point into.
pub(super) struct Written<'a> {
    pub(super) list: &'a crate::rules::ModifierList,
    pub(super) marker_values: &'a crate::script::marker_values::MarkerValues,
    pub(super) modifier: &'a str,
    pub(super) what: &'a str,
    pub(super) text: &'a str,
    pub(super) origin: &'a crate::rules::Origin,
}

/// Where in its YAML file a position inside a condition (or `per:`) falls. One
/// written on one line as a plain scalar maps exactly; otherwise (quoted with
/// escapes, folded over lines) the whole expression is underlined.
fn expression_span(origin: &crate::rules::Origin, text: &str, position: rhai::Position) -> miette::SourceSpan {
    let span = origin.span;
    let in_file = origin.file.inner().get(span.offset()..).unwrap_or("");
    if position.is_none() || text.contains('\n') || !in_file.starts_with(text) {
        return span;
    }
    let offset = crate::script::error::offset_of(text, position);
    (span.offset() + offset, crate::script::error::token_len(&text[offset..])).into()
}

/// The names a condition reads, as variables: the optimizer would fold a constant `()` into it.
pub(super) fn condition_scope() -> Scope<'static> {
    let mut scope = Scope::new();
    for name in CONDITION_NAMES {
        scope.push_dynamic(name, Dynamic::UNIT);
    }
    scope
}
