//! The sequence of play (FF-PROC-SEQUENCE) as a scenario drives it.

use rhai::Scope;

use crate::support::host;

#[test]
fn a_game_turn_is_both_sides_sequences() {
    let code = r#"game_turn("french", "allies").map(|p| `${p.player}.${p.number} ${p.phase} ${p.side}`)"#;
    let value = host(&["ff-napoleonic"]).eval(&mut Scope::new(), code).unwrap().value;
    let phases: Vec<String> = value.cast::<rhai::Array>().iter().map(|p| p.to_string()).collect();
    assert_eq!(
        phases,
        [
            "1.1 maneuver french",
            "1.2 reaction allies",
            "1.3 musketry french",
            "1.4 melee french",
            "2.1 maneuver allies",
            "2.2 reaction french",
            "2.3 musketry allies",
            "2.4 melee allies",
        ]
    );
}

#[test]
fn the_non_phasing_side_fires_first() {
    let code = r#"let m = player_sequence("french", "allies")[2]; [m.fires_first, m.steps[0], m.steps[1]]"#;
    let value = host(&["ff-napoleonic"]).eval(&mut Scope::new(), code).unwrap().value;
    let parts: Vec<String> = value.cast::<rhai::Array>().iter().map(|p| p.to_string()).collect();
    assert_eq!(parts, ["allies", "allies: defensive fire, results applied", "french: fire, results applied"]);
}
