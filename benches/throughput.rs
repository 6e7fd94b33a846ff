//! Benchmarks: each scripted workload is timed in the same run as a native Rust
//! baseline doing the same work, in turns (ten rounds of a slice of each), and
//! reported as a ratio, with the smallest and the median round's ratio, because
//! this machine is shared and noisy and only ratios measured together mean anything.
//!
//! `cargo bench` runs each workload for about a second; `GROGNARD_BENCH_QUICK=1
//! cargo bench` runs each for a few milliseconds (CI: it builds and runs).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use grognard::dice::{EnumLimits, RollSource, Seeded, parse};
use grognard::repl::Session;
use grognard::rules::RowKey;
use grognard::rules::{Ruleset, Switches, load};
use grognard::script::Host;
use num_rational::BigRational;
use num_traits::{One, Zero};
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

/// What `interleaved` measured: each side's calls per second over all its slices, and the
/// ratio native/scripted of each round (one slice of each, back to back).
struct Paired {
    scripted: f64,
    native: f64,
    ratios: Vec<f64>,
}

impl Paired {
    /// The native side's rate over the scripted side's, over every round together.
    fn ratio(&self) -> f64 {
        self.native / self.scripted
    }

    /// The smallest and the median round's ratio: one noisy round moves neither far.
    fn min_median(&self) -> (f64, f64) {
        let mut r = self.ratios.clone();
        r.sort_by(f64::total_cmp);
        (r[0], r[r.len() / 2])
    }
}

/// Rounds `interleaved` runs, a slice of each side per round.
const ROUNDS: u32 = 10;

/// Times `scripted` and `native` in turns, a tenth of the budget each at a time, so that a
/// noisy moment of this shared machine falls on both; returns the calls per second of each
/// and the ratio of each round.
fn interleaved(mut scripted: impl FnMut() -> u64, mut native: impl FnMut() -> u64) -> Paired {
    let slice = budget() / ROUNDS;
    let (mut s_calls, mut s_time, mut n_calls, mut n_time) = (0u64, Duration::ZERO, 0u64, Duration::ZERO);
    let mut ratios = Vec::new();
    for _ in 0..ROUNDS {
        let (mut s_round, mut n_round) = (0u64, 0u64);
        let start = Instant::now();
        while start.elapsed() < slice {
            s_round += scripted();
        }
        let s_elapsed = start.elapsed();
        let start = Instant::now();
        while start.elapsed() < slice {
            n_round += native();
        }
        let n_elapsed = start.elapsed();
        ratios.push((n_round as f64 / n_elapsed.as_secs_f64()) / (s_round as f64 / s_elapsed.as_secs_f64()));
        (s_calls, s_time, n_calls, n_time) =
            (s_calls + s_round, s_time + s_elapsed, n_calls + n_round, n_time + n_elapsed);
    }
    Paired { scripted: s_calls as f64 / s_time.as_secs_f64(), native: n_calls as f64 / n_time.as_secs_f64(), ratios }
}

/// A workload of exact odds against its target: the time of one, and its ratio to a native
/// computation of the same distribution timed in the same run.
fn report_exact(name: &str, p: &Paired, target_ms: f64) {
    let ms = 1000.0 / p.scripted;
    let verdict = if ms <= target_ms { "met" } else { "NOT met" };
    let (min, median) = p.min_median();
    println!(
        "{name:<44} {ms:>10.3} ms (target {target_ms} ms: {verdict})   native {:>10.4} ms   ratio {:>8.1}x slower   rounds: min {min:.1}x, median {median:.1}x",
        1000.0 / p.native,
        p.ratio()
    );
}

fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

fn ff() -> Ruleset {
    load(&["ff-napoleonic".to_string()], &rules_dir()).expect("ff-napoleonic loads").ruleset
}

