//! Procedures compiled to native steps do what Rhai does with them: every shipped
//! script traced step by step, exact odds, errors and redefinitions, both ways.

use grognard::dice::{EnumLimits, Seeded};
use grognard::script::{Evaluation, Host, ScriptError};
use rhai::Scope;

use crate::support::ruleset;

/// Each shipped script and the ruleset its first line names.
const SCRIPTS: [(&str, &str); 7] = [
    ("ff_melee_study.rhai", "ff-napoleonic"),
    ("ff_battery_study.rhai", "ff-napoleonic"),
    ("ff_engagement.rhai", "ff-napoleonic"),
    ("lw_charge_study.rhai", "linear-warfare"),
    ("lw_day.rhai", "linear-warfare"),
    ("rq_attrition_study.rhai", "republique"),
    ("volley_study.rhai", "volley-example"),
];

/// Both hosts of a ruleset: compiled procedures, and Rhai's alone.
fn hosts(id: &str) -> [Host; 2] {
    [Host::new(ruleset(&[id])).unwrap(), Host::interpreted(ruleset(&[id])).unwrap()]
}

/// A script run as one traced trial of `grognard run` runs it, as text: its value and every step.
fn trial(host: &Host, script: &str, seed: u64) -> String {
    run_trial(host, script, seed, true)
}

/// A script run as one trial, traced or not.
fn run_trial(host: &Host, script: &str, seed: u64, tracing: bool) -> String {
    let scripts = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts");
    host.allow_scenarios_from(&scripts);
    host.set_tracing(tracing);
    host.set_dice(Box::new(Seeded::for_trial(seed, 0)));
    let text = std::fs::read_to_string(scripts.join(script)).unwrap();
    let mut scope = Scope::new();
    scope.push("trial", 0_i64);
    shown(host.eval(&mut scope, &text))
}

fn shown(result: Result<Evaluation, ScriptError>) -> String {
    match result {
        Ok(eval) => format!("{:?}\n{}", eval.value, eval.trace),
        Err(err) => format!("error: {err}"),
    }
}

#[test]
fn every_shipped_script_runs_step_for_step_as_rhai_runs_it() {
    for (script, id) in SCRIPTS {
        let [compiled, interpreted] = hosts(id);
        assert!(!compiled.compiled_procedures().is_empty(), "{id}: nothing compiled");
        assert!(interpreted.compiled_procedures().is_empty());
        for seed in 1..=12 {
            let (a, b) = (trial(&compiled, script, seed), trial(&interpreted, script, seed));
            assert_eq!(a, b, "{script}, seed {seed}");
            assert!(!a.starts_with("error"), "{script}, seed {seed}: {a}");
        }
    }
}

#[test]
fn every_shipped_script_untraced_gives_what_rhai_gives() {
    // Untraced, compiled code does not word notes and roll labels nobody reads: the same values.
    for (script, id) in SCRIPTS {
        let [compiled, interpreted] = hosts(id);
        for seed in 1..=12 {
            let (a, b) = (run_trial(&compiled, script, seed, false), run_trial(&interpreted, script, seed, false));
            assert_eq!(a, b, "{script}, seed {seed}");
            assert!(!a.starts_with("error"), "{script}, seed {seed}: {a}");
        }
    }
}

#[test]
fn the_hot_procedures_are_compiled() {
    let [ff, _] = hosts("ff-napoleonic");
    let names = ff.compiled_procedures();
    for name in ["fire", "fire_row", "melee", "melee_modifier", "resolve", "national_melee"] {
        assert!(names.iter().any(|n| n == name), "{name} is not compiled: {names:?}");
    }
}

