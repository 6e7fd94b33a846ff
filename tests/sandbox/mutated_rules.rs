//! Mutated copies of the shipped rule files fed to the loader and `check`: a located error or
//! a clean load, never a panic, an abort or a hang.

use std::path::{Path, PathBuf};
use std::time::Duration;

use grognard::rules::load;
use proptest::prelude::*;

use super::{on_script_stack, rules_dir};

/// Every rule file of a shipped ruleset, relative to its folder.
fn files_of(folder: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "rhai") {
                found.push(path.strip_prefix(folder).unwrap().to_path_buf());
            }
        }
    }
    found.sort();
    found
}

fn copy_folder(from: &Path, to: &Path) {
    for file in files_of(from) {
        let target = to.join(&file);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(from.join(&file), target).unwrap();
    }
}

/// One edit a tinkerer (or a fuzzer) might make.
#[derive(Debug, Clone)]
enum Mutation {
    DeleteChar(usize),
    InsertChar(usize, char),
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize),
    Truncate(usize),
    ReplaceWord(usize, &'static str),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::DeleteChar),
        (
            any::<usize>(),
            prop_oneof![
                Just(':'),
                Just('-'),
                Just('{'),
                Just('"'),
                Just('\t'),
                Just('&'),
                Just('*'),
                Just('\u{1b}'),
                Just('\u{9b}'),
                any::<char>()
            ]
        )
            .prop_map(|(at, c)| Mutation::InsertChar(at, c)),
        any::<usize>().prop_map(Mutation::DeleteLine),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        any::<usize>().prop_map(Mutation::SwapLines),
        any::<usize>().prop_map(Mutation::Truncate),
        (
            any::<usize>(),
            prop_oneof![
                Just("yes"),
                Just("~"),
                Just("[]"),
                Just("-99999999999999999999"),
                Just("1-"),
                Just("*a"),
                Just("loop {}"),
                // A text that would command a terminal, in YAML's escapes.
                Just("\"\\e]0;PWNED\\a\\e[2J\""),
                Just("\"\\x9b2J\"")
            ]
        )
            .prop_map(|(at, w)| Mutation::ReplaceWord(at, w)),
    ]
}

fn apply(text: &str, mutation: &Mutation) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<&str> = text.lines().collect();
    let n = chars.len().max(1);
    let l = lines.len().max(1);
    match mutation {
        Mutation::DeleteChar(at) => chars.iter().enumerate().filter(|(i, _)| *i != at % n).map(|(_, c)| c).collect(),
        Mutation::InsertChar(at, c) => {
            let mut chars = chars;
            chars.insert(at % (chars.len() + 1), *c);
            chars.into_iter().collect()
        }
        Mutation::DeleteLine(at) if !lines.is_empty() => {
            lines.remove(at % l);
            lines.join("\n")
        }
        Mutation::DuplicateLine(at) if !lines.is_empty() => {
            let line = lines[at % l];
            lines.insert(at % l, line);
            lines.join("\n")
        }
        Mutation::SwapLines(at) if lines.len() > 1 => {
            let i = at % (l - 1);
            lines.swap(i, i + 1);
            lines.join("\n")
        }
        Mutation::Truncate(at) => chars[..at % n].iter().collect(),
        Mutation::ReplaceWord(at, word) => {
            let words: Vec<&str> = text.split(' ').collect();
            let i = at % words.len().max(1);
            words.iter().enumerate().map(|(j, w)| if j == i { *word } else { *w }).collect::<Vec<_>>().join(" ")
        }
        _ => text.to_string(),
    }
}

/// Texts that would command a terminal, as a rule file may write them inside double quotes:
/// YAML's escapes (ESC, C1, NEL, BEL, DEL), and a C1 written raw.
const HOSTILE_TEXTS: [&str; 6] = [r"\e]0;PWNED\a\e[2J", r"\x9b2J", r"a\Nb", r"\a", r"\x7f", "a\u{85}b"];

