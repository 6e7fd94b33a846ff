//! What an overlay can do to the rules beneath it: call the function it replaces
//! (`base::name`, through any depth of layers).

use grognard::dice::{EnumLimits, Supplied};
use grognard::rules::{Ruleset, load, load_partial};
use grognard::script::{Host, Outcome, ScriptError, check};
use rhai::Scope;

use crate::support::{ratio, rules_dir};

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/rules/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn fixture_rules(name: &str) -> Ruleset {
    load(&[fixture(name)], &rules_dir()).unwrap_or_else(|p| panic!("{name}: {:?}", p.0)).ruleset
}

/// The host over the chain bottom < middle < top, compiled or left to Rhai.
fn chain(interpret: bool) -> Host {
    Host::built_as(fixture_rules("base-calls/top"), Default::default(), interpret).unwrap()
}

#[test]
fn a_base_call_reaches_the_layer_below_through_every_layer() {
    for interpret in [false, true] {
        let host = chain(interpret);
        let int = |code: &str| host.eval(&mut Scope::new(), code).unwrap().value.as_int().unwrap();
        // top: base::f(x) * 2; middle: base::f(x) + 1; bottom: x * 10.
        for x in [0, 1, 7] {
            assert_eq!(int(&format!("f({x})")), (x * 10 + 1) * 2, "f({x}), interpreted: {interpret}");
        }
        // A plain call in the bottom layer reaches the top's `f`, as in any ruleset.
        assert_eq!(int("g()"), 22);
        // late: top doubles, middle adds one, bottom returns what it is given.
        assert_eq!(int("late(2)"), 5);
    }
}

#[test]
fn an_error_in_a_base_function_points_into_its_own_file_and_names_the_calls() {
    for interpret in [false, true] {
        let ScriptError::At(problem) = chain(interpret).eval(&mut Scope::new(), "late(3)").unwrap_err() else {
            panic!("late(3) should fail in a procedure file")
        };
        assert_eq!(problem.message, "too far: 7");
        assert!(problem.place().ends_with("base-calls/bottom/procedures/calls.rhai:4:25"), "{}", problem.place());
        assert_eq!(problem.help.as_deref(), Some("in base::late() called from base::late() called from late()"));
    }
}

#[test]
fn exact_odds_walk_through_base_calls() {
    let host = chain(false);
    for exact_engine in [true, false] {
        host.set_exact_engine(exact_engine);
        let odds = host.odds(&Scope::new(), "rolled()", EnumLimits::STANDARD, (100, 1)).unwrap();
        assert!(odds.exact);
        // The die d gives (10d + 1) * 2, each one time in six.
        for d in 1..=6 {
            assert_eq!(odds.distribution.probability(&Outcome::Number((10 * d + 1) * 2)), ratio(1, 6));
        }
    }
    host.set_dice(Box::new(Supplied::new([4])));
    assert_eq!(host.eval(&mut Scope::new(), "rolled()").unwrap().value.as_int().unwrap(), 82);
}

#[test]
fn a_base_call_that_reaches_nothing_is_refused_where_it_is_written() {
    let problems = |name: &str| {
        let (rs, mut problems) = load_partial(&[fixture(name)], &rules_dir());
        problems.extend(check(&rs.unwrap()));
        problems.into_iter().filter(|p| p.code == "script::base_call").collect::<Vec<_>>()
    };
    let bad = problems("base-calls/bad");
    let messages: Vec<&str> = bad.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`base::ff`: no function `ff` in bottom (did you mean `f`?)",
            &format!(
                "`base::f` is called with 2 arguments; the base takes 1 ({})",
                fixture("base-calls/bottom/procedures/calls.rhai")
            ),
        ]
    );
    assert_eq!(bad[0].place().rsplit_once("calls.rhai:").unwrap().1, "3:5");
    assert_eq!(bad[1].place().rsplit_once("calls.rhai:").unwrap().1, "3:19");
    let orphan = problems("base-calls/orphan");
    assert_eq!(orphan.len(), 1);
    assert_eq!(orphan[0].message, "`base::f`: orphan extends no ruleset, so there is no base to call");
}
