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
            "2500",
            "--seed",
            "11",
            "--jobs",
            jobs,
            "--json",
        ]))
    };
    // All but the header, whose command line names the jobs.
    let study = |text: &str| {
        let mut v: Value = serde_json::from_str(text).unwrap();
        v.as_object_mut().unwrap().remove("header");
        v
    };
    let one = run("1");
    assert_eq!(study(&one), study(&run("2")));
    assert_eq!(study(&one), study(&run("3")));
    let v: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["seed"], 11);
    // 63 blocks of up to 40 trials (a study of under 64,000 trials is cut into about 64
    // blocks), summed in trial order whoever ran them.
    assert_eq!(v["summary"]["trials"], 2500);
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
    // Past the header's `#` lines, the table.
    let lines: Vec<&str> = csv.lines().filter(|l| !l.starts_with('#')).collect();
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
    // The coin: heads on 1-5 of a d10, and the die recorded: each face 1/10, mean 11/2.
    assert!(out.contains("\ncoin (tallied once a trial: the chance of each)\n"), "{out}");
    assert!(out.contains("\nheads       1/2    50.00%"), "{out}");
    assert!(out.contains("\ntails       1/2    50.00%"), "{out}");
    assert!(out.contains("\ndie (recorded once a trial: the chance of each)\n"), "{out}");
    assert!(out.contains("mean 5.5000 (exactly 11/2), standard deviation 2.8723, min 1, max 10"), "{out}");

    let v: Value =
        serde_json::from_str(&stdout(&grognard(&["run", "tests/fixtures/scripts/coin.rhai", "--exact", "--json"])))
            .unwrap();
    let coin = &v["tallies"]["coin"];
    assert_eq!((&coin["once_a_trial"], &coin["per_trial"]), (&Value::Bool(true), &serde_json::json!(1.0)));
    let rows = coin["distribution"].as_array().unwrap();
    assert_eq!(
        (&rows[0]["value"], &rows[0]["probability"], &rows[0]["p"]),
        (&"heads".into(), &"1/2".into(), &0.5.into())
    );
    let die = &v["records"]["die"];
    assert_eq!(
        (&die["mean"], &die["mean_exact"], &die["min"], &die["max"]),
        (&5.5.into(), &"11/2".into(), &1.into(), &10.into())
    );
    // The spread of a uniform 1-10: sqrt((10^2 - 1) / 12).
    assert!((die["standard_deviation"].as_f64().unwrap() - (99.0f64 / 12.0).sqrt()).abs() < 1e-12);
    let faces = die["distribution"].as_array().unwrap();
    assert_eq!(faces.len(), 10);
    assert!(faces.iter().enumerate().all(|(i, f)| f["value"] == (i as i64 + 1) && f["probability"] == "1/10"));
}

