//! `grognard odds --why`: what each modifier that applied does to a call's odds, held to the
//! odds of the same call under an overlay that removes that modifier by hand; and the HTML
//! pages of `odds --why` and `compare`, read back as XML.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::{exact_odds, grognard, stderr, stdout};

/// A rendered error on one line: its words, without the box drawing it wraps with.
fn flat(err: &str) -> String {
    err.split_whitespace().filter(|w| *w != "│").collect::<Vec<_>>().join(" ")
}

/// A veteran British volley at 2" into French in woods: veteran volleys and cover apply.
const CALL: &str = r#"fire(unit(#{name: "A", nation: "britain", arm: "infantry", grade: "veteran", stands: 6, formation: "line"}), unit(#{name: "B", nation: "france", arm: "infantry", stands: 6, formation: "column"}), #{range: 2, cover: "woods"})"#;

/// Each result's exact chance, as `odds --json` gives it under the stack of `rules`.
fn odds(rules: &[&str]) -> BTreeMap<String, String> {
    let args: Vec<&str> = rules.iter().flat_map(|r| ["--rules", r]).chain([CALL]).collect();
    exact_odds(&args)
}

/// `odds --why` of `CALL` under the house example, and `extra`.
fn why(extra: &[&str]) -> std::process::Output {
    grognard(&[&["odds", "--rules", "ff-house-example", "--why", CALL][..], extra].concat())
}

#[test]
fn each_modifier_s_odds_without_it_are_those_of_rules_that_remove_it_by_hand() {
    let out = why(&["--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let modifiers = json["modifiers"].as_array().unwrap();
    let ids: Vec<&str> = modifiers.iter().map(|m| m["id"].as_str().unwrap()).collect();
    // Both apply, cover first: it moves an outcome 20 points, the volley 10.
    assert_eq!(ids, ["target_in_cover", "veteran_volleys"]);
    let with = odds(&["ff-house-example"]);
    for m in modifiers {
        let id = m["id"].as_str().unwrap();
        // An overlay that takes the modifier out, written as a rule author would.
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("modifiers")).unwrap();
        std::fs::write(
            dir.path().join("ruleset.yaml"),
            format!("id: without-{id}\nextends: ff-house-example\ntitle: Without {id}\nsource: house\n"),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("modifiers/fire_modifiers.yaml"),
            format!("modifiers:\n  - id: {id}\n    remove: true\n"),
        )
        .unwrap();
        let without = odds(&[dir.path().to_str().unwrap()]);
        let zero = "\"0\"".to_string();
        for change in m["changes"].as_array().unwrap() {
            let outcome = change["outcome"].as_str().unwrap();
            assert_eq!(change["without"].to_string(), *without.get(outcome).unwrap_or(&zero), "{id}: {outcome}");
            assert_eq!(change["with"].to_string(), *with.get(outcome).unwrap_or(&zero), "{id}: {outcome}");
        }
        let outcomes = m["changes"].as_array().unwrap().len();
        assert_eq!(outcomes, with.keys().chain(without.keys()).collect::<std::collections::BTreeSet<_>>().len());
    }
    assert_eq!(modifiers[0]["source"], "house");
    assert_eq!(modifiers[0]["effect"], "-2");
}

#[test]
fn the_text_ranks_the_modifiers_and_draws_each_one_s_moves() {
    let out = why(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("exact odds; then each modifier that applied, left out in turn"), "{text}");
    let table: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("modifier ")).skip(1).take(2).collect();
    assert!(table[0].starts_with("fire_modifiers.target_in_cover  -2      desultory +20.0pt"), "{text}");
    assert!(table[1].starts_with("fire_modifiers.veteran_volleys  +1      desultory -10.0pt"), "{text}");
    // Cover: 30% desultory without it, 50% with; deadly 20% without, none with.
    assert!(text.contains("  desultory              │████████████   +20.0pt  30.00% without, 50.00% with"), "{text}");
    assert!(text.contains("  deadly     ████████████│               -20.0pt  20.00% without, 0.00% with"), "{text}");
    assert!(text.contains("  telling                │██████         +10.0pt  10.00% without, 20.00% with"), "{text}");
}

