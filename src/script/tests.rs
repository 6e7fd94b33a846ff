//! Tests of the host against the shipped rulesets and the fixture rulesets:
//! tables against the seeds, traces, effects, exact distributions, overlays,
//! switches and the sandbox.

use std::path::PathBuf;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rhai::Scope;

use super::*;
use crate::dice::{EnumLimits, Supplied};
use crate::rules::{Problem, RowKey, Ruleset, Switches, TableBody, load};

fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/rules/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn ruleset(specs: &[&str]) -> Ruleset {
    let specs: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    match load(&specs, &rules_dir()) {
        Ok(loaded) => loaded.ruleset,
        Err(problems) => panic!("{specs:?} does not load: {:?}", problems.0),
    }
}

fn host(specs: &[&str]) -> Host {
    Host::new(ruleset(specs)).unwrap_or_else(|p| panic!("{specs:?} does not compile: {p:?}"))
}

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

const LINE: &str = r#"unit(#{name: "54th Foot", nation: "britain", arm: "infantry", stands: 6, formation: "line"})"#;
const COLUMN: &str = r#"unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column"})"#;

// ---- the musketry table against seed 004, cell by cell ---------------------

/// The seed's flattened chart, copied from seed 004 (MUSKETRY AND CANNONADE TABLE).
const SEED_MUSKETRY: &str = "1/2 0-10 11+ - - - 1 0-9 10+ - - - 2 0-8 9+ - - - 3 0-8 9-11 12+ - - \
4 0-7 8-10 11+ - - 5 0-6 7-9 10+ - - 6,7 0-5 6-8 9+ - - 8,9 0-5 6-8 9-11 12+ - 10-11 0-4 5-7 8-10 11+ \
- 12-14 0-3 4-6 7-9 10+ - 15-19 0-2 3-5 6-8 9-11 12+ 20-24 0-1 2-4 5-7 8-10 11+ 25-29 0 1-3 4-6 7-9 10+ \
30-34 - 0-2 3-5 6-8 9+ 35-39 - 0-1 2-4 5-7 8+ 40-45 - 0 1-3 4-6 7+ 46-50 - 0 1-2 3-5 6+ 51+ - 0 1 2-4 5+";

#[test]
fn the_musketry_table_matches_the_seed_cell_by_cell() {
    let rs = ruleset(&["ff-napoleonic"]);
    let table = &rs.tables["musketry"];
    let TableBody::Grid { columns, rows, .. } = &table.body else { panic!("musketry is a grid") };
    assert_eq!(columns, &["desultory", "lively", "telling", "deadly", "withering"]);
    let tokens: Vec<&str> = SEED_MUSKETRY.split_whitespace().collect();
    assert_eq!(tokens.len(), rows.len() * 6, "18 rows of a label and five cells");
    for (row, seed) in rows.iter().zip(tokens.chunks(6)) {
        assert_eq!(&*row.label, seed[0]);
        for (i, (cell, seed_cell)) in row.cells.iter().zip(&seed[1..]).enumerate() {
            let expected = (*seed_cell != "-").then(|| crate::rules::band::Band::parse(seed_cell).unwrap());
            assert_eq!(cell, &expected, "row {} column {}", row.label, columns[i]);
        }
    }
}

#[test]
fn reading_the_musketry_table_at_its_edges() {
    let rs = ruleset(&["ff-napoleonic"]);
    let table = &rs.tables["musketry"];
    let read = |row: RowKey, total: i64| table.read_grid(&row, total).unwrap().result.unwrap().id.clone();
    // Row 6,7: 0-5 desultory, 6-8 lively, 9+ telling.
    assert_eq!(read(RowKey::Number(6), 5), "desultory");
    assert_eq!(read(RowKey::Number(7), 6), "lively");
    assert_eq!(read(RowKey::Number(7), 8), "lively");
    assert_eq!(read(RowKey::Number(6), 9), "telling");
    // Above the printed bands: 9+ is open. Below 0: clamped to 0 (FF-TAB-MUSKETRY ambiguity 1).
    assert_eq!(read(RowKey::Number(6), 16), "telling");
    assert_eq!(read(RowKey::Number(6), -3), "desultory");
    // For 30 or more fire points the column holding 0 is Lively.
    let reading = table.read_grid(&RowKey::Number(30), -2).unwrap();
    assert_eq!((reading.read_as, reading.result.unwrap().id.as_str()), (0, "lively"));
    // The 1/2 row is found by its label, the 51+ row by any number past 51.
    assert_eq!(read(RowKey::Label("1/2".into()), 11), "lively");
    assert_eq!(read(RowKey::Number(90), 5), "withering");
    assert!(table.read_grid(&RowKey::Number(0), 5).is_err());
}

