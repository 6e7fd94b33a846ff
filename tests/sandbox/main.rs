//! The sandbox conformance suite: hostile scripts run down every path that runs a script
//! (Rhai alone, compiled procedures, an `odds` walk, a study's trials with calls kept by their
//! dice) and refused the same way, worded the same;
//! and mutated rule files fed to the loader and `check`.

mod mutated_rules;

use std::path::PathBuf;

use grognard::dice::EnumLimits;
use grognard::rules::{Problem, Ruleset, load};
use grognard::script::{Host, Limits, Outcome, SCRIPT_STACK, ScriptError};
use num_rational::BigRational;
use num_traits::One;
use rhai::Scope;

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules").join(name).display().to_string()
}

fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

fn hostile() -> Ruleset {
    load(&[fixture("hostile")], &rules_dir()).unwrap_or_else(|p| panic!("{:?}", p.0)).ruleset
}

/// Small limits, so that every case ends quickly in a debug build.
fn limits() -> Limits {
    Limits { max_operations: 200_000, max_memory: 256 << 20, ..Limits::default() }
}

/// Every path a script can run down, by name.
#[derive(Clone, Copy, Debug)]
enum Path {
    /// Rhai walks every procedure (`GROGNARD_INTERPRET=1`).
    Interpreted,
    /// The procedures that can be are compiled to native steps (the default).
    Compiled,
    /// An `odds` walk over compiled procedures (operations counted over the whole walk).
    Walk,
    /// A study's trials, untraced, their calls of compiled procedures kept by the dice they
    /// rolled (`script::dice_paths`) and Rhai's function resolutions kept from trial to trial
    /// (`Host::keep_resolutions`): the code is run as a trial twice, and the second run, which
    /// reads what the first kept, is the one compared.
    Study,
    /// `odds --why`, `compare` and `:odds why`: the walk again, noting what its paths touch,
    /// then once more with a modifier left out (the refusal must be the same both times).
    Weighed,
}

const PATHS: [Path; 5] = [Path::Interpreted, Path::Compiled, Path::Walk, Path::Study, Path::Weighed];

fn host(path: Path) -> Host {
    let host = Host::built_as(hostile(), limits(), matches!(path, Path::Interpreted)).unwrap();
    host.set_walk_limits(limits());
    if let Path::Study = path {
        host.set_studying(true);
        host.set_tracing(false);
    }
    host
}

/// `code` run down `path`: for a study, as its second trial.
fn eval(host: &Host, path: Path, code: &str) -> Result<grognard::script::Evaluation, ScriptError> {
    if let Path::Study = path {
        let ast = host.compile(&Scope::new(), code)?;
        host.keep_resolutions(&ast);
        host.set_dice(Box::new(grognard::dice::Seeded::for_trial(1, 0)));
        let _first = host.run(&mut Scope::new(), &ast, code);
        host.set_dice(Box::new(grognard::dice::Seeded::for_trial(1, 1)));
        return host.run(&mut Scope::new(), &ast, code);
    }
    host.eval(&mut Scope::new(), code)
}

/// `f` on a thread with the stack scripts run on (as the binary runs them): a test thread's is too small.
fn on_script_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new().stack_size(SCRIPT_STACK).spawn_scoped(scope, f).unwrap();
        thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// What `code` ends with down `path`: the problem's code and message.
fn refusal(path: Path, code: &str) -> (String, String) {
    on_script_stack(|| refused(path, code))
}

