//! What a rule, script or scenario folder holds cannot hang a command or read a file outside it.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{grognard_within, stderr, stdout};

/// Stderr with miette's 80-column wrapping undone, so that a message can be found whole.
fn unwrapped(out: &std::process::Output) -> String {
    stderr(out).replace("\n  │ ", " ")
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().expect("mkfifo runs").success(), "mkfifo {}", path.display());
}

fn link(target: &Path, path: &Path) {
    std::os::unix::fs::symlink(target, path).expect("a symlink");
}

/// A copy of the `sandbox` fixture ruleset in `dir/rules/sandbox`, with every kind of file in it.
fn sandbox(dir: &Path) -> PathBuf {
    let fixture = Path::new("tests/fixtures/rules/sandbox");
    let folder = dir.join("rules/sandbox");
    for sub in ["", "tables", "modifiers", "procedures", "procedures/lib"] {
        std::fs::create_dir_all(folder.join(sub)).unwrap();
        for entry in std::fs::read_dir(fixture.join(sub)).unwrap().flatten() {
            if entry.file_type().unwrap().is_file() {
                std::fs::copy(entry.path(), folder.join(sub).join(entry.file_name())).unwrap();
            }
        }
    }
    folder
}

#[test]
fn check_refuses_fifos_and_links_out_of_the_ruleset_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let folder = sandbox(dir.path());
    mkfifo(&folder.join("tables/pipe.yaml"));
    mkfifo(&folder.join("modifiers/pipe.yaml"));
    mkfifo(&folder.join("procedures/pipe.rhai"));
    link(Path::new("/etc/passwd"), &folder.join("tables/passwd.yaml"));
    link(Path::new("/etc/passwd"), &folder.join("procedures/passwd.rhai"));
    link(&dir.path().join("nothing-here"), &folder.join("tables/dangling.yaml"));
    std::fs::create_dir(folder.join("tables/folder.yaml")).unwrap();
    let shown = folder.display().to_string();
    let out = grognard_within(30, None, &["check", &shown]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = unwrapped(&out);
    for line in [
        format!("{shown}/tables/pipe.yaml is not a regular file (it is a named pipe)"),
        format!("{shown}/modifiers/pipe.yaml is not a regular file (it is a named pipe)"),
        format!("{shown}/procedures/pipe.rhai is not a regular file (it is a named pipe)"),
        format!("{shown}/tables/folder.yaml is not a regular file (it is a folder)"),
        format!("{shown}/tables/passwd.yaml is a link that leads outside the ruleset folder or to nothing"),
        format!("{shown}/procedures/passwd.rhai is a link that leads outside the ruleset folder or to nothing"),
        format!("{shown}/tables/dangling.yaml is a link that leads outside the ruleset folder or to nothing"),
    ] {
        assert!(err.contains(&line), "{line}\n{err}");
    }
    assert!(!err.contains("root:") && !err.contains("/etc") && !err.contains("nothing-here"), "{err}");
}

