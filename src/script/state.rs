//! `State`: what the Rhai bindings share with the host: the ruleset, the dice source, the trace, known units.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::Arc;

use super::condition::Condition;
use super::handles::{LeaderRef, UnitRef};
use super::mode::Mode;
use super::trace::{Step, Trace};
use crate::dice::{DiceError, DiceExpr, DiceLimits, Seeded, parse_with};
use crate::rules::{ModifierList, Ruleset};

/// The most steps one trace keeps.
pub const MAX_TRACE_STEPS: usize = 10_000;

/// How deep `modifiers()` may nest (a condition calling `modifiers` calling ...).
pub const MAX_MODIFIER_DEPTH: usize = 8;

/// Shows steps of a trace to the player while the line that made them runs.
pub type ShowSteps = Box<dyn FnMut(&[Step])>;

/// What shows a player at the table a line's steps as they happen (see `State::show_progress`).
pub struct Progress {
    /// How many of the trace's steps have been shown.
    pub shown: usize,
    pub show: ShowSteps,
}

/// State shared by the host and every binding.
pub struct State {
    pub ruleset: Ruleset,
    /// How the command running now plays its dice: the one place that says so.
    pub mode: Mode,
    pub trace: Trace,
    /// Whether steps are recorded (off in bulk runs and while enumerating).
    pub tracing: bool,
    /// The ruleset's modifier lists with their conditions compiled, shared so a call does not copy them.
    pub lists: HashMap<String, Rc<CompiledList>>,
    /// Dice expressions already parsed, by their text (shared: a roll does not copy its expression).
    /// Each expression with its written form, as `roll_written` takes it.
    pub dice_cache: HashMap<String, Rc<(DiceExpr, Arc<str>)>>,
    /// The last dice error a binding hit, kept whole for the report.
    pub dice_error: Option<DiceError>,
    /// What a study counts in the current trial: `tally(key, value)` and `record(key, number)`.
    pub observations: Observations,
    /// How deep `modifiers()` calls are nested (a condition may call `modifiers` again).
    pub modifier_depth: usize,
    /// The problems of the last order of battle that did not load, kept whole for the report.
    pub scenario_problems: Option<crate::rules::Problems>,
    /// Where `order_of_battle(...)` may read scenario files from (none: nowhere).
    pub data_folder: Option<std::path::PathBuf>,
    /// Units and leaders created in this session, by id.
    pub units: BTreeMap<String, UnitRef>,
    pub leaders: BTreeMap<String, LeaderRef>,
    /// What the command running now may still spend, ticked by Rhai and by compiled code alike.
    pub meter: Rc<super::budget::Meter>,
    /// During one `odds` command, the units made so far, by a hash of their specification
    /// with the specification itself: every replay of the code makes the same units again,
    /// with the same vocabulary. (Boxed: a table of whole units is a large allocation, which
    /// costs glibc a consolidation.)
    pub units_made: Option<HashMap<u64, Vec<UnitMade>>>,
    /// During an exact walk, whether a draw branches over the kinds of card left, not each
    /// card (see `bindings::unseen`), and what the walk's script then did with a card drawn.
    pub cards: CardWalk,
    /// How many runs began (a study's trial is one): what tells one trial's units from another's.
    pub trial: u64,
    /// While an `odds` command asks (attribution, `compare`), what its paths touched.
    pub seen: Option<super::seen::Seen>,
    /// A modifier (list, id) left out as if the rules had none such: attribution's odds without it.
    pub left_out: Option<(Rc<str>, Rc<str>)>,
    /// The state this session's units stand in, named when it was put in place (see
    /// `stand_as`), with the count of unit writes then (`handles::unit_writes`).
    standing: (u64, u64),
    /// At the table, what shows a line's steps so far before the next die is asked for.
    pub progress: Option<Progress>,
    /// The facts of the sequence of play that count stands lost, while they are recorded (a
    /// REPL following the turn: see `Host::record_facts`); none otherwise.
    pub stands_lost_facts: Vec<String>,
}

/// How an exact walk draws cards, and what its script did with them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardWalk {
    /// Draws branch over the kinds of card left (a walk's first try).
    pub by_kind: bool,
    /// An `Unseen` value was handed out (a card drawn so, the names of the cards drawn).
    pub unseen: bool,
    /// The script read what such a card is beyond its kind: the walk must be done again card by card.
    pub told_apart: bool,
}

/// A unit an `odds` walk or a study made, with the specification it was made from.
pub struct UnitMade {
    pub spec: rhai::Map,
    pub unit: Box<crate::unit::Unit>,
    /// In a study, the units handed out from it, each with the trial it was last handed out in.
    pub handles: Vec<(UnitRef, u64)>,
}

/// A modifier list and, by the index of each modifier, its compiled `when:` and `per:`.
pub struct CompiledList {
    pub list: ModifierList,
    pub when: Vec<Option<Condition>>,
    pub per: Vec<Option<Condition>>,
    /// The list's id and each modifier's, shared with every result that names them instead of copied.
    pub name: Rc<str>,
    pub ids: Vec<Rc<str>>,
}

impl CompiledList {
    /// The list with nothing compiled yet.
    pub fn new(list: &ModifierList) -> Self {
        let none = || vec![None; list.modifiers.len()];
        let ids = list.modifiers.iter().map(|m| Rc::from(m.id.as_str())).collect();
        CompiledList { list: list.clone(), when: none(), per: none(), name: Rc::from(list.id.as_str()), ids }
    }
}