#[test]
fn the_csv_has_a_row_per_modifier_and_outcome() {
    let out = why(&["--csv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let body: String = text.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    let mut reader = csv::Reader::from_reader(body.as_bytes());
    assert_eq!(
        reader.headers().unwrap(),
        vec!["list", "modifier", "effect", "source", "outcome", "with", "without", "points"]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 4 + 3, "{text}");
    assert_eq!(
        rows[0].iter().collect::<Vec<_>>(),
        ["fire_modifiers", "target_in_cover", "-2", "house", "desultory", "0.5", "0.3", "20.000000"]
    );
}

#[test]
fn why_is_refused_for_dice_and_without_rules() {
    let out = grognard(&["odds", "--rules", "ff-napoleonic", "--why", "2d6"]);
    assert!(flat(&stderr(&out)).contains("`2d6` is dice: a roll has no modifiers"), "{}", stderr(&out));
    let out = grognard(&["odds", "--why", CALL]);
    assert!(flat(&stderr(&out)).contains("modifiers come from rules: give --rules"), "{}", stderr(&out));
    let out = grognard(&["odds", "--rules", "ff-napoleonic", "--csv", CALL]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--why"), "{}", stderr(&out));
}

/// The page at `path`: nothing fetched, no script.
fn read_page(path: &std::path::Path) -> String {
    let page = std::fs::read_to_string(path).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"), "{page}");
    assert!(!page.contains("<script") && !page.contains("<link") && !page.contains(" src="), "{page}");
    assert!(!page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "").contains("http"), "{page}");
    page
}

/// The page read back as XML: every tag closed, every attribute quoted.
fn as_xml(page: &str) -> roxmltree::Document<'_> {
    let options = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    roxmltree::Document::parse_with_options(page, options).unwrap_or_else(|e| panic!("{e}\n{page}"))
}

#[test]
fn the_attribution_page_draws_a_bar_for_each_move_of_each_modifier() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("why.html");
    let out = why(&["--json", "--html", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let page = read_page(&path);
    let doc = as_xml(&page);
    let svg = doc.descendants().find(|n| n.has_tag_name("svg")).expect("a chart");
    let bars: Vec<roxmltree::Node> = svg.descendants().filter(|n| n.attribute("class") == Some("bar")).collect();
    let mut expected = Vec::new();
    for m in json["modifiers"].as_array().unwrap() {
        for c in m["changes"].as_array().unwrap() {
            if c["with"] != c["without"] {
                let id = format!("{}.{}", m["list"].as_str().unwrap(), m["id"].as_str().unwrap());
                expected.push((id, c["outcome"].as_str().unwrap().to_string(), c["points"].as_f64().unwrap()));
            }
        }
    }
    assert_eq!(bars.len(), expected.len());
    let biggest = expected.iter().map(|(_, _, p)| p.abs()).fold(0.0, f64::max);
    let axis: f64 =
        svg.descendants().find(|n| n.has_tag_name("line")).unwrap().attribute("x1").unwrap().parse().unwrap();
    for (bar, (id, outcome, points)) in bars.iter().zip(&expected) {
        assert_eq!(bar.attribute("data-modifier"), Some(id.as_str()));
        assert_eq!(bar.attribute("data-outcome"), Some(outcome.as_str()));
        let drawn: f64 = bar.attribute("data-points").unwrap().parse().unwrap();
        assert!((drawn - points).abs() < 1e-5);
        // As long as the move against the largest; left of the axis for less, right for more.
        let (x, width): (f64, f64) =
            (bar.attribute("x").unwrap().parse().unwrap(), bar.attribute("width").unwrap().parse().unwrap());
        assert!((width - points.abs() / biggest * 230.0).abs() < 0.01, "{id} {outcome}");
        if *points < 0.0 {
            assert!((x + width - axis).abs() < 0.01);
        } else {
            assert!((x - axis).abs() < 0.01);
        }
    }
}

#[test]
fn the_compare_page_has_a_heat_map_per_outcome_over_the_grid() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("compare.html");
    let call = CALL.replace(r#"formation: "line""#, "formation: formation").replace("range: 2,", "range: range,");
    let out = grognard(&[
        "compare",
        "--a",
        "ff-house-example --without veteran_volleys",
        "--b",
        "ff-house-example",
        "--vary",
        "range=1,2,3",
        "--vary",
        "formation=line,column",
        &call,
        "--json",
        "--html",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let page = read_page(&path);
    let doc = as_xml(&page);
    let maps: Vec<roxmltree::Node> = doc.descendants().filter(|n| n.attribute("class") == Some("heat")).collect();
    let mut outcomes: Vec<String> = Vec::new();
    for cell in json["cells"].as_array().unwrap() {
        for c in cell["changes"].as_array().unwrap() {
            let o = c["outcome"].as_str().unwrap().to_string();
            if !outcomes.contains(&o) {
                outcomes.push(o);
            }
        }
    }
    assert_eq!(maps.iter().map(|m| m.attribute("data-outcome").unwrap()).collect::<Vec<_>>(), outcomes);
    for map in &maps {
        let outcome = map.attribute("data-outcome").unwrap();
        let rows: Vec<roxmltree::Node> = map.children().filter(|n| n.has_tag_name("tr")).collect();
        // A heading row, then a row per range; a column per formation.
        assert_eq!(rows.len(), 4);
        let heads: Vec<&str> = rows[0].children().filter(|n| n.has_tag_name("th")).filter_map(|n| n.text()).collect();
        assert_eq!(heads, ["formation=line", "formation=column"]);
        for (row, range) in rows[1..].iter().zip(["1", "2", "3"]) {
            let label = row.children().find(|n| n.has_tag_name("th")).and_then(|n| n.text());
            assert_eq!(label, Some(format!("range={range}").as_str()));
            let cells: Vec<roxmltree::Node> = row.children().filter(|n| n.has_tag_name("td")).collect();
            assert_eq!(cells.len(), 2);
            for (td, formation) in cells.iter().zip(["line", "column"]) {
                assert_eq!(td.attribute("data-cell"), Some(format!("range={range} formation={formation}").as_str()));
                let cell = json["cells"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|c| c["at"]["range"] == range && c["at"]["formation"] == formation)
                    .unwrap();
                let points = cell["changes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|c| c["outcome"] == outcome)
                    .map_or(0.0, |c| c["points"].as_f64().unwrap());
                let drawn: f64 = td.attribute("data-points").unwrap().parse().unwrap();
                assert!((drawn - points).abs() < 1e-5, "{outcome} at {range} {formation}");
            }
        }
    }
    // The ranked cells, each with its cause.
    let ranked: Vec<roxmltree::Node> =
        doc.descendants().filter(|n| n.has_tag_name("tr") && n.attribute("class") == Some("cell")).collect();
    assert_eq!(ranked.len(), 6);
    assert_eq!(ranked[0].attribute("data-cell"), Some("range=1 formation=line"));
}
