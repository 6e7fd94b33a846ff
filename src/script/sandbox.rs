//! The sandbox: limits on what a rule or script may do, and imports confined to the ruleset's folders.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rhai::module_resolvers::ModuleResolver;
use rhai::{Dynamic, Engine, EvalAltResult, Module, Position, Scope, Shared};

use crate::rules::files::Confined;

/// The seed Rhai hashes with. Unset, Rhai draws one afresh in each process,
/// and the names it gives closures (`Fn(anon$...)`) differ from run to run.
const HASHING_SEED: [u64; 4] = [0x6772_6f67, 0x6e61_7264, 0x6e61_706f, 0x6c65_6f6e];

/// Fixes the seed Rhai hashes with, so that the same seed gives the same output. Every
/// engine must be made after this: Rhai files functions under hashes made with it.
pub fn fix_hashing() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Set already (by whoever embeds grognard): that seed is as fixed as ours.
        let _ = rhai::config::hashing::set_hashing_seed(Some(HASHING_SEED));
    });
}

/// The stack of every thread that runs scripts. Rhai evaluates, drops, compares and prints by
/// recursion; the call, expression and value depth limits (`Limits`, `MAX_DEPTH`) bound how deep
/// each goes, and this holds the deepest of them with room to spare in a debug build. It is
/// reserved, not used, but counts against an address-space cap (`ulimit -v`) once per worker,
/// so it is kept modest.
pub const SCRIPT_STACK: usize = 64 << 20;

/// The memory one command may take by default: far below what a player's machine has, far above
/// what any shipped rule or study needs.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// Limits every engine runs under. A house rule with an endless loop stops
/// at `max_operations` with a clear error instead of hanging.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Operations one command may spend, counted by every path that runs a
    /// script (see `budget`): a REPL line, an `eval`, one trial of a study, a whole `odds` walk.
    pub max_operations: u64,
    /// Time one command may take, by the clock (none: no limit).
    pub time_limit: Option<Duration>,
    /// Bytes of memory one command may grow its thread's heap by, counted as it grows (see
    /// `budget`): values, closures, an exact walk's states.
    pub max_memory: usize,
    pub max_call_levels: usize,
    pub max_expr_depth: usize,
    pub max_function_expr_depth: usize,
    pub max_string_size: usize,
    pub max_array_size: usize,
    pub max_map_size: usize,
    pub max_modules: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_operations: 2_000_000,
            time_limit: Some(Duration::from_secs(120)),
            max_memory: DEFAULT_MEMORY,
            max_call_levels: 48,
            max_expr_depth: 64,
            max_function_expr_depth: 48,
            max_string_size: 100_000,
            max_array_size: 100_000,
            max_map_size: 10_000,
            max_modules: 32,
        }
    }
}

impl Limits {
    /// The limits of an `odds` walk, which runs a procedure once for each way the dice can fall:
    /// the operations of the whole walk are counted, so it is given more. A person waits for
    /// it: a runaway procedure is stopped within a second or two (the shipped rules' walks
    /// spend under a million operations), and `--max-operations` allows more.
    pub fn for_walk() -> Self {
        Limits { max_operations: 200_000_000, time_limit: Some(Duration::from_secs(20)), ..Limits::default() }
    }
}

/// Applies the limits and closes the doors: no `eval`, imports only from `roots`.
/// Rhai's own operation limit is off: every path counts against one `budget::Meter` instead.
pub fn apply(engine: &mut Engine, limits: &Limits, roots: Vec<PathBuf>) {
    engine
        .set_max_operations(0)
        .set_max_call_levels(limits.max_call_levels)
        .set_max_expr_depths(limits.max_expr_depth, limits.max_function_expr_depth)
        .set_max_string_size(limits.max_string_size)
        .set_max_array_size(limits.max_array_size)
        .set_max_map_size(limits.max_map_size)
        .set_max_modules(limits.max_modules)
        .set_strict_variables(true)
        .disable_symbol("eval");
    // No clock reaches a script (Rhai's `timestamp` is built out, see Cargo.toml), and no
    // script waits: Rhai's `sleep` is answered by an error, so the same seed gives the same run.
    engine.register_fn("sleep", |_: rhai::INT| -> Result<(), Box<EvalAltResult>> { Err(NOT_AVAILABLE.into()) });
    engine.register_fn("sleep", |_: rhai::FLOAT| -> Result<(), Box<EvalAltResult>> { Err(NOT_AVAILABLE.into()) });
    engine.set_module_resolver(ConfinedResolver::new(roots));
    measure_on_growth(engine);
}

/// The deepest a value may nest: arrays, maps and closures' captures within one another. Past
/// it a value is refused as it is made, so that dropping, comparing and printing one (each of
/// which Rhai does by recursion) fits the scripts' stack (`SCRIPT_STACK`).
pub const MAX_DEPTH: usize = 1_000;

/// The error a value nested past `MAX_DEPTH` is refused with, worded as Rhai words the size limits.
pub fn too_deep(pos: Position) -> Box<EvalAltResult> {
    EvalAltResult::ErrorDataTooLarge(format!("Depth of a value (more than {MAX_DEPTH} levels)"), pos).into()
}

