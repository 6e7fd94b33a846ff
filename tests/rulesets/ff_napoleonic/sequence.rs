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

#[test]
fn the_end_of_a_player_turn_lifts_silence_and_an_unused_breakthrough() {
    use crate::support::{run, unit_in};
    let host = host(&["ff-napoleonic"]);
    let code = r#"let g = unit(#{name: "Guns", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", markers: #{silenced: true, battery: "damaged"}});
        let c = unit(#{name: "Greys", nation: "britain", arm: "cavalry", stands: 4, formation: "line", markers: #{breakthrough: true}});
        let i = unit(#{name: "Line", arm: "infantry", stands: 6, formation: "line", order: "disordered"});
        end_of_player_turn_units([g, c, i])"#;
    let (eval, scope) = run(&host, &[], code);
    let names: Vec<String> = eval.value.cast::<rhai::Array>().iter().map(|n| n.to_string()).collect();
    assert_eq!(names, ["Guns", "Greys"]);
    let guns = unit_in(&scope, "g");
    // No longer silenced; still damaged (the seed gives no repair).
    assert!(!guns.has_marker("silenced") && guns.has_marker("battery"));
    assert!(!unit_in(&scope, "c").has_marker("breakthrough"));
    // Disorder is not lifted by the turn's end: a disordered unit rolls on the Disorder Table.
    assert_eq!(unit_in(&scope, "i").order, "disordered");
}
