//! Values the rules give procedures as data: values on table results (`cell.value(...)`),
//! sourced constants (`constant(...)`), and charts stored as printed (`column_key`), checked
//! against the seeds and changed by an overlay.

use grognard::rules::{LookupValue, Source, load};
use grognard::script::Host;
use rhai::{Dynamic, Scope};

use crate::support::{host, rules_dir, ruleset};

/// A range in whole inches and the fire points it gives, `None` out of range.
type Cell = (i64, Option<i64>);

/// What `code` evaluates to under `host`.
fn value_of(host: &Host, code: &str) -> Dynamic {
    host.eval(&mut Scope::new(), code).unwrap_or_else(|e| panic!("{code}: {e}")).value
}

#[test]
fn fire_points_are_read_from_the_range_chart_as_the_seed_prints_them() {
    // Seed 004, RANGE AND FIRE POINTS: "Infantry Contact= 2 Out to 2"= 1 - - Light Infantry
    // Contact= 2 Out to 3"= 1 - - Horse Artillery Contact to 2"= 8 2"+ to 8"= 3 8"+ to 12"= 1 -
    // Heavy Artillery Contact to 2"= 12 2"+ to 8"= 4 8"+ to 12"= 2 12"+ to 16"=1 Dismntd Cav.
    // Contact to 1"=1". Ranges in whole inches, contact 0; `None` is out of range.
    let seed: &[(&str, &[Cell])] = &[
        ("infantry", &[(0, Some(2)), (1, Some(1)), (2, Some(1)), (3, None)]),
        ("light_infantry", &[(0, Some(2)), (1, Some(1)), (3, Some(1)), (4, None)]),
        (
            "horse_artillery",
            &[(0, Some(8)), (2, Some(8)), (3, Some(3)), (8, Some(3)), (9, Some(1)), (12, Some(1)), (13, None)],
        ),
        (
            "heavy_artillery",
            &[
                (0, Some(12)),
                (2, Some(12)),
                (3, Some(4)),
                (8, Some(4)),
                (9, Some(2)),
                (12, Some(2)),
                (13, Some(1)),
                (16, Some(1)),
                (17, None),
            ],
        ),
        ("dismounted_cavalry", &[(0, Some(1)), (1, Some(1)), (2, None)]),
    ];
    let host = host(&["ff-napoleonic"]);
    for (firer, cells) in seed {
        for (range, points) in *cells {
            let read = format!(
                r#"let c = lookup("range_fire_points", "{firer}", {range}); if c.is_none {{ () }} else {{ c.value("fire_points") }}"#
            );
            let got = value_of(&host, &read);
            match points {
                Some(points) => assert_eq!(got.as_int(), Ok(*points), "{firer} at {range}\""),
                None => assert!(got.is_unit(), "{firer} at {range}\" reads {got}"),
            }
        }
    }
}