fn report(name: &str, p: &Paired, unit: &str) {
    let (min, median) = p.min_median();
    println!(
        "{name:<44} {:>14.0} {unit:<12} native {:>14.0}   ratio {:>8.1}x slower   rounds: min {min:.1}x, median {median:.1}x",
        p.scripted,
        p.native,
        p.ratio()
    );
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
        let d6 = grognard::dice::Die::standard(6);
        let mut raw = Seeded::new(1);
        let paired = interleaved(
            || {
                for _ in 0..1000 {
                    black_box(expr.value(&mut source).unwrap());
                }
                1000
            },
            || {
                for _ in 0..1000 {
                    black_box(raw.face(d6).unwrap() + raw.face(d6).unwrap());
                }
                1000
            },
        );
        report("dice: 2d6 expression vs two raw faces", &paired, "rolls/s");
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
        let paired = interleaved(
            || {
                host.run(&mut scope, &fire_loop, "").unwrap();
                batch
            },
            || {
                for _ in 0..1000 {
                    let total = dice.face(d10).unwrap();
                    black_box(musketry.read_grid(&RowKey::Number(6), total).unwrap());
                }
                1000
            },
        );
        report("fire: scripted fire() vs native table read", &paired, "fires/s");
    }

    if wanted("melee") {
        // Melee: the scripted procedure against two native d10s and the melee table, re-rolling ties.
        let melee_loop = host
            .compile(&scope, &format!("for i in 0..{batch} {{ a.stands = 6; b.stands = 6; a.order = \"good_order\"; b.order = \"good_order\"; melee(b, a, #{{}}); }}"))
            .unwrap();
        let melee = &ruleset.tables["melee"];
        let paired = interleaved(
            || {
                host.run(&mut scope, &melee_loop, "").unwrap();
                batch
            },
            || {
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
            },
        );
        report("melee: scripted melee() vs native table read", &paired, "melees/s");
    }

    exact_targets(&ruleset);

    if wanted("peer") {
        fire_study_against_python(&ruleset);
    }

    if wanted("memory") {
        study_memory(&ruleset);
    }

    if wanted("load") {
        // Loading and checking every shipped ruleset, against reading their files.
        let ids = ["ff-napoleonic", "linear-warfare", "republique", "ff-house-example"];
        let paired = interleaved(
            || {
                for id in ids {
                    let loaded = load(&[id.to_string()], &rules_dir()).unwrap();
                    black_box(Host::new(loaded.ruleset).unwrap());
                }
                1
            },
            || {
                for id in ids {
                    for entry in walk(&rules_dir().join(id)) {
                        black_box(std::fs::read(entry).unwrap());
                    }
                }
                1
            },
        );
        report("load + check all shipped rulesets vs read files", &paired, "times/s");
    }

    if wanted("repl") {
        // REPL start-up, against loading its ruleset alone.
        let paired = interleaved(
            || {
                black_box(
                    Session::new(
                        &["ff-napoleonic".to_string()],
                        Switches::default(),
                        Some(rules_dir()),
                        grognard::present::diagnostic::Look::Plain,
                    )
                    .unwrap(),
                );
                1
            },
            || {
                black_box(ff());
                1
            },
        );
        report("REPL start-up vs loading its ruleset", &paired, "starts/s");
    }
}

/// A study of one F&F fire a trial (`scripts/ff_fire_study.rhai`, on one worker) against the
/// plain-Python peer resolving the same fire (`benches/peers/ff_fire_python.py`, a copy of the
/// peer the project compares with), in turns: trials per second of each, and their ratio each
/// round. Our side's time includes building its engine and compiling (tens of milliseconds);
/// the peer times its own loop only. Skipped, saying so, where there is no `python3`.
fn fire_study_against_python(ruleset: &Ruleset) {
    let quick = std::env::var_os("GROGNARD_BENCH_QUICK").is_some();
    let (trials, rounds): (u64, usize) = if quick { (20_000, 1) } else { (500_000, 5) };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script = std::fs::read_to_string(root.join("scripts/ff_fire_study.rhai")).expect("the fire study");
    let peer = root.join("benches/peers/ff_fire_python.py");
    let python = |n: u64| -> Option<f64> {
        let out = std::process::Command::new("python3").arg(&peer).arg(n.to_string()).output().ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        let rate = text.strip_prefix("python fire MC: ")?.split_whitespace().next()?;
        rate.replace(',', "").parse().ok()
    };
    let mut ratios = Vec::new();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let study = grognard::run::Study {
            script: &script,
            name: "ff_fire_study.rhai",
            ruleset,
            seed: 1,
            folder: &root.join("scripts"),
            first: 0,
            count: trials,
            jobs: 1,
            limits: grognard::script::Limits::default(),
            keep_going: false,
            target: None,
        };
        let start = Instant::now();
        let outcome = grognard::run::run(&study, &|_| {}).unwrap_or_else(|_| panic!("the fire study runs"));
        let rate = trials as f64 / start.elapsed().as_secs_f64();
        assert_eq!(outcome.sums.trials, trials);
        let Some(peer_rate) = python(trials) else {
            println!("fire study vs the Python peer: peer not measured (no python3 here); ours {rate:.0} trials/s");
            return;
        };
        ours.push(rate);
        theirs.push(peer_rate);
        ratios.push(rate / peer_rate);
    }
    let median = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let worst = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "{:<44} {:>14.0} trials/s     python {:>14.0} /s   ratio {:>8.2}x as fast   rounds: min {worst:.2}x, median {:.2}x",
        "fire study (1 job) vs Python peer (1 core)",
        median(&ours),
        median(&theirs),
        median(&ratios),
        median(&ratios)
    );
}

