//! The exact odds engine held to the references: replaying every face (on calls small
//! enough for it) outcome for outcome, and sampling, across the shipped rulesets.

use grognard::dice::EnumLimits;
use grognard::script::{Host, Limits, Outcome, ProcedureOdds};
use num_traits::Zero;
use rhai::Scope;

use crate::support::{host, switched};

/// The same call's odds through the engine and by replaying every face, which must be complete.
fn both_ways(host: &Host, call: &str) -> (ProcedureOdds, ProcedureOdds) {
    let limits = EnumLimits { max_outcomes: 2_000_000, max_depth: 64 };
    // Replaying every face is the slow reference, longer than a player is asked to wait
    // (`Limits::for_walk`), most of all in a debug build on a busy machine: it is given the time.
    host.set_walk_limits(Limits { max_operations: 2_000_000_000, time_limit: None, ..Limits::for_walk() });
    host.set_exact_engine(true);
    let engine = host.odds(&Scope::new(), call, limits, (100, 1)).unwrap_or_else(|e| panic!("{call}: {e}"));
    host.set_exact_engine(false);
    let replayed = host.odds(&Scope::new(), call, limits, (100, 1)).unwrap_or_else(|e| panic!("{call}: {e}"));
    host.set_exact_engine(true);
    assert!(replayed.exact && replayed.distribution.residual().is_zero(), "{call}: the reference is not whole");
    (engine, replayed)
}

fn agree(host: &Host, calls: &[String]) {
    for call in calls {
        let (engine, replayed) = both_ways(host, call);
        assert!(engine.exact && engine.sampled.is_none(), "{call}");
        let chances = |odds: &ProcedureOdds| odds.distribution.iter().map(|(o, p)| (o.clone(), p)).collect::<Vec<_>>();
        assert_eq!(chances(&engine), chances(&replayed), "{call}");
        assert!(engine.distribution.residual().is_zero(), "{call}");
        // The engine walks its own choices, never more than the reference's faces.
        assert!(engine.runs <= replayed.runs, "{call}: {} runs against {}", engine.runs, replayed.runs);
    }
}

const LINE: &str = r#"unit(#{name: "L", nation: "britain", arm: "infantry", stands: 6, formation: "line"})"#;
const COLUMN: &str =
    r#"unit(#{name: "C", nation: "france", arm: "infantry", stands: 6, formation: "column", markers: #{fresh: true}})"#;
