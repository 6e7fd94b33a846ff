//! Issue 38, a slip one level below the top: a misspelt key inside a map or a list a
//! contract declares, or a value of the wrong kind there, is refused at the call with the
//! path to it and "did you mean"; an input of a switched-off option is refused naming the
//! switch. Each slip once changed the odds without a word; each is shown with the value the
//! right spelling gives.

use grognard::dice::EnumLimits;
use grognard::script::Outcome;
use rhai::Scope;

use crate::republique::host_with;
use crate::support::{error, int, lw, lw_host, ratio, value};

const REPUBLIQUE_SIDES: &str = r#"let a = unit(#{name: "9e Ligne", arm: "infantry", stands: 6, formation: "line"});
    let d = unit(#{name: "IR 4", arm: "infantry", stands: 4, formation: "line"});"#;

fn overlap(situation: &str) -> String {
    format!("{REPUBLIQUE_SIDES} unopposed_overlap([a], [d], {situation})")
}

#[test]
fn republique_supported_and_overlap_keys_are_held_to_their_names_and_kinds() {
    let host = host_with(&["unopposed_overlap"], &[]);
    // Spelt right: the left flank supported, the right not: the +2 holds on the right.
    let right = value(&host, &overlap("#{overlap: #{left: 1, right: 1}, supported: #{left: true, right: false}}"));
    assert!(right.as_bool().unwrap());
    // Both supported: no +2.
    let both = value(&host, &overlap("#{overlap: #{left: 1, right: 1}, supported: #{left: true, right: true}}"));
    assert!(!both.as_bool().unwrap());
    let err = error(&host, &format!("{REPUBLIQUE_SIDES} assault(a, d, #{{supported: #{{lfet: true, right: false}}}})"));
    assert!(
        err.contains("assault(attackers, defenders, situation): situation.supported has no key `lfet` (did you mean `left`?); it reads: left, right"),
        "{err}"
    );
    let err = error(&host, &format!("{REPUBLIQUE_SIDES} assault(a, d, #{{supported: #{{left: \"yes\"}}}})"));
    assert!(
        err.contains(
            "assault(attackers, defenders, situation): situation.supported.left is true or false, not the text \"yes\""
        ),
        "{err}"
    );
    let err = error(&host, &format!("{REPUBLIQUE_SIDES} assault(a, d, #{{overlap: #{{lfet: 1, right: 0}}}})"));
    assert!(err.contains("situation.overlap has no key `lfet` (did you mean `left`?); it reads: left, right"), "{err}");
    // The keys of rule 501 without rule 501: refused naming the switch, not left unread.
    let err =
        error(&host_with(&[], &[]), &format!("{REPUBLIQUE_SIDES} assault(a, d, #{{overlap: #{{left: 1, right: 1}}}})"));
    assert!(
        err.contains(
            "situation.overlap is read only with the optional rule unopposed_overlap: add --with unopposed_overlap"
        ),
        "{err}"
    );
    // The alert unit's counter-attack takes assault's own situation, held to the same keys.
    let alert = host_with(&["alert_infantry", "unopposed_overlap"], &[]);
    let err = error(
        &alert,
        &format!(
            "{REPUBLIQUE_SIDES} alert_reaction(a, d, #{{enemy_distance: 2, assault: #{{supported: #{{lfet: true}}}}}})"
        ),
    );
    assert!(
        err.contains("alert_reaction(unit, enemy, situation): situation.assault.supported has no key `lfet` (did you mean `left`?)"),
        "{err}"
    );
}

const DAY: &str = r#"card_day(#{runs: 3, sides: [#{name: "french", colour: "red", trumps: 0, cp: 3, EXCEPTIONAL: true}, #{name: "allies", colour: "black", trumps: 0}]})"#;

#[test]
fn a_card_day_side_is_held_to_its_keys() {
    // Spelt right, an Exceptional General gives the French three phases a turn: five in all.
    let phases = format!("let day = {}; day.play_turn().phases.len()", DAY.replace("EXCEPTIONAL", "exceptional"));
    assert_eq!(value(&lw(), &phases).as_int().unwrap(), 5);
    let err = error(&lw(), &DAY.replace("EXCEPTIONAL", "exeptional"));
    assert!(
        err.contains("card_day(setup): setup.sides[0] has no key `exeptional` (did you mean `exceptional`?); it reads: name, colour, cp, exceptional, trumps, policy, plan"),
        "{err}"
    );
    let err = error(&lw(), &DAY.replace("EXCEPTIONAL: true", "polcy: \"always\""));
    assert!(err.contains("setup.sides[0] has no key `polcy` (did you mean `policy`?)"), "{err}");
    let err = error(&lw(), &DAY.replace("EXCEPTIONAL: true", "policy: \"alwyas\""));
    assert!(
        err.contains(
            "setup.sides[0].policy has no word \"alwyas\" (did you mean `always`?); its words are always, first, never"
        ),
        "{err}"
    );
    let err = error(&lw(), &DAY.replace("EXCEPTIONAL: true", "plan: [true, 1]"));
    assert!(err.contains("setup.sides[0].plan[1] is true or false, not the number 1"), "{err}");
}

/// Four battalions of five stands, three stands lost (15%): the army checks.
const ARMY: &str = r#"let us = [];
    for i in 0..4 { us.push(unit(#{name: `Bn ${i}`, arm: "infantry", grade: "2", stands: 5, formation: "line"})); }
    us[0].stands = 2;
    let army = #{units: us, LEDGER: 3};
    army.withdrawal_check().result"#;

#[test]
fn the_army_withdrawal_ledger_is_held_to_its_keys() {
    let chance = |code: &str| {
        let odds = lw().odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap();
        odds.distribution.probability(&Outcome::Word("withdraws".into()))
    };
    // Three standards lost are +3: d10 + 3 withdraws on 12 or more, 9 and 10, 1 in 5; the
    // misspelt key was once read as none lost (no positive modifier, no check).
    assert_eq!(chance(&ARMY.replace("LEDGER", "standards_lost")), ratio(1, 5));
    let err = error(&lw(), &ARMY.replace("LEDGER", "flags_lost"));
    assert!(
        err.contains("army_situation(army): `army` has no key `flags_lost` (did you mean `class1_lost`?); it reads: units, enemy_units, standards_lost,"),
        "{err}"
    );
    let err = error(&lw(), &ARMY.replace("LEDGER", "standard_lost"));
    assert!(err.contains("has no key `standard_lost` (did you mean `standards_lost`?)"), "{err}");
    // The campaign's failure count is the campaign option's.
    let err = error(&lw(), &ARMY.replace("LEDGER", "failures"));
    assert!(
        err.contains(
            "army.failures is read only with the optional rule campaign_army_morale: add --with campaign_army_morale"
        ),
        "{err}"
    );
    let with = lw_host(&[], &["campaign_army_morale"]);
    let m = value(&with, &ARMY.replace("LEDGER", "standards_lost").replace(".result", ""));
    assert_eq!(int(&m.cast::<rhai::Map>(), "modifier"), 3);
}

/// Orders of battle, units and leaders are read by serde: a misspelt key is refused with
/// the key it may be, not left out.
#[test]
fn orders_of_battle_units_and_leaders_refuse_a_misspelt_key_with_did_you_mean() {
    let host = crate::support::host(&["ff-napoleonic"]);
    host.allow_scenarios_from(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scenarios"));
    for (file, hint) in [
        ("misspelt.yaml", "`stnds` (did you mean `stands`?)"),
        ("misspelt_leader.yaml", "`markrs` (did you mean `markers`?)"),
    ] {
        let Err(grognard::script::ScriptError::Rules(problems)) =
            host.eval(&mut Scope::new(), &format!("order_of_battle(\"{file}\")"))
        else {
            panic!("{file} should be refused")
        };
        let messages: Vec<&str> = problems.0.iter().map(|p| p.message.as_str()).collect();
        assert!(messages.iter().any(|m| m.contains(&format!("unknown field {hint}"))), "{file}: {messages:?}");
    }
    let err = error(&host, r#"unit(#{name: "A", arm: "infantry", stnds: 4, formation: "line"})"#);
    assert!(err.contains("unit `A` has no key `stnds` (did you mean `stands`?); a unit gives id, name,"), "{err}");
    let err = error(&host, r#"leader(#{name: "Ney", side: "france", markrs: #{}})"#);
    assert!(err.contains("leader `Ney` has no key `markrs` (did you mean `markers`?)"), "{err}");
}
