//! `grognard odds` as a process.

use serde_json::{Value, json};

use super::{grognard, stderr, stdout};

#[test]
fn the_table_of_2d6() {
    let out = grognard(&["odds", "2d6"]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!("two_d6", stdout(&out));
}

#[test]
fn a_chance_in_words() {
    let out = stdout(&grognard(&["odds", "2d6 >= 8"]));
    assert!(out.starts_with("2d6 >= 8: chance 5/12 (41.67%)"), "{out}");
}

#[test]
fn json_gives_fractions_and_floats() {
    let out = stdout(&grognard(&["odds", "4d6kh3", "--json"]));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["kind"], "totals");
    assert_eq!(v["mean"], "15869/1296");
    let rows = v["distribution"].as_array().unwrap();
    assert_eq!(rows.len(), 16);
    assert_eq!(rows[0]["total"], 3);
    assert_eq!(rows[0]["probability"], "1/1296");
    assert_eq!(rows[0]["at_least"], "1");
    assert_eq!(rows[15]["total"], 18);
    assert_eq!(rows[15]["at_most"], "1");
    let sum: f64 = rows.iter().map(|r| r["p"].as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-12);

    let v: Value = serde_json::from_str(&stdout(&grognard(&["odds", "1d10 <= 4", "--d10", "0-9", "--json"]))).unwrap();
    assert_eq!(v["kind"], "chance");
    assert_eq!(v["chance"], "1/2");
    assert_eq!(v["p"], 0.5);
}

