//! `Host`: one Rhai engine with a loaded ruleset: compiles its procedures and conditions once, evaluates, enumerates.

use std::cell::{Cell, Ref, RefCell};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use rhai::{AST, Dynamic, Engine, EvalAltResult, OptimizationLevel, Scope};

use super::bindings;
use super::bindings::contract::ContractBreach;
use super::budget::{Meter, Stop};
use super::compiled::Compiled;
use super::condition::CONDITION_NAMES;
use super::condition::Condition;
use super::error::{ScriptError, expression_source, message_of, parse_problem, span_at};
use super::fields::FieldOdds;
use super::handles::{LeaderRef, UnitRef};
use super::observed::{ExactObservations, ObservedOdds};
use super::outcome::{Outcome, display_order};
use super::procedure_odds::ProcedureOdds;
use super::sandbox::{self, Limits};
use super::state::{CardWalk, CompiledList, DiceMode, Observations, Shared, State};
use super::trace::{Step, Trace};
use crate::dice::{DiceError, Distribution, EnumLimits, Enumerator, RollSource, Seeded};
use crate::rules::{Problem, Ruleset, SourceFile};

/// The result of evaluating an expression: its value and how it came about.
#[derive(Debug, Clone)]
pub struct Evaluation {
    pub value: Dynamic,
    pub trace: Trace,
}

/// Most outcomes `odds` replays face by face before the exact engine works a call out
/// instead, and most dice in one of them.
const SMALL_WALK: u64 = 48;
const SMALL_DEPTH: usize = 2;

/// A Rhai engine bound to one ruleset. Build one per thread.
pub struct Host {
    engine: Engine,
    state: Shared,
    /// Every procedure file, merged in load order, as written.
    written: AST,
    /// The same with each `option("x")` and `interpretation("x")` read for the
    /// switches as they stand (see `fold`): what every evaluation runs.
    procedures: RefCell<AST>,
    /// Procedure files by the source name their ASTs carry, for error reports.
    sources: HashMap<String, SourceFile>,
    /// The file that defines each procedure function (the last layer's, when overridden):
    /// merged ASTs lose track of which file a function came from.
    function_files: HashMap<String, SourceFile>,
    /// The limits of a REPL line, an `eval` or a trial (`limits`), and of a whole `odds` walk (`walk_limits`).
    limits: Cell<Limits>,
    walk_limits: Cell<Limits>,
    /// What the command running now spends (shared with the engine's progress callback and compiled code).
    meter: Rc<Meter>,
    /// What the code given to `eval` or `compile` is called in error reports: "expression", or a script's path.
    code_name: RefCell<String>,
    /// The procedure functions compiled to native steps (none: all are Rhai's; see `script::compiled`).
    native: Option<Compiled>,
    /// Whether `odds` works compiled procedure calls out whole (`script::odds`), or replays every face.
    exact_engine: Cell<bool>,
    /// The code last given to `odds` with no constant in scope, compiled alone: asked again
    /// (`:odds` after a unit changed), it is not compiled again.
    odds_code: RefCell<Option<(String, Rc<AST>)>>,
    /// The arguments of the call in the code last given to `odds`, each as code of its own
    /// (see `called_once`), with that code: asked again, they are not taken apart again.
    odds_arguments: RefCell<Option<CallArguments>>,
    /// The trace of the last run that failed (see `take_failed_trace`).
    failed_trace: RefCell<Option<Trace>>,
    /// The words the rules give each marker, read once from tables and procedures for `check`.
    marker_values: RefCell<super::words::MarkerValues>,
}

/// Some code compiled alone, and the arguments of its call, each as code of its own.
type CallArguments = (Rc<AST>, Rc<[AST]>);

/// The host, or every problem when any is an error (warnings alone do not stop it).
fn without_errors((host, problems): (Host, Vec<Problem>)) -> Result<Host, Vec<Problem>> {
    if problems.iter().any(Problem::is_error) { Err(problems) } else { Ok(host) }
}

impl Host {
    /// Compiles the ruleset's procedures and conditions; every compile error
    /// is returned as a problem pointing into its file.
    pub fn new(ruleset: Ruleset) -> Result<Host, Vec<Problem>> {
        without_errors(Host::build(ruleset, Limits::default()))
    }

