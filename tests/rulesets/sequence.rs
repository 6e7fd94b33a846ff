//! The sequence of play as data: its phases, the end of a player turn, and the facts a phase
//! keeps; each word checked where it is written.

use grognard::rules::load_partial;

use crate::support::rules_dir;

#[test]
fn the_shipped_sequence_reads_as_the_seed_prints_it() {
    let (rs, problems) = load_partial(&["ff-napoleonic".to_string()], &rules_dir());
    assert!(problems.is_empty(), "{problems:?}");
    let sequence = rs.and_then(|rs| rs.sequence).expect("ff-napoleonic has a sequence of play");
    let phases: Vec<&str> = sequence.phases.iter().map(|p| p.id.as_str()).collect();
    // "Maneuver (1st) Phase ... Reaction (2nd) Phase ... Musketry and Cannonade (3rd) Phase ... Melee (4th) Phase".
    assert_eq!(phases, ["maneuver", "reaction", "musketry", "melee"]);
    assert_eq!(sequence.sides, grognard::rules::sequence::Sides::Alternate);
    let fact = &sequence.facts["stands_lost_this_phase"];
    assert_eq!(fact.clears, ["musketry"]);
    // Seed 003's Movement Phases, each the side's whose card is drawn, and its start of a turn.
    let (rs, problems) = load_partial(&["linear-warfare".to_string()], &rules_dir());
    assert!(problems.is_empty(), "{problems:?}");
    let sequence = rs.and_then(|rs| rs.sequence).expect("linear-warfare has a sequence of play");
    let phases: Vec<&str> = sequence.phases.iter().map(|p| p.id.as_str()).collect();
    // "a. Conduct Charges ... b. Conduct Regular Movement and Fire c. Move Unattached Leadels".
    assert_eq!(phases, ["charges", "movement_and_fire", "leaders"]);
    assert_eq!(sequence.sides, grognard::rules::sequence::Sides::Named);
    assert_eq!(sequence.start_of_turn.map(|(p, _)| p), Some("start_turn".to_string()));
}

#[test]
fn a_sequence_written_wrongly_is_refused_where_each_slip_is() {
    let fixture = format!("{}/tests/fixtures/rules/sequence-slips", env!("CARGO_MANIFEST_DIR"));
    let (_, problems) = load_partial(&[fixture], &rules_dir());
    let found: Vec<(&str, &str, String)> = problems
        .iter()
        .map(|p| (p.code, p.message.as_str(), p.place().rsplit('/').next().unwrap().to_string()))
        .collect();
    let expected = [
        ("`bth` is not who acts in a phase (did you mean `both`?): phasing, other or both", "ruleset.yaml:12:29"),
        (
            "a phase may not be called `turn`: the word says when a fact clears (phase, player_turn, turn)",
            "ruleset.yaml:14:13",
        ),
        ("a fact counts stands_lost, not `stand_lost` (did you mean `stands_lost`?)", "ruleset.yaml:17:32"),
        (
            "a fact clears at a phase of the sequence, `phase`, `player_turn` or `turn`, not `turns` (did you mean `turn`?)",
            "ruleset.yaml:18:53",
        ),
        (
            "`silenced` is already a marker (vocabulary: markers): a fact of the sequence is a marker of its own, with a name of its own",
            "ruleset.yaml:19:5",
        ),
        ("the fact `never` never clears: say when, `clears: [phase]`, `[turn]` or a phase's name", "ruleset.yaml:20:5"),
        (
            "`alternat` is not whose the phases are (did you mean `alternate`?): alternate, named or together",
            "ruleset.yaml:9:10",
        ),
    ];
    assert_eq!(found.len(), expected.len() + 1, "{found:#?}");
    for ((code, message, place), (want, at)) in found.iter().zip(expected) {
        assert_eq!((*code, *message, place.as_str()), ("rules::sequence", want, at));
    }
    // The end of a player turn names a procedure with a contract.
    let (code, message, _) = &found[7];
    assert_eq!(*code, "rules::sequence");
    assert!(
        message.starts_with("the sequence's end_of_player_turn is `end_of_player_turn_unit`, which has no contract (did you mean `end_of_player_turn_units`?)"),
        "{message}"
    );
}
