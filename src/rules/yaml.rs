//! Reading rule files as YAML (serde-saphyr, strict booleans), with errors pointing into the file.

use std::fmt;
use std::marker::PhantomData;

use miette::SourceSpan;
use serde::de::{Deserialize, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde_saphyr::{Location, Spanned};

use super::problem::{Problem, SourceFile};

/// Parses a whole rule file. YAML mistakes (syntax, a wrong type, an unknown
/// key, `yes` for a boolean) come back as one problem pointing into the file.
pub fn parse<T: DeserializeOwned>(file: &SourceFile) -> Result<T, Box<Problem>> {
    parse_with(file, serde_saphyr::options! { strict_booleans: true })
}

/// `parse`, within `budget` instead of the default one (for files larger than a person writes).
pub fn parse_with_budget<T: DeserializeOwned>(
    file: &SourceFile,
    budget: serde_saphyr::Budget,
) -> Result<T, Box<Problem>> {
    parse_with(file, serde_saphyr::options! { strict_booleans: true, budget: Some(budget) })
}

fn parse_with<T: DeserializeOwned>(file: &SourceFile, options: serde_saphyr::Options) -> Result<T, Box<Problem>> {
    serde_saphyr::from_str_with_options::<T>(file.inner(), options).map_err(|err| {
        let span = err.location().map_or((0, 0).into(), |l| location_span(file, &l));
        let message = err.without_snippet().to_string();
        // serde-saphyr appends " at line L, column C": the underline already shows where.
        let message = match message.rfind(" at line ") {
            Some(i) => message[..i].to_string(),
            None => message,
        };
        let code = if message.starts_with("unknown field") { "rules::unknown_key" } else { "rules::yaml" };
        let problem = Problem::error(code, message, file, span);
        Box::new(match code {
            "rules::unknown_key" => problem.with_help("check the spelling; `grognard schema` lists every key"),
            _ => problem,
        })
    })
}

/// The span of a YAML value in its file. A quoted scalar's span starts at the
/// quote; the underline is moved inside it so it covers the text itself.
pub fn location_span(file: &SourceFile, location: &Location) -> SourceSpan {
    let span = location.span();
    let (Some(start), Some(len)) = (span.byte_offset(), span.byte_len()) else {
        return (0, 0).into();
    };
    let (start, len) = (start as usize, len as usize);
    let text = file.inner();
    match text.as_bytes().get(start) {
        Some(b'"' | b'\'') if len >= 2 => (start + 1, len - 2).into(),
        _ => (start, len.min(text.len().saturating_sub(start))).into(),
    }
}

/// The span of a spanned value.
pub fn span_of<T>(file: &SourceFile, value: &Spanned<T>) -> SourceSpan {
    location_span(file, &value.referenced)
}

/// A YAML mapping read in written order, keys and values as they are: table
/// rows keep the order of the printed chart, and keys can carry their spans.
#[derive(Debug, Clone, PartialEq)]
pub struct Entries<K, V>(pub Vec<(K, V)>);

impl<K, V> Default for Entries<K, V> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<K, V> Entries<K, V> {
    pub fn iter(&self) -> impl Iterator<Item = &(K, V)> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Entries<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor<K, V>(PhantomData<(K, V)>);

        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for EntriesVisitor<K, V> {
            type Value = Entries<K, V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }

        deserializer.deserialize_map(EntriesVisitor(PhantomData))
    }
}
