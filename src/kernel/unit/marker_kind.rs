//! `MarkerKind`: the value a ruleset's marker takes (a flag, a count, a word or one of its
//! words, or any of several) and, for a value it does not take, why in words.

use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use super::unit::Marker;

/// What a marker holds, as a ruleset declares it under `vocabulary: markers:`:
/// `spent: flag`, `stunned_turns: count`, `stunned_with: word`,
/// `battery: { words: [limbered, silenced] }`, `battalion_guns: [flag, count]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarkerKind {
    /// true or false.
    Flag,
    /// A whole number.
    Count,
    /// A word: one of these, or any word when there are none.
    Word(BTreeSet<String>),
    /// Any of these kinds (never itself `Either`).
    Either(Vec<MarkerKind>),
}

/// The kinds as a ruleset names them.
pub const KIND_NAMES: [&str; 3] = ["flag", "count", "word"];

/// How a ruleset writes a marker's kinds, for an error that tells how.
pub const KIND_EXAMPLE: &str =
    "markers: { spent: flag, stunned_turns: count, stunned_with: word, battery: { words: [silenced, damaged] } }";

impl MarkerKind {
    /// The kinds this is one of.
    fn each(&self) -> &[MarkerKind] {
        match self {
            MarkerKind::Either(kinds) => kinds,
            one => std::slice::from_ref(one),
        }
    }

    fn takes_flag(&self) -> bool {
        self.each().iter().any(|k| matches!(k, MarkerKind::Flag))
    }

    fn takes_count(&self) -> bool {
        self.each().iter().any(|k| matches!(k, MarkerKind::Count))
    }

    /// Whether `value` is one this marker takes.
    pub fn holds(&self, value: &Marker) -> bool {
        self.each().iter().any(|kind| match (kind, value) {
            (MarkerKind::Flag, Marker::Flag(_)) | (MarkerKind::Count, Marker::Count(_)) => true,
            (MarkerKind::Word(words), Marker::Text(word)) => words.is_empty() || words.contains(word),
            _ => false,
        })
    }

    /// What it takes, in words: "a flag, true or false", "a count (a whole number) or ...".
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .each()
            .iter()
            .map(|kind| match kind {
                MarkerKind::Flag => "a flag, true or false".to_string(),
                MarkerKind::Count => "a count, a whole number".to_string(),
                MarkerKind::Word(words) if words.is_empty() => "a word".to_string(),
                MarkerKind::Word(words) => {
                    format!("a word, one of {}", words.iter().cloned().collect::<Vec<_>>().join(", "))
                }
                MarkerKind::Either(_) => unreachable!("an `Either` holds no `Either`"),
            })
            .collect();
        parts.join("; or ")
    }

    /// Why `value` is not one `name` takes, if it is not: "`spent` is a flag, true or false,
    /// not the text "no" (did you mean false?)".
    pub fn fault(&self, name: &str, value: &Marker) -> Option<String> {
        if self.holds(value) {
            return None;
        }
        let hint = self.meant(value).map(|m| format!(" (did you mean {m}?)")).unwrap_or_default();
        Some(format!("`{name}` is {}, not {}{hint}", self.describe(), shown(value)))
    }

    /// The value of this kind the writer may have meant by `value`: `false` for "no".
    pub fn meant(&self, value: &Marker) -> Option<String> {
        let flag = |b: bool| self.takes_flag().then(|| b.to_string());
        match value {
            Marker::Text(text) => {
                let lower = text.trim().to_lowercase();
                match lower.as_str() {
                    "no" | "false" | "off" | "n" => return flag(false),
                    "yes" | "true" | "on" | "y" => return flag(true),
                    _ => {}
                }
                if let Ok(n) = lower.parse::<i64>()
                    && self.takes_count()
                {
                    return Some(n.to_string());
                }
                if let Ok(n) = lower.parse::<i64>()
                    && let 0 | 1 = n
                {
                    return flag(n == 1);
                }
                self.each().iter().find_map(|kind| match kind {
                    MarkerKind::Word(words) => crate::kernel::spelling::closest(text, words.iter().map(String::as_str))
                        .map(|w| format!("`{w}`")),
                    _ => None,
                })
            }
            Marker::Count(n @ (0 | 1)) => flag(*n == 1),
            Marker::Flag(b) if self.takes_count() => Some(i64::from(*b).to_string()),
            _ => None,
        }
    }
}

/// A value as an error names it: "the flag true", "the number 3", "the text "no"".
pub fn shown(value: &Marker) -> String {
    match value {
        Marker::Flag(b) => format!("the flag {b}"),
        Marker::Count(n) => format!("the number {n}"),
        Marker::Text(t) => format!("the text {t:?}"),
    }
}