/// The melee of `scripts/ff_melee_study.rhai`, returned whole.
const STUDY_MELEE: &str = r#"let french = unit(#{ name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column", markers: #{ fresh: true } });
let austrians = unit(#{ name: "IR 4 Deutschmeister", nation: "austria", arm: "infantry", stands: 5, formation: "line" });
melee(french, austrians, #{ year: 1809 })"#;

#[test]
fn the_melee_study_tallies_exactly_what_the_fields_of_its_melee_give() {
    // The study tallies and records from the melee's map in Rhai; `odds --field` reads the
    // same map's fields after the walk: two paths to the same exact chances.
    let study = grognard(&["run", "scripts/ff_melee_study.rhai", "--exact", "--json"]);
    assert_eq!(study.status.code(), Some(0), "{}", stderr(&study));
    let study: Value = serde_json::from_str(&stdout(&study)).unwrap();
    assert_eq!(study["exact"], true);
    let fields = ["rounds", "attacker_lost", "defender_lost"];
    let mut args = vec!["odds", "--rules", "ff-napoleonic", STUDY_MELEE, "--json"];
    for f in fields {
        args.extend(["--field", f]);
    }
    let melee: Value = serde_json::from_str(&stdout(&grognard(&args))).unwrap();
    let chances = |rows: &Value, key: &str| -> Vec<(Value, Value)> {
        rows.as_array().unwrap().iter().map(|r| (r[key].clone(), r["probability"].clone())).collect()
    };
    let field =
        |name: &str| &melee["fields"].as_array().unwrap().iter().find(|f| f["field"] == name).unwrap()["distribution"];
    // Tallied once a trial, so each row is the chance per trial; in the chart's order, as the result.
    assert_eq!(
        chances(&study["tallies"]["result"]["distribution"], "value"),
        chances(&melee["distribution"], "result")
    );
    assert_eq!(study["tallies"]["result"]["once_a_trial"], true);
    // `rounds - 1` desperate struggles.
    let struggles: Vec<(Value, Value)> = chances(field("rounds"), "result")
        .into_iter()
        .map(|(r, p)| (Value::from(r.as_i64().unwrap() - 1), p))
        .collect();
    assert_eq!(chances(&study["tallies"]["desperate struggles"]["distribution"], "value"), struggles);
    assert_eq!(
        chances(&study["records"]["French stands lost"]["distribution"], "value"),
        chances(field("attacker_lost"), "result")
    );
    assert_eq!(
        chances(&study["records"]["Austrian stands lost"]["distribution"], "value"),
        chances(field("defender_lost"), "result")
    );
    let mean = |f: &str| {
        melee["fields"].as_array().unwrap().iter().find(|x| x["field"] == f).unwrap()["mean"].as_f64().unwrap()
    };
    assert!((study["records"]["French stands lost"]["mean"].as_f64().unwrap() - mean("attacker_lost")).abs() < 1e-12);
}

#[test]
fn exact_that_must_sample_says_so_with_intervals_and_no_fractions() {
    // Ten dice one by one are too many outcomes to walk: sampled, and said so on each part.
    const TEN_DICE: [&str; 7] =
        ["run", "tests/fixtures/scripts/ten_dice.rhai", "--exact", "--trials", "400", "--seed", "2"];
    let out = grognard(&[&TEN_DICE[..], &["--field", "total"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "estimated odds, not exact: more than 200000 dice outcomes (--max-outcomes): sampled 400 trials with seed 2"
        ),
        "{text}"
    );
    assert!(text.contains("\ntotal    percent       95% interval\n"), "{text}");
    let (_, observed) =
        text.split_once("tallies and records, sampled (400 trials), not exact: percent with 95% intervals").unwrap();
    assert!(observed.contains("over 35 (400 observed)") && observed.contains("95% interval"), "{observed}");
    assert!(observed.contains("total (400 recorded)\n  mean "), "{observed}");
    let (_, tables) = text.split_once('\n').unwrap();
    assert!(!tables.contains('/'), "a sampled share reads as a fraction: {text}");

    let out = grognard(&[&TEN_DICE[..], &["--json"]].concat());
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["exact"], false);
    assert_eq!(v["summary"]["trials"], 400);
    assert_eq!(v["summary"]["tallies"]["over 35"]["n"], 400);
    assert!(v.get("tallies").is_none());
}

#[test]
fn exact_takes_the_walk_limits_odds_takes() {
    // The melee walks far more than 5 outcomes: past the limit it samples, and says why.
    let script = "scripts/ff_melee_study.rhai";
    let out = grognard(&["run", script, "--exact", "--max-outcomes", "5", "-n", "2000", "-s", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("more than 5 dice outcomes (--max-outcomes): sampled 2000 trials with seed 1"), "{text}");
    // Within the standard limits it is exact.
    assert!(!stdout(&grognard(&["run", script, "--exact"])).contains("sampled"));
    // The limits belong to --exact; a study is refused them, and a misspelling is named.
    let out = grognard(&["run", script, "--max-outcomes", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--exact"), "{}", stderr(&out));
    let out = grognard(&["run", script, "--exact", "--max-outcome", "5"]);
    assert!(stderr(&out).contains("a similar argument exists: '--max-outcomes'"), "{}", stderr(&out));
    let out = grognard(&["run", script, "--exact", "--max-depth", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_field_is_read_by_an_exact_run_only_and_from_a_map() {
    let out = grognard(&["run", "tests/fixtures/scripts/coin.rhai", "--field", "total"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--exact"), "{}", stderr(&out));
    // The melee study's script returns the result's word, not the map.
    let out = grognard(&["run", "scripts/ff_melee_study.rhai", "--exact", "--field", "rounds"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out).split_whitespace().filter(|w| *w != "│").collect::<Vec<_>>().join(" ");
    assert!(
        err.contains("--field rounds reads a field of the map a procedure returns, but a result was a word"),
        "{err}"
    );
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
fn a_study_keeping_its_calls_by_their_dice_counts_what_running_them_counts() {
    // Calls of compiled procedures kept by the dice they rolled (`script::dice_paths`) against
    // the same study all by Rhai, which keeps none: the same tallies, to the d1000 rolled after
    // each call, over thousands of trials and across blocks and jobs.
    let study = |script: &str, interpret: bool, jobs: &str, trials: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_grognard"))
            .args(["run", script, "-n", trials, "-s", "1", "-j", jobs, "-q", "--json"])
            .env("GROGNARD_INTERPRET", if interpret { "1" } else { "" })
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let mut v: Value = serde_json::from_str(&stdout(&out)).unwrap();
        v.as_object_mut().unwrap().remove("header");
        v
    };
    for script in ["tests/fixtures/scripts/kept_calls_differential.rhai", "scripts/ff_melee_study.rhai"] {
        let kept = study(script, false, "2", "2500");
        assert_eq!(kept, study(script, true, "1", "2500"), "{script}");
        assert_eq!(kept["summary"]["trials"], 2500);
    }
    // Every shipped study, decks and orders of battle among them, more briefly.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rhai") {
            let script = path.display().to_string();
            assert_eq!(study(&script, false, "2", "200"), study(&script, true, "1", "200"), "{script}");
        }
    }
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

#[test]
fn keep_going_counts_failed_trials_and_names_each_with_its_replay() {
    let script = "tests/fixtures/scripts/fails_after_a_fire.rhai";
    for jobs in ["1", "3"] {
        let out = grognard(&["run", script, "-n", "20", "-s", "4", "-j", jobs, "--keep-going"]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        // The summary, of the 18 trials that ran through.
        let summary = stdout(&out);
        assert!(summary.contains("result (18 observed)"), "{summary}");
        let err = stderr(&out);
        assert!(err.contains("2 of 20 trials failed; the summary counts the 18 that ran through"), "{err}");
        assert!(err.contains("trial 3:") && err.contains("trial 3 cannot go on"), "{err}");
        assert!(err.contains(&format!("grognard run {script} --seed 4 --trial 5 --trace full")), "{err}");
    }
    // JSON lists them too.
    let out = grognard(&["run", script, "-n", "20", "-s", "4", "--keep-going", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let failed: Vec<u64> =
        v["failed_trials"].as_array().unwrap().iter().map(|f| f["trial"].as_u64().unwrap()).collect();
    assert_eq!(failed, [3, 5]);
    assert_eq!(v["summary"]["tallies"]["result"]["n"], 18);
}

#[test]
fn keep_going_counts_every_failure_and_keeps_the_first_hundred() {
    let script = "tests/fixtures/scripts/fails_on_even_trials.rhai";
    let run = |jobs: &str| grognard(&["run", script, "-n", "2500", "-s", "1", "-j", jobs, "-k", "--json"]);
    let (one, three) = (run("1"), run("3"));
    assert_eq!(one.status.code(), Some(1));
    let v: Value = serde_json::from_str(&stdout(&one)).unwrap();
    let w: Value = serde_json::from_str(&stdout(&three)).unwrap();
    assert_eq!(v["failed_count"], 1250);
    let failed: Vec<u64> =
        v["failed_trials"].as_array().unwrap().iter().map(|f| f["trial"].as_u64().unwrap()).collect();
    assert_eq!(failed, (0..100).map(|i| 2 * i).collect::<Vec<u64>>());
    assert_eq!(v["failed_trials"], w["failed_trials"]);
    assert_eq!(v["summary"], w["summary"]);
    assert_eq!(v["summary"]["tallies"]["parity"]["n"], 1250);
    let err = stderr(&one);
    assert!(err.contains("1250 of 2500 trials failed; the summary counts the 1250 that ran through"), "{err}");
    assert!(err.contains("trial 18: trial 18 is even") && !err.contains("trial 20:"), "{err}");
    assert!(err.contains("and 1240 more"), "{err}");
    // CSV names the kept ones and counts the rest.
    let csv = stdout(&grognard(&["run", script, "-n", "2500", "-s", "1", "-k", "--csv"]));
    let line = csv.lines().find(|l| l.starts_with("# failed_trials:")).unwrap();
    assert!(line.starts_with("# failed_trials: 0 2 4 ") && line.ends_with(" 198 and 1150 more"), "{line}");
}

#[test]
fn a_failed_trial_replayed_alone_shows_its_trace_up_to_the_failure() {
    let script = "tests/fixtures/scripts/fails_after_a_fire.rhai";
    let out = grognard(&["run", script, "-s", "4", "--trial", "3", "--trace", "full"]);
    assert_eq!(out.status.code(), Some(1));
    let trace = stdout(&out);
    // The fire that came before the failure, every modifier considered.
    assert!(trace.contains("roll    musketry, 1d10:"), "{trace}");
    assert!(trace.contains("mod     no "), "{trace}");
    assert!(trace.contains("table   Musketry and Cannonade Table"), "{trace}");
    assert!(stderr(&out).contains("trial 3 cannot go on"), "{}", stderr(&out));
    // Brief by default.
    let brief = stdout(&grognard(&["run", script, "-s", "4", "--trial", "3"]));
    assert!(brief.contains("roll    musketry") && !brief.contains("mod     no "), "{brief}");
}

#[test]
fn target_error_stops_when_every_share_is_that_narrow_and_says_what_stopped_it() {
    let study = |jobs: &str, target: &str, trials: &str| {
        grognard(&[
            "run",
            "scripts/ff_melee_study.rhai",
            "-n",
            trials,
            "-s",
            "7",
            "-j",
            jobs,
            "--target-error",
            target,
            "--json",
        ])
    };
    let out = study("1", "1.5%", "50000");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let stopped = &v["stopped"];
    assert_eq!(stopped["by"], "target_error");
    let trials = stopped["trials"].as_u64().unwrap();
    // Checked after whole blocks of 1000, well before the 50000 allowed.
    assert!(trials.is_multiple_of(1000) && trials < 50000, "{trials}");
    assert_eq!(v["summary"]["trials"].as_u64(), Some(trials));
    assert_eq!(v["header"]["trials"].as_u64(), Some(trials));
    // Every share's interval, worked out again here from its counts, is within the target.
    for tally in v["summary"]["tallies"].as_object().unwrap().values() {
        let n = tally["n"].as_f64().unwrap();
        for row in tally["outcomes"].as_array().unwrap() {
            let p = row["count"].as_f64().unwrap() / n;
            let z = 1.959_963_984_540_054f64;
            let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
            assert!(half * 100.0 <= 1.5 + 1e-9, "{row}");
        }
    }
    // The same place to stop, and the same study, whatever the jobs.
    let three: Value = serde_json::from_str(&stdout(&study("3", "1.5%", "50000"))).unwrap();
    assert_eq!(three["summary"], v["summary"]);
    assert_eq!(three["stopped"], v["stopped"]);
    // Too tight for the trials allowed: it says the trials ran out first.
    let text =
        stdout(&grognard(&["run", "scripts/ff_melee_study.rhai", "-n", "1500", "-s", "7", "--target-error", "0.1"]));
    assert!(
        text.contains("ran all 1500 trials (--trials) before every share's 95% interval was within ±0.1%"),
        "{text}"
    );
    // A target that is not one is a usage error.
    for bad in ["0", "abc", "60%"] {
        let out = grognard(&["run", "scripts/ff_melee_study.rhai", "--target-error", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(stderr(&out).contains("percentage points"), "{}", stderr(&out));
    }
}
