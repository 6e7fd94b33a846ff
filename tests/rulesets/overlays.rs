//! What an overlay can do to the rules beneath it: call the function it replaces
//! (`base::name`, through any depth of layers); patch a table under an option or
//! interpretation, removing rows, bands and results and narrowing bands.

use grognard::dice::{EnumLimits, Supplied};
use grognard::rules::{RowKey, Ruleset, TableBody, load, load_partial};
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

// ---- table patches ---------------------------------------------------------------

/// The house overlay of tests/fixtures/rules/patches, with `with` switched on and `set` chosen.
fn patched(with: &[&str], set: &[(&str, &str)]) -> Ruleset {
    let mut rs = fixture_rules("patches/house");
    for option in with {
        rs.set_option(option, true).unwrap();
    }
    for (name, choice) in set {
        rs.set_interpretation(name, choice).unwrap();
    }
    rs
}

/// The result the clash table reads at each total 1 to 10.
fn clash(rs: &Ruleset) -> Vec<String> {
    let table = &rs.tables["clash"];
    (1..=10).map(|t| table.read_bands(t).unwrap().result.unwrap().id.clone()).collect()
}

#[test]
fn a_patch_under_an_option_or_interpretation_applies_only_while_it_holds() {
    let words = |w: &str| w.split(' ').map(str::to_string).collect::<Vec<_>>();
    let base = words("held held held held pushed pushed pushed pushed broken broken");
    assert_eq!(clash(&patched(&[], &[])), base);
    // bloody: the 8 breaks, narrowing pushed to 5-7.
    assert_eq!(
        clash(&patched(&["bloody"], &[])),
        words("held held held held pushed pushed pushed broken broken broken")
    );
    // harsh: the 1 routs, narrowing held to 2-4.
    assert_eq!(
        clash(&patched(&[], &[("reading", "harsh")])),
        words("routed held held held pushed pushed pushed pushed broken broken")
    );
    let both = patched(&["bloody"], &[("reading", "harsh")]);
    assert_eq!(clash(&both), words("routed held held held pushed pushed pushed broken broken broken"));
    // Switched back, the table reads as the base again.
    let mut rs = both;
    rs.set_option("bloody", false).unwrap();
    rs.set_interpretation("reading", "plain").unwrap();
    assert_eq!(clash(&rs), base);
    // The base's own bands keep the base's source; a band the patch wrote or narrowed is the house's.
    let rs = patched(&["bloody"], &[]);
    let table = &rs.tables["clash"];
    assert_eq!(table.credit(&table.read_bands(8).unwrap()), "house");
    let base_table = &fixture_rules("patches/base").tables["clash"];
    assert_eq!(base_table.band_sources.len(), 0);
}

#[test]
fn a_host_switches_a_patched_table_for_every_path() {
    let host = Host::new(fixture_rules("patches/house")).unwrap();
    let call = r#"lookup("clash", roll("1d10").total).result"#;
    let odds = |host: &Host| {
        let odds = host.odds(&Scope::new(), call, EnumLimits::STANDARD, (100, 1)).unwrap();
        ["held", "pushed", "broken"].map(|w| odds.distribution.probability(&Outcome::Word(w.into())))
    };
    assert_eq!(odds(&host), [ratio(4, 10), ratio(4, 10), ratio(2, 10)]);
    host.set_option("bloody", true).unwrap();
    assert_eq!(odds(&host), [ratio(4, 10), ratio(3, 10), ratio(3, 10)]);
    host.set_dice(Box::new(Supplied::new([8])));
    assert_eq!(host.eval(&mut Scope::new(), call).unwrap().value.into_string().unwrap(), "broken");
    host.set_option("bloody", false).unwrap();
    host.set_dice(Box::new(Supplied::new([8])));
    assert_eq!(host.eval(&mut Scope::new(), call).unwrap().value.into_string().unwrap(), "pushed");
}

#[test]
fn a_patch_removes_rows_and_results_and_gives_new_columns() {
    let rs = patched(&[], &[]);
    let table = &rs.tables["volley"];
    let TableBody::Grid { columns, rows, .. } = &table.body else { panic!("volley is a grid") };
    assert_eq!(columns, &["miss", "hit"]);
    assert_eq!(rows.iter().map(|r| r.label.to_string()).collect::<Vec<_>>(), ["1-4", "5+"]);
    assert!(!table.results.contains_key("rout"));
    let read =
        |stands: i64, total: i64| table.read_grid(&RowKey::Number(stands), total).unwrap().result.unwrap().id.clone();
    assert_eq!(
        (read(1, 5), read(2, 6), read(4, 10), read(6, 3), read(6, 10)),
        ("miss".into(), "hit".into(), "hit".into(), "miss".into(), "hit".into())
    );
}

