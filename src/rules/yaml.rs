//! Reading rule files as YAML (serde-saphyr, strict booleans), with errors pointing into the file.

use std::fmt;
use std::marker::PhantomData;

use miette::SourceSpan;
use serde::de::{Deserialize, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde_saphyr::{Location, Spanned};

use super::problem::{Problem, SourceFile};

/// Parses a whole rule file (or a scenario's order of battle). YAML mistakes (syntax, a wrong
/// type, an unknown key, `yes` for a boolean) come back as one problem pointing into the file,
/// and so does a text holding a control character (`"\e[2J"`): what a rule file says is shown
/// on players' terminals, where it would be obeyed.
pub fn parse<T: DeserializeOwned>(file: &SourceFile) -> Result<T, Box<Problem>> {
    let parsed = parse_with(file, serde_saphyr::options! { strict_booleans: true })?;
    match control_characters(file).into_iter().next() {
        Some(problem) => Err(Box::new(problem)),
        None => Ok(parsed),
    }
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
        // A misspelt key is given the nearest one it may be.
        let message = crate::kernel::spelling::hint_unknown_field(&message);
        let code = if message.starts_with("unknown field") { "rules::unknown_key" } else { "rules::yaml" };
        let problem = Problem::error(code, message, file, span);
        Box::new(match code {
            "rules::unknown_key" => problem.with_help("check the spelling; `grognard schema` lists every key"),
            _ => problem,
        })
    })
}

/// Every text of a YAML file (keys and values alike) that holds a control character other than
/// newline and tab: C0, DEL or C1, written raw or as an escape (`\e`, `\x1b`, `\a`, `\N`).
pub fn control_characters(file: &SourceFile) -> Vec<Problem> {
    // A text can hold one only if the file does, raw or behind a backslash: nearly every file
    // holds neither and is not read again.
    let raw = file.inner();
    if !raw.contains('\\') && !raw.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r')) {
        return Vec::new();
    }
    // Read again as bare YAML: every text the typed reading took, with where it was written.
    let node = match parse_with::<Spanned<Node>>(file, serde_saphyr::options! { strict_booleans: true }) {
        Ok(node) => node,
        // Never so after the typed reading; but a file not read is no file found clean.
        Err(problem) => return vec![*problem],
    };
    let mut problems = Vec::new();
    each_text(&node, &mut |text, at| {
        // The same characters `present::escape` escapes on output.
        if let Some(c) = text.chars().find(|c| c.is_control() && *c != '\n' && *c != '\t') {
            let shown: String = c.escape_debug().collect();
            let message = format!(
                "this text holds the control character U+{:04X} (`{shown}`), which a terminal would obey rather than show",
                c as u32
            );
            problems.push(
                Problem::error("rules::control_character", message, file, span_of(file, at))
                    .with_label("a control character is in this text")
                    .with_help("write the text without it: what a rule file says is shown on players' terminals"),
            );
        }
    });
    problems
}

/// A YAML node as bare data: texts kept, with their places; everything else passed over.
enum Node {
    Text(String),
    List(Vec<Spanned<Node>>),
    Map(Vec<(Spanned<Node>, Spanned<Node>)>),
    Other,
}

/// Calls `each` with every text under `node` and the node it is, keys before their values, in written order.
fn each_text<'n>(node: &'n Spanned<Node>, each: &mut dyn FnMut(&'n str, &'n Spanned<Node>)) {
    match &node.value {
        Node::Text(text) => each(text, node),
        Node::List(items) => items.iter().for_each(|item| each_text(item, each)),
        Node::Map(entries) => {
            for (key, value) in entries {
                each_text(key, each);
                each_text(value, each);
            }
        }
        Node::Other => {}
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NodeVisitor;

        impl<'de> Visitor<'de> for NodeVisitor {
            type Value = Node;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any YAML")
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Node, E> {
                Ok(Node::Text(text.to_string()))
            }

            fn visit_string<E: serde::de::Error>(self, text: String) -> Result<Node, E> {
                Ok(Node::Text(text))
            }

            fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Node, E> {
                Ok(Node::Other)
            }

            fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Node, E> {
                Ok(Node::Other)
            }

            fn visit_i128<E: serde::de::Error>(self, _: i128) -> Result<Node, E> {
                Ok(Node::Other)
            }

            fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Node, E> {
                Ok(Node::Other)
            }

            fn visit_u128<E: serde::de::Error>(self, _: u128) -> Result<Node, E> {
                Ok(Node::Other)
            }

            fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Node, E> {
                Ok(Node::Other)
            }

            fn visit_bytes<E: serde::de::Error>(self, _: &[u8]) -> Result<Node, E> {
                Ok(Node::Other)
            }

            fn visit_unit<E: serde::de::Error>(self) -> Result<Node, E> {
                Ok(Node::Other)
            }

            fn visit_none<E: serde::de::Error>(self) -> Result<Node, E> {
                Ok(Node::Other)
            }

            fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
                Node::deserialize(deserializer)
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Node::List(items))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Node::Map(entries))
            }
        }

        deserializer.deserialize_any(NodeVisitor)
    }
}