fn refused(path: Path, code: &str) -> (String, String) {
    let host = host(path);
    let err = match path {
        Path::Walk => host.odds(&Scope::new(), code, EnumLimits::default(), (10, 1)).map(|_| ()).unwrap_err(),
        Path::Weighed => {
            let weighed =
                host.attribution(&Scope::new(), code, EnumLimits::default(), (10, 1)).map(|_| ()).unwrap_err();
            let without = host.odds_without(("fire", "any"), &Scope::new(), code, EnumLimits::default(), (10, 1));
            assert_eq!(format!("{:?}", without.map(|_| ()).unwrap_err()), format!("{weighed:?}"), "{code}");
            weighed
        }
        _ => eval(&host, path, code).map(|_| ()).unwrap_err(),
    };
    match err {
        ScriptError::At(problem) => {
            let Problem { code, message, .. } = *problem;
            (code.to_string(), message)
        }
        other => panic!("{code} down {path:?}: {other:?}"),
    }
}

/// `code` is refused with `message` (and `kind`) down every path.
fn refused_everywhere(code: &str, kind: &str, message: &str) {
    for path in PATHS {
        let (got_kind, got) = refusal(path, code);
        assert_eq!((got_kind.as_str(), got.as_str()), (kind, message), "{code} down {path:?}");
    }
}

const TOO_MANY: &str = "stopped after 200000 operations, the limit for one command";

const TOO_DEEP: &str = "Depth of a value (more than 1000 levels) too large";

#[test]
fn the_hostile_procedures_are_compiled_where_the_compiler_can() {
    let compiled = host(Path::Compiled).compiled_procedures();
    for name in [
        "spin_while",
        "count_to",
        "twice",
        "deeper",
        "ping",
        "pong",
        "grow",
        "grow_plus",
        "grow_array",
        "grow_in_place",
        "grow_by_method_in_place",
        "grow_this",
        "grow_this_in_place",
    ] {
        assert!(compiled.iter().any(|c| c == name), "{name} is not compiled: {compiled:?}");
    }
    assert!(host(Path::Interpreted).compiled_procedures().is_empty());
}

#[test]
fn endless_loops_stop_at_the_operation_limit() {
    refused_everywhere("spin()", "script::limit", TOO_MANY);
    refused_everywhere("spin_while()", "script::limit", TOO_MANY);
    refused_everywhere("let i = 0; loop { i += 1 }", "script::limit", TOO_MANY);
    refused_everywhere("count_to(1000000)", "script::limit", TOO_MANY);
}

#[test]
fn recursion_without_loops_is_counted_call_by_call() {
    refused_everywhere("spread(40, 1)", "script::limit", TOO_MANY);
    // An exact walk works out each call of the same arguments once: `twice(40)` is 40 calls
    // there (and exactly 2^40), but 2^40 down the other paths.
    for path in [Path::Interpreted, Path::Compiled] {
        for code in ["twice(40)", "ping(40)"] {
            assert_eq!(refusal(path, code), ("script::limit".to_string(), TOO_MANY.to_string()), "{code} {path:?}");
        }
    }
    let chance = on_script_stack(|| {
        let odds = host(Path::Walk).odds(&Scope::new(), "twice(40)", EnumLimits::default(), (10, 1));
        odds.unwrap().distribution.probability(&Outcome::Number(1 << 40))
    });
    assert_eq!(chance, BigRational::one());
    refused_everywhere("ping_apart(40, 1)", "script::limit", TOO_MANY);
    refused_everywhere("let n = 0; for i in 0..100 { n += spread(20, i) } n", "script::limit", TOO_MANY);
}

#[test]
fn recursion_without_end_stops_at_the_call_depth() {
    refused_everywhere("deeper(0)", "script::limit", "calls nested more than 48 deep");
}

