//! The rules commands as processes: check, eval, odds of a procedure, show and schema.

use serde_json::Value;

use super::{grognard, stderr, stdout};

#[test]
fn every_shipped_ruleset_checks_clean() {
    let out = grognard(&["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    for id in ["ff-napoleonic", "linear-warfare", "republique", "ff-house-example"] {
        assert!(text.contains(&format!("rules/{id}: ok")), "{text}");
    }
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

/// Checks a fixture and returns its report; it must fail.
fn broken(name: &str) -> String {
    let path = format!("tests/fixtures/rules/{name}");
    let out = grognard(&["check", &path]);
    assert_eq!(out.status.code(), Some(1), "{name}");
    format!("{}{}", stdout(&out), stderr(&out))
}

#[test]
fn yaml_mistakes_are_pointed_at() {
    insta::assert_snapshot!("broken_yaml", broken("broken-yaml"));
}

#[test]
fn table_mistakes_are_pointed_at() {
    insta::assert_snapshot!("broken_tables", broken("broken-tables"));
}

#[test]
fn modifier_mistakes_are_pointed_at() {
    insta::assert_snapshot!("broken_modifiers", broken("broken-modifiers"));
}

#[test]
fn contract_mistakes_are_pointed_at() {
    insta::assert_snapshot!("broken_contracts", broken("broken-contracts"));
}

/// Issue 38: a slip one level below the top. A literal key or value inside a map or a list
/// a contract declares (`assault`'s `supported`, `overlap`; the card day's sides), and
/// mistakes in nested declarations and in what an option brings, each at file:line:col.
#[test]
fn nested_slips_are_pointed_at() {
    let text = broken("nested-slips");
    for expected in [
        "situation.supported has no key `lfet` (did you mean `left`?); it reads: left, right",
        "slips.rhai:7:36",
        "situation.supported.left is true or false, not the text \"yes\"",
        "slips.rhai:8:42",
        "situation.overlap has no key `lfet` (did you mean `left`?); it reads: left, right",
        "slips.rhai:9:34",
    ] {
        assert!(
            text.replace(['\n', '│'], " ").split_whitespace().collect::<Vec<_>>().join(" ").contains(expected),
            "{expected}: {text}"
        );
    }
    insta::assert_snapshot!("nested_slips", text);
    let text = broken("nested-slips-lw");
    insta::assert_snapshot!("nested_slips_lw", text);
}

#[test]
fn show_lists_the_procedures_and_what_each_takes() {
    let rules = "tests/fixtures/rules/contracts";
    let out = grognard(&["show", "--rules", rules, "procedures", "shoot"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("procedures/shoot.rhai\n    shoot(firer, target, situation): A die plus what the situation adds\n      situation: range, enfiladed, cover, side\n"), "{text}");
    assert!(text.contains("    rally(unit, leader): 1 with a leader\n"), "{text}");
    assert!(text.contains("\nsituation keys (each may be left out):\n"), "{text}");
    assert!(
        text.contains(
            "  enfiladed                  bool, default false\n                             Shot from the flank\n"
        ),
        "{text}"
    );
    assert!(text.contains("  side                       word (britain, france)\n"), "{text}");
    let out = grognard(&["show", "--rules", rules, "rally"]);
    assert!(stdout(&out).contains("  leader                     leader or ()\n"), "{}", stdout(&out));
    let out = grognard(&["show", "--rules", rules, "shot"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no table, modifier list or procedure `shot` (did"), "{}", stderr(&out));
    assert!(stderr(&out).contains("you mean `shoot`?)"), "{}", stderr(&out));
}

#[test]
fn misspelt_words_are_pointed_at() {
    insta::assert_snapshot!("broken_words", broken("broken-words"));
}

#[test]
fn marker_values_of_the_wrong_kind_are_pointed_at() {
    // In table effects (at load) and in literals the procedures write (`check`).
    insta::assert_snapshot!("broken_marker_kinds", broken("broken-marker-kinds"));
}

#[test]
fn markers_listed_without_kinds_are_refused_with_how_to_give_them() {
    insta::assert_snapshot!("broken_marker_list", broken("broken-marker-list"));
}

#[test]
fn misspelt_result_values_and_constants_are_pointed_at() {
    insta::assert_snapshot!("broken_values", broken("broken-values"));
}

#[test]
fn what_is_written_and_never_read_is_warned_of_unless_kept_with_a_reason() {
    // A marker a result sets, a procedure nothing calls, a table property, a result's value and
    // a unit field nothing reads; and `unused:` entries: one kept, one misspelt, one stale, one
    // with no reason.
    insta::assert_snapshot!("unread", broken("unread"));
}

#[test]
fn values_used_as_what_they_are_not_are_pointed_at_below_the_contracts() {
    insta::assert_snapshot!("broken_kinds", broken("broken-kinds"));
}

/// The slips of issue 38 made in a copy of ff-napoleonic: each passed `check` and changed the
/// odds; each is now an error at its line and column with the word it may mean.
#[test]
fn slips_inside_the_shipped_procedures_are_caught_where_written() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("ff-napoleonic");
    super::copy_tree(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/ff-napoleonic"), &copy);
    // Each edit gives where its slip is written: `file:line:col` of `slip` inside `to`.
    let edit = |file: &str, from: &str, to: &str, slip: &str| -> String {
        let path = copy.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let start = text.find(from).unwrap_or_else(|| panic!("{file} no longer holds {from}"));
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        let offset = start + to.find(slip).unwrap();
        let line = text[..offset].matches('\n').count() + 1;
        let col = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1) + 1;
        format!("ff-napoleonic/{file}:{line}:{col}")
    };
    let struggle = edit(
        "procedures/melee.rhai",
        r#"if result == "desperate_struggle""#,
        r#"if result == "desperate_struggel""#,
        r#""desperate_struggel""#,
    );
    let over = edit(
        "procedures/melee.rhai",
        r#"interpretation("melee_extra_stands") == "over_7""#,
        r#"interpretation("melee_extra_stands") == "over7""#,
        r#""over7""#,
    );
    // In a helper with no contract: `unit` is a unit because every caller passes one.
    let colum = edit(
        "procedures/melee.rhai",
        r#""column" => unit.formation == "column""#,
        r#""column" => unit.formation == "colum""#,
        r#""colum""#,
    );
    let range =
        edit("modifiers/fire_modifiers.yaml", "situation.range <= 2 &&", r#"situation.range <= "8" &&"#, r#""8""#);
    let out = grognard(&["check", copy.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = format!("{}{}", stdout(&out), stderr(&out)).replace(&format!("{}/", dir.path().display()), "");
    for (message, at) in [
        ("table `melee` has no result `desperate_struggel` (did you mean", struggle),
        ("interpretation `melee_extra_stands` has no choice \"over7\" (did you mean", over),
        ("\"colum\" is not a formation of this ruleset (did you mean `column`?)", colum),
        ("compares `situation.range` (a number) with \"8\" (a word)", range),
    ] {
        let flat = text.replace("\n  │ ", " ");
        assert!(flat.contains(message), "{message}\n{text}");
        assert!(text.contains(&at), "{at}\n{text}");
    }
    assert!(text.contains("ff-napoleonic: 4 errors and 0 warnings"), "{text}");
}

#[test]
fn procedure_mistakes_are_pointed_at() {
    insta::assert_snapshot!("broken_procedures", broken("broken-procedures"));
}

#[test]
fn dice_that_run_out_name_the_roll_and_keep_the_trace_so_far() {
    let melee = r#"let a = unit(#{name: "A", nation: "france", arm: "infantry", stands: 6, formation: "line"});
        let b = unit(#{name: "B", nation: "britain", arm: "infantry", stands: 6, formation: "line"}); melee(a, b, #{})"#;
    let out = grognard(&["eval", "--rules", "ff-napoleonic", "--dice", "5", melee]);
    assert_eq!(out.status.code(), Some(1));
    // The attacker's die took the 5; the defender's found none.
    assert!(stdout(&out).contains("roll    A (attacker), 1d10: [5] = 5"), "{}", stdout(&out));
    assert!(!stdout(&out).contains("\n= "), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("no face left for a d10 (1-10) for `B (defender)`: all 1 supplied faces"), "{err}");
}

#[test]
fn supplied_faces_left_over_are_refused() {
    let out = grognard(&["eval", "--rules", "ff-napoleonic", "--dice", "5,6,7", r#"roll("1d10", "musketry")"#]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("roll    musketry, 1d10: [5] = 5"), "{}", stdout(&out));
    assert!(stderr(&out).contains("2 of the 3 supplied faces were not used: 6, 7"), "{}", stderr(&out));
    let out = grognard(&["roll", "2d6", "--dice", "3,4,5"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("1 of the 3 supplied faces was not used: 5"), "{}", stderr(&out));
    // Exactly enough is fine.
    let out = grognard(&["roll", "2d6", "--dice", "3,4"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A face the die cannot show names the roll too.
    let out = grognard(&["eval", "--rules", "ff-napoleonic", "--dice", "11", r#"roll("1d10", "musketry")"#]);
    assert!(stderr(&out).contains("face 11 cannot be rolled on a d10 (1-10) for `musketry`"), "{}", stderr(&out));
}

#[test]
fn a_missing_ruleset_is_an_error() {
    let out = grognard(&["check", "no-such-ruleset"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no ruleset folder at"), "{}", stderr(&out));
}

#[test]
fn eval_with_real_dice_prints_the_trace_and_the_result() {
    let out = grognard(&[
        "eval",
        "--rules",
        "linear-warfare",
        "--dice",
        "3",
        r#"let k = leader(#{name: "Kleist"}); fallen_leader(k, #{}); k"#,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("roll    fallen leader, 1d10: [3] = 3"), "{text}");
    assert!(text.contains("-> 0-4: fatal_wound: Fatal Wound: Leader dies"), "{text}");
    assert!(text.contains("effect  Kleist: dead, removed from play"), "{text}");
    assert!(text.ends_with("= Kleist [dead, removed]\n"), "{text}");
}

#[test]
fn eval_json_has_the_value_and_the_trace() {
    let out = grognard(&[
        "eval",
        "--rules",
        "linear-warfare",
        "--seed",
        "4",
        "--json",
        r#"fallen_leader(leader(#{name: "K"}), #{})"#,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["seed"], 4);
    let steps = v["trace"].as_array().unwrap();
    assert_eq!(steps[0]["step"], "roll");
    assert_eq!(steps[0]["label"], "fallen leader");
    assert_eq!(steps[1]["step"], "table");
    assert_eq!(steps[1]["reading"]["table"], "fallen_leader");
    let natural = steps[0]["roll"]["dice"][0]["natural"].as_i64().unwrap();
    assert_eq!(v["value"]["natural"], natural);
}

#[test]
fn eval_errors_exit_one() {
    let out = grognard(&["eval", "--rules", "ff-napoleonic", "lookup(\"musketri\", 6, 5)"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("did you mean `musketry`?"), "{}", stderr(&out));
    let out = grognard(&["eval", "--rules", "ff-napoleonic", "let x = ;"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("script::compile"), "{}", stderr(&out));
    let out = grognard(&["eval", "roll(\"1d6\")"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("needs a ruleset"), "{}", stderr(&out));
    let out = grognard(&["eval", "--rules", "ff-napoleonic", "--with", "no_such_option", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("has no option `no_such_option`"), "{}", stderr(&out));
    let out = grognard(&["eval", "--rules", "ff-napoleonic", "--set", "nonsense", "1"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn odds_of_a_procedure_are_exact() {
    let out = grognard(&["odds", "--rules", "linear-warfare", r#"fallen_leader(leader(#{name: "K"}), #{})"#]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!("fallen_leader_odds", stdout(&out));
    let out = grognard(&[
        "odds",
        "--rules",
        "ff-napoleonic",
        "--json",
        r#"fire(unit(#{name: "A", nation: "britain", arm: "infantry", stands: 6, formation: "line"}), unit(#{name: "B", arm: "infantry", stands: 6, formation: "column"}), #{fire_points: 6})"#,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["exact"], true);
    assert_eq!(v["runs"], 10);
    let rows = v["distribution"].as_array().unwrap();
    let chance = |r: &str| rows.iter().find(|x| x["result"] == r).map(|x| x["probability"].clone());
    assert_eq!(chance("desultory"), Some("2/5".into()));
    assert_eq!(chance("lively"), Some("3/10".into()));
    assert_eq!(chance("telling"), Some("3/10".into()));
}

#[test]
fn switches_change_the_odds() {
    let code = r#"fire(unit(#{name: "A", arm: "infantry", stands: 6, formation: "line"}), unit(#{name: "B", arm: "infantry", stands: 6, formation: "line"}), #{fire_points: 30, cover: "fortified_town"})"#;
    let base = stdout(&grognard(&["odds", "--rules", "ff-napoleonic", "--json", code]));
    let flipped = stdout(&grognard(&[
        "odds",
        "--rules",
        "ff-napoleonic",
        "--set",
        "musketry_below_zero=desultory",
        "--json",
        code,
    ]));
    let desultory = |text: &str| {
        let v: Value = serde_json::from_str(text).unwrap();
        v["distribution"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["result"] == "desultory")
            .map(|x| x["probability"].clone())
    };
    assert_eq!(desultory(&base), None);
    assert_eq!(desultory(&flipped), Some("1/5".into()));
}

#[test]
fn show_prints_a_table_as_its_chart() {
    let out = grognard(&["show", "--rules", "ff-napoleonic", "musketry"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!("musketry_chart", stdout(&out));
}

#[test]
fn show_lists_what_a_ruleset_holds_with_its_switches() {
    let out = grognard(&["show", "--rules", "ff-house-example", "--without", "veteran_volleys"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("(ff-napoleonic + ff-house-example)"), "{text}");
    assert!(text.contains("[ ] veteran_volleys (switched)"), "{text}");
    assert!(text.contains("musketry_below_zero = desultory"), "{text}");
    let out = grognard(&["show", "--rules", "ff-napoleonic", "fire_modifers"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("`fire_modifiers`?"), "{}", stderr(&out));
}

#[test]
fn the_shipped_schemas_are_up_to_date() {
    for kind in ["ruleset", "table", "modifiers"] {
        let out = grognard(&["schema", kind]);
        assert_eq!(out.status.code(), Some(0));
        let shipped = std::fs::read_to_string(format!("schema/{kind}.schema.json")).unwrap();
        assert_eq!(stdout(&out), shipped, "schema/{kind}.schema.json is stale: run `grognard schema all --out schema`");
        let v: Value = serde_json::from_str(&shipped).unwrap();
        assert_eq!(v["type"], "object");
        assert_eq!(v["additionalProperties"], false);
    }
    // A contracts file is a map of procedure names, each contract closed to unknown keys.
    let out = grognard(&["schema", "contracts"]);
    let shipped = std::fs::read_to_string("schema/contracts.schema.json").unwrap();
    assert_eq!(stdout(&out), shipped, "schema/contracts.schema.json is stale: run `grognard schema all --out schema`");
    let v: Value = serde_json::from_str(&shipped).unwrap();
    assert_eq!(v["additionalProperties"]["$ref"], "#/$defs/ContractDef");
    assert_eq!(v["$defs"]["ContractDef"]["additionalProperties"], false);
    assert_eq!(v["$defs"]["KeyDef"]["additionalProperties"], false);
}

#[test]
fn schema_files_keep_their_mode_and_a_read_only_one_is_refused_and_left() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let file = dir.path().join("table.schema.json");
    let mode = || std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    // A new file is made as any program makes one: readable by its owner, never executable.
    let out = grognard(&["schema", "table", "--out", out_dir]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(mode() & 0o711, 0o600, "{:o}", mode());
    // Written again, it keeps the mode it was given.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = grognard(&["schema", "table", "--out", out_dir]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(mode(), 0o640);
    // Read-only, it is refused by name and left as it was (whoever runs the test).
    std::fs::write(&file, "mine").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = grognard(&["schema", "table", "--out", out_dir]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out).replace("\n  │ ", " ");
    assert!(err.contains(&format!("cannot write {}: it is read-only (mode 444", file.display())), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    assert_eq!(mode(), 0o444);
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["table.schema.json"]);
}

#[test]
fn warnings_do_not_fail_a_check() {
    let out = grognard(&["check", "tests/fixtures/rules/warnings-only"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "tests/fixtures/rules/warnings-only: 0 errors and 3 warnings in the rules\n");
    assert!(stderr(&out).contains("⚠ no roll can reach band `7+`"), "{}", stderr(&out));
    // Its vocabulary lists orders that no procedure reads.
    assert!(stderr(&out).contains("⚠ the vocabulary lists orders"), "{}", stderr(&out));
    // Its ruleset.yaml has no `dice:`: the d10 is read 1-10, and check says so.
    let err = stderr(&out);
    assert!(err.contains("ruleset `warnings-only` does not say how its d10 is numbered"), "{err}");
    assert!(err.contains("no `dice:` in this ruleset"), "{err}");
    assert!(err.contains(r#"add `dice: { d10: "1-10" }`"#), "{err}");
}

#[test]
fn a_patch_that_takes_columns_away_is_reported_not_a_crash() {
    let out = grognard(&["check", "tests/fixtures/rules/shrinking-patch"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("row `6,7` of grid `musketry` has 5 cells for 2 columns"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn sampling_needs_at_least_one_trial() {
    let out = grognard(&["odds", "--rules", "ff-napoleonic", "--samples", "0", "roll(\"1d6\").total"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_script_cut_short_is_underlined_at_its_end() {
    let out = grognard(&["eval", "--rules", "ff-napoleonic", "fire("]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("Expecting ')'") && err.contains("╰── here"), "{err}");
}

/// A ruleset of one table of `n` bands, each overlapping the next (`1-2`, `2-3`, ...).
fn overlapping_bands(dir: &std::path::Path, n: usize) -> String {
    let folder = dir.join("wide");
    std::fs::create_dir_all(folder.join("tables")).unwrap();
    std::fs::write(folder.join("ruleset.yaml"), "id: wide\ntitle: Wide\nsource: house\ndice: { d10: \"1-10\" }\n")
        .unwrap();
    let mut table = format!("title: Wide\nsource: house\nroll: 1d6\nreach: 1 to {}\nbands:\n", n + 1);
    for k in 1..=n {
        table.push_str(&format!("  \"{k}-{}\": a\n", k + 1));
    }
    table.push_str("results:\n  a: { text: A }\n");
    std::fs::write(folder.join("tables/wide.yaml"), table).unwrap();
    folder.display().to_string()
}

#[test]
fn check_prints_the_first_problems_of_many_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let folder = overlapping_bands(dir.path(), 20_000);
    let out = grognard(&["check", &folder]);
    assert_eq!(out.status.code(), Some(1));
    // Every band's overlap with the next is found, and only those.
    assert_eq!(stdout(&out), format!("{folder}: 19999 errors and 0 warnings in the rules\n"));
    let err = stderr(&out);
    assert_eq!(err.matches("rules::band_overlap").count(), 50, "{err}");
    for value in 2..=51 {
        assert!(err.contains(&format!("reads both `a` and `a` for {value}: bands overlap")), "{value}");
    }
    assert!(err.contains("… and 19949 more problems (50 shown; raise with --max-problems)\n"), "{err}");

    let out = grognard(&["check", &folder, "--max-problems", "3"]);
    let err = stderr(&out);
    assert_eq!(err.matches("rules::band_overlap").count(), 3, "{err}");
    assert!(err.contains("… and 19996 more problems (3 shown; raise with --max-problems)\n"), "{err}");
    // Every other command shows the first problems too, and says how to see the rest.
    let out = grognard(&["eval", "--rules", &folder, "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.matches("rules::band_overlap").count(), 50, "{err}");
    assert!(err.contains("… and 19949 more problems (50 shown;") && err.contains("--max-problems N"), "{err}");
    let out = grognard(&["check", &folder, "--max-problems", "0"]);
    assert!(
        stderr(&out).starts_with("… and 19999 more problems (0 shown; raise with --max-problems)\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn procedure_odds_read_as_a_player_reads_them() {
    // A volley's stands lost: numbers in order, with at-least and at-most, and the mean.
    let volley = r#"volley(unit(#{name: "A", arm: "infantry", stands: 2, formation: "line"}), unit(#{name: "B", arm: "infantry", stands: 8, formation: "line"}), #{cover: "cover"}).lost"#;
    let out = grognard(&["odds", "--rules", "volley-example", volley]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    // Each die loses a stand with 1/2 x 2/3 = 1/3: 0, 1, 2 with 4/9, 4/9, 1/9; the mean is 2/3.
    assert!(text.contains("result  chance   percent  at least   at most"), "{text}");
    assert!(text.contains("0          4/9    44.44%   100.00%    44.44%"), "{text}");
    assert!(text.contains("2          1/9    11.11%    11.11%   100.00%"), "{text}");
    assert!(text.contains("mean 0.6667, standard deviation 0.6667"), "{text}");
    // The same in JSON: results and chances as numbers.
    let out = grognard(&["odds", "--rules", "volley-example", volley, "--json"]);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rows = v["distribution"].as_array().unwrap();
    assert_eq!(rows[1]["result"], 1);
    assert_eq!(rows[1]["probability"], "4/9");
    assert!((rows[1]["at_least"].as_f64().unwrap() - 5.0 / 9.0).abs() < 1e-12);
    assert!((v["mean"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-12);
    // Sampled odds say so on every line: a percent and its interval, never a fraction.
    let four = r#"roll("1d6").total + roll("1d6").total + roll("1d6").total + roll("1d6").total"#;
    let out = grognard(&["odds", "--rules", "volley-example", four, "--max-outcomes", "100", "--samples", "4000"]);
    let text = stdout(&out);
    assert!(text.contains("estimated odds, not exact"), "{text}");
    assert!(text.contains("95% interval"), "{text}");
    assert!(!text.lines().skip(3).any(|l| l.contains('/')), "{text}");
    // A cut-off names what caused it, with the flag that raises it.
    let duel = r#"loop { let a = roll("1d6").total; let b = roll("1d6").total; if a != b { return a > b } }"#;
    let text = stdout(&grognard(&["odds", "--rules", "volley-example", duel, "--max-depth", "4"]));
    assert!(text.contains("cut off after 4 dice (--max-depth 4: a loop that goes on): 1/36"), "{text}");
    let text = stdout(&grognard(&["odds", "--rules", "volley-example", duel, "--max-outcomes", "2000"]));
    assert!(text.contains("cut off after 6 dice (walking deeper would pass --max-outcomes 2000)"), "{text}");
}

/// Copies the shipped ruleset `id` to a fresh folder, with each `(file, from, to)` edit made.
fn copy_with_typos(id: &str, edits: &[(&str, &str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let copy = |from: &std::path::Path, to: &std::path::Path| {
        for entry in walk(from) {
            let target = to.join(entry.strip_prefix(from).unwrap());
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(&entry, &target).unwrap();
        }
    };
    let root = dir.path().join(id);
    copy(&std::path::Path::new("rules").join(id), &root);
    for (file, from, to) in edits {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has no `{from}`");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }
    dir
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() { files.extend(walk(&path)) } else { files.push(path) }
    }
    files
}

#[test]
fn check_reports_each_typo_in_a_copy_of_each_shipped_ruleset() {
    // A ruleset, its typos (file, word, misspelt) and the hint each gets.
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str, &'a str)], &'a [&'a str]);
    let cases: [Case; 3] = [
        (
            "ff-napoleonic",
            &[
                (
                    "modifiers/fire_modifiers.yaml",
                    r#""france", "britain", "russia""#,
                    r#""france", "britian", "russia""#,
                ),
                ("modifiers/fire_modifiers.yaml", r#"firer.order == "disordered""#, r#"firer.order == "disordred""#),
                (
                    "modifiers/melee_modifiers.yaml",
                    r#"when: situation.side == "defender""#,
                    r#"when: situation.sied == "defender""#,
                ),
                (
                    "modifiers/emergency_fc_modifiers.yaml",
                    r#"unit.formation == "column""#,
                    r#"unit.formation == "colum""#,
                ),
            ],
            &[
                "(did you mean `britain`?)",
                "(did you mean `disordered`?)",
                "(did you mean `side`?)",
                "(did you mean `column`?)",
            ],
        ),
        (
            "linear-warfare",
            &[
                (
                    "modifiers/fire_modifiers.yaml",
                    r#"firer.has_marker("howitzer_hit")"#,
                    r#"firer.has_marker("howitzer_hti")"#,
                ),
                (
                    "modifiers/charge_combat_modifiers.yaml",
                    r#"situation.impetus == "trot""#,
                    r#"situation.impetus == "trott""#,
                ),
                (
                    "procedures/charge.rhai",
                    r#"table_result("trophies", "standard_lost")"#,
                    r#"table_result("trophies", "standard_lst")"#,
                ),
            ],
            &["(did you mean `howitzer_hit`?)", "(did you mean `trot`?)", "(did you mean `standard_lost`?)"],
        ),
        (
            "republique",
            &[
                ("modifiers/assault_modifiers.yaml", r#"unit.grade == "elite""#, r#"unit.grade == "elit""#),
                (
                    "modifiers/assault_modifiers.yaml",
                    "situation.side == \"defender\" && situation.markers",
                    "situation.sied == \"defender\" && situation.markers",
                ),
            ],
            &["(did you mean `elite`?)", "(did you mean `side`?)"],
        ),
    ];
    for (id, edits, hints) in cases {
        let dir = copy_with_typos(id, edits);
        let out = grognard(&["check", dir.path().join(id).to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{id}");
        // Wrapped lines joined: a hint may break over two.
        let report = stderr(&out).replace('│', " ").split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(stdout(&out).contains(&format!("{} errors", edits.len())), "{id}: {}\n{report}", stdout(&out));
        for hint in hints {
            assert!(report.contains(hint), "{id}: no {hint} in\n{report}");
        }
    }
}

#[test]
fn eval_shows_the_trace_steps_brief_full_or_off() {
    let fire = r#"let a = unit(#{name: "54th Foot", nation: "britain", arm: "infantry", stands: 6, formation: "line"}); let b = unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column"}); fire(a, b, #{range: 1}).result"#;
    let run = |form: Option<&str>| {
        let mut args = vec!["eval", "--rules", "ff-napoleonic", "--dice", "8", fire];
        if let Some(form) = form {
            args.extend(["--trace", form]);
        }
        let out = grognard(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    // Step by step unless told otherwise: what a pipe or a log reads.
    let steps = run(None);
    assert_eq!(run(Some("steps")), steps);
    assert!(steps.contains("mod     yes +1") && !steps.contains("mod     no"), "{steps}");
    let full = run(Some("full"));
    assert!(full.contains("mod     no  +2"), "{full}");
    let applied: Vec<&str> = full.lines().filter(|l| !l.starts_with("mod     no ")).collect();
    assert_eq!(steps.lines().collect::<Vec<_>>(), applied);
    // Brief: the same in fewer, shorter lines.
    let brief = run(Some("brief"));
    assert!(brief.contains("mods    british_infantry_fire +1\nroll    musketry: 8\n"), "{brief}");
    assert!(brief.contains("-> telling  [this or higher: 30%]"), "{brief}");
    assert!(brief.len() < steps.len(), "{brief}");
    assert_eq!(
        run(Some("off")),
        "roll    musketry, 1d10: [8] = 8  [8 or more: 30%]\neffect  4e Ligne: disordered, loses 1 stand\n= \"telling\"\n"
    );
}