#[test]
fn a_patch_with_mistakes_is_refused_with_each_one_located() {
    let (_, problems) = load_partial(&[fixture("patches/bad")], &rules_dir());
    let messages: Vec<String> = problems.iter().filter(|p| p.is_error()).map(|p| p.message.clone()).collect();
    let expected = [
        "the patch depends on option `blody`, which does not exist (did you mean `bloody`?)",
        "interpretation `reading` has no choice `harsher` (did you mean `harsh`?); its choices are plain, harsh",
        "only a patch depends on an option or interpretation; a table of its own is always there",
        "band `7` is given as `~`: only a patch removes a band",
        "the patch removes result `mis`, which the table does not have (did you mean `miss`?)",
        "the patch removes row `1-3`, which the table does not have (did you mean `1-2`?)",
        "row `1-2` of grid `volley` has 3 cells for 2 columns",
        "row `5+` of grid `volley` has 3 cells for 2 columns",
    ];
    for message in expected {
        assert!(messages.iter().any(|m| m == message), "missing: {message}\nin {messages:#?}");
    }
    assert_eq!(messages.len(), expected.len(), "{messages:#?}");
    let removed = problems.iter().find(|p| p.message.starts_with("the patch removes row")).unwrap();
    assert!(removed.place().ends_with("patches/bad/tables/volley.yaml:5:4"), "{}", removed.place());
}

// ---- a ruleset's own unit fields, and the skirmish-screen overlay -------------------

const LINE: &str = r#"unit(#{name: "4e Ligne", nation: "france", arm: "infantry", stands: 4, formation: "line"})"#;
const SCREENED: &str = r#"unit(#{name: "95th", nation: "britain", arm: "infantry", stands: 4, formation: "line", fields: #{skirmishers: true}})"#;

