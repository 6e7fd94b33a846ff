//! `grognard run` as a process: shipped scripts, determinism, output shapes, failures.

use serde_json::Value;

use super::{grognard, stderr, stdout};

#[test]
fn every_shipped_script_runs() {
    for script in std::fs::read_dir("scripts").unwrap().flatten().map(|e| e.path()) {
        if script.extension().is_none_or(|e| e != "rhai") {
            continue;
        }
        let path = script.display().to_string();
        let out = grognard(&["run", &path, "--trials", "20", "--seed", "1", "--quiet"]);
        assert_eq!(out.status.code(), Some(0), "{path}: {}", stderr(&out));
        assert!(stdout(&out).contains("20 trials"), "{path}: {}", stdout(&out));
    }
}

#[test]
fn the_same_seed_gives_the_same_study_whatever_the_jobs() {
    let run = |jobs: &str| {
        stdout(&grognard(&[
            "run",
            "scripts/ff_melee_study.rhai",
            "--trials",
            "300",
            "--seed",
            "11",
            "--jobs",
            jobs,
            "--json",
        ]))
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("3"));
    let v: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["seed"], 11);
    assert_eq!(v["summary"]["trials"], 300);
}

#[test]
fn json_and_csv_have_every_number() {
    let out =
        stdout(&grognard(&["run", "tests/fixtures/scripts/coin.rhai", "--trials", "400", "--seed", "5", "--json"]));
    let v: Value = serde_json::from_str(&out).unwrap();
    let coin = &v["summary"]["tallies"]["coin"];
    assert_eq!(coin["n"], 400);
    let rows = coin["outcomes"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    let heads = rows[0]["count"].as_u64().unwrap();
    assert_eq!(heads + rows[1]["count"].as_u64().unwrap(), 400);
    assert!(rows[0]["low"].as_f64().unwrap() < rows[0]["percent"].as_f64().unwrap());
    let die = &v["summary"]["records"]["die"];
    assert_eq!(die["n"], 400);
    assert!((die["mean"].as_f64().unwrap() - 5.5).abs() < 0.5);
    assert!(die["min"].as_f64().unwrap() >= 1.0 && die["max"].as_f64().unwrap() <= 10.0);

    let csv =
        stdout(&grognard(&["run", "tests/fixtures/scripts/coin.rhai", "--trials", "400", "--seed", "5", "--csv"]));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "kind,key,value,count,percent,low,high,n,mean,sd,min,max");
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(lines[1].starts_with(&format!("tally,coin,heads,{heads},")), "{csv}");
    assert!(lines[3].starts_with("record,die,"), "{csv}");
}