/// `line` with its `title:` or `text:` made to hold `hostile`, when it has one written on the line.
fn made_hostile(line: &str, hostile: &str) -> Option<String> {
    if line.trim_start().starts_with('#') {
        return None;
    }
    let (key, at) = ["title: ", "text: "].iter().find_map(|key| line.find(key).map(|at| (key, at)))?;
    let (head, value) = line.split_at(at + key.len());
    if let Some(quoted) = value.strip_prefix('"') {
        return Some(format!("{head}\"{hostile}{quoted}"));
    }
    // A plain text alone on its line is replaced whole; a folded one, or one in braces, is passed over.
    (!line.contains(['{', '[']) && !value.starts_with(['>', '|', '\'', '&', '*']))
        .then(|| format!("{head}\"{hostile}\""))
}

#[test]
fn a_control_character_in_any_rule_text_is_refused_where_it_is_written() {
    let mut refused = 0;
    for ruleset in ["ff-napoleonic", "linear-warfare", "republique"] {
        let scratch = tempfile::tempdir().unwrap();
        let folder = scratch.path().join(ruleset);
        copy_folder(&rules_dir().join(ruleset), &folder);
        let yaml = files_of(&folder).into_iter().filter(|f| f.extension().is_some_and(|e| e == "yaml"));
        for (i, relative) in yaml.enumerate() {
            let file = folder.join(&relative);
            let original = std::fs::read_to_string(&file).unwrap();
            let hostile = HOSTILE_TEXTS[i % HOSTILE_TEXTS.len()];
            let mut lines: Vec<String> = original.lines().map(str::to_string).collect();
            // The first title or text of the file.
            let Some((line, changed)) =
                lines.iter().enumerate().find_map(|(n, l)| Some((n, made_hostile(l, hostile)?)))
            else {
                continue;
            };
            lines[line] = changed;
            std::fs::write(&file, lines.join("\n") + "\n").unwrap();
            let problems = on_script_stack(|| load(&[folder.display().to_string()], &rules_dir()))
                .err()
                .unwrap_or_else(|| panic!("{} with {hostile} was loaded", relative.display()));
            let place = format!("{}:{}:", file.display(), line + 1);
            assert!(
                problems.0.iter().any(|p| p.code == "rules::control_character" && p.place().starts_with(&place)),
                "{} with {hostile}: {:?}",
                relative.display(),
                problems.0
            );
            std::fs::write(&file, original).unwrap();
            refused += 1;
        }
    }
    assert!(refused > 20, "only {refused} files tried");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn mutated_rule_files_are_loaded_or_refused_never_crashed_on(
        ruleset in prop_oneof![Just("ff-napoleonic"), Just("linear-warfare"), Just("republique")],
        pick in any::<usize>(),
        mutations in proptest::collection::vec(mutation(), 1..4),
    ) {
        let scratch = tempfile::tempdir().unwrap();
        let folder = scratch.path().join(ruleset);
        copy_folder(&rules_dir().join(ruleset), &folder);
        let files = files_of(&folder);
        let file = folder.join(&files[pick % files.len()]);
        let mut text = std::fs::read_to_string(&file).unwrap();
        for m in &mutations {
            text = apply(&text, m);
        }
        std::fs::write(&file, &text).unwrap();
        let spec = folder.display().to_string();
        let dir = rules_dir();
        // On a thread of its own, so that a hang fails the test instead of stalling it.
        let (done, wait) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let outcome = std::panic::catch_unwind(|| {
                on_script_stack(|| match load(&[spec], &dir) {
                    Ok(loaded) => {
                        let problems = grognard::script::check(&loaded.ruleset);
                        format!("loaded; {} problems", problems.len())
                    }
                    Err(problems) => {
                        assert!(!problems.0.is_empty(), "a refusal says why");
                        format!("refused with {} problems", problems.0.len())
                    }
                })
            });
            let _ = done.send(outcome.map_err(|_| ()));
        });
        let outcome = wait.recv_timeout(Duration::from_secs(60));
        prop_assert!(outcome.is_ok(), "{} with {:?}: no answer within 60 s", file.display(), mutations);
        prop_assert!(outcome.unwrap().is_ok(), "{} with {:?}: panicked", file.display(), mutations);
    }
}
