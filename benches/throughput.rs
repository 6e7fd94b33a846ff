//! Benchmarks: each scripted workload is timed in the same run as a native Rust
//! baseline doing the same work, and reported as a ratio, because this machine
//! is shared and noisy and only ratios measured together mean anything.
//!
//! `cargo bench` runs each workload for about a second; `GROGNARD_BENCH_QUICK=1
//! cargo bench` runs each for a few milliseconds (CI: it builds and runs).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use grognard::dice::{DiceLimits, EnumLimits, RollSource, Seeded, exact_odds, parse};
use grognard::repl::Session;
use grognard::rules::RowKey;
use grognard::rules::{Ruleset, Switches, load};
use grognard::script::Host;
use rhai::Scope;

/// How long each side of a comparison runs.
fn budget() -> Duration {
    if std::env::var_os("GROGNARD_BENCH_QUICK").is_some() { Duration::from_millis(20) } else { Duration::from_secs(1) }
}

/// Whether a workload runs: `GROGNARD_BENCH_ONLY=fire cargo bench` runs those
/// named "fire" (a comma-separated list of names, to profile workloads alone);
/// all run by default.
fn wanted(name: &str) -> bool {
    std::env::var("GROGNARD_BENCH_ONLY").map_or(true, |only| only.split(',').any(|o| o.trim() == name))
}

/// Calls `work` in batches until the budget is spent; returns calls per second.
fn rate(mut work: impl FnMut() -> u64) -> f64 {
    let budget = budget();
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < budget {
        calls += work();
    }
    calls as f64 / start.elapsed().as_secs_f64()
}

fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

fn ff() -> Ruleset {
    load(&["ff-napoleonic".to_string()], &rules_dir()).expect("ff-napoleonic loads").ruleset
}

fn report(name: &str, scripted: f64, native: f64, unit: &str) {
    println!("{name:<44} {scripted:>14.0} {unit:<12} native {native:>14.0}   ratio {:>8.1}x slower", native / scripted);
}

const LINE: &str = r#"unit(#{name: "L", nation: "minor", arm: "infantry", stands: 6, formation: "line"})"#;
const COLUMN: &str = r#"unit(#{name: "C", nation: "minor", arm: "infantry", stands: 6, formation: "column"})"#;

