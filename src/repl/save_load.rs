//! `:save` and `:load`: a session written to a saved game, and read back whole.

use std::collections::BTreeMap;
use std::path::Path;

use crate::present::diagnostic;
use crate::present::file::{Fresh, write_atomically};
use crate::present::trace::TraceForm;
use crate::repl::saved::{self, Saved};
use crate::repl::session::{Reply, Session, build_host};
use crate::rules::Switches;
use crate::script::{LeaderRef, UnitRef};
use rhai::Scope;

impl Session {
    pub(super) fn save(&self, path: &str) -> Reply {
        if path.is_empty() {
            return Reply::Error("`:save` takes a file name: `:save battle.yaml`".into());
        }
        let saved = match self.saved() {
            Ok(saved) => saved,
            Err(why) => return Reply::Error(format!("{why}; nothing was written")),
        };
        let text = match serde_saphyr::to_string(&saved) {
            Ok(text) => text,
            Err(err) => return Reply::Error(format!("cannot write the session: {err}; nothing was written")),
        };
        // What `:save` writes, `:load` reads: read back before it replaces anything.
        match saved::parse(&crate::rules::source_file(path, text.clone())) {
            Ok(back) if back == saved => {}
            Ok(_) => return Reply::Error("the session does not read back as it was saved; nothing was written".into()),
            Err(problem) => {
                return Reply::Error(format!(
                    "the session could not be read back ({}); nothing was written",
                    problem.message
                ));
            }
        }
        match write_atomically(Path::new(path), &text, Fresh::Private) {
            Ok(()) => Reply::Output(format!(
                "saved {} variables, {} units and {} leaders to {path}",
                saved.variables.len(),
                saved.units.len(),
                saved.leaders.len()
            )),
            Err(err) => Reply::Error(format!("cannot save to {path}: {err}")),
        }
    }

    /// The session as `:save` would write it.
    #[cfg(test)]
    pub(crate) fn saved_for_test(&self) -> Saved {
        self.saved().unwrap()
    }

    /// The whole session as `:save` writes it, or what cannot be saved.
    fn saved(&self) -> Result<Saved, String> {
        let mut units: BTreeMap<String, UnitRef> = self.host.units().into_iter().map(|u| (u.id(), u)).collect();
        let mut leaders: BTreeMap<String, LeaderRef> = self.host.leaders().into_iter().map(|l| (l.id(), l)).collect();
        let (variables, constants) = saved::variables(&self.scope, &mut units, &mut leaders)?;
        let rs = self.host.ruleset();
        Ok(Saved {
            format: saved::FORMAT,
            rules: self.specs.clone(),
            with: rs
                .settings
                .options
                .iter()
                .filter(|(n, on)| **on && !rs.options[*n].default)
                .map(|(n, _)| n.clone())
                .collect(),
            without: rs
                .settings
                .options
                .iter()
                .filter(|(n, on)| !**on && rs.options[*n].default)
                .map(|(n, _)| n.clone())
                .collect(),
            set: rs
                .settings
                .interpretations
                .iter()
                .filter(|(n, c)| rs.interpretations[*n].default != **c)
                .map(|(n, c)| (n.clone(), c.clone()))
                .collect(),
            seed: self.seed,
            dice: self.dice,
            // A saved game says only whether traces were shown.
            trace: self.trace_form != TraceForm::Off,
            units: units.into_iter().map(|(id, u)| (id, u.0.borrow().clone())).collect(),
            leaders: leaders.into_iter().map(|(id, l)| (id, l.0.borrow().clone())).collect(),
            variables,
            constants,
            turn: self.turn.clone(),
            standing: self.standing.clone(),
            log: self.log.clone(),
        })
    }

