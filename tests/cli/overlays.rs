//! Rules found where a user keeps them: an overlay's `extends:` beside the overlay, and a
//! script's `//! rules:` from the script's own folder, wherever grognard is run from.

use std::path::Path;
use std::process::Command;

use super::{copy_tree, stderr, stdout};

/// A user's own copy of ff-napoleonic, its musketry row "1" edited, with an overlay of their
/// own beside it: `<dir>/myrules/{ff-napoleonic, ff-mine}`.
fn my_rules(dir: &Path) {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/ff-napoleonic");
    let copy = dir.join("myrules/ff-napoleonic");
    copy_tree(&shipped, &copy);
    let musketry = copy.join("tables/musketry.yaml");
    let text = std::fs::read_to_string(&musketry).unwrap();
    let edited = text.replace(
        r#"  "1":     ["0-9",  "10+",  ~,      ~,      ~]"#,
        r#"  "1":     ["0-4",  "5+",   ~,      ~,      ~]"#,
    );
    assert_ne!(text, edited, "the row to edit is as the seed prints it");
    std::fs::write(&musketry, edited).unwrap();
    let mine = dir.join("myrules/ff-mine");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("ruleset.yaml"), "id: ff-mine\nextends: ff-napoleonic\ntitle: Mine\nsource: house\n")
        .unwrap();
}

/// grognard run in `cwd`, with no rules folder of its own there.
fn grognard_in(cwd: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_grognard")).args(args).current_dir(cwd).env("NO_COLOR", "1").output().unwrap()
}

