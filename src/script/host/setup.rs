//! A study script's setup, run once per worker rather than once per trial: the statements it
//! opens with that make units and leaders from constants (`let a = unit(#{...})`, `let oob =
//! order_of_battle("hedge.yaml")`), whose outcome is the same in every trial.
//!
//! Each trial then starts from the units as the setup made them, put back in the same handles,
//! in a scope holding the setup's variables in the order it declared them (so the rest of the
//! script reads them where it would have), and its meter already charged with the operations
//! the setup spent: a trial comes out exactly as if it had run the whole script.

use std::cell::RefCell;
use std::rc::Rc;

use crate::script::syntax::{Expr, Stmt};
use rhai::{AST, Dynamic, Scope};

use super::snapshot::Snapshot;
use super::{Evaluation, Host};
use crate::script::error::ScriptError;
use crate::script::handles::{LeaderRef, UnitRef};

/// The calls a setup statement may make: they read only their constant arguments (and the
/// ruleset, and orders of battle beside the script), roll nothing and count nothing.
const MAKERS: [&str; 3] = ["unit", "leader", "order_of_battle"];

/// A script's setup, run: what each trial starts from.
pub struct Setup {
    /// The script without its setup statements.
    rest: AST,
    /// The scope after the setup: the trial's own variables first, then the setup's.
    scope: Scope<'static>,
    /// The scope each trial runs in: `scope`, put back after the trial before (see `run_set_up`).
    working: RefCell<Scope<'static>>,
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
        let redefined = crate::script::syntax::functions(ast).any(|f| MAKERS.contains(&f.name.as_str()));
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
        let working = RefCell::new(setup_scope.clone());
        Some(Setup { rest: part(count, statements.len()), scope: setup_scope, working, made, operations })
    }

    /// Runs the rest of the script after `setup` as one trial: from the units as the setup made
    /// them, in the setup's scope with `trial` set, the setup's operations already spent.
    pub fn run_set_up(&self, setup: &Setup, trial: i64, code: &str) -> Result<Evaluation, ScriptError> {
        self.restore(&setup.made);
        let mut scope = setup.working.borrow_mut();
        // The trial before left its own variables after the setup's, and may have given those
        // other values: the setup's scope is copied again unless each still holds the unit or
        // leader it was given (the same handle, put back as made by `restore`). A setup's
        // order of battle, a map, is copied every time: a trial may have changed it anywhere.
        scope.rewind(setup.scope.len());
        let held = scope.iter_raw().zip(setup.scope.iter_raw()).all(|((name, _, now), (_, _, made))| {
            name == "trial" || (now.tag() == made.tag() && same_handle(now, made))
        });
        if !held {
            *scope = setup.scope.clone();
        }
        scope.set_value("trial", trial);
        self.begin(self.limits.get());
        self.meter.spend_at(setup.operations, rhai::Position::NONE).map_err(|err| self.locate(&err, code))?;
        self.run_metered(&mut scope, &setup.rest, code)
    }
}

/// Whether `a` and `b` are the same unit, or the same leader.
fn same_handle(a: &Dynamic, b: &Dynamic) -> bool {
    match (a.read_lock::<UnitRef>(), b.read_lock::<UnitRef>()) {
        (Some(a), Some(b)) => Rc::ptr_eq(&a.0, &b.0),
        _ => match (a.read_lock::<LeaderRef>(), b.read_lock::<LeaderRef>()) {
            (Some(a), Some(b)) => Rc::ptr_eq(&a.0, &b.0),
            _ => false,
        },
    }
}

/// Whether `stmt` is `let x = unit(...)` (or `leader`, `order_of_battle`) of constants alone.
fn makes_from_constants(stmt: &Stmt) -> bool {
    let Stmt::Var(var, flags, _) = stmt else { return false };
    // `trial` is the trial's own: a setup that names a variable so would hide it.
    if flags.intersects(crate::script::syntax::ASTFlags::EXPORTED) || var.0.name == "trial" {
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
    fn a_trial_finds_the_setup_variables_as_made_whatever_the_trial_before_did_with_them() {
        // Even trials give `a` another value, and capture `b` in a closure (which shares it);
        // odd ones tag `b`.
        let script = r#"
            let a = unit(#{name: "54th Foot", nation: "britain", arm: "infantry", stands: 6, formation: "line"});
            let b = unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column"});
            let found = `${type_of(a)} ${type_of(b)} ${b.stands} ${b.tag}`;
            if trial % 2 == 0 { a = trial; let f = || b.stands; b.stands -= f.call() / 3; } else { b.tag = 7; }
            let extra = [found, a];
            `${found} then ${extra[1]} ${b.stands}`
        "#;
        let plain = host(u64::MAX);
        let ast = plain.compile(&scope(0), script).unwrap();
        let set = host(u64::MAX);
        let setup = set.set_up(&scope(0), &ast, script).expect("two units made from constants");
        for trial in [0, 1, 2, 2, 3] {
            plain.forget_units();
            let whole = plain.run(&mut scope(trial), &ast, script).unwrap().value.to_string();
            let after_setup = set.run_set_up(&setup, trial, script).unwrap().value.to_string();
            assert_eq!(after_setup, whole, "trial {trial}");
            assert!(whole.starts_with("Unit Unit 6 0 then"), "{whole}");
        }
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