#[test]
fn a_unit_field_of_the_rulesets_own_is_given_defaulted_read_written_and_checked() {
    let host = crate::support::host(&["ff-skirmishers"]);
    let value = |code: &str| host.eval(&mut Scope::new(), code).unwrap().value;
    assert!(value(&format!("{SCREENED}.skirmishers")).as_bool().unwrap());
    // Left out, the declared default.
    assert!(!value(&format!("{LINE}.skirmishers")).as_bool().unwrap());
    assert!(!value(&format!("let u = {SCREENED}; u.skirmishers = false; u.skirmishers")).as_bool().unwrap());
    let error = |code: &str| host.eval(&mut Scope::new(), code).unwrap_err().to_string();
    let misspelt =
        error(r#"unit(#{name: "x", arm: "infantry", stands: 4, formation: "line", fields: #{skirmisher: true}})"#);
    assert!(
        misspelt.contains(
            "unit `x` has a field `skirmisher` that this ruleset does not declare (did you mean `skirmishers`?)"
        ),
        "{misspelt}"
    );
    let wrong_type =
        error(r#"unit(#{name: "x", arm: "infantry", stands: 4, formation: "line", fields: #{skirmishers: 3}})"#);
    assert!(wrong_type.contains("unit `x` gives `skirmishers` as 3, but it is a field of type bool"), "{wrong_type}");
    let written = error(&format!("let u = {SCREENED}; u.skirmishers = \"yes\""));
    assert!(written.contains("as the word `yes`, but it is a field of type bool"), "{written}");
    let no_stands = error(r#"unit(#{name: "x", arm: "infantry", formation: "line"})"#);
    assert!(no_stands.contains("unit `x` gives no `stands`, and this ruleset gives no default"), "{no_stands}");
    // ff-napoleonic declares no fields of its own.
    let base = crate::support::host(&["ff-napoleonic"]);
    let err = base.eval(&mut Scope::new(), SCREENED).unwrap_err().to_string();
    assert!(err.contains("this ruleset declares no fields of its own"), "{err}");
}

#[test]
fn skirmish_screens_are_off_unless_switched_on_and_then_driven_in_on_lively_or_worse() {
    let fire =
        format!("let a = {LINE}; let b = {SCREENED}; let r = fire(a, b, #{{range: 2}}); [r.result, b.skirmishers]");
    let run = |host: &Host, die: i64| {
        host.set_dice(Box::new(Supplied::new([die])));
        let out = host.eval(&mut Scope::new(), &fire).unwrap().value.cast::<rhai::Array>();
        (out[0].clone().into_string().unwrap(), out[1].as_bool().unwrap())
    };
    // Off: a screened unit is refused naming the switch (it once neither counted nor went,
    // without a word).
    let host = crate::support::host(&["ff-skirmishers"]);
    host.set_dice(Box::new(Supplied::new([8])));
    let err = host.eval(&mut Scope::new(), &fire).unwrap_err().to_string();
    assert!(
        err.contains("fire(firer, target, situation): `target` (95th): skirmishers: true is read only with the optional rule skirmish_screens: add --with skirmish_screens"),
        "{err}"
    );
    // On: -1 for the screen, so 8 is Desultory and the screen stays; 9 is Lively and drives it in.
    host.set_option("skirmish_screens", true).unwrap();
    assert_eq!(run(&host, 8), ("desultory".into(), true));
    assert_eq!(run(&host, 9), ("lively".into(), false));
    // The odds of a Lively result fall by one face in ten with the screen out.
    let call = format!("fire({LINE}, {SCREENED}, #{{range: 2}}).result");
    let lively = |host: &Host| {
        let odds = host.odds(&Scope::new(), &call, EnumLimits::STANDARD, (100, 1)).unwrap();
        odds.distribution.probability(&Outcome::Word("lively".into()))
    };
    assert_eq!(lively(&host), ratio(2, 10));
    // Without the screen, 4 stands at 2" fire 4 points (row 4: lively on 8-10).
    let unscreened = format!("fire({LINE}, {LINE}, #{{range: 2}}).result");
    let odds = host.odds(&Scope::new(), &unscreened, EnumLimits::STANDARD, (100, 1)).unwrap();
    assert_eq!(odds.distribution.probability(&Outcome::Word("lively".into())), ratio(3, 10));
}

#[test]
fn a_table_written_whole_replaces_the_table_every_way_it_read() {
    let mut rs = fixture_rules("patches/whole");
    let words = |w: &str| w.split(' ').map(str::to_string).collect::<Vec<_>>();
    let whole = words("held held held held held broken broken broken broken broken");
    assert_eq!(clash(&rs), whole);
    rs.set_option("bloody", true).unwrap();
    rs.set_interpretation("reading", "harsh").unwrap();
    assert_eq!(clash(&rs), whole);
    assert_eq!(rs.tables["clash"].title, "Clash, as this house reads it");
}

#[test]
fn the_house_example_narrows_a_melee_band_under_its_option_and_removes_a_result() {
    let mut rs = crate::support::ruleset(&["ff-house-example"]);
    let melee = |rs: &Ruleset, d: i64| rs.tables["melee"].read_bands(d).unwrap().result.unwrap().id.clone();
    assert_eq!(
        (melee(&rs, 0), melee(&rs, 1), melee(&rs, 2)),
        ("desperate_struggle".into(), "hard_pressed".into(), "hard_pressed".into())
    );
    rs.set_option("wider_struggle", true).unwrap();
    assert_eq!(
        (melee(&rs, 0), melee(&rs, 1), melee(&rs, 2)),
        ("desperate_struggle".into(), "desperate_struggle".into(), "hard_pressed".into())
    );
    // Printed in the chart's own order, highest first, the new band in its place.
    let TableBody::Bands(bands) = &rs.tables["melee"].body else { panic!("melee is a row of bands") };
    let printed: Vec<String> = bands.iter().map(|(b, _)| b.to_string()).collect();
    assert_eq!(printed, ["7+", "4-6", "2,3", "0,1", "-3 to -1", "-6 to -4", "-7 or less"]);
    // No snipers: a 2 pierces a coat, and the result is gone.
    let fallen = &rs.tables["fallen_leader"];
    let two = fallen.read_bands(2).unwrap();
    assert_eq!(two.result.as_ref().unwrap().id, "coat_pierced");
    assert_eq!(fallen.credit(&two), "house; result: seed 004, FALLEN LEADER TABLE (FF-TAB-FALLEN-LEADER)");
    assert!(!fallen.results.contains_key("felled_by_sniper"));
}

#[test]
fn an_order_of_battle_gives_unit_fields_checked_and_defaulted() {
    let host = crate::support::host(&["ff-skirmishers"]);
    host.allow_scenarios_from(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scenarios"));
    let value = |code: &str| host.eval(&mut Scope::new(), code).unwrap().value;
    assert!(value(r#"order_of_battle("screened.yaml").units.rifles.skirmishers"#).as_bool().unwrap());
    assert!(!value(r#"order_of_battle("screened.yaml").units.ligne.skirmishers"#).as_bool().unwrap());
    let Err(ScriptError::Rules(problems)) = host.eval(&mut Scope::new(), r#"order_of_battle("misfielded.yaml")"#)
    else {
        panic!("misfielded.yaml should be refused")
    };
    let messages: Vec<(&str, &str)> = problems.0.iter().map(|p| (p.code, p.message.as_str())).collect();
    assert_eq!(
        messages,
        [
            ("scenario::missing_field", "unit `guns` gives no `stands`, and this ruleset gives no default"),
            ("scenario::unit_field", "unit `rifles` has a field `skirmisher` that this ruleset does not declare"),
            ("scenario::unit_field", "unit `ligne` gives `skirmishers` as 2, but it is a field of type bool"),
        ]
    );
    assert_eq!(problems.0[1].help.as_deref(), Some("did you mean `skirmishers`?"));
}

#[test]
fn unit_fields_declared_wrongly_are_refused_where_they_are_written() {
    let (_, problems) = load_partial(&[fixture("broken-unit-fields")], &rules_dir());
    let found: Vec<(&str, String)> = problems.iter().map(|p| (p.code, p.message.clone())).collect();
    assert_eq!(
        found,
        [
            (
                "rules::unit_field",
                "`stands` is a property every unit has; a field of the ruleset's own needs another name".to_string()
            ),
            (
                "rules::unit_field",
                "the default of unit field `morale`, `wavering`, is not one of its words: steady, shaken".to_string()
            ),
            ("rules::unit_field", "the default of unit field `shooting` is not of type int".to_string()),
        ]
    );
    assert!(problems[1].place().ends_with("ruleset.yaml:15:14"), "{}", problems[1].place());
}
