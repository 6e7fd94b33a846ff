//! Every combination of options the seed allows loads, passes the checks and
//! resolves an assault and a fire: all off, all on, each alone, every pair.
//! The seed forbids no combination; rule 102's two variants (A and B) are one
//! option with an interpretation, so they cannot be switched on together.

use grognard::script::check;

use super::{OPTIONS, fails, host_with, rules, run};

/// An assault and a fire that every option may touch.
const SMOKE: &str = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 6, formation: "line", grade: "veteran"});
    let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});
    let b = unit(#{name: "Battery", arm: "artillery", type: "foot", stands: 1, formation: "unlimbered", grade: "elite"});
    let r = assault(a, d, #{overlap: #{left: 1, right: 1}});
    let f = fire(b, d, #{range: "close"});
    [r.result, f.result]"#;

fn combination_is_clean(with: &[&str]) {
    let rs = rules(with, &[]);
    for (name, _) in OPTIONS {
        assert_eq!(rs.settings.options[name], with.contains(&name), "{name} in {with:?}");
    }
    let problems = check(&rs);
    assert!(problems.is_empty(), "{with:?}: {problems:?}");
    let host = host_with(with, &[]);
    // Enough faces for any round of the assault (both d10s and attrition dice) and the fire.
    let (eval, _) = run(&host, &[9, 5, 2, 5, 7, 5, 4, 5, 8, 5, 3, 5, 9, 5], SMOKE);
    assert!(eval.value.is_array(), "{with:?}");
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
    let mut rs = crate::ruleset(&["republique"]);
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
