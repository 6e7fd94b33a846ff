//! The options and interpretations as set (`Settings`), the switches asked for (`Switches`), and
//! the interpretation choices a modifier or patch holds under (`ChoicesDef`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_saphyr::Spanned;

/// The current value of every option and interpretation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub options: BTreeMap<String, bool>,
    pub interpretations: BTreeMap<String, String>,
}

/// Switches asked for on the command line or in the REPL:
/// `--with OPTION`, `--without OPTION`, `--set INTERPRETATION=CHOICE`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Switches {
    pub with: Vec<String>,
    pub without: Vec<String>,
    pub set: Vec<(String, String)>,
}

/// The interpretation choices a modifier or patch holds under, as written: one word or a list.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ChoicesDef {
    #[schemars(with = "String")]
    One(Spanned<String>),
    #[schemars(with = "Vec<String>")]
    Many(Vec<Spanned<String>>),
}

impl ChoicesDef {
    /// The choices, in the order written.
    pub fn into_words(self) -> Vec<String> {
        match self {
            ChoicesDef::One(one) => vec![one.value],
            ChoicesDef::Many(many) => many.into_iter().map(|c| c.value).collect(),
        }
    }
}