fn main() {
    println!(
        "grognard benchmarks ({} per side){}",
        humantime(budget()),
        if cfg!(debug_assertions) { " (debug build)" } else { "" }
    );

    if wanted("dice") {
        // Dice: `2d6` through the parsed expression against two raw faces.
        let expr = parse("2d6").unwrap();
        let mut source = Seeded::new(1);
        let scripted = rate(|| {
            for _ in 0..1000 {
                black_box(expr.value(&mut source).unwrap());
            }
            1000
        });
        let d6 = grognard::dice::Die::standard(6);
        let mut raw = Seeded::new(1);
        let native = rate(|| {
            for _ in 0..1000 {
                black_box(raw.face(d6).unwrap() + raw.face(d6).unwrap());
            }
            1000
        });
        report("dice: 2d6 expression vs two raw faces", scripted, native, "rolls/s");
    }

    // Fire: the scripted procedure (trace off), one call per resolution, looped
    // inside one script so the cost is the procedure's, against a native reading
    // of the same musketry table at the same row with a d10.
    let ruleset = ff();
    let host = Host::new(ruleset.clone()).unwrap();
    host.set_tracing(false);
    host.set_dice(Box::new(Seeded::new(2)));
    let mut scope = Scope::new();
    host.eval(&mut scope, &format!("let a = {LINE}; let b = {COLUMN};")).unwrap();
    let batch = 200;
    let musketry = &ruleset.tables["musketry"];
    let d10 = grognard::dice::Die::standard(10);
    let mut dice = Seeded::new(2);

    if wanted("fire") {
        let fire_loop = host
            .compile(&scope, &format!("for i in 0..{batch} {{ b.stands = 6; fire(a, b, #{{fire_points: 6}}); }}"))
            .unwrap();
        let scripted = rate(|| {
            host.run(&mut scope, &fire_loop, "").unwrap();
            batch
        });
        let native = rate(|| {
            for _ in 0..1000 {
                let total = dice.face(d10).unwrap();
                black_box(musketry.read_grid(&RowKey::Number(6), total).unwrap());
            }
            1000
        });
        report("fire: scripted fire() vs native table read", scripted, native, "fires/s");
    }

    if wanted("melee") {
        // Melee: the scripted procedure against two native d10s and the melee table, re-rolling ties.
        let melee_loop = host
            .compile(&scope, &format!("for i in 0..{batch} {{ a.stands = 6; b.stands = 6; a.order = \"good_order\"; b.order = \"good_order\"; melee(b, a, #{{}}); }}"))
            .unwrap();
        let scripted = rate(|| {
            host.run(&mut scope, &melee_loop, "").unwrap();
            batch
        });
        let melee = &ruleset.tables["melee"];
        let native = rate(|| {
            for _ in 0..1000 {
                loop {
                    let diff = dice.face(d10).unwrap() - dice.face(d10).unwrap();
                    let reading = melee.read_bands(diff).unwrap();
                    if reading.result.as_ref().is_some_and(|r| r.id != "desperate_struggle") {
                        black_box(reading);
                        break;
                    }
                }
            }
            1000
        });
        report("melee: scripted melee() vs native table read", scripted, native, "melees/s");
    }

    if wanted("exact fire") {
        // Exact odds: one fire and one melee walked over every outcome, against the
        // exact odds of the bare dice expression.
        let fire_call = format!("fire({LINE}, {COLUMN}, #{{fire_points: 6}}).result");
        let scripted = rate(|| {
            black_box(host.odds(&Scope::new(), &fire_call, EnumLimits::default(), (100, 1)).unwrap());
            1
        });
        let d10_expr = parse("1d10").unwrap();
        let native = rate(|| {
            black_box(exact_odds(&d10_expr, &DiceLimits::default()).unwrap());
            1
        });
        report("exact odds: one fire vs 1d10", scripted, native, "per s");
        println!("{:<44} {:>14.3} ms", "  (one exact fire)", 1000.0 / scripted);
    }

    if wanted("exact melee") {
        let melee_call = format!("melee({COLUMN}, {LINE}, #{{}}).result");
        let limits = EnumLimits { max_depth: 4, max_outcomes: 100_000 };
        let scripted = rate(|| {
            black_box(host.odds(&Scope::new(), &melee_call, limits, (100, 1)).unwrap());
            1
        });
        let diff = parse("1d10 - 1d10").unwrap();
        let native = rate(|| {
            black_box(exact_odds(&diff, &DiceLimits::default()).unwrap());
            1
        });
        report("exact odds: one melee (2 rounds) vs 1d10-1d10", scripted, native, "per s");
        println!("{:<44} {:>14.3} ms", "  (one exact melee, 2 rounds)", 1000.0 / scripted);
    }

    if wanted("load") {
        // Loading and checking every shipped ruleset, against reading their files.
        let ids = ["ff-napoleonic", "linear-warfare", "republique", "ff-house-example"];
        let scripted = rate(|| {
            for id in ids {
                let loaded = load(&[id.to_string()], &rules_dir()).unwrap();
                black_box(Host::new(loaded.ruleset).unwrap());
            }
            1
        });
        let native = rate(|| {
            for id in ids {
                for entry in walk(&rules_dir().join(id)) {
                    black_box(std::fs::read(entry).unwrap());
                }
            }
            1
        });
        report("load + check all shipped rulesets vs read files", scripted, native, "times/s");
    }

    if wanted("repl") {
        // REPL start-up, against loading its ruleset alone.
        let scripted = rate(|| {
            black_box(
                Session::new(&["ff-napoleonic".to_string()], Switches::default(), Some(rules_dir()), false).unwrap(),
            );
            1
        });
        let native = rate(|| {
            black_box(ff());
            1
        });
        report("REPL start-up vs loading its ruleset", scripted, native, "starts/s");
    }
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

fn humantime(d: Duration) -> String {
    if d.as_secs() >= 1 { format!("{}s", d.as_secs()) } else { format!("{}ms", d.as_millis()) }
}