#[test]
fn a_cell_names_its_table_and_row_in_words() {
    let host = host(&["ff-napoleonic"]);
    let read = |code: &str| host.eval(&mut Scope::new(), code).unwrap().value.to_string();
    let cell = r#"let c = lookup("musketry", 7, 6);"#;
    assert_eq!(
        read(&format!("{cell} [c.table, type_of(c.table), c.row, type_of(c.row), c.band]")),
        r#"["musketry", "string", "6,7", "string", "6-8"]"#
    );
    assert_eq!(read(r#"type_of(lookup("fallen_leader", 7).row)"#), "()");
    assert_eq!(read(r#"roll("2d6", "test").to_string()"#).split(':').next(), Some("2d6"));
}

#[test]
fn the_fallen_leader_table_matches_the_seed() {
    let rs = ruleset(&["linear-warfare"]);
    let table = &rs.tables["fallen_leader"];
    // Seed 003 L276-284, typed from the seed.
    for (face, result) in [
        (0, "fatal_wound"),
        (1, "fatal_wound"),
        (4, "fatal_wound"),
        (5, "wounded_two_turns"),
        (6, "wounded_three_turns"),
        (7, "fresh_wound"),
        (8, "horse_shot"),
        (9, "no_effect"),
        (10, "no_effect"),
    ] {
        assert_eq!(table.read_bands(face).unwrap().result.unwrap().id, result, "face {face}");
    }
    assert_eq!(table.results["fatal_wound"].text, "Fatal Wound: Leader dies");
    assert_eq!(table.results["wounded_two_turns"].text, "Wounded: Can't Move for 2 turns");
}

#[test]
fn the_attached_artillery_markers_match_the_seed() {
    let rs = ruleset(&["republique"]);
    let table = &rs.tables["attached_artillery_markers"];
    // Seed 000, 403: Heavy 4, Medium 4, Light 3, Very Light 2.
    for (kind, markers) in [("heavy", 4), ("medium", 4), ("light", 3), ("very_light", 2)] {
        assert_eq!(table.read_lookup(&[kind.to_string()]).unwrap(), &crate::rules::LookupValue::Int(markers));
    }
    assert!(
        table
            .read_lookup(&["huge".to_string()])
            .unwrap_err()
            .to_string()
            .contains("it has heavy, light, medium, very_light")
    );
}

// ---- resolutions: traces and effects ------------------------------------------

#[test]
fn a_fire_explains_itself_and_changes_the_target() {
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([8])));
    let mut scope = Scope::new();
    let code = format!("let a = {LINE}; let b = {COLUMN}; fire(a, b, #{{fire_points: 6, range: 2}})");
    let eval = host.eval(&mut scope, &code).unwrap();
    let lines = eval.trace.lines();
    // Every modifier is considered; the one that applies says why and where from.
    // 21: the four "-1/2" modifiers are listed twice, as a halving and as a -1 (fire_halving).
    assert_eq!(lines.iter().filter(|l| l.starts_with("mod ")).count(), 21);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("mod     yes +1") && l.contains("british_infantry_fire") && l.contains("seed 004"))
    );
    assert!(lines.iter().any(|l| l == "roll    musketry, 1d10: [8] = 8"));
    assert!(
        lines.iter().any(|l| l.starts_with("table   Musketry and Cannonade Table, row 6,7, total 9 -> 9+: telling"))
    );
    assert!(lines.iter().any(|l| l == "effect  4e Ligne: disordered, loses 1 stand"));
    // The unit the script holds was changed.
    let b = scope.get_value::<UnitRef>("b").unwrap();
    assert_eq!((b.0.borrow().stands, b.0.borrow().order.as_str()), (5, "disordered"));
    let value = eval.value.cast::<rhai::Map>();
    assert_eq!(value["result"].to_string(), "telling");
    assert_eq!(value["natural"].as_int().unwrap(), 8);
}

