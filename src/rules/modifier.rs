//! Modifier lists (`modifiers/<id>.yaml`): each modifier's value or halving, its `when:` condition,
//! text and source; and what the rules decide about them before any unit is looked at: the
//! options and interpretations that gate a modifier (`gate`), and the groups that keep only the
//! best or worst of their members (`apply_groups`, over each modifier's `Verdict`).

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

use super::problem::Origin;
use super::settings::{ChoicesDef, Settings};
use super::source::Source;
use super::yaml::Entries;

/// A modifier list file as written.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModifierFile {
    /// The list's id; the file name without `.yaml` when left out.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub id: Option<Spanned<String>>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub source: Option<Source>,
    /// The table these modifiers change the roll on, if any.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub table: Option<Spanned<String>>,
    /// Groups of modifiers that do not all add up: `{ cover: worst }` keeps
    /// only the most negative of the group; a group's rule may follow an
    /// interpretation: `{ leaders: { interpretation: leader_stacking, choices: { tier: best, stack: all } } }`.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, GroupDef>")]
    pub groups: Entries<Spanned<String>, GroupDef>,
    /// What the conditions may read off `situation`, as a contract lists situation keys.
    /// `check` refuses a condition reading any other key, or comparing a key with a word
    /// not among its words.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, super::contract::KeyDef>")]
    pub situation: Entries<Spanned<String>, super::contract::KeyDef>,
    /// Instead of `situation`: the procedure whose situation the conditions read, passed on
    /// as it was given (`situation_of: fire`, its contract's keys).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub situation_of: Option<Spanned<String>>,
    pub modifiers: Vec<ModifierDef>,
}

/// What a list's conditions may read off `situation`, checked.
#[derive(Clone, Debug)]
pub enum ListSituation {
    /// The situation of this procedure's contract (where the list is named).
    Of(String, Origin),
    Keys(Vec<super::contract::Key>),
}

/// Which of a group's applicable modifiers count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Pick {
    /// All of them add up.
    All,
    /// Only the largest value.
    Best,
    /// Only the smallest (most negative) value.
    Worst,
}

/// A group's rule as written.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum GroupDef {
    Fixed(Pick),
    ByInterpretation {
        #[schemars(with = "String")]
        interpretation: Spanned<String>,
        choices: std::collections::BTreeMap<String, Pick>,
    },
}

/// A group's rule, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GroupRule {
    Fixed(Pick),
    ByInterpretation { interpretation: String, choices: std::collections::BTreeMap<String, Pick> },
}

/// One modifier as written. Exactly one of `value`, `halve` and `double`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModifierDef {
    /// Unique in its list; an overlay changes or removes a modifier by it.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// Added to the roll: `+2`, `-1`.
    #[serde(default)]
    #[schemars(with = "Option<i64>")]
    pub value: Option<Spanned<i64>>,
    /// A quantity halved instead, e.g. `fire_points`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub halve: Option<Spanned<String>>,
    /// A quantity doubled instead.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub double: Option<Spanned<String>>,
    /// A Rhai expression over `firer`, `target`, `attacker`, `defender`,
    /// `unit`, `leader` and `situation`; the modifier always applies without it.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub when: Option<Spanned<String>>,
    /// With `value`: a Rhai expression giving how many times the value counts,
    /// e.g. `situation.stands_lost` for "-1 for each stand lost".
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub per: Option<Spanned<String>>,
    /// The group it belongs to (see the list's `groups`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub group: Option<Spanned<String>>,
    /// Only while this option is on.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub option: Option<Spanned<String>>,
    /// Only under these interpretation choices: `{ name: choice }`, or
    /// `{ name: [choice, choice] }` for any of several.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, ChoicesDef>")]
    pub interpretation: Entries<Spanned<String>, ChoicesDef>,
    /// The modifier as the chart prints it.
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub source: Option<Source>,
    /// In an overlay: remove the base's modifier with this id.
    #[serde(default)]
    pub remove: bool,
}

/// What a modifier does when it applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ModEffect {
    /// Added to the roll.
    Add(i64),
    /// Halves the named quantity.
    Halve(String),
    /// Doubles the named quantity.
    Double(String),
}

impl fmt::Display for ModEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModEffect::Add(n) => write!(f, "{n:+}"),
            ModEffect::Halve(q) => write!(f, "halve {}", q.replace('_', " ")),
            ModEffect::Double(q) => write!(f, "double {}", q.replace('_', " ")),
        }
    }
}

