//! `Session`: the REPL's state and its commands, testable without a terminal.

use super::game::{Logged, Standing};
use super::manual_dice::{Ask, Manual};
use super::new_unit::Choose;
use super::short_form::{self, Named};
use super::turn::Turn;
use crate::dice::Seeded;
use crate::present::diagnostic::{self, Look};
use crate::present::escape::{escape_keeping_colour, escape_owned};
use crate::present::trace::{self, TraceForm};
use crate::rules::{Problems, Ruleset, Switches, default_rules_dir, load};
use crate::script::{Evaluation, Host, Kept, LeaderRef, Limits, UnitRef};
use rhai::{Dynamic, Scope};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

mod evaluate;
mod odds_command;
mod rules_commands;

/// What a line taken back whole says after why it stopped.
pub(super) const NOTHING_APPLIED: &str =
    "nothing was applied: the units, leaders, variables and dice are as they were before the line";

/// A line `:undo` can take back: as typed, and the units, the dice and the game as they
/// were before it.
pub(super) struct Undone {
    pub line: String,
    pub kept: Kept,
    pub turn: Option<Turn>,
    pub standing: Standing,
    /// How long the log was.
    pub logged: usize,
}

/// Shows text while a line still runs (the terminal prints it; a test keeps it).
pub type Show = Rc<RefCell<dyn FnMut(&str)>>;

/// What a line produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// Text to show (possibly empty).
    Output(String),
    /// A diagnostic to show; the session goes on unchanged.
    Error(String),
    /// The player asked to leave.
    Quit,
}

/// How dice are rolled in the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceSetting {
    /// By the seeded generator.
    Auto,
    /// Asked of the player, face by face.
    Manual,
}

/// The REPL's state: the rulesets and switches, the Rhai scope with the
/// player's units, the dice, and the last result for `:why`.
pub struct Session {
    pub(super) specs: Vec<String>,
    pub(super) switches: Switches,
    pub(super) rules_dir: PathBuf,
    pub(super) host: Host,
    pub(super) scope: Scope<'static>,
    pub(super) seed: u64,
    pub(super) dice: DiceSetting,
    /// How much of each result's trace is shown (`:trace brief|full|off`).
    pub(super) trace_form: TraceForm,
    /// The terminal's width, which traces are wrapped to; none outside a terminal.
    pub(super) width: Option<usize>,
    /// The lines run, latest last, each with the units and dice, and the game, as they were
    /// before it (`:undo`).
    pub(super) undo: Vec<Undone>,
    /// Where the game stands in the sequence of play, when the rules have one.
    pub(super) turn: Option<Turn>,
    /// The ground each unit stands on (`:at`), by unit id.
    pub(super) standing: Standing,
    /// The log of the game (`:log`).
    pub(super) log: Vec<Logged>,
    /// The last resolution (a line that was one call), as typed and as run, with the units and
    /// dice as they were before it: what `:odds why` weighs.
    pub(super) last_resolution: Option<(String, String, Kept)>,
    pub(super) look: Look,
    pub(super) last: Option<Evaluation>,
    pub(super) ask: Ask,
    /// How `:new` asks for a unit's fields (the terminal prompts with Tab; a test answers from a list).
    pub(super) choose: Choose,
    /// How text is shown while a line still runs: with dice at the table, what a round decided
    /// before the next round's dice are asked for.
    pub(super) show: Show,
    /// What one line may spend, and one `:odds` walk (every host the session builds runs under them).
    pub(super) limits: Limits,
    pub(super) walk_limits: Limits,
    /// Set by Ctrl-C: stops the line running now (one flag for every host the session builds).
    pub(super) interrupt: Arc<AtomicBool>,
}