#[test]
fn values_grown_by_every_operator_stop_at_the_size_limits() {
    let string = "Length of string too large";
    let array = "Size of array/BLOB too large";
    let map = "Size of object map too large";
    for (code, message) in [
        ("grow(20)", string),
        ("grow_plus(20)", string),
        ("grow_add_assign(20)", string),
        ("grow_in_map_field(20)", string),
        ("let s = \"ab\"; for i in 0..20 { s = `${s}${s}` } s.len()", string),
        ("grow_array(20)", array),
        ("grow_array_assign(20)", array),
        ("grow_append(20)", array),
        ("let a = [1]; a.pad(1000000, 0); a.len()", array),
        ("grow_nested(20)", array),
        ("grow_blob(20)", array),
        ("grow_map(10001)", map),
        ("grow_map_nested(20)", map),
        ("grow_in_place(20)", array),
        ("grow_by_method_in_place(20)", array),
        (r#"let m = #{s: "ab"}; m.grow_this(20)"#, string),
        (r#"let m = #{l: ["ab"]}; m.grow_this_in_place(20)"#, string),
    ] {
        refused_everywhere(code, "script::limit", message);
    }
}

#[test]
fn values_grown_without_end_stop_at_the_limits_as_they_grow() {
    let map = "Size of object map too large";
    // At the top level Rhai walks the code down every path.
    for code in ["grow_map_forever()", "let m = #{}; let i = 0; loop { m[\"k\" + i] = i; i += 1; }"] {
        refused_everywhere(code, "script::limit", map);
    }
    // One level down, where Rhai measures neither the map nor the variable that holds it.
    for path in [Path::Interpreted, Path::Compiled] {
        assert_eq!(refusal(path, "grow_inner_map_forever()"), ("script::limit".into(), map.into()), "{path:?}");
    }
    for code in ["nest_maps_forever()", "nest_arrays_forever()", "let a = []; loop { a = [a]; }"] {
        refused_everywhere(code, "script::limit", TOO_DEEP);
    }
}

#[test]
fn memory_kept_past_the_budget_is_refused_as_it_grows() {
    let memory = "stopped at 256 MiB, the memory limit for one command";
    refused_everywhere("hoard()", "script::limit", memory);
    refused_everywhere(
        "let kept = []; loop { let s = \"ab\"; for i in 0..15 { s += s } kept.push(|| s.len()); }",
        "script::limit",
        memory,
    );
}

#[test]
fn values_within_the_limits_are_the_same_down_every_path() {
    for (code, expected) in
        [("grow(10)", 2048), ("grow_array(10)", 1024), ("count_to(1000)", 1000), ("twice(10)", 1024)]
    {
        for path in [Path::Interpreted, Path::Compiled, Path::Study] {
            let value = eval(&host(path), path, code).unwrap().value.as_int().unwrap();
            assert_eq!(value, expected, "{code} down {path:?}");
        }
    }
}

#[test]
fn closures_that_capture_closures_are_counted() {
    // Each closure holds the last: the chain is a value nested deeper than a value may be.
    refused_everywhere("closures(1000000)", "script::limit", TOO_DEEP);
    let value =
        on_script_stack(|| host(Path::Compiled).eval(&mut Scope::new(), "closures(20)").unwrap().value.as_int());
    assert_eq!(value, Ok(7));
}

#[test]
fn imports_outside_the_ruleset_or_in_a_circle_are_refused() {
    for code in ["escape()", "absolute()", "circle()"] {
        let (kind, first) = refusal(Path::Interpreted, code);
        assert_eq!(kind, "script::runtime", "{code}");
        for path in PATHS {
            assert_eq!(refusal(path, code).1, first, "{code} down {path:?}");
        }
    }
}

#[test]
fn no_script_waits_or_reads_the_clock() {
    refused_everywhere("sleep(1e9); 1", "script::runtime", "`sleep` is not available: a rule or script may not wait");
    refused_everywhere("sleep(1); 1", "script::runtime", "`sleep` is not available: a rule or script may not wait");
    let (kind, message) = refusal(Path::Compiled, "timestamp()");
    assert_eq!(kind, "script::runtime");
    assert!(message.contains("timestamp"), "{message}");
}

#[test]
fn check_refuses_rules_that_wait_or_read_the_clock() {
    let rs = load(&[fixture("hostile-clock")], &rules_dir()).unwrap().ruleset;
    let problems = grognard::script::check(&rs);
    let unknown: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
    assert!(unknown.iter().any(|m| m.contains("`sleep` is not a function")), "{unknown:?}");
    assert!(unknown.iter().any(|m| m.contains("`timestamp` is not a function")), "{unknown:?}");
    assert!(unknown.iter().any(|m| m.contains("modifier `patience` calls `sleep`")), "{unknown:?}");
}

#[test]
fn a_kept_call_spends_the_operations_it_spent_when_it_ran() {
    // One call of about 150,000 operations is within the limit; two in one command are not, also
    // when the second (or both, in a study's second trial) is read from the calls kept. (Rhai
    // counts more operations than compiled code for the same loop: see `script::compiled`.)
    let once = "count_to(75000)";
    let twice = "count_to(75000) + count_to(75000)";
    for path in [Path::Compiled, Path::Study] {
        let value = on_script_stack(|| eval(&host(path), path, once).map(|e| e.value.as_int().unwrap()));
        assert_eq!(value.unwrap(), 75_000, "{path:?}");
        assert_eq!(refusal(path, twice), ("script::limit".to_string(), TOO_MANY.to_string()), "{path:?}");
    }
    // With dice: each face's path ends after the operations its count spent.
    let rolled = r#"count_to(30000 * roll("1d6").total) + count_to(30000 * roll("1d6").total)"#;
    let results = on_script_stack(|| {
        let (study, compiled) = (host(Path::Study), host(Path::Compiled));
        let run = |host: &Host, trial: u64| {
            host.set_dice(Box::new(grognard::dice::Seeded::for_trial(3, trial)));
            host.eval(&mut Scope::new(), rolled).map(|e| e.value.as_int().unwrap()).map_err(|e| e.to_string())
        };
        (0..40).map(|trial| (run(&study, trial), run(&compiled, trial))).collect::<Vec<_>>()
    });
    for (trial, (a, b)) in results.iter().enumerate() {
        assert_eq!(a, b, "trial {trial}");
    }
    // Some trials' faces sum to 7 or more (210,000 operations), and some do not.
    let refused = results.iter().filter(|(a, _)| a.is_err()).count();
    assert!(refused > 0 && refused < 40, "{refused}");
}

#[test]
fn a_whole_walk_is_one_budget() {
    // 36 outcomes of up to 120,000 operations each (11 different counts, each worked out
    // once by the exact walk): within the limit one by one, not together.
    let code = r#"let r = roll("1d6").total + roll("1d6").total; count_to(10000 * r)"#;
    let host = host(Path::Compiled);
    assert!(host.eval(&mut Scope::new(), code).is_ok());
    let err = host.odds(&Scope::new(), code, EnumLimits::default(), (10, 1)).unwrap_err();
    assert!(err.to_string().contains(TOO_MANY), "{err}");
    host.set_walk_limits(Limits { max_operations: 10_000_000, time_limit: None, ..Limits::default() });
    let odds = host.odds(&Scope::new(), code, EnumLimits::default(), (10, 1)).unwrap();
    assert_eq!(odds.runs, 36);
}

#[test]
fn an_interrupt_stops_the_command_and_the_next_one_runs() {
    let host = Host::built_as(hostile(), Limits { max_operations: u64::MAX, ..Limits::default() }, false).unwrap();
    let flag = host.interrupt_flag();
    flag.store(true, std::sync::atomic::Ordering::Relaxed);
    // Ctrl-C pressed before a command began is forgotten...
    assert_eq!(host.eval(&mut Scope::new(), "count_to(10000)").unwrap().value.as_int().unwrap(), 10_000);
    // ...and one pressed while it runs stops it.
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let err = host.eval(&mut Scope::new(), "spin_while()").unwrap_err();
    stopper.join().unwrap();
    assert!(err.to_string().contains("interrupted (Ctrl-C)"), "{err}");
    assert_eq!(host.eval(&mut Scope::new(), "count_to(10)").unwrap().value.as_int().unwrap(), 10);
}
