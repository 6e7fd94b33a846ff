//! `grognard compare`: one call under two rule versions, held to two `odds` runs of its own.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::{exact_odds, grognard, stderr, stdout};

/// A rendered error on one line: its words, without the box drawing it wraps with.
fn flat(err: &str) -> String {
    err.split_whitespace().filter(|w| *w != "│").collect::<Vec<_>>().join(" ")
}

const CALL: &str = r#"fire(unit(#{name: "A", nation: "britain", arm: "infantry", grade: "veteran", stands: 6, formation: "line"}), unit(#{name: "B", nation: "france", arm: "infantry", stands: 6, formation: "column"}), #{range: 2})"#;

/// Each result's exact chance, as `odds --json` gives it under `rules` and `switches`.
fn odds(rules: &str, switches: &[&str]) -> BTreeMap<String, String> {
    odds_of(CALL, rules, switches)
}

/// `compare` without and with the house example's veteran volleys, before the call.
const VOLLEYS: [&str; 5] = ["compare", "--a", "ff-house-example --without veteran_volleys", "--b", "ff-house-example"];

/// `compare` of `CALL` without and with the house example's veteran volleys, and `extra`.
fn veteran_volleys(extra: &[&str]) -> std::process::Output {
    grognard(&[&VOLLEYS[..], &[CALL], extra].concat())
}