#[test]
fn fire_at_artillery_uses_the_artillery_results() {
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([10])));
    let mut scope = Scope::new();
    let code = r#"let gun = unit(#{name: "Battery", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
        fire(unit(#{name: "9e Ligne", arm: "infantry", stands: 6, formation: "line"}), gun, #{fire_points: 6}); gun"#;
    let gun = host.eval(&mut scope, code).unwrap().value.cast::<UnitRef>();
    // 10 - 1 (infantry at unlimbered artillery) = 9: Telling, which against a battery is
    // "Artillery damaged & silenced": both markers.
    assert_eq!(gun.0.borrow().markers.get("battery"), Some(&crate::unit::Marker::Text("damaged".into())));
    assert!(gun.0.borrow().has_marker("silenced"));
    assert_eq!(gun.0.borrow().stands, 1);
}

#[test]
fn halving_modifiers_follow_the_interpretation() {
    let mut rs = ruleset(&["ff-napoleonic"]);
    let code = r#"let a = unit(#{name: "A", arm: "infantry", stands: 6, formation: "deployed", order: "disordered"});
        fire(a, unit(#{name: "B", arm: "infantry", stands: 6, formation: "line"}), #{fire_points: 8})"#;
    for (choice, fire_points, row) in [("cumulative", 2.0, 2), ("once", 4.0, 4), ("minus_one", 8.0, 8)] {
        rs.set_interpretation("fire_halving", choice).unwrap();
        let host = Host::new(rs.clone()).unwrap();
        host.set_dice(Box::new(Supplied::new([5])));
        let eval = host.eval(&mut Scope::new(), code).unwrap();
        // The trace says what was applied: a halving, or a -1 on the die.
        let applied: Vec<String> = eval
            .trace
            .lines()
            .into_iter()
            .filter(|l| l.starts_with("mod     yes") && l.contains("Firing unit"))
            .collect();
        assert_eq!(applied.len(), 2, "{choice}: {applied:#?}");
        for line in &applied {
            let minus_one = line.starts_with("mod     yes -1") && line.contains("(-1/2 read as -1)");
            let halve = line.contains("halve fire points") && !line.contains("-1/2 read as -1");
            assert!(if choice == "minus_one" { minus_one } else { halve }, "{choice}: {line}");
        }
        let value = eval.value.cast::<rhai::Map>();
        assert_eq!(value["fire_points"].as_float().unwrap(), fire_points, "{choice}");
        assert_eq!(value["row"].as_int().unwrap(), row, "{choice}");
        // minus_one takes 2 off the die instead: 5 - 2 = 3.
        let total = if choice == "minus_one" { 3 } else { 5 };
        assert_eq!(value["total"].as_int().unwrap(), total, "{choice}");
    }
}

#[test]
fn the_fallen_leader_procedure_captures_and_wounds() {
    let host = host(&["linear-warfare"]);
    host.set_dice(Box::new(Supplied::new([6, 6, 3])));
    let mut scope = Scope::new();
    let code = r#"let k = leader(#{name: "Kleist"}); fallen_leader(k, #{defeated_in_charge: true}); k"#;
    let k = host.eval(&mut scope, code).unwrap().value.cast::<LeaderRef>();
    assert!(k.0.borrow().has_marker("captured"));
    let k = host
        .eval(&mut scope, r#"let w = leader(#{name: "Zieten"}); fallen_leader(w, #{}); w"#)
        .unwrap()
        .value
        .cast::<LeaderRef>();
    assert_eq!(k.0.borrow().markers.get("immobile_turns"), Some(&crate::unit::Marker::Count(3)));
    let k = host
        .eval(&mut scope, r#"let d = leader(#{name: "Schwerin"}); fallen_leader(d, #{}); d"#)
        .unwrap()
        .value
        .cast::<LeaderRef>();
    assert!(k.0.borrow().has_marker("dead") && k.0.borrow().has_marker("removed"));
}

#[test]
fn attached_artillery_needs_its_option() {
    let code = r#"let b = unit(#{name: "12-pdr", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", markers: #{calibre: "light"}});
        let r = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line"});
        attach_artillery(b, r)"#;
    let host = host(&["republique"]);
    let err = host.eval(&mut Scope::new(), code).unwrap_err();
    assert!(err.to_string().contains("rule 403 (attached_artillery) is off"), "{err}");
    let mut rs = ruleset(&["republique"]);
    rs.apply(&Switches { with: vec!["attached_artillery".into()], ..Switches::default() }).unwrap();
    let value = Host::new(rs).unwrap().eval(&mut Scope::new(), code).unwrap().value.cast::<rhai::Map>();
    assert_eq!(
        (value["made"].as_int().unwrap(), value["attached"].as_int().unwrap(), value["left"].as_int().unwrap()),
        (3, 2, 1)
    );
}

// ---- exact distributions ---------------------------------------------------

/// The musketry columns of a row, typed from the seed, as (lowest total, result) from the top.
fn musketry_row_6_7(total: i64) -> &'static str {
    match total {
        ..=5 => "desultory",
        6..=8 => "lively",
        _ => "telling",
    }
}

#[test]
fn exact_odds_of_a_fire_against_an_independent_count() {
    let host = host(&["ff-napoleonic"]);
    for (situation, modifier) in [
        ("#{fire_points: 6}", 1),
        ("#{fire_points: 7, cover: \"woods\"}", 0),
        ("#{fire_points: 6, cover: \"works\", enfiladed: true}", 0),
    ] {
        let code = format!("fire({LINE}, {COLUMN}, {situation}).result");
        let odds = host.odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap();
        assert!(odds.exact);
        assert_eq!(odds.runs, 10);
        let mut expected = std::collections::BTreeMap::new();
        for face in 1..=10 {
            *expected.entry(musketry_row_6_7(face + modifier)).or_insert(0) += 1;
        }
        for (result, count) in expected {
            let p = odds.distribution.probability(&Outcome::Word(result.to_string()));
            assert_eq!(p, ratio(count, 10), "{situation}: {result}");
        }
        assert_eq!(odds.distribution.total(), BigRational::one());
    }
}

#[test]
fn exact_odds_leave_the_sessions_units_alone() {
    let host = host(&["ff-napoleonic"]);
    let mut scope = Scope::new();
    host.eval(&mut scope, &format!("let a = {LINE}; let b = {COLUMN};")).unwrap();
    let odds = host.odds(&scope, "fire(a, b, #{fire_points: 12}).result", EnumLimits::default(), (100, 1)).unwrap();
    assert_eq!(odds.distribution.len(), 4);
    let b = scope.get_value::<UnitRef>("b").unwrap();
    assert_eq!((b.0.borrow().stands, b.0.borrow().order.as_str()), (6, "good_order"));
    // A call whose arguments make units: they are made once for the walk, and gone after it,
    // with the same odds as the walk that makes them in every run.
    let made = format!("fire(a, {COLUMN}, #{{fire_points: 12}}).result");
    let before: Vec<String> = host.state().units.keys().cloned().collect();
    let once = host.odds(&scope, &made, EnumLimits::default(), (100, 1)).unwrap();
    assert_eq!(host.state().units.keys().cloned().collect::<Vec<_>>(), before);
    host.set_exact_engine(false);
    let every_run = host.odds(&scope, &made, EnumLimits::default(), (100, 1)).unwrap();
    assert_eq!(once.distribution, every_run.distribution);
    assert_eq!(once.distribution, odds.distribution);
}

#[test]
fn the_fallen_leader_odds_on_each_d10_reading() {
    let code = r#"fallen_leader(leader(#{name: "K"}), #{}).result"#;
    let odds = host(&["linear-warfare"]).odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap();
    // "0-4" on a die numbered 1-10 is 1-4.
    assert_eq!(odds.distribution.probability(&Outcome::Word("fatal_wound".into())), ratio(4, 10));
    // Horse shot has no effect outside Charge Combat, so 8, 9 and 10 are no effect.
    assert_eq!(odds.distribution.probability(&Outcome::Word("no_effect".into())), ratio(3, 10));
    let zero_based = fixture("linear-warfare-zero-based");
    let odds = host(&[&zero_based]).odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap();
    assert_eq!(odds.distribution.probability(&Outcome::Word("fatal_wound".into())), ratio(5, 10));
    assert_eq!(odds.distribution.probability(&Outcome::Word("no_effect".into())), ratio(2, 10));
}

#[test]
fn a_loop_cut_off_is_residual_probability() {
    // Replaying every face (the reference the exact engine is held to) cuts loops off.
    let host = host(&[&fixture("sandbox")]);
    host.set_exact_engine(false);
    let limits = EnumLimits { max_depth: 6, ..EnumLimits::default() };
    let odds = host.odds(&Scope::new(), "duel()", limits, (100, 1)).unwrap();
    // Three rounds fit in six dice; ties three times running are cut off.
    assert_eq!(odds.distribution.residual(), ratio(1, 216));
    let each_side = (BigRational::one() - ratio(1, 216)) / BigRational::from_integer(2.into());
    assert_eq!(odds.distribution.probability(&Outcome::Flag(true)), each_side);
}

#[test]
fn too_many_outcomes_fall_back_to_sampling_and_say_so() {
    let host = host(&[&fixture("sandbox")]);
    host.set_exact_engine(false);
    let limits = EnumLimits { max_outcomes: 20, ..EnumLimits::default() };
    let odds = host.odds(&Scope::new(), "duel()", limits, (2_000, 5)).unwrap();
    assert!(!odds.exact);
    assert_eq!(odds.runs, 2_000);
    assert!(odds.sampled.as_deref().unwrap().contains("sampled 2000 trials with seed 5"));
    let yes = crate::dice::to_f64(&odds.distribution.probability(&Outcome::Flag(true)));
    assert!((yes - 0.5).abs() < 0.05, "{yes}");
    assert!(odds.distribution.residual().is_zero());
}

#[test]
fn the_exact_engine_solves_a_loop_that_rolls_again_on_a_tie() {
    // `duel()` rolls two d6 until they differ: with states merged and the loop solved as a
    // chain, each side wins exactly half, nothing cut off, however small the limits.
    let host = host(&[&fixture("sandbox")]);
    let limits = EnumLimits { max_outcomes: 20, max_depth: 2 };
    let odds = host.odds(&Scope::new(), "duel()", limits, (100, 1)).unwrap();
    assert!(odds.exact && odds.sampled.is_none() && odds.cut_off_at.is_none());
    assert!(odds.distribution.residual().is_zero());
    assert_eq!(odds.distribution.probability(&Outcome::Flag(true)), ratio(1, 2));
    assert_eq!(odds.runs, 2);
}

// ---- overlays and switches ---------------------------------------------------

#[test]
fn an_overlay_changes_cells_modifiers_options_and_procedures() {
    let rs = ruleset(&["ff-house-example"]);
    assert_eq!(rs.layers.iter().map(|l| l.id.as_str()).collect::<Vec<_>>(), ["ff-napoleonic", "ff-house-example"]);
    // A cell: row 6,7 telling is now 8,9 and deadly 10+.
    let table = &rs.tables["musketry"];
    let reading = table.read_grid(&RowKey::Number(6), 10).unwrap();
    assert_eq!(reading.result.as_ref().unwrap().id, "deadly");
    assert!(table.source_of(&reading).is_house());
    assert!(!table.source_of(&table.read_grid(&RowKey::Number(8), 10).unwrap()).is_house());
    // Modifiers: one added, one changed, one removed.
    let ids: Vec<&str> = rs.modifiers["fire_modifiers"].modifiers.iter().map(|m| m.id.as_str()).collect();
    assert!(ids.contains(&"veteran_volleys"));
    assert!(!ids.contains(&"british_infantry_fire"));
    let cover = rs.modifiers["fire_modifiers"].modifiers.iter().find(|m| m.id == "target_in_cover").unwrap();
    assert_eq!(cover.effect, crate::rules::ModEffect::Add(-2));
    // Options and interpretations.
    assert_eq!(rs.option("veteran_volleys"), Ok(true));
    assert_eq!(rs.interpretation("musketry_below_zero"), Ok("desultory"));
    // The replaced procedure rounds fire points to the nearest row: 3.75 reads row 4.
    let host = Host::new(rs).unwrap();
    host.set_dice(Box::new(Supplied::new([5])));
    let code = r#"fire(unit(#{name: "A", arm: "infantry", stands: 6, formation: "line"}), unit(#{name: "B", arm: "infantry", stands: 6, formation: "line"}), #{fire_points: 7.5, cover: "woods"})"#;
    let eval = host.eval(&mut Scope::new(), code).unwrap();
    let value = eval.value.cast::<rhai::Map>();
    assert_eq!(value["row"].as_int().unwrap(), 8);
    assert_eq!(value["total"].as_int().unwrap(), 3);
    assert!(eval.trace.lines().iter().any(|l| l.starts_with("mod     yes -2") && l.contains("house")));
}

#[test]
fn switches_are_checked_and_suggest_names() {
    let mut rs = ruleset(&["ff-napoleonic"]);
    let problems = rs
        .apply(&Switches {
            with: vec!["fallen_leeder".into()],
            set: vec![("musketry_below_zero".into(), "zero".into())],
            ..Switches::default()
        })
        .unwrap_err();
    assert_eq!(problems.len(), 2);
    assert!(
        problems[0].message.starts_with("ruleset `ff-napoleonic` has no option `fallen_leeder`"),
        "{}",
        problems[0].message
    );
    assert_eq!(
        problems[1].message,
        "interpretation `musketry_below_zero` has no choice `zero`; its choices are clamp, desultory"
    );
    let mut rs = ruleset(&["ff-house-example"]);
    rs.apply(&Switches {
        without: vec!["veteran_volleys".into()],
        set: vec![("musketry_below_zero".into(), "clamp".into())],
        ..Switches::default()
    })
    .unwrap();
    assert_eq!(rs.option("veteran_volleys"), Ok(false));
    assert_eq!(rs.interpretation("musketry_below_zero"), Ok("clamp"));
}

#[test]
fn the_below_zero_interpretation_reads_desultory() {
    let code = r#"fire(unit(#{name: "A", arm: "infantry", stands: 6, formation: "line"}),
        unit(#{name: "B", arm: "infantry", stands: 6, formation: "line"}), #{fire_points: 30, cover: "fortified_town"}).result"#;
    let odds = host(&["ff-napoleonic"]).odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap();
    // 1d10 - 3: totals -2..7 on row 30-34; below 0 reads the 0 cell, Lively.
    assert_eq!(odds.distribution.probability(&Outcome::Word("lively".into())), ratio(5, 10));
    let mut rs = ruleset(&["ff-napoleonic"]);
    rs.set_interpretation("musketry_below_zero", "desultory").unwrap();
    let odds = Host::new(rs).unwrap().odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap();
    // Now -2 and -1 are Desultory; 0 to 2 are still Lively.
    assert_eq!(odds.distribution.probability(&Outcome::Word("desultory".into())), ratio(2, 10));
    assert_eq!(odds.distribution.probability(&Outcome::Word("lively".into())), ratio(3, 10));
}

// ---- the sandbox -----------------------------------------------------------

fn run_error(code: &str) -> Problem {
    match host(&[&fixture("sandbox")]).eval(&mut Scope::new(), code).unwrap_err() {
        ScriptError::At(problem) => *problem,
        other => panic!("{code}: {other:?}"),
    }
}

#[test]
fn an_endless_loop_ends_with_a_clear_error() {
    let problem = run_error("forever()");
    assert_eq!(problem.code, "script::limit");
    assert_eq!(problem.message, "stopped after 2000000 operations, the limit for one command");
    assert!(problem.help.as_deref().unwrap().contains("endless loop"), "{problem:?}");
    assert_eq!(problem.place(), "expression:1:1");
}

#[test]
fn deep_recursion_ends_with_a_clear_error() {
    let problem = run_error("deep(0)");
    assert_eq!(problem.code, "script::limit");
    assert_eq!(problem.message, "calls nested more than 48 deep");
}

#[test]
fn imports_stay_inside_the_ruleset() {
    let host = host(&[&fixture("sandbox")]);
    assert_eq!(host.eval(&mut Scope::new(), "helper_inside()").unwrap().value.as_int().unwrap(), 42);
    let problem = run_error("escape()");
    // Said from the path alone: whether `Cargo.rhai` exists up there is not told.
    assert!(problem.message.contains("../../../../Cargo.rhai leads outside the ruleset folder"), "{problem:?}");
    let problem = run_error("absolute()");
    assert!(problem.message.contains("imports are relative to the ruleset folder"), "{problem:?}");
}

#[test]
fn eval_is_not_available_to_scripts() {
    let host = host(&[&fixture("sandbox")]);
    let err = host.eval(&mut Scope::new(), r#"eval("40 + 2")"#).unwrap_err();
    assert!(err.to_string().contains("cannot compile") || err.to_string().contains("eval"), "{err}");
}

#[test]
fn runtime_errors_point_into_the_expression() {
    let host = host(&["ff-napoleonic"]);
    let err = host.eval(&mut Scope::new(), r#"lookup("musketry", 6, "x")"#).unwrap_err();
    assert!(err.to_string().contains("lookup"), "{err}");
    let err = host
        .eval(&mut Scope::new(), r#"unit(#{name: "X", arm: "infantery", stands: 4, formation: "line"})"#)
        .unwrap_err();
    assert!(err.to_string().contains("did you mean `infantry`?"), "{err}");
    let err = host.eval(&mut Scope::new(), r#"lookup("musketri", 6, 5)"#).unwrap_err();
    assert!(err.to_string().contains("has no table `musketri` (did you mean `musketry`?)"), "{err}");
}

#[test]
fn supplied_dice_that_run_out_are_a_dice_error() {
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([])));
    let err = host.eval(&mut Scope::new(), &format!("fire({LINE}, {COLUMN}, #{{fire_points: 6}})")).unwrap_err();
    assert!(matches!(err, ScriptError::Dice(crate::dice::DiceError::OutOfFaces { .. })), "{err:?}");
}

#[test]
fn every_shipped_ruleset_checks_clean() {
    for id in ["ff-napoleonic", "linear-warfare", "republique", "ff-house-example", "volley-example"] {
        let problems = check(&ruleset(&[id]));
        assert!(problems.is_empty(), "{id}: {problems:?}");
    }
}

#[test]
fn rolls_are_never_folded_into_constants() {
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(crate::dice::Seeded::new(9)));
    let value = host
        .eval(&mut Scope::new(), r#"let faces = []; for i in 0..40 { faces.push(roll("1d10").total) } faces"#)
        .unwrap()
        .value;
    let faces: Vec<i64> = value.cast::<rhai::Array>().iter().map(|f| f.as_int().unwrap()).collect();
    let distinct: std::collections::BTreeSet<i64> = faces.iter().copied().collect();
    assert!(distinct.len() > 5, "{faces:?}");
    assert!(!BigRational::zero().is_one());
}

#[test]
fn overlays_stack_in_order() {
    let second = fixture("ff-second-overlay");
    // Named alone, an overlay brings the layers it extends, base first.
    let rs = ruleset(&[&second]);
    assert_eq!(
        rs.layers.iter().map(|l| l.id.as_str()).collect::<Vec<_>>(),
        ["ff-napoleonic", "ff-house-example", "ff-second-overlay"]
    );
    // Named in order, the same stack.
    let stacked = ruleset(&["ff-napoleonic", "ff-house-example", &second]);
    assert_eq!(stacked.layers.len(), 3);
    for rs in [rs, stacked] {
        let mods = &rs.modifiers["fire_modifiers"].modifiers;
        assert!(!mods.iter().any(|m| m.id == "veteran_volleys"));
        let cover = mods.iter().find(|m| m.id == "target_in_cover").unwrap();
        assert_eq!(cover.effect, crate::rules::ModEffect::Add(-3));
        assert_eq!(rs.interpretation("musketry_below_zero"), Ok("clamp"));
        // The first overlay's patched row is still there.
        let reading = rs.tables["musketry"].read_grid(&RowKey::Number(6), 10).unwrap();
        assert_eq!(reading.result.unwrap().id, "deadly");
    }
}

#[test]
fn a_loop_is_walked_as_deep_as_the_outcome_limit_allows() {
    let host = host(&[&fixture("sandbox")]);
    host.set_exact_engine(false);
    // Ties go on: 2 dice walk 36 outcomes, 4 dice 246, 6 dice 1,506; 8 dice would pass 5,000.
    let limits = EnumLimits { max_outcomes: 5_000, max_depth: 64 };
    let odds = host.odds(&Scope::new(), "duel()", limits, (100, 1)).unwrap();
    assert!(odds.exact);
    assert_eq!(odds.cut_off_at, Some(6));
    assert_eq!(odds.runs, 1_506);
    assert_eq!(odds.distribution.residual(), ratio(1, 216));
    // A computation with no loop is walked once, completely.
    let odds = host.odds(&Scope::new(), r#"roll("2d6").total"#, limits, (100, 1)).unwrap();
    assert_eq!((odds.cut_off_at, odds.runs), (None, 36));
}

// ---- guards found by review ------------------------------------------------

#[test]
fn a_condition_that_calls_its_own_list_ends_with_an_error() {
    let err = host(&[&fixture("sandbox")])
        .eval(&mut Scope::new(), r#"modifiers("tricky", #{situation: #{deep: true, n: 1, zero: 0}})"#)
        .unwrap_err();
    assert!(err.to_string().contains("nested more than 8 deep"), "{err}");
}

#[test]
fn a_file_that_imports_itself_ends_with_an_error() {
    let err = host(&[&fixture("sandbox")]).eval(&mut Scope::new(), "import_itself()").unwrap_err();
    assert!(err.to_string().contains("imports itself"), "{err}");
}

#[test]
fn groups_compare_what_counted_modifiers_add() {
    // worst of (-1 x 5, -2) is -5; best of (+3 x 0, +1) is +1; and `unit != ()` is read at run time: +10.
    let value = host(&[&fixture("sandbox")])
        .eval(&mut Scope::new(), r#"modifiers("tricky", #{unit: 5, situation: #{n: 5, zero: 0}}).total"#)
        .unwrap()
        .value;
    assert_eq!(value.as_int().unwrap(), 10 - 5 + 1);
    let value = host(&[&fixture("sandbox")])
        .eval(&mut Scope::new(), r#"modifiers("tricky", #{situation: #{n: 1, zero: 0}}).total"#)
        .unwrap()
        .value;
    assert_eq!(value.as_int().unwrap(), -2 + 1);
}

#[test]
fn huge_counts_and_stand_losses_are_errors_not_overflows() {
    let host = host(&["ff-napoleonic"]);
    // -1 for each of i64::MAX stands, then -2 for disordered: past any total.
    let code = r#"let u = unit(#{name: "A", arm: "infantry", stands: 6, formation: "line", order: "disordered"});
        modifiers("melee_modifiers", #{unit: u, enemy: u, situation: #{side: "attacker", stands_lost: 9223372036854775807}})"#;
    let err = host.eval(&mut Scope::new(), code).unwrap_err();
    assert!(err.to_string().contains("add up past any die roll"), "{err}");
    let code = r#"let u = unit(#{name: "A", arm: "infantry", stands: 6, formation: "line"}); apply(u, #{lose_stands: 4294967297}); u.stands"#;
    assert_eq!(host.eval(&mut Scope::new(), code).unwrap().value.as_int().unwrap(), 0);
    let code = r#"let u = unit(#{name: "A", arm: "infantry", stands: 4000000000, formation: "line", placement: #{x: 0.0, y: 0.0, facing: 0.0}}); footprint(u, 1.0, 1.0, 1)"#;
    assert!(host.eval(&mut Scope::new(), code).unwrap_err().to_string().contains("at most 1000"));
    assert!(
        host.eval(&mut Scope::new(), r#"unit(#{name: "  ", arm: "infantry", stands: 1, formation: "line"})"#).is_err()
    );
    let err = host.eval(&mut Scope::new(), r#"lookup("bases", ["infantry", "frontage", "x"])"#).unwrap_err();
    assert!(err.to_string().contains("only 2 key(s)"), "{err}");
}

#[test]
fn a_trace_stops_growing() {
    let eval = host(&["ff-napoleonic"])
        .eval(&mut Scope::new(), r#"let n = 0; for i in 0..12000 { n += roll("1d6").total; } n"#)
        .unwrap();
    assert_eq!(eval.trace.steps.len(), crate::script::state::MAX_TRACE_STEPS + 1);
    assert!(eval.trace.lines().last().unwrap().contains("the trace stops here"));
}

#[test]
fn odds_leave_shared_units_and_attached_leaders_as_they_were() {
    let host = host(&["linear-warfare"]);
    let mut scope = Scope::new();
    host.eval(
        &mut scope,
        r#"let a = unit(#{name: "A", arm: "infantry", stands: 6, formation: "line"}); let t = [a];
        let k = leader(#{name: "Kleist"}); a.attach(k);"#,
    )
    .unwrap();
    // The array holds the same unit as `a`: a run's loss shows through it.
    let odds =
        host.odds(&scope, r#"a.lose_stands(roll("1d2").total); t[0].stands"#, EnumLimits::default(), (10, 1)).unwrap();
    assert_eq!(odds.distribution.probability(&Outcome::Number(5)), ratio(1, 2));
    // Leaders reached through their unit are put back too.
    host.odds(&scope, "fallen_leader(a.leaders[0], #{}).result", EnumLimits::default(), (10, 1)).unwrap();
    let k = scope.get_value::<LeaderRef>("k").unwrap();
    assert!(k.0.borrow().markers.is_empty(), "{:?}", k.0.borrow().markers);
    assert_eq!(scope.get_value::<UnitRef>("a").unwrap().0.borrow().stands, 6);
}

#[test]
fn a_walk_that_cuts_off_most_of_the_chance_is_sampled_instead() {
    let limits = EnumLimits { max_outcomes: 2_000, max_depth: 64 };
    let host = host(&["ff-napoleonic"]);
    host.set_exact_engine(false);
    let odds = host.odds(&Scope::new(), r#"roll("8d6").total"#, limits, (500, 1)).unwrap();
    assert!(!odds.exact);
    assert!(odds.sampled.is_some());
    // The exact engine branches over the 41 totals of 8d6, not its 6^8 faces.
    host.set_exact_engine(true);
    let odds = host.odds(&Scope::new(), r#"roll("8d6").total"#, limits, (500, 1)).unwrap();
    assert!(odds.exact && odds.sampled.is_none());
    assert_eq!((odds.runs, odds.distribution.len()), (41, 41));
    assert_eq!(odds.distribution.probability(&Outcome::Number(48)), ratio(1, 1_679_616));
    // Reading the faces of such a roll sends the walk back to replaying every face.
    let odds = host.odds(&Scope::new(), r#"roll("2d6").naturals[0]"#, limits, (500, 1)).unwrap();
    assert!(odds.exact);
    assert_eq!(odds.distribution.probability(&Outcome::Number(6)), ratio(1, 6));
}

#[test]
fn effects_written_in_a_script_clear_markers() {
    let host = host(&["ff-napoleonic"]);
    let code = r#"let u = unit(#{name: "A", arm: "infantry", stands: 6, formation: "line", markers: #{fatigued: "division", guard: true}});
        apply(u, #{clear_markers: ["fatigued"]}); [u.has_marker("fatigued"), u.has_marker("guard")]"#;
    let value = host.eval(&mut Scope::new(), code).unwrap().value.into_array().unwrap();
    assert_eq!(value.iter().map(|v| v.as_bool().unwrap()).collect::<Vec<_>>(), [false, true]);
    let code = r#"let u = unit(#{name: "A", arm: "infantry", stands: 6, formation: "line"}); apply(u, #{clear_markers: "fatigued"})"#;
    let err = host.eval(&mut Scope::new(), code).unwrap_err();
    assert!(err.to_string().contains("clear_markers is a list of marker names"), "{err}");
}

#[test]
fn a_footprint_is_laid_out_where_the_unit_stands_or_at_a_given_place() {
    let host = host(&["republique"]);
    let unit = r#"let u = unit(#{name: "A", arm: "infantry", stands: 2, formation: "line", placement: #{x: 0.0, y: 0.0, facing: 0.0}});"#;
    // Two 1" stands abreast, 1" deep: moved 10" along its depth the gap is 9";
    // moved 5" along its 2" front, 3".
    let code = format!(
        "{unit} [distance(footprint(u, 1.0, 1.0, 2), footprint(u, 1.0, 1.0, 2, #{{x: 0, y: 10, facing: 0}})),
                 distance(footprint(u, 1.0, 1.0, 2), footprint(u, 1.0, 1.0, 2, #{{x: 5.0, y: 0.0}}))]"
    );
    let v = host.eval(&mut Scope::new(), &code).unwrap().value.into_array().unwrap();
    assert_eq!(v.iter().map(|d| d.as_float().unwrap()).collect::<Vec<_>>(), [9.0, 3.0]);
    for (at, message) in [
        (r#"#{x: "a", y: 0}"#, "`x` of a place on the table is a number, not string"),
        ("#{x: 1}", "a place on the table needs `y`"),
        ("#{x: 1, y: 2, z: 3}", "a place on the table has x, y and facing, not `z`"),
    ] {
        let err = host.eval(&mut Scope::new(), &format!("{unit} footprint(u, 1.0, 1.0, 2, {at})")).unwrap_err();
        assert!(err.to_string().contains(message), "{at}: {err}");
    }
    // A unit placed with whole numbers, or with a bad place.
    let whole = r#"let w = unit(#{name: "W", arm: "infantry", stands: 2, formation: "line", placement: #{x: 0, y: 3}}); w.placed"#;
    assert!(host.eval(&mut Scope::new(), whole).unwrap().value.as_bool().unwrap());
    let bad = r#"unit(#{name: "W", arm: "infantry", stands: 2, formation: "line", placement: #{x: "a", y: 3}})"#;
    let err = host.eval(&mut Scope::new(), bad).unwrap_err().to_string();
    assert!(err.contains("unit `W`: `x` of a place on the table is a number, not string"), "{err}");
}

#[test]
fn every_unit_and_leader_property_is_read() {
    use super::properties::{LEADER_PROPERTIES, UNIT_PROPERTIES, leader_property, unit_property};
    let host = host(&["ff-napoleonic"]);
    let code = r#"let u = unit(#{name: "A", arm: "infantry", stands: 2, formation: "line"});
        let l = leader(#{name: "B"}); [u, l]"#;
    let pair = host.eval(&mut Scope::new(), code).unwrap().value.into_array().unwrap();
    let unit = pair[0].clone().cast::<UnitRef>();
    let leader = pair[1].clone().cast::<LeaderRef>();
    for name in UNIT_PROPERTIES {
        assert!(unit_property(&unit.0.borrow(), name).is_some(), "unit.{name}");
    }
    for name in LEADER_PROPERTIES {
        assert!(leader_property(&leader.0.borrow(), name).is_some(), "leader.{name}");
    }
}

#[test]
fn a_trial_counts_at_most_so_many_observations_of_bounded_size() {
    let host = host(&["ff-napoleonic"]);
    let within = "for i in 0..999 { tally(`k${i}`, 1) } record(\"r\", 1); 1";
    assert!(host.eval(&mut Scope::new(), within).is_ok());
    // Each run counts afresh: a REPL line does not inherit the last one's observations.
    assert!(host.eval(&mut Scope::new(), within).is_ok());
    assert_eq!(host.take_observations().tallies.len(), 999);
    let err = host.eval(&mut Scope::new(), "for i in 0..2000 { tally(`k${i}`, 1) }").unwrap_err();
    assert!(err.to_string().contains("more than 1000 tallies and records in one trial"), "{err}");
    let err = host.eval(&mut Scope::new(), r#"let v = ""; v.pad(300, "y"); tally("k", v)"#).unwrap_err();
    assert!(err.to_string().contains("a value is at most 200 characters"), "{err}");
    let err = host.eval(&mut Scope::new(), r#"let k = ""; k.pad(101, "k"); record(k, 1)"#).unwrap_err();
    assert!(err.to_string().contains("a key is at most 100 characters"), "{err}");
}

#[test]
fn a_roll_compares_and_adds_with_numbers_as_its_value() {
    let host = host(&["ff-napoleonic"]);
    host.set_dice(Box::new(Supplied::new([5, 3, 4, 6, 5, 2, 4, 1, 3, 2, 6, 6])));
    let value = |code: &str| host.eval(&mut Scope::new(), code).unwrap().value;
    // 5 >= 4, and 3 < 4: compared as its total, never as an unequal type.
    assert!(value(r#"roll("1d6") >= 4"#).as_bool().unwrap());
    assert!(!value(r#"4 <= roll("1d6")"#).as_bool().unwrap());
    // t += roll(..) adds the total: 4 + 6.
    assert_eq!(value(r#"let t = 0; t += roll("2d6"); t"#).as_int().unwrap(), 10);
    // A pool that counts hits: [5 2 4 1 3 2] hits 4+ is 2, and `.hits` says so.
    assert_eq!(
        value(r#"let r = roll("6d6 hits 4+"); [r.hits, r.total, r + 1]"#)
            .cast::<rhai::Array>()
            .iter()
            .map(|v| v.as_int().unwrap())
            .collect::<Vec<_>>(),
        [2, 2, 3]
    );
    let err = host.eval(&mut Scope::new(), r#"roll("2d6 >= 8") >= 1"#).unwrap_err();
    assert!(err.to_string().contains("asks yes or no: read its `.success`"), "{err}");
}

#[test]
fn check_warns_where_a_roll_is_read_as_a_number_without_a_reading() {
    let problems: Vec<_> =
        check(&ruleset(&[&fixture("roll-readings")])).into_iter().filter(|p| p.code != "script::unread").collect();
    let found: Vec<(&str, bool, usize, &str)> = problems
        .iter()
        .map(|p| {
            let file = p.file.as_ref().unwrap().inner();
            let line = file[..p.span.unwrap().offset()].lines().count();
            (p.code, p.is_error(), line, p.message.as_str())
        })
        .collect();
    assert_eq!(found.len(), 3, "{found:?}");
    for (i, (code, error, line, _)) in found.iter().enumerate() {
        assert_eq!((*code, *error, *line), ("script::roll_reading", false, i + 2), "{found:?}");
    }
    assert!(found[0].3.starts_with("a Roll is used as a number here: it counts as its total"), "{found:?}");
    assert!(found[2].3.starts_with("`die` holds a Roll, used as a number here"), "{found:?}");
}

#[test]
fn check_reads_the_dice_written_in_procedures() {
    let problems: Vec<_> =
        check(&ruleset(&[&fixture("dice-literals")])).into_iter().filter(|p| p.code != "script::unread").collect();
    let found: Vec<(&str, bool, &str)> = problems.iter().map(|p| (p.code, p.is_error(), p.message.as_str())).collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].0, "script::certain_roll");
    assert!(!found[0].1, "a warning, not an error");
    assert!(found[0].2.contains("write `6d6 hits 4+`"), "{found:?}");
    assert_eq!((found[1].0, found[1].1), ("script::dice", true));
    assert!(found[1].2.starts_with("`2d6 plus 1` is not dice grognard can roll"), "{found:?}");
}

#[test]
fn a_tallied_value_reads_back_as_it_was_written() {
    // Numbers order and sum as numbers; anything that would not read back the same stays a word.
    assert_eq!(Outcome::of_tallied("3"), Outcome::Number(3));
    assert_eq!(Outcome::of_tallied("-2"), Outcome::Number(-2));
    assert_eq!(Outcome::of_tallied("007"), Outcome::Word("007".into()));
    assert_eq!(Outcome::of_tallied("+3"), Outcome::Word("+3".into()));
    assert_eq!(Outcome::of_tallied("2.5"), Outcome::Decimal(ratio(5, 2)));
    assert_eq!(Outcome::of_tallied("1e3"), Outcome::Word("1e3".into()));
    assert_eq!(Outcome::of_tallied("true"), Outcome::Flag(true));
    assert_eq!(Outcome::of_tallied("(nothing)"), Outcome::Nothing);
    assert_eq!(Outcome::of_tallied("swept").to_string(), "swept");
    for text in ["3", "-2", "007", "+3", "true", "false", "(nothing)", "swept", "2.5", "1e3", "6.0"] {
        assert_eq!(Outcome::of_tallied(text).to_string(), text);
    }
}

#[test]
fn a_run_counting_a_key_twice_weighs_each_value_by_its_share() {
    use super::observed::ExactObservations;
    use num_bigint::BigUint;
    // Two runs of chance 1/4 and 3/4: the first tallies `a` twice (x, y), the second once (x).
    let mut observed = ExactObservations::default();
    let run = |tallies: &[(&str, &str)]| Observations {
        tallies: tallies.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect(),
        records: vec![("n".into(), 0.5)],
    };
    let four = BigUint::from(4u32);
    observed.add_run(&run(&[("a", "x"), ("a", "y")]), &BigUint::from(1u32), &four);
    observed.add_run(&run(&[("a", "x")]), &BigUint::from(3u32), &four);
    let a = &observed.tallies["a"];
    assert!(!observed.once(a));
    // 1/4 * 2 + 3/4 * 1 = 5/4 observations a trial; x is 1/4 + 3/4 = 1 of them, y 1/4.
    assert_eq!(a.per_trial(&BigRational::one()), ratio(5, 4));
    let rows: Vec<(String, BigRational)> = a.rows(false).into_iter().map(|(v, p)| (v.clone(), p)).collect();
    assert_eq!(rows, [("x".to_string(), ratio(4, 5)), ("y".to_string(), ratio(1, 5))]);
    // `n` is recorded once in each run: chances per trial, of an exact half.
    let n = &observed.records["n"];
    assert!(observed.once(n));
    assert_eq!(n.rows(true), [(&ratio(1, 2), BigRational::one())]);
}

// ---- check reads every word ------------------------------------------------------------

/// The words of a condition a typo can hit: each name (a variable, a property, a key, a
/// function) and each quoted word, as byte ranges of `text`.
fn condition_words(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'"' {
            let end = text[i + 1..].find('"').map_or(bytes.len(), |e| i + 1 + e);
            if end > i + 1 {
                words.push((i + 1, end));
            }
            i = end + 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            // `in` is an operator, and a one-letter change makes another operator or a name.
            if &text[start..i] != "in" {
                words.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    words
}

/// `word` with one letter changed to another, the letter and its place drawn from `seed`.
fn one_letter_typo(word: &str, seed: &mut u64) -> String {
    let mut next = || {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*seed >> 33) as usize
    };
    let letters: Vec<usize> = word.char_indices().filter(|(_, c)| c.is_ascii_lowercase()).map(|(i, _)| i).collect();
    let at = letters[next() % letters.len()];
    let old = word.as_bytes()[at];
    let mut new = b'a' + (next() % 26) as u8;
    if new == old {
        new = if old == b'z' { b'a' } else { old + 1 };
    }
    let mut typo = word.to_string();
    typo.replace_range(at..at + 1, &(new as char).to_string());
    typo
}

#[test]
fn a_one_letter_typo_in_any_word_of_a_shipped_condition_is_caught() {
    let mut seed = 17;
    for id in ["ff-napoleonic", "linear-warfare", "republique"] {
        let rs = ruleset(&[id]);
        let host = Host::new(rs.clone()).unwrap();
        let (mut tried, mut missed) = (0, Vec::new());
        for list in rs.modifiers.values() {
            for m in &list.modifiers {
                let Some(text) = &m.when else { continue };
                assert!(host.check_condition(&list.id, text).is_empty(), "{id} {}: {text}", m.id);
                for (start, end) in condition_words(text) {
                    let word = &text[start..end];
                    if !word.bytes().any(|b| b.is_ascii_lowercase()) {
                        continue;
                    }
                    let typo = one_letter_typo(word, &mut seed);
                    let changed = format!("{}{typo}{}", &text[..start], &text[end..]);
                    tried += 1;
                    if !host.check_condition(&list.id, &changed).iter().any(Problem::is_error) {
                        missed.push(format!("{}.{}: {word} -> {typo}", list.id, m.id));
                    }
                }
            }
        }
        assert!(tried > 50, "{id}: {tried}");
        assert!(missed.is_empty(), "{id}: {} of {tried} typos not caught:\n{}", missed.len(), missed.join("\n"));
    }
}

#[test]
fn a_reading_says_how_near_it_came_to_other_results() {
    let rs = ruleset(&["ff-napoleonic"]);
    let musketry = &rs.tables["musketry"];
    // Row 4: 0-7 desultory, 8-10 lively, 11+ telling.
    let near = |total| musketry.near(&musketry.read_grid(&RowKey::Number(4), total).unwrap());
    assert_eq!(near(7), [(1, "lively".to_string())]);
    assert_eq!(near(9), [(2, "telling".to_string()), (-2, "desultory".to_string())]);
    assert_eq!(near(5), Vec::<(i64, String)>::new());
    // Above the chart the total is clamped: nothing higher to reach.
    assert_eq!(near(16), Vec::<(i64, String)>::new());
    // A table read by a measure, not a roll, has no margin.
    let range = &rs.tables["range_fire_points"];
    let reading = range.read_grid(&RowKey::Label("infantry".into()), 1).unwrap();
    assert!(range.near(&reading).is_empty());
}

#[test]
fn attribution_says_which_modifier_it_left_out_when_the_call_fails_without_it() {
    let host = host(&[&fixture("attribution-edge")]);
    // With the modifier, a d6 + 1 - 1: each of 1 to 6.
    let odds = host.odds(&Scope::new(), "volley()", EnumLimits::default(), (10, 1)).unwrap();
    assert_eq!(odds.distribution.probability(&Outcome::Number(6)), BigRational::new(1.into(), 6.into()));
    let err = host.attribution(&Scope::new(), "volley()", EnumLimits::default(), (10, 1)).unwrap_err().to_string();
    assert!(err.starts_with("with modifier steadiness.steadied left out: "), "{err}");
    assert!(err.contains("a total of 7 is off the chart"), "{err}");
    // Nothing stays left out: the odds are whole again.
    let again = host.odds(&Scope::new(), "volley()", EnumLimits::default(), (10, 1)).unwrap();
    assert_eq!(again.distribution, odds.distribution);
}