/// What one trial of a study counted, in the order it was counted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observations {
    /// `tally("result", r.result)`: one outcome of a key. (Rhai's shared strings: a key or a
    /// word the script wrote is counted without being copied.)
    pub tallies: Vec<(rhai::ImmutableString, rhai::ImmutableString)>,
    /// `record("stands_lost", n)`: one number of a key.
    pub records: Vec<(rhai::ImmutableString, f64)>,
}

/// The state as the bindings hold it.
pub type Shared = Rc<RefCell<State>>;

impl State {
    pub fn new(ruleset: Ruleset) -> Self {
        let lists = ruleset.modifiers.iter().map(|(id, list)| (id.clone(), Rc::new(CompiledList::new(list)))).collect();
        State {
            lists,
            ruleset,
            mode: Mode::Playing(Box::new(Seeded::new(0))),
            trace: Trace::default(),
            tracing: true,
            dice_cache: HashMap::new(),
            dice_error: None,
            observations: Observations::default(),
            data_folder: None,
            scenario_problems: None,
            modifier_depth: 0,
            units: BTreeMap::new(),
            leaders: BTreeMap::new(),
            meter: Rc::default(),
            units_made: None,
            trial: 0,
            seen: None,
            left_out: None,
            standing: (0, u64::MAX),
            cards: CardWalk::default(),
            progress: None,
            stands_lost_facts: Vec::new(),
        }
    }

    /// Counts `lost` stands of `unit` into each fact that counts them, while facts are recorded.
    pub fn count_stands_lost(&self, unit: &UnitRef, lost: u32) {
        if lost == 0 || self.stands_lost_facts.is_empty() {
            return;
        }
        let mut unit = unit.edit();
        for fact in &self.stands_lost_facts {
            let before = match unit.markers.get(fact) {
                Some(crate::unit::Marker::Count(n)) => *n,
                _ => 0,
            };
            unit.markers.insert(fact.clone(), crate::unit::Marker::Count(before.saturating_add(i64::from(lost))));
        }
    }

    /// Before a die is asked of the player: the steps recorded since the last shown, when dice
    /// were rolled among them and then a table read or an effect applied (a round decided), so
    /// that a round's result is seen before the next round's dice are rolled.
    pub fn show_progress(&mut self) {
        let Some(progress) = self.progress.as_mut() else { return };
        let pending = self.trace.steps.get(progress.shown..).unwrap_or_default();
        let rolled = pending.iter().position(|s| matches!(s, Step::Roll { .. } | Step::Card { .. }));
        let decided =
            |after: usize| pending[after..].iter().any(|s| matches!(s, Step::Table { .. } | Step::Effect { .. }));
        if rolled.is_some_and(decided) {
            (progress.show)(pending);
            progress.shown = self.trace.steps.len();
        }
    }

    /// Records a step when tracing; a trace stops growing at `MAX_TRACE_STEPS`,
    /// so a script that rolls in a long loop cannot fill the memory with its explanation.
    pub fn record(&mut self, step: impl FnOnce() -> Step) {
        if !self.tracing {
            return;
        }
        match self.trace.steps.len() {
            n if n < MAX_TRACE_STEPS => self.trace.steps.push(step()),
            MAX_TRACE_STEPS => self
                .trace
                .steps
                .push(Step::Note { text: format!("(the trace stops here: more than {MAX_TRACE_STEPS} steps)") }),
            _ => {}
        }
    }

    /// Makes `unit` known by its id, returned (a write an exact walk counts: see `handles::edited`).
    pub fn add_unit(&mut self, unit: UnitRef) -> String {
        let id = unit.0.borrow().id.clone();
        self.units.insert(id.clone(), unit);
        super::handles::units_written();
        id
    }

    /// Makes `leader` known by its id, returned (counted as `add_unit` is).
    pub fn add_leader(&mut self, leader: LeaderRef) -> String {
        let id = leader.0.borrow().id.clone();
        self.leaders.insert(id.clone(), leader);
        super::handles::units_written();
        id
    }

    /// Says the units, leaders and registries now hold the state `name` names (a study's setup
    /// put back, a kept call's end): `standing_as` tells so until any unit or leader, of this
    /// session or another on the thread, is written.
    pub fn stand_as(&mut self, name: u64) {
        self.standing = (name, super::handles::unit_writes());
    }

    /// The name of the state the units stand in, when it has one and nothing was written since.
    pub fn standing_as(&self) -> Option<u64> {
        let (name, writes) = self.standing;
        (writes == super::handles::unit_writes()).then_some(name)
    }

    /// What the study counts, to change it (counted as `add_unit` is).
    pub fn observations_mut(&mut self) -> &mut Observations {
        super::handles::edited();
        &mut self.observations
    }

    /// A dice expression read with the ruleset's conventions, parsed once.
    pub fn dice(&mut self, text: &str) -> Result<Rc<(DiceExpr, Arc<str>)>, DiceError> {
        if let Some(expr) = self.dice_cache.get(text) {
            return Ok(expr.clone());
        }
        let expr = parse_with(text, &self.ruleset.dice, &DiceLimits::default())?;
        let written = expr.to_string().into();
        let parsed = Rc::new((expr, written));
        self.dice_cache.insert(text.to_string(), parsed.clone());
        Ok(parsed)
    }
}