impl Serialize for MarkerKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            MarkerKind::Flag => s.serialize_str("flag"),
            MarkerKind::Count => s.serialize_str("count"),
            MarkerKind::Word(words) if words.is_empty() => s.serialize_str("word"),
            MarkerKind::Word(words) => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry("words", words)?;
                map.end()
            }
            MarkerKind::Either(kinds) => {
                let mut seq = s.serialize_seq(Some(kinds.len()))?;
                for kind in kinds {
                    seq.serialize_element(kind)?;
                }
                seq.end()
            }
        }
    }
}

/// Read as written: a kind's name, `{ words: [...] }`, or a list of these; anything else is
/// refused in words that say how to write it.
impl<'de> Deserialize<'de> for MarkerKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(KindVisitor { nested: false })
    }
}

struct KindVisitor {
    /// Inside a list of kinds, where another list is not allowed.
    nested: bool,
}

impl<'de> Visitor<'de> for KindVisitor {
    type Value = MarkerKind;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a marker's kind: flag, count, word, {{ words: [...] }} or a list of these ([flag, count])")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<MarkerKind, E> {
        match name {
            "flag" => Ok(MarkerKind::Flag),
            "count" => Ok(MarkerKind::Count),
            "word" => Ok(MarkerKind::Word(BTreeSet::new())),
            other => {
                let hint = crate::kernel::spelling::closest(other, KIND_NAMES)
                    .map(|k| format!(" (did you mean {k}?)"))
                    .unwrap_or_default();
                Err(E::custom(format!(
                    "`{other}` is not a marker's kind{hint}: a marker is a flag, a count, a word, \
                     {{ words: [...] }} or a list of these ([flag, count])"
                )))
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MarkerKind, A::Error> {
        let mut words: Option<BTreeSet<String>> = None;
        while let Some(key) = map.next_key::<String>()? {
            if key != "words" {
                return Err(de::Error::custom(format!(
                    "a marker's kind written as a map takes only `words`, not `{key}`: {{ words: [silenced, damaged] }}"
                )));
            }
            words = Some(map.next_value()?);
        }
        match words {
            Some(words) if !words.is_empty() => Ok(MarkerKind::Word(words)),
            _ => Err(de::Error::custom("a marker's `words:` lists at least one word (or write `word` for any word)")),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<MarkerKind, A::Error> {
        if self.nested {
            return Err(de::Error::custom("a list of a marker's kinds holds kinds, not another list"));
        }
        let mut kinds = Vec::new();
        while let Some(kind) = seq.next_element_seed(KindSeed)? {
            kinds.push(kind);
        }
        match kinds.len() {
            0 => Err(de::Error::custom("a list of a marker's kinds names at least one: [flag, count]")),
            1 => Ok(kinds.remove(0)),
            _ => Ok(MarkerKind::Either(kinds)),
        }
    }
}

/// One kind inside a list of kinds.
struct KindSeed;

impl<'de> de::DeserializeSeed<'de> for KindSeed {
    type Value = MarkerKind;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<MarkerKind, D::Error> {
        d.deserialize_any(KindVisitor { nested: true })
    }
}

/// A ruleset's markers as written: a map of names to kinds. The bare list of names that
/// rulesets once wrote is refused with how to give kinds, so that no value goes unchecked.
pub(super) fn markers<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<std::collections::BTreeMap<String, MarkerKind>, D::Error> {
    struct Markers;
    impl<'de> Visitor<'de> for Markers {
        type Value = std::collections::BTreeMap<String, MarkerKind>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "each marker with its kind: {KIND_EXAMPLE}")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = std::collections::BTreeMap::new();
            while let Some(name) = map.next_key::<String>()? {
                let kind = map.next_value::<MarkerKind>()?;
                if out.insert(name.clone(), kind).is_some() {
                    return Err(de::Error::custom(format!("the marker `{name}` is listed twice")));
                }
            }
            Ok(out)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(de::Error::custom(format!(
                "markers are listed with their kinds (flag, count, word or {{ words: [...] }}), \
                 so that a value of the wrong kind is refused: {KIND_EXAMPLE}"
            )))
        }
    }
    d.deserialize_any(Markers)
}

/// What value a marker takes (the shape of `MarkerKind` as written, for the JSON schema).
#[derive(schemars::JsonSchema)]
#[schemars(rename = "MarkerKind")]
#[allow(dead_code)]
#[serde(untagged)]
pub enum MarkerKindSchema {
    /// flag, count or word (any word).
    Name(KindName),
    /// A word, one of these: `{ words: [silenced, damaged] }`.
    Words { words: Vec<String> },
    /// Any of these kinds: `[flag, count]`.
    Either(Vec<MarkerKindSchema>),
}

/// A marker kind's name.
#[derive(schemars::JsonSchema)]
#[schemars(rename = "MarkerKindName")]
#[allow(dead_code)]
#[serde(rename_all = "snake_case")]
pub enum KindName {
    Flag,
    Count,
    Word,
}