/// The musketry chart's row `1`, as `show` prints it.
fn row_one(out: &std::process::Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    stdout(out)
        .lines()
        .find(|l| l.starts_with("1 "))
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn an_overlay_extends_the_ruleset_beside_it_not_the_shipped_one() {
    let dir = tempfile::tempdir().unwrap();
    my_rules(dir.path());
    let mine = dir.path().join("myrules/ff-mine").display().to_string();
    let copy = dir.path().join("myrules/ff-napoleonic").display().to_string();
    assert_eq!(row_one(&grognard_in(dir.path(), &["show", "--rules", &mine, "musketry"])), "1 0-4 5+ - - -");
    // Named twice (the base, then the overlay that extends it), the base is loaded once.
    let both = grognard_in(dir.path(), &["show", "--rules", &copy, "--rules", &mine]);
    assert!(stdout(&both).contains("(ff-napoleonic + ff-mine)"), "{}", stdout(&both));
    // The shipped ruleset itself is as the seed prints it.
    assert_eq!(row_one(&grognard_in(dir.path(), &["show", "--rules", "ff-napoleonic", "musketry"])), "1 0-9 10+ - - -");
}

#[test]
fn a_script_finds_its_rules_from_its_own_folder() {
    let dir = tempfile::tempdir().unwrap();
    my_rules(dir.path());
    let battle = dir.path().join("battle");
    std::fs::create_dir_all(&battle).unwrap();
    // A total of 5 on row 1 is Lively by the edited row, Desultory by the seed's.
    let body = "let cell = lookup(\"musketry\", 1, 5);\ncell.result\n";
    std::fs::write(battle.join("by_path.rhai"), format!("//! rules: ../myrules/ff-mine\n{body}")).unwrap();
    copy_tree(&dir.path().join("myrules/ff-mine"), &battle.join("ff-mine"));
    copy_tree(&dir.path().join("myrules/ff-napoleonic"), &battle.join("ff-napoleonic"));
    std::fs::write(battle.join("by_id.rhai"), format!("//! rules: ff-mine\n{body}")).unwrap();
    // Run from elsewhere: the script's folder, not the current one, is where its rules are.
    let elsewhere = tempfile::tempdir().unwrap();
    for script in ["by_path.rhai", "by_id.rhai"] {
        let path = battle.join(script).display().to_string();
        let out = grognard_in(elsewhere.path(), &["run", &path, "--trials", "1", "--seed", "1"]);
        assert_eq!(out.status.code(), Some(0), "{script}: {}", stderr(&out));
        assert!(stdout(&out).contains("= \"lively\""), "{script}: {}", stdout(&out));
    }
}

#[test]
fn a_result_an_overlay_rewords_is_credited_to_the_overlay_in_the_trace() {
    let dir = tempfile::tempdir().unwrap();
    let overlay = dir.path().join("reworded");
    std::fs::create_dir_all(overlay.join("tables")).unwrap();
    std::fs::write(
        overlay.join("ruleset.yaml"),
        "id: reworded\nextends: ff-napoleonic\ntitle: Reworded\nsource: house\n",
    )
    .unwrap();
    std::fs::write(
        overlay.join("tables/musketry.yaml"),
        "patch: musketry\nsource: house\nresults:\n  lively: { text: Target disordered and shaken, effects: { order: disordered } }\n",
    )
    .unwrap();
    let spec = overlay.display().to_string();
    let trace = |total: i64| {
        let out = grognard_in(dir.path(), &["eval", "--rules", &spec, &format!("lookup(\"musketry\", 1, {total})")]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out).lines().find(|l| l.starts_with("table")).unwrap_or_default().to_string()
    };
    // Row 1 reads 10+ as Lively: the band is the seed's, the words the overlay's.
    let lively = trace(10);
    assert!(lively.contains("lively: Target disordered and shaken"), "{lively}");
    assert!(lively.contains("(seed 004, MUSKETRY AND CANNONADE TABLE (FF-TAB-MUSKETRY); result: house)"), "{lively}");
    // A result the overlay left alone is the seed's alone.
    let desultory = trace(5);
    assert!(desultory.contains("desultory") && !desultory.contains("result: house"), "{desultory}");
}

/// grognard run in `cwd` with only `env` set of the variables that choose rules folders.
fn grognard_env(cwd: &Path, env: &[(&str, &Path)], args: &[&str]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grognard"));
    command.args(args).current_dir(cwd).env("NO_COLOR", "1").env_remove("GROGNARD_RULES");
    // A user folder of the machine's own is never read by the test.
    command.env("XDG_DATA_HOME", cwd.join("no-data"));
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().unwrap()
}

#[test]
fn ids_are_looked_up_on_the_search_path_in_order() {
    let dir = tempfile::tempdir().unwrap();
    my_rules(dir.path());
    let here = dir.path();
    let myrules = here.join("myrules");
    // Not on the path: the edited copy is not found by id, the shipped ff-napoleonic is.
    assert_eq!(row_one(&grognard_env(here, &[], &["show", "--rules", "ff-napoleonic", "musketry"])), "1 0-9 10+ - - -");
    let missing = grognard_env(here, &[], &["show", "--rules", "ff-mine", "musketry"]);
    assert_eq!(missing.status.code(), Some(1));
    // --rules-path, before anything else, finds both, the overlay on the edited copy.
    let flag = ["--rules-path", myrules.to_str().unwrap()];
    let shown = grognard_env(here, &[], &[&flag[..], &["show", "--rules", "ff-mine", "musketry"]].concat());
    assert_eq!(row_one(&shown), "1 0-4 5+ - - -");
    let shown = grognard_env(here, &[], &["show", "--rules", "ff-napoleonic", "musketry", flag[0], flag[1]]);
    assert_eq!(row_one(&shown), "1 0-4 5+ - - -");
    // GROGNARD_RULES as a list of folders, a missing one passed over.
    let list = std::env::join_paths([here.join("nowhere"), myrules.clone()]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["show", "--rules", "ff-mine", "musketry"])
        .current_dir(here)
        .env("GROGNARD_RULES", &list)
        .env("XDG_DATA_HOME", here.join("no-data"))
        .output()
        .unwrap();
    assert_eq!(row_one(&out), "1 0-4 5+ - - -");
    // The user's rules folder, after ./rules and before the built-in rulesets.
    let data = here.join("data");
    copy_tree(&myrules, &data.join("grognard/rules"));
    let user = [("XDG_DATA_HOME", data.as_path())];
    assert_eq!(row_one(&grognard_env(here, &user, &["show", "--rules", "ff-mine", "musketry"])), "1 0-4 5+ - - -");
    // `grognard rules` lists each folder in order, and marks an id found earlier.
    let listed = stdout(&grognard_env(here, &user, &["rules"]));
    let user_line = listed.find("(your rules folder)").unwrap();
    let built_in = listed.find("(the rulesets built into grognard)").unwrap();
    assert!(user_line < built_in, "{listed}");
    assert!(listed[user_line..built_in].contains("ff-mine"), "{listed}");
    assert!(
        listed[built_in..].contains("Fire & Fury Napoleonic (Rebel Yell No. 16 variant)  [hidden: found earlier]"),
        "{listed}"
    );
}

#[test]
fn check_refuses_a_house_rule_renamed_so_it_replaces_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    for id in ["ff-napoleonic", "ff-house-example"] {
        copy_tree(&rules.join(id), &dir.path().join(id));
    }
    let file = dir.path().join("ff-house-example/procedures/fire_row.rhai");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("fn fire_row(fire_points)", "fn fire_rwo(fire_points)")).unwrap();
    let out = grognard_in(dir.path(), &["check", "./ff-house-example"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("script::overlay"), "{err}");
    assert!(err.contains("`fire_rwo` replaces nothing in ff-napoleonic and nothing calls it (did you"), "{err}");
    assert!(err.contains("ff-house-example/procedures/fire_row.rhai:4:4"), "{err}");
}
