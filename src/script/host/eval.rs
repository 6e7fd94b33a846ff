//! Evaluation: code compiled against the procedures, run as one metered command, and a
//! runtime error located in the procedure file (or expression) where it happened.

use rhai::{AST, Dynamic, EvalAltResult, Scope};

use super::{Evaluation, Host};
use crate::rules::Problem;
use crate::script::bindings::contract::ContractBreach;
use crate::script::budget::Stop;
use crate::script::error::{ScriptError, expression_source, message_of, parse_problem, span_at};
use crate::script::sandbox::Limits;
use crate::script::trace::Trace;

/// The words of a broken contract, when `err` is one (see `bindings::contract`).
fn contract_breach(err: &EvalAltResult) -> Option<String> {
    match err {
        EvalAltResult::ErrorRuntime(value, _) => value.read_lock::<ContractBreach>().map(|b| b.0.clone()),
        _ => None,
    }
}

impl Host {
    /// Compiles a user's expression or statements against `scope`.
    pub fn compile(&self, scope: &Scope, code: &str) -> Result<AST, ScriptError> {
        Ok(self.with_procedures(&self.compile_alone(scope, code)?))
    }

    /// Whether `code` is one call (`fire(a, b, #{})`, `melee(a, b, #{}).result`): what a
    /// resolution typed at the table is, and what `:odds why` can weigh afterwards.
    pub fn is_call(&self, scope: &Scope, code: &str) -> bool {
        fn called(expr: &crate::script::syntax::Expr) -> bool {
            match expr {
                crate::script::syntax::Expr::FnCall(..) => true,
                crate::script::syntax::Expr::Dot(x, ..) | crate::script::syntax::Expr::Index(x, ..) => called(&x.lhs),
                _ => false,
            }
        }
        let Ok(ast) = self.engine.compile_expression_with_scope(scope, code) else { return false };
        match ast.statements() {
            [crate::script::syntax::Stmt::Expr(expr)] => called(expr),
            [crate::script::syntax::Stmt::FnCall(..)] => true,
            _ => false,
        }
    }

    /// The shape of `code` when it is one call (`melee(a, b, #{cover: "hedge"})`, one whose
    /// value is read, `fire(a, b, #{}).result`, or kept, `let r = melee(..);`): the
    /// procedure's name and each argument, a variable by its name, a map written out by its
    /// keys and where it stands in `code` (the byte offsets of its `#{` and its `}`), anything
    /// else as other. None when `code` is not one plain call.
    pub fn call_shape(&self, scope: &Scope, code: &str) -> Option<CallShape> {
        // As statements: a line may end with `;` or keep the value (`let r = melee(..)`).
        let ast = self.engine.compile_with_scope(scope, code).ok()?;
        // The call itself, or the call a field or index of whose value is read (`fire(..).result`).
        fn call_of(expr: &crate::script::syntax::Expr) -> Option<&crate::script::syntax::FnCallExpr> {
            match expr {
                crate::script::syntax::Expr::FnCall(call, _) => Some(call),
                crate::script::syntax::Expr::Dot(x, ..) | crate::script::syntax::Expr::Index(x, ..) => call_of(&x.lhs),
                _ => None,
            }
        }
        let call = match ast.statements() {
            [crate::script::syntax::Stmt::FnCall(call, _)] => call,
            [crate::script::syntax::Stmt::Expr(expr)] => call_of(expr)?,
            [crate::script::syntax::Stmt::Var(x, ..)] => call_of(&x.1)?,
            _ => return None,
        };
        let args = call
            .args
            .iter()
            .map(|arg| match arg {
                crate::script::syntax::Expr::Variable(x, ..) => Argument::Variable(x.1.to_string()),
                crate::script::syntax::Expr::Map(x, pos) => {
                    written_map(code, *pos, x.0.iter().map(|(k, _)| k.name.to_string()).collect())
                }
                crate::script::syntax::Expr::DynamicConstant(value, pos) => match value.read_lock::<rhai::Map>() {
                    Some(map) => written_map(code, *pos, map.keys().map(|k| k.to_string()).collect()),
                    None => Argument::Other,
                },
                _ => Argument::Other,
            })
            .collect();
        Some(CallShape { name: call.name.to_string(), args })
    }

