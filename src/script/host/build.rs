//! Building a host: the engine, the procedures compiled (and folded for the switches as they
//! stand) and the modifier conditions compiled, with every problem found on the way.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

use rhai::{AST, Dynamic, Engine, EvalAltResult, OptimizationLevel, Scope};

use super::Host;
use super::check::{FlowOfFile, Written, condition_scope};
use crate::rules::{Problem, Ruleset, SourceFile};
use crate::script::base_calls;
use crate::script::bindings;
use crate::script::compiled::Compiled;
use crate::script::condition::Condition;
use crate::script::error::parse_problem;
use crate::script::sandbox::{self, Limits};
use crate::script::state::{CompiledList, Shared, State};
use crate::script::trace::Step;
use crate::script::type_checks;
use crate::script::type_flow::{self, Ty};
use crate::script::words::Typed;

/// The host, or every problem when any is an error (warnings alone do not stop it).
fn without_errors((host, problems): (Host, Vec<Problem>)) -> Result<Host, Vec<Problem>> {
    if problems.iter().any(Problem::is_error) { Err(problems) } else { Ok(host) }
}

impl Host {
    /// Compiles the ruleset's procedures and conditions; every compile error
    /// is returned as a problem pointing into its file.
    pub fn new(ruleset: Ruleset) -> Result<Host, Vec<Problem>> {
        without_errors(Host::build_with(ruleset, Limits::default(), !Host::interpreting(), false))
    }

    /// Builds a host and lists every problem found on the way (errors and warnings).
    /// `GROGNARD_INTERPRET=1` leaves every procedure to Rhai (see `script::compiled`): to
    /// tell whether the compiled form of a procedure is at fault when a result looks wrong.
    /// Only `check` asks for this: it adds the warnings of what nothing reads (`script::unread`),
    /// which change nothing a run does.
    pub fn build(ruleset: Ruleset, limits: Limits) -> (Host, Vec<Problem>) {
        Host::build_with(ruleset, limits, !Host::interpreting(), true)
    }

    /// Whether `GROGNARD_INTERPRET=1` asks for everything to be run plainly, by Rhai: no
    /// procedure compiled, and in a study no setup run once and no call kept by its dice (see
    /// `setup` and `script::dice_paths`).
    pub fn interpreting() -> bool {
        std::env::var_os("GROGNARD_INTERPRET").is_some_and(|v| !v.is_empty() && v != "0")
    }

    /// A host whose commands run under `limits` (`odds` walks under the walk limits).
    pub fn with_limits(ruleset: Ruleset, limits: Limits) -> Result<Host, Vec<Problem>> {
        without_errors(Host::build_with(ruleset, limits, !Host::interpreting(), false))
    }

    /// A host built as `build` builds it, with every procedure left to Rhai (`interpret`) or not,
    /// whatever `GROGNARD_INTERPRET` says: to run the same scripts down every path.
    pub fn built_as(ruleset: Ruleset, limits: Limits, interpret: bool) -> Result<Host, Vec<Problem>> {
        without_errors(Host::build_with(ruleset, limits, !interpret, false))
    }

    /// A host whose procedures Rhai runs whole, none compiled: to hold the compiled ones to it.
    pub fn interpreted(ruleset: Ruleset) -> Result<Host, Vec<Problem>> {
        without_errors(Host::build_with(ruleset, Limits::default(), false, false))
    }

