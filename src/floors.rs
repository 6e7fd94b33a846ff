//! The floors of the crate, lowest first, and the test that holds every module's imports to them.
//!
//! A module may use modules of lower floors, never one of its own floor or above. The front-ends `run` and `repl` share a floor and
//! never use each other; `cli`, the command line, is the shell over both. Within `script/` and
//! `rules/` no files use each other in a circle, of any length (a sign of a concept cut in the
//! wrong place); a folder's `mod.rs`, which gathers its children's names, is not followed. Tests (`tests.rs`, `*_tests.rs`, `#[cfg(test)]` modules) may use anything.
//! `ARCHITECTURE.md` describes each floor.

/// The floors, lowest first: each module of the crate's root, by floor.
const FLOORS: &[&[&str]] =
    &[&["kernel"], &["rules"], &["script"], &["present"], &["error"], &["run", "repl"], &["cli"]];

mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::PathBuf;

    use super::FLOORS;
    use crate::source_scan::{code_of, modules};

    /// Expands a `use` tree (`crate::a::{b, c::{d, e}}`, whitespace removed) into its paths.
    fn expand(tree: &str) -> Vec<String> {
        let Some(open) = tree.find('{') else { return vec![tree.to_string()] };
        let prefix = &tree[..open];
        let inner = &tree[open + 1..tree.len() - 1];
        let mut parts = Vec::new();
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&inner[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&inner[start..]);
        parts.into_iter().filter(|p| !p.is_empty()).flat_map(|p| expand(&format!("{prefix}{p}"))).collect()
    }

    /// The paths a module's code names, each made absolute from the crate's root.
    fn paths_named(module: &[String], code: &str) -> Vec<Vec<String>> {
        let mut raw = Vec::new();
        // `use` statements, whose trees may group paths in braces.
        for statement in code.split(';') {
            let statement: String = statement.split_whitespace().collect::<Vec<_>>().join(" ");
            if let Some(at) = statement.find("use ") {
                let head = &statement[..at];
                if head.trim().is_empty() || head.trim_end().ends_with("pub") || head.contains("pub(") {
                    let tree: String = statement[at + 4..].chars().filter(|c| !c.is_whitespace()).collect();
                    raw.extend(expand(&tree));
                }
            }
        }
        // Paths written inline: `crate::a::b(...)`, `super::c::D`.
        let bytes = code.as_bytes();
        for anchor in ["crate::", "super::"] {
            let mut from = 0;
            while let Some(found) = code[from..].find(anchor) {
                let at = from + found;
                from = at + anchor.len();
                if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                    continue;
                }
                let end = code[at..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                    .map_or(code.len(), |e| at + e);
                raw.push(code[at..end].to_string());
            }
        }
        let mut absolute = Vec::new();
        for path in raw {
            let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            let Some(first) = segments.first() else { continue };
            let mut base: Vec<String> = match *first {
                "crate" => Vec::new(),
                "super" | "self" => {
                    // `a/b.rs` and `a/b/mod.rs` are both module `a::b`, whose `super` is `a`.
                    let mut base = module.to_vec();
                    if *first == "super" {
                        base.pop();
                    }
                    base
                }
                _ => continue,
            };
            for segment in &segments[1..] {
                if *segment == "super" {
                    base.pop();
                } else {
                    base.push(segment.to_string());
                }
            }
            absolute.push(base);
        }
        absolute
    }

    /// The source file a path lands in: the longest prefix of it that is a module.
    fn resolve<'a>(path: &[String], modules: &'a BTreeMap<Vec<String>, PathBuf>) -> Option<&'a Vec<String>> {
        (1..=path.len()).rev().find_map(|n| modules.get_key_value(&path[..n]).map(|(k, _)| k))
    }

    /// Each module and the modules its code uses.
    fn imports() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
        let modules = modules();
        let mut graph = BTreeMap::new();
        for (module, file) in &modules {
            let mut uses = BTreeSet::new();
            for path in paths_named(module, &code_of(file)) {
                if let Some(target) = resolve(&path, &modules)
                    && target != module
                    && !target.is_empty()
                {
                    uses.insert(target.clone());
                }
            }
            graph.insert(module.clone(), uses);
        }
        graph
    }

    fn floor_of(top: &str) -> Option<usize> {
        FLOORS.iter().position(|floor| floor.contains(&top))
    }

    #[test]
    fn every_root_module_has_a_floor() {
        for module in modules().keys() {
            if module.len() == 1 {
                assert!(floor_of(&module[0]).is_some(), "src/{} has no floor in FLOORS", module[0]);
            }
        }
    }

    #[test]
    fn no_module_uses_one_above_it_or_a_sibling_front_end() {
        let mut wrong = Vec::new();
        for (module, uses) in imports() {
            let Some(from) = module.first() else { continue };
            for used in uses {
                let to = &used[0];
                if to == from {
                    continue;
                }
                let (Some(a), Some(b)) = (floor_of(from), floor_of(to)) else { continue };
                if b >= a {
                    wrong.push(format!("{} uses {}", module.join("::"), used.join("::")));
                }
            }
        }
        assert!(wrong.is_empty(), "imports against the floors (see src/floors.rs):\n{}", wrong.join("\n"));
    }

    #[test]
    fn no_files_of_script_or_rules_use_each_other_in_a_circle() {
        let graph = imports();
        // Files, not folders' `mod.rs` (which gather their children's names for the floor above).
        let leaf = |m: &Vec<String>| {
            matches!(m.first().map(String::as_str), Some("script" | "rules"))
                && m.len() > 1
                && !graph.keys().any(|k| k.len() > m.len() && k.starts_with(m))
        };
        // A depth-first walk from each file along uses between files; meeting a file already on
        // the path is a circle.
        fn walk<'g>(
            at: &'g Vec<String>,
            graph: &'g BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
            leaf: &dyn Fn(&Vec<String>) -> bool,
            path: &mut Vec<&'g Vec<String>>,
            done: &mut BTreeSet<&'g Vec<String>>,
            circles: &mut Vec<String>,
        ) {
            if let Some(start) = path.iter().position(|m| *m == at) {
                let names: Vec<String> = path[start..].iter().chain([&at]).map(|m| m.join("::")).collect();
                circles.push(names.join(" -> "));
                return;
            }
            if !done.insert(at) {
                return;
            }
            path.push(at);
            for next in graph.get(at).into_iter().flatten().filter(|m| leaf(m)) {
                walk(next, graph, leaf, path, done, circles);
            }
            path.pop();
        }
        let mut circles = Vec::new();
        let mut done = BTreeSet::new();
        for module in graph.keys().filter(|m| leaf(m)) {
            walk(module, &graph, &leaf, &mut Vec::new(), &mut done, &mut circles);
        }
        assert!(circles.is_empty(), "files that use each other in a circle:\n{}", circles.join("\n"));
    }

    #[test]
    fn the_check_sees_imports() {
        // The test above would pass on a parser that saw nothing: hold it to known edges.
        let graph = imports();
        let uses = |a: &str, b: &str| {
            let a: Vec<String> = a.split("::").map(str::to_string).collect();
            let b: Vec<String> = b.split("::").map(str::to_string).collect();
            graph.get(&a).is_some_and(|u| u.contains(&b))
        };
        assert!(uses("cli::run", "run"), "{:?}", graph.get(&vec!["cli".to_string(), "run".to_string()]));
        assert!(uses("repl::session", "present::odds"));
        assert!(uses("error", "present::ruleset"));
        assert_eq!(expand("crate::a::{b,c::{d,e}}"), ["crate::a::b", "crate::a::c::d", "crate::a::c::e"]);
    }
}
