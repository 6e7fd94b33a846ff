//! `Host`: one Rhai engine with a loaded ruleset: compiles its procedures and conditions once, evaluates, enumerates.
//!
//! One `impl Host` block per capability, each in its file: building and compiling (`build`),
//! the checks `check` runs on procedures and conditions (`check`), evaluation and the
//! location of errors (`eval`), exact odds (`odds`), the units a run may change, kept
//! and restored (`snapshot`), and a study script's setup, run once (`setup`). This file holds the host itself and its session settings.

use std::cell::{Cell, Ref, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use rhai::{AST, Dynamic, Engine};

use crate::dice::{DiceError, RollSource};
use crate::rules::{Ruleset, SourceFile};
use crate::script::budget::Meter;
use crate::script::compiled::Compiled;
use crate::script::compiled::runner::Seam;
use crate::script::dice_paths::KeptCalls;
use crate::script::handles::{LeaderRef, UnitRef};
use crate::script::mode::{Mode, WalkDice};
use crate::script::sandbox::Limits;
use crate::script::state::{Observations, Shared};
use crate::script::trace::Trace;

mod build;
mod check;
mod eval;
mod odds;
mod reach;
mod resolutions;
mod setup;
mod snapshot;

pub use eval::{Argument, CallShape};
pub use reach::Reach;
pub use setup::Setup;
pub use snapshot::Kept;

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
    marker_values: RefCell<crate::script::marker_values::MarkerValues>,
    /// In a study, the functions Rhai found for the script's calls, kept from trial to trial.
    resolutions: RefCell<Option<resolutions::Resolutions>>,
    /// In a study, its procedures' calls kept by the dice they rolled (see `dice_paths`): the
    /// seam its trials run behind, and what makes their mode studying.
    kept_calls: RefCell<Option<Rc<KeptCalls>>>,
    /// The enumerator every exact walk of this host steers, shared by the walking mode (the
    /// bindings roll through it) and the exact engine behind the seam.
    walk_dice: WalkDice,
}

/// The result of evaluating an expression: its value and how it came about.
#[derive(Debug, Clone)]
pub struct Evaluation {
    pub value: Dynamic,
    pub trace: Trace,
}

/// Some code compiled alone, and the arguments of its call, each as code of its own.
type CallArguments = (Rc<AST>, Rc<[AST]>);