/// A study's peak memory at a small and a large number of trials, in the same run: a study sums
/// its trials as they finish, so the large one should need no more than the small one.
fn study_memory(ruleset: &Ruleset) {
    let script = "let r = roll(\"1d6\", \"face\"); tally(\"face\", r.total); record(\"face\", r.total);";
    let large: u64 = if std::env::var_os("GROGNARD_BENCH_QUICK").is_some() { 100_000 } else { 10_000_000 };
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut peaks = Vec::new();
    for count in [10_000, large] {
        let Some(()) = reset_peak_memory() else {
            println!("study memory: not measured (this system has no /proc/self/clear_refs)");
            return;
        };
        let study = grognard::run::Study {
            script,
            name: "memory.rhai",
            ruleset,
            seed: 1,
            folder: std::path::Path::new("."),
            first: 0,
            count,
            jobs,
            limits: grognard::script::Limits::default(),
            keep_going: false,
            target: None,
        };
        let start = Instant::now();
        let outcome = grognard::run::run(&study, &|_| {}).unwrap_or_else(|_| panic!("the memory study runs"));
        let elapsed = start.elapsed();
        assert_eq!(outcome.sums.trials, count);
        let peak = peak_memory_kb().unwrap_or(0);
        println!(
            "{:<44} {:>14} trials  peak {:>8.1} MB   {:>12.0} trials/s on {jobs} jobs",
            "study memory: one roll, tallied and recorded",
            count,
            peak as f64 / 1024.0,
            count as f64 / elapsed.as_secs_f64()
        );
        peaks.push(peak);
    }
    println!(
        "{:<44} {:>14.2}x the peak memory for {}x the trials",
        "study memory: large over small",
        peaks[1] as f64 / peaks[0].max(1) as f64,
        large / 10_000
    );
}

/// Resets this process's peak resident memory (Linux: `echo 5 > /proc/self/clear_refs`).
fn reset_peak_memory() -> Option<()> {
    std::fs::write("/proc/self/clear_refs", "5").ok()
}

/// This process's peak resident memory since the last reset, in KB (`VmHWM`).
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
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

