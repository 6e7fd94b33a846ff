//! Tests of units, leaders and the order of battle.

use serde_json::json;

use super::*;

fn ligne() -> Unit {
    let mut u = Unit::new("4e_ligne", "4e Ligne", "french", "france", "infantry", "column", 6);
    u.grade = Some("veteran".into());
    u.command = Some("brigade_a".into());
    u
}

fn french_army() -> OrderOfBattle {
    serde_json::from_value(json!({
        "sides": [{ "id": "french", "name": "Armée du Nord", "nations": ["france"], "commander": "ney" }],
        "commands": [
            { "id": "army", "name": "Armée du Nord", "side": "french", "level": "army" },
            { "id": "corps_1", "name": "I Corps", "side": "french", "level": "corps", "parent": "army" },
            { "id": "div_1", "name": "1st Division", "side": "french", "level": "division", "parent": "corps_1" },
            { "id": "brigade_a", "name": "Brigade A", "side": "french", "level": "brigade", "parent": "div_1" },
            { "id": "brigade_b", "name": "Brigade B", "side": "french", "level": "brigade", "parent": "div_1" }
        ],
        "leaders": [
            { "id": "ney", "name": "Ney", "side": "french", "rating": "excellent", "commands": "army" },
            { "id": "quiot", "name": "Quiot", "side": "french", "rating": "good", "commands": "div_1", "attached_to": "4e_ligne" }
        ],
        "units": [
            { "id": "4e_ligne", "name": "4e Ligne", "side": "french", "nation": "france", "arm": "infantry",
              "grade": "veteran", "stands": 5, "stands_at_start": 6, "formation": "column", "order": "good_order",
              "command": "brigade_a", "leaders": ["quiot"], "markers": { "alert": true, "volleys": 2 },
              "placement": { "x": 12.0, "y": 6.5, "facing": 90.0 } },
            { "id": "54e_ligne", "name": "54e Ligne", "side": "french", "nation": "france", "arm": "infantry",
              "stands": 6, "formation": "line", "order": "disordered", "command": "brigade_b" },
            { "id": "foot_battery", "name": "6/1er Artillerie", "side": "french", "nation": "france", "arm": "artillery",
              "type": "foot", "stands": 1, "formation": "unlimbered", "order": "good_order", "command": "corps_1" }
        ]
    }))
    .unwrap()
}

#[test]
fn losing_stands_stops_at_zero_and_remembers_the_start() {
    let mut u = ligne();
    assert_eq!(u.lose_stands(2), 2);
    assert_eq!((u.stands, u.starting_stands(), u.stands_lost()), (4, 6, 2));
    assert_eq!(u.lose_stands(10), 4);
    assert!(u.is_eliminated());
    assert_eq!(u.stands_lost(), 6);
}

#[test]
fn markers_are_flags_counts_or_words() {
    let mut u = ligne();
    u.set_marker("alert", Marker::Flag(true));
    u.set_marker("attached_guns", Marker::Count(0));
    u.set_marker("ammunition", Marker::Text("low".into()));
    assert!(u.has_marker("alert"));
    assert!(!u.has_marker("attached_guns"));
    assert!(u.has_marker("ammunition"));
    assert!(u.clear_marker("alert"));
    assert!(!u.has_marker("alert"));
}

#[test]
fn an_order_of_battle_reads_and_writes_as_plain_data() {
    let oob = french_army();
    let unit = oob.unit("4e_ligne").unwrap();
    assert_eq!(unit.markers.get("volleys"), Some(&Marker::Count(2)));
    assert_eq!(unit.placement, Some(Placement { x: 12.0, y: 6.5, facing: 90.0 }));
    assert_eq!(unit.stands_lost(), 1);
    let again: OrderOfBattle = serde_json::from_str(&serde_json::to_string(&oob).unwrap()).unwrap();
    assert_eq!(again, oob);
}

#[test]
fn a_typo_in_a_field_name_is_an_error() {
    let err = serde_json::from_value::<Unit>(json!({
        "id": "x", "name": "x", "side": "s", "nation": "n", "arm": "infantry",
        "stands": 4, "formation": "line", "order": "good_order", "formaton": "column"
    }))
    .unwrap_err();
    assert!(err.to_string().contains("unknown field `formaton`"), "{err}");
}