impl Host {
    /// The state the bindings share, for tests that look inside.
    #[cfg(test)]
    pub(crate) fn state(&self) -> std::cell::Ref<'_, crate::script::state::State> {
        self.state.borrow()
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
        // The copies `base::` calls reach are not names a player writes.
        let written = self.written.iter_functions().map(|f| f.name.to_string());
        written.filter(|name| crate::script::base_calls::written_name(name) == *name).collect()
    }

    /// The ruleset, to read.
    pub fn ruleset(&self) -> Ref<'_, Ruleset> {
        Ref::map(self.state.borrow(), |s| &s.ruleset)
    }

    /// Switches an option on or off, for every evaluation from now on.
    pub fn set_option(&self, name: &str, on: bool) -> Result<(), crate::rules::SwitchError> {
        self.state.borrow_mut().ruleset.set_option(name, on)?;
        self.fold();
        Ok(())
    }

    /// Chooses an interpretation, for every evaluation from now on.
    pub fn set_interpretation(&self, name: &str, choice: &str) -> Result<(), crate::rules::SwitchError> {
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

    /// What shows the player a line's steps as they happen, before each die asked for at the
    /// table once a round is decided (see `State::show_progress`); none: nothing is shown
    /// until the line ends.
    pub fn show_progress(&self, show: Option<crate::script::state::ShowSteps>) {
        self.state.borrow_mut().progress = show.map(|show| crate::script::state::Progress { shown: 0, show });
    }

    /// How many of the last line's steps were shown as they happened.
    pub fn progress_shown(&self) -> usize {
        self.state.borrow().progress.as_ref().map_or(0, |p| p.shown)
    }

    /// Whether the facts of the sequence of play (stands lost this phase) are recorded on units
    /// as effects fall on them: on while a REPL follows the turn, which clears them as phases end.
    pub fn record_facts(&self, on: bool) {
        let mut st = self.state.borrow_mut();
        let facts: Vec<String> = match (&st.ruleset.sequence, on) {
            (Some(sequence), true) => sequence.stands_lost_facts().map(str::to_string).collect(),
            _ => Vec::new(),
        };
        st.stands_lost_facts = facts;
    }

    /// Where dice come from from now on.
    pub fn set_dice(&self, source: Box<dyn RollSource>) {
        self.state.borrow_mut().mode = self.playing(source);
    }

    /// The mode of a run whose dice come from `source`: a study's trial, or play.
    fn playing(&self, source: Box<dyn RollSource>) -> Mode {
        if self.kept_calls.borrow().is_some() { Mode::Studying(source) } else { Mode::Playing(source) }
    }

    /// Dice from now on as trial `index` of a study seeded with `seed` rolls them
    /// (`Seeded::for_trial`): the generator the trial before used is made anew in place.
    pub fn set_trial_dice(&self, seed: u64, index: u64) {
        let mut st = self.state.borrow_mut();
        if let Some(source) = st.mode.source()
            && source.become_trial(seed, index)
        {
            return;
        }
        st.mode = self.playing(Box::new(crate::dice::Seeded::for_trial(seed, index)));
    }

    /// Faces given in advance (`--dice`) that no roll took, as an error.
    pub fn unused_faces(&self) -> Result<(), DiceError> {
        self.state.borrow().mode.unused_faces()
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

    /// Whether this host runs a study's trials, one after another: it then keeps what repeats
    /// from trial to trial, the units its script makes (each made from its specification once)
    /// and its procedures' calls by the dice they rolled (see `dice_paths`). Nothing a trial
    /// does comes out otherwise than it would.
    pub fn set_studying(&self, on: bool) {
        let kept = on.then(|| Rc::new(KeptCalls::default()));
        if let Some(native) = &self.native {
            native.set_seam(kept.clone().map(|k| k as Rc<dyn Seam>));
        }
        *self.kept_calls.borrow_mut() = kept;
        let mut st = self.state.borrow_mut();
        st.units_made = on.then(Default::default);
        st.mode = match std::mem::replace(&mut st.mode, Mode::Playing(Box::new(crate::dice::Seeded::new(0)))) {
            Mode::Playing(source) | Mode::Studying(source) => self.playing(source),
            walking => walking,
        };
    }

    /// Keeps the functions Rhai finds for the calls of `ast`, a study's script, from one run to
    /// the next (see `resolutions`).
    pub fn keep_resolutions(&self, ast: &AST) {
        *self.resolutions.borrow_mut() = resolutions::Resolutions::for_script(ast);
    }

    /// Forgets the units and leaders made so far: a study's trial starts with none, whatever
    /// the trials before it made.
    pub fn forget_units(&self) {
        let mut st = self.state.borrow_mut();
        if !st.units.is_empty() || !st.leaders.is_empty() {
            st.units.clear();
            st.leaders.clear();
            crate::script::handles::units_written();
        }
    }

    /// While studying, how many calls were looked up among the calls kept, and how many were
    /// found there (see `dice_paths`).
    pub fn kept_calls(&self) -> Option<(u64, u64)> {
        self.kept_calls.borrow().as_ref().map(|kept| kept.0.borrow().found())
    }

    /// What the last run counted with `tally` and `record`, read in place (a study sums it).
    pub fn read_observations<T>(&self, read: impl FnOnce(&Observations) -> T) -> T {
        read(&self.state.borrow().observations)
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

    /// The operations and time one command may spend (a REPL line, an `eval`, a trial of a study).
    pub fn limits(&self) -> Limits {
        self.limits.get()
    }

    /// The operations and time a whole `odds` walk may spend.
    pub fn walk_limits(&self) -> Limits {
        self.walk_limits.get()
    }

    /// Sets what one command may spend from now on, as `budget` says: its operations, time and
    /// memory (call depths and sizes stay as built).
    pub fn set_limits(&self, budget: Limits) {
        self.limits.set(spending(budget, self.limits.get()));
    }

    /// Sets what a whole `odds` walk may spend from now on.
    pub fn set_walk_limits(&self, budget: Limits) {
        self.walk_limits.set(spending(budget, self.walk_limits.get()));
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
}

/// `limits` spending what `budget` allows: its operations, time and memory.
fn spending(budget: Limits, limits: Limits) -> Limits {
    Limits {
        max_operations: budget.max_operations,
        time_limit: budget.time_limit,
        max_memory: budget.max_memory,
        ..limits
    }
}