    /// The state the bindings share, for tests that look inside.
    #[cfg(test)]
    pub(crate) fn state(&self) -> Ref<'_, State> {
        self.state.borrow()
    }

    /// Builds a host and lists every problem found on the way (errors and warnings).
    /// `GROGNARD_INTERPRET=1` leaves every procedure to Rhai (see `script::compiled`): to
    /// tell whether the compiled form of a procedure is at fault when a result looks wrong.
    pub fn build(ruleset: Ruleset, limits: Limits) -> (Host, Vec<Problem>) {
        let compile = std::env::var_os("GROGNARD_INTERPRET").is_none_or(|v| v.is_empty() || v == "0");
        Host::build_with(ruleset, limits, compile)
    }

    /// A host whose commands run under `limits` (`odds` walks under the walk limits).
    pub fn with_limits(ruleset: Ruleset, limits: Limits) -> Result<Host, Vec<Problem>> {
        without_errors(Host::build(ruleset, limits))
    }

    /// A host built as `build` builds it, with every procedure left to Rhai (`interpret`) or not,
    /// whatever `GROGNARD_INTERPRET` says: to run the same scripts down every path.
    pub fn built_as(ruleset: Ruleset, limits: Limits, interpret: bool) -> Result<Host, Vec<Problem>> {
        without_errors(Host::build_with(ruleset, limits, !interpret))
    }

    /// A host whose procedures Rhai runs whole, none compiled: to hold the compiled ones to it.
    pub fn interpreted(ruleset: Ruleset) -> Result<Host, Vec<Problem>> {
        without_errors(Host::build_with(ruleset, Limits::default(), false))
    }

    fn build_with(ruleset: Ruleset, limits: Limits, compile: bool) -> (Host, Vec<Problem>) {
        sandbox::fix_hashing();
        let roots = ruleset.layers.iter().map(|l| l.folder.clone()).collect();
        let state: Shared = Rc::new(RefCell::new(State::new(ruleset)));
        let mut engine = Engine::new();
        sandbox::apply(&mut engine, &limits, roots);
        let meter = state.borrow().meter.clone();
        let ticking = meter.clone();
        engine.on_progress(move |_| ticking.tick().map(|stop| Dynamic::from(stop.message())));
        // Rhai interns the strings a script builds; keeping that cache cost more
        // than it saved: an interpolated roll label or note took 3 times as long,
        // and scripted melee ran 1.2x faster in `cargo bench` without it.
        engine.set_max_strings_interned(0);
        let st = state.clone();
        engine.on_print(move |text| st.borrow_mut().record(|| Step::Note { text: text.to_string() }));
        let st = state.clone();
        engine.on_debug(move |text, _, _| st.borrow_mut().record(|| Step::Note { text: text.to_string() }));
        bindings::register(&mut engine, &state);

        let mut host = Host {
            engine,
            state,
            written: AST::empty(),
            procedures: RefCell::new(AST::empty()),
            sources: HashMap::new(),
            function_files: HashMap::new(),
            limits: Cell::new(limits),
            walk_limits: Cell::new(Limits { max_call_levels: limits.max_call_levels, ..Limits::for_walk() }),
            exact_engine: Cell::new(true),
            odds_code: RefCell::new(None),
            odds_arguments: RefCell::new(None),
            failed_trace: RefCell::new(None),
            marker_values: RefCell::default(),
            meter,
            code_name: RefCell::new("expression".into()),
            native: None,
        };
        let mut problems = Vec::new();
        host.compile_procedures(&mut problems);
        host.compile_conditions(&mut problems);
        if compile && problems.iter().all(|p| !p.is_error()) {
            let procedures = host.procedures.borrow().clone();
            let (native, rest) = Compiled::new(&mut host.engine, &procedures, &host.state);
            *host.procedures.borrow_mut() = rest;
            host.native = Some(native);
        }
        (host, problems)
    }

    fn compile_procedures(&mut self, problems: &mut Vec<Problem>) {
        let files: Vec<SourceFile> = self.state.borrow().ruleset.procedures.iter().map(|p| p.file.clone()).collect();
        let mut compiled = Vec::new();
        // Unoptimized: `fold` optimizes them once the switches are read.
        self.engine.set_optimization_level(OptimizationLevel::None);
        for file in files {
            match self.engine.compile(file.inner()) {
                Ok(mut ast) => {
                    ast.set_source(file.name());
                    self.sources.insert(file.name().to_string(), file.clone());
                    for function in ast.iter_functions() {
                        self.function_files.insert(function.name.to_string(), file.clone());
                    }
                    compiled.push((file, ast));
                }
                Err(err) => problems.push(parse_problem(&file, &err)),
            }
        }
        let checked = super::contracted::put_checks(&self.engine, &self.state.borrow().ruleset, &compiled, problems);
        let script_fns: BTreeSet<String> =
            compiled.iter().flat_map(|(_, ast)| ast.iter_functions().map(|f| f.name.to_string())).collect();
        let known = self.known_functions(&script_fns);
        let all = compiled.iter().fold(AST::empty(), |all, (_, ast)| all.merge(ast));
        *self.marker_values.borrow_mut() = super::words::marker_values(&self.state.borrow().ruleset, &all);
        let marker_values = self.marker_values.borrow().clone();
        for (file, ast) in &compiled {
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
            problems.extend(super::roll_readings::unread_rolls(file, ast));
            for (why, at) in super::contracted::literal_breaches(ast, &self.state.borrow().ruleset) {
                problems.push(Problem::error("script::contract", why, file, span_at(file, at)).with_label("here"));
            }
            for (why, at) in super::words::misspelt_in_procedures(ast, &self.state.borrow().ruleset, &marker_values) {
                problems.push(Problem::error("script::word", why, file, span_at(file, at)).with_label("here"));
            }
            for (why, at) in super::words::yes_no_rolls_as_numbers(ast, &self.state.borrow().ruleset) {
                problems.push(Problem::error("script::word", why, file, span_at(file, at)).with_label("here"));
            }
            for (why, at) in super::words::unknown_methods(ast, &known) {
                problems.push(
                    Problem::error("script::unknown_function", why, file, span_at(file, at)).with_label("not a method"),
                );
            }
        }
        for (_, ast) in checked {
            self.written = self.written.merge(&ast);
        }
        self.engine.set_optimization_level(OptimizationLevel::Simple);
        self.fold();
    }

    /// Optimizes the procedures with each `option("x")` and `interpretation("x")`
    /// call read once for the switches as they stand, as a constant: they hold
    /// for every call until switched again (which folds afresh), and the
    /// optimizer then drops the branches of a `switch` on one that cannot run.
    /// A call that fails (an unknown name) is left to fail when it runs. The
    /// folding engine knows no other function, so nothing else is called early.
    fn fold(&self) {
        let folder = self.folder();
        let mut folded = folder.optimize_ast(&Scope::new(), self.written.clone(), OptimizationLevel::Full);
        if let Some(source) = self.written.source() {
            folded.set_source(source);
        }
        if let Some(native) = &self.native {
            folded = native.relower(&folded);
        }
        *self.procedures.borrow_mut() = folded;
    }

    /// An engine that knows only `option` and `interpretation`, answering for the switches as they stand.
    fn folder(&self) -> Engine {
        let mut folder = Engine::new_raw();
        let st = self.state.clone();
        folder.register_fn("option", move |name: &str| -> Result<bool, Box<EvalAltResult>> {
            st.borrow().ruleset.option(name).map_err(Into::into)
        });
        let st = self.state.clone();
        folder.register_fn("interpretation", move |name: &str| -> Result<String, Box<EvalAltResult>> {
            st.borrow().ruleset.interpretation(name).map(str::to_string).map_err(Into::into)
        });
        folder
    }

    fn compile_conditions(&mut self, problems: &mut Vec<Problem>) {
        let scope = condition_scope();
        let known = self.known_functions(&BTreeSet::new());
        let scripted: BTreeSet<String> = self.written.iter_functions().map(|f| f.name.to_string()).collect();
        let shadowed = |name: &str| scripted.contains(name);
        let lists: Vec<_> = self.state.borrow().ruleset.modifiers.values().cloned().collect();
        let marker_values = self.marker_values.borrow().clone();
        for list in lists {
            let mut compiled = CompiledList::new(&list);
            for (i, m) in list.modifiers.iter().enumerate() {
                let expressions = [
                    m.when.as_ref().map(|text| ("condition", text, &m.origin, false)),
                    m.per.as_ref().map(|(text, origin)| ("`per:` count", text, origin, true)),
                ];
                for (what, text, origin, per) in expressions.into_iter().flatten() {
                    let written =
                        Written { list: &list, marker_values: &marker_values, modifier: &m.id, what, text, origin };
                    let (ast, found) = self.condition(&scope, &known, &written);
                    problems.extend(found);
                    if let Some(ast) = ast {
                        let slot = if per { &mut compiled.per[i] } else { &mut compiled.when[i] };
                        *slot = Some(Condition::new(ast, &shadowed));
                    }
                }
            }
            self.state.borrow_mut().lists.insert(list.id.clone(), Rc::new(compiled));
        }
    }

    /// A condition (or `per:` count) compiled, with every problem in it: it does not
    /// compile, calls a function that does not exist, or misspells a word.
    fn condition(&self, scope: &Scope, known: &BTreeSet<String>, w: &Written) -> (Option<AST>, Vec<Problem>) {
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
        for (why, pos) in super::words::unknown_methods(&ast, known) {
            problems.push(
                at(format!("the {} of modifier `{}`: {why}", w.what, w.modifier), pos).with_label("not a method"),
            );
        }
        let st = self.state.borrow();
        let keys = super::words::list_situation(&st.ruleset, w.list);
        let names = super::words::condition_names();
        for (why, pos) in super::words::misspelt_with(&ast, &st.ruleset, &names, w.marker_values, keys) {
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
    fn check_dice(&self, file: &SourceFile, call: &Call) -> Option<Problem> {
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
    fn check_name(&self, file: &SourceFile, call: &Call) -> Option<Problem> {
        let (name, at) = call.first_text.as_ref()?;
        let st = self.state.borrow();
        let rs = &st.ruleset;
        let (kind, known): (&str, Vec<&str>) = match call.name.as_str() {
            "lookup" | "table_result" => ("table", rs.tables.keys().map(String::as_str).collect()),
            "modifiers" => ("modifier list", rs.modifiers.keys().map(String::as_str).collect()),
            "option" => ("option", rs.options.keys().map(String::as_str).collect()),
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
    fn known_functions(&self, script_fns: &BTreeSet<String>) -> BTreeSet<String> {
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

    /// Makes units and leaders made under another host known to this one (a
    /// REPL that reloads its rules keeps its units, and their leaders stay attached).
    pub fn adopt(&self, units: impl IntoIterator<Item = UnitRef>, leaders: impl IntoIterator<Item = LeaderRef>) {
        let mut st = self.state.borrow_mut();
        for unit in units {
            st.add_unit(unit);
        }
        for leader in leaders {
            st.add_leader(leader);
        }
    }

    /// Lets scripts read orders of battle from files inside `folder`.
    pub fn allow_scenarios_from(&self, folder: &std::path::Path) {
        self.state.borrow_mut().data_folder = Some(folder.to_path_buf());
    }

    /// Names the code given from now on in error reports (a script's path).
    pub fn name_code(&self, name: &str) {
        *self.code_name.borrow_mut() = name.to_string();
    }

    /// The procedure functions compiled to native steps, by name (the rest Rhai runs).
    pub fn compiled_procedures(&self) -> Vec<String> {
        self.native.as_ref().map(Compiled::names).unwrap_or_default()
    }

    /// The functions the ruleset's procedures define.
    pub fn procedure_names(&self) -> Vec<String> {
        self.written.iter_functions().map(|f| f.name.to_string()).collect()
    }

    /// The ruleset, to read.
    pub fn ruleset(&self) -> Ref<'_, Ruleset> {
        Ref::map(self.state.borrow(), |s| &s.ruleset)
    }

    /// Switches an option on or off, for every evaluation from now on.
    pub fn set_option(&self, name: &str, on: bool) -> Result<(), String> {
        self.state.borrow_mut().ruleset.set_option(name, on)?;
        self.fold();
        Ok(())
    }

    /// Chooses an interpretation, for every evaluation from now on.
    pub fn set_interpretation(&self, name: &str, choice: &str) -> Result<(), String> {
        self.state.borrow_mut().ruleset.set_interpretation(name, choice)?;
        self.fold();
        Ok(())
    }

    /// Whether `odds` works compiled procedure calls out whole, merging equal states (the
    /// default), or replays the code once for every way every die falls (the reference the
    /// engine is tested against).
    pub fn set_exact_engine(&self, on: bool) {
        self.exact_engine.set(on);
    }

    /// Where dice come from from now on.
    pub fn set_dice(&self, source: Box<dyn RollSource>) {
        self.state.borrow_mut().dice = DiceMode::Source(source);
    }

    /// Faces given in advance (`--dice`) that no roll took, as an error.
    pub fn unused_faces(&self) -> Result<(), DiceError> {
        self.state.borrow().dice.unused_faces()
    }

    /// The trace of the last run that failed, up to the failure, taken out: what a player
    /// reads to see which roll or step it stopped at.
    pub fn take_failed_trace(&self) -> Option<Trace> {
        self.failed_trace.borrow_mut().take()
    }

    /// Whether traces are recorded (off for bulk runs).
    pub fn set_tracing(&self, on: bool) {
        self.state.borrow_mut().tracing = on;
    }

    /// What the last runs counted with `tally` and `record`, taken out.
    pub fn take_observations(&self) -> Observations {
        std::mem::take(self.state.borrow_mut().observations_mut())
    }

    /// Units created so far, by id.
    pub fn units(&self) -> Vec<UnitRef> {
        self.state.borrow().units.values().cloned().collect()
    }

    /// Leaders created so far, by id.
    pub fn leaders(&self) -> Vec<LeaderRef> {
        self.state.borrow().leaders.values().cloned().collect()
    }

    /// Compiles a user's expression or statements against `scope`.
    pub fn compile(&self, scope: &Scope, code: &str) -> Result<AST, ScriptError> {
        Ok(self.with_procedures(&self.compile_alone(scope, code)?))
    }

    /// `code` with the procedures it may call. Code that defines no function of its own
    /// shares the procedures' functions rather than copying them (a merge copies every
    /// function's entry: a tenth of one fire's exact odds).
    fn with_procedures(&self, code: &AST) -> AST {
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

    /// `code` compiled alone for `odds`: the code asked last is not compiled again, unless
    /// the scope holds a constant (the optimizer may have folded its value in).
    fn compile_for_odds(&self, scope: &Scope, code: &str) -> Result<Rc<AST>, ScriptError> {
        let constants = scope.iter().any(|(_, constant, _)| constant);
        if !constants
            && let Some((known, ast)) = &*self.odds_code.borrow()
            && known == code
        {
            return Ok(ast.clone());
        }
        let ast = Rc::new(self.compile_alone(scope, code)?);
        if !constants {
            *self.odds_code.borrow_mut() = Some((code.to_string(), ast.clone()));
        }
        Ok(ast)
    }

    /// `code` compiled without the functions it may call.
    fn compile_alone(&self, scope: &Scope, code: &str) -> Result<AST, ScriptError> {
        self.engine
            .compile_with_scope(scope, code)
            .map_err(|err| parse_problem(&expression_source(&self.code_name.borrow(), code), &err).into())
    }

    /// The operations and time one command may spend (a REPL line, an `eval`, a trial of a study).
    pub fn limits(&self) -> Limits {
        self.limits.get()
    }

    /// The operations and time a whole `odds` walk may spend.
    pub fn walk_limits(&self) -> Limits {
        self.walk_limits.get()
    }

    /// Sets what one command may spend from now on (call depths and sizes stay as built).
    pub fn set_limits(&self, max_operations: u64, time_limit: Option<std::time::Duration>) {
        self.limits.set(Limits { max_operations, time_limit, ..self.limits.get() });
    }

    /// Sets what a whole `odds` walk may spend from now on.
    pub fn set_walk_limits(&self, max_operations: u64, time_limit: Option<std::time::Duration>) {
        self.walk_limits.set(Limits { max_operations, time_limit, ..self.walk_limits.get() });
    }

    /// Setting this flag stops the command running now, as soon as its script next counts an
    /// operation: what a Ctrl-C handler sets. It is cleared when the next command begins.
    pub fn interrupt_flag(&self) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
        self.meter.interrupt_flag()
    }

    /// Stops on `flag` instead of a flag of its own (see `interrupt_flag`).
    pub fn set_interrupt_flag(&self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.meter.set_interrupt_flag(flag);
    }

    fn begin(&self, limits: Limits) {
        self.meter.begin(limits.max_operations, limits.time_limit);
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
    fn run_metered(&self, scope: &mut Scope, ast: &AST, code: &str) -> Result<Evaluation, ScriptError> {
        {
            let mut st = self.state.borrow_mut();
            st.trace = Trace::default();
            // What a run counts is its own (a study takes it after each trial).
            *st.observations_mut() = Observations::default();
            st.dice_error = None;
            st.scenario_problems = None;
        }
        let result = self.engine.eval_ast_with_scope::<Dynamic>(scope, ast);
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

    /// The exact distribution of what `code` returns, walking every dice outcome;
    /// falls back to `sample` trials (saying so) when there are more outcomes than `limits` allow.
    /// Units in `scope` are copied for each outcome, so the session's units are left as they were.
    pub fn odds(
        &self,
        scope: &Scope,
        code: &str,
        limits: EnumLimits,
        sample: (u64, u64),
    ) -> Result<ProcedureOdds, ScriptError> {
        self.odds_with_fields(scope, code, limits, sample, &[])
    }

    /// `odds`, with the distribution of each of `fields` of the map `code` returns besides
    /// (`attacker_lost`, or a path `attacker.stands`). A result that is not a map, or a field
    /// that no result has, is an error (naming the nearest field there is).
    pub fn odds_with_fields(
        &self,
        scope: &Scope,
        code: &str,
        limits: EnumLimits,
        sample: (u64, u64),
        fields: &[String],
    ) -> Result<ProcedureOdds, ScriptError> {
        let fields = fields.iter().map(|f| FieldOdds::new(f)).collect::<Result<Vec<_>, _>>()?;
        let alone = self.compile_for_odds(scope, code)?;
        let ast = self.with_procedures(&alone);
        let saved_tracing = std::mem::replace(&mut self.state.borrow_mut().tracing, false);
        let saved = std::mem::replace(&mut self.state.borrow_mut().dice, DiceMode::Walk(Enumerator::new(0)));
        self.state.borrow_mut().units_made = Some(Default::default());
        // The whole walk is one command: its operations are counted across every outcome.
        self.begin(self.walk_limits.get());
        // Cards are drawn by kind first, unless Rhai runs code that could look at a card's name
        // without the walk hearing of it (see `bindings::unseen`).
        let by_kind = !super::bindings::unseen::rhai_may_tell_apart(&ast);
        self.state.borrow_mut().cards = CardWalk { by_kind, ..CardWalk::default() };
        let mut result = self.walk_exactly(scope, &alone, &ast, code, limits, &fields);
        let cards = self.state.borrow().cards;
        if cards.by_kind && cards.unseen && (cards.told_apart || result.is_err()) {
            // A card drawn by kind was told apart from the others of its kind (or the walk
            // failed with one in hand): walked again, card by card, on what the command has left.
            self.state.borrow_mut().cards = CardWalk::default();
            result = self.walk_exactly(scope, &alone, &ast, code, limits, &fields);
        }
        self.state.borrow_mut().cards = CardWalk::default();
        // A walk that cut off half the chance or more says too little: sample instead.
        let half = num_rational::BigRational::new(1.into(), 2.into());
        let result = match result {
            Ok(Some(odds)) if odds.distribution.residual() < half => Ok(odds),
            Ok(walked) => {
                // Said by what stopped the walk, and the flag that goes further.
                let why = match walked.map(|w| (w.cut_by_outcomes, w.cut_off_at)) {
                    Some((None, Some(depth))) => {
                        format!("half the chance or more lies past {depth} dice (--max-depth {})", limits.max_depth)
                    }
                    _ => format!("more than {} dice outcomes (--max-outcomes)", limits.max_outcomes),
                };
                self.sample(scope, &ast, code, sample, &why, &fields)
            }
            Err(err) => Err(err),
        };
        let mut st = self.state.borrow_mut();
        st.dice = saved;
        st.tracing = saved_tracing;
        st.units_made = None;
        st.replayed = None;
        let mut odds = result?;
        for field in &mut odds.fields {
            field.check_found()?;
            field.order = display_order(&st.ruleset, field.distribution.iter().map(|(o, _)| o));
        }
        odds.order = display_order(&st.ruleset, odds.distribution.iter().map(|(o, _)| o));
        Ok(odds)
    }

    /// The exact walk of `code` (the merged `ast`, `alone` its own part): replayed face by face
    /// when small, else worked out by the engine, else (the engine could not) replayed.
    fn walk_exactly(
        &self,
        scope: &Scope,
        alone: &Rc<AST>,
        ast: &AST,
        code: &str,
        limits: EnumLimits,
        fields: &[FieldOdds],
    ) -> Result<Option<ProcedureOdds>, ScriptError> {
        let engine = self.exact_engine.get() && self.native.is_some();
        // A walk of a few outcomes (one fire) costs less replayed face by face than worked
        // out by the engine: tried first, within a small budget, then the engine.
        let small = if engine { self.small_walk(scope, alone, ast, code, fields) } else { None };
        if let Some(small) = small {
            return Ok(Some(small));
        }
        if !engine {
            return self.deepen(scope, ast, code, limits, fields);
        }
        // Fields read more of the call's value than the code does.
        let projection = if fields.is_empty() { super::odds::projection::Projection::of(alone, ast) } else { None };
        self.state.borrow_mut().walk = Some(Rc::new(super::odds::Walk::reading(projection)));
        let result = self.deepen(scope, ast, code, limits, fields);
        self.state.borrow_mut().walk = None;
        match result {
            // The engine could not walk it: every face is replayed instead.
            Err(err) if err.to_string().contains(super::odds::UNSUPPORTED) => {
                self.deepen(scope, ast, code, limits, fields)
            }
            other => other,
        }
    }

    /// The walk replayed face by face when it is whole within `SMALL_WALK` outcomes of
    /// `SMALL_DEPTH` dice; none when it is not (or fails: the engine then walks it, and says
    /// why if it fails too).
    fn small_walk(
        &self,
        scope: &Scope,
        alone: &Rc<AST>,
        ast: &AST,
        code: &str,
        fields: &[FieldOdds],
    ) -> Option<ProcedureOdds> {
        // Two dice at most a run: a loop or a pool goes to the engine at its first run.
        self.state.borrow_mut().dice = DiceMode::Walk(Enumerator::new(SMALL_DEPTH));
        let limits = EnumLimits { max_outcomes: SMALL_WALK, max_depth: SMALL_DEPTH };
        // The try spends a twentieth of the command's operations at most: the rest is the engine's.
        let full = self.meter.cap(self.walk_limits.get().max_operations / 20);
        let before = self.snapshot(scope);
        let small = match fields.is_empty().then(|| self.called_once(scope, alone)).flatten() {
            // `fire(unit(..), unit(..), #{..}).result`: the units made once, the call replayed.
            Some(called) => self.walk_until(scope, &called, code, limits, fields, true),
            None => self.walk_until(scope, ast, code, limits, fields, true),
        };
        // The units the arguments made are gone again, as every run's are.
        self.restore(&before);
        self.meter.restore(full);
        match small {
            Ok(odds) if num_traits::Zero::is_zero(&odds.distribution.residual()) => Some(odds),
            _ => None,
        }
    }

    /// The code `alone` (`name(args).field`, its arguments making nothing but units and
    /// leaders) with its arguments worked out once, merged with the procedures; none for
    /// other code, or arguments that fail (the walk then works them out as written).
    fn called_once(&self, scope: &Scope, alone: &Rc<AST>) -> Option<AST> {
        super::odds::projection::Projection::of(alone, &self.procedures.borrow())?;
        let arguments = self.arguments_of(alone);
        let mut values = Vec::new();
        for argument in arguments.iter() {
            let mut scope = scope.clone();
            values.push(self.engine.eval_ast_with_scope::<Dynamic>(&mut scope, argument).ok()?);
        }
        let called = super::odds::projection::Projection::called_with(alone, values)?;
        Some(self.with_procedures(&called))
    }

    /// The arguments of `alone`'s call, each as code of its own: taken apart once for the
    /// code asked again.
    fn arguments_of(&self, alone: &Rc<AST>) -> Rc<[AST]> {
        if let Some((known, arguments)) = &*self.odds_arguments.borrow()
            && Rc::ptr_eq(known, alone)
        {
            return arguments.clone();
        }
        let arguments: Rc<[AST]> = super::odds::projection::Projection::arguments(alone).into();
        *self.odds_arguments.borrow_mut() = Some((alone.clone(), arguments.clone()));
        arguments
    }

    /// Walks the outcomes cut off at 2 dice, then 4, 6... until nothing is cut
    /// off, the depth limit is reached, or the next walk would pass the outcome
    /// limit; returns the deepest walk that finished (none when even the first
    /// had too many outcomes). A loop such as "fight again on a tie" so ends
    /// with the exact odds of every outcome within the depth, and the rest as residual.
    fn deepen(
        &self,
        scope: &Scope,
        ast: &AST,
        code: &str,
        limits: EnumLimits,
        fields: &[FieldOdds],
    ) -> Result<Option<ProcedureOdds>, ScriptError> {
        let mut best: Option<ProcedureOdds> = None;
        let mut depth = limits.max_depth.min(2);
        loop {
            self.state.borrow_mut().dice = DiceMode::Walk(Enumerator::new(depth));
            let attempt = EnumLimits { max_depth: depth, ..limits };
            let previous_runs = best.as_ref().map(|b| b.runs);
            match self.walk_until(scope, ast, code, attempt, fields, false) {
                Ok(mut odds) => {
                    let complete = num_traits::Zero::is_zero(&odds.distribution.residual());
                    if !complete {
                        odds.cut_off_at = Some(depth);
                    }
                    let runs = odds.runs;
                    best = Some(odds);
                    if complete || depth >= limits.max_depth {
                        return Ok(best);
                    }
                    // Each deeper walk costs about as many times more as the last one did.
                    if let Some(previous) = previous_runs {
                        let growth = runs as f64 / previous.max(1) as f64;
                        if runs as f64 * growth > limits.max_outcomes as f64 {
                            return Ok(best.map(|b| ProcedureOdds { cut_by_outcomes: Some(limits.max_outcomes), ..b }));
                        }
                    }
                    depth = (depth + 2).min(limits.max_depth);
                }
                // The deeper walk would pass the outcome limit: the one before is kept, cut by it.
                Err(ScriptError::Dice(DiceError::TooManyOutcomes { .. })) => {
                    return Ok(best.map(|b| ProcedureOdds { cut_by_outcomes: Some(limits.max_outcomes), ..b }));
                }
                Err(err) => return Err(err),
            }
        }
    }

    /// One walk of every dice outcome within `limits`, giving up at the first run cut off
    /// when `whole_or_nothing`. Each run's result adds its chance to the distribution, and to
    /// that of each of `fields`; what it tallied and recorded is added with the same chance.
    fn walk_until(
        &self,
        scope: &Scope,
        ast: &AST,
        code: &str,
        limits: EnumLimits,
        fields: &[FieldOdds],
        whole_or_nothing: bool,
    ) -> Result<ProcedureOdds, ScriptError> {
        // Its runs replay the same calls after the same faces: their answers are kept, for
        // this walk alone (`odds_with_fields` drops them when the command ends).
        self.state.borrow_mut().replayed = Some(Default::default());
        let snapshot = self.snapshot(scope);
        let mut dist = Distribution::new();
        let mut fields = fields.to_vec();
        let mut observed = ExactObservations::default();
        let mut runs = 0u64;
        loop {
            {
                let mut st = self.state.borrow_mut();
                if let DiceMode::Walk(walk) = &mut st.dice {
                    walk.begin_run();
                }
                if let Some(replayed) = &mut st.replayed {
                    replayed.begin_run();
                }
            }
            let mut run_scope = scope.clone();
            let result = self.run_metered(&mut run_scope, ast, code);
            self.restore(&snapshot);
            let end = match &mut self.state.borrow_mut().dice {
                DiceMode::Walk(walk) => walk.end_run()?,
                DiceMode::Source(_) => unreachable!("the walk owns the dice while enumerating"),
            };
            let (num, den) = (&end.weight_num, &end.weight_den);
            match (end.cut_off, result) {
                (true, _) if whole_or_nothing => return Err(DiceError::CutOff { depth: limits.max_depth }.into()),
                (true, _) => {
                    dist.add_residual_fraction(num, den);
                    for field in &mut fields {
                        field.add_residual(num, den);
                    }
                }
                (false, Ok(eval)) => {
                    if super::bindings::unseen::holds_unseen(&eval.value) {
                        // The name of a card drawn by kind is part of the result: told apart.
                        self.state.borrow_mut().cards.told_apart = true;
                    }
                    dist.add_fraction(Outcome::of(&eval.value), num, den);
                    for field in &mut fields {
                        field.add(&eval.value, num, den)?;
                    }
                    // What the run counted, whether Rhai's code or a compiled call's outcome (the
                    // engine installs the observations of the world it chose) counted it.
                    observed.add_run(&self.state.borrow().observations, num, den);
                }
                (false, Err(err)) => return Err(err),
            }
            runs += 1;
            let more = match &mut self.state.borrow_mut().dice {
                DiceMode::Walk(walk) => walk.advance(),
                DiceMode::Source(_) => false,
            };
            if !more {
                return Ok(ProcedureOdds {
                    distribution: dist,
                    exact: true,
                    runs,
                    sampled: None,
                    cut_off_at: None,
                    cut_by_outcomes: None,
                    order: Vec::new(),
                    fields,
                    observed: ObservedOdds::Exact(observed),
                });
            }
            if runs >= limits.max_outcomes {
                return Err(DiceError::TooManyOutcomes { limit: limits.max_outcomes }.into());
            }
        }
    }

    fn sample(
        &self,
        scope: &Scope,
        ast: &AST,
        code: &str,
        (trials, seed): (u64, u64),
        why: &str,
        fields: &[FieldOdds],
    ) -> Result<ProcedureOdds, ScriptError> {
        let snapshot = self.snapshot(scope);
        let trials = trials.max(1);
        let mut counts = std::collections::BTreeMap::new();
        let mut fields = fields.to_vec();
        let mut observed = Vec::new();
        let (one, all) = (num_bigint::BigUint::from(1u32), num_bigint::BigUint::from(trials));
        for trial in 0..trials {
            self.state.borrow_mut().dice = DiceMode::Source(Box::new(Seeded::for_trial(seed, trial)));
            let mut run_scope = scope.clone();
            let eval = self.run_metered(&mut run_scope, ast, code);
            self.restore(&snapshot);
            let eval = eval?;
            *counts.entry(Outcome::of(&eval.value)).or_insert_with(num_bigint::BigUint::default) += 1u32;
            for field in &mut fields {
                field.add(&eval.value, &one, &all)?;
            }
            // A trial that counted nothing is kept as a number only (a sample may be long).
            let counted = std::mem::take(self.state.borrow_mut().observations_mut());
            if counted != Observations::default() {
                observed.push(counted);
            }
        }
        let note = format!("{why}: sampled {trials} trials with seed {seed} instead");
        Ok(ProcedureOdds {
            distribution: Distribution::from_counts(counts, trials.into()),
            exact: false,
            runs: trials,
            sampled: Some(note),
            cut_off_at: None,
            cut_by_outcomes: None,
            order: Vec::new(),
            fields,
            observed: ObservedOdds::Sampled { trials, observed },
        })
    }

    /// A runtime error, pointing into the procedure file (or expression) where it happened.
    fn locate(&self, err: &EvalAltResult, code: &str) -> ScriptError {
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
            let calls = chain.iter().map(|c| format!("{c}()")).collect::<Vec<_>>().join(" called from ");
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

/// A condition as a modifier list holds it, for its problems to point into.
struct Written<'a> {
    list: &'a crate::rules::ModifierList,
    marker_values: &'a super::words::MarkerValues,
    modifier: &'a str,
    what: &'a str,
    text: &'a str,
    origin: &'a crate::rules::Origin,
}

/// The names a condition reads, as variables: the optimizer would fold a constant `()` into it.
fn condition_scope() -> Scope<'static> {
    let mut scope = Scope::new();
    for name in CONDITION_NAMES {
        scope.push_dynamic(name, Dynamic::UNIT);
    }
    scope
}

/// The words of a broken contract, when `err` is one (see `bindings::contract`).
fn contract_breach(err: &EvalAltResult) -> Option<String> {
    match err {
        EvalAltResult::ErrorRuntime(value, _) => value.read_lock::<ContractBreach>().map(|b| b.0.clone()),
        _ => None,
    }
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
    let offset = super::error::offset_of(text, position);
    (span.offset() + offset, super::error::token_len(&text[offset..])).into()
}

/// Every unit and leader a run may change, as they were: the scope's (in
/// arrays and maps too) and the session's, and which units and leaders the
/// session knew. Restoring puts each handle's unit back in place, so handles
/// shared between variables stay shared. (Boxed: a table of whole units is a large
/// allocation, which costs glibc a consolidation at every snapshot.)
struct Snapshot {
    units: Vec<(UnitRef, Box<crate::unit::Unit>)>,
    leaders: Vec<(LeaderRef, Box<crate::unit::Leader>)>,
    unit_registry: std::collections::BTreeMap<String, UnitRef>,
    leader_registry: std::collections::BTreeMap<String, LeaderRef>,
}

impl Host {
    fn snapshot(&self, scope: &Scope) -> Snapshot {
        let st = self.state.borrow();
        let mut snapshot = Snapshot {
            units: Vec::new(),
            leaders: Vec::new(),
            unit_registry: st.units.clone(),
            leader_registry: st.leaders.clone(),
        };
        for unit in st.units.values() {
            snapshot.units.push((unit.clone(), Box::new(unit.0.borrow().clone())));
        }
        for leader in st.leaders.values() {
            snapshot.leaders.push((leader.clone(), Box::new(leader.0.borrow().clone())));
        }
        for (_, _, value) in scope.iter() {
            collect(&value, &mut snapshot);
        }
        snapshot
    }

    fn restore(&self, snapshot: &Snapshot) {
        // A unit the run left as it was is not copied again (most runs change one or none).
        for (handle, unit) in &snapshot.units {
            if *handle.0.borrow() != **unit {
                handle.edit().clone_from(&**unit);
            }
        }
        for (handle, leader) in &snapshot.leaders {
            if *handle.0.borrow() != **leader {
                handle.edit().clone_from(&**leader);
            }
        }
        let mut st = self.state.borrow_mut();
        st.units = snapshot.unit_registry.clone();
        crate::script::handles::edited();
        st.leaders = snapshot.leader_registry.clone();
    }
}

fn collect(value: &Dynamic, snapshot: &mut Snapshot) {
    if let Some(unit) = value.clone().try_cast::<UnitRef>() {
        let saved = Box::new(unit.0.borrow().clone());
        snapshot.units.push((unit, saved));
    } else if let Some(leader) = value.clone().try_cast::<LeaderRef>() {
        let saved = Box::new(leader.0.borrow().clone());
        snapshot.leaders.push((leader, saved));
    } else if value.is_array() {
        for item in value.clone().cast::<rhai::Array>() {
            collect(&item, snapshot);
        }
    } else if value.is_map() {
        for (_, item) in value.clone().cast::<rhai::Map>() {
            collect(&item, snapshot);
        }
    }
}

/// A plain function call found in an AST (no operators, no namespaces).
struct Call {
    name: String,
    position: rhai::Position,
    /// The first argument, when it is a string written in the script.
    first_text: Option<(String, rhai::Position)>,
}

fn calls(ast: &AST) -> Vec<Call> {
    let mut found = Vec::new();
    ast.walk(&mut |path: &[rhai::ASTNode]| {
        let found_call = match path.last() {
            Some(rhai::ASTNode::Expr(rhai::Expr::FnCall(call, position))) => Some((call, position)),
            // A call standing alone as a statement is a statement node.
            Some(rhai::ASTNode::Stmt(rhai::Stmt::FnCall(call, position))) => Some((call, position)),
            _ => None,
        };
        if let Some((call, position)) = found_call {
            let plain = call.namespace.is_empty() && call.op_token.is_none();
            let is_name = call.name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_');
            if plain && is_name {
                let first_text = match call.args.first() {
                    Some(rhai::Expr::StringConstant(text, at)) => Some((text.to_string(), *at)),
                    _ => None,
                };
                found.push(Call { name: call.name.to_string(), position: *position, first_text });
            }
        }
        true
    });
    found
}