#[test]
fn too_much_work_is_refused_with_a_way_out() {
    let out = grognard(&["odds", "1000d1000"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("dice::exact_limit"), "{err}");
    assert!(err.contains("grognard roll '1000d1000' --times 10000"), "{err}");
}

#[test]
fn bad_dice_exit_one() {
    for expr in ["d1", "1d6kh7", "99999999d99999999", "2d"] {
        let out = grognard(&["odds", expr]);
        assert_eq!(out.status.code(), Some(1), "{expr}");
        assert!(stderr(&out).contains("dice::"), "{expr}");
    }
}

#[test]
fn a_pool_that_counts_hits_is_exact_and_a_total_that_cannot_fail_says_so() {
    let out = stdout(&grognard(&["odds", "6d6 hits 4+", "--json"]));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["expr"], "6d6 hits 4+");
    assert_eq!(v["mean"], "3");
    let rows = v["distribution"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    assert_eq!(rows[3]["probability"], "5/16");
    // `6d6>=4` keeps its meaning, the total against 4, and says it cannot fail.
    let out = grognard(&["odds", "6d6>=4"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.starts_with("6d6 >= 4: chance 1 (100.00%)\n"), "{text}");
    assert!(text.contains("it always holds; to count the dice that show 4 or more, write `6d6 hits 4+`"), "{text}");
    let out = stdout(&grognard(&["roll", "6d6 hits 4+", "--dice", "6,5,2,4,1,3"]));
    assert_eq!(out, "6d6 hits 4+: [6 5 2 4 1 3 → 3 hits] = 3\n");
}

const FALLEN: &str = r#"fallen_leader(leader(#{name: "Kleist"}), #{})"#;

#[test]
fn a_field_of_the_returned_map_gets_a_table_of_its_own() {
    // The fallen-leader procedure returns `#{ result, natural }`: the natural d10, 1 to 10.
    let out = grognard(&["odds", "--rules", "linear-warfare", "--field", "natural", FALLEN]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("natural  chance   percent  at least   at most\n"), "{text}");
    assert!(text.contains("\n1          1/10    10.00%   100.00%    10.00%"), "{text}");
    assert!(text.contains("\n10         1/10    10.00%    10.00%   100.00%"), "{text}");
    assert!(text.trim_end().ends_with("mean 5.5000, standard deviation 2.8723"), "{text}");

    let out =
        grognard(&["odds", "--rules", "linear-warfare", "--field", "natural", "--field", "result", FALLEN, "--json"]);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let fields = v["fields"].as_array().unwrap();
    assert_eq!(fields.len(), 2);
    assert_eq!(fields[0]["field"], "natural");
    let rows = fields[0]["distribution"].as_array().unwrap();
    assert_eq!(rows.len(), 10);
    assert_eq!((&rows[0]["result"], &rows[0]["probability"], &rows[0]["p"]), (&json!(1), &json!("1/10"), &json!(0.1)));
    assert_eq!(rows[9]["at_least"], json!(0.1));
    assert_eq!(fields[0]["mean"], json!(5.5));
    // The field `result` is the result: the same rows as the main table.
    assert_eq!(fields[1]["distribution"], v["distribution"]);
    // A number that is not whole is a number in JSON too: three disordered stands at two
    // inches fire at half of one fire point each.
    let fire = r#"fire(unit(#{name: "54th", nation: "britain", arm: "infantry", stands: 3, formation: "line", order: "disordered"}), unit(#{name: "4e", arm: "infantry", stands: 6, formation: "column"}), #{range: 2})"#;
    let out = grognard(&["odds", "--rules", "ff-napoleonic", "--field", "fire_points", fire, "--json"]);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["fields"][0]["distribution"][0]["result"], json!(1.5));
    assert_eq!(v["fields"][0]["mean"], json!(1.5));
}

#[test]
fn a_field_no_result_has_is_refused_with_the_nearest_name() {
    let out = grognard(&["odds", "--rules", "linear-warfare", "--field", "naturel", FALLEN]);
    assert_eq!(out.status.code(), Some(1));
    let err = flat(&stderr(&out));
    assert!(err.contains("no result has a field `naturel` (did you mean `natural`?)"), "{err}");
    assert!(err.contains("its fields: `natural`, `result`"), "{err}");
    assert!(stdout(&out).is_empty());
    // A result that is not a map has no fields.
    let out = grognard(&["odds", "--rules", "linear-warfare", "--field", "natural", &format!("{FALLEN}.result")]);
    assert_eq!(out.status.code(), Some(1));
    let err = flat(&stderr(&out));
    assert!(
        err.contains(
            "--field natural reads a field of the map a procedure returns, but a result was a word (\"fatal_wound\")"
        ),
        "{err}"
    );
    // Nor do dice.
    let out = grognard(&["odds", "2d6", "--field", "total"]);
    assert_eq!(out.status.code(), Some(1));
    let err = flat(&stderr(&out));
    assert!(
        err.contains("--field total reads a field of the map a procedure call returns, and `2d6` is dice"),
        "{err}"
    );
}

/// A rendered error on one line: its words, without the box drawing it wraps with.
fn flat(err: &str) -> String {
    err.split_whitespace().filter(|w| *w != "│").collect::<Vec<_>>().join(" ")
}

#[test]
fn sampling_instead_says_which_limit_stopped_the_walk_and_its_flag() {
    // Three dice one by one: two dice deep leaves the whole chance past the depth; twenty
    // outcomes are fewer than the walk needs. Each says its own cause and flag.
    let three = r#"let a = roll("1d6").total; let b = roll("1d6").total; let c = roll("1d6").total; a + b + c"#;
    let deep = stdout(&grognard(&["odds", "--rules", "ff-napoleonic", "--max-depth", "2", "--samples", "200", three]));
    assert!(
        deep.contains(
            "estimated odds, not exact: half the chance or more lies past 2 dice (--max-depth 2): sampled 200 trials"
        ),
        "{deep}"
    );
    let many =
        stdout(&grognard(&["odds", "--rules", "ff-napoleonic", "--max-outcomes", "20", "--samples", "200", three]));
    assert!(
        many.contains("estimated odds, not exact: more than 20 dice outcomes (--max-outcomes): sampled 200 trials"),
        "{many}"
    );
    // Within both limits, the sum is exact: 1/216 for 3.
    let whole = stdout(&grognard(&["odds", "--rules", "ff-napoleonic", three]));
    assert!(whole.contains("exact odds") && whole.contains("\n3        1/216     0.46%"), "{whole}");
}
