//! Procedure contracts (`contracts/<file>.yaml`): the parameters and situation keys each
//! entry procedure takes, with their kinds, words and text, checked when a call is made.

use std::collections::BTreeSet;
use std::fmt;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_saphyr::Spanned;

use super::problem::{Origin, Problem, SourceFile, did_you_mean};
use super::source::Source;
use super::table::LookupValue;
use super::yaml::{Entries, span_of};
use crate::unit::Vocabulary;

/// A contracts file: procedure name → its contract.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct ContractFile(
    #[schemars(with = "std::collections::BTreeMap<String, ContractDef>")] pub Entries<Spanned<String>, ContractDef>,
);

/// One procedure's contract as written.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContractDef {
    /// What the procedure does and returns, in a line or two.
    pub text: String,
    #[serde(default)]
    pub source: Option<Source>,
    /// The parameters, in the order the procedure takes them.
    #[schemars(with = "std::collections::BTreeMap<String, KeyDef>")]
    pub params: Entries<Spanned<String>, KeyDef>,
    /// The keys its `situation` map may hold (every one optional).
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, KeyDef>")]
    pub situation: Entries<Spanned<String>, KeyDef>,
    /// A player calls it (from the REPL, a scenario script or `odds`), not only other
    /// procedures: `check` does not ask what calls it.
    #[serde(default)]
    pub entry: bool,
    /// What the results it returns mean for the sides, for the odds a player asks first
    /// (`:odds`): each meaning with the results that bring it about, `{ the attacker carries
    /// the position: [swept, driven_back, hard_pressed] }`.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, Vec<String>>")]
    pub outcomes: Entries<Spanned<String>, Vec<Spanned<String>>>,
}

/// A parameter or a situation key as written.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyDef {
    /// unit, leader, units, leaders, number, int, bool, word, words, text, list, map, any, situation.
    #[serde(rename = "type")]
    #[schemars(with = "String")]
    pub kind: Spanned<String>,
    /// For `word` and `words`: the words allowed.
    #[serde(default)]
    pub words: Option<Vec<String>>,
    /// For `word` and `words`: the vocabulary field whose words are allowed (`nations`, `arms`...).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub vocabulary: Option<Spanned<String>>,
    /// What an absent key counts as (a situation key), for the reader.
    #[serde(default)]
    pub default: Option<LookupValue>,
    /// A parameter that may be `()`.
    #[serde(default)]
    pub optional: bool,
    /// For `map`: the keys it may hold, each a key of its own (absent: any map).
    #[serde(default)]
    #[schemars(with = "Option<std::collections::BTreeMap<String, KeyDef>>")]
    pub keys: Option<Entries<Spanned<String>, KeyDef>>,
    /// For `map`: its keys are those of this procedure's situation (a situation handed on
    /// whole), instead of `keys:`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub situation_of: Option<Spanned<String>>,
    /// For `list`: what each element is (absent: anything).
    #[serde(default)]
    pub items: Option<Box<KeyDef>>,
    /// The optional rule this key belongs to: given while the option is off, it is
    /// refused naming the switch, not quietly left unread.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub option: Option<Spanned<String>>,
    /// For a situation key: whose standing ground it is, a parameter that takes a unit (or
    /// units). At the table `:at 52nd hedge` gives it once for the unit, and each short
    /// resolution that names the unit there has it, until it is changed.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub of: Option<Spanned<String>>,
    /// One line for the reader.
    pub text: String,
    #[serde(default)]
    pub source: Option<Source>,
}

/// What a parameter or situation key holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Unit,
    Leader,
    Units,
    Leaders,
    Number,
    Int,
    Bool,
    Word,
    Words,
    Text,
    List,
    Map,
    Any,
    Situation,
}

impl Kind {
    pub const NAMES: [&'static str; 14] = [
        "unit",
        "leader",
        "units",
        "leaders",
        "number",
        "int",
        "bool",
        "word",
        "words",
        "text",
        "list",
        "map",
        "any",
        "situation",
    ];
    const ALL: [Kind; 14] = [
        Kind::Unit,
        Kind::Leader,
        Kind::Units,
        Kind::Leaders,
        Kind::Number,
        Kind::Int,
        Kind::Bool,
        Kind::Word,
        Kind::Words,
        Kind::Text,
        Kind::List,
        Kind::Map,
        Kind::Any,
        Kind::Situation,
    ];