#[test]
fn a_failing_trial_is_named_with_how_to_replay_it() {
    for jobs in ["1", "3"] {
        let out = grognard(&[
            "run",
            "tests/fixtures/scripts/fails_on_trial_7.rhai",
            "--trials",
            "20",
            "--seed",
            "4",
            "--jobs",
            jobs,
        ]);
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert!(err.contains("trial 7 cannot go on"), "{err}");
        assert!(err.contains("trial 7 of tests/fixtures/scripts/fails_on_trial_7.rhai failed (study seed 4)"), "{err}");
        assert!(err.contains("grognard run tests/fixtures/scripts/fails_on_trial_7.rhai --seed 4 --trial 7"), "{err}");
    }
    // Replayed alone, it fails the same way; the trial before it does not.
    let out = grognard(&["run", "tests/fixtures/scripts/fails_on_trial_7.rhai", "--seed", "4", "--trial", "7"]);
    assert_eq!(out.status.code(), Some(1));
    let out = grognard(&["run", "tests/fixtures/scripts/fails_on_trial_7.rhai", "--seed", "4", "--trial", "6"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn one_trial_replays_the_same_dice_as_in_the_study() {
    let study =
        stdout(&grognard(&["run", "tests/fixtures/scripts/coin.rhai", "--trials", "10", "--seed", "9", "--csv"]));
    let mut dice = Vec::new();
    for trial in 0..10 {
        let out = stdout(&grognard(&[
            "run",
            "tests/fixtures/scripts/coin.rhai",
            "--seed",
            "9",
            "--trial",
            &trial.to_string(),
        ]));
        let last = out.lines().last().unwrap().to_string();
        dice.push(last.trim_start_matches("= ").parse::<f64>().unwrap());
    }
    let mean: f64 = dice.iter().sum::<f64>() / 10.0;
    let record = study.lines().find(|l| l.starts_with("record,die,")).unwrap();
    let fields: Vec<&str> = record.split(',').collect();
    assert!((fields[8].parse::<f64>().unwrap() - mean).abs() < 1e-9, "{record} vs {dice:?}");
}

#[test]
fn exact_walks_every_outcome_instead_of_sampling() {
    let out = stdout(&grognard(&["run", "tests/fixtures/scripts/coin.rhai", "--exact"]));
    assert!(out.contains("exact odds (10 branches walked)"), "{out}");
    assert!(out.contains("1/10"), "{out}");
}

#[test]
fn a_script_must_name_its_rules_and_exist() {
    let out = grognard(&["run", "tests/fixtures/scripts/no_rules.rhai"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("names no ruleset"), "{}", stderr(&out));
    let out = grognard(&[
        "run",
        "tests/fixtures/scripts/no_rules.rhai",
        "--rules",
        "linear-warfare",
        "--trials",
        "3",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = grognard(&["run", "no/such/script.rhai"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot read the script"), "{}", stderr(&out));
}

#[test]
fn an_order_of_battle_is_checked_with_its_mistakes_underlined() {
    let out = grognard(&["run", "tests/fixtures/scripts/broken_scenario.rhai", "--trials", "1", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("unit `ligne` has arm `infantery`, which this ruleset does not know"), "{err}");
    assert!(err.contains("did you mean `infantry`?"), "{err}");
    assert!(err.contains("╭─[scenarios/broken.yaml:6:69]"), "{err}");
    assert!(err.contains("unit `voltigeurs` names command `brigade_z`, which does not exist"), "{err}");
    let out = grognard(&["run", "tests/fixtures/scripts/escaping_scenario.rhai", "--trials", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("Cargo.toml leads outside"), "{}", stderr(&out));
}

#[test]
fn the_engagement_reads_its_order_of_battle() {
    let out = grognard(&["run", "scripts/ff_engagement.rhai", "--trials", "1", "--seed", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("note    turn 1: the French are"), "{text}");
    assert!(text.lines().last().unwrap().starts_with("= \"the "), "{text}");
}

#[test]
fn the_linear_warfare_charge_study_tallies_every_step() {
    let out = grognard(&["run", "scripts/lw_charge_study.rhai", "--trials", "40", "--seed", "5", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["summary"]["trials"], 40);
    // Every charge of every trial ends one of the ways the charge procedure names.
    let results = ["charge_combat", "charge_failed", "stopped_by_fire", "target_escaped", "surrendered", "no_charge"];
    for key in ["foot charge", "horse charge"] {
        let tally = &v["summary"]["tallies"][key];
        assert_eq!(tally["n"], 40, "{key}");
        let outcomes = tally["outcomes"].as_array().unwrap();
        let mut total = 0;
        for o in outcomes {
            assert!(results.contains(&o["value"].as_str().unwrap()), "{key}: {o}");
            total += o["count"].as_i64().unwrap();
        }
        assert_eq!(total, 40, "{key}");
    }
    for key in ["Saxon stands lost", "Swedish foot stands lost", "Swedish horse stands lost"] {
        assert_eq!(v["summary"]["records"][key]["n"], 40, "{key}");
    }
    // The same seed gives the same study.
    let again = stdout(&grognard(&["run", "scripts/lw_charge_study.rhai", "--trials", "40", "--seed", "5", "--json"]));
    assert_eq!(again, stdout(&out));
}

#[test]
fn the_republique_attrition_study_counts_what_the_attrition_die_takes() {
    let run = |extra: &[&str]| -> Value {
        let mut args = vec!["run", "scripts/rq_attrition_study.rhai", "--trials", "40", "--seed", "3", "--json"];
        args.extend_from_slice(extra);
        let out = grognard(&args);
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stderr(&out));
        serde_json::from_str(&stdout(&out)).unwrap()
    };
    let mean = |v: &Value, key: &str| v["summary"]["records"][key]["mean"].as_f64().unwrap();
    let die =
        |v: &Value| v["summary"]["tallies"]["attrition die"]["outcomes"][0]["value"].as_str().unwrap().to_string();
    // Off by default: nothing lost to it.
    let off = run(&[]);
    assert_eq!(off["summary"]["trials"], 40);
    assert_eq!(die(&off), "off");
    assert_eq!(mean(&off, "French bases lost to the attrition die"), 0.0);
    assert_eq!(mean(&off, "assaults made"), 8.0);
    // On with a d12 (more attrition): both sides lose bases to it, and more bases in all.
    let d12 = run(&["--with", "attrition_die", "--set", "attrition_die_size=d12"]);
    assert_eq!(die(&d12), "d12");
    assert!(mean(&d12, "French bases lost to the attrition die") > 0.0);
    assert!(mean(&d12, "Austrian bases lost to the attrition die") > 0.0);
    assert!(mean(&d12, "French bases lost") > mean(&off, "French bases lost"));
}

#[test]
fn a_day_of_card_draws_counts_phases_runs_and_turns() {
    let run = || stdout(&grognard(&["run", "scripts/lw_day.rhai", "--trials", "5", "--seed", "2", "--json"]));
    let out = run();
    assert_eq!(out, run(), "each trial is seeded");
    let v: Value = serde_json::from_str(&out).unwrap();
    let records = &v["summary"]["records"];
    for key in ["turns", "runs through the deck", "French phases", "Allied phases", "surplus cards"] {
        assert_eq!(records[key]["n"], 5, "{key}");
    }
    // A day lasts 1 to 6 runs through the deck (a d6 in June, Northern Europe).
    let runs = &records["runs through the deck"];
    assert!(runs["min"].as_f64().unwrap() >= 1.0 && runs["max"].as_f64().unwrap() <= 6.0, "{runs}");
    // The Exceptional General's three phases a turn: more French phases than Allied.
    assert!(records["French phases"]["mean"].as_f64() > records["Allied phases"]["mean"].as_f64());
    // And the opening charge, once a trial, ends in one of the charge's results.
    let charge = &v["summary"]["tallies"]["opening charge"];
    assert_eq!(charge["n"], 5, "{charge}");
    let known =
        ["charge_combat", "charge_failed", "target_escaped", "stopped_by_fire", "surrendered", "target_destroyed"];
    for outcome in charge["outcomes"].as_array().unwrap() {
        assert!(known.contains(&outcome["value"].as_str().unwrap()), "{outcome}");
    }
}

#[test]
fn grognard_interpret_gives_the_same_run_without_compiled_procedures() {
    // The escape hatch a player reaches for when a result looks wrong: the same trace, all by Rhai.
    let args = ["run", "scripts/ff_melee_study.rhai", "--trials", "1", "--seed", "5"];
    let compiled = grognard(&args);
    let interpreted = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("GROGNARD_INTERPRET", "1")
        .output()
        .unwrap();
    assert!(compiled.status.success() && interpreted.status.success());
    assert!(stdout(&compiled).contains("Melee Table"), "{}", stdout(&compiled));
    assert_eq!(stdout(&compiled), stdout(&interpreted));
}

#[test]
fn numeric_flags_out_of_their_range_are_usage_errors() {
    let script = "scripts/ff_melee_study.rhai";
    for (args, says) in [
        // Trial u64::MAX ran nothing and exited 0; trials are numbered below the most a study runs.
        (&["run", script, "--trial", "18446744073709551615"][..], "18446744073709551615 is not in 0..100000000"),
        (&["run", script, "--trial", "100000000"], "100000000 is not in 0..100000000"),
        (&["run", script, "--trial", "-1"], "-1"),
        (&["run", script, "--trials", "0"], "0 is not in 1..=100000000"),
        (&["run", script, "--jobs", "0"], "0 is not in 1..=256"),
        (&["run", script, "--jobs", "257"], "257 is not in 1..=256"),
        (&["odds", "2d6", "--max-outcomes", "0"], "0 is not in 1..=100000000"),
        (&["odds", "2d6", "--max-depth", "0"], "0 is not in 1..=1000"),
        (&["odds", "2d6", "--samples", "18446744073709551615"], "is not in 1..=100000000"),
        (&["roll", "2d6", "--times", "1000001"], "1000001 is not in 1..=1000000"),
        (&["check", "--max-problems", "1000001"], "1000001 is not in 0..=1000000"),
    ] {
        let out = grognard(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
    // The last trial there is can be replayed.
    let out = grognard(&["run", script, "--trial", "99999999", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).lines().last().unwrap().starts_with("= "), "{}", stdout(&out));
}