/// What `:help` shows: each command on one line, which the terminal wraps under the command's
/// words (hand-wrapped lines would be wrapped again, twice, in a narrow terminal).
const HELP: &str = "\
Make units by a template of the ruleset (:show lists them), by :new, or whole:
  let a = unit(\"54th Foot\", \"british_line\");
  let b = unit(\"4e Ligne\", \"french_line\", #{stands: 4});
Resolve short, naming the units by a piece of their names, then the situation's
words (Tab lists them at each place), or as the Rhai call the short form means:
  fire 54th 4e range 1 enfiladed
  fire(a, b, #{range: 1, enfiladed: true})

Commands:
  :help                  this text
  :rules                 the rulesets loaded and those available
  :use ID|DIR ...        load other rulesets (overlays stack in order); units are kept
  :show [NAME ...]       a table as its chart, a modifier list, options, interpretations
  :options               the options and interpretations as set
  :with OPTION           switch an optional rule on
  :without OPTION        switch it off
  :set NAME=CHOICE       choose an interpretation
  :seed N                roll with the generator seeded N (and dice auto)
  :dice auto|manual      roll by the generator, or ask for each die (and card) at the table
  :trace FORM            after each result: brief (dice, totals, results, effects), steps (each step that counted), full (every modifier considered) or off (dice, effects)
  :why                   the whole trace of the last result, every modifier considered
  :undo                  take back the last line that changed something or rolled
  :odds [--exact] EXPR   the exact odds of a dice expression or a procedure call, in percents (--exact: as fractions too)
  :odds --field NAME CALL  the same, and the odds of a field of the map the call returns (`--field attacker_lost`, `--field attacker.stands`; repeat it)
  :odds why [CALL]       what each modifier that applied does to the odds of the last resolution (on the units as they stood before it), or of CALL
  :reload                read the rule files again, keeping units (errors keep the old rules)
  :new VAR               make a unit, asked field by field (Tab lists the words), into VAR
  :units                 the units and leaders in the session
  :turn [SIDE SIDE]      where the game stands in the sequence of play, or a new game with SIDE moving first
  :next [SIDE|turn SIDE]  the next phase (what a phase keeps clears as the rules say); where a card says who moves, the side whose phases begin, or a new turn
  :at UNIT GROUND        a unit's ground (`:at 52nd hedge`), read by each resolution naming it there until changed (`:at 52nd open`); `:at` lists them
  :log [FILE.md]         the game so far, each resolution with its dice and effects; FILE.md writes it as Markdown
  :save FILE             keep the session in a YAML file
  :load FILE             take a saved session back, or load an order of battle
  :quit                  leave (Ctrl-D too)";

/// How many lines `:undo` can take back.
pub(super) const UNDO_DEPTH: usize = 20;

/// The meta commands, for completion.
pub const COMMANDS: [&str; 24] = [
    ":help", ":rules", ":use", ":show", ":options", ":with", ":without", ":set", ":seed", ":dice", ":trace", ":why",
    ":undo", ":odds", ":reload", ":new", ":units", ":turn", ":next", ":at", ":log", ":save", ":load", ":quit",
];

impl Session {
    /// The width traces are wrapped to from now on (the terminal's, which may change).
    pub fn set_width(&mut self, width: Option<usize>) {
        self.width = width;
    }

    /// The width traces are wrapped to (the terminal's), if any.
    pub fn width(&self) -> Option<usize> {
        self.width
    }

    /// How the session draws diagnostics, and whether it may colour.
    pub fn look(&self) -> Look {
        self.look
    }

    /// A session on the rulesets `specs` (none: a session with dice and units only).
    pub fn new(
        specs: &[String],
        switches: Switches,
        rules_dir: Option<PathBuf>,
        look: Look,
    ) -> Result<Session, crate::error::Error> {
        let rules_dir = rules_dir.unwrap_or_else(default_rules_dir);
        let host = build_host(specs, &switches, &rules_dir)?;
        let seed = crate::dice::Seeded::fresh_seed();
        host.set_dice(Box::new(Seeded::new(seed)));
        let refused: Ask = Rc::new(RefCell::new(|_: &str| None::<String>));
        let no_answer: Choose = Rc::new(RefCell::new(|_: &str, _: &[String]| None::<String>));
        let unseen: Show = Rc::new(RefCell::new(|_: &str| {}));
        let interrupt = host.interrupt_flag();
        let (limits, walk_limits) = (host.limits(), host.walk_limits());
        Ok(Session {
            specs: specs.to_vec(),
            switches,
            rules_dir,
            host,
            scope: Scope::new(),
            seed,
            dice: DiceSetting::Auto,
            trace_form: TraceForm::Brief,
            width: None,
            undo: Vec::new(),
            turn: None,
            standing: Standing::new(),
            log: Vec::new(),
            last_resolution: None,
            look,
            last: None,
            ask: refused,
            choose: no_answer,
            show: unseen,
            limits,
            walk_limits,
            interrupt,
        })
        .map(|mut session| {
            session.follow_turn();
            session
        })
    }

    /// What one line may spend from now on, and one `:odds` walk.
    pub fn set_limits(&mut self, line: Limits, walk: Limits) {
        self.limits = line;
        self.walk_limits = walk;
        self.fit_host();
    }

    /// The flag that stops the line running now, as Ctrl-C does: the same whatever rules are loaded.
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.interrupt.clone()
    }

    /// Puts the session's limits and interrupt flag on its host (after new rules).
    pub(super) fn fit_host(&self) {
        self.host.set_limits(self.limits);
        self.host.set_walk_limits(self.walk_limits);
        self.host.set_interrupt_flag(self.interrupt.clone());
        self.host.record_facts(self.turn.is_some() && self.host.ruleset().sequence.is_some());
    }

    /// How the session asks for manual dice (the terminal prompts; a test answers from a list).
    /// The question names a roll as the script labelled it: it is asked with its control
    /// characters escaped.
    pub fn set_asker(&mut self, ask: Ask) {
        self.ask = Rc::new(RefCell::new(move |prompt: &str| (ask.borrow_mut())(&escape_owned(prompt.to_string()))));
        if self.dice == DiceSetting::Manual {
            self.host.set_dice(Box::new(Manual::new(self.ask.clone())));
        }
    }

    /// How text is shown while a line runs, before the dice it asks for next: shown with its
    /// control characters escaped, as every reply is.
    pub fn set_shower(&mut self, show: Show) {
        self.show = Rc::new(RefCell::new(move |text: &str| (show.borrow_mut())(&escape_owned(text.to_string()))));
    }

    /// How `:new` asks for a unit's fields, each question asked with its control characters escaped.
    pub fn set_chooser(&mut self, choose: Choose) {
        self.choose = Rc::new(RefCell::new(move |prompt: &str, choices: &[String]| {
            (choose.borrow_mut())(&escape_owned(prompt.to_string()), choices)
        }));
    }

    /// A greeting: what is loaded and how to get help.
    pub fn banner(&self) -> String {
        let rules =
            if self.specs.is_empty() { "no ruleset (:use ID to load one)".to_string() } else { self.ruleset_line() };
        escape_owned(format!("grognard {}: {rules}; seed {}; :help for commands", env!("CARGO_PKG_VERSION"), self.seed))
    }

    fn ruleset_line(&self) -> String {
        let rs = self.host.ruleset();
        let layers: Vec<&str> = rs.layers.iter().map(|l| l.id.as_str()).collect();
        format!("{} ({})", rs.title, layers.join(" + "))
    }

    /// Handles one line (which may span several lines of input). Whatever the reply holds, a
    /// unit's name, a rule's text, a script's string, is shown with its control characters
    /// escaped (only a diagnostic's own colours are kept), so no line can command the terminal.
    pub fn handle(&mut self, line: &str) -> Reply {
        let reply = self.handle_line(line);
        self.settle_sides();
        match reply {
            Reply::Output(text) => Reply::Output(escape_owned(text)),
            Reply::Error(text) => Reply::Error(escape_keeping_colour(&text).into_owned()),
            Reply::Quit => Reply::Quit,
        }
    }

    fn handle_line(&mut self, line: &str) -> Reply {
        let line = line.trim();
        if line.is_empty() {
            return Reply::Output(String::new());
        }
        match line.strip_prefix(':') {
            Some(command) => self.command(command),
            None => match self.short_call(line) {
                // `fire 54th 4e range 1`: the call it stands for is shown above its result.
                Some(Ok(call)) => self.evaluate_shown(&call, line, Some(&format!("-> {call}"))),
                Some(Err(message)) => Reply::Error(message),
                // A call written out takes its units' ground as a short form does, shown above it.
                None => match self.with_ground(line) {
                    Ok(Some(call)) => self.evaluate_shown(&call, line, Some(&format!("-> {call}"))),
                    Ok(None) => self.evaluate(line),
                    Err(message) => Reply::Error(message),
                },
            },
        }
    }

    fn command(&mut self, command: &str) -> Reply {
        let (name, rest) = command.split_once(char::is_whitespace).unwrap_or((command, ""));
        let rest = rest.trim();
        match name {
            "help" | "h" | "?" => Reply::Output(HELP.to_string()),
            "quit" | "q" | "exit" => Reply::Quit,
            "rules" => Reply::Output(self.rules_listing()),
            "use" => self.use_rules(rest.split_whitespace().map(str::to_string).collect()),
            "show" => self.show(rest),
            "options" => self.show("options interpretations"),
            "with" | "without" => self.switch_option(rest, name == "with"),
            "set" => self.set_interpretation(rest),
            "seed" => match rest.parse::<u64>() {
                Ok(seed) => {
                    self.seed = seed;
                    self.dice = DiceSetting::Auto;
                    self.host.set_dice(Box::new(Seeded::new(seed)));
                    Reply::Output(format!("dice: auto, seed {seed}"))
                }
                Err(_) => Reply::Error(format!("`:seed` takes a whole number, not `{rest}`")),
            },
            "dice" => match rest {
                "auto" => {
                    self.dice = DiceSetting::Auto;
                    self.host.set_dice(Box::new(Seeded::new(self.seed)));
                    Reply::Output(format!("dice: auto, seed {}", self.seed))
                }
                "manual" => {
                    self.dice = DiceSetting::Manual;
                    self.host.set_dice(Box::new(Manual::new(self.ask.clone())));
                    Reply::Output("dice: manual; you will be asked for every die".into())
                }
                _ => Reply::Error(format!("`:dice` is `auto` or `manual`, not `{rest}`")),
            },
            "trace" => {
                let form = match rest {
                    "brief" | "on" => TraceForm::Brief,
                    "steps" => TraceForm::Steps,
                    "full" => TraceForm::Full,
                    "off" => TraceForm::Off,
                    _ => {
                        let hint = crate::rules::did_you_mean(rest, ["brief", "steps", "full", "off"].into_iter());
                        return Reply::Error(format!(
                            "`:trace` is `brief`, `steps`, `full` or `off`, not `{rest}`{hint}"
                        ));
                    }
                };
                self.trace_form = form;
                Reply::Output(match form {
                    TraceForm::Brief => "trace brief: the dice and totals, the modifiers that applied, results and effects, in a few lines".into(),
                    TraceForm::Steps => "trace steps: each die with its luck, each modifier that applied, each cell read with its text and source".into(),
                    TraceForm::Full => "trace full: every modifier considered, and why each did not apply".into(),
                    TraceForm::Off => "trace off: the dice, and what happens to units and leaders".into(),
                })
            }
            "why" => match &self.last {
                Some(eval) if !eval.trace.is_empty() => {
                    Reply::Output(trace::render(&eval.trace, TraceForm::Full, self.width).trim_end().to_string())
                }
                Some(_) => Reply::Output("the last result rolled nothing and read no table".into()),
                None => Reply::Output("nothing has been resolved yet".into()),
            },
            "odds" => self.odds(rest),
            "undo" => self.undo(),
            "turn" => self.turn_command(rest),
            "at" => self.at(rest),
            "log" => self.log_command(rest),
            "next" => self.next_phase(rest),
            "reload" => self.reload(),
            "units" => Reply::Output(self.units_listing()),
            "new" => self.new_unit(rest),
            "save" => self.save(rest),
            "load" => self.load(rest),
            other => {
                let hint = crate::rules::did_you_mean(&format!(":{other}"), COMMANDS.iter().copied());
                Reply::Error(format!("`:{other}` is not a command{hint}; :help lists them"))
            }
        }
    }

    /// The Rhai call a short resolution (`fire 54th 4e range 1`) stands for, or what is wrong
    /// with it; none when `line` is not one.
    pub(super) fn short_call(&self, line: &str) -> Option<Result<String, String>> {
        let rs = self.host.ruleset();
        let contract = short_form::contract_of(line, &rs.contracts)?;
        let named = self.named();
        // A unit's ground (`:at`), for the keys the line leaves out.
        let ground = |variable: &str, key: &crate::rules::contract::Key| -> Result<Option<String>, String> {
            let Some(id) = named.iter().find(|n| n.variable == variable).map(|n| n.id.clone()) else { return Ok(None) };
            match self.standing.get(&id).and_then(|g| g.get(&key.name)) {
                Some(words) => super::game::written(key, &contract.name, words).map(Some),
                None => Ok(None),
            }
        };
        Some(short_form::expand(line, contract, &named, &ground))
    }

    /// The units, leaders and lists of them the session's variables hold, for short forms.
    pub(super) fn named(&self) -> Vec<Named> {
        let mut named = Vec::new();
        for (variable, _, value) in self.scope.iter() {
            let variable = variable.to_string();
            if let Some(unit) = value.read_lock::<UnitRef>() {
                let unit = unit.0.borrow();
                named.push(Named {
                    variable,
                    id: unit.id.clone(),
                    name: unit.name.clone(),
                    leader: false,
                    list: false,
                });
            } else if let Some(leader) = value.read_lock::<LeaderRef>() {
                let leader = leader.0.borrow();
                named.push(Named {
                    variable,
                    id: leader.id.clone(),
                    name: leader.name.clone(),
                    leader: true,
                    list: false,
                });
            } else if let Some(list) = value.read_lock::<rhai::Array>() {
                let leaders = list.iter().all(|v| v.is::<LeaderRef>());
                if list.iter().all(|v| v.is::<UnitRef>()) || leaders {
                    named.push(Named { variable, id: String::new(), name: String::new(), leader: leaders, list: true });
                }
            }
        }
        named
    }

    pub(super) fn restore_dice(&mut self) {
        match self.dice {
            DiceSetting::Auto => self.host.set_dice(Box::new(Seeded::new(self.seed))),
            DiceSetting::Manual => self.host.set_dice(Box::new(Manual::new(self.ask.clone()))),
        }
    }

    /// The scope's units and leaders, by variable name.
    pub(super) fn handles(&self) -> (BTreeMap<String, UnitRef>, BTreeMap<String, LeaderRef>) {
        let mut units = BTreeMap::new();
        let mut leaders = BTreeMap::new();
        for (name, _, value) in self.scope.iter() {
            if let Some(unit) = value.clone().try_cast::<UnitRef>() {
                units.insert(name.to_string(), unit);
            } else if let Some(leader) = value.try_cast::<LeaderRef>() {
                leaders.insert(name.to_string(), leader);
            }
        }
        (units, leaders)
    }

    pub(super) fn units_listing(&self) -> String {
        let (units, leaders) = self.handles();
        if units.is_empty() && leaders.is_empty() && self.host.units().is_empty() {
            return "no units yet: :new VAR asks for one, or let a = unit(#{name: \"...\", arm: \"infantry\", stands: 6, formation: \"line\"})"
                .into();
        }
        let known_leaders = self.host.leaders();
        let mut lines = Vec::new();
        // Each unit, with the leaders attached to it (a leader may have no variable of his own).
        let attached = |u: &UnitRef| -> Vec<String> {
            let ids = u.0.borrow().leaders.clone();
            ids.iter()
                .map(|id| match known_leaders.iter().find(|l| l.0.borrow().id == *id) {
                    Some(leader) => format!("    led by {leader}"),
                    None => format!("    led by {id}"),
                })
                .collect()
        };
        // A unit's ground (`:at`) under it, as its leaders are.
        let ground = |u: &UnitRef| self.standing_of(&u.0.borrow().id).map(|g| format!("    at {g}"));
        for (name, u) in &units {
            lines.push(format!("{name}: {u}"));
            lines.extend(attached(u));
            lines.extend(ground(u));
        }
        lines.extend(leaders.iter().map(|(name, l)| format!("{name}: {l}")));
        // Units the session knows that no variable holds (made inside a list, or by a procedure).
        let unnamed: Vec<UnitRef> =
            self.host.units().into_iter().filter(|u| !units.values().any(|v| Rc::ptr_eq(&v.0, &u.0))).collect();
        for u in &unnamed {
            lines.push(format!("(no variable): {u}"));
            lines.extend(attached(u));
            lines.extend(ground(u));
        }
        lines.join("\n")
    }

    /// Puts `variables` in the session's scope; `unit-i` names the i-th unit known (by id), `leader-0` the first leader.
    #[cfg(test)]
    pub(crate) fn set_variables_for_test(&mut self, variables: &BTreeMap<String, crate::repl::saved::Value>) {
        let units = self.host.units();
        let leaders = self.host.leaders();
        for (name, value) in variables {
            let value = crate::repl::saved::from_saved_with(
                value,
                &|id| {
                    id.strip_prefix("unit-").and_then(|i| i.parse::<usize>().ok()).and_then(|i| units.get(i)).cloned()
                },
                &|id| {
                    id.strip_prefix("leader-")
                        .and_then(|i| i.parse::<usize>().ok())
                        .and_then(|i| leaders.get(i))
                        .cloned()
                },
            )
            .unwrap();
            self.scope.push_dynamic(name.clone(), value);
        }
    }

    /// A variable of the session, for tests and the terminal.
    pub fn variable(&self, name: &str) -> Option<Dynamic> {
        self.scope.get_value::<Dynamic>(name)
    }

    /// The current dice setting.
    pub fn dice(&self) -> DiceSetting {
        self.dice
    }
}

pub(super) fn build_host(specs: &[String], switches: &Switches, rules_dir: &Path) -> Result<Host, crate::error::Error> {
    let mut ruleset = if specs.is_empty() { Ruleset::empty() } else { load(specs, rules_dir)?.ruleset };
    ruleset.apply(switches).map_err(Problems)?;
    let host = Host::new(ruleset).map_err(Problems)?;
    host.allow_scenarios_from(Path::new("."));
    Ok(host)
}

pub(super) fn render(err: &dyn miette::Diagnostic, look: Look) -> String {
    diagnostic::render(err, look)
}
