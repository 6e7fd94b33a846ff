//! The command line, run as a process: output, JSON shape, exit statuses and rendered errors.

mod odds;
mod repl;
mod roll;
mod rules;
mod run;
mod sandbox;

use std::process::{Command, Output};

/// Runs `grognard` with `args` and no terminal attached.
pub fn grognard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the grognard binary runs")
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