    /// `code` with the procedures it may call. Code that defines no function of its own
    /// shares the procedures' functions rather than copying them (a merge copies every
    /// function's entry: a tenth of one fire's exact odds).
    pub(super) fn with_procedures(&self, code: &AST) -> AST {
        let procedures = self.procedures.borrow();
        if code.has_functions() || code.resolver().is_some() || procedures.resolver().is_some() {
            return procedures.merge(code);
        }
        let mut joined = AST::new(code.statements().iter().cloned(), procedures.shared_lib().clone());
        if let Some(source) = code.source() {
            joined.set_source(source);
        }
        joined
    }

    /// `code` compiled without the functions it may call.
    pub(super) fn compile_alone(&self, scope: &Scope, code: &str) -> Result<AST, ScriptError> {
        self.engine
            .compile_with_scope(scope, code)
            .map_err(|err| parse_problem(&expression_source(&self.code_name.borrow(), code), &err).into())
    }

    pub(super) fn begin(&self, limits: Limits) {
        self.meter.begin(limits.max_operations, limits.time_limit, limits.max_memory);
    }

    /// Evaluates `code` (one expression or several statements) in `scope`,
    /// which keeps the variables it defines; returns the value and its trace.
    pub fn eval(&self, scope: &mut Scope, code: &str) -> Result<Evaluation, ScriptError> {
        let ast = self.compile(scope, code)?;
        self.run(scope, &ast, code)
    }

    /// Runs compiled code as one command, under `limits`; the trace starts afresh.
    pub fn run(&self, scope: &mut Scope, ast: &AST, code: &str) -> Result<Evaluation, ScriptError> {
        self.begin(self.limits.get());
        self.run_metered(scope, ast, code)
    }

    /// Runs compiled code as part of the command begun last; the trace starts afresh.
    pub(super) fn run_metered(&self, scope: &mut Scope, ast: &AST, code: &str) -> Result<Evaluation, ScriptError> {
        {
            let mut st = self.state.borrow_mut();
            st.trace = Trace::default();
            if let Some(progress) = st.progress.as_mut() {
                progress.shown = 0;
            }
            // What a run counts is its own (a study sums it after each trial); the lists keep
            // their room for the next.
            let observations = st.observations_mut();
            observations.tallies.clear();
            observations.records.clear();
            st.dice_error = None;
            st.scenario_problems = None;
            st.trial += 1;
        }
        // Borrowed while it runs: a run inside this one looks its calls up afresh.
        let result = match self.resolutions.try_borrow_mut().as_deref_mut() {
            Ok(Some(kept)) => kept.eval(&self.engine, scope, ast),
            _ => self.engine.eval_ast_with_scope::<Dynamic>(scope, ast),
        };
        let mut st = self.state.borrow_mut();
        let trace = std::mem::take(&mut st.trace);
        match result {
            Ok(value) => Ok(Evaluation { value, trace }),
            Err(err) => {
                *self.failed_trace.borrow_mut() = Some(trace);
                Err(match (st.dice_error.take(), st.scenario_problems.take()) {
                    (Some(dice), _) => ScriptError::Dice(dice),
                    (None, Some(problems)) => ScriptError::Rules(problems),
                    (None, None) => self.locate(&err, code),
                })
            }
        }
    }