    /// The kind named `name` in a contract file.
    pub fn named(name: &str) -> Option<Kind> {
        Kind::NAMES.iter().position(|n| *n == name).map(|i| Kind::ALL[i])
    }

    /// How an error says what is wanted: "a unit", "true or false".
    pub fn wanted(self) -> &'static str {
        match self {
            Kind::Unit => "a unit",
            Kind::Leader => "a leader",
            Kind::Units => "a list of units",
            Kind::Leaders => "a list of leaders",
            Kind::Number => "a number",
            Kind::Int => "a whole number",
            Kind::Bool => "true or false",
            Kind::Word => "a word",
            Kind::Words => "a word or a list of words",
            Kind::Text => "a text",
            Kind::List => "a list",
            Kind::Map => "a map",
            Kind::Any => "anything",
            Kind::Situation => "a map of situation keys",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = Kind::ALL.iter().position(|k| k == self).expect("every kind has a name");
        f.write_str(Kind::NAMES[i])
    }
}

/// A checked parameter or situation key.
#[derive(Clone, Debug)]
pub struct Key {
    pub name: String,
    pub kind: Kind,
    /// The words a `word` or `words` key takes; empty: any word.
    pub words: BTreeSet<String>,
    pub default: Option<LookupValue>,
    pub optional: bool,
    /// A `map`'s keys; `None`: any map.
    pub keys: Option<Vec<Key>>,
    /// A `list`'s element; `None`: anything.
    pub items: Option<Box<Key>>,
    /// The option without which this key is refused.
    pub option: Option<String>,
    /// The procedure whose situation keys this map takes, until `resolve` copies them in.
    pub situation_of: Option<(String, Origin)>,
    /// A situation key that is a unit's standing ground: the parameter whose unit it is.
    pub of: Option<String>,
    pub text: String,
    pub source: Option<Source>,
}

impl Key {
    /// The key of this map called `name`, when its keys are declared.
    pub fn key(&self, name: &str) -> Option<&Key> {
        self.keys.as_ref()?.iter().find(|k| k.name == name)
    }
}

/// A checked contract: what a call of `name` must pass.
#[derive(Clone, Debug)]
pub struct Contract {
    pub name: String,
    pub text: String,
    pub source: Source,
    pub params: Vec<Key>,
    pub situation: Vec<Key>,
    /// Where the contract's name is written.
    pub origin: Origin,
    /// A player calls it directly (`entry: true`).
    pub entry: bool,
    /// What its results mean for the sides (`outcomes:`), each meaning with its results and
    /// where each result is written (checked against the tables' results once all are read).
    pub outcomes: Vec<(String, Vec<(String, Origin)>)>,
}

impl Contract {
    /// The situation key called `name`.
    pub fn situation_key(&self, name: &str) -> Option<&Key> {
        self.situation.iter().find(|k| k.name == name)
    }

    /// `fire(firer, target, situation)`.
    pub fn signature(&self) -> String {
        let params: Vec<&str> = self.params.iter().map(|p| p.name.as_str()).collect();
        format!("{}({})", self.name, params.join(", "))
    }
}

/// The vocabulary fields a `word` key may take its words from.
const VOCABULARY_FIELDS: [&str; 7] = ["arms", "types", "grades", "formations", "orders", "nations", "markers"];

