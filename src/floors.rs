//! The floors of the crate, lowest first, and the test that holds every module's imports to them.
//!
//! A module may use modules of lower floors, never one of its own floor or above. The front-ends
//! `run` and `repl` share a floor and never use each other; `cli`, the command line, is the shell
//! over both. Within `script/` its files have floors of their own (`SCRIPT_FLOORS`): a file uses
//! files of its own floor or below, never above. Within `script/` and `rules/` no files use each
//! other in a circle, of any length (a sign of a concept cut in the wrong place). A folder's
//! `mod.rs` with code is a file like any other; its `pub use` lines are not uses but names passed
//! on, followed to the file that defines the name. Tests (`tests.rs`, `*_tests.rs`,
//! `#[cfg(test)]` modules) may use anything. `ARCHITECTURE.md` describes each floor.

/// The floors, lowest first: each module of the crate's root, by floor.
const FLOORS: &[&[&str]] =
    &[&["kernel"], &["rules"], &["script"], &["present"], &["error"], &["run", "repl"], &["cli"]];

/// The floors within `script/`, lowest first: each module under `script::` by floor (a folder
/// stands for every file in it). A file may use files on its own floor or below.
const SCRIPT_FLOORS: &[(&str, &[&str])] = &[
    (
        "ground: errors, limits, the trace, handles to units, leaders and decks, plain values",
        &["error", "budget", "sandbox", "trace", "handles", "brackets", "syntax", "seen", "luck", "plain"],
    ),
    (
        "words and conditions: the vocabulary's words read in Rhai code, `when:` and `per:` compiled",
        &[
            "words",
            "marker_kinds",
            "marker_values",
            "call_checks",
            "switch_cases",
            "roll_readings",
            "condition",
            "condition_reason",
            "value_compare",
            "properties",
            "fields",
            "outcome",
            "modifiers",
        ],
    ),
    ("the mode a command runs in, and the state the bindings share", &["mode", "state", "replayed"]),
    ("bindings: the kernel and the rules as Rhai sees them", &["bindings", "modifier_engine", "contracted"]),
    ("the compiled runner and its seam", &["compiled"]),
    ("worlds: what a call saw and left, captured, hashed and compared", &["world", "fingerprint"]),
    ("behind the seam: a study's kept calls, the exact engine", &["dice_paths", "odds"]),
    (
        "checks of procedures and overlays, read before anything runs",
        &["type_flow", "type_checks", "unread", "overlay_check", "base_calls"],
    ),
    (
        "the host and what it answers",
        &["host", "check", "procedure_odds", "observed", "attribution", "comparison", "sweep"],
    ),
];

mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::{FLOORS, SCRIPT_FLOORS};
    use crate::source_scan::{modules, paths_code};

    type Module = Vec<String>;
    type Graph = BTreeMap<Module, BTreeSet<Module>>;

    fn module(path: &str) -> Module {
        if path.is_empty() { Vec::new() } else { path.split("::").map(str::to_string).collect() }
    }

    /// Expands a `use` tree (`crate::a::{b, c::{d, e}}`, whitespace removed) into its paths.
    fn expand(tree: &str) -> Vec<String> {
        let Some(open) = tree.find('{') else { return vec![tree.to_string()] };
        let prefix = &tree[..open];
        let inner = &tree[open + 1..tree.len().saturating_sub(1).max(open + 1)];
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

    /// One path a `use` names: its path as written, the name it brings in, and whether it is a
    /// `pub use` (a name passed on, not a use).
    struct Imported {
        path: String,
        name: String,
        passed_on: bool,
    }

    /// The `use` statements of a module's code, expanded.
    fn imports_of(code: &str) -> Vec<Imported> {
        let mut found = Vec::new();
        for statement in code.split(';') {
            let statement: String = statement.split_whitespace().collect::<Vec<_>>().join(" ");
            let Some(at) = statement.find("use ") else { continue };
            if at > 0 && !statement[..at].ends_with(' ') && !statement[..at].ends_with('}') {
                continue;
            }
            // What stands before `use` on its statement: nothing, attributes or an item's end, or a visibility.
            let head = statement[..at].trim_end();
            let last_word = head.rsplit([' ', '}', '{', ']']).next().unwrap_or("");
            let passed_on = last_word == "pub" || last_word.starts_with("pub(");
            // ` as ` kept apart before the whitespace goes: `a::B as C` brings in `C`.
            let tree: String =
                statement[at + 4..].replace(" as ", "@").chars().filter(|c| !c.is_whitespace()).collect();
            for path in expand(&tree) {
                let (path, name) = match path.split_once('@') {
                    Some((p, n)) => (p.to_string(), n.to_string()),
                    None => {
                        // `a::{self, B}` brings in `a`.
                        let mut segments = path.rsplit("::").filter(|s| *s != "self");
                        (path.clone(), segments.next().unwrap_or("").to_string())
                    }
                };
                found.push(Imported { path, name, passed_on });
            }
        }
        found
    }

    /// Code with its `use` statements left out (each up to its semicolon).
    fn without_use_statements(code: &str) -> String {
        let mut out = String::with_capacity(code.len());
        let mut rest = code;
        while let Some(at) = rest.find("use ") {
            let starts_statement = rest[..at].trim_end().chars().last().is_none_or(|c| ";{}]".contains(c))
                || rest[..at].trim_end().ends_with("pub")
                || rest[..at].trim_end().ends_with(')');
            let word_start =
                at == 0 || !rest.as_bytes()[at - 1].is_ascii_alphanumeric() && rest.as_bytes()[at - 1] != b'_';
            if starts_statement && word_start {
                out.push_str(&rest[..at]);
                rest = rest[at..].find(';').map_or("", |end| &rest[at + end + 1..]);
            } else {
                out.push_str(&rest[..at + 4]);
                rest = &rest[at + 4..];
            }
        }
        out.push_str(rest);
        out
    }

    /// The sources of a crate: each module with its code, comments and strings left out.
    struct Sources {
        code: BTreeMap<Module, String>,
    }

    impl Sources {
        fn of_this_crate() -> Self {
            let code = modules()
                .into_iter()
                .map(|(m, file)| (m, paths_code(&std::fs::read_to_string(file).expect("a readable source file"))))
                .collect();
            Sources { code }
        }

        /// A crate planted by a test: `(module path, text)`.
        fn planted(files: &[(&str, &str)]) -> Self {
            Sources { code: files.iter().map(|(m, text)| (module(m), paths_code(text))).collect() }
        }

        /// A path as written in `at`'s code, made absolute from the crate's root (None: not of this crate).
        fn absolute(&self, at: &Module, path: &str) -> Option<Module> {
            let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            let first = *segments.first()?;
            let mut base: Module = match first {
                "crate" => Vec::new(),
                "self" => at.clone(),
                "super" => at[..at.len().saturating_sub(1)].to_vec(),
                // A path from a child module (`use child::Name;` in a folder's `mod.rs`).
                child if self.code.contains_key(&[at.as_slice(), &[child.to_string()]].concat()) => {
                    [at.as_slice(), &[child.to_string()]].concat()
                }
                _ => return None,
            };
            for segment in &segments[1..] {
                match *segment {
                    "super" => {
                        base.pop();
                    }
                    "self" | "*" => {}
                    _ => base.push(segment.to_string()),
                }
            }
            Some(base)
        }

        /// The names each module passes on (`pub use a::B;`), by the name, as absolute paths.
        fn passed_on(&self) -> BTreeMap<Module, BTreeMap<String, Module>> {
            let mut all = BTreeMap::new();
            for (at, code) in &self.code {
                let names: BTreeMap<String, Module> = imports_of(code)
                    .into_iter()
                    .filter(|i| i.passed_on)
                    .filter_map(|i| Some((i.name, self.absolute(at, &i.path)?)))
                    .collect();
                all.insert(at.clone(), names);
            }
            all
        }

        /// The file a path lands in: the longest prefix of it that is a module, followed through
        /// every `pub use` that passes its next name on.
        fn resolve(&self, path: &[String], passed: &BTreeMap<Module, BTreeMap<String, Module>>) -> Option<Module> {
            let mut path = path.to_vec();
            for _ in 0..16 {
                let n = (0..=path.len()).rev().find(|n| self.code.contains_key(&path[..*n]))?;
                let module = path[..n].to_vec();
                let Some(next) = path.get(n) else { return Some(module) };
                match passed.get(&module).and_then(|names| names.get(next)) {
                    Some(target) if !target.starts_with(&path[..=n]) => {
                        path = [target.as_slice(), &path[n + 1..]].concat();
                    }
                    _ => return Some(module),
                }
            }
            None
        }

        /// Each module and the files its code uses.
        fn graph(&self) -> Graph {
            let passed = self.passed_on();
            let mut graph = Graph::new();
            for (at, code) in &self.code {
                let mut uses = BTreeSet::new();
                let mut add = |path: &Module| {
                    if let Some(target) = self.resolve(path, &passed)
                        && &target != at
                        && !target.is_empty()
                    {
                        uses.insert(target);
                    }
                };
                // Names a module may be reached by in its code: its child modules, and modules a `use` brings in.
                let mut aliases: BTreeMap<String, Module> = self
                    .code
                    .keys()
                    .filter(|m| m.len() == at.len() + 1 && m.starts_with(at))
                    .map(|m| (m[at.len()].clone(), m.clone()))
                    .collect();
                let imports = imports_of(code);
                for import in &imports {
                    let Some(path) = self.absolute(at, &import.path) else { continue };
                    if import.passed_on {
                        continue;
                    }
                    if self.code.contains_key(&path) && !path.is_empty() {
                        aliases.insert(import.name.clone(), path);
                    } else {
                        add(&path);
                    }
                }
                // Paths written inline, from an anchor: `crate::a::b(...)`, `super::c::D`, `odds::Walk`
                // (in the code outside `use` statements, which were read above).
                let code = &without_use_statements(code);
                let bytes = code.as_bytes();
                let mut anchors: Vec<(String, Option<Module>)> =
                    ["crate", "super", "self"].iter().map(|a| (a.to_string(), None)).collect();
                anchors.extend(aliases.iter().map(|(name, m)| (name.clone(), Some(m.clone()))));
                for (anchor, aliased) in anchors {
                    let written = format!("{anchor}::");
                    let mut from = 0;
                    let mut seen = false;
                    while let Some(found) = code[from..].find(&written) {
                        let start = from + found;
                        from = start + written.len();
                        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
                            continue;
                        }
                        if aliased.is_some() && start > 1 && &code[start - 2..start] == "::" {
                            continue;
                        }
                        let end = code[start..]
                            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                            .map_or(code.len(), |e| start + e);
                        let rest = code[start..end].trim_end_matches(':');
                        let path = match &aliased {
                            None => self.absolute(at, rest),
                            Some(m) => {
                                let tail: Vec<String> =
                                    rest.split("::").skip(1).filter(|s| !s.is_empty()).map(str::to_string).collect();
                                Some([m.as_slice(), &tail].concat())
                            }
                        };
                        if let Some(path) = path {
                            seen = true;
                            add(&path);
                        }
                    }
                    // A module brought in by `use` and named only bare (`odds.walk()`, never `odds::…`) is used whole.
                    if let Some(m) = &aliased
                        && !seen
                        && imports.iter().any(|i| !i.passed_on && i.name == anchor)
                    {
                        add(m);
                    }
                }
                graph.insert(at.clone(), uses);
            }
            graph
        }
    }

    fn floor_of(top: &str) -> Option<usize> {
        FLOORS.iter().position(|floor| floor.contains(&top))
    }

    fn script_floor_of(m: &Module) -> Option<usize> {
        let name = m.get(1)?;
        SCRIPT_FLOORS.iter().position(|(_, floor)| floor.contains(&name.as_str()))
    }

    /// The uses that go against the floors of the crate's root and of `script/`.
    fn against_the_floors(graph: &Graph) -> Vec<String> {
        let mut wrong = Vec::new();
        for (module, uses) in graph {
            let Some(from) = module.first() else { continue };
            for used in uses {
                let to = &used[0];
                let name = || format!("{} uses {}", module.join("::"), used.join("::"));
                if to != from {
                    if let (Some(a), Some(b)) = (floor_of(from), floor_of(to))
                        && b >= a
                    {
                        wrong.push(name());
                    }
                } else if from == "script"
                    && let (Some(a), Some(b)) = (script_floor_of(module), script_floor_of(used))
                    && b > a
                {
                    wrong.push(format!("{} (floor {a} uses floor {b} of script/)", name()));
                }
            }
        }
        wrong
    }

    /// The circles among the modules of `script/` and `rules/`, each as the modules it goes through.
    fn circles(graph: &Graph) -> Vec<String> {
        let within = |m: &Module| matches!(m.first().map(String::as_str), Some("script" | "rules")) && m.len() > 1;
        // A depth-first walk from each file along uses between files; meeting a file already on
        // the path is a circle.
        fn walk<'g>(
            at: &'g Module,
            graph: &'g Graph,
            within: &dyn Fn(&Module) -> bool,
            path: &mut Vec<&'g Module>,
            done: &mut BTreeSet<&'g Module>,
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
            for next in graph.get(at).into_iter().flatten().filter(|m| within(m)) {
                walk(next, graph, within, path, done, circles);
            }
            path.pop();
        }
        let mut circles = Vec::new();
        let mut done = BTreeSet::new();
        for module in graph.keys().filter(|m| within(m)) {
            walk(module, graph, &within, &mut Vec::new(), &mut done, &mut circles);
        }
        circles
    }

    #[test]
    fn every_root_module_and_every_file_of_script_has_a_floor() {
        for module in modules().keys() {
            if module.len() == 1 {
                assert!(floor_of(&module[0]).is_some(), "src/{} has no floor in FLOORS", module[0]);
            }
            if module.len() > 1 && module[0] == "script" {
                assert!(script_floor_of(module).is_some(), "src/script/{} has no floor in SCRIPT_FLOORS", module[1]);
            }
        }
        let named: Vec<&str> = SCRIPT_FLOORS.iter().flat_map(|(_, f)| f.iter().copied()).collect();
        for name in &named {
            assert!(
                modules().keys().any(|m| m.len() > 1 && m[0] == "script" && m[1] == *name),
                "SCRIPT_FLOORS names {name}, which is no module of script/"
            );
            assert_eq!(named.iter().filter(|n| *n == name).count(), 1, "{name} is on two floors");
        }
    }

    #[test]
    fn no_module_uses_one_above_it_or_a_sibling_front_end() {
        let wrong = against_the_floors(&Sources::of_this_crate().graph());
        assert!(wrong.is_empty(), "imports against the floors (see src/floors.rs):\n{}", wrong.join("\n"));
    }

    #[test]
    fn no_files_of_script_or_rules_use_each_other_in_a_circle() {
        let circles = circles(&Sources::of_this_crate().graph());
        assert!(circles.is_empty(), "files that use each other in a circle:\n{}", circles.join("\n"));
    }

    #[test]
    fn the_check_sees_imports() {
        // The tests above would pass on a parser that saw nothing: hold it to known edges.
        let graph = Sources::of_this_crate().graph();
        let uses = |a: &str, b: &str| graph.get(&module(a)).is_some_and(|u| u.contains(&module(b)));
        assert!(uses("cli::run", "run"), "{:?}", graph.get(&module("cli::run")));
        assert!(uses("repl::session::odds_command", "present::odds"));
        assert!(uses("error", "present::ruleset"));
        // Through `pub use`: `crate::script::Host` is defined in `script::host`, a folder whose `mod.rs` holds it.
        assert!(uses("run::study", "script::host"), "{:?}", graph.get(&module("run::study")));
        assert_eq!(expand("crate::a::{b,c::{d,e}}"), ["crate::a::b", "crate::a::c::d", "crate::a::c::e"]);
    }

    #[test]
    fn only_script_syntax_names_rhais_internals_and_its_readers_are_listed() {
        const INTERNAL: [&str; 8] =
            ["ASTFlags", "ASTNode", "BinaryExpr", "Caches", "Expr", "FnCallExpr", "Stmt", "StmtBlock"];
        const METHODS: [&str; 5] =
            ["iter_fn_def", "global_runtime_state", "namespaces()", "eval_statements_raw", "ScriptFuncDef"];
        let mut naming = Vec::new();
        let mut readers = Vec::new();
        for (module, file) in modules() {
            let code = paths_code(&std::fs::read_to_string(&file).expect("a readable source file"));
            let relative =
                file.strip_prefix(crate::source_scan::src()).expect("under src").to_string_lossy().into_owned();
            let flat: String = code.split_whitespace().collect();
            let names_internal = INTERNAL.iter().any(|name| {
                flat.contains(&format!("rhai::{name}"))
                    || flat
                        .split("userhai::{")
                        .skip(1)
                        .any(|tree| tree.split('}').next().unwrap_or("").split(',').any(|n| n.trim() == *name))
            }) || METHODS.iter().any(|m| code.contains(m));
            if names_internal {
                naming.push(module.join("::"));
            }
            if code.contains("script::syntax")
                || (module.first().is_some_and(|m| m == "script") && code.contains("super::syntax"))
            {
                readers.push(relative);
            }
        }
        // The check sees them where they are named.
        assert_eq!(naming, ["script::syntax"], "files that name Rhai's internals outside script/syntax.rs");
        readers.sort();
        let listed: Vec<String> = crate::script::syntax_readers().iter().map(|r| r.to_string()).collect();
        assert_eq!(readers, listed, "script::syntax::READERS must list the files that read Rhai's internals");
    }

    /// A planted crate's graph.
    fn planted(files: &[(&str, &str)]) -> Graph {
        Sources::planted(files).graph()
    }

    #[test]
    fn a_folders_mod_rs_with_code_is_a_file_in_a_circle() {
        let graph = planted(&[
            ("", "mod script;"),
            ("script", "mod odds; mod compiled;"),
            ("script::odds", "mod flow; pub struct Walk; fn go() { flow::step() }"),
            ("script::odds::flow", "use super::Walk; pub fn step() {}"),
            ("script::compiled", ""),
        ]);
        assert!(graph[&module("script::odds")].contains(&module("script::odds::flow")), "{graph:?}");
        assert!(graph[&module("script::odds::flow")].contains(&module("script::odds")), "{graph:?}");
        assert_eq!(circles(&graph), ["script::odds -> script::odds::flow -> script::odds"]);
    }

    #[test]
    fn a_pub_use_is_followed_to_the_file_that_defines_the_name() {
        let graph = planted(&[
            ("", "mod script;"),
            ("script", "mod odds; mod compiled;"),
            ("script::odds", "mod world; pub use world::Walk;"),
            ("script::odds::world", "use crate::script::compiled::run; pub struct Walk;"),
            ("script::compiled", "mod run;"),
            ("script::compiled::run", "use crate::script::odds::Walk; pub fn run(_: Walk) {}"),
        ]);
        // The re-export is no use of its own: `odds` (a folder that only passes names on) uses nothing.
        assert!(graph[&module("script::odds")].is_empty(), "{graph:?}");
        assert_eq!(
            circles(&graph),
            ["script::compiled::run -> script::odds::world -> script::compiled::run"],
            "{graph:?}"
        );
    }

    #[test]
    fn super_paths_and_paths_from_a_module_brought_in_are_followed() {
        let graph = planted(&[
            ("", "mod script;"),
            ("script", "mod state; mod bindings;"),
            ("script::state", "use super::bindings; fn f() { bindings::dice::roll() }"),
            ("script::bindings", "mod dice;"),
            ("script::bindings::dice", "fn roll() { super::super::state::State::new() }"),
        ]);
        assert!(graph[&module("script::state")].contains(&module("script::bindings::dice")), "{graph:?}");
        assert!(graph[&module("script::bindings::dice")].contains(&module("script::state")), "{graph:?}");
        assert_eq!(circles(&graph).len(), 1);
    }

    #[test]
    fn a_double_slash_inside_a_string_hides_no_import() {
        let graph = planted(&[
            ("", "mod kernel; mod script;"),
            ("kernel", r#"const URL: &str = "https://example.org"; fn f() { crate::script::run() }"#),
            ("script", r#"fn g() { let s = "// not code: crate::kernel::nothing"; }"#),
        ]);
        assert!(graph[&module("kernel")].contains(&module("script")), "{graph:?}");
        assert!(graph[&module("script")].is_empty(), "a path inside a string is no use: {graph:?}");
        assert_eq!(against_the_floors(&graph), ["kernel uses script"]);
    }

    #[test]
    fn a_file_of_script_using_one_on_a_higher_floor_is_caught() {
        let graph = planted(&[
            ("", "mod script;"),
            ("script", "mod compiled; mod odds;"),
            ("script::compiled", "pub fn chance() { crate::script::odds::branch() }"),
            ("script::odds", "pub fn branch() {}"),
        ]);
        assert!(circles(&graph).is_empty());
        let wrong = against_the_floors(&graph);
        assert_eq!(wrong.len(), 1, "{wrong:?}");
        assert!(wrong[0].starts_with("script::compiled uses script::odds"), "{wrong:?}");
    }
}
