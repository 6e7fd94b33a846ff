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

#[cfg(test)]
mod tests {
    use rhai::Scope;

    use super::*;
    use crate::rules::load;
    use crate::script::Limits;

    const SCRIPT: &str = r#"
        let a = unit(#{name: "54th Foot", nation: "britain", arm: "infantry", stands: 6, formation: "line"});
        let b = unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column"});
        b.stands -= trial;
        a.stands + b.stands
    "#;

    fn host(max_operations: u64) -> Host {
        let rules = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules");
        let ruleset = load(&["ff-napoleonic".to_string()], &rules).unwrap().ruleset;
        let host = Host::with_limits(ruleset, Limits { max_operations, ..Limits::default() }).unwrap();
        host.set_tracing(false);
        host
    }

    fn scope(trial: i64) -> Scope<'static> {
        let mut scope = Scope::new();
        scope.push("trial", trial);
        scope
    }

    #[test]
    fn a_trial_after_its_setup_comes_out_and_spends_as_the_whole_script() {
        // The whole script, run plainly: its value and the operations it spent.
        let plain = host(u64::MAX);
        let ast = plain.compile(&scope(0), SCRIPT).unwrap();
        let value = plain.run(&mut scope(2), &ast, SCRIPT).unwrap().value.as_int().unwrap();
        let spent = plain.meter.spent();
        assert_eq!(value, 10);
        // After a setup run once, each trial starts from the units as made, and spends as much.
        let set = host(u64::MAX);
        let setup = set.set_up(&scope(0), &ast, SCRIPT).expect("two units made from constants");
        for trial in [2, 1, 2] {
            let value = set.run_set_up(&setup, trial, SCRIPT).unwrap().value.as_int().unwrap();
            assert_eq!(value, 12 - trial);
            assert_eq!(set.meter.spent(), spent, "trial {trial}");
        }
        // So the operation limit falls in the same place down both paths.
        let short = host(spent - 1);
        let setup = short.set_up(&scope(0), &ast, SCRIPT).expect("the setup alone is within the limit");
        let err = short.run_set_up(&setup, 2, SCRIPT).unwrap_err().to_string();
        assert!(err.contains(&format!("stopped after {} operations", spent - 1)), "{err}");
        let plain = host(spent - 1);
        let err = plain.run(&mut scope(2), &ast, SCRIPT).unwrap_err().to_string();
        assert!(err.contains(&format!("stopped after {} operations", spent - 1)), "{err}");
        let exact = host(spent);
        let setup = exact.set_up(&scope(0), &ast, SCRIPT).unwrap();
        assert_eq!(exact.run_set_up(&setup, 2, SCRIPT).unwrap().value.as_int().unwrap(), 10);
    }

    #[test]
    fn a_script_that_opens_otherwise_has_no_setup() {
        let host = host(u64::MAX);
        for script in [
            "let n = trial; let a = unit(#{name: \"A\", arm: \"infantry\", stands: 6, formation: \"line\"}); n",
            "let trial = unit(#{name: \"A\", arm: \"infantry\", stands: 6, formation: \"line\"}); 1",
            "fn unit(x) { x } let a = unit(#{name: \"A\"}); 1",
        ] {
            let ast = host.compile(&scope(0), script).unwrap();
            assert!(host.set_up(&scope(0), &ast, script).is_none(), "{script}");
        }
    }
}
