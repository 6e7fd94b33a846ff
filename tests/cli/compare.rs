//! `grognard compare`: one call under two rule versions, held to two `odds` runs of its own.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::{grognard, stderr, stdout};

const CALL: &str = r#"fire(unit(#{name: "A", nation: "britain", arm: "infantry", grade: "veteran", stands: 6, formation: "line"}), unit(#{name: "B", nation: "france", arm: "infantry", stands: 6, formation: "column"}), #{range: 2})"#;

/// Each result's exact chance, as `odds --json` gives it under `rules` and `switches`.
fn odds(rules: &str, switches: &[&str]) -> BTreeMap<String, String> {
    let mut args = vec!["odds", "--rules", rules];
    args.extend_from_slice(switches);
    args.extend_from_slice(&[CALL, "--json"]);
    let out = grognard(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rows = json["distribution"].as_array().unwrap();
    rows.iter().map(|r| (r["result"].as_str().unwrap().to_string(), r["probability"].to_string())).collect()
}

/// `compare` of `CALL` without and with the house example's veteran volleys, and `extra`.
fn veteran_volleys(extra: &[&str]) -> std::process::Output {
    let mut args =
        vec!["compare", "--a", "ff-house-example --without veteran_volleys", "--b", "ff-house-example", CALL];
    args.extend_from_slice(extra);
    grognard(&args)
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
    let rows: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("result")).skip(1).collect();
    assert!(rows[0].starts_with("desultory") && rows[0].ends_with("-10.0pt"), "{text}");
    assert!(rows[1].starts_with("deadly") && rows[1].ends_with("+10.0pt"), "{text}");
    assert!(rows[2..].iter().all(|r| r.ends_with("+0.0pt")), "{text}");
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
    let out = grognard(&["compare", "--a", "ff-napoleonic --set musketry_below_zero", "--b", "ff-napoleonic", CALL]);
    assert!(stderr(&out).contains("not NAME=CHOICE"), "{}", stderr(&out));
}