/// The exact-odds workloads of the odds engine, each against a native computation of the same
/// distribution (checked equal before timing) in the same run.
fn exact_targets(ruleset: &Ruleset) {
    let host = Host::new(ruleset.clone()).unwrap();
    host.set_tracing(false);
    let melee_table = &ruleset.tables["melee"];
    let melees = [
        (
            "exact melee study",
            "exact: the melee study's melee, every struggle",
            r#"unit(#{ name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column", markers: #{ fresh: true } })"#,
            r#"unit(#{ name: "IR 4 Deutschmeister", nation: "austria", arm: "infantry", stands: 5, formation: "line" })"#,
            "#{ year: 1809 }",
            5.0,
        ),
        (
            "exact hedge melee",
            "exact: the hedge melee of ff_engagement",
            r#"unit(#{ name: "1/4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column", markers: #{ fresh: true } })"#,
            r#"unit(#{ name: "1/52nd Foot", nation: "britain", arm: "infantry", stands: 6, formation: "line" })"#,
            r#"#{ cover: "hedge", year: 1812 }"#,
            20.0,
        ),
    ];
    for (key, name, attacker, defender, situation, target) in melees {
        if !wanted(key) {
            continue;
        }
        let code = format!("melee({attacker}, {defender}, {situation}).result");
        let rounds = melee_rounds(&host, attacker, defender, situation);
        let engine = host.odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap();
        let native = native_melee(melee_table, &rounds);
        let engine: BTreeMap<String, BigRational> =
            engine.distribution.iter().map(|(o, p)| (o.to_string(), p)).collect();
        assert_eq!(engine, native, "{name}: the engine and the native count disagree");
        let paired = interleaved(
            || {
                black_box(host.odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap());
                1
            },
            || {
                black_box(native_melee(melee_table, &rounds));
                1
            },
        );
        report_exact(name, &paired, target);
    }

    if wanted("exact fire") {
        let code = format!("fire({LINE}, {COLUMN}, #{{fire_points: 6}}).result");
        let musketry = &ruleset.tables["musketry"];
        let paired = interleaved(
            || {
                black_box(host.odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap());
                1
            },
            || {
                let mut results: BTreeMap<String, BigRational> = BTreeMap::new();
                for die in 1..=10 {
                    let reading = musketry.read_grid(&RowKey::Number(6), die).unwrap();
                    let id = reading.result.map_or_else(String::new, |r| r.id.clone());
                    *results.entry(id).or_insert_with(BigRational::zero) += BigRational::new(1.into(), 10.into());
                }
                black_box(results);
                1
            },
        );
        report_exact("exact: one F&F fire", &paired, 0.1);
    }

    let volley = load(&["volley-example".to_string()], &rules_dir()).expect("volley-example loads").ruleset;
    let volley_host = Host::new(volley).unwrap();
    let pools = [
        ("exact volley", "exact: a volley of 6 dice, 4+ then saves on 5+", 6, "lost", 1.0),
        ("exact 24d6", "exact: 24d6 hits 4+ inside a procedure", 24, "hits", 5.0),
    ];
    for (key, name, stands, field, target) in pools {
        if !wanted(key) {
            continue;
        }
        let code = format!(
            r#"volley(unit(#{{name: "A", arm: "infantry", stands: {stands}, formation: "line"}}), unit(#{{name: "B", arm: "infantry", stands: 40, formation: "line"}}), #{{cover: "cover"}}).{field}"#
        );
        let half = BigRational::new(1.into(), 2.into());
        let saved = BigRational::new(1.into(), 3.into());
        let native_volley = || {
            let hits = binomial(stands, &half);
            if field == "hits" {
                return hits;
            }
            // Each hit saved with 1/3 in cover: lost = hits - saved.
            let mut lost = vec![BigRational::zero(); stands as usize + 1];
            for (h, p) in hits.iter().enumerate() {
                for (s, q) in binomial(h as u32, &saved).iter().enumerate() {
                    lost[h - s] += p * q;
                }
            }
            lost
        };
        let engine = volley_host.odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap();
        for (n, p) in native_volley().iter().enumerate() {
            let got = engine.distribution.probability(&grognard::script::Outcome::Number(n as i64));
            assert_eq!(&got, p, "{name} at {n}");
        }
        let paired = interleaved(
            || {
                black_box(volley_host.odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap());
                1
            },
            || {
                black_box(native_volley());
                1
            },
        );
        report_exact(name, &paired, target);
    }
    exact_card_turn();
}

/// A linear-warfare turn of card draws on a fresh deck, exact, against the same chances
/// counted natively from the deck's composition.
fn exact_card_turn() {
    if !wanted("exact card turn") {
        return;
    }
    let lw = load(&["linear-warfare".to_string()], &rules_dir()).expect("linear-warfare loads").ruleset;
    // The deck's colours, from its table: each suit's ranks, space-separated.
    let (mut red, mut black) = (0i64, 0i64);
    if let grognard::rules::TableBody::Lookup { values: grognard::rules::LookupValue::Map(colours), .. } =
        &lw.tables["card_deck"].body
    {
        for (colour, suits) in colours {
            if let grognard::rules::LookupValue::Map(suits) = suits {
                let cards: i64 = suits.values().map(|ranks| ranks.to_string().split(' ').count() as i64).sum();
                if colour == "red" { red += cards } else { black += cards }
            }
        }
    }
    assert_eq!((red, black), (18, 18), "the deck's colours");
    let host = Host::new(lw).unwrap();
    host.set_tracing(false);
    let code = r#"let day = card_day(#{runs: 2, sides: [#{name: "french", colour: "red", trumps: 0}, #{name: "allies", colour: "black", trumps: 0}]});
        let s = ""; for p in day.play_turn().phases { s += p[0]; } s"#;
    let engine = host.odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap();
    assert!(engine.exact, "the card turn is exact");
    let engine: BTreeMap<String, BigRational> = engine.distribution.iter().map(|(o, p)| (o.to_string(), p)).collect();
    assert_eq!(engine, native_turn(red, black), "the card turn: the engine and the native count disagree");
    let paired = interleaved(
        || {
            black_box(host.odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap());
            1
        },
        || {
            black_box(native_turn(red, black));
            1
        },
    );
    report_exact("exact: a linear-warfare turn of card draws", &paired, 1000.0);
}

