//! Values on units and leaders are typed: a marker's value of another kind than the ruleset
//! gives it, a leader's misspelt marker or a bool field given a word is refused wherever it comes
//! in (a script's `unit`, `leader`, `set_marker`, `apply`, an order of battle), with the boolean
//! or number it may mean, never read as set.

use grognard::present::diagnostic::render_plain;
use grognard::script::ScriptError;
use rhai::Scope;

use crate::support::{error, host, lw};

const FOOT: &str = r#"arm: "infantry", stands: 6, formation: "line""#;

#[test]
fn a_flag_given_a_word_or_a_number_is_refused_with_the_boolean_it_may_mean() {
    let ff = host(&["ff-napoleonic"]);
    for (value, meant) in [(r#""no""#, "false"), (r#""false""#, "false"), (r#""yes""#, "true"), ("0", "false")] {
        let shown = if value.starts_with('"') { format!("the text {value}") } else { format!("the number {value}") };
        assert_eq!(
            error(&ff, &format!("unit(#{{name: \"A\", {FOOT}, markers: #{{spent: {value}}}}})")),
            format!("unit `a`: `spent` is a flag, true or false, not {shown} (did you mean {meant}?)"),
        );
    }
}

#[test]
fn set_marker_and_apply_check_the_value_against_its_kind() {
    let rq = host(&["republique"]);
    let battery = r#"let b = unit(#{name: "Guns", arm: "artillery", stands: 2, formation: "unlimbered"});"#;
    assert_eq!(
        error(&rq, &format!(r#"{battery} b.set_marker("saved_fire", "no")"#)),
        "set_marker on `Guns`: `saved_fire` is a flag, true or false, not the text \"no\" (did you mean false?)"
    );
    assert_eq!(
        error(&rq, &format!(r#"{battery} apply(b, #{{markers: #{{morale_hits: "2"}}}})"#)),
        "apply to `Guns`, markers: `morale_hits` is a count, a whole number, not the text \"2\" (did you mean 2?)"
    );
    assert_eq!(
        error(&rq, &format!(r#"{battery} b.set_marker("calibre", "medum")"#)),
        "set_marker on `Guns`: `calibre` is a word, one of heavy, light, medium, very_light, not the text \"medum\" (did you mean `medium`?)"
    );
    assert_eq!(
        error(&rq, &format!(r#"{battery} b.set_marker("morale_hits", 1.5)"#)),
        "set_marker on `Guns`: `morale_hits` is a count, a whole number, not the decimal 1.5"
    );
    // A name the ruleset does not list, set or cleared, and an order it does not know.
    assert_eq!(
        error(&rq, &format!(r#"{battery} b.set_marker("saved_fier", true)"#)),
        "set_marker on `Guns`: `saved_fier` is not a marker of this ruleset (did you mean `saved_fire`?)"
    );
    assert_eq!(
        error(&rq, &format!(r#"{battery} apply(b, #{{clear_markers: ["alret"]}})"#)),
        "apply to `Guns`, clear_markers: `alret` is not a marker of this ruleset (did you mean `alert`?)"
    );
    assert_eq!(
        error(&rq, &format!(r#"{battery} apply(b, #{{order: "disordred"}})"#)),
        "apply to `Guns`: `disordred` is not an order of this ruleset (did you mean `disordered`?)"
    );
}

#[test]
fn linear_warfare_markers_take_their_kinds() {
    let lw = lw();
    let unit = |markers: &str| format!(r#"unit(#{{name: "A", {FOOT}, grade: "2", markers: #{{{markers}}}}})"#);
    for (markers, why) in [
        (r#"irregular: "no""#, "`irregular` is a flag, true or false, not the text \"no\" (did you mean false?)"),
        (r#"fired: "no""#, "`fired` is a flag, true or false, not the text \"no\" (did you mean false?)"),
        (
            r#"battalion_guns: "2""#,
            "`battalion_guns` is a flag, true or false; or a count, a whole number, not the text \"2\" (did you mean 2?)",
        ),
        (
            r#"command: "brigadde""#,
            "`command` is a word, one of army, brigade, wing, not the text \"brigadde\" (did you mean `brigade`?)",
        ),
    ] {
        assert_eq!(error(&lw, &unit(markers)), format!("unit `a`: {why}"), "{markers}");
    }
    // What the rules write stays accepted: a flag or a count of guns, pikes as a fraction or none.
    for markers in ["battalion_guns: true", "battalion_guns: 2", r#"pikes: "1/3""#, "pikes: false"] {
        lw.eval(&mut Scope::new(), &unit(markers)).unwrap_or_else(|e| panic!("{markers}: {e}"));
    }
}

#[test]
fn a_leader_is_checked_as_a_unit_is() {
    let ff = host(&["ff-napoleonic"]);
    assert_eq!(
        error(&ff, r#"leader(#{name: "Davout", markers: #{exceptionel: true}})"#),
        "leader `davout` has marker `exceptionel`, which this ruleset does not know (did you mean `exceptional`?)"
    );
    assert_eq!(
        error(&ff, r#"leader(#{name: "Davout", markers: #{exceptional: "yes"}})"#),
        "leader `davout`: `exceptional` is a flag, true or false, not the text \"yes\" (did you mean true?)"
    );
    assert_eq!(
        error(&ff, r#"let d = leader(#{name: "Davout"}); d.set_marker("stunned_turns", true)"#),
        "set_marker on `Davout`: `stunned_turns` is a count, a whole number, not the flag true (did you mean 1?)"
    );
    assert_eq!(
        error(&ff, r#"let d = leader(#{name: "Davout"}); apply(d, #{markers: #{captured: "no"}})"#),
        "apply to `Davout`, markers: `captured` is a flag, true or false, not the text \"no\" (did you mean false?)"
    );
    // A misspelt key is named with the nearest, for a leader as for a unit.
    assert_eq!(
        error(&ff, r#"leader(#{name: "Davout", ratng: "2"})"#),
        "leader `Davout` has no key `ratng` (did you mean `rating`?); a leader gives id, name, side, rating, \
         commands, attached_to, markers"
    );
    assert!(
        error(&ff, &format!(r#"unit(#{{name: "A", {FOOT}, markrs: #{{}}}})"#))
            .starts_with("unit `A` has no key `markrs` (did you mean `markers`?); a unit gives id, name,")
    );
    // Rightly written, the exceptional officer still adds 2" (10" command range, not 8").
    let ok = ff.eval(
        &mut Scope::new(),
        r#"leader(#{name: "Davout", markers: #{exceptional: true}}).has_marker("exceptional")"#,
    );
    assert!(ok.unwrap().value.as_bool().unwrap());
}

#[test]
fn an_order_of_battle_is_refused_where_a_value_is_of_the_wrong_kind() {
    let host = host(&["ff-skirmishers"]);
    host.allow_scenarios_from(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scenarios"));
    let Err(ScriptError::Rules(problems)) = host.eval(&mut Scope::new(), r#"order_of_battle("mismarked.yaml")"#) else {
        panic!("mismarked.yaml should be refused")
    };
    let found: Vec<(&str, &str)> = problems.0.iter().map(|p| (p.code, p.message.as_str())).collect();
    assert_eq!(
        found,
        [
            ("scenario::unknown_word", "leader `davout` has marker `exceptionel`, which this ruleset does not know"),
            (
                "scenario::marker_kind",
                "leader `picton`: `stunned_turns` is a count, a whole number, not the text \"one\""
            ),
            (
                "scenario::marker_kind",
                "unit `ligne`: `fresh` is a flag, true or false, not the text \"no\" (did you mean false?)"
            ),
            (
                "scenario::unit_field",
                "unit `legere` gives `skirmishers` as the word `no`, but it is a field of type bool (did you mean false?)"
            ),
        ]
    );
    assert_eq!(problems.0[0].help.as_deref(), Some("did you mean `exceptional`?"));
    // Each is underlined where it is written: the marker of the unit that carries it, not the
    // `fresh` of the rifles above it.
    let at: Vec<String> = problems
        .0
        .iter()
        .map(|p| render_plain(p).lines().find(|l| l.contains("mismarked.yaml")).unwrap_or_default().trim().to_string())
        .collect();
    assert_eq!(
        at,
        [
            "╭─[mismarked.yaml:6:58]",
            "╭─[mismarked.yaml:7:59]",
            "╭─[mismarked.yaml:10:139]",
            "╭─[mismarked.yaml:11:140]",
        ]
    );
}