    pub(super) fn load(&mut self, path: &str) -> Reply {
        if path.is_empty() {
            return Reply::Error("`:load` takes a file name: `:load battle.yaml`".into());
        }
        // A saved game is wherever the user put it; only a fifo or the like is refused (it would hang).
        let text = match crate::rules::files::read_regular(Path::new(path)) {
            Ok(text) => text,
            Err(err) => return Reply::Error(err.to_string()),
        };
        // A saved game says its format first; any other file is read as an order of battle.
        if !text.lines().any(|line| line.starts_with("format:")) {
            return self.load_order_of_battle(path);
        }
        let file = crate::rules::source_file(path, text);
        let saved = match saved::parse(&file) {
            Ok(saved) => saved,
            Err(problem) => return Reply::Error(diagnostic::render(&*problem, self.look)),
        };
        let switches = Switches {
            with: saved.with.clone(),
            without: saved.without.clone(),
            set: saved.set.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        };
        // Build everything first, so a bad file changes nothing.
        let host = match build_host(&saved.rules, &switches, &self.rules_dir) {
            Ok(host) => host,
            Err(err) => return Reply::Error(diagnostic::render(&err, self.look)),
        };
        // Saved units and leaders are checked as an order of battle's are: a file edited by hand
        // (`fresh: no`) must not quietly change the odds.
        let wrong = {
            let vocabulary = &host.ruleset().vocabulary;
            let units = saved.units.values().flat_map(|u| vocabulary.check_unit(u));
            units.chain(saved.leaders.values().flat_map(|l| vocabulary.check_leader(l))).next()
        };
        if let Some(wrong) = wrong {
            let problem = crate::rules::unit_problem::locate_unit_error(&file, &wrong);
            return Reply::Error(format!("{}the session was not changed", diagnostic::render(&problem, self.look)));
        }
        // A unit's ground edited by hand is checked as `:at` checks it: a misspelt key or word
        // must not quietly drop a hedge.
        if let Some(wrong) = super::game::standing_fault(&saved.standing, &saved.units, &host.ruleset().contracts) {
            return Reply::Error(format!("{path}: {wrong}; the session was not changed"));
        }
        let (scope, units, leaders) = match saved::scope_of(&saved) {
            Ok(parts) => parts,
            Err(why) => return Reply::Error(format!("{path}: {why}; the session was not changed")),
        };
        host.adopt(units, leaders);
        self.host = host;
        self.undo.clear();
        self.last_resolution = None;
        self.fit_host();
        self.scope = scope;
        self.specs = saved.rules;
        self.switches = switches;
        self.seed = saved.seed;
        self.dice = saved.dice;
        self.trace_form = if saved.trace { TraceForm::Brief } else { TraceForm::Off };
        self.turn = saved.turn;
        self.standing = saved.standing;
        self.log = saved.log;
        self.follow_turn();
        self.restore_dice();
        Reply::Output(format!("loaded {path}; the units now:\n{}", self.units_listing()))
    }

    /// An order of battle's units and leaders, each put in a variable named by its id (`rifles`),
    /// with the whole of it in `oob`; checked against the rules as `order_of_battle` checks it.
    fn load_order_of_battle(&mut self, path: &str) -> Reply {
        let file = Path::new(path);
        let folder = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        self.host.allow_scenarios_from(folder);
        // Read apart from the session's scope, so that a file with mistakes changes nothing.
        let mut scope = Scope::new();
        let oob = match self.host.eval(&mut scope, &format!("order_of_battle({name:?})")) {
            Ok(eval) => eval.value,
            Err(err) => {
                return Reply::Error(format!("{}the session was not changed", diagnostic::render(&err, self.look)));
            }
        };
        let Some(map) = oob.read_lock::<rhai::Map>().map(|m| m.clone()) else {
            return Reply::Error(format!("{path}: not an order of battle"));
        };
        let mut named = Vec::new();
        let mut unnamed = Vec::new();
        for kind in ["units", "leaders"] {
            let Some(members) = map.get(kind).and_then(|m| m.read_lock::<rhai::Map>().map(|m| m.clone())) else {
                continue;
            };
            for (id, handle) in members {
                if rhai::is_valid_identifier(id.as_str()) {
                    self.scope.set_value(id.to_string(), handle);
                    named.push(id.to_string());
                } else {
                    unnamed.push(format!("oob.{kind}[{:?}]", id.as_str()));
                }
            }
        }
        self.scope.set_value("oob", oob);
        self.settle_sides();
        let mut text = format!("loaded {path}; the units now:\n{}", self.units_listing());
        if !unnamed.is_empty() {
            text += &format!("\n(ids that are not names, reached as {})", unnamed.join(", "));
        }
        Reply::Output(text)
    }
}