/// The chance of each turn's sequence of phases (`f` French, red; `a` allies, black; two each)
/// as cards are drawn from `red` and `black` until both sides have had theirs: a card of a
/// side that has had its phases is a surplus card.
fn native_turn(red: i64, black: i64) -> BTreeMap<String, BigRational> {
    let mut out: BTreeMap<String, BigRational> = BTreeMap::new();
    let mut states = vec![((red, black), (0i64, 0i64), String::new(), BigRational::one())];
    while let Some(((r, b), (f, a), seq, p)) = states.pop() {
        if f == 2 && a == 2 {
            *out.entry(seq).or_insert_with(BigRational::zero) += p;
            continue;
        }
        let n = r + b;
        if r > 0 {
            let (f, seq) = if f < 2 { (f + 1, format!("{seq}f")) } else { (f, seq.clone()) };
            states.push(((r - 1, b), (f, a), seq, &p * BigRational::new(r.into(), n.into())));
        }
        if b > 0 {
            let (a, seq) = if a < 2 { (a + 1, format!("{seq}a")) } else { (a, seq.clone()) };
            states.push(((r, b - 1), (f, a), seq, &p * BigRational::new(b.into(), n.into())));
        }
    }
    out
}

/// P(k of n), each with chance `p`, for every k.
fn binomial(n: u32, p: &BigRational) -> Vec<BigRational> {
    let q = BigRational::one() - p;
    let mut row = vec![BigRational::one()];
    for _ in 0..n {
        let mut next = vec![BigRational::zero(); row.len() + 1];
        for (k, x) in row.iter().enumerate() {
            next[k] += x * &q;
            next[k + 1] += x * p;
        }
        row = next;
    }
    row
}

/// Each round's melee modifiers (attacker, defender) after 0 to 9 desperate struggles, worked
/// out once by the rules' own functions as `melee()` works them out (setup, not timed).
fn melee_rounds(host: &Host, attacker: &str, defender: &str, situation: &str) -> Vec<(i64, i64)> {
    (0..10)
        .map(|struggles| {
            let code = format!(
                "let a = {attacker}; let d = {defender}; let s = {situation};
                 let start_a = a.stands; let start_d = d.stands; let la = 0; let ld = 0;
                 for i in 0..{struggles} {{
                     disorder(a); disorder(d);
                     la += lose_stands(a, d, 1, start_a); ld += lose_stands(d, a, 1, start_d);
                 }}
                 [melee_modifier(a, d, \"attacker\", s, la), melee_modifier(d, a, \"defender\", s, ld)]"
            );
            let value = host.eval(&mut Scope::new(), &code).unwrap().value.cast::<rhai::Array>();
            (value[0].as_int().unwrap(), value[1].as_int().unwrap())
        })
        .collect()
}

/// The melee's result, natively: each round two d10s plus that round's modifiers read the
/// Melee Table; a desperate struggle goes on to the next round, the tenth is Assault Checked.
fn native_melee(table: &grognard::rules::Table, rounds: &[(i64, i64)]) -> BTreeMap<String, BigRational> {
    let mut results: BTreeMap<String, BigRational> = BTreeMap::new();
    let mut reach = BigRational::one();
    let hundredth = BigRational::new(1.into(), 100.into());
    for (round, (a_mod, d_mod)) in rounds.iter().enumerate() {
        let mut ties = 0i64;
        for a in 1..=10 {
            for d in 1..=10 {
                let reading = table.read_bands(a + a_mod - (d + d_mod)).unwrap();
                let id = reading.result.map_or_else(String::new, |r| r.id.clone());
                let id = match id.as_str() {
                    "desperate_struggle" if round + 1 < rounds.len() => {
                        ties += 1;
                        continue;
                    }
                    "desperate_struggle" => "assault_checked".to_string(),
                    _ => id,
                };
                *results.entry(id).or_insert_with(BigRational::zero) += &reach * &hundredth;
            }
        }
        reach *= BigRational::new(ties.into(), 100.into());
    }
    results
}
