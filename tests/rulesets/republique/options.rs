//! Every combination of options the seed allows loads, passes the checks and
//! resolves an assault and a fire: all off, all on, each alone, every pair.
//! The seed forbids no combination; rule 102's two variants (A and B) are one
//! option with an interpretation, so they cannot be switched on together.

use grognard::script::check;

use super::{OPTIONS, assert_line, has_line, host_with, rules};
use crate::support::{fails, run};

/// Assaults, a fire, a march, an alert, a pass through and a bombardment that every
/// option may touch; a rule's own units appear only when the rule is on.
const SMOKE: &str = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 6, formation: "line", grade: "veteran"});
    let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
    let grade = if option("elite_green_artillery") { "elite" } else { "trained" };
    let b = unit(#{name: "Battery", side: "french", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", grade: grade});
    let r = assault(a, d, if option("unopposed_overlap") { #{overlap: #{left: 1, right: 1}} } else { #{} });
    let f = fire(b, d, #{range: "close"});
    let line = if option("cavalry_in_line") { "spaced_line" } else { "line" };
    let l = unit(#{name: "Lancers", arm: "cavalry", type: "lancer", stands: 2, formation: line});
    let i = unit(#{name: "10e Ligne", arm: "infantry", stands: 4, formation: "column"});
    let d2 = unit(#{name: "IR 7", arm: "infantry", stands: 4, formation: "line"});
    let r2 = assault([l, i], d2, #{});
    let m = road_move(unit(#{name: "11e Ligne", arm: "infantry", stands: 4, formation: "road_column"}), #{road_inches: 4});
    let p = pass_through(unit(#{name: "Hussars", arm: "cavalry", type: "light", stands: 2, formation: "column"}), b, #{approach: "rear"});
    let alert = "no_reaction";
    if option("alert_infantry") {
        let u = unit(#{name: "12e Ligne", arm: "infantry", stands: 4, formation: "line"});
        place_on_alert(u, 0, #{});
        alert = alert_reaction(u, i, #{reaction: "square", enemy_distance: 2}).result;
    }
    let shots = 0;
    if option("preliminary_bombardment") {
        let e = unit(#{name: "Austrian 6s", side: "austrian", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
        shots = preliminary_bombardment([#{battery: b, target: d}], [#{battery: e, target: a}], #{agreed: true, pairs: 1}).shots;
    }
    [r.result, f.result, r2.result, m, p.result, alert, shots]"#;

const RESULTS: [&str; 5] = ["attacker_routed", "attacker_repulsed", "stalled", "defender_retreats", "defender_routed"];

fn combination_is_clean(with: &[&str]) {
    let rs = rules(with, &[]);
    for (name, _) in OPTIONS {
        assert_eq!(rs.settings.options[name], with.contains(&name), "{name} in {with:?}");
    }
    let problems = check(&rs);
    assert!(problems.is_empty(), "{with:?}: {problems:?}");
    let host = host_with(with, &[]);
    // Enough faces for any round of the assaults (both d10s and attrition dice), the fires
    // and the bombardment; none is a 13, so no attrition or shortage.
    let dice: Vec<i64> = [9, 5, 2, 5, 7, 5, 4, 5, 8, 5, 3, 5, 9, 5].iter().cycle().take(80).copied().collect();
    let (eval, _) = run(&host, &dice, SMOKE);
    let v: Vec<String> = eval.value.clone().into_array().unwrap().iter().map(|x| x.to_string()).collect();
    assert!(RESULTS.contains(&v[0].as_str()) && RESULTS.contains(&v[2].as_str()), "{with:?}: {v:?}");
    assert!(["no_effect", "morale_hit", "base_hit", "two_base_hits"].contains(&v[1].as_str()), "{with:?}: {v:?}");
    // A road column moves 9" (house): 4" of road at double speed (costing 2") then 7" off
    // it, 11" with rule 303; else 9".
    let on = |name: &str| with.contains(&name);
    assert_eq!(v[3], if on("road_movement") { "11.0" } else { "9.0" }, "{with:?}");
    assert_eq!(v[4], if on("cavalry_pass_through") { "passed_through" } else { "assault" }, "{with:?}");
    assert_eq!(v[5], if on("alert_infantry") { "emergency_square" } else { "no_reaction" }, "{with:?}");
    assert_eq!(v[6], if on("preliminary_bombardment") { "2" } else { "0" }, "{with:?}");
}

#[test]
fn all_off_and_all_on() {
    combination_is_clean(&[]);
    let all: Vec<&str> = OPTIONS.iter().map(|(n, _)| *n).collect();
    combination_is_clean(&all);
}

#[test]
fn each_option_alone() {
    for (name, _) in OPTIONS {
        combination_is_clean(&[name]);
    }
}

#[test]
fn every_pair_of_options() {
    for (i, (a, _)) in OPTIONS.iter().enumerate() {
        for (b, _) in &OPTIONS[i + 1..] {
            combination_is_clean(&[a, b]);
        }
    }
}

#[test]
fn an_unknown_option_or_choice_is_refused_by_name() {
    let mut rs = crate::support::ruleset(&["republique"]);
    let err =
        rs.apply(&grognard::rules::Switches { with: vec!["atrition_die".into()], ..Default::default() }).unwrap_err();
    assert!(format!("{err:?}").contains("atrition_die"), "{err:?}");
    let err = rs
        .apply(&grognard::rules::Switches {
            set: vec![("attrition_die_size".into(), "d13".into())],
            ..Default::default()
        })
        .unwrap_err();
    assert!(format!("{err:?}").contains("d13"), "{err:?}");
    // A d12 has no 13: refused by name when the interpretation keeps the 13 only.
    let host = host_with(&["attrition_die"], &[("attrition_die_size", "d12"), ("attrition_face", "thirteen_only")]);
    let err = fails(&host, &[5, 5], SMOKE);
    assert!(err.contains("a d12 has no 13"), "{err}");
}

/// One scenario per option: (option, code, dice, pieces of the rule's own trace line).
/// With the option on the line is there; off, it is not (or the scenario is refused).
const EACH: [(&str, &str, &[i64], &[&str]); 15] = [
    (
        "crack_troops",
        r#"assault(unit(#{name: "Highlanders", arm: "infantry", stands: 4, formation: "line", grade: "crack"}), unit(#{name: "D", arm: "infantry", stands: 4, formation: "line"}), #{})"#,
        &[8, 2],
        &["mod     yes +3", "rule 102"],
    ),
    (
        "cavalry_in_line",
        r#"assault(unit(#{name: "Dragoons", arm: "cavalry", type: "medium", stands: 3, formation: "spaced_line"}), unit(#{name: "D", arm: "infantry", stands: 4, formation: "line"}), #{})"#,
        &[8, 2],
        &["Dragoons is in a spaced cavalry line, solid across its gaps (rule 105)"],
    ),
    (
        "alert_infantry",
        r#"let u = unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "line", markers: #{alert: true}});
        alert_reaction(u, unit(#{name: "E", arm: "infantry", stands: 4, formation: "column"}), #{reaction: "square", enemy_distance: 2})"#,
        &[],
        &["9e Ligne forms an emergency square and makes no other move (rule 201)"],
    ),
    (
        "cavalry_pass_through",
        r#"pass_through(unit(#{name: "Hussars", arm: "cavalry", type: "light", stands: 2, formation: "column"}), unit(#{name: "Battery", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"}), #{approach: "rear"})"#,
        &[],
        &["Hussars passes through Battery from its rear", "(rule 302)"],
    ),
    (
        "road_movement",
        r#"road_move(unit(#{name: "9e Ligne", arm: "infantry", stands: 4, formation: "road_column"}), #{road_inches: 30})"#,
        &[],
        &["on the road in road column: x2.0 (rule 303)"],
    ),
    (
        "preliminary_bombardment",
        r#"let b = unit(#{name: "B", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"});
        let t = unit(#{name: "T", arm: "infantry", stands: 4, formation: "line"});
        preliminary_bombardment([#{battery: b, target: t}], [], #{agreed: true, pairs: 1})"#,
        &[5],
        &["preliminary bombardment, artillery phase 1 (first player)"],
    ),
    (
        "attached_artillery",
        r#"assault(unit(#{name: "A", arm: "infantry", stands: 4, formation: "line", markers: #{attached_artillery: 2}}), unit(#{name: "D", arm: "infantry", stands: 4, formation: "line"}), #{})"#,
        &[8, 2],
        &["mod     yes +1 x2", "rule 403"],
    ),
    (
        "elite_green_artillery",
        r#"fire(unit(#{name: "B", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", grade: "elite"}), unit(#{name: "T", arm: "infantry", stands: 4, formation: "line"}), #{})"#,
        &[5],
        &["mod     yes +2", "rule 407"],
    ),
    (
        "ammunition_shortage",
        r#"fire(unit(#{name: "B", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered"}), unit(#{name: "T", arm: "infantry", stands: 4, formation: "line"}), #{})"#,
        &[5, 13],
        &["ammunition shortage die: a natural 13 (rule 413)"],
    ),
    (
        "unopposed_overlap",
        r#"assault(unit(#{name: "A", arm: "infantry", stands: 6, formation: "line"}), unit(#{name: "D", arm: "infantry", stands: 4, formation: "line"}), #{overlap: #{left: 1, right: 1}})"#,
        &[8, 2],
        &["mod     yes +2", "Unopposed overlap (rule 501)"],
    ),
    (
        "lancers",
        r#"assault(unit(#{name: "Lancers", arm: "cavalry", type: "lancer", stands: 4, formation: "column"}), unit(#{name: "D", arm: "infantry", stands: 4, formation: "line"}), #{})"#,
        &[8, 2],
        &["Lancers: lancers, first round of the assault, medium cavalry bonus (rule 505)"],
    ),
    (
        "firefights",
        r#"assault(unit(#{name: "A", arm: "infantry", stands: 4, formation: "line"}), unit(#{name: "D", arm: "infantry", stands: 4, formation: "line"}), #{})"#,
        &[5, 5, 9, 1],
        &["rule 506: infantry against infantry fight one round this turn"],
    ),
    (
        "cavalry_escorts",
        r#"assault([unit(#{name: "Cuirassiers", arm: "cavalry", type: "heavy", stands: 1, formation: "column"}), unit(#{name: "9e Ligne", arm: "infantry", stands: 3, formation: "column"})], unit(#{name: "D", arm: "infantry", stands: 4, formation: "line"}), #{})"#,
        &[8, 1],
        &["rule 507: the cavalry (1 bases) is numerically inferior to its infantry (3 bases)"],
    ),
    (
        "attrition_die",
        r#"assault(unit(#{name: "A", arm: "infantry", stands: 4, formation: "line"}), unit(#{name: "D", arm: "infantry", stands: 4, formation: "line"}), #{})"#,
        &[8, 13, 2, 1],
        &["attrition die: a natural 13, A (attacker) loses one base (rule 513)"],
    ),
    (
        "vulnerable_units",
        r#"assault(unit(#{name: "Dragoons", arm: "cavalry", type: "medium", stands: 4, formation: "column"}), unit(#{name: "D", arm: "infantry", stands: 4, formation: "line"}), #{cover: "woods"})"#,
        &[8, 2],
        &["Dragoons: cavalry in woods or buildings is V (rule 515)"],
    ),
];

#[test]
fn each_option_shows_its_own_line_in_the_trace_on_and_not_off() {
    for (i, (name, code, dice, pieces)) in EACH.iter().enumerate() {
        assert_eq!(*name, OPTIONS[i].0);
        let (eval, _) = run(&host_with(&[name], &[]), dice, code);
        assert_line(&eval, pieces);
        // Off: the dice the option does not roll are left out (the attrition die, the shortage die).
        let off_dice: Vec<i64> = dice.iter().copied().filter(|d| *d <= 10).collect();
        let host = host_with(&[], &[]);
        host.set_dice(Box::new(grognard::dice::Supplied::new(off_dice)));
        if let Ok(eval) = host.eval(&mut rhai::Scope::new(), code) {
            assert!(!has_line(&eval, pieces), "{name} off still shows {pieces:?}:\n{}", eval.trace.lines().join("\n"));
        }
    }
}