    /// A runtime error, pointing into the procedure file (or expression) where it happened.
    pub(super) fn locate(&self, err: &EvalAltResult, code: &str) -> ScriptError {
        // Follow calls down to the innermost error, remembering the chain.
        let mut chain = Vec::new();
        let mut call_sites = Vec::new();
        let mut inner = err;
        let mut source = String::new();
        while let EvalAltResult::ErrorInFunctionCall(name, src, next, at) = inner {
            chain.push(name.clone());
            call_sites.push(*at);
            source = src.clone();
            inner = next;
        }
        let file_of = |function: Option<&String>| {
            function
                .and_then(|name| self.function_files.get(name))
                .or_else(|| function.is_some().then(|| self.sources.get(&source)).flatten())
                .cloned()
                .unwrap_or_else(|| expression_source(&self.code_name.borrow(), code))
        };
        // A broken contract is the caller's mistake: point at the call it checks, in the
        // caller's code (the check itself runs first thing inside the procedure).
        if let Some(breach) = contract_breach(inner)
            && let Some(&at) = call_sites.last()
            && !at.is_none()
        {
            let caller = file_of(chain.len().checked_sub(2).and_then(|i| chain.get(i)));
            let mut problem =
                Problem::error("script::contract", breach, &caller, span_at(&caller, at)).with_label("called here");
            // (The state is borrowed while a run's error is located: only the chain is read.)
            if let Some(name) = chain.last() {
                problem = problem.with_help(format!("`show {name}` lists what {name}() takes"));
            }
            return problem.into();
        }
        let file = file_of(chain.last());
        let (code_name, message, help) = match (self.meter.stopped(), inner) {
            // However a binding passed the error on, a stopped command says why it stopped.
            (Some(stop), _) => {
                let code = if stop == Stop::Interrupted { "script::interrupted" } else { "script::limit" };
                (code, stop.message(), stop.help())
            }
            (None, EvalAltResult::ErrorStackOverflow(_)) => (
                "script::limit",
                format!("calls nested more than {} deep", self.limits.get().max_call_levels),
                Some("a rule calls itself without end? every script is stopped past this limit".to_string()),
            ),
            (None, EvalAltResult::ErrorDataTooLarge(..) | EvalAltResult::ErrorTooManyModules(_)) => {
                ("script::limit", message_of(inner), Some("scripts run in a sandbox with limits on sizes".to_string()))
            }
            _ => ("script::runtime", message_of(inner), None),
        };
        let position = inner.position();
        let mut problem = if position.is_none() {
            Problem::general(code_name, message)
        } else {
            Problem::error(code_name, message, &file, span_at(&file, position)).with_label("here")
        };
        let mut help_text = help.unwrap_or_default();
        if !chain.is_empty() {
            // Innermost first: the function that failed, then who called it.
            let calls = chain
                .iter()
                .rev()
                .map(|c| format!("{}()", crate::script::base_calls::written_name(c)))
                .collect::<Vec<_>>()
                .join(" called from ");
            if !help_text.is_empty() {
                help_text.push_str("; ");
            }
            help_text.push_str(&format!("in {calls}"));
        }
        if !help_text.is_empty() {
            problem = problem.with_help(help_text);
        }
        problem.into()
    }
}

/// A plain call as written (see `Host::call_shape`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallShape {
    pub name: String,
    pub args: Vec<Argument>,
}

/// One argument of a plain call as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Argument {
    /// A variable, by its name.
    Variable(String),
    /// A map written out: its keys, and the byte offsets in the code of its `#{` and its `}`.
    Map {
        keys: Vec<String>,
        open: usize,
        close: usize,
    },
    Other,
}

/// A map written out at `pos` of `code`, with `keys`: where its `#{` and its `}` stand, or
/// other when the text there is not a map written out.
fn written_map(code: &str, pos: rhai::Position, keys: Vec<String>) -> Argument {
    let (Some(line), Some(column)) = (pos.line(), pos.position()) else { return Argument::Other };
    // The byte offset of the line and column Rhai counts from 1, in characters.
    let line_start: usize = code.split_inclusive('\n').take(line - 1).map(str::len).sum();
    let Some(open) = code[line_start..].char_indices().nth(column - 1).map(|(i, _)| line_start + i) else {
        return Argument::Other;
    };
    if !code[open..].starts_with("#{") {
        return Argument::Other;
    }
    // The `}` that closes it, outside strings and nested brackets.
    match crate::script::brackets::closing_bracket(&code[open + 1..]) {
        Some(close) => Argument::Map { keys, open, close: open + 1 + close },
        None => Argument::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_written_out_is_found_to_its_closing_brace_past_strings_and_nesting() {
        let code = "melee(a, b,\n  #{cover: \"}{\", x: [1, #{y: 2}]}).result";
        let shape = written_map(code, rhai::Position::new(2, 3), vec!["cover".into(), "x".into()]);
        let Argument::Map { open, close, .. } = shape else { panic!("{shape:?}") };
        assert_eq!(&code[open..=close], "#{cover: \"}{\", x: [1, #{y: 2}]}");
        // A position that is not at a `#{` is no map written out.
        assert_eq!(written_map(code, rhai::Position::new(1, 1), Vec::new()), Argument::Other);
        // Columns count characters, not bytes.
        let code = "f(\"é\", #{})";
        let Argument::Map { open, close, .. } = written_map(code, rhai::Position::new(1, 8), Vec::new()) else {
            panic!()
        };
        assert_eq!(&code[open..=close], "#{}");
    }
}
