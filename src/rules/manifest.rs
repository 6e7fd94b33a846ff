//! `ruleset.yaml`: a ruleset's identity, dice conventions, scale, vocabulary, options and interpretations.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_saphyr::Spanned;

use super::dice_section::{DiceSchema, DiceSection};
use super::source::Source;
use super::table::LookupValue;
use super::yaml::Entries;
use crate::measure::Scale;
use crate::unit::Vocabulary;

/// `ruleset.yaml` as written. An overlay has `extends:` and may switch the
/// base's options and interpretations with `with`, `without` and `set`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManifestFile {
    /// The ruleset's id, the same as its folder name: `ff-napoleonic`.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    pub title: String,
    pub source: Source,
    /// For an overlay: the ruleset it changes.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub extends: Option<Spanned<String>>,
    /// How dice are read, and the dice the ruleset names: `{ d10: "0-9", avg: [2, 3, 3, 4, 4, 5] }`.
    #[serde(default)]
    #[schemars(with = "Option<DiceSchema>")]
    pub dice: Option<DiceSection>,
    /// Ground and figure scale.
    #[serde(default)]
    pub scale: Option<Scale>,
    /// The words units may use (arms, formations, orders...).
    #[serde(default)]
    pub vocabulary: Vocabulary,
    /// Optional rules, each on or off.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, OptionDef>")]
    pub options: Entries<Spanned<String>, OptionDef>,
    /// Named ambiguities, each with its choices and a default.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, InterpretationDef>")]
    pub interpretations: Entries<Spanned<String>, InterpretationDef>,
    /// Options this file switches on (an overlay's house rules).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub with: Vec<Spanned<String>>,
    /// Options this file switches off.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub without: Vec<Spanned<String>>,
    /// Values the rules give procedures by name, each with its source:
    /// `{ struggle_cap: { value: 10, text: ..., source: ... } }`. An overlay's replace the base's.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, ConstantDef>")]
    pub constants: Entries<Spanned<String>, ConstantDef>,
    /// Fields of its own the ruleset gives units: `{ skirmishers: { type: bool, default: false,
    /// text: ..., source: house } }`. A unit gives them under `fields:`; procedures read them
    /// as properties (`target.skirmishers`).
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, UnitFieldDef>")]
    pub unit_fields: Entries<Spanned<String>, UnitFieldDef>,
    /// The kernel fields a unit may leave out, and what it then has: `{ stands: 4 }`.
    #[serde(default)]
    pub unit_defaults: Option<UnitDefaultsDef>,
    /// Kinds of unit by name, each with what its units have: `{ british_line: { text: ...,
    /// source: house, unit: { nation: britain, arm: infantry, stands: 6, formation: line } } }`.
    /// `unit("54th Foot", "british_line")` makes one. An overlay's replace the base's.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, UnitTemplateDef>")]
    pub unit_templates: Entries<Spanned<String>, UnitTemplateDef>,
    /// Interpretations this file chooses: `{ name: choice }`.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub set: Entries<Spanned<String>, Spanned<String>>,
    /// What the ruleset keeps although no procedure, modifier or condition reads it, each
    /// with why: `{ markers: { retreat: "the player moves the unit back" } }`.
    #[serde(default)]
    pub unused: super::unused::UnusedDef,
    /// The sequence of play: the phases of a turn, and the facts a phase or turn keeps.
    #[serde(default)]
    pub sequence: Option<super::sequence::SequenceDef>,
}

/// An optional rule.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionDef {
    /// What the rule does, in a sentence.
    pub text: String,
    /// On or off unless switched.
    #[serde(default)]
    pub default: bool,
    /// The rule's number in its source, e.g. "513".
    #[serde(default)]
    pub number: Option<String>,
    /// Unit words and markers that mean something only under this rule: given while it
    /// is off, they are refused naming the switch.
    #[serde(default)]
    pub brings: Vec<super::option_inputs::BroughtDef>,
    pub source: Source,
}

/// An ambiguity of the seed, made a switch.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InterpretationDef {
    /// The question, in a sentence.
    pub text: String,
    /// The RULES-INVENTORY id it comes from, e.g. "FF-TAB-MUSKETRY".
    #[serde(default)]
    pub inventory: Option<String>,
    /// Each choice and what it means.
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub choices: Entries<Spanned<String>, String>,
    /// The choice used unless another is set.
    #[schemars(with = "String")]
    pub default: Spanned<String>,
    pub source: Source,
}

/// A value the rules give procedures by name (`constant("struggle_cap")`), with its source.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConstantDef {
    /// A number, a word or true/false (or a mapping of them, as a lookup table's values).
    pub value: LookupValue,
    /// What it is, in a sentence.
    pub text: String,
    pub source: Source,
}

/// A unit field of a ruleset's own, as written.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitFieldDef {
    /// `bool`, `int` or `word`.
    #[serde(rename = "type")]
    pub kind: UnitFieldType,
    /// What a unit that does not give it has.
    #[schemars(with = "crate::unit::Marker")]
    pub default: Spanned<crate::unit::Marker>,
    /// For a word: the words it may be (any, when left out).
    #[serde(default)]
    pub words: Vec<String>,
    /// What it is, in a sentence.
    pub text: String,
    pub source: Source,
}

/// A kind of unit the ruleset names.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitTemplateDef {
    /// What it is, in a sentence.
    pub text: String,
    pub source: Source,
    /// What its units have, as a unit spec writes it: side, nation, arm, type, grade, stands,
    /// formation, order, markers, fields, command.
    pub unit: serde_json::Map<String, serde_json::Value>,
}

/// The kind of value a ruleset's unit field holds.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnitFieldType {
    Bool,
    Int,
    Word,
}

/// Kernel fields a unit may leave out, with what it then has.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitDefaultsDef {
    #[serde(default)]
    pub stands: Option<u32>,
    #[serde(default)]
    pub arm: Option<String>,
    #[serde(default)]
    pub formation: Option<String>,
}