#[test]
fn compare_gives_the_odds_two_odds_runs_give_and_ranks_the_changes() {
    let out = veteran_volleys(&["--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["exact"], Value::Bool(true));
    let a = odds("ff-house-example", &["--without", "veteran_volleys"]);
    let b = odds("ff-house-example", &[]);
    let changes = json["changes"].as_array().unwrap();
    assert_eq!(changes.len(), a.len().max(b.len()));
    for change in changes {
        let outcome = change["outcome"].as_str().unwrap();
        let zero = "\"0\"".to_string();
        assert_eq!(change["a"].to_string(), *a.get(outcome).unwrap_or(&zero), "{outcome} under A");
        assert_eq!(change["b"].to_string(), *b.get(outcome).unwrap_or(&zero), "{outcome} under B");
        let points = (change["b_float"].as_f64().unwrap() - change["a_float"].as_f64().unwrap()) * 100.0;
        assert!((change["points"].as_f64().unwrap() - points).abs() < 1e-9, "{outcome}");
    }
    // The veteran's volley at 2" moves a tenth from desultory to deadly, and nothing else.
    let text = stdout(&veteran_volleys(&[]));
    let rows: Vec<&str> =
        text.lines().skip_while(|l| !l.starts_with("result")).skip(1).take_while(|l| !l.is_empty()).collect();
    assert!(rows[0].starts_with("desultory") && rows[0].contains(" -10.0pt  ") && rows[0].ends_with("█│"), "{text}");
    assert!(rows[1].starts_with("deadly") && rows[1].contains(" +10.0pt  ") && rows[1].ends_with("│████████████"));
    assert!(rows[2..].iter().all(|r| r.contains(" +0.0pt  ")), "{text}");
    // What caused it: the one modifier that differs, by id and source.
    assert!(text.contains("\ncaused by: fire_modifiers.veteran_volleys (house)\n"), "{text}");
    assert!(text.contains("modifier fire_modifiers.veteran_volleys: +1 when firer.arm"), "{text}");
    assert!(text.contains("in B only (option veteran_volleys is off in A) (house)"), "{text}");
}

#[test]
fn a_mistake_in_a_version_is_refused_naming_the_version() {
    let out = grognard(&["compare", "--a", "ff-house-example --wihtout veteran_volleys", "--b", "ff-napoleonic", CALL]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("--a `ff-house-example --wihtout veteran_volleys`"), "{err}");
    assert!(err.contains("'--without'"), "{err}");
    let out = grognard(&["compare", "--a", "ff-napoleonic", "--b", "ff-house-example --without veteran_voleys", CALL]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("no option `veteran_voleys`") && err.contains("did you mean"), "{err}");
    let out = grognard(&["compare", "--a", "ff-napoleonic", "--b", "--with veteran_volleys", CALL]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--b `--with veteran_volleys`: no ruleset"), "{}", stderr(&out));
    let out = grognard(&["compare", "--a", "'ff-napoleonic", "--b", "ff-napoleonic", CALL]);
    assert!(stderr(&out).contains("an unclosed quote"), "{}", stderr(&out));
    let out = grognard(&["compare", "--a", "ff-napoleonic", "--b", "ff-house-example", "2d6"]);
    assert!(flat(&stderr(&out)).contains("`2d6` is dice, which read no rule"), "{}", stderr(&out));
    let out = grognard(&["compare", "--a", "ff-napoleonic --set musketry_below_zero", "--b", "ff-napoleonic", CALL]);
    assert!(stderr(&out).contains("not NAME=CHOICE"), "{}", stderr(&out));
}

/// The call with the grid's variables in it.
const GRID_CALL: &str = r#"fire(unit(#{name: "A", nation: "britain", arm: "infantry", grade: "veteran", stands: 6, formation: formation}), unit(#{name: "B", nation: "france", arm: "infantry", stands: 6, formation: "column"}), #{range: range})"#;

/// `odds --json` of `call` under `rules` and `switches`: each result's exact chance.
fn odds_of(call: &str, rules: &str, switches: &[&str]) -> BTreeMap<String, String> {
    exact_odds(&[&["--rules", rules][..], switches, &[call]].concat())
}

/// `compare` of `GRID_CALL` over range × formation, without and with the veteran volleys, and `extra`.
fn grid(extra: &[&str]) -> std::process::Output {
    let grid = ["--vary", "range=1,2,3", "--vary", "formation=line,column", GRID_CALL];
    grognard(&[&VOLLEYS[..], &grid, extra].concat())
}

#[test]
fn every_cell_of_a_grid_gives_what_two_odds_runs_of_its_own_give() {
    let out = grid(&["--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let cells = json["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 6);
    let mut at = Vec::new();
    for cell in cells {
        let (range, formation) = (cell["at"]["range"].as_str().unwrap(), cell["at"]["formation"].as_str().unwrap());
        at.push(format!("{range} {formation}"));
        let call = GRID_CALL
            .replace("formation: formation", &format!("formation: \"{formation}\""))
            .replace("#{range: range}", &format!("#{{range: {range}}}"));
        let a = odds_of(&call, "ff-house-example", &["--without", "veteran_volleys"]);
        let b = odds_of(&call, "ff-house-example", &[]);
        let zero = "\"0\"".to_string();
        for change in cell["changes"].as_array().unwrap() {
            let outcome = change["outcome"].as_str().unwrap();
            assert_eq!(change["a"].to_string(), *a.get(outcome).unwrap_or(&zero), "{range} {formation}: {outcome} A");
            assert_eq!(change["b"].to_string(), *b.get(outcome).unwrap_or(&zero), "{range} {formation}: {outcome} B");
        }
        assert_eq!(cell["changes"].as_array().unwrap().len(), a.len().max(b.len()).max(1), "{range} {formation}");
        // The veteran's volley counts at 2" or less: only those cells moved, and for it alone.
        let causes: Vec<&str> = cell["causes"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        let moved = cell["largest_points"].as_f64().unwrap() > 0.0;
        assert_eq!(moved, range != "3", "{range} {formation}");
        assert_eq!(causes, if moved { vec!["fire_modifiers.veteran_volleys"] } else { vec![] }, "{range} {formation}");
    }
    // The first variable varies slowest.
    assert_eq!(at, ["1 line", "1 column", "2 line", "2 column", "3 line", "3 column"]);
}

#[test]
fn the_cells_are_ranked_by_the_furthest_move_of_any_outcome() {
    let out = grid(&["--json"]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let cells = json["cells"].as_array().unwrap();
    let mut by_rank: Vec<(u64, f64, usize)> = cells
        .iter()
        .enumerate()
        .map(|(i, c)| (c["rank"].as_u64().unwrap(), c["largest_points"].as_f64().unwrap(), i))
        .collect();
    by_rank.sort_by_key(|(rank, _, _)| *rank);
    assert_eq!(by_rank.iter().map(|(r, _, _)| *r).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    for pair in by_rank.windows(2) {
        let ((_, x, i), (_, y, j)) = (pair[0], pair[1]);
        // Larger moves first; alike moves in the grid's order.
        assert!(x > y || (x == y && i < j), "{by_rank:?}");
    }
    // Each cell's largest move is its largest change of any outcome, in points.
    for cell in cells {
        let largest =
            cell["changes"].as_array().unwrap().iter().map(|c| c["points"].as_f64().unwrap().abs()).fold(0.0, f64::max);
        assert!((cell["largest_points"].as_f64().unwrap() - largest).abs() < 1e-9);
    }
    // The text lists the cells in rank order.
    let text = stdout(&grid(&[]));
    let rows: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("range")).skip(1).take(6).collect();
    assert!(rows[0].starts_with("1      line") && rows[5].starts_with("3      column"), "{text}");
    // Each row cites the differences that moved it by their numbers in the list below.
    assert!(rows[0].ends_with("+10.0pt        -  1"), "{text}");
    assert!(rows[5].ends_with("+0.0pt"), "{text}");
    assert!(text.contains("\n   1. modifier fire_modifiers.veteran_volleys: +1 when"), "{text}");
    assert!(
        text.contains("(house; in 4 of 6 cells)\n   2. switch option veteran_volleys: off in A, on in B"),
        "{text}"
    );
}

#[test]
fn a_sampled_cell_draws_the_same_dice_on_both_sides() {
    // Three dice before the fire: more outcomes than twenty, so the call is sampled instead.
    let call = format!(r#"let x = roll("1d6").total; let y = roll("1d6").total; let z = roll("1d6").total; {CALL}"#);
    let sampled = ["--max-outcomes", "20", "--samples", "2000", "--seed", "7", "--json"];
    let same = |a: &str, b: &str| {
        let mut args = vec!["compare", "--a", a, "--b", b, &call];
        args.extend_from_slice(&sampled);
        let out = grognard(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_str::<Value>(&stdout(&out)).unwrap()
    };
    // Two versions alike in all this fire reads: sampled with the same dice, trial by trial,
    // they tell no difference at all (independent samples would differ by chance).
    let json = same("ff-house-example", "ff-house-example --with wider_struggle");
    assert_eq!(json["exact"], Value::Bool(false));
    assert_eq!(json["a"]["header"]["seed"], 7);
    for change in json["changes"].as_array().unwrap() {
        assert_eq!(change["a"], change["b"], "{change}");
        assert_eq!(change["points"].as_f64(), Some(0.0));
    }
    // Each side's samples are those `odds` draws alone with that seed.
    let json = same("ff-house-example --without veteran_volleys", "ff-house-example");
    for (side, switches) in [("a", &["--without", "veteran_volleys"][..]), ("b", &[][..])] {
        let mut args = vec!["odds", "--rules", "ff-house-example"];
        args.extend_from_slice(switches);
        args.extend_from_slice(&[&call, "--max-outcomes", "20", "--samples", "2000", "--seed", "7", "--json"]);
        let alone: Value = serde_json::from_str(&stdout(&grognard(&args))).unwrap();
        for row in alone["distribution"].as_array().unwrap() {
            let outcome = row["result"].as_str().unwrap();
            let change = json["changes"].as_array().unwrap().iter().find(|c| c["outcome"] == outcome).unwrap();
            assert_eq!(change[format!("{side}_float")].as_f64(), row["p"].as_f64(), "{side}: {outcome}");
        }
    }
}

#[test]
fn a_grid_variable_the_call_does_not_read_is_refused() {
    let out =
        grognard(&["compare", "--a", "ff-napoleonic", "--b", "ff-house-example", "--vary", "rnage=1,2", GRID_CALL]);
    assert!(!out.status.success());
    let err = flat(&stderr(&out));
    assert!(err.contains("--vary rnage=1,2: the call reads no variable `rnage` (did you mean `range`?)"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("grid.yaml");
    std::fs::write(&file, "vary:\n  range: [1, 2]\n  formaton: [line, column]\n").unwrap();
    let path = file.to_str().unwrap();
    let out = grognard(&["compare", "--a", "ff-napoleonic", "--b", "ff-house-example", "--grid", path, GRID_CALL]);
    assert!(!out.status.success());
    let err = flat(&stderr(&out));
    assert!(err.contains("cli::grid_file") && err.contains("did you mean `formation`"), "{err}");
    assert!(err.contains("grid.yaml:3:3"), "{err}");
    // The same file, spelt right, sweeps the grid.
    std::fs::write(&file, "vary:\n  range: [1, 2]\n  formation: [line, column]\n").unwrap();
    let out = grognard(&["compare", "--a", "ff-napoleonic", "--b", "ff-house-example", "--grid", path, GRID_CALL]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("exact odds over 4 cells (range × formation)"), "{}", stdout(&out));
}

#[test]
fn a_cell_that_fails_is_named_with_its_version() {
    let call = CALL.replace("#{range: 2}", "#{range: range, cover: cover}");
    let out = grognard(&[
        "compare",
        "--a",
        "ff-napoleonic",
        "--b",
        "ff-house-example",
        "--vary",
        "range=2",
        "--vary",
        "cover=woods,wodos",
        &call,
    ]);
    assert!(!out.status.success());
    let err = flat(&stderr(&out));
    assert!(err.contains("range=2 cover=wodos could not be worked out under version A"), "{err}");
}

#[test]
fn the_grid_as_csv_has_a_row_per_cell_and_outcome() {
    let out = grid(&["--csv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("# A grognard: "), "{text}");
    let body: String = text.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    let mut reader = csv::Reader::from_reader(body.as_bytes());
    assert_eq!(
        reader.headers().unwrap(),
        vec!["range", "formation", "of", "outcome", "a", "b", "points", "rank", "causes"]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let json: Value = serde_json::from_str(&stdout(&grid(&["--json"]))).unwrap();
    let expected: usize =
        json["cells"].as_array().unwrap().iter().map(|c| c["changes"].as_array().unwrap().len()).sum();
    assert_eq!(rows.len(), expected);
    let deadly = rows.iter().find(|r| &r[0] == "2" && &r[1] == "line" && &r[3] == "deadly").unwrap();
    assert_eq!(
        (&deadly[2], &deadly[4], &deadly[5], &deadly[6], &deadly[8]),
        ("result", "0.1", "0.2", "10.000000", "fire_modifiers.veteran_volleys")
    );
}

#[test]
fn a_rules_folder_at_a_git_revision_is_a_version() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"])
            .args(args)
            .current_dir(root)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    let house = root.join("house");
    std::fs::create_dir_all(house.join("modifiers")).unwrap();
    std::fs::write(house.join("ruleset.yaml"), "id: my-house\nextends: ff-napoleonic\ntitle: Mine\nsource: house\n")
        .unwrap();
    let volleys = |value: &str| {
        format!(
            "modifiers:\n  - id: veteran_volleys\n    value: {value}\n    text: Veterans\n    when: firer.grade == \"veteran\" && situation.range <= 2\n    source: house\n"
        )
    };
    std::fs::write(house.join("modifiers/fire_modifiers.yaml"), volleys("+1")).unwrap();
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-qm", "one"]);
    // The folder now says +2; the revision still says +1.
    std::fs::write(house.join("modifiers/fire_modifiers.yaml"), volleys("+2")).unwrap();
    let run = |a: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
            .args(["compare", "--a", a, "--b", "house", CALL, "--json"])
            .env("NO_COLOR", "1")
            .current_dir(root)
            .output()
            .unwrap()
    };
    let out = run("git:HEAD:house");
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let differences = json["differences"].as_array().unwrap();
    assert_eq!(differences.len(), 1, "{differences:?}");
    assert_eq!(differences[0]["id"], "fire_modifiers.veteran_volleys");
    assert!(differences[0]["what"].as_str().unwrap().starts_with("+1 in A, +2 in B when"), "{differences:?}");
    assert_eq!(json["cells"][0]["causes"][0], "fire_modifiers.veteran_volleys");
    // A page that cannot be written is said after the output, which is whole.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["compare", "--a", "git:HEAD:house", "--b", "house", CALL, "--html", "missing/page.html"])
        .env("NO_COLOR", "1")
        .current_dir(root)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stdout(&out).contains("\ncaused by: fire_modifiers.veteran_volleys (house)\n"), "{}", stdout(&out));
    assert!(flat(&stderr(&out)).contains("cannot write missing/page.html"), "{}", stderr(&out));
    let out = run("git:HEAD~3:house");
    assert!(flat(&stderr(&out)).contains("has no revision `HEAD~3`"), "{}", stderr(&out));
    let out = run("git:HEAD:hose");
    assert!(flat(&stderr(&out)).contains("revision `HEAD` has no folder `hose`"), "{}", stderr(&out));

    // An overlay over a base kept beside it: the revision's base comes with the revision's
    // overlay, not today's. The base now says +2 where the revision's said +1.
    let base = root.join("base");
    std::fs::create_dir_all(base.join("modifiers")).unwrap();
    std::fs::write(base.join("ruleset.yaml"), "id: my-base\nextends: ff-napoleonic\ntitle: Base\nsource: house\n")
        .unwrap();
    std::fs::write(base.join("modifiers/fire_modifiers.yaml"), volleys("+1")).unwrap();
    let upper = root.join("upper");
    std::fs::create_dir_all(&upper).unwrap();
    std::fs::write(upper.join("ruleset.yaml"), "id: my-upper\nextends: base\ntitle: Upper\nsource: house\n").unwrap();
    git(&["add", "."]);
    git(&["commit", "-qm", "two"]);
    std::fs::write(base.join("modifiers/fire_modifiers.yaml"), volleys("+2")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["compare", "--a", "git:HEAD:upper", "--b", "upper", CALL, "--json"])
        .env("NO_COLOR", "1")
        .current_dir(root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let what: Vec<&str> = json["differences"].as_array().unwrap().iter().map(|d| d["what"].as_str().unwrap()).collect();
    assert!(what.iter().any(|w| w.starts_with("+1 in A, +2 in B when")), "{what:?}");
}

/// A fresh French column charges an Austrian line; the house example's wider Desperate Struggle.
const MELEE: &str = r#"melee(unit(#{ name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column", markers: #{ fresh: true } }), unit(#{ name: "IR 4", nation: "austria", arm: "infantry", stands: 5, formation: "line" }), #{ year: 1809 })"#;

#[test]
fn a_field_of_the_result_is_compared_as_the_result_is() {
    let args = ["compare", "--a", "ff-house-example", "--b", "ff-house-example --with wider_struggle"];
    let out = grognard(&[&args[..], &["--field", "attacker_lost", MELEE, "--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let field = &json["cells"][0]["fields"][0];
    assert_eq!(field["field"], "attacker_lost");
    for (side, switches) in [("a", &[][..]), ("b", &["--with", "wider_struggle"][..])] {
        let mut odds = vec!["odds", "--rules", "ff-house-example"];
        odds.extend_from_slice(switches);
        odds.extend_from_slice(&["--field", "attacker_lost", MELEE, "--json"]);
        let alone: Value = serde_json::from_str(&stdout(&grognard(&odds))).unwrap();
        let rows = alone["fields"][0]["distribution"].as_array().unwrap();
        for row in rows {
            let outcome = row["result"].to_string();
            let change = field["changes"].as_array().unwrap().iter().find(|c| c["outcome"] == outcome).unwrap();
            assert_eq!(change[side].to_string(), row["probability"].to_string(), "{side}: {outcome} stands");
        }
        let mean = alone["fields"][0]["mean"].as_f64().unwrap();
        assert!((field["mean"][side].as_f64().unwrap() - mean).abs() < 1e-12, "{side}");
    }
    // The French lose more with the wider struggle: 0.096 stands on average, then 0.184.
    let text = stdout(&grognard(&[&args[..], &["--field", "attacker_lost", MELEE]].concat()));
    assert!(text.contains("\nattacker_lost         A         B    change\n"), "{text}");
    assert!(text.contains("\nmean  0.096 -> 0.184 (+0.088)\n"), "{text}");
    // The seed's bands under A, the house patch's under B.
    assert!(text.contains("caused by: melee (seed 004, MELEE TABLE (FF-TAB-MELEE) in A, house in B)"), "{text}");
    assert!(text.contains("table melee: hard_pressed 1-3 in A, 2,3 in B; desperate_struggle 0 in A, 0,1 in B (seed"));
    // Over a grid, the field's mean change is a column of its own.
    let call = MELEE.replace("stands: 5", "stands: stands");
    let grid = stdout(&grognard(&[&args[..], &["--vary", "stands=4,5", "--field", "attacker_lost", &call]].concat()));
    assert!(grid.contains("attacker_lost mean"), "{grid}");
    assert!(grid.contains("+0.088"), "{grid}");
}

#[test]
fn ctrl_c_leaves_no_folder_taken_from_git_behind() {
    let dir = tempfile::tempdir().unwrap();
    let (root, tmp) = (dir.path().join("repo"), dir.path().join("tmp"));
    std::fs::create_dir_all(root.join("house")).unwrap();
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(
        root.join("house/ruleset.yaml"),
        "id: my-house\nextends: ff-napoleonic\ntitle: Mine\nsource: house\n",
    )
    .unwrap();
    for args in [&["init", "-q"][..], &["add", "."], &["commit", "-qm", "one"]] {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"])
            .args(args)
            .current_dir(&root)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // A call that runs until it is stopped, under a version written out from git.
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(["compare", "--a", "git:HEAD:house", "--b", "house", "--max-operations", "1000000000000"])
        .args(["--time-limit", "120", "let i = 0; loop { i += 1 }"])
        .current_dir(&root)
        .env("TMPDIR", &tmp)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let written = |tmp: &std::path::Path| std::fs::read_dir(tmp).unwrap().count();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while written(&tmp) == 0 {
        assert!(std::time::Instant::now() < deadline, "compare wrote nothing out from git");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // The folder is there while the call runs; give it a moment to be at work on it.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let killed = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(stderr(&out).contains("interrupted (Ctrl-C)"), "{}", stderr(&out));
    assert_eq!(written(&tmp), 0, "left behind: {:?}", std::fs::read_dir(&tmp).unwrap().collect::<Vec<_>>());
}
