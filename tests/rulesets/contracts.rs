//! Procedure contracts at work: a call with an unknown situation key, a value of the wrong
//! kind or a word not in the list is an error at the call, with "did you mean", on Rhai's
//! path and the compiled one alike; a call that keeps its contract runs as before.

use grognard::dice::EnumLimits;
use grognard::script::{Host, ScriptError};
use rhai::{Dynamic, Scope};

use crate::support::ruleset;

const UNITS: &str = r#"let a = unit(#{name: "A", nation: "france", arm: "infantry", stands: 6, formation: "line"});
    let b = unit(#{name: "B", nation: "britain", arm: "infantry", stands: 6, formation: "line"});"#;

/// Both hosts of the fixture: compiled procedures, and Rhai's alone.
fn hosts() -> [Host; 2] {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/contracts");
    let dir = dir.display().to_string();
    [Host::new(ruleset(&[&dir])).unwrap(), Host::interpreted(ruleset(&[&dir])).unwrap()]
}

/// `call` after the units, on both hosts: the same value or the same error on each.
fn both(call: &str) -> Result<Dynamic, ScriptError> {
    let [compiled, interpreted] = hosts();
    let code = format!("{UNITS} {call}");
    let a = compiled.eval(&mut Scope::new(), &code).map(|e| e.value);
    let b = interpreted.eval(&mut Scope::new(), &code).map(|e| e.value);
    match (&a, &b) {
        (Ok(x), Ok(y)) => assert_eq!(x.to_string(), y.to_string(), "{call}"),
        (Err(x), Err(y)) => assert_eq!(x.to_string(), y.to_string(), "{call}"),
        _ => panic!("{call}: compiled {a:?}, interpreted {b:?}"),
    }
    a
}

fn error(call: &str) -> String {
    match both(call) {
        Ok(value) => panic!("{call} ran: {value}"),
        Err(err) => err.to_string(),
    }
}

#[test]
fn a_call_that_keeps_its_contract_runs() {
    let value = both(r#"shoot(a, b, #{range: 2, enfiladed: true, cover: "woods", side: "france"})"#).unwrap();
    let map = value.cast::<rhai::Map>();
    assert_eq!(map["bonus"].as_int().unwrap(), 0);
    assert_eq!(map["side"].to_string(), "france");
    // () is the same as leaving a key out; a list of words; an optional parameter given ().
    assert_eq!(both("shoot(a, b, #{cover: (), range: 1.5}).range").unwrap().as_float().unwrap(), 1.5);
    assert_eq!(both(r#"shoot(a, b, #{cover: ["woods", "hedge"]}).bonus"#).unwrap().as_int().unwrap(), -1);
    assert_eq!(both("rally(a, ())").unwrap().as_int().unwrap(), 0);
    assert_eq!(both(r#"rally(a, leader(#{name: "L"}))"#).unwrap().as_int().unwrap(), 1);
    assert_eq!(both(r#"muster([a, b], "britain")"#).unwrap().as_int().unwrap(), 2);
    // A procedure without a contract takes anything.
    assert_eq!(both("helper(#{whatever: 1}).whatever").unwrap().as_int().unwrap(), 1);
}

#[test]
fn an_unknown_situation_key_is_refused_with_did_you_mean() {
    let err = error("shoot(a, b, #{range: 0, enfilade: true})");
    assert!(err.contains("shoot(firer, target, situation): situation has no key `enfilade`"), "{err}");
    assert!(err.contains("(did you mean `enfiladed`?)"), "{err}");
    assert!(err.contains("shoot reads: range, enfiladed, cover, side"), "{err}");
    let err = error(r#"shoot(a, b, #{cuver: "woods"})"#);
    assert!(err.contains("no key `cuver` (did you mean `cover`?)"), "{err}");
}

#[test]
fn the_error_points_at_the_call_not_inside_the_procedure() {
    let [host, _] = hosts();
    let code = format!("{UNITS}\nshoot(a, b, #{{enfilade: true}})");
    let Err(ScriptError::At(problem)) = host.eval(&mut Scope::new(), &code) else { panic!("a located error") };
    assert_eq!(problem.place(), "expression:3:1", "{problem:?}");
    // A procedure's own call with a map it builds is held to the contract too: volley's is kept.
    assert_eq!(both("volley(a, b).range").unwrap().as_int().unwrap(), 2);
}

#[test]
fn a_wrong_kind_or_word_is_refused() {
    let err = error(r#"shoot(a, b, #{range: "two"})"#);
    assert!(err.contains("situation.range is a number, not the text \"two\""), "{err}");
    let err = error(r#"shoot(a, b, #{enfiladed: "yes"})"#);
    assert!(err.contains("situation.enfiladed is true or false, not the text \"yes\""), "{err}");
    let err = error(r#"shoot(a, b, #{cover: "wood"})"#);
    assert!(
        err.contains("situation.cover has no word \"wood\" (did you mean `woods`?); its words are hedge, woods"),
        "{err}"
    );
    let err = error(r#"shoot(a, b, #{cover: ["woods", "hedg"]})"#);
    assert!(err.contains("has no word \"hedg\" (did you mean `hedge`?)"), "{err}");
    // Words from the vocabulary.
    let err = error(r#"shoot(a, b, #{side: "frnace"})"#);
    assert!(err.contains("situation.side has no word \"frnace\" (did you mean `france`?)"), "{err}");
    let err = error(r#"muster([a, 3], "france")"#);
    assert!(err.contains("muster(units, nation): `units` is a list of units, not a list"), "{err}");
    let err = error(r#"muster([a], "prussia")"#);
    assert!(err.contains("`nation` has no word \"prussia\"; its words are britain, france"), "{err}");
    // A unit where a situation goes, and a missing parameter.
    let err = error("shoot(a, b, a)");
    assert!(
        err.contains(
            "`situation` is a map such as #{range: ...} (its keys: range, enfiladed, cover, side), not the unit"
        ),
        "{err}"
    );
    let err = error("shoot((), b, #{})");
    assert!(err.contains("`firer` is missing (it is a unit: The unit shooting)"), "{err}");
    // A situation given as () would fail at its first key inside the procedure.
    let err = error("shoot(a, b, ())");
    assert!(err.contains("`situation` is missing (it is a map such as #{range: ...}"), "{err}");
}

#[test]
fn exact_odds_keep_the_contract_too() {
    let [host, _] = hosts();
    let code = format!("{UNITS} shoot(a, b, #{{enfilade: true}}).bonus");
    let err = host.odds(&Scope::new(), &code, EnumLimits::default(), (10, 1)).unwrap_err().to_string();
    assert!(err.contains("no key `enfilade` (did you mean `enfiladed`?)"), "{err}");
}

#[test]
fn outcomes_that_name_no_result_or_one_result_twice_are_refused_where_written() {
    let fixture = format!("{}/tests/fixtures/rules/outcome-slips", env!("CARGO_MANIFEST_DIR"));
    let (_, problems) = grognard::rules::load_partial(&[fixture], &crate::support::rules_dir());
    let found: Vec<(&str, String)> =
        problems.iter().map(|p| (p.message.as_str(), p.place().rsplit('/').next().unwrap().to_string())).collect();
    assert_eq!(
        found,
        [
            (
                "the result `driven_back` is given two meanings in the outcomes of `end_of_player_turn_units`",
                "sequence.yaml:7:12".to_string()
            ),
            (
                "`carried` in the outcomes of `end_of_player_turn_units` counts `swpt`, which is no table's result (did you mean `swept`?)",
                "sequence.yaml:6:15".to_string()
            ),
        ],
        "{problems:?}"
    );
}
