//! A binary moved away from its source tree, as `cargo install` leaves it: it finds the shipped
//! rulesets built into it, and `check`, `show`, `eval` and `run` work there.

use std::path::Path;
use std::process::{Command, Output};

use super::{stderr, stdout};

/// Runs the moved binary in `dir`, with nothing telling it where rules are and a cache folder
/// of its own (where it writes the shipped rulesets out).
fn moved(binary: &Path, dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(binary)
        .args(args)
        .current_dir(dir)
        .env_remove("GROGNARD_RULES")
        .env("XDG_CACHE_HOME", dir.join("tmp"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    out
}

#[test]
fn a_moved_binary_checks_shows_evaluates_and_runs_with_the_rules_built_into_it() {
    let dir = tempfile::tempdir().unwrap();
    let (bin, work) = (dir.path().join("bin"), dir.path().join("work"));
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(work.join("tmp")).unwrap();
    let binary = bin.join("grognard");
    std::fs::copy(env!("CARGO_BIN_EXE_grognard"), &binary).unwrap();
    let study = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/ff_melee_study.rhai");
    std::fs::copy(study, work.join("melee.rhai")).unwrap();

    let checked = stdout(&moved(&binary, &work, &["check"]));
    for id in ["ff-napoleonic", "linear-warfare", "republique", "ff-house-example", "volley-example"] {
        assert!(checked.contains(&format!("{id}: ok")), "{checked}");
    }
    // Written out under the cache folder, not read from the source tree.
    assert!(checked.contains(&work.join("tmp").display().to_string()), "{checked}");
    let chart = stdout(&moved(&binary, &work, &["show", "--rules", "ff-napoleonic", "musketry"]));
    assert!(
        chart.lines().any(|l| l.split_whitespace().collect::<Vec<_>>() == ["1", "0-9", "10+", "-", "-", "-"]),
        "{chart}"
    );
    let value = stdout(&moved(&binary, &work, &["eval", "--rules", "ff-house-example", "constant(\"infantry_arc\")"]));
    assert!(value.contains("= 45"), "{value}");
    let run = stdout(&moved(&binary, &work, &["run", "melee.rhai", "--trials", "50", "--seed", "3", "--quiet"]));
    assert!(run.contains("melee.rhai, seed 3: 50 trials"), "{run}");
    // A second start finds the rules already written out and uses them as they are.
    let again = stdout(&moved(&binary, &work, &["check", "ff-napoleonic"]));
    assert!(again.contains("ff-napoleonic: ok"), "{again}");
    let written: Vec<_> = std::fs::read_dir(work.join("tmp")).unwrap().flatten().collect();
    assert_eq!(written.len(), 1, "one folder of rules: {written:?}");
}

#[test]
fn rules_lists_where_the_rulesets_come_from_and_exports_a_copy_to_edit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("tmp")).unwrap();
    let binary = Path::new(env!("CARGO_BIN_EXE_grognard"));
    let listed = stdout(&moved(binary, dir.path(), &["rules"]));
    assert!(listed.contains("(the rulesets built into grognard)"), "{listed}");
    assert!(listed.contains("ff-house-example") && listed.contains("(extends ff-napoleonic)"), "{listed}");
    // Exported, edited and used as an overlay's base: the copy is the shipped ruleset whole.
    let exported = stdout(&moved(binary, dir.path(), &["rules", "export", "ff-napoleonic", "myrules"]));
    assert!(exported.contains("wrote myrules/ff-napoleonic"), "{exported}");
    let checked = stdout(&moved(binary, dir.path(), &["check", "myrules/ff-napoleonic"]));
    assert!(checked.contains("myrules/ff-napoleonic: ok"), "{checked}");
    let here = |args: &[&str]| {
        Command::new(binary)
            .args(args)
            .current_dir(dir.path())
            .env("XDG_CACHE_HOME", dir.path().join("tmp"))
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    };
    // Nothing is written over; a misspelt id is named with the nearest.
    let again = here(&["rules", "export", "ff-napoleonic", "myrules"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("is there already: nothing was written"), "{}", stderr(&again));
    let typo = here(&["rules", "export", "ff-napoleonc", "myrules"]);
    assert_eq!(typo.status.code(), Some(1));
    assert!(stderr(&typo).contains("did you mean `ff-napoleonic`?"), "{}", stderr(&typo));
    // With GROGNARD_RULES naming a folder, that folder is listed, and says so.
    let named = Command::new(binary)
        .args(["rules"])
        .current_dir(dir.path())
        .env("GROGNARD_RULES", dir.path().join("myrules"))
        .output()
        .unwrap();
    assert!(
        stdout(&named).contains("(named by GROGNARD_RULES)") && stdout(&named).contains("ff-napoleonic"),
        "{}",
        stdout(&named)
    );
}