#[test]
fn exact_odds_are_the_same_both_ways() {
    // (Exact melee odds on the compiled procedures are held to plain-Rust counts in `ff_napoleonic`.)
    let line = r#"unit(#{name: "L", nation: "britain", arm: "infantry", stands: 6, formation: "line"})"#;
    let led = r#"{ let c = unit(#{name: "C", nation: "prussia", arm: "infantry", stands: 5, formation: "column"});
        c.attach(leader(#{name: "Kleist"})); c }"#;
    let calls = [
        format!("fire({line}, {led}, #{{range: 3}}).result"),
        // A fallen leader leaves his unit: read him off his own handle.
        format!(
            "let t = {led}; let k = t.leaders[0]; fire({line}, t, #{{fire_points: 10}}); k.marker(\"killed\") ?? t.stands"
        ),
    ];
    let [compiled, interpreted] = hosts("ff-napoleonic");
    for call in &calls {
        let odds = |host: &Host| host.odds(&Scope::new(), call, EnumLimits::default(), (100, 1)).unwrap();
        let (a, b) = (odds(&compiled), odds(&interpreted));
        assert_eq!(format!("{:?}", a.distribution), format!("{:?}", b.distribution), "{call}");
    }
}

#[test]
fn errors_inside_compiled_procedures_read_as_rhai_words_them() {
    let setup = r#"let a = unit(#{name: "L", nation: "britain", arm: "infantry", stands: 6, formation: "line"});
        let p = unit(#{name: "P", nation: "prussia", arm: "infantry", stands: 6, formation: "column"});"#;
    let calls = [
        "fire(a, p, #{})",
        r#"fire(a, p, #{fire_points: "six"})"#,
        "melee(p, a, #{})",
        "fire_row(\"x\")",
        "fire(a, p, #{range: 2}, 4)",
    ];
    for call in calls {
        let [compiled, interpreted] = hosts("ff-napoleonic");
        let run = |host: &Host| shown(host.eval(&mut Scope::new(), &format!("{setup}\n{call}")));
        let (a, b) = (run(&compiled), run(&interpreted));
        assert!(a.starts_with("error"), "{call}: {a}");
        assert_eq!(a, b, "{call}");
    }
}

#[test]
fn a_function_defined_again_by_the_caller_still_wins() {
    // A house rule typed at the REPL replaces a procedure function, compiled or not.
    let code = r#"fn fire_row(points) { 3 }
        let a = unit(#{name: "L", nation: "minor", arm: "infantry", stands: 6, formation: "line"});
        let b = unit(#{name: "C", nation: "minor", arm: "infantry", stands: 6, formation: "column"});
        fire(a, b, #{fire_points: 12}).row"#;
    for host in hosts("ff-napoleonic") {
        let value = host.eval(&mut Scope::new(), code).unwrap().value;
        assert_eq!(value.as_int().unwrap(), 3);
    }
    // Also a method compiled code reads natively (`unit.has_marker("guard")`), and Rhai's own `max` and `in`.
    let guard = r#"let g = unit(#{name: "G", nation: "france", arm: "infantry", stands: 4, formation: "line"});"#;
    let grenadier = r#"let g = unit(#{name: "G", nation: "austria", arm: "infantry", type: "grenadier", stands: 4, formation: "line"});"#;
    let calls = [
        (format!("{guard} fatigue_weight(g, \"army\")"), "1"),
        // A method-style script function takes `this`, not the receiver as a parameter.
        (format!("fn has_marker(m) {{ true }} {guard} fatigue_weight(g, \"army\")"), "2"),
        (format!("{grenadier} fatigue_weight(g, \"army\")"), "2"),
        (format!("fn contains(list, x) {{ false }} {grenadier} fatigue_weight(g, \"army\")"), "1"),
    ];
    for (code, expected) in &calls {
        let [compiled, interpreted] = hosts("ff-napoleonic");
        let run = |host: &Host| shown(host.eval(&mut Scope::new(), code));
        let (a, b) = (run(&compiled), run(&interpreted));
        assert_eq!(a, b, "{code}");
        assert_eq!(a.trim(), *expected, "{code}");
    }
}

#[test]
fn every_compiled_function_fails_as_rhai_fails_on_nothing() {
    // Each compiled function called with `()` for every argument (and with numbers): whatever it
    // gives, value or error (message, file and place), is what Rhai gives with the same call,
    // traced and untraced (untraced, notes and roll labels are not worded, but still worked out).
    for id in ["ff-napoleonic", "linear-warfare", "republique"] {
        let [compiled, interpreted] = hosts(id);
        let arities: std::collections::BTreeMap<String, usize> = {
            let rs = ruleset(&[id]);
            grognard::script::fix_hashing();
            let mut engine = rhai::Engine::new();
            engine.set_max_expr_depths(0, 0);
            let mut found = std::collections::BTreeMap::new();
            for procedure in &rs.procedures {
                let ast = engine.compile(procedure.file.inner()).unwrap();
                for f in ast.iter_functions() {
                    found.insert(f.name.to_string(), f.params.len());
                }
            }
            found
        };
        let names = compiled.compiled_procedures();
        assert!(names.len() > 40, "{id}: only {} compiled", names.len());
        let mut compared = 0;
        for name in names {
            let Some(&arity) = arities.get(&name) else { continue };
            for (arg, tracing) in ["()", "1", "\"x\"", "#{}"].into_iter().flat_map(|a| [(a, true), (a, false)]) {
                let call = format!("{name}({})", vec![arg; arity].join(", "));
                for host in [&compiled, &interpreted] {
                    host.set_dice(Box::new(Seeded::new(7)));
                    host.set_tracing(tracing);
                }
                let run = |host: &Host| shown(host.eval(&mut Scope::new(), &call));
                let (a, b) = (run(&compiled), run(&interpreted));
                assert_eq!(a, b, "{id}: {call}, tracing {tracing}");
                compared += 1;
            }
        }
        assert!(compared > 320, "{id}: {compared} calls compared");
    }
}

#[test]
fn numbers_at_the_edges_read_as_rhai_reads_them() {
    // `fire_row` rounds with `floor().to_int()`, read natively: past the whole numbers it is Rhai's error.
    let [compiled, interpreted] = hosts("ff-napoleonic");
    for points in ["6.5", "0.5", "0.0", "-3.5", "1e300", "-1e300", "9007199254740993.0", "12"] {
        let call = format!("fire_row({points})");
        let run = |host: &Host| shown(host.eval(&mut Scope::new(), &call));
        let (a, b) = (run(&compiled), run(&interpreted));
        assert_eq!(a, b, "{call}");
    }
    let huge = shown(compiled.eval(&mut Scope::new(), "fire_row(1e300)"));
    assert!(huge.contains("Integer overflow"), "{huge}");
}

#[test]
fn a_units_words_compare_as_rhai_compares_them() {
    // `firer.type == "light"` is read in place off a unit; off a map or `()` it is the comparison as written.
    let [compiled, interpreted] = hosts("ff-napoleonic");
    let firers = [
        r#"unit(#{name: "V", nation: "france", arm: "infantry", type: "light", stands: 4, formation: "line"})"#,
        r#"unit(#{name: "L", nation: "france", arm: "infantry", stands: 4, formation: "line"})"#,
        r#"unit(#{name: "H", nation: "france", arm: "artillery", type: "horse", stands: 1, formation: "unlimbered"})"#,
        r#"#{arm: "infantry", type: "light"}"#,
        r#"#{arm: "cavalry", type: 3}"#,
        r#"#{arm: "artillery"}"#,
    ];
    for firer in firers {
        let call = format!("firer_kind({firer})");
        let run = |host: &Host| shown(host.eval(&mut Scope::new(), &call));
        let (a, b) = (run(&compiled), run(&interpreted));
        assert_eq!(a, b, "{call}");
    }
    let light = shown(compiled.eval(&mut Scope::new(), &format!("firer_kind({})", firers[0])));
    assert!(light.starts_with("\"light_infantry\""), "{light}");
}

#[test]
fn a_variable_lent_to_a_compiled_function_comes_back_whole() {
    // `firing_stands` only reads its first parameter: the caller's variable is lent to it, not copied.
    let [compiled, interpreted] = hosts("ff-napoleonic");
    assert!(compiled.compiled_procedures().iter().any(|n| n == "firing_stands"));
    for host in [&compiled, &interpreted] {
        let mut scope = Scope::new();
        let value = |scope: &mut Scope, code: &str| shown(host.eval(scope, code));
        value(&mut scope, r#"let f = #{formation: "column", stands: 6};"#);
        assert_eq!(
            value(&mut scope, "let n = firing_stands(f, #{}); [n, f.stands, f.formation]"),
            "[2, 6, \"column\"]\n"
        );
        // An error inside gives it back too.
        assert!(value(&mut scope, "firing_stands(f, 3)").starts_with("error"));
        assert_eq!(value(&mut scope, "f"), "#{\"formation\": \"column\", \"stands\": 6}\n");
    }
}

#[test]
fn dice_rolled_at_the_table_are_told_what_they_are_for_untraced() {
    // Untraced, a roll label is still worded for a player who rolls real dice.
    let [compiled, _] = hosts("ff-napoleonic");
    compiled.set_tracing(false);
    let prompts = std::rc::Rc::new(std::cell::RefCell::new(Vec::<String>::new()));
    let seen = prompts.clone();
    let ask: grognard::repl::Ask = std::rc::Rc::new(std::cell::RefCell::new(move |prompt: &str| {
        seen.borrow_mut().push(prompt.to_string());
        Some("5".to_string())
    }));
    compiled.set_dice(Box::new(grognard::repl::Manual::new(ask)));
    let code = r#"let a = unit(#{name: "Old Guard", nation: "france", arm: "infantry", stands: 4, formation: "column"});
        let b = unit(#{name: "IR 4", nation: "austria", arm: "infantry", stands: 6, formation: "line"});
        melee(a, b, #{}).result"#;
    compiled.eval(&mut Scope::new(), code).unwrap();
    let prompts = prompts.borrow();
    assert!(prompts.iter().any(|p| p.contains("Old Guard (attacker)")), "{prompts:?}");
}

#[test]
fn in_a_list_and_a_cell_read_as_rhai_reads_them() {
    // `firer.formation in ["march_column", "limbered"]` and `cell.is_none` in `fire_points`, read natively.
    let [compiled, interpreted] = hosts("ff-napoleonic");
    let firers = [
        r#"#{name: "a", arm: "infantry", formation: "limbered", stands: 4}"#,
        r#"#{name: "b", arm: "infantry", formation: "line", stands: 4}"#,
        r#"#{name: "c", arm: "infantry", formation: 3, stands: 4}"#,
        r#"#{name: "d", arm: "infantry", formation: (), stands: 4}"#,
        r#"#{name: "e", arm: "infantry", formation: ["line"], stands: 4}"#,
        r#"unit(#{name: "f", nation: "france", arm: "infantry", stands: 6, formation: "column"})"#,
    ];
    for firer in firers {
        for range in ["2", "7", "30"] {
            let call = format!("fire_points({firer}, #{{range: {range}}})");
            for tracing in [true, false] {
                let run = |host: &Host| {
                    host.set_tracing(tracing);
                    shown(host.eval(&mut Scope::new(), &call))
                };
                let (a, b) = (run(&compiled), run(&interpreted));
                assert_eq!(a, b, "{call}, tracing {tracing}");
            }
        }
    }
}

#[test]
fn for_loops_and_indexing_run_as_rhai_runs_them() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/loops-and-indexing");
    let rs = ruleset(&[dir.to_str().unwrap()]);
    let [compiled, interpreted] = [Host::new(rs.clone()).unwrap(), Host::interpreted(rs).unwrap()];
    let names = compiled.compiled_procedures();
    for name in ["sum_items", "counted", "ranged", "inclusive", "letters", "early", "nested", "item", "key", "char_at"]
    {
        assert!(names.iter().any(|n| n == name), "{name} is not compiled: {names:?}");
    }
    for call in [
        "sum_items([1, 2, 3])",
        "sum_items([])",
        "counted([\"a\", \"b\"])",
        "ranged(10)",
        "ranged(2)",
        "inclusive(4)",
        "letters(\"abc\")",
        "early([1, 2, 3, 4])",
        "early([])",
        "nested(5)",
        "shadowed([1, 2])",
        "rolled(3)",
        "item([1, 2, 3], 0)",
        "item([1, 2, 3], -1)",
        "item([1, 2, 3], 3)",
        "item([1, 2, 3], -4)",
        "item([1, 2, 3], \"x\")",
        "item(\"abc\", 1)",
        "item(5, 0)",
        "item(5, 1)",
        "item(5, -64)",
        "item(5, 64)",
        "item(1.5, 0)",
        "item((), 0)",
        "key(#{a: 1}, \"a\")",
        "key(#{a: 1}, \"b\")",
        "key(#{a: 1}, 2)",
        "char_at(\"héllo\", 1)",
        "char_at(\"abc\", -1)",
        "char_at(\"abc\", 9)",
        "computed([4, 5, 6])",
        "not_iterable(#{a: 1})",
        "not_iterable(5)",
        "sum_items(1..4)",
        "letters([\"x\"])",
    ] {
        let run = |host: &Host| {
            host.set_dice(Box::new(Seeded::new(3)));
            shown(host.eval(&mut Scope::new(), call))
        };
        assert_eq!(run(&compiled), run(&interpreted), "{call}");
    }
}

#[test]
fn places_and_methods_run_as_rhai_runs_them() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/loops-and-indexing");
    let rs = ruleset(&[dir.to_str().unwrap()]);
    let [compiled, interpreted] = [Host::new(rs.clone()).unwrap(), Host::interpreted(rs).unwrap()];
    let names = compiled.compiled_procedures();
    for name in
        ["counted_in", "read_through", "set_far", "new_keys", "text_item", "grows", "bump", "bump_twice", "hooked"]
    {
        assert!(names.iter().any(|n| n == name), "{name} is not compiled: {names:?}");
    }
    let m = r#"#{counts: #{a: 1}, list: [#{n: 2, tags: []}, #{n: 3, tags: ["t"]}]}"#;
    let this = r#"#{n: 1, inner: #{list: [5]}}"#;
    for call in [
        format!(r#"counted_in({m}, "a")"#),
        format!(r#"counted_in({m}, "b")"#),
        format!("read_through({m})"),
        format!("set_far({m}, 1)"),
        format!("set_far({m}, -2)"),
        format!("set_far({m}, 5)"),
        format!(r#"set_far({m}, "x")"#),
        format!("set_missing({m})"),
        format!("new_keys({m})"),
        format!("grows({m})"),
        r#"text_item(#{word: "abc"}, 1, 'x')"#.to_string(),
        r#"text_item(#{word: "abc"}, -1, 'x')"#.to_string(),
        r#"text_item(#{word: "abc"}, 3, 'x')"#.to_string(),
        r#"text_item(#{word: "abc"}, 0, "x")"#.to_string(),
        r#"text_item(#{word: 5}, 0, 'x')"#.to_string(),
        r#"text_item(#{word: 5}, 1, true)"#.to_string(),
        r#"text_item(#{word: 5}, -1, true)"#.to_string(),
        r#"text_item(#{word: 5}, 0, false)"#.to_string(),
        r#"text_item(#{word: 5}, 64, true)"#.to_string(),
        r#"text_item(#{word: "abc"}, -3, 'x')"#.to_string(),
        r#"text_item(#{word: "abc"}, -4, 'x')"#.to_string(),
        r#"let b = blob(3); text_item(#{word: b}, 1, 300)"#.to_string(),
        r#"let b = blob(3); text_item(#{word: b}, 3, 1)"#.to_string(),
        r#"let b = blob(3); text_item(#{word: b}, 0, 'x')"#.to_string(),
        r#"text_item(#{word: 1.5}, 0, 'x')"#.to_string(),
        format!("let m = {this}; let r = m.bump(2); [r, m]"),
        format!("let m = {this}; [m.bump_twice(), m]"),
        format!("let m = {this}; let r = m.bump(2); let n = m.bump(3); [r, n, m]"),
        // Changes made before the error stay, as on Rhai's `this`.
        format!("let m = {this}; try {{ m.failing_method(); }} catch {{ m.failed = true; }} m"),
        format!("let m = {this}; m.failing_method()"),
        r#"let m = #{n: 4, hook: Fn("doubled")}; m.hooked()"#.to_string(),
        "let m = #{n: 4}; m.hooked()".to_string(),
        "bump(1)".to_string(),
    ] {
        let run = |host: &Host| shown(host.eval(&mut Scope::new(), &call));
        assert_eq!(run(&compiled), run(&interpreted), "{call}");
    }
}
