//! The REPL's commands on the rules in force: `:rules`, `:use`, `:reload`, `:show`, `:with`, `:without`, `:set`.

use std::path::Path;

use super::{Reply, Session, build_host, render};
use crate::present::ruleset as show;
use crate::rules::Switches;
use crate::script::Host;

/// Every ruleset id in the rules folder.
fn available(rules_dir: &Path) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(rules_dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| crate::rules::files::is_ruleset_folder(&e.path()))
                .map(|e| e.file_name().to_string_lossy().to_string())
                .collect()
        })
        .unwrap_or_default();
    ids.sort();
    ids
}

impl Session {
    pub(super) fn rules_listing(&self) -> String {
        let mut text = if self.specs.is_empty() {
            "loaded: none\n".to_string()
        } else {
            format!("loaded: {}\n", self.ruleset_line())
        };
        text += &format!("available in {}:", self.rules_dir.display());
        for id in available(&self.rules_dir) {
            text += &format!("\n  {id}");
        }
        text
    }

    pub(super) fn use_rules(&mut self, specs: Vec<String>) -> Reply {
        if specs.is_empty() {
            return Reply::Error("`:use` takes ruleset ids or folders: `:use ff-napoleonic`".into());
        }
        // A new ruleset starts with its own defaults.
        match build_host(&specs, &Switches::default(), &self.rules_dir) {
            Ok(host) => {
                // Other rules, another game: the turn starts again by their sequence.
                self.turn = None;
                self.replace_host(host);
                self.specs = specs;
                self.switches = Switches::default();
                self.restore_dice();
                Reply::Output(format!("using {}", self.ruleset_line()))
            }
            Err(err) => Reply::Error(render(&err, self.look)),
        }
    }

    pub(super) fn reload(&mut self) -> Reply {
        match build_host(&self.specs, &self.switches, &self.rules_dir) {
            Ok(host) => {
                self.replace_host(host);
                self.restore_dice();
                Reply::Output(format!("reloaded {}", self.ruleset_line()))
            }
            Err(err) => Reply::Error(format!("{}the rules were not changed", render(&err, self.look))),
        }
    }

    /// Puts new rules in place: the new host knows every unit and leader the old one knew
    /// (a leader attached to a unit, with no variable of his own, stays attached), and runs
    /// under the session's limits.
    pub(super) fn replace_host(&mut self, host: Host) {
        // What `:undo` kept belongs to the old rules.
        self.undo.clear();
        self.last_resolution = None;
        let old = std::mem::replace(&mut self.host, host);
        let (units, leaders) = self.handles();
        self.host.adopt(
            old.units().into_iter().chain(units.into_values()),
            old.leaders().into_iter().chain(leaders.into_values()),
        );
        self.fit_host();
        self.follow_turn();
    }

    pub(super) fn show(&self, names: &str) -> Reply {
        let rs = self.host.ruleset();
        if names.is_empty() {
            return Reply::Output(show::summary(&rs).trim_end().to_string());
        }
        let mut parts = Vec::new();
        for name in names.split_whitespace() {
            match show::render(&rs, name) {
                Ok(text) => parts.push(text.trim_end().to_string()),
                Err(err) => return Reply::Error(err.to_string()),
            }
        }
        Reply::Output(parts.join("\n\n"))
    }

    pub(super) fn switch_option(&mut self, name: &str, on: bool) -> Reply {
        let result = self.host.set_option(name, on);
        match result {
            Ok(()) => {
                let list = if on { &mut self.switches.with } else { &mut self.switches.without };
                list.push(name.to_string());
                Reply::Output(format!("{name}: {}", if on { "on" } else { "off" }))
            }
            Err(err) => Reply::Error(err.to_string()),
        }
    }

    pub(super) fn set_interpretation(&mut self, text: &str) -> Reply {
        let Some((name, choice)) = text.split_once('=') else {
            return Reply::Error(format!("`:set` takes NAME=CHOICE, not `{text}`"));
        };
        let (name, choice) = (name.trim(), choice.trim());
        let result = self.host.set_interpretation(name, choice);
        match result {
            Ok(()) => {
                self.switches.set.push((name.to_string(), choice.to_string()));
                Reply::Output(format!("{name} = {choice}"))
            }
            Err(err) => Reply::Error(err.to_string()),
        }
    }
}