    fn build_with(ruleset: Ruleset, limits: Limits, compile: bool, checking: bool) -> (Host, Vec<Problem>) {
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
            resolutions: RefCell::default(),
            kept_calls: RefCell::default(),
            walk_dice: Rc::new(RefCell::new(crate::dice::Enumerator::new(0))),
        };
        let mut problems = Vec::new();
        host.compile_procedures(&mut problems, checking);
        host.compile_conditions(&mut problems);
        if compile && problems.iter().all(|p| !p.is_error()) {
            let procedures = host.procedures.borrow().clone();
            let (native, rest) = Compiled::new(&mut host.engine, &procedures, &host.state);
            *host.procedures.borrow_mut() = rest;
            host.native = Some(native);
        }
        (host, problems)
    }

    fn compile_procedures(&mut self, problems: &mut Vec<Problem>, checking: bool) {
        let (files, layer_ids): (Vec<(SourceFile, usize)>, Vec<String>) = {
            let st = self.state.borrow();
            let rs = &st.ruleset;
            (
                rs.procedures.iter().map(|p| (p.file.clone(), p.layer)).collect(),
                rs.layers.iter().map(|l| l.id.clone()).collect(),
            )
        };
        // Each file as written, and as compiled: with its `base::` calls renamed (see `base_calls`).
        let mut compiled = Vec::new();
        let mut rewritten = Vec::new();
        // Unoptimized: `fold` optimizes them once the switches are read.
        self.engine.set_optimization_level(OptimizationLevel::None);
        for (file, layer) in files {
            let (text, calls) = base_calls::rewrite(file.inner(), layer);
            match self.engine.compile(&text) {
                Ok(mut ast) => {
                    ast.set_source(file.name());
                    self.sources.insert(file.name().to_string(), file.clone());
                    for function in ast.iter_functions() {
                        self.function_files.insert(function.name.to_string(), file.clone());
                    }
                    rewritten.push((crate::rules::source_file(file.name(), text), ast.clone()));
                    compiled.push((file, ast, layer, calls));
                }
                Err(err) => problems.push(parse_problem(&file, &err)),
            }
        }
        let layer_files: Vec<base_calls::LayerFile> = compiled
            .iter()
            .map(|(file, ast, layer, calls)| base_calls::LayerFile {
                layer: *layer,
                layer_id: layer_ids.get(*layer).map_or("", String::as_str),
                file,
                ast,
                calls,
            })
            .collect();
        let (copies, homes) = base_calls::copies(&layer_files, problems);
        problems.extend(crate::script::overlay_check::problems(&layer_files, &self.state.borrow().ruleset));
        if checking {
            problems.extend(crate::script::unread::problems(&layer_files, &self.state.borrow().ruleset));
        }
        // A `base::` call that reaches nothing is already reported; it is not also unknown.
        let script_fns: BTreeSet<String> = compiled
            .iter()
            .flat_map(|(_, ast, _, _)| ast.iter_functions().map(|f| f.name.to_string()))
            .chain(rewritten_calls(&layer_files))
            .collect();
        drop(layer_files);
        for (name, file) in homes {
            self.function_files.insert(name, file);
        }
        let compiled: Vec<(SourceFile, AST)> = compiled.into_iter().map(|(file, ast, _, _)| (file, ast)).collect();
        let checked =
            crate::script::contracted::put_checks(&self.engine, &self.state.borrow().ruleset, &rewritten, problems);
        let known = self.known_functions(&script_fns);
        let all = compiled.iter().fold(AST::empty(), |all, (_, ast)| all.merge(ast));
        *self.marker_values.borrow_mut() =
            crate::script::marker_values::marker_values(&self.state.borrow().ruleset, &all);
        let marker_values = self.marker_values.borrow().clone();
        // Values followed through every function of every layer, then held to what they are.
        let bodies: Vec<Vec<type_flow::Body>> = compiled.iter().map(|(_, ast)| type_flow::bodies(ast)).collect();
        let state = self.state.clone();
        let st = state.borrow();
        let every: Vec<&type_flow::Body> = bodies.iter().flatten().collect();
        let flow = type_flow::Flow::new(&st.ruleset, &every);
        let written = type_checks::written_keys(&every);
        let typed: BTreeMap<(String, usize), BTreeMap<String, Typed>> =
            every.iter().map(|body| ((body.name.clone(), body.params.len()), typed_names(&flow.env(body)))).collect();
        for ((file, ast), bodies) in compiled.iter().zip(&bodies) {
            let slips = type_checks::in_functions(&flow, bodies, file.inner(), &written);
            let of_file = FlowOfFile { typed: &typed, slips };
            self.check_procedure(file, ast, &known, &marker_values, &of_file, problems);
        }
        drop(st);
        for (_, ast) in checked {
            self.written = self.written.merge(&ast);
        }
        if copies.has_functions() {
            // Merged, the copies' AST (which has no source) would take the procedures' source
            // away, and with it the folder their imports are found from.
            let source = self.written.source().map(str::to_string);
            self.written = self.written.merge(&copies);
            if let Some(source) = source {
                self.written.set_source(source);
            }
        }
        self.engine.set_optimization_level(OptimizationLevel::Simple);
        self.fold();
    }

    /// Optimizes the procedures with each `option("x")`, `interpretation("x")` and
    /// `constant("x")` call read once for the switches as they stand, as a constant: they hold
    /// for every call until switched again (which folds afresh), and the
    /// optimizer then drops the branches of a `switch` on one that cannot run.
    /// A call that fails (an unknown name) is left to fail when it runs. The
    /// folding engine knows no other function, so nothing else is called early.
    pub(super) fn fold(&self) {
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

    /// An engine that knows only `option`, `interpretation` and `constant`, answering for the
    /// switches and constants as they stand.
    fn folder(&self) -> Engine {
        let mut folder = Engine::new_raw();
        let st = self.state.clone();
        folder.register_fn("option", move |name: &str| -> Result<bool, Box<EvalAltResult>> {
            st.borrow().ruleset.option(name).map_err(|e| e.to_string().into())
        });
        let st = self.state.clone();
        folder.register_fn("interpretation", move |name: &str| -> Result<String, Box<EvalAltResult>> {
            st.borrow().ruleset.interpretation(name).map(str::to_string).map_err(|e| e.to_string().into())
        });
        let st = self.state.clone();
        folder.register_fn("constant", move |name: &str| {
            crate::script::bindings::rules::constant(&st.borrow().ruleset, name)
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
}

/// The names every `base::` call of the files is compiled under.
fn rewritten_calls<'a>(files: &'a [base_calls::LayerFile]) -> impl Iterator<Item = String> + 'a {
    files.iter().flat_map(|f| f.calls.iter().map(|c| base_calls::mangled(f.layer, &c.name)))
}

/// The variables of a function that hold units and leaders, as `words` reads them.
fn typed_names(env: &type_flow::Env) -> BTreeMap<String, Typed> {
    env.iter()
        .filter_map(|(name, ty)| {
            let typed = match ty {
                Ty::Unit => Typed::Unit,
                Ty::Leader => Typed::Leader,
                Ty::List(item) if **item == Ty::Unit => Typed::Units,
                Ty::List(item) if **item == Ty::Leader => Typed::Leaders,
                _ => return None,
            };
            Some((name.clone(), typed))
        })
        .collect()
}
