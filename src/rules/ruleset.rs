//! `Ruleset`: a loaded, checked ruleset (a base and its overlays), with its options and interpretations as switched.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::modifier::ModifierList;
use super::problem::{Problem, SourceFile};
use super::settings::{Settings, Switches};
use super::source::Source;
use super::switch_error::{SwitchError, SwitchKind};
use super::switched_table::SwitchedTable;
use super::table::Table;
use crate::dice::DiceConventions;
use crate::measure::Scale;
use crate::unit::Vocabulary;

/// A ruleset ready to use: every layer (the base, then each overlay) merged.
#[derive(Clone, Debug)]
pub struct Ruleset {
    /// The id of the top layer (the overlay, when there is one).
    pub id: String,
    pub title: String,
    pub source: Source,
    /// The base first, then each overlay in order.
    pub layers: Vec<Layer>,
    pub dice: DiceConventions,
    pub scale: Scale,
    pub vocabulary: Vocabulary,
    pub options: BTreeMap<String, OptionInfo>,
    /// Values the rules give procedures by name (`constant("struggle_cap")`), the last layer's.
    pub constants: BTreeMap<String, ConstantInfo>,
    pub interpretations: BTreeMap<String, InterpretationInfo>,
    /// The options and interpretations as now switched.
    pub settings: Settings,
    /// Every table as it reads with the switches as they stand.
    pub tables: BTreeMap<String, Table>,
    /// The tables a patch changes only under an option or interpretation: each way they read.
    pub switched_tables: BTreeMap<String, SwitchedTable>,
    pub modifiers: BTreeMap<String, ModifierList>,
    /// Procedure files in load order; a later layer's function replaces an
    /// earlier one of the same name and arity.
    pub procedures: Vec<Procedure>,
    /// What each entry procedure takes (`contracts/`), by procedure name.
    pub contracts: BTreeMap<String, super::contract::Contract>,
    /// The kinds of unit the ruleset names (`unit_templates:`), by name.
    pub unit_templates: BTreeMap<String, super::unit_template::UnitTemplate>,
    /// What the layers keep although nothing reads it (`unused:`), each with why.
    pub unused: super::unused::Unused,
    /// The sequence of play (`sequence:`), the last layer's that gives one.
    pub sequence: Option<super::sequence::Sequence>,
}

/// One folder of a ruleset.
#[derive(Clone, Debug)]
pub struct Layer {
    pub id: String,
    pub title: String,
    pub folder: PathBuf,
    pub extends: Option<String>,
    /// Its `ruleset.yaml`, to point into.
    pub manifest: SourceFile,
}

/// A value the rules give procedures by name, with where it comes from.
#[derive(Clone, Debug)]
pub struct ConstantInfo {
    pub value: super::table::LookupValue,
    pub text: String,
    pub source: Source,
    /// Where its name is written (the last layer's that gives it).
    pub written: super::problem::Origin,
    /// Whether a lower layer gave it first (so the layer changes it, and adds nothing).
    pub replaces_below: bool,
}

/// An optional rule.
#[derive(Clone, Debug)]
pub struct OptionInfo {
    pub text: String,
    pub default: bool,
    pub number: Option<String>,
    /// The unit words and markers read only under this option.
    pub brings: Vec<super::option_inputs::Brought>,
    pub source: Source,
}

/// A named ambiguity and its choices.
#[derive(Clone, Debug)]
pub struct InterpretationInfo {
    pub text: String,
    pub inventory: Option<String>,
    /// Each choice and what it means, in written order.
    pub choices: Vec<(String, String)>,
    pub default: String,
    pub source: Source,
}

/// A procedure file (`procedures/<name>.rhai`).
#[derive(Clone, Debug)]
pub struct Procedure {
    /// The file name without `.rhai`.
    pub name: String,
    pub file: SourceFile,
    /// The folder imports are confined to (the layer's folder).
    pub folder: PathBuf,
    /// The layer it belongs to: its index in `Ruleset::layers`.
    pub layer: usize,
}

