//! What an odds walk gives besides its results: the distributions of fields of the returned
//! map (`--field`), and the observations (`tally`, `record`) of every run weighted by its
//! chance; each against an independent count and against every face replayed.

use std::collections::BTreeMap;

use grognard::dice::{Distribution, EnumLimits};
use grognard::script::{ExactObservations, Host, ObservedOdds, Outcome, ProcedureOdds};
use num_rational::BigRational;
use num_traits::{One, Zero};
use rhai::Scope;

use crate::support::{host, ratio, ruleset};

/// Two equal line battalions: no modifier on either side, in every round (as `ff_napoleonic::melee`).
const EQUAL: &str = r#"let a = unit(#{name: "A", nation: "minor", arm: "infantry", stands: 6, formation: "line"});
    let d = unit(#{name: "D", nation: "minor", arm: "infantry", stands: 6, formation: "line"});"#;

/// The fixture ruleset whose procedures tally and record.
fn tallies() -> Host {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/tallies");
    Host::new(ruleset(&[dir.to_str().unwrap()])).unwrap()
}

fn odds(host: &Host, code: &str, fields: &[&str]) -> ProcedureOdds {
    let fields: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
    host.odds_with_fields(&Scope::new(), code, EnumLimits::default(), (100, 1), &fields)
        .unwrap_or_else(|e| panic!("{code}: {e}"))
}

/// The same code's odds through the engine and by replaying every face (which must be whole).
fn both_ways(host: &Host, code: &str, fields: &[&str]) -> (ProcedureOdds, ProcedureOdds) {
    host.set_exact_engine(true);
    let engine = odds(host, code, fields);
    host.set_exact_engine(false);
    let replayed = odds(host, code, fields);
    host.set_exact_engine(true);
    assert!(replayed.exact && replayed.distribution.residual().is_zero(), "{code}: the reference is not whole");
    assert!(engine.exact && engine.distribution.residual().is_zero(), "{code}");
    // The engine walked the procedure's calls whole, not face by face.
    assert!(engine.runs < replayed.runs, "{code}: {} runs against {}", engine.runs, replayed.runs);
    (engine, replayed)
}

/// Each outcome of `dist` with its chance, reduced (two distributions may count over different totals).
fn chances(dist: &Distribution<Outcome>) -> Vec<(Outcome, BigRational)> {
    dist.iter().map(|(o, p)| (o.clone(), p)).collect()
}

fn field<'a>(odds: &'a ProcedureOdds, name: &str) -> &'a Distribution<Outcome> {
    &odds.fields.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no field {name}")).distribution
}

fn exact(odds: &ProcedureOdds) -> &ExactObservations {
    match &odds.observed {
        ObservedOdds::Exact(exact) => exact,
        ObservedOdds::Sampled { .. } => panic!("sampled"),
    }
}

/// Each tallied value of `key` with its chance per trial (or share of the observations), as text.
fn tallied(odds: &ProcedureOdds, key: &str) -> Vec<(String, BigRational)> {
    let exact = exact(odds);
    let tally = &exact.tallies[key];
    tally.rows(exact.once(tally)).into_iter().map(|(v, p)| (v.clone(), p)).collect()
}

/// Each recorded number of `key` with its chance per trial (or share of the observations).
fn recorded(odds: &ProcedureOdds, key: &str) -> Vec<(BigRational, BigRational)> {
    let exact = exact(odds);
    let record = &exact.records[key];
    record.rows(exact.once(record)).into_iter().map(|(v, p)| (v.clone(), p)).collect()
}

/// One volley of the fixture: hits on 4+, 4+ and 5+, counted over the 2 x 2 x 2 ways the shots go.
fn one_volley() -> BTreeMap<i64, BigRational> {
    let hit = [ratio(1, 2), ratio(1, 2), ratio(1, 3)];
    let mut hits = BTreeMap::new();
    for ways in 0..8u32 {
        let mut p = BigRational::one();
        for (shot, chance) in hit.iter().enumerate() {
            p *= if ways & (1 << shot) != 0 { chance.clone() } else { BigRational::one() - chance };
        }
        *hits.entry(ways.count_ones() as i64).or_insert_with(BigRational::zero) += p;
    }
    hits
}

#[test]
fn the_fields_of_an_even_melee_against_an_independent_count() {
    let host = host(&["ff-napoleonic"]);
    let code = format!("{EQUAL} melee(a, d, #{{}})");
    let odds = odds(&host, &code, &["rounds", "result", "attacker_lost"]);
    assert!(odds.exact && odds.distribution.residual().is_zero());
    // Each round is even: a tie (10 ways in 100) fights again; the tenth round ends the melee
    // whatever it gives (the house cap), so it is reached after nine ties.
    let tie = ratio(10, 100);
    let ties = |k: i64| (0..k).fold(BigRational::one(), |p, _| p * &tie);
    let rounds = field(&odds, "rounds");
    let expected: Vec<(Outcome, BigRational)> = (1..=10)
        .map(|k| (Outcome::Number(k), if k < 10 { ties(k - 1) * (BigRational::one() - &tie) } else { ties(9) }))
        .collect();
    assert_eq!(chances(rounds), expected);
    // The field `result` is the result itself.
    assert_eq!(chances(field(&odds, "result")), chances(&odds.distribution));
    // A field is what Rhai reads from the map, walked on its own.
    let read = host.odds(&Scope::new(), &format!("{code}.attacker_lost"), EnumLimits::default(), (100, 1)).unwrap();
    assert_eq!(chances(field(&odds, "attacker_lost")), chances(&read.distribution));
    assert!(field(&odds, "attacker_lost").len() > 2);
}