#[test]
fn the_chain_of_command_runs_up_to_the_army() {
    let oob = french_army();
    let chain: Vec<&str> = oob.chain("brigade_a").iter().map(|c| c.id.as_str()).collect();
    assert_eq!(chain, ["brigade_a", "div_1", "corps_1", "army"]);
    assert_eq!(oob.commander_of("div_1").unwrap().name, "Quiot");
}

#[test]
fn units_under_a_command_include_subordinate_commands() {
    let oob = french_army();
    let ids = |c: &str| -> Vec<String> { oob.units_under(c).iter().map(|u| u.id.clone()).collect() };
    assert_eq!(ids("div_1"), ["4e_ligne", "54e_ligne"]);
    assert_eq!(ids("corps_1"), ["4e_ligne", "54e_ligne", "foot_battery"]);
    assert_eq!(ids("brigade_b"), ["54e_ligne"]);
}

#[test]
fn a_sound_order_of_battle_has_no_problems() {
    let vocabulary: Vocabulary = serde_json::from_value(json!({
        "arms": ["infantry", "cavalry", "artillery"],
        "formations": ["line", "column", "square", "unlimbered", "limbered"],
        "orders": ["good_order", "disordered"],
    }))
    .unwrap();
    assert_eq!(french_army().check(&vocabulary), []);
}

#[test]
fn every_problem_is_reported_at_once() {
    let mut oob = french_army();
    oob.units[1].id = "4e_ligne".into();
    oob.units[2].command = Some("corps_9".into());
    oob.units[2].formation = "squre".into();
    oob.units[2].stands = 3;
    oob.units[2].stands_at_start = Some(2);
    oob.commands[0].parent = Some("brigade_a".into());
    let vocabulary = Vocabulary {
        formations: ["line", "column", "square", "unlimbered"].map(String::from).into(),
        ..Vocabulary::default()
    };
    let errors: Vec<String> = oob.check(&vocabulary).iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            "two units share the id `4e_ligne`",
            "unit `foot_battery` names command `corps_9`, which does not exist",
            "command `army` is its own superior through army > brigade_a > div_1 > corps_1 > army",
            "unit `foot_battery` has formation `squre`, which this ruleset does not know",
            "unit `foot_battery` has 3 stands but started with 2",
        ]
    );
    let suggestion = oob.check(&vocabulary).into_iter().find_map(|e| match e {
        UnitError::UnknownWord { help, .. } => help,
        _ => None,
    });
    assert_eq!(suggestion.as_deref(), Some("did you mean `square`?"));
    // The chain stops at the cycle instead of looping.
    assert_eq!(oob.chain("div_1").len(), 4);
}

#[test]
fn a_unit_cloned_into_another_becomes_equal_to_it_in_every_field() {
    let mut source = Unit::new("u1", "4e Ligne", "french", "france", "infantry", "column", 6);
    source.kind = Some("line".into());
    source.set_marker("fresh", Marker::Flag(true));
    source.command = Some("Friant".into());
    source.leaders = vec!["l1".into()];
    let mut other = Unit::new("u2", "IR 4", "allied", "austria", "cavalry", "line", 3);
    other.grade = Some("veteran".into());
    other.set_marker("spent", Marker::Flag(true));
    other.attached = vec!["u9".into()];
    other.clone_from(&source);
    assert_eq!(other, source);
    // And back: fields the source lacks are cleared.
    let mut back = source.clone();
    back.clone_from(&Unit::new("u3", "x", "s", "n", "a", "f", 1));
    assert_eq!(back, Unit::new("u3", "x", "s", "n", "a", "f", 1));
}

#[test]
fn the_keys_a_unit_and_a_leader_are_written_with_are_their_fields() {
    use super::{Leader, Marker, Placement};
    let mut unit = Unit::new("a", "A", "s", "n", "infantry", "line", 4);
    unit.kind = Some("line".into());
    unit.grade = Some("veteran".into());
    unit.stands_at_start = Some(5);
    unit.markers.insert("m".into(), Marker::Flag(true));
    unit.placement = Some(Placement { x: 0.0, y: 0.0, facing: 0.0 });
    unit.command = Some("c".into());
    unit.leaders.push("l".into());
    unit.attached.push("b".into());
    unit.fields.insert("f".into(), Marker::Count(1));
    let keys = |value: serde_json::Value| -> Vec<String> { value.as_object().unwrap().keys().cloned().collect() };
    let mut written = Unit::KEYS.map(String::from).to_vec();
    written.sort();
    assert_eq!(keys(serde_json::to_value(&unit).unwrap()), written);
    let leader = Leader {
        id: "l".into(),
        name: "L".into(),
        side: "s".into(),
        rating: Some("2".into()),
        commands: Some("c".into()),
        attached_to: Some("a".into()),
        markers: [("m".to_string(), Marker::Flag(true))].into(),
    };
    let mut written = Leader::KEYS.map(String::from).to_vec();
    written.sort();
    assert_eq!(keys(serde_json::to_value(&leader).unwrap()), written);
}

