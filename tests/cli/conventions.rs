//! The command line as scripts and shells expect it: a closed pipe ends quietly, short flags,
//! completion scripts and a manual page made from the same definition as the parser.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use super::{grognard, stderr, stdout};

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly_with_zero() {
    // `grognard roll 2d6 -n 1000000 | head -2`: two lines read, then the pipe closed.
    for args in [
        &["roll", "2d6", "-n", "1000000", "-s", "1"][..],
        &["run", "scripts/ff_melee_study.rhai", "-n", "200", "-s", "7", "--trial", "3", "--trace", "full"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grognard"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("grognard runs");
        let mut lines = BufReader::new(child.stdout.take().expect("piped")).lines();
        for _ in 0..2 {
            lines.next().expect("a line").expect("text");
        }
        drop(lines);
        let out = child.wait_with_output().expect("grognard ends");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}

#[test]
fn short_flags_are_the_long_ones() {
    let short = grognard(&["run", "scripts/ff_melee_study.rhai", "-n", "50", "-s", "7", "-j", "2", "-q"]);
    let long =
        grognard(&["run", "scripts/ff_melee_study.rhai", "--trials", "50", "--seed", "7", "--jobs", "1", "--quiet"]);
    assert_eq!(short.status.code(), Some(0), "{}", stderr(&short));
    assert_eq!(stdout(&short), stdout(&long));
    assert!(stdout(&short).contains("50 trials"), "{}", stdout(&short));
}

#[test]
fn completions_for_each_shell_name_every_command() {
    for shell in ["bash", "zsh", "fish"] {
        let out = grognard(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = stdout(&out);
        for command in ["roll", "odds", "check", "eval", "show", "run", "repl", "rules", "completions", "man"] {
            assert!(script.contains(command), "{shell}: no {command}");
        }
        // Flags too (fish writes them without their dashes).
        assert!(script.contains("rules-path") && script.contains("trials"), "{shell}");
    }
    // A shell it does not know is a usage error that lists those it does.
    let out = grognard(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bash") && stderr(&out).contains("zsh"), "{}", stderr(&out));
}

#[test]
fn the_manual_page_is_roff_naming_every_command() {
    let out = grognard(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    let page = stdout(&out);
    assert!(page.contains(".TH grognard 1"), "{page}");
    assert!(page.contains(".SH NAME") && page.contains(".SH SUBCOMMANDS"), "{page}");
    for command in ["roll", "odds", "run", "repl", "completions"] {
        assert!(page.contains(&format!("grognard\\-{command}")), "no {command}:\n{page}");
    }
}

#[test]
fn each_command_has_a_manual_page_of_its_own() {
    let page = stdout(&grognard(&["man", "run"]));
    assert!(page.contains(".TH grognard-run 1"), "{page}");
    assert!(page.contains("\\-\\-trials") && page.contains("\\-n"), "{page}");
    let out = grognard(&["man", "rnu"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("there is no command `rnu` (did you mean `run`?)"), "{}", stderr(&out));
}
