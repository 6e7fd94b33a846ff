//! The command line as scripts and shells expect it: a closed pipe ends quietly, short flags,
//! completion scripts and a manual page made from the same definition as the parser.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use super::{copy_tree, grognard, stderr, stdout};

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

#[test]
fn json_and_csv_say_how_to_make_them_again() {
    let args = ["run", "scripts/ff_melee_study.rhai", "-n", "30", "-s", "7", "--json"];
    let out = grognard(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let header = &value["header"];
    assert_eq!(header["grognard"], env!("CARGO_PKG_VERSION"));
    assert_eq!(header["rules"], serde_json::json!(["ff-napoleonic"]));
    assert_eq!((header["seed"].as_u64(), header["trials"].as_u64()), (Some(7), Some(30)));
    let hash = header["rules_hash"].as_str().unwrap();
    assert!(hash.starts_with("sha256:") && hash.len() == 7 + 64, "{hash}");
    // The command it names, run again, makes the same file.
    let command: Vec<String> =
        header["command"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().into()).collect();
    assert_eq!(command[0], "grognard");
    let again: Vec<&str> = command[1..].iter().map(String::as_str).collect();
    assert_eq!(again, args);
    assert_eq!(stdout(&grognard(&again)), stdout(&out));

    // CSV: the same header as comment lines, then the table.
    let out = grognard(&[
        "run",
        "scripts/ff_melee_study.rhai",
        "-n",
        "30",
        "-s",
        "7",
        "--csv",
        "--set",
        "melee_extra_stands=over_7",
    ]);
    let csv = stdout(&out);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], format!("# grognard: {}", env!("CARGO_PKG_VERSION")));
    assert!(
        lines.contains(&"# rules: ff-napoleonic") && lines.contains(&"# switches: --set melee_extra_stands=over_7"),
        "{csv}"
    );
    assert!(lines.contains(&"# seed: 7") && lines.contains(&"# trials: 30"), "{csv}");
    assert!(lines.contains(&format!("# rules_hash: {hash}").as_str()), "{csv}");
    let table = lines.iter().position(|l| !l.starts_with('#')).unwrap();
    assert!(lines[table].starts_with("kind,key,value,count"), "{csv}");

    // Dice alone: no rules, no hash; JSON lines of rolls start with the header.
    let out = stdout(&grognard(&["roll", "2d6", "-n", "3", "-s", "5", "--json"]));
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["header"]["seed"].as_u64(), Some(5));
    assert_eq!(first["header"]["rules_hash"], serde_json::Value::Null);
    assert_eq!(out.lines().count(), 4, "{out}");
    let odds: serde_json::Value = serde_json::from_str(&stdout(&grognard(&["odds", "2d6", "--json"]))).unwrap();
    assert_eq!(odds["header"]["command"], serde_json::json!(["grognard", "odds", "2d6", "--json"]));
}

#[test]
fn the_rules_hash_changes_with_any_rule_file_and_not_with_where_it_lies() {
    let hash_of = |dir: &std::path::Path| -> String {
        let out = grognard(&["odds", "--rules", dir.to_str().unwrap(), "1d10", "--json"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let value: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        value["header"]["rules_hash"].as_str().unwrap().to_string()
    };
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/ff-napoleonic");
    let copy = std::env::temp_dir().join(format!("grognard-hash-{}", std::process::id())).join("ff-napoleonic");
    let _ = std::fs::remove_dir_all(copy.parent().unwrap());
    copy_tree(&shipped, &copy);
    assert_eq!(hash_of(&shipped), hash_of(&copy));
    let table = copy.join("tables/musketry.yaml");
    let text = std::fs::read_to_string(&table).unwrap();
    std::fs::write(&table, text + "\n# an edit\n").unwrap();
    assert_ne!(hash_of(&shipped), hash_of(&copy));
    let _ = std::fs::remove_dir_all(copy.parent().unwrap());
}