impl Ruleset {
    /// The chart order of the table whose results are most of `words` (empty when none is):
    /// the order a table's results are shown in, in odds and in study summaries alike.
    pub fn chart_order(&self, words: &[&str]) -> &[String] {
        self.tables
            .values()
            .map(|t| (words.iter().filter(|w| t.result_order.iter().any(|r| r == *w)).count(), &t.result_order))
            .filter(|(n, _)| *n > 0)
            .max_by_key(|(n, _)| *n)
            .map_or(&[], |(_, order)| order.as_slice())
    }

    /// A ruleset with nothing in it: dice, units and leaders only (a REPL started without rules).
    pub fn empty() -> Self {
        Ruleset {
            id: "none".into(),
            title: "no ruleset".into(),
            source: Source::House,
            layers: Vec::new(),
            dice: DiceConventions::default(),
            scale: Scale::table_only(),
            vocabulary: Vocabulary::default(),
            options: BTreeMap::new(),
            constants: BTreeMap::new(),
            interpretations: BTreeMap::new(),
            settings: Settings::default(),
            tables: BTreeMap::new(),
            switched_tables: BTreeMap::new(),
            modifiers: BTreeMap::new(),
            procedures: Vec::new(),
            contracts: BTreeMap::new(),
            unit_templates: BTreeMap::new(),
            sequence: None,
            unused: BTreeMap::new(),
        }
    }

    /// Whether an option is on.
    pub fn option(&self, name: &str) -> Result<bool, SwitchError> {
        self.settings
            .options
            .get(name)
            .copied()
            .ok_or_else(|| self.unknown(SwitchKind::Option, name, self.options.keys()))
    }

    /// The chosen interpretation.
    pub fn interpretation(&self, name: &str) -> Result<&str, SwitchError> {
        self.settings
            .interpretations
            .get(name)
            .map(String::as_str)
            .ok_or_else(|| self.unknown(SwitchKind::Interpretation, name, self.interpretations.keys()))
    }

    /// Switches an option on or off.
    pub fn set_option(&mut self, name: &str, on: bool) -> Result<(), SwitchError> {
        if !self.options.contains_key(name) {
            return Err(self.unknown(SwitchKind::Option, name, self.options.keys()));
        }
        self.settings.options.insert(name.to_string(), on);
        self.select_tables();
        Ok(())
    }

    /// Chooses an interpretation.
    pub fn set_interpretation(&mut self, name: &str, choice: &str) -> Result<(), SwitchError> {
        let Some(info) = self.interpretations.get(name) else {
            return Err(self.unknown(SwitchKind::Interpretation, name, self.interpretations.keys()));
        };
        if !info.choices.iter().any(|(c, _)| c == choice) {
            return Err(SwitchError::NoSuchChoice {
                name: name.to_string(),
                choice: choice.to_string(),
                choices: info.choices.iter().map(|(c, _)| c.clone()).collect(),
            });
        }
        self.settings.interpretations.insert(name.to_string(), choice.to_string());
        self.select_tables();
        Ok(())
    }

    /// Each table a switched patch changes, as it reads with the switches as they stand.
    pub fn select_tables(&mut self) {
        for (id, switched) in &self.switched_tables {
            self.tables.insert(id.clone(), switched.select(&self.settings).clone());
        }
    }

    /// Applies command-line switches; every bad name is a problem, with a suggestion.
    pub fn apply(&mut self, switches: &Switches) -> Result<(), Vec<Problem>> {
        let mut problems = Vec::new();
        let mut push = |result: Result<(), SwitchError>| {
            if let Err(err) = result {
                problems.push(Problem::general("rules::unknown_switch", err.to_string()));
            }
        };
        for name in &switches.with {
            push(self.set_option(name, true));
        }
        for name in &switches.without {
            push(self.set_option(name, false));
        }
        for (name, choice) in &switches.set {
            push(self.set_interpretation(name, choice));
        }
        if problems.is_empty() { Ok(()) } else { Err(problems) }
    }

    fn unknown<'a>(&self, kind: SwitchKind, name: &str, known: impl Iterator<Item = &'a String>) -> SwitchError {
        SwitchError::Unknown { ruleset: self.id.clone(), kind, name: name.to_string(), known: known.cloned().collect() }
    }
}
