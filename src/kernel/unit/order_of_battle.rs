//! `OrderOfBattle`: sides, the command tree (army > corps > division > brigade), leaders and units, checked as a whole.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::error::UnitError;
use super::leader::Leader;
use super::side::Side;
use super::unit::Unit;
use super::vocabulary::Vocabulary;

/// One node of the command tree: an army, corps, division, brigade, wing...
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Command {
    pub id: String,
    pub name: String,
    pub side: String,
    /// army, corps, division, brigade, wing...: the ruleset gives the words.
    pub level: String,
    /// The command above this one; none for an army.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

/// Everything on one table: sides, commands, leaders and units.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderOfBattle {
    #[serde(default)]
    pub sides: Vec<Side>,
    #[serde(default)]
    pub commands: Vec<Command>,
    #[serde(default)]
    pub leaders: Vec<Leader>,
    #[serde(default)]
    pub units: Vec<Unit>,
}

impl OrderOfBattle {
    /// The unit with `id`.
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }

    /// The unit with `id`, to change.
    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.units.iter_mut().find(|u| u.id == id)
    }

    /// The leader with `id`.
    pub fn leader(&self, id: &str) -> Option<&Leader> {
        self.leaders.iter().find(|l| l.id == id)
    }

    /// The command with `id`.
    pub fn command(&self, id: &str) -> Option<&Command> {
        self.commands.iter().find(|c| c.id == id)
    }

    /// The chain of command from `command_id` up to the top (the command first).
    /// Stops at a missing parent or a cycle rather than looping.
    pub fn chain(&self, command_id: &str) -> Vec<&Command> {
        let mut chain = Vec::new();
        let mut seen = BTreeSet::new();
        let mut next = Some(command_id);
        while let Some(id) = next {
            let Some(command) = self.command(id) else {
                break;
            };
            if !seen.insert(id) {
                break;
            }
            chain.push(command);
            next = command.parent.as_deref();
        }
        chain
    }

    /// Every unit under `command_id`, directly or through subordinate commands
    /// (for fatigue: a division's losses are its brigades' losses).
    pub fn units_under(&self, command_id: &str) -> Vec<&Unit> {
        self.units
            .iter()
            .filter(|u| u.command.as_deref().is_some_and(|c| self.chain(c).iter().any(|link| link.id == command_id)))
            .collect()
    }

    /// The leader who commands `command_id`, if any.
    pub fn commander_of(&self, command_id: &str) -> Option<&Leader> {
        self.leaders.iter().find(|l| l.commands.as_deref() == Some(command_id))
    }

    /// Checks that the order of battle holds together and uses only the
    /// vocabulary's words; returns every problem found, not just the first.
    pub fn check(&self, vocabulary: &Vocabulary) -> Vec<UnitError> {
        let mut errors = Vec::new();
        let sides = ids(self.sides.iter().map(|s| s.id.as_str()), "side", &mut errors);
        let commands = ids(self.commands.iter().map(|c| c.id.as_str()), "command", &mut errors);
        let leaders = ids(self.leaders.iter().map(|l| l.id.as_str()), "leader", &mut errors);
        let units = ids(self.units.iter().map(|u| u.id.as_str()), "unit", &mut errors);

        let mut reference = |kind, id: &str, field, target: Option<&str>, known: &BTreeSet<&str>| {
            if let Some(target) = target.filter(|t| !known.contains(t)) {
                errors.push(UnitError::UnknownReference { kind, id: id.into(), field, target: target.into() });
            }
        };
        for side in &self.sides {
            reference("side", &side.id, "commander", side.commander.as_deref(), &leaders);
        }
        for c in &self.commands {
            reference("command", &c.id, "side", Some(&c.side), &sides);
            reference("command", &c.id, "parent", c.parent.as_deref(), &commands);
        }
        for l in &self.leaders {
            reference("leader", &l.id, "side", Some(&l.side), &sides);
            reference("leader", &l.id, "command", l.commands.as_deref(), &commands);
            reference("leader", &l.id, "unit", l.attached_to.as_deref(), &units);
        }
        for u in &self.units {
            reference("unit", &u.id, "side", Some(&u.side), &sides);
            reference("unit", &u.id, "command", u.command.as_deref(), &commands);
            for leader in &u.leaders {
                reference("unit", &u.id, "leader", Some(leader), &leaders);
            }
            for attached in &u.attached {
                reference("unit", &u.id, "attached unit", Some(attached), &units);
            }
        }
        self.check_cycles(&mut errors);
        for l in &self.leaders {
            errors.extend(vocabulary.check_leader(l));
        }
        for u in &self.units {
            errors.extend(vocabulary.check_unit(u));
            if u.stands > u.starting_stands() {
                errors.push(UnitError::Stands { id: u.id.clone(), stands: u.stands, at_start: u.starting_stands() });
            }
        }
        errors
    }

    fn check_cycles(&self, errors: &mut Vec<UnitError>) {
        let parents: BTreeMap<&str, &str> =
            self.commands.iter().filter_map(|c| Some((c.id.as_str(), c.parent.as_deref()?))).collect();
        let mut reported = BTreeSet::new();
        for c in &self.commands {
            let mut path = vec![c.id.as_str()];
            let mut at = c.id.as_str();
            while let Some(&up) = parents.get(at) {
                if up == c.id {
                    // Report each cycle once, from its smallest id.
                    if path.iter().min() == Some(&c.id.as_str()) && reported.insert(c.id.clone()) {
                        path.push(up);
                        errors.push(UnitError::CommandCycle { id: c.id.clone(), chain: path.join(" > ") });
                    }
                    break;
                }
                if path.contains(&up) {
                    break;
                }
                path.push(up);
                at = up;
            }
        }
    }
}

/// Collects ids, reporting duplicates.
fn ids<'a>(items: impl Iterator<Item = &'a str>, kind: &'static str, errors: &mut Vec<UnitError>) -> BTreeSet<&'a str> {
    let mut seen = BTreeSet::new();
    for id in items {
        if !seen.insert(id) {
            errors.push(UnitError::DuplicateId { kind, id: id.to_string() });
        }
    }
    seen
}