/// The span of a YAML value in its file. A quoted scalar's span starts at the
/// quote; the underline is moved inside it so it covers the text itself.
pub fn location_span(file: &SourceFile, location: &Location) -> SourceSpan {
    let span = location.span();
    let (Some(start), Some(len)) = (span.byte_offset(), span.byte_len()) else {
        return line_column_span(file, location);
    };
    let (start, len) = (start as usize, len as usize);
    let text = file.inner();
    match text.as_bytes().get(start) {
        Some(b'"' | b'\'') if len >= 2 => (start + 1, len - 2).into(),
        _ => (start, len.min(text.len().saturating_sub(start))).into(),
    }
}

/// The character at a location's line and column, when it has them and no byte offsets (the
/// parser's own errors: an unexpected character); else the start of the file.
fn line_column_span(file: &SourceFile, location: &Location) -> SourceSpan {
    let text = file.inner();
    let (line, column) = (location.line() as usize, location.column() as usize);
    if line == 0 || column == 0 {
        return (0, 0).into();
    }
    let Some(line_start) = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).nth(line - 1) else {
        return (0, 0).into();
    };
    let mut chars = text[line_start..].char_indices().skip(column - 1);
    match chars.next() {
        Some((at, c)) if c != '\n' => (line_start + at, c.len_utf8()).into(),
        Some((at, _)) => (line_start + at, 0).into(),
        None => (text.len(), 0).into(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::source_file;

    fn places(text: &str) -> Vec<String> {
        control_characters(&source_file("t.yaml", text.to_string())).iter().map(|p| p.place()).collect()
    }

    #[test]
    fn a_control_character_in_any_text_is_found_where_it_was_written() {
        // The modifier text, written with YAML's escapes.
        let list = "id: fire_modifiers\nmodifiers:\n  - id: x\n    text: \"\\e]0;PWNED\\a\\e[2J\"\n";
        assert_eq!(places(list), ["t.yaml:4:12"]);
        // Keys, items of a list, C1 (`\N` is U+0085) and DEL are found too, each text once.
        let more = "\"a\\x1bb\": 1\nlist: [ok, \"\\N\", \"\\x7f\"]\nnested: {deep: [\"\\u009b\"]}\n";
        assert_eq!(places(more), ["t.yaml:1:2", "t.yaml:2:13", "t.yaml:2:19", "t.yaml:3:18"]);
        let problem = &control_characters(&source_file("t.yaml", list.to_string()))[0];
        assert_eq!(problem.code, "rules::control_character");
        assert_eq!(
            problem.message,
            "this text holds the control character U+001B (`\\u{1b}`), which a terminal would obey rather than show"
        );
    }

    #[test]
    fn a_control_character_written_raw_is_no_yaml() {
        // The parser refuses them itself, at the text (a plain one) or at the character (a quoted one).
        for (raw, place) in
            [("name: a\x1bb\n", "t.yaml:1:7"), ("name: \"a\x07b\"\n", "t.yaml:1:9"), ("name: 'a\x7fb'\n", "t.yaml:1:9")]
        {
            let problems = control_characters(&source_file("t.yaml", raw.to_string()));
            let found: Vec<_> = problems.iter().map(|p| (p.code, p.place())).collect();
            assert_eq!(found, [("rules::yaml", place.to_string())], "{raw:?}");
        }
    }

    #[test]
    fn newlines_tabs_and_all_other_unicode_are_text() {
        let fine =
            "title: \"Württemberg: ½ fire point\\tthen\\nmore\"\nblock: |\n  two\n  lines\nn: 3\nb: true\nz: ~\n";
        assert_eq!(places(fine), Vec::<String>::new());
    }

    #[test]
    fn parse_refuses_a_file_with_one() {
        #[derive(serde::Deserialize, Debug)]
        struct Named {
            #[allow(dead_code)]
            name: String,
        }
        let file = source_file("t.yaml", "name: \"\\e[2JEVIL\"\n".to_string());
        let problem = parse::<Named>(&file).unwrap_err();
        assert_eq!((problem.code, problem.place()), ("rules::control_character", "t.yaml:1:8".to_string()));
        assert_eq!(
            parse::<Named>(&source_file("t.yaml", "name: Württemberg\n".to_string())).unwrap().name,
            "Württemberg"
        );
    }
}
