//! Rules found where a user keeps them: an overlay's `extends:` beside the overlay, and a
//! script's `//! rules:` from the script's own folder, wherever grognard is run from.

use std::path::Path;
use std::process::Command;

use super::{stderr, stdout};

/// Copies a folder and everything in it.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() { copy_folder(&path, &target) } else { std::fs::copy(&path, &target).map(|_| ()).unwrap() }
    }
}

/// A user's own copy of ff-napoleonic, its musketry row "1" edited, with an overlay of their
/// own beside it: `<dir>/myrules/{ff-napoleonic, ff-mine}`.
fn my_rules(dir: &Path) {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/ff-napoleonic");
    let copy = dir.join("myrules/ff-napoleonic");
    copy_folder(&shipped, &copy);
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
    copy_folder(&dir.path().join("myrules/ff-mine"), &battle.join("ff-mine"));
    copy_folder(&dir.path().join("myrules/ff-napoleonic"), &battle.join("ff-napoleonic"));
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