/// Whether `value` nests past `MAX_DEPTH`. Read in place, and only as deep as the limit: a value
/// that holds itself (a closure that captured its own variable) is as deep as its path
/// before it comes round, not endless.
pub fn nests_too_deep(value: &Dynamic) -> bool {
    fn deeper(value: &Dynamic, depth: usize, path: &mut Vec<*const Dynamic>) -> bool {
        if value.is_shared() {
            let Some(inner) = value.read_lock::<Dynamic>() else { return false };
            let at: *const Dynamic = &*inner;
            if path.contains(&at) {
                return false;
            }
            path.push(at);
            let deep = deeper(&inner, depth, path);
            path.pop();
            return deep;
        }
        if !(value.is_array() || value.is_map() || value.is_fnptr()) {
            return false;
        }
        if depth >= MAX_DEPTH {
            return true;
        }
        if let Some(array) = value.read_lock::<rhai::Array>() {
            array.iter().any(|item| deeper(item, depth + 1, path))
        } else if let Some(map) = value.read_lock::<rhai::Map>() {
            map.values().any(|item| deeper(item, depth + 1, path))
        } else if let Some(f) = value.read_lock::<rhai::FnPtr>() {
            f.curry().iter().any(|item| deeper(item, depth + 1, path))
        } else {
            false
        }
    }
    deeper(value, 0, &mut Vec::new())
}

/// `value` measured against the engine's size limits and `MAX_DEPTH`, as an error at `pos`.
pub fn measure(engine: &Engine, value: &Dynamic, pos: Position) -> Result<(), Box<EvalAltResult>> {
    if value.is_array() || value.is_map() || value.is_string() || value.is_blob() {
        engine.ensure_data_size_within_limits(value).map_err(|mut e| {
            e.set_position(pos);
            e
        })?;
    }
    if nests_too_deep(value) {
        return Err(too_deep(pos));
    }
    Ok(())
}

/// How much the thread's heap grows between two measurings of the variables in scope.
const MEASURE_EVERY: isize = 64 << 10;

/// Measures every variable in scope against the size limits once the heap has grown by
/// `MEASURE_EVERY` since they were last measured, at the next variable read.
///
/// Rhai measures what a statement stores, not always where it stores it: `m[k] = v` measures `v`,
/// so a map grown key by key in a loop passes `max_map_size` unseen, where compiled code
/// (`compiled::run`), which measures the variable written, refuses it. A map that grows keeps
/// taking memory, so measuring on growth refuses it with the same words, a few thousand keys
/// later, and costs nothing while memory holds still. (What grows out of sight of the scope,
/// such as a closure's captures, is stopped by the memory budget, `budget`.)
// `on_var` is marked deprecated as "volatile", not as going away (Rhai is pinned, see Cargo.toml).
#[allow(deprecated)]
fn measure_on_growth(engine: &mut Engine) {
    let measured = std::cell::Cell::new(crate::memory::held());
    engine.on_var(move |_, _, context| {
        let held = crate::memory::held();
        if held < measured.get() {
            measured.set(held);
        } else if held - measured.get() >= MEASURE_EVERY {
            measured.set(held);
            let engine = context.engine();
            for (_, _, value) in context.scope().iter_raw() {
                measure(engine, value, Position::NONE)?;
            }
            if let Some(this) = context.this_ptr() {
                measure(engine, this, Position::NONE)?;
            }
        }
        Ok(None)
    });
}

/// What a script that calls `sleep` is told.
const NOT_AVAILABLE: &str = "`sleep` is not available: a rule or script may not wait";

/// Functions of Rhai's that scripts may not call: `check` reports a call to one as unknown.
pub const REFUSED_FUNCTIONS: &[&str] = &["sleep"];

/// Resolves `import "x"` to `x.rhai` beside the importing file, refusing any
/// path that leads outside the ruleset's folders (`..`, absolute paths, links)
/// and anything there that is not a regular file (a fifo would hang the import).
pub struct ConfinedResolver {
    folders: Confined,
    /// The files being imported right now: a file that imports itself, or a
    /// circle of files, would otherwise recurse until the stack runs out.
    importing: std::cell::RefCell<Vec<PathBuf>>,
}

impl ConfinedResolver {
    pub fn new(roots: Vec<PathBuf>) -> Self {
        ConfinedResolver { folders: Confined::new(roots, "ruleset folder"), importing: Default::default() }
    }

    fn locate(&self, source: Option<&str>, path: &str) -> Result<PathBuf, String> {
        if Path::new(path).is_absolute() {
            return Err(format!("import \"{path}\": imports are relative to the ruleset folder"));
        }
        if self.folders.first_root().is_none() {
            return Err(format!("import \"{path}\": no ruleset folder to import from"));
        }
        // Relative to the importing file when it is one of the ruleset's, else to the first folder.
        let base = source.map(Path::new).and_then(Path::parent).and_then(|p| p.canonicalize().ok());
        let mut file = PathBuf::from(path);
        if file.extension().is_none() {
            file.set_extension("rhai");
        }
        self.folders.file(base.as_deref(), &file).map_err(|err| format!("import \"{path}\": {err}"))
    }
}

impl ModuleResolver for ConfinedResolver {
    fn resolve(
        &self,
        engine: &Engine,
        source: Option<&str>,
        path: &str,
        pos: Position,
    ) -> Result<Shared<Module>, Box<EvalAltResult>> {
        let fail = |message: String| Box::new(EvalAltResult::ErrorInModule(path.into(), message.into(), pos));
        let file = self.locate(source, path).map_err(fail)?;
        if self.importing.borrow().contains(&file) {
            return Err(fail(format!("{} imports itself, directly or through other files", file.display())));
        }
        self.importing.borrow_mut().push(file.clone());
        let module = self.load(engine, &file).map_err(fail);
        self.importing.borrow_mut().pop();
        module
    }
}

impl ConfinedResolver {
    /// Compiles and runs one imported file as a module.
    fn load(&self, engine: &Engine, file: &Path) -> Result<Shared<Module>, String> {
        // `locate` made sure this is a regular file inside the ruleset.
        let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let mut ast = engine.compile(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        ast.set_source(file.display().to_string());
        let module = Module::eval_ast_as_new(Scope::new(), &ast, engine).map_err(|e| e.to_string())?;
        Ok(module.into())
    }
}
