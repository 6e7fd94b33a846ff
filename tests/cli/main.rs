//! The command line, run as a process: output, JSON shape, exit statuses and rendered errors.

mod attribution;
mod compare;
mod conventions;
mod escapes;
mod files;
mod golden;
mod icepool;
mod installed;
mod odds;
mod overlays;
mod repl;
mod roll;
mod rules;
mod run;
mod sandbox;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `grognard` with `args` and no terminal attached.
pub fn grognard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the grognard binary runs")
}

/// Runs `grognard` with `args` (and `GROGNARD_RULES` when given), failing the
/// test if it has not finished within `seconds`: for reads that could hang.
pub fn grognard_within(seconds: u64, rules_dir: Option<&Path>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grognard"));
    command.args(args).env("NO_COLOR", "1").stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if let Some(dir) = rules_dir {
        command.env("GROGNARD_RULES", dir);
    }
    let mut child = command.spawn().expect("the grognard binary runs");
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while child.try_wait().expect("waiting on grognard").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("grognard {args:?} did not finish within {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("grognard's output")
}

/// Each result's exact chance (`"num/den"`, as JSON writes it) from `grognard odds ARGS --json`.
pub fn exact_odds(args: &[&str]) -> std::collections::BTreeMap<String, String> {
    let out = grognard(&[&["odds"][..], args, &["--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rows = json["distribution"].as_array().unwrap();
    rows.iter().map(|r| (r["result"].as_str().unwrap().to_string(), r["probability"].to_string())).collect()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8 stdout")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("utf-8 stderr")
}

#[test]
fn help_lists_the_commands_and_exits_zero() {
    let out = grognard(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("roll") && text.contains("odds"), "{text}");
}

#[test]
fn every_command_has_help_with_examples() {
    for command in ["roll", "odds"] {
        let out = grognard(&[command, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{command}");
        assert!(stdout(&out).contains("Examples:"), "{command}");
    }
}

#[test]
fn a_usage_error_exits_two() {
    for args in [&["roll"][..], &["dance"], &["roll", "2d6", "--times", "0"], &["odds", "2d6", "--d10", "2-11"]] {
        let out = grognard(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn colour_is_asked_for_with_color_and_never_reaches_a_pipe_otherwise() {
    let escape = "\u{1b}[";
    // Into a pipe: plain by default and with never; coloured only when always is asked for.
    for args in [&["roll", "2dx"][..], &["--color", "never", "roll", "2dx"], &["roll", "2dx", "--color", "auto"]] {
        let out = grognard(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(!stderr(&out).contains(escape), "{args:?}: {}", stderr(&out));
    }
    let out = grognard(&["--color", "always", "roll", "2dx"]);
    assert!(stderr(&out).contains(escape), "{}", stderr(&out));
    assert!(stderr(&out).contains("a `d` is followed by its number of faces"), "{}", stderr(&out));
    let out = grognard(&["--color", "sometimes", "roll", "2d6"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("[possible values: auto, always, never]"), "{}", stderr(&out));
}

/// A folder copied whole (a shipped ruleset, to edit a copy of it).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
