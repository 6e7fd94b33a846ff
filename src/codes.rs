//! The registry of diagnostic codes, `docs/diagnostics.md`, held to the source: every code an
//! error or warning carries (`Problem::error("rules::band_gap", ..)`, `#[diagnostic(code(dice::syntax))]`)
//! is listed there once with when it is reported and what to do, and every code listed is raised.

use std::collections::{BTreeMap, BTreeSet};

use crate::source_scan::{code_of, modules};

/// The namespaces codes live in.
const NAMESPACES: [&str; 10] = ["cli", "run", "repl", "dice", "measure", "unit", "scenario", "band", "rules", "script"];

/// Every code the crate's code raises, with a module that raises it: a string literal
/// `"rules::band_gap"` or a derive's `code(dice::syntax)`.
fn raised() -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for (module, file) in modules() {
        let code = code_of(&file);
        for namespace in NAMESPACES {
            for (open, close) in [("\"", '"'), ("code(", ')')] {
                let anchor = format!("{open}{namespace}::");
                let mut from = 0;
                while let Some(at) = code[from..].find(&anchor) {
                    let name = from + at + anchor.len();
                    from = name;
                    let end = code[name..]
                        .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
                        .map_or(code.len(), |e| name + e);
                    if end > name && code[end..].starts_with(close) {
                        found.entry(format!("{namespace}::{}", &code[name..end])).or_insert_with(|| module.join("::"));
                    }
                }
            }
        }
    }
    found
}

/// The registry's rows: each code with its "when" and "what to do" cells.
fn registry() -> Vec<(String, String, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/diagnostics.md");
    let text = std::fs::read_to_string(&path).expect("docs/diagnostics.md is readable");
    text.lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            assert_eq!(cells.len(), 3, "a registry row has three cells: {line}");
            (cells[0].trim_matches('`').to_string(), cells[1].to_string(), cells[2].to_string())
        })
        .collect()
}

#[test]
fn every_code_raised_is_in_the_registry_and_every_listed_code_is_raised() {
    let raised = raised();
    assert!(
        raised.len() > 50 && raised.contains_key("rules::band_gap") && raised.contains_key("dice::syntax"),
        "{raised:?}"
    );
    let rows = registry();
    let listed: BTreeSet<&str> = rows.iter().map(|(code, _, _)| code.as_str()).collect();
    let missing: Vec<String> = raised
        .iter()
        .filter(|(code, _)| !listed.contains(code.as_str()))
        .map(|(c, m)| format!("{c} (raised in {m})"))
        .collect();
    assert!(missing.is_empty(), "codes raised but not in docs/diagnostics.md:\n{}", missing.join("\n"));
    let unused: Vec<&&str> = listed.iter().filter(|code| !raised.contains_key(**code)).collect();
    assert!(unused.is_empty(), "codes in docs/diagnostics.md that nothing raises: {unused:?}");
}

#[test]
fn every_listed_code_is_listed_once_and_described() {
    let rows = registry();
    let mut seen = BTreeSet::new();
    for (code, when, what) in &rows {
        assert!(seen.insert(code), "{code} is listed twice");
        let namespace = code.split("::").next().unwrap_or("");
        assert!(NAMESPACES.contains(&namespace), "{code}: namespace not one of {NAMESPACES:?}");
        assert!(when.len() > 10 && what.len() > 10, "{code} needs its when and what to do: {when:?} {what:?}");
    }
}
