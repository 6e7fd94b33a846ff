//! A study script's setup, run once per worker rather than once per trial: the statements it
//! opens with that make units and leaders from constants (`let a = unit(#{...})`, `let oob =
//! order_of_battle("hedge.yaml")`), whose outcome is the same in every trial.
//!
//! Each trial then starts from the units as the setup made them, put back in the same handles,
//! in a scope holding the setup's variables in the order it declared them (so the rest of the
//! script reads them where it would have), and its meter already charged with the operations
//! the setup spent: a trial comes out exactly as if it had run the whole script.

use rhai::{AST, Expr, Scope, Stmt};

use super::snapshot::Snapshot;
use super::{Evaluation, Host};
use crate::script::error::ScriptError;

/// The calls a setup statement may make: they read only their constant arguments (and the
/// ruleset, and orders of battle beside the script), roll nothing and count nothing.
const MAKERS: [&str; 3] = ["unit", "leader", "order_of_battle"];

/// A script's setup, run: what each trial starts from.
pub struct Setup {
    /// The script without its setup statements.
    rest: AST,
    /// The scope after the setup: the trial's own variables first, then the setup's.
    scope: Scope<'static>,
    /// The units and leaders as the setup made them.
    made: Snapshot,
    /// The operations the setup spent.
    operations: u64,
}

impl Host {
    /// Runs the setup `ast` opens with (see the module) in `scope`, once: none when the script
    /// opens with no such statement, defines a function of a maker's name, or the setup fails
    /// (each trial then runs the whole script, and fails as it would).
    pub fn set_up(&self, scope: &Scope<'static>, ast: &AST, code: &str) -> Option<Setup> {
        let redefined = ast.iter_fn_def().any(|f| MAKERS.contains(&f.name.as_str()));
        let statements = ast.statements();
        let count = statements.iter().take_while(|s| makes_from_constants(s)).count();
        if redefined || count == 0 {
            return None;
        }
        let part = |from: usize, to: usize| {
            let mut part = ast.clone();
            part.clear_statements();
            part.combine(AST::new(statements[from..to].iter().cloned(), rhai::Module::new()));
            part
        };
        let mut setup_scope = scope.clone();
        self.forget_units();
        self.run(&mut setup_scope, &part(0, count), code).ok()?;
        let operations = self.meter.spent();
        let made = self.snapshot(&setup_scope);
        Some(Setup { rest: part(count, statements.len()), scope: setup_scope, made, operations })
    }

    /// Runs the rest of the script after `setup` as one trial: from the units as the setup made
    /// them, in the setup's scope with `trial` set, the setup's operations already spent.
    pub fn run_set_up(&self, setup: &Setup, trial: i64, code: &str) -> Result<Evaluation, ScriptError> {
        self.restore(&setup.made);
        let mut scope = setup.scope.clone();
        scope.set_value("trial", trial);
        self.begin(self.limits.get());
        self.meter.spend_at(setup.operations, rhai::Position::NONE).map_err(|err| self.locate(&err, code))?;
        self.run_metered(&mut scope, &setup.rest, code)
    }
}

/// Whether `stmt` is `let x = unit(...)` (or `leader`, `order_of_battle`) of constants alone.
fn makes_from_constants(stmt: &Stmt) -> bool {
    let Stmt::Var(var, flags, _) = stmt else { return false };
    // `trial` is the trial's own: a setup that names a variable so would hide it.
    if flags.intersects(rhai::ASTFlags::EXPORTED) || var.0.name == "trial" {
        return false;
    }
    match &var.1 {
        Expr::FnCall(call, _) => {
            call.namespace.is_empty()
                && MAKERS.contains(&call.name.as_str())
                && !call.capture_parent_scope
                && call.args.iter().all(Expr::is_constant)
        }
        _ => false,
    }
}