#[test]
fn a_value_no_result_gives_is_refused_with_what_it_gives() {
    let host = host(&["ff-napoleonic"]);
    let err =
        host.eval(&mut Scope::new(), r#"lookup("range_fire_points", "infantry", 0).value("fire_point")"#).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("gives no value `fire_point` (did you mean `fire_points`?); it gives fire_points"), "{text}");
    let err = host.eval(&mut Scope::new(), r#"lookup("musketry", "1", 3).value("fire_points")"#).unwrap_err();
    assert!(err.to_string().contains("gives no values"), "{err}");
}

#[test]
fn constants_hold_the_seed_values_with_their_sources() {
    let ff = ruleset(&["ff-napoleonic"]);
    let seed_004 = |c: &str| match &ff.constants[c].source {
        Source::Seed(s) => s.seed == "004",
        Source::House => false,
    };
    // "All infantry bases have a 45 degree firing arc. All artillery has a 30 degree firing arc."
    assert_eq!(ff.constants["infantry_arc"].value, LookupValue::Int(45));
    assert_eq!(ff.constants["artillery_arc"].value, LookupValue::Int(30));
    // "Passage of lines costs -3" inches for infantry and cavalry, -6" for artillery."
    assert_eq!(ff.constants["passage_of_lines_foot_horse"].value, LookupValue::Number(3.0));
    assert_eq!(ff.constants["passage_of_lines_artillery"].value, LookupValue::Number(6.0));
    for c in ["infantry_arc", "artillery_arc", "passage_of_lines_foot_horse", "passage_of_lines_artillery"] {
        assert!(seed_004(c), "{c}: {}", ff.constants[c].source);
    }
    // FF-TAB-MELEE ambiguity 3: the cap on desperate struggles is the inventory's house value.
    assert_eq!(ff.constants["struggle_cap"].value, LookupValue::Int(10));
    assert!(ff.constants["struggle_cap"].source.is_house());
    let rq = ruleset(&["republique"]);
    assert_eq!(rq.constants["stalled_cap"].value, LookupValue::Int(3));
    assert_eq!(rq.constants["demoralized_at"].value, LookupValue::Int(3));
    let host = host(&["ff-napoleonic"]);
    assert_eq!(value_of(&host, r#"constant("infantry_arc")"#).as_int(), Ok(45));
    let err = host.eval(&mut Scope::new(), r#"constant("struggle_cpa")"#).unwrap_err();
    assert!(err.to_string().contains("has no constant `struggle_cpa` (did you mean `struggle_cap`?)"), "{err}");
}

#[test]
fn an_overlay_changes_a_constant_for_the_procedures_too() {
    let dir = tempfile::tempdir().unwrap();
    let overlay = dir.path().join("short-melees");
    std::fs::create_dir_all(overlay.join("procedures")).unwrap();
    std::fs::write(
        overlay.join("ruleset.yaml"),
        "id: short-melees\nextends: ff-napoleonic\ntitle: One desperate struggle at most\nsource: house\n\
         constants:\n  struggle_cap: { value: 1, text: One desperate struggle at most, source: house }\n",
    )
    .unwrap();
    // A procedure reads the constant as the shipped melee does, folded when the host is built.
    std::fs::write(overlay.join("procedures/cap.rhai"), "fn cap() { constant(\"struggle_cap\") }\n").unwrap();
    // A function of the overlay's own that nothing in the rules calls is an entry procedure: it
    // has a contract (else `check` takes it for a misspelt replacement, script::overlay).
    std::fs::create_dir_all(overlay.join("contracts")).unwrap();
    std::fs::write(
        overlay.join("contracts/cap.yaml"),
        "cap:\n  text: The desperate struggles fought at most\n  source: house\n  params: {}\n",
    )
    .unwrap();
    let spec = overlay.to_string_lossy().into_owned();
    let loaded = load(&[spec], &rules_dir()).unwrap_or_else(|p| panic!("{:?}", p.0));
    assert_eq!(loaded.ruleset.constants["struggle_cap"].value, LookupValue::Int(1));
    assert_eq!(loaded.ruleset.constants["infantry_arc"].value, LookupValue::Int(45), "the base's others stay");
    let host = Host::new(loaded.ruleset).unwrap();
    assert_eq!(value_of(&host, "cap()").as_int(), Ok(1));
    assert_eq!(value_of(&host, r#"constant("struggle_cap")"#).as_int(), Ok(1));
}

#[test]
fn a_chart_stored_by_column_reads_as_the_same_chart_stored_by_row() {
    // The Good Order Table as the seed prints it (a column per rating), and turned round.
    let dir = tempfile::tempdir().unwrap();
    let head = "title: Good Order\nsource: house\nroll: 1d10\nreach: -2 to 25\n";
    let results = "results:\n  retreat: { text: R }\n  holds: { text: H }\n  holds_fc: { text: HF }\n  \
                   or_fc: { text: O }\n  and_fc: { text: A }\n  well: { text: W }\n";
    let by_column = "column_key: rating\ncolumns: [excellent, good, average, poor]\nrows:\n  \
                     retreat: [\"2 or less\", \"2 or less\", \"2 or less\", \"3 or less\"]\n  \
                     holds: [\"3,4\", \"3,4\", \"3,4\", \"4,5\"]\n  holds_fc: [\"5\", \"5,6\", \"5,6\", \"6,7\"]\n  \
                     or_fc: [\"6\", \"7\", \"7,8\", \"8,9\"]\n  and_fc: [\"7\", \"8\", \"9\", \"10\"]\n  \
                     well: [\"8+\", \"9+\", \"10+\", \"11+\"]\n";
    let by_row = "row_key: rating\ncolumns: [retreat, holds, holds_fc, or_fc, and_fc, well]\nrows:\n  \
                  excellent: [\"2 or less\", \"3,4\", \"5\", \"6\", \"7\", \"8+\"]\n  \
                  good: [\"2 or less\", \"3,4\", \"5,6\", \"7\", \"8\", \"9+\"]\n  \
                  average: [\"2 or less\", \"3,4\", \"5,6\", \"7,8\", \"9\", \"10+\"]\n  \
                  poor: [\"3 or less\", \"4,5\", \"6,7\", \"8,9\", \"10\", \"11+\"]\n";
    let folder = dir.path().join("charts");
    std::fs::create_dir_all(folder.join("tables")).unwrap();
    std::fs::write(folder.join("ruleset.yaml"), "id: charts\ntitle: Charts\nsource: house\n").unwrap();
    std::fs::write(folder.join("tables/by_column.yaml"), format!("{head}{by_column}{results}")).unwrap();
    std::fs::write(folder.join("tables/by_row.yaml"), format!("{head}{by_row}{results}")).unwrap();
    let loaded = load(&[folder.to_string_lossy().into_owned()], &rules_dir()).unwrap_or_else(|p| panic!("{:?}", p.0));
    let (column, row) = (&loaded.ruleset.tables["by_column"], &loaded.ruleset.tables["by_row"]);
    assert!(column.printed_by_column && !row.printed_by_column);
    for rating in ["excellent", "good", "average", "poor"] {
        for total in -2..=25 {
            let key = grognard::rules::RowKey::Label(rating.to_string());
            let read = |t: &grognard::rules::Table| t.read_grid(&key, total).unwrap().result.map(|r| r.id.clone());
            assert_eq!(read(column), read(row), "{rating} at {total}");
        }
    }
    // The seed's own cells, read from the chart stored as printed.
    let at = |rating: &str, total: i64| {
        column.read_grid(&grognard::rules::RowKey::Label(rating.into()), total).unwrap().result.unwrap().id.clone()
    };
    assert_eq!(at("excellent", 6), "or_fc");
    assert_eq!(at("poor", 10), "and_fc");
    assert_eq!(at("average", 2), "retreat");
    assert_eq!(at("good", 9), "well");
}
