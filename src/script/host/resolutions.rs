//! The functions Rhai found for a study's calls, kept from one trial to the next.
//!
//! Rhai looks up which function a call means (by its name and its arguments' types) and
//! caches what it found, but `Engine::eval_ast_with_scope` starts every evaluation with an
//! empty cache, and a first look-up is never cached (Rhai keeps no "one-hit wonders"). A
//! trial runs the same script as the trial before it, with the same functions, so each of
//! its calls was looked up again from nothing (8% of a one-fire trial, in a profile). A
//! study's host keeps Rhai's own cache (`Caches`, through the `internals` API of the pinned
//! Rhai) from trial to trial instead, as Rhai keeps it from one pass of a loop to the next.

use crate::script::syntax::Caches;
use rhai::{AST, Dynamic, Engine, EvalAltResult, Scope, Shared};

/// Rhai's function resolutions, kept for the trials of one script.
#[derive(Default)]
pub struct Resolutions {
    /// The functions the script defines: what was found holds for code that defines these alone.
    functions: Option<Shared<rhai::Module>>,
    caches: Caches,
}

impl Resolutions {
    /// Kept resolutions for the trials of `ast`: none when it imports a module. (An import
    /// clears Rhai's cache where it runs, so a later trial could otherwise find a function
    /// its own run of the script has not imported yet.)
    pub fn for_script(ast: &AST) -> Option<Resolutions> {
        let imports = !ast.walk(&mut |path| {
            !matches!(path.last(), Some(crate::script::syntax::ASTNode::Stmt(crate::script::syntax::Stmt::Import(..))))
        });
        (!imports).then(Resolutions::default)
    }

    /// Evaluates `ast` in `scope` as `Engine::eval_ast_with_scope` does, with the resolutions
    /// found before.
    pub fn eval(&mut self, engine: &Engine, scope: &mut Scope, ast: &AST) -> Result<Dynamic, Box<EvalAltResult>> {
        // What was found for other functions does not hold for these.
        if !self.functions.as_ref().is_some_and(|f| Shared::ptr_eq(f, ast.shared_lib())) {
            self.functions = Some(ast.shared_lib().clone());
            self.caches = Caches::new();
        }
        let result = crate::script::syntax::eval_with_caches(engine, &mut self.caches, scope, ast);
        // A cache pushed by a block the error left is not the script's own.
        self.caches.rewind_fn_resolution_caches(1);
        result
    }
}

#[cfg(test)]
mod tests {
    use rhai::{Engine, Scope};

    use super::*;

    #[test]
    fn a_script_evaluates_as_rhai_evaluates_it_trial_after_trial() {
        let engine = Engine::new();
        let script = "fn twice(x) { x * 2 } let y = twice(trial) + 1; if trial == 3 { throw `no ${y}` } y";
        let ast = engine.compile(script).unwrap();
        let mut kept = Resolutions::for_script(&ast).expect("no import");
        for trial in 0..6_i64 {
            let mut plain_scope = Scope::new();
            plain_scope.push("trial", trial);
            let mut kept_scope = plain_scope.clone();
            let plain = engine.eval_ast_with_scope::<Dynamic>(&mut plain_scope, &ast);
            let value = kept.eval(&engine, &mut kept_scope, &ast);
            match (plain, value) {
                (Ok(a), Ok(b)) => assert_eq!(a.as_int(), b.as_int(), "trial {trial}"),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "trial {trial}"),
                (a, b) => panic!("trial {trial}: {a:?} against {b:?}"),
            }
            assert_eq!(plain_scope.len(), kept_scope.len());
        }
        // Another script's functions are looked up afresh.
        let other = engine.compile("fn twice(x) { x * 3 } twice(2)").unwrap();
        assert_eq!(kept.eval(&engine, &mut Scope::new(), &other).unwrap().as_int(), Ok(6));
    }

    #[test]
    fn a_script_that_imports_keeps_nothing() {
        let engine = Engine::new();
        let ast = engine.compile("fn f() { import \"x\" as x; 1 } f()").unwrap();
        assert!(Resolutions::for_script(&ast).is_none());
        let ast = engine.compile("if trial > 1 { import \"x\" as x; x::f() } 1").unwrap();
        assert!(Resolutions::for_script(&ast).is_none());
    }
}