#[test]
fn fields_of_a_procedure_agree_with_every_face_replayed_and_an_independent_count() {
    let host = tallies();
    assert!(host.compiled_procedures().iter().any(|n| n == "volley"), "{:?}", host.compiled_procedures());
    let (engine, replayed) = both_ways(&host, "volley()", &["hits", "target.hit"]);
    let one = one_volley();
    let hits: Vec<(Outcome, BigRational)> = one.iter().map(|(h, p)| (Outcome::Number(*h), p.clone())).collect();
    assert_eq!(chances(field(&engine, "hits")), hits);
    assert_eq!(chances(field(&replayed, "hits")), hits);
    // A path into a map: some hit unless all three missed.
    let none = &one[&0];
    let hit = vec![(Outcome::Flag(false), none.clone()), (Outcome::Flag(true), BigRational::one() - none)];
    assert_eq!(chances(field(&engine, "target.hit")), hit);
    assert_eq!(chances(field(&replayed, "target.hit")), hit);
}

#[test]
fn observations_inside_procedures_are_weighted_by_chance() {
    // Two volleys a trial: `volley` is tallied twice (each value's share is one volley's
    // chance), `both` once (its chance per trial); the walk's result is the sum of hits.
    let host = tallies();
    let code = r#"let a = volley(); let b = volley(); tally("both", a.result == b.result); a.hits + b.hits"#;
    let (engine, replayed) = both_ways(&host, code, &[]);
    let one = one_volley();
    let telling: BigRational = one.iter().filter(|(h, _)| **h >= 2).map(|(_, p)| p.clone()).sum();
    let light = BigRational::one() - &telling;

    for odds in [&engine, &replayed] {
        let observed = exact(odds);
        let volley = &observed.tallies["volley"];
        assert!(!observed.once(volley));
        assert_eq!(volley.per_trial(&BigRational::one()), ratio(2, 1));
        assert_eq!(
            tallied(odds, "volley"),
            [("light".to_string(), light.clone()), ("telling".into(), telling.clone())]
        );
        let same = &telling * &telling + &light * &light;
        assert!(observed.once(&observed.tallies["both"]));
        assert_eq!(tallied(odds, "both"), [("false".to_string(), BigRational::one() - &same), ("true".into(), same)]);
        let hits: Vec<(BigRational, BigRational)> =
            one.iter().map(|(h, p)| (BigRational::from_integer((*h).into()), p.clone())).collect();
        assert_eq!(recorded(odds, "hits"), hits);
        // The result: the sum of two volleys' hits.
        let mut sum: BTreeMap<i64, BigRational> = BTreeMap::new();
        for (a, pa) in &one {
            for (b, pb) in &one {
                *sum.entry(a + b).or_insert_with(BigRational::zero) += pa * pb;
            }
        }
        let sum: Vec<(Outcome, BigRational)> = sum.into_iter().map(|(h, p)| (Outcome::Number(h), p)).collect();
        assert_eq!(chances(&odds.distribution), sum);
    }
}

#[test]
fn observations_in_a_loop_the_engine_solves_are_exact() {
    // Fought again on a tie, nothing cut off: a margin k of two different d6 comes 2(6 - k)
    // ways in 30, each side wins half the time.
    let odds = odds(&tallies(), "duel()", &["margin"]);
    assert!(odds.exact && odds.distribution.residual().is_zero());
    assert_eq!(tallied(&odds, "winner"), [("them".to_string(), ratio(1, 2)), ("us".into(), ratio(1, 2))]);
    let margins: Vec<(BigRational, BigRational)> =
        (1..=5).map(|k| (BigRational::from_integer(k.into()), ratio(2 * (6 - k), 30))).collect();
    assert_eq!(recorded(&odds, "margin"), margins);
    let field: Vec<(BigRational, BigRational)> = chances(field(&odds, "margin"))
        .into_iter()
        .map(|(o, p)| match o {
            Outcome::Number(n) => (BigRational::from_integer(n.into()), p),
            other => panic!("{other}"),
        })
        .collect();
    assert_eq!(field, margins);
}