/// Checks a contracts file against the kinds and the ruleset's vocabulary, giving each
/// contract it holds; every mistake becomes a problem pointing into the file.
pub(super) fn build(
    file: &SourceFile,
    parsed: ContractFile,
    file_source: &Source,
    vocabulary: &Vocabulary,
    options: &[String],
    problems: &mut Vec<Problem>,
) -> Vec<Contract> {
    let mut contracts = Vec::new();
    for (name, def) in parsed.0.0 {
        let origin = Origin { file: file.clone(), span: span_of(file, &name) };
        let mut key = |what: &str, key_name: Spanned<String>, def: KeyDef| {
            build_key(
                file,
                &format!("{what} `{}` of `{}`", key_name.value, name.value),
                key_name,
                def,
                vocabulary,
                options,
                problems,
            )
        };
        let params: Vec<Key> = def.params.0.into_iter().filter_map(|(n, d)| key("parameter", n, d)).collect();
        let situation: Vec<Key> = def.situation.0.into_iter().filter_map(|(n, d)| key("situation key", n, d)).collect();
        // A standing ground is a unit's: `of` names a parameter that takes one.
        for key in &situation {
            let Some(of) = &key.of else { continue };
            if !params.iter().any(|p| p.name == *of && matches!(p.kind, Kind::Unit | Kind::Units | Kind::Any)) {
                let units = params.iter().filter(|p| matches!(p.kind, Kind::Unit | Kind::Units | Kind::Any));
                let hint = did_you_mean(of, units.map(|p| p.name.as_str()));
                problems.push(
                    Problem::error(
                        "rules::contract",
                        format!(
                            "situation key `{}` of `{}` is the ground `of: {of}`, which is no parameter taking a unit{hint}",
                            key.name, name.value
                        ),
                        file,
                        origin.span,
                    )
                    .with_label("this contract"),
                );
            }
        }
        let takes_situation = params.iter().any(|p| p.kind == Kind::Situation);
        if !situation.is_empty() && !takes_situation {
            problems.push(
                Problem::error(
                    "rules::contract",
                    format!("`{}` lists situation keys but no parameter of type situation", name.value),
                    file,
                    origin.span,
                )
                .with_label("here")
                .with_help("give the situation parameter `type: situation`"),
            );
        }
        let mut outcomes: Vec<(String, Vec<(String, Origin)>)> = Vec::new();
        for (meaning, results) in def.outcomes.0 {
            let mut each = Vec::new();
            for result in results {
                let at = Origin { file: file.clone(), span: span_of(file, &result) };
                if outcomes.iter().flat_map(|(_, r)| r).chain(&each).any(|(r, _): &(String, Origin)| *r == result.value)
                {
                    problems.push(
                        Problem::error(
                            "rules::contract",
                            format!(
                                "the result `{}` is given two meanings in the outcomes of `{}`",
                                result.value, name.value
                            ),
                            file,
                            at.span,
                        )
                        .with_label("given a meaning before"),
                    );
                    continue;
                }
                each.push((result.value, at));
            }
            outcomes.push((meaning.value, each));
        }
        contracts.push(Contract {
            name: name.value,
            text: def.text.trim().to_string(),
            source: def.source.unwrap_or_else(|| file_source.clone()),
            params,
            situation,
            origin,
            entry: def.entry,
            outcomes,
        });
    }
    contracts
}

