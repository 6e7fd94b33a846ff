//! The sandbox: limits on what a rule or script may do, and imports confined to the ruleset's folders.

use std::path::{Path, PathBuf};

use rhai::module_resolvers::ModuleResolver;
use rhai::{Engine, EvalAltResult, Module, Position, Scope, Shared};

use crate::rules::files::Confined;

/// Limits every engine runs under. A house rule with an endless loop stops
/// at `max_operations` with a clear error instead of hanging.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_operations: u64,
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

/// Applies the limits and closes the doors: no `eval`, imports only from `roots`.
pub fn apply(engine: &mut Engine, limits: &Limits, roots: Vec<PathBuf>) {
    engine
        .set_max_operations(limits.max_operations)
        .set_max_call_levels(limits.max_call_levels)
        .set_max_expr_depths(limits.max_expr_depth, limits.max_function_expr_depth)
        .set_max_string_size(limits.max_string_size)
        .set_max_array_size(limits.max_array_size)
        .set_max_map_size(limits.max_map_size)
        .set_max_modules(limits.max_modules)
        .set_strict_variables(true)
        .disable_symbol("eval");
    engine.set_module_resolver(ConfinedResolver::new(roots));
}

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