#[test]
fn sampled_fields_and_observations_fall_within_their_intervals() {
    let host = tallies();
    let n = 4_000;
    let fields = vec!["hits".to_string()];
    let limits = EnumLimits { max_outcomes: 1, max_depth: 64 };
    let sampled = host.odds_with_fields(&Scope::new(), "volley()", limits, (n, 9), &fields).unwrap();
    assert!(!sampled.exact && sampled.sampled.is_some());
    let ObservedOdds::Sampled { trials, observed } = &sampled.observed else { panic!("not sampled") };
    assert_eq!((*trials, observed.len()), (n, n as usize));
    assert!(observed.iter().all(|o| o.tallies.len() == 1 && o.records.len() == 1));
    for (hits, p) in one_volley() {
        let p = grognard::dice::to_f64(&p);
        let seen = grognard::dice::to_f64(&field(&sampled, "hits").probability(&Outcome::Number(hits)));
        let error = (p * (1.0 - p) / n as f64).sqrt();
        assert!((seen - p).abs() <= 5.0 * error, "{hits} hits: exact {p}, sampled {seen}");
        let recorded = observed.iter().filter(|o| o.records[0].1 == hits as f64).count() as f64 / n as f64;
        assert!((recorded - p).abs() <= 5.0 * error, "{hits} hits recorded: exact {p}, sampled {recorded}");
    }
}

#[test]
fn a_field_no_result_has_is_refused_with_the_nearest_name() {
    let host = tallies();
    let refused = |code: &str, field: &str| {
        let fields = vec![field.to_string()];
        let err = host.odds_with_fields(&Scope::new(), code, EnumLimits::default(), (100, 1), &fields).unwrap_err();
        format!("{err}: {}", miette::Diagnostic::help(&err).map(|h| h.to_string()).unwrap_or_default())
    };
    let err = refused("volley()", "hist");
    assert!(err.contains("no result has a field `hist` (did you mean `hits`?)"), "{err}");
    assert!(err.contains("its fields: `hits`, `result`, `target`"), "{err}");
    let err = refused("volley()", "target.hot");
    assert!(err.contains("no result has a field `hot` (in --field target.hot) (did you mean `hit`?)"), "{err}");
    let err = refused("volley().hits", "hits");
    assert!(
        err.contains("--field hits reads a field of the map a procedure returns, but a result was a number"),
        "{err}"
    );
    let err = refused("volley()", "hits.x");
    assert!(err.contains("`hits` was a number"), "{err}");
    assert!(refused("volley()", "target..hit").contains("is not a field name"));
}

#[test]
fn a_field_some_results_lack_reads_as_nothing_there() {
    // As `r.a` reads a map without `a` in Rhai: nothing, for the half of the runs without it.
    let code = r#"if roll("1d6").total > 3 { #{ a: 1 } } else { #{ b: 2 } }"#;
    let odds = odds(&tallies(), code, &["a"]);
    assert_eq!(chances(field(&odds, "a")), [(Outcome::Nothing, ratio(1, 2)), (Outcome::Number(1), ratio(1, 2))]);
}

#[test]
fn a_field_that_is_not_a_whole_number_orders_as_a_number() {
    // Fire points halve to 1.5; 0.5 comes before 4, which comes before 4.0, before 4.5.
    let code = r#"let d = roll("1d4").total; #{ x: if d == 1 { 0.5 } else if d == 2 { 4 } else if d == 3 { 4.0 } else { 4.5 } }"#;
    let odds = odds(&tallies(), code, &["x"]);
    let half = ratio(1, 2);
    let rows: Vec<(String, BigRational)> =
        chances(field(&odds, "x")).into_iter().map(|(o, p)| (o.to_string(), p)).collect();
    let quarter = ratio(1, 4);
    assert_eq!(
        rows,
        [
            ("0.5".to_string(), quarter.clone()),
            ("4".into(), quarter.clone()),
            ("4.0".into(), quarter.clone()),
            ("4.5".into(), quarter)
        ]
    );
    assert_eq!(chances(field(&odds, "x"))[0].0, Outcome::Decimal(half));
}

#[test]
fn a_call_read_for_one_field_still_counts_what_it_tallies() {
    // `volley().result` has the call's outcomes merged by the result, but only those that
    // counted the same: the tallies and records are those of the whole call.
    let host = tallies();
    let (projected, replayed) = both_ways(&host, "volley().result", &[]);
    let whole = odds(&host, "let r = volley(); r.result", &[]);
    for other in [&replayed, &whole] {
        assert_eq!(chances(&projected.distribution), chances(&other.distribution));
        assert_eq!(tallied(&projected, "volley"), tallied(other, "volley"));
        assert_eq!(recorded(&projected, "hits"), recorded(other, "hits"));
    }
    let one = one_volley();
    let telling: BigRational = one.iter().filter(|(h, _)| **h >= 2).map(|(_, p)| p.clone()).sum();
    let mut got = chances(&projected.distribution);
    got.sort_by_key(|(o, _)| o.to_string());
    assert_eq!(
        got,
        [(Outcome::Word("light".into()), BigRational::one() - &telling), (Outcome::Word("telling".into()), telling)]
    );
}
