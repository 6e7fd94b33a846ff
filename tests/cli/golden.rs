//! The golden run: every shipped script's study and the trace of one of its trials, and every
//! shipped ruleset shown whole, held to the files in `tests/golden/`. A change of layout must
//! leave them all as they were; a change of behaviour shows here as a diff to read before
//! accepting it (`INSTA_UPDATE=always cargo test --test cli golden`).

use std::path::Path;

use super::{grognard, stderr, stdout};

/// Runs grognard and returns its stdout, failing on a non-zero exit.
fn output_of(args: &[&str]) -> String {
    let out = grognard(args);
    assert_eq!(out.status.code(), Some(0), "grognard {args:?}: {}", stderr(&out));
    stdout(&out)
}

fn golden(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "../golden", prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!(name, text);
    });
}

/// The names in a folder with the given extension (or every folder, for `None`), sorted.
fn names_in(dir: &str, extension: Option<&str>) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("{}: {err}", dir.display()))
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| match extension {
            Some(ext) => path.extension().is_some_and(|e| e == ext),
            None => path.is_dir(),
        })
        .map(|path| path.file_name().expect("a name").to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn every_shipped_script_studies_and_traces_as_before() {
    let scripts = names_in("scripts", Some("rhai"));
    assert!(scripts.len() >= 7, "{scripts:?}");
    for script in scripts {
        let path = format!("scripts/{script}");
        let stem = script.trim_end_matches(".rhai");
        golden(&format!("{stem}.study"), &output_of(&["run", &path, "--trials", "200", "--seed", "7", "--quiet"]));
        // The full trace pins every modifier considered; the step-by-step form (`run`'s own)
        // leaves out only those that did not apply, and the details of how a total was made.
        let full = output_of(&["run", &path, "--seed", "7", "--trial", "3", "--trace", "full"]);
        golden(&format!("{stem}.trace"), &full);
        let brief = output_of(&["run", &path, "--seed", "7", "--trial", "3"]);
        // A melee side's line heads its modifiers only where one of them is shown.
        let side = |l: &&str| l.starts_with("side    ");
        let applied: Vec<&str> =
            full.lines().filter(|l| !l.starts_with("mod     no ") && !l.starts_with("detail  ") && !side(l)).collect();
        assert_eq!(brief.lines().filter(|l| !side(l)).collect::<Vec<_>>(), applied, "{stem}");
        assert!(brief.lines().filter(side).all(|l| full.lines().any(|f| f == l)), "{stem}");
    }
}

#[test]
fn the_quick_exact_studies_give_the_same_odds() {
    // The others take minutes in a debug build; their exact odds are tested in `tests/rulesets`.
    for stem in ["ff_battery_study", "ff_melee_study", "volley_study"] {
        golden(&format!("{stem}.exact"), &output_of(&["run", &format!("scripts/{stem}.rhai"), "--exact"]));
    }
}

/// The first word of each indented line of `section` in `show`'s summary of a ruleset.
fn listed(summary: &str, section: &str) -> Vec<String> {
    summary
        .lines()
        .skip_while(|line| *line != format!("{section}:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn every_shipped_ruleset_shows_as_before() {
    golden("check", &output_of(&["check"]));
    for ruleset in names_in("rules", None) {
        let summary = output_of(&["show", "--rules", &ruleset]);
        let mut whole = summary.clone();
        let mut names = listed(&summary, "tables");
        names.extend(listed(&summary, "modifier lists"));
        assert!(!names.is_empty(), "{ruleset}: {summary}");
        for name in names.iter().map(String::as_str).chain(["procedures", "options", "interpretations"]) {
            whole.push_str(&format!("\n=== show {name}\n"));
            whole.push_str(&output_of(&["show", "--rules", &ruleset, name]));
        }
        golden(&format!("show.{ruleset}"), &whole);
    }
}
