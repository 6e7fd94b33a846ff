//! The sandbox from outside: hostile expressions never abort the process, and every limit names its flag.

use super::{grognard, stderr, stdout};

/// Ran to an end of its own: a value (0) or an error (1), never a signal or an abort.
fn ended(args: &[&str]) -> (i32, String, String) {
    let out = grognard(args);
    let code = out.status.code().unwrap_or_else(|| panic!("{args:?} was killed: {:?}\n{}", out.status, stderr(&out)));
    assert!(code == 0 || code == 1, "{args:?} exited {code}: {}", stderr(&out));
    (code, stdout(&out), stderr(&out))
}

const TOO_DEEP: &str = "Depth of a value (more than 1000 levels) too large";

#[test]
fn deep_values_are_dropped_and_compared_without_overflowing_the_stack() {
    let chain = |n: u32| format!("let f = |x| x; let g = f; for i in 0..{n} {{ let h = g; g = |x| h.call(x) }} 7");
    let (code, out, _) = ended(&["eval", "--rules", "ff-napoleonic", "--quiet", &chain(900)]);
    assert_eq!((code, out.as_str()), (0, "= 7\n"));
    let nested = |n: u32| format!("let a = []; for i in 0..{n} {{ a = [a] }} a == a");
    let (code, out, _) = ended(&["eval", "--rules", "ff-napoleonic", "--quiet", &nested(900)]);
    assert_eq!((code, out.as_str()), (0, "= true\n"));
    // Deeper than a value may nest: refused as it grows, never an overflow.
    for code in [chain(100_000), nested(100_000)] {
        let (status, _, err) = ended(&["eval", "--rules", "ff-napoleonic", &code]);
        assert_eq!(status, 1, "{code}");
        assert!(err.contains(TOO_DEEP), "{err}");
    }
}

#[test]
fn deep_values_in_worker_threads_do_not_overflow_their_stacks() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/scripts/deep_closures.rhai");
    let (code, out, err) = ended(&["run", script, "--trials", "2", "--jobs", "2", "--seed", "1", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 trials"), "{out}");
}

#[test]
fn workers_start_under_a_modest_address_space_cap() {
    // Each thread that runs scripts reserves its stack: at 1 GiB each, two workers and the
    // main thread could not start under a cap of 1.5 GB.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/scripts/deep_closures.rhai");
    let command = format!(
        "ulimit -v 1500000 && exec '{}' run '{script}' --trials 4 --jobs 2 --seed 1 --quiet",
        env!("CARGO_BIN_EXE_grognard")
    );
    let out = std::process::Command::new("sh").args(["-c", &command]).env("NO_COLOR", "1").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("4 trials"));
}

#[test]
fn sleep_is_refused_at_once() {
    let (code, _, err) = ended(&["eval", "--rules", "ff-napoleonic", "sleep(1e9); 1"]);
    assert_eq!(code, 1);
    assert!(err.contains("`sleep` is not available"), "{err}");
}

#[test]
fn the_limits_name_the_flags_that_raise_them() {
    let (code, _, err) = ended(&["eval", "--rules", "ff-napoleonic", "--max-operations", "1000", "loop {}"]);
    assert_eq!(code, 1);
    assert!(err.contains("stopped after 1000 operations") && err.contains("--max-operations"), "{err}");
    let args =
        ["eval", "--rules", "ff-napoleonic", "--max-operations", "1000000000000", "--time-limit", "0.5", "loop {}"];
    let (code, _, err) = ended(&args);
    assert_eq!(code, 1);
    assert!(err.contains("stopped after 0.5 s, the time limit") && err.contains("--time-limit"), "{err}");
}

#[test]
fn limits_out_of_range_are_usage_errors() {
    for args in [
        &["eval", "--rules", "ff-napoleonic", "--max-operations", "0", "1"][..],
        &["eval", "--rules", "ff-napoleonic", "--time-limit", "0", "1"],
        &["odds", "--rules", "ff-napoleonic", "--time-limit", "forever", "1"],
        &["eval", "--rules", "ff-napoleonic", "--max-operations", "18446744073709551615", "1"],
    ] {
        let out = grognard(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn the_same_seed_prints_the_same_closures() {
    let args =
        ["eval", "--rules", "ff-napoleonic", "--seed", "3", "let f = |x| x + roll(\"1d6\").total; [f, f.call(1)]"];
    let first = ended(&args);
    assert_eq!(first.0, 0, "{}", first.2);
    assert!(first.1.contains("Fn(anon$"), "{}", first.1);
    assert_eq!(ended(&args).1, first.1);
}

#[test]
fn a_deeply_nested_value_prints_in_memory_in_proportion_to_its_text() {
    let nested = "let m = #{}; for i in 0..900 { m = #{a: m} } m";
    let (code, out, err) = ended(&["eval", "--rules", "ff-napoleonic", "--quiet", nested]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("#{a: ").count(), 900);
    let (code, out, err) = ended(&["eval", "--rules", "ff-napoleonic", "--json", nested]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"value\""), "{}", &out[..200.min(out.len())]);
}

#[test]
fn a_unit_given_more_stands_than_any_army_has_is_refused_as_such() {
    // u32::MAX once read as "no stands given" ("gives no stands").
    for stands in ["4294967295", "100001"] {
        let call =
            format!(r#"unit(#{{name: "A", nation: "britain", arm: "infantry", stands: {stands}, formation: "line"}})"#);
        let (code, _, err) = ended(&["eval", "--rules", "ff-napoleonic", &call]);
        let err = err.replace("\n  │ ", " ");
        assert_eq!(code, 1);
        assert!(err.contains(&format!("{stands} stands is more than a unit may have (at most 100000)")), "{err}");
        assert!(!err.contains("gives no"), "{err}");
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("oob.yaml"),
        "units:\n  - id: a\n    name: A\n    nation: britain\n    arm: infantry\n    stands: 4294967295\n    formation: line\n",
    )
    .unwrap();
    let script = dir.path().join("battle.rhai");
    std::fs::write(&script, "//! rules: ff-napoleonic\nlet o = order_of_battle(\"oob.yaml\"); 1\n").unwrap();
    let (code, _, err) = ended(&["run", &script.display().to_string(), "--trials", "1"]);
    let err = err.replace("\n  │ ", " ");
    assert_eq!(code, 1);
    assert!(err.contains("4294967295 stands is more than a unit may have"), "{err}");
}