/// A checked modifier.
#[derive(Clone, Debug)]
pub struct Modifier {
    pub id: String,
    pub effect: ModEffect,
    /// The condition's text; `None` when it always applies.
    pub when: Option<String>,
    pub option: Option<String>,
    /// Only while each named interpretation is set to one of its listed choices.
    pub interpretation: Vec<(String, Vec<String>)>,
    pub group: Option<String>,
    /// How many times the value counts, as written (`situation.stands_lost`), and where.
    pub per: Option<(String, Origin)>,
    pub text: String,
    pub source: Source,
    /// Where the condition is written, for errors at run time.
    pub origin: Origin,
}

/// A checked modifier list.
#[derive(Clone, Debug)]
pub struct ModifierList {
    pub id: String,
    pub title: String,
    pub source: Source,
    pub table: Option<String>,
    pub groups: std::collections::BTreeMap<String, GroupRule>,
    /// What the conditions may read off `situation`, when the list says.
    pub situation: Option<ListSituation>,
    pub modifiers: Vec<Modifier>,
    /// The file that first wrote the list (a later layer's file of the same id changes it):
    /// it tells which layer added the list.
    pub file: super::problem::SourceFile,
}

/// Whether a modifier applies, why not, how many times it counts and what it adds.
pub struct Verdict<'a> {
    pub applies: bool,
    pub why_not: Option<WhyNot<'a>>,
    pub times: Option<i64>,
    pub value: i64,
}

/// Why an option or interpretation keeps a modifier out, if one does.
pub fn gate<'m>(settings: &Settings, m: &'m Modifier) -> Option<WhyNot<'m>> {
    if let Some(option) = &m.option
        && !settings.options.get(option).copied().unwrap_or(false)
    {
        return Some(WhyNot::OptionOff(option));
    }
    m.interpretation
        .iter()
        .find(|(name, choices)| !settings.interpretations.get(name).is_some_and(|set| choices.contains(set)))
        .map(|(name, choices)| WhyNot::Interpretation(name, choices))
}

/// Why a modifier does not apply, worded only when a trace records it.
pub enum WhyNot<'a> {
    OptionOff(&'a str),
    Interpretation(&'a str, &'a [String]),
    CountsZero,
    /// Left out to see what the odds are without it (attribution).
    LeftOut,
    Group {
        word: &'static str,
        group: &'a str,
        kept: &'a str,
    },
}

impl std::fmt::Display for WhyNot<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WhyNot::OptionOff(option) => write!(f, "option {option} is off"),
            WhyNot::Interpretation(name, choices) => write!(f, "{name} is not {}", choices.join(" or ")),
            WhyNot::CountsZero => f.write_str("counts 0 times"),
            WhyNot::LeftOut => f.write_str("left out to see the odds without it"),
            WhyNot::Group { word, group, kept } => write!(f, "only the {word} of group {group} counts: {kept}"),
        }
    }
}

/// Keeps, in each group whose rule is `best` or `worst`, only the one
/// applicable modifier with the largest (or smallest) value; the first listed wins a tie.
pub fn apply_groups<'a>(settings: &Settings, list: &'a ModifierList, verdicts: &mut [Verdict<'a>]) {
    for (group, rule) in &list.groups {
        let pick = match rule {
            GroupRule::Fixed(pick) => *pick,
            GroupRule::ByInterpretation { interpretation, choices } => settings
                .interpretations
                .get(interpretation)
                .and_then(|choice| choices.get(choice))
                .copied()
                .unwrap_or(Pick::All),
        };
        if pick == Pick::All {
            continue;
        }
        let members: Vec<(usize, i64)> = list
            .modifiers
            .iter()
            .enumerate()
            .filter(|(i, m)| m.group.as_deref() == Some(group.as_str()) && verdicts[*i].applies)
            .filter(|(_, m)| matches!(m.effect, ModEffect::Add(_)))
            .map(|(i, _)| (i, verdicts[i].value))
            .collect();
        let keep = match pick {
            Pick::Best => members.iter().copied().reduce(|a, b| if b.1 > a.1 { b } else { a }),
            _ => members.iter().copied().reduce(|a, b| if b.1 < a.1 { b } else { a }),
        };
        let Some((kept, _)) = keep else { continue };
        let word = if pick == Pick::Best { "best" } else { "worst" };
        for (i, _) in members {
            if i != kept {
                verdicts[i].applies = false;
                verdicts[i].why_not = Some(WhyNot::Group { word, group, kept: &list.modifiers[kept].id });
            }
        }
    }
}

impl Modifier {
    /// `modifiers/fire.yaml:12:11`: where the condition is written.
    pub fn origin_text(&self) -> String {
        let problem = super::problem::Problem::error("", "", &self.origin.file, self.origin.span);
        problem.place()
    }
}