/// One parameter or situation key checked (`what` names it in errors: "situation key
/// `range` of `fire`"): its type, its words and its vocabulary field, its option (one of
/// `options`), and a map's keys and a list's element, each checked as a key of its own.
pub(super) fn build_key(
    file: &SourceFile,
    what: &str,
    key_name: Spanned<String>,
    def: KeyDef,
    vocabulary: &Vocabulary,
    options: &[String],
    problems: &mut Vec<Problem>,
) -> Option<Key> {
    let kind = match Kind::named(&def.kind.value) {
        Some(kind) => kind,
        None => {
            let hint = did_you_mean(&def.kind.value, Kind::NAMES.into_iter());
            problems.push(
                Problem::error(
                    "rules::contract",
                    format!("{what} has no type `{}`{hint}", def.kind.value),
                    file,
                    span_of(file, &def.kind),
                )
                .with_label("not a type")
                .with_help(format!("types: {}", Kind::NAMES.join(", "))),
            );
            return None;
        }
    };
    let mut words: BTreeSet<String> = def.words.unwrap_or_default().into_iter().collect();
    if let Some(field) = &def.vocabulary {
        match vocabulary.field(&field.value) {
            Some(set) => words.extend(set.iter().cloned()),
            None => {
                let hint = did_you_mean(&field.value, VOCABULARY_FIELDS.into_iter());
                problems.push(
                    Problem::error(
                        "rules::contract",
                        format!("the vocabulary has no field `{}`{hint}", field.value),
                        file,
                        span_of(file, field),
                    )
                    .with_label("not a vocabulary field")
                    .with_help(format!("fields: {}", VOCABULARY_FIELDS.join(", "))),
                );
            }
        }
    }
    if !words.is_empty() && !matches!(kind, Kind::Word | Kind::Words) {
        problems.push(
            Problem::error(
                "rules::contract",
                format!("{what} is {kind}: only a word or words takes `words:` or `vocabulary:`"),
                file,
                span_of(file, &def.kind),
            )
            .with_label("give `type: word` or `type: words`"),
        );
    }
    // A map's keys and a list's element are keys of their own, checked the same way.
    let keys = def.keys.map(|entries| {
        if kind != Kind::Map {
            problems.push(
                Problem::error(
                    "rules::contract",
                    format!("{what} is {kind}: only a map takes `keys:`"),
                    file,
                    span_of(file, &def.kind),
                )
                .with_label("give `type: map`"),
            );
        }
        entries
            .0
            .into_iter()
            .filter_map(|(n, d)| {
                let inner = format!("key `{}` of {what}", n.value);
                build_key(file, &inner, n, d, vocabulary, options, problems)
            })
            .collect::<Vec<Key>>()
    });
    let situation_of = def.situation_of.map(|name| {
        if kind != Kind::Map || keys.is_some() {
            problems.push(
                Problem::error(
                    "rules::contract",
                    format!("{what}: only a map without `keys:` takes `situation_of:`"),
                    file,
                    span_of(file, &name),
                )
                .with_label("here"),
            );
        }
        let origin = Origin { file: file.clone(), span: span_of(file, &name) };
        (name.value, origin)
    });
    let items = def.items.and_then(|item| {
        if kind != Kind::List {
            problems.push(
                Problem::error(
                    "rules::contract",
                    format!("{what} is {kind}: only a list takes `items:`"),
                    file,
                    span_of(file, &def.kind),
                )
                .with_label("give `type: list`"),
            );
        }
        let name = Spanned { value: "item".to_string(), referenced: def.kind.referenced, defined: def.kind.defined };
        build_key(file, &format!("an item of {what}"), name, *item, vocabulary, options, problems).map(Box::new)
    });
    if let Some(option) = &def.option
        && !options.contains(&option.value)
    {
        let hint = did_you_mean(&option.value, options.iter().map(String::as_str));
        problems.push(
            Problem::error(
                "rules::unknown_option",
                format!("{what} belongs to option `{}`, which does not exist{hint}", option.value),
                file,
                span_of(file, option),
            )
            .with_label("no such option"),
        );
    }
    Some(Key {
        name: key_name.value,
        kind,
        words,
        default: def.default,
        optional: def.optional,
        keys,
        items,
        option: def.option.map(|o| o.value),
        situation_of,
        of: def.of.map(|o| o.value),
        text: def.text.trim().to_string(),
        source: def.source,
    })
}

/// Gives every map key with `situation_of: NAME` the situation keys of `NAME`'s contract,
/// once every layer's contracts are loaded; a name with no situation is a problem.
pub(super) fn resolve(contracts: &mut std::collections::BTreeMap<String, Contract>, problems: &mut Vec<Problem>) {
    let situations: std::collections::BTreeMap<String, Vec<Key>> =
        contracts.iter().map(|(name, c)| (name.clone(), c.situation.clone())).collect();
    // `depth` stops two situations that hold each other from copying without end.
    fn walk(
        key: &mut Key,
        situations: &std::collections::BTreeMap<String, Vec<Key>>,
        depth: usize,
        problems: &mut Vec<Problem>,
    ) {
        if depth > 8 {
            key.situation_of = None;
            return;
        }
        if let Some((name, origin)) = key.situation_of.take() {
            match situations.get(&name).filter(|keys| !keys.is_empty()) {
                Some(keys) => key.keys = Some(keys.clone()),
                None => {
                    let with = situations.iter().filter(|(_, k)| !k.is_empty()).map(|(n, _)| n.as_str());
                    let hint = did_you_mean(&name, with);
                    problems.push(
                        Problem::error(
                            "rules::contract",
                            format!(
                                "`{}` takes the situation of `{name}`, which has no contract with situation keys{hint}",
                                key.name
                            ),
                            &origin.file,
                            origin.span,
                        )
                        .with_label("no such contract"),
                    );
                }
            }
        }
        for inner in key.keys.iter_mut().flatten() {
            walk(inner, situations, depth + 1, problems);
        }
        if let Some(items) = key.items.as_deref_mut() {
            walk(items, situations, depth + 1, problems);
        }
    }
    for contract in contracts.values_mut() {
        for key in contract.params.iter_mut().chain(contract.situation.iter_mut()) {
            walk(key, &situations, 0, problems);
        }
    }
}