#[test]
fn a_marker_kind_is_read_as_a_ruleset_writes_it_and_a_slip_is_named() {
    use super::MarkerKind;
    let kind = |json: &str| serde_json::from_str::<MarkerKind>(json).map_err(|e| e.to_string());
    assert_eq!(kind(r#""flag""#), Ok(MarkerKind::Flag));
    assert_eq!(kind(r#""count""#), Ok(MarkerKind::Count));
    assert_eq!(kind(r#""word""#), Ok(MarkerKind::Word(Default::default())));
    assert_eq!(kind(r#"{"words": ["silenced"]}"#), Ok(MarkerKind::Word(["silenced".to_string()].into())));
    assert_eq!(kind(r#"["flag", "count"]"#), Ok(MarkerKind::Either(vec![MarkerKind::Flag, MarkerKind::Count])));
    let err = kind(r#""flg""#).unwrap_err();
    assert!(err.starts_with("`flg` is not a marker's kind (did you mean flag?)"), "{err}");
    let err = kind(r#"{"word": ["a"]}"#).unwrap_err();
    assert!(err.starts_with("a marker's kind written as a map takes only `words`, not `word`"), "{err}");
    let err = kind(r#"["flag", ["count"]]"#).unwrap_err();
    assert!(err.starts_with("a list of a marker's kinds holds kinds, not another list"), "{err}");
    // Rulesets once listed bare names: refused with how to give kinds.
    let err = serde_json::from_str::<Vocabulary>(r#"{"markers": ["spent"]}"#).unwrap_err().to_string();
    assert!(err.starts_with("markers are listed with their kinds (flag, count, word or { words: [...] })"), "{err}");
}

#[test]
fn a_value_not_of_its_markers_kind_is_refused_with_what_it_may_mean() {
    use super::{MarkerFault, MarkerKind};
    let mut v = Vocabulary::default();
    v.declare_markers(
        [
            ("spent".to_string(), MarkerKind::Flag),
            ("turns".to_string(), MarkerKind::Count),
            ("guns".to_string(), MarkerKind::Either(vec![MarkerKind::Flag, MarkerKind::Count])),
            ("battery".to_string(), MarkerKind::Word(["silenced".to_string(), "damaged".to_string()].into())),
        ]
        .into(),
    );
    let why = |name: &str, value: Marker| v.marker_fault(name, &value).map(|f| f.sentence(name));
    assert_eq!(why("spent", Marker::Flag(false)), None);
    assert_eq!(
        why("spent", Marker::Text("no".into())).unwrap(),
        "`spent` is a flag, true or false, not the text \"no\" (did you mean false?)"
    );
    assert_eq!(
        why("spent", Marker::Count(1)).unwrap(),
        "`spent` is a flag, true or false, not the number 1 (did you mean true?)"
    );
    assert_eq!(
        why("turns", Marker::Flag(true)).unwrap(),
        "`turns` is a count, a whole number, not the flag true (did you mean 1?)"
    );
    assert_eq!(why("guns", Marker::Count(2)), None);
    assert_eq!(
        why("battery", Marker::Text("silenc".into())).unwrap(),
        "`battery` is a word, one of damaged, silenced, not the text \"silenc\" (did you mean `silenced`?)"
    );
    assert_eq!(
        v.marker_fault("spnet", &Marker::Flag(true)),
        Some(MarkerFault::Unknown("did you mean `spent`?".into()))
    );
    // `removed` is grognard's own flag; a ruleset listing no markers takes any.
    assert_eq!(v.marker_kind("removed"), Some(&MarkerKind::Flag));
    assert_eq!(Vocabulary::default().marker_fault("spent", &Marker::Text("no".into())), None);
}