#[test]
fn a_fifo_for_a_manifest_or_a_sub_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("rules/piped");
    std::fs::create_dir_all(&folder).unwrap();
    mkfifo(&folder.join("ruleset.yaml"));
    let out = grognard_within(30, None, &["check", &folder.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(unwrapped(&out).contains("ruleset.yaml is not a regular file (it is a named pipe)"), "{}", stderr(&out));

    let folder = sandbox(dir.path());
    std::fs::remove_dir_all(folder.join("tables")).unwrap();
    mkfifo(&folder.join("tables"));
    let out = grognard_within(30, None, &["check", &folder.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(unwrapped(&out).contains("sandbox/tables is not a folder"), "{}", stderr(&out));
}

#[test]
fn a_fifo_among_the_rulesets_is_passed_over() {
    let dir = tempfile::tempdir().unwrap();
    sandbox(dir.path());
    let rules = dir.path().join("rules");
    mkfifo(&rules.join("pipe"));
    mkfifo(&rules.join("ruleset.yaml"));
    let out = grognard_within(30, Some(&rules), &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("{}: ok\n", rules.join("sandbox").display()));
}

#[test]
fn an_import_out_of_the_ruleset_says_the_same_whether_the_file_exists() {
    let dir = tempfile::tempdir().unwrap();
    let folder = sandbox(dir.path());
    std::fs::write(dir.path().join("secret.rhai"), "fn leaked() { 1 }").unwrap();
    mkfifo(&folder.join("procedures/lib/pipe.rhai"));
    std::fs::write(
        folder.join("procedures/escapes.rhai"),
        r#"
fn to_a_file() { import "../../../secret" as s; 1 }
fn to_nothing() { import "../../../absent" as s; 1 }
fn to_a_pipe() { import "lib/pipe" as s; 1 }
"#,
    )
    .unwrap();
    let shown = folder.display().to_string();
    let eval = |call: &str| unwrapped(&grognard_within(30, None, &["eval", "--rules", &shown, call]));
    let there = eval("to_a_file()");
    let absent = eval("to_nothing()");
    assert!(there.contains("../../../secret.rhai leads outside the ruleset folder"), "{there}");
    // The messages themselves (the snippets under them differ in line and function).
    let message = |text: &str| text.lines().find(|l| l.contains('×')).unwrap_or_default().to_string();
    assert_eq!(message(&there).replace("secret", "absent"), message(&absent));
    assert!(!message(&there).contains(&dir.path().display().to_string()), "{there}");
    let pipe = eval("to_a_pipe()");
    assert!(pipe.contains("lib/pipe.rhai is not a regular file (it is a named pipe)"), "{pipe}");
}

#[test]
fn a_script_or_order_of_battle_that_is_a_fifo_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("pipe.rhai");
    mkfifo(&script);
    let out = grognard_within(30, None, &["run", &script.display().to_string(), "--rules", "ff-napoleonic"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(unwrapped(&out).contains("pipe.rhai is not a regular file (it is a named pipe)"), "{}", stderr(&out));

    mkfifo(&dir.path().join("oob.yaml"));
    link(Path::new("/etc/passwd"), &dir.path().join("passwd.yaml"));
    for (name, expected) in [
        ("oob.yaml", "order_of_battle(\"oob.yaml\"): oob.yaml is not a regular file (it is a named pipe)"),
        (
            "passwd.yaml",
            "order_of_battle(\"passwd.yaml\"): passwd.yaml is a link that leads outside the scenario folder or to nothing",
        ),
    ] {
        let script = dir.path().join("scenario.rhai");
        std::fs::write(&script, format!("//! rules: ff-napoleonic\nlet oob = order_of_battle(\"{name}\");\n")).unwrap();
        let out = grognard_within(30, None, &["run", &script.display().to_string(), "--trials", "1"]);
        assert_eq!(out.status.code(), Some(1));
        assert!(unwrapped(&out).contains(expected), "{}", stderr(&out));
        assert!(!unwrapped(&out).contains("root:"), "{}", stderr(&out));
    }
}

#[test]
fn a_grid_file_that_is_a_fifo_or_a_device_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("grid.yaml");
    mkfifo(&pipe);
    let call = r#"fire(unit(#{name: "A", nation: "britain", arm: "infantry", stands: 6, formation: "line"}), unit(#{name: "B", nation: "france", arm: "infantry", stands: 6, formation: "column"}), #{range: range})"#;
    for (file, kind) in [(pipe.display().to_string(), "a named pipe"), ("/dev/zero".to_string(), "a device")] {
        let out = grognard_within(
            30,
            None,
            &["compare", "--a", "ff-napoleonic", "--b", "ff-house-example", "--grid", &file, call],
        );
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let err = unwrapped(&out);
        assert!(err.contains(&format!("--grid: {file} is not a regular file (it is {kind})")), "{err}");
    }
}