const LED: &str = r#"{ let c = unit(#{name: "P", nation: "prussia", arm: "infantry", stands: 5, formation: "column"});
    c.attach(leader(#{name: "Kleist"})); c }"#;

#[test]
fn fire_and_fury_procedures_agree_with_every_face_replayed() {
    let calls = vec![
        format!("fire({LINE}, {COLUMN}, #{{range: 2}})"),
        format!("fire({LINE}, {LED}, #{{fire_points: 10}})"),
        format!(
            "let t = {LED}; fire({LINE}, t, #{{range: 1, cover: [\"woods\"]}}); [t.stands, t.order, t.leaders.len()]"
        ),
        format!("maneuver({COLUMN}, #{{commander_rating: \"good\"}})"),
        format!(
            "let a = {COLUMN}; let b = {LINE}; fire(a, b, #{{range: 2}}); fire(b, a, #{{range: 2}}); [a.stands, b.stands]"
        ),
    ];
    agree(&host(&["ff-napoleonic"]), &calls);
    // Another reading of the fallen-leader trigger rolls 2d6 for the musketry.
    let other = Host::new(switched("ff-napoleonic", &[], &[("fallen_leader_trigger", "musketry_2d6")])).unwrap();
    agree(&other, &calls[..3]);
}

#[test]
fn volleys_agree_with_every_face_replayed() {
    let firer = |n: u32| format!(r#"unit(#{{name: "A", arm: "infantry", stands: {n}, formation: "line"}})"#);
    let target = r#"unit(#{name: "B", arm: "infantry", stands: 3, formation: "line"})"#;
    let calls: Vec<String> =
        [(2, "#{cover: \"cover\"}"), (3, "#{range: \"long\"}"), (2, "#{first_volley: true, cover: \"fortified\"}")]
            .iter()
            .map(|(n, situation)| format!("let b = {target}; volley({}, b, {situation}); b.stands", firer(*n)))
            .collect();
    agree(&host(&["volley-example"]), &calls);
    let average = Host::new(switched("volley-example", &["average_dice"], &[])).unwrap();
    agree(&average, &calls);
}

#[test]
fn linear_warfare_procedures_agree_with_every_face_replayed() {
    let calls = vec![
        r#"fallen_leader(leader(#{name: "Kleist"}), #{})"#.to_string(),
        r#"let b = unit(#{name: "Beaten", arm: "infantry", grade: "2", stands: 6, formation: "line", order: "rout"});
           let v = unit(#{name: "Victor", arm: "cavalry", grade: "2", stands: 4, formation: "line"});
           trophies_of_war(b, v, 2).len()"#
            .to_string(),
        r#"let c = unit(#{name: "Highlanders", arm: "infantry", grade: "2", stands: 6, formation: "line", markers: #{doctrine: "cold_steel", impetuous: true}});
           let d = unit(#{name: "Hussars", arm: "cavalry", type: "light", grade: "1", stands: 2, formation: "line"});
           charge_combat(c, d, #{charger_run_in: 3}).result"#
            .to_string(),
    ];
    agree(&host(&["linear-warfare"]), &calls);
}

#[test]
fn a_republique_firefight_agrees_with_every_face_replayed() {
    let host = Host::new(switched("republique", &["attrition_die", "firefights"], &[])).unwrap();
    let call = r#"let a = unit(#{name: "A", arm: "infantry", stands: 6, formation: "column", grade: "veteran"});
        let d = unit(#{name: "D", arm: "infantry", stands: 5, formation: "line"});
        let r = assault(a, d, #{}); [r.result, r.attrition.attacker, a.stands, d.stands]"#;
    agree(&host, &[call.to_string()]);
}

#[test]
fn the_melee_study_agrees_with_sampling() {
    // Every desperate struggle is beyond replaying faces; 20,000 sampled melees must fall
    // within five standard errors of each exact chance.
    let call = r#"let f = unit(#{ name: "4e Ligne", nation: "france", arm: "infantry", stands: 6, formation: "column", markers: #{ fresh: true } });
        let a = unit(#{ name: "IR 4 Deutschmeister", nation: "austria", arm: "infantry", stands: 5, formation: "line" });
        melee(f, a, #{ year: 1809 }).result"#;
    let host = host(&["ff-napoleonic"]);
    let exact = host.odds(&Scope::new(), call, EnumLimits::default(), (100, 1)).unwrap();
    assert!(exact.exact && exact.cut_off_at.is_none() && exact.distribution.residual().is_zero());
    host.set_exact_engine(false);
    let n = 20_000;
    let sampled = host.odds(&Scope::new(), call, EnumLimits { max_outcomes: 1, max_depth: 64 }, (n, 7)).unwrap();
    assert!(!sampled.exact);
    for (outcome, p) in exact.distribution.iter() {
        let p = grognard::dice::to_f64(&p);
        let seen = grognard::dice::to_f64(&sampled.distribution.probability(outcome));
        let error = (p * (1.0 - p) / n as f64).sqrt();
        assert!((seen - p).abs() <= 5.0 * error + 1e-4, "{outcome}: exact {p}, sampled {seen}");
    }
    assert!(exact.distribution.probability(&Outcome::Word("swept".into())) > num_rational::BigRational::zero());
}

#[test]
fn a_procedure_that_cannot_roll_is_run_plainly_unless_redefined_to_roll() {
    // `fire_row` rolls nothing, so the engine runs it as it is inside `fire`. Typed again
    // (as at the REPL) to roll a die, the walk must still count that die.
    let host = host(&["ff-napoleonic"]);
    let plain = format!("fire({LINE}, {COLUMN}, #{{fire_points: 6}}).row");
    let (engine, _) = both_ways(&host, &plain);
    assert_eq!(
        engine.distribution.iter().map(|(o, p)| (o.clone(), p)).collect::<Vec<_>>(),
        [(Outcome::Number(6), num_rational::BigRational::from_integer(1.into()))]
    );
    let rolled = format!("fn fire_row(points) {{ roll(\"1d6\").total }} {plain}");
    let (engine, replayed) = both_ways(&host, &rolled);
    let chances = |odds: &ProcedureOdds| odds.distribution.iter().map(|(o, p)| (o.clone(), p)).collect::<Vec<_>>();
    assert_eq!(chances(&engine), chances(&replayed));
    let sixth = num_rational::BigRational::new(1.into(), 6.into());
    assert_eq!(chances(&engine), (1..=6).map(|n| (Outcome::Number(n), sixth.clone())).collect::<Vec<_>>());
}

#[test]
fn units_made_again_in_every_replay_start_as_written() {
    // A walk reads a unit's spec once and makes the unit from it again in every replay: a
    // unit changed in one replay (or earlier in the same one) leaves the next as written.
    let host = host(&["ff-napoleonic"]);
    let code = format!("let a = {LINE}; a.stands -= roll(\"1d2\").total; let b = {LINE}; [a.stands, b.stands]");
    let odds = host.odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap();
    let half = num_rational::BigRational::new(1.into(), 2.into());
    let rows: Vec<(String, num_rational::BigRational)> =
        odds.distribution.iter().map(|(o, p)| (o.to_string(), p)).collect();
    assert_eq!(rows, [("[4, 6]".to_string(), half.clone()), ("[5, 6]".to_string(), half)]);
    // A spec with a mistake is refused each time, never kept.
    let bad = r#"let a = unit(#{name: "X", arm: "infantry", stands: 6, formation: "lnie"}); roll("1d2").total"#;
    assert!(host.odds(&Scope::new(), bad, EnumLimits::default(), (100, 1)).is_err());
}

/// The fixture ruleset whose procedures' calls a walk may keep, or must make afresh.
fn kept_calls() -> Host {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/kept-calls");
    host(&[dir.to_str().unwrap()])
}

fn chances(odds: &ProcedureOdds) -> Vec<(String, num_rational::BigRational)> {
    odds.distribution.iter().map(|(o, p)| (o.to_string(), p)).collect()
}

#[test]
fn a_kept_call_gives_what_the_call_gives_and_one_handed_a_unit_is_made_afresh() {
    // `losses` calls `doubled` (pure: kept by its argument) and `stands_of` and
    // `first_stands` (handed the unit, alone or in a list, whose stands fall between calls).
    let host = kept_calls();
    let compiled = host.compiled_procedures();
    for name in ["losses", "doubled", "stands_of", "first_stands"] {
        assert!(compiled.iter().any(|n| n == name), "{name} is not compiled: {compiled:?}");
    }
    let code = r#"losses(unit(#{name: "U", arm: "infantry", stands: 6, formation: "line"}))"#;
    let (engine, replayed) = both_ways(&host, code);
    assert_eq!(chances(&engine), chances(&replayed));
    // Counted here: each of the 2 x 2 x 2 ways the losses fall, the stands left after each.
    let mut expected = std::collections::BTreeMap::new();
    for ways in 0..8u32 {
        let (mut stands, mut total) = (6i64, 0i64);
        for k in 0..3 {
            let lost = 1 + i64::from((ways >> k) & 1);
            stands -= lost;
            total += stands * 110 + lost * 2;
        }
        *expected.entry(total).or_insert(0u32) += 1;
    }
    let expected: Vec<(String, num_rational::BigRational)> = expected
        .into_iter()
        .map(|(total, n)| (total.to_string(), num_rational::BigRational::new(n.into(), 8.into())))
        .collect();
    let mut got = chances(&engine);
    got.sort_by_key(|(o, _)| o.parse::<i64>().unwrap());
    assert_eq!(got, expected);
}

#[test]
fn a_call_read_for_one_field_branches_over_that_field_alone() {
    let host = kept_calls();
    let third = |n: i64| num_rational::BigRational::new(n.into(), 36.into());
    // `skirmish().result` reads one field: the walk branches over its two values, not over
    // the 66 ways the returned map can differ (margin and spare die).
    let (projected, replayed) = both_ways(&host, "skirmish().result");
    assert_eq!(chances(&projected), chances(&replayed));
    let mut got = chances(&projected);
    got.sort();
    assert_eq!(got, [("held".to_string(), third(21)), ("won".to_string(), third(15))]);
    assert_eq!(projected.runs, 2);
    // The same read in two statements is walked over every outcome of the call, alike.
    let whole = host.odds(&Scope::new(), "let r = skirmish(); r.result", EnumLimits::default(), (100, 1)).unwrap();
    assert_eq!(chances(&whole), chances(&projected));
    assert_eq!(whole.runs, 66);
    // A field the map lacks reads as nothing, as Rhai reads it.
    let (missing, replayed) = both_ways(&host, "skirmish().missing");
    assert_eq!(chances(&missing), chances(&replayed));
    assert_eq!(chances(&missing), [("(nothing)".to_string(), third(36))]);
}

#[test]
fn a_note_nobody_reads_is_skipped_only_where_its_words_cannot_fail() {
    let host = kept_calls();
    // The note reads two totals and `sign_of(margin)`, which cannot fail: skipped, the
    // odds are still those of every face replayed (the note's words are never read).
    let (engine, replayed) = both_ways(&host, "noted_duel()");
    assert_eq!(chances(&engine), chances(&replayed));
    let of = |n: i64| num_rational::BigRational::new(n.into(), 72.into());
    let mut got = chances(&engine);
    got.sort();
    // The first die wins in 15 ways of 36, and the third shows 4 or more half the time.
    assert_eq!(got, [("held".to_string(), of(42)), ("won".to_string(), of(15)), ("won well".to_string(), of(15))]);
    // `sign_of` typed again to fail: the note must be worked out, and fails as it does replayed.
    let redefined = r#"fn sign_of(n) { throw "refused" } noted_duel()"#;
    fails_both_ways(&host, redefined, "refused");
    // A note that divides by zero on a 3 fails both ways, the engine's too.
    fails_both_ways(&host, "noted_failure()", "zero");
}

#[test]
fn opposed_dice_read_only_for_their_difference_agree_with_every_face() {
    let host = kept_calls();
    let (engine, replayed) = both_ways(&host, "opposed()");
    assert_eq!(chances(&engine), chances(&replayed));
    // Counted here over the 6 x 6 x 6 ways the three dice fall.
    let pressed = (1..=6i64)
        .flat_map(|a| (1..=6i64).flat_map(move |b| (1..=6i64).map(move |c| a - b + c)))
        .filter(|&sum| sum > 3)
        .count() as i64;
    let of = |n: i64| num_rational::BigRational::new(n.into(), 216.into());
    let mut got = chances(&engine);
    got.sort();
    assert_eq!(got, [("held".to_string(), of(216 - pressed)), ("pressed".to_string(), of(pressed))]);
    // The difference divides by zero on a 3: the engine fails as every face replayed does.
    fails_both_ways(&host, "opposed_failure()", "zero");
}

/// `code`'s odds fail through the engine and replayed face by face, each error saying `word`.
fn fails_both_ways(host: &Host, code: &str, word: &str) {
    for engine in [true, false] {
        host.set_exact_engine(engine);
        let err = host.odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap_err();
        assert!(err.to_string().to_lowercase().contains(word), "{code}, engine {engine}: {err}");
    }
    host.set_exact_engine(true);
}

#[test]
fn code_asked_again_is_run_again_with_what_its_scope_holds_now() {
    // `odds` keeps the code it compiled last: asked again, the answer is the same, and a
    // variable or a constant in scope is read as it stands now.
    let host = kept_calls();
    let odds = |scope: &Scope, code: &str| chances(&host.odds(scope, code, EnumLimits::default(), (100, 1)).unwrap());
    let first = odds(&Scope::new(), "skirmish().result");
    assert_eq!(odds(&Scope::new(), "skirmish().result"), first);
    let one = num_rational::BigRational::from_integer(1.into());
    // The same code one after the other, with another value each time.
    for n in [3i64, 4] {
        let mut scope = Scope::new();
        scope.push("n", n);
        assert_eq!(odds(&scope, "doubled(n)"), [((2 * n).to_string(), one.clone())]);
    }
    for n in [3i64, 4] {
        let mut scope = Scope::new();
        scope.push_constant("N", n);
        assert_eq!(odds(&scope, "doubled(N)"), [((2 * n).to_string(), one.clone())]);
    }
}

#[test]
fn modifiers_asked_again_after_the_same_faces_give_what_they_gave_and_a_tallying_condition_tallies_each_run() {
    // `push` asks the same modifiers before its die in every run (kept from the first run),
    // then modifiers reading the die, then a list whose conditions tally and roll as Rhai
    // asks them: never kept.
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/replayed-modifiers");
    let host = host(&[dir.to_str().unwrap()]);
    for steady in [true, false] {
        let code = format!("push({steady})");
        let (engine, replayed) = both_ways(&host, &code);
        // Counted here: each face of the die, the steady +1 before it and after it, +2 on a 5
        // or 6; then the tally's +1, and +1 more when the coin shows 2.
        let mut expected = Vec::new();
        for die in 1..=6i64 {
            for coin in 1..=2i64 {
                let before = i64::from(steady);
                let after = before + if die >= 5 { 2 } else { 0 };
                let counted = 1 + i64::from(coin == 2);
                let value = die + before * 10 + after * 100 + counted * 1000;
                expected.push((value, num_rational::BigRational::new(1.into(), 12.into())));
            }
        }
        expected.sort();
        let expected: Vec<_> = expected.into_iter().map(|(v, p)| (v.to_string(), p)).collect();
        for odds in [&engine, &replayed] {
            let mut got = chances(odds);
            got.sort_by_key(|(o, _)| o.parse::<i64>().unwrap());
            assert_eq!(got, expected, "{code}");
            // Every run tallied once: the condition Rhai evaluated was asked in each.
            let grognard::script::ObservedOdds::Exact(observed) = &odds.observed else { panic!("sampled") };
            let asked = &observed.tallies["asked"];
            assert!(observed.once(asked), "{code}");
            let rows: Vec<_> = asked.rows(true).into_iter().map(|(v, p)| (v.clone(), p)).collect();
            assert_eq!(rows, vec![("yes".to_string(), num_rational::BigRational::from_integer(1.into()))], "{code}");
        }
    }
}

#[test]
fn a_study_keeps_the_calls_of_values_alike_but_for_their_tags_apart() {
    // A study keeps a compiled procedure's calls by their arguments (`script::dice_paths`):
    // a value tagged otherwise is another argument, whose call is not the one kept.
    let host = kept_calls();
    assert!(host.compiled_procedures().iter().any(|n| n == "tag_of"));
    host.set_studying(true);
    host.set_tracing(false);
    for tag in [1, 2, 1, 3, 3] {
        let code = format!("let v = 5; v.tag = {tag}; tag_of(v)");
        let value = host.eval(&mut Scope::new(), &code).unwrap().value;
        assert_eq!(value.as_int(), Ok(tag), "tagged {tag}");
    }
    let (looked_up, found) = host.kept_calls().unwrap();
    assert_eq!((looked_up, found), (5, 2), "the second call tagged 1, and the second tagged 3");
}
