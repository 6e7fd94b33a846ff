//! Exact odds of card draws (AR-PROC-CARD-DRAW): a draw branches over the kinds of card left,
//! so a whole turn on a fresh deck is exact; a card told apart from its kind (its name read,
//! returned or counted) is walked card by card, and both walks agree.

use std::collections::BTreeMap;

use grognard::dice::EnumLimits;
use grognard::script::{Host, Limits, Outcome, ProcedureOdds};
use num_rational::BigRational;
use rhai::Scope;

use crate::support::{lw, ratio, ruleset};

fn odds(host: &Host, code: &str) -> ProcedureOdds {
    host.odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap_or_else(|e| panic!("{code}: {e}"))
}

/// Each outcome's chance, as words.
fn chances(odds: &ProcedureOdds) -> BTreeMap<String, BigRational> {
    odds.distribution.iter().map(|(o, p)| (o.to_string(), p)).collect()
}

/// A day of three runs with no dice of its own: `french` and `allies` add to each side's setup.
fn day(french: &str, allies: &str) -> String {
    format!(
        r#"let day = card_day(#{{runs: 3, sides: [#{{name: "french", colour: "red", {french}}}, #{{name: "allies", colour: "black", {allies}}}]}});"#
    )
}

/// The phases of a turn as letters: `f` for the French, `a` for the allies.
const PHASES: &str = r#"let s = ""; for p in day.play_turn().phases { s += p[0]; } s"#;

/// The chance of each turn's phase sequence drawn from `red` and `black` cards, the French
/// (red) having `french` phases and the allies two, no trumps: counted here card by card.
fn turn_by_hand(red: i64, black: i64, french: i64) -> BTreeMap<String, BigRational> {
    fn go(
        (red, black): (i64, i64),
        (f, a): (i64, i64),
        french: i64,
        seq: String,
        p: BigRational,
        out: &mut BTreeMap<String, BigRational>,
    ) {
        if f == french && a == 2 {
            *out.entry(seq).or_insert_with(|| ratio(0, 1)) += p;
            return;
        }
        let n = red + black;
        if red > 0 {
            // A red card: the French phase, or a surplus card when they have had theirs.
            let (f, seq) = if f < french { (f + 1, format!("{seq}f")) } else { (f, seq.clone()) };
            go((red - 1, black), (f, a), french, seq, &p * ratio(red, n), out);
        }
        if black > 0 {
            let (a, seq) = if a < 2 { (a + 1, format!("{seq}a")) } else { (a, seq.clone()) };
            go((red, black - 1), (f, a), french, seq, &p * ratio(black, n), out);
        }
    }
    let mut out = BTreeMap::new();
    go((red, black), (0, 0), french, String::new(), ratio(1, 1), &mut out);
    out
}

#[test]
fn a_whole_turn_on_a_fresh_deck_is_exact() {
    let host = lw();
    for (french, phases) in [("trumps: 0", 2), (r#"trumps: 0, cp: 3, exceptional: true"#, 3)] {
        let code = format!("{} {PHASES}", day(french, "trumps: 0"));
        let odds = odds(&host, &code);
        assert!(odds.exact, "{french}");
        let expected = turn_by_hand(18, 18, phases);
        assert_eq!(chances(&odds), expected, "{french}");
        // Both sides' first two phase cards, in every order: the six sequences of ffaa.
        if phases == 2 {
            assert_eq!(expected.len(), 6);
            assert_eq!(expected["ffaa"], ratio(17, 70));
            assert_eq!(expected["fafa"], ratio(9, 70));
        }
    }
}

/// `code` walked twice: by the engine drawing by kind, and by Rhai alone replaying every card
/// (no procedure compiled: the procedures' `switch`es stop it drawing by kind); both exact
/// and the same.
fn both_ways(rules: &[&str], code: &str) -> BTreeMap<String, BigRational> {
    let by_kind = odds(&Host::new(ruleset(rules)).unwrap(), code);
    // Walked card by card, by Rhai, two turns take longer than a person is asked to wait
    // (`Limits::for_walk`), most of all in a debug build: the walk is given what it needs.
    let interpreted = Host::interpreted(ruleset(rules)).unwrap();
    interpreted.set_walk_limits(Limits { max_operations: 2_000_000_000, time_limit: None, ..Limits::for_walk() });
    let by_card = odds(&interpreted, code);
    assert!(by_kind.exact && by_card.exact, "{code}");
    assert_eq!(chances(&by_kind), chances(&by_card), "{code}");
    chances(&by_kind)
}

#[test]
fn drawing_by_kind_agrees_with_every_card_walked() {
    // Six cards (three red, three black), so that every card of two turns can be walked.
    let overlay = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/rulesets/linear_warfare/small_deck");
    let rules = [overlay];
    // Two turns of a six-card deck: the second reshuffles, so cards drawn before come back.
    let turns = r#"let t1 = day.play_turn(); let t2 = day.play_turn();
        `${t1.phases} ${t2.phases} ${day.night} ${day.surplus} ${day.carried_over} ${day.deck.face_up.len()}`"#;
    both_ways(&rules, &format!("{} {turns}", day("trumps: 0", "trumps: 0")));
    let turn =
        r#"let t = day.play_turn(); `${t.phases} ${day.surplus} ${day.trumps_played} ${day.deck.face_up.len()}`"#;
    for (french, allies) in [
        ("trumps: 0", "trumps: 0"),
        ("trumps: 1", r#"trumps: 1, policy: "always""#),
        (r#"trumps: 1, policy: "first""#, r#"trumps: 2, policy: "always""#),
        (r#"trumps: 2, plan: [false, true]"#, "trumps: 1"),
        (r#"trumps: 0, cp: 3, exceptional: true"#, r#"trumps: 1, policy: "always""#),
    ] {
        both_ways(&rules, &format!("{} {turn}", day(french, allies)));
        let cards = r#"let k = []; for i in 0..3 { k.push(day.next_card().kind); } `${k} ${day.pending == ()}`"#;
        both_ways(&rules, &format!("{} {cards}", day(french, allies)));
    }
}

#[test]
fn a_card_drawn_again_after_a_reshuffle_is_told_from_the_others() {
    // Three red cards: all drawn, put to the bottom and reshuffled; the next card drawn is
    // the first one again one time in three; else the one after is the first half the time.
    let code = r#"let d = new_deck([#{name: "a", colour: "red"}, #{name: "b", colour: "red"}, #{name: "c", colour: "red"}]);
        let first = d.draw("first"); d.to_bottom(first.name); d.draw("second"); d.draw("third");
        d.all_to_bottom(); d.reshuffle(); let again = d.draw("again"); let next = d.draw("next");
        `${first.name == again.name} ${first.name == next.name || again.name == next.name}`"#;
    let chances = both_ways(&["linear-warfare"], code);
    assert_eq!(chances["true false"], ratio(1, 3));
    assert_eq!(chances["false true"], ratio(1, 3));
    assert_eq!(chances["false false"], ratio(1, 3));
}

#[test]
fn a_card_told_apart_is_walked_card_by_card() {
    let host = lw();
    // Its name returned, made text, compared with a word, or counted: each of 36 cards.
    let draw = r#"let d = lw_deck(); let a = d.draw("x");"#;
    let by_name = odds(&host, &format!("{draw} a.name"));
    assert!(by_name.exact);
    assert_eq!(by_name.distribution.iter().count(), 36);
    assert!(by_name.distribution.iter().all(|(_, p)| p == ratio(1, 36)));
    for (code, outcome, chance) in [
        (r#"a.name.contains("hearts")"#, Outcome::Flag(true), ratio(1, 4)),
        (r#"a.name == "2 of hearts""#, Outcome::Flag(true), ratio(1, 36)),
        ("`${a.name}`.len() > 11", Outcome::Flag(true), ratio(11, 36)),
        ("a.position == 1", Outcome::Flag(true), ratio(1, 36)),
        // Two cards of one draw each: never the same card.
        (r#"let b = d.draw("y"); a.name == b.name"#, Outcome::Flag(false), ratio(1, 1)),
    ] {
        let odds = odds(&host, &format!("{draw} {code}"));
        assert!(odds.exact, "{code}");
        assert_eq!(odds.distribution.probability(&outcome), chance, "{code}");
    }
    // A drawn card counted by its name: each name once in 36.
    let counted = odds(&host, &format!(r#"{draw} tally("card", a.name); a.colour"#));
    assert!(counted.exact);
    assert_eq!(counted.distribution.probability(&Outcome::Word("red".into())), ratio(1, 2));
    let cards = format!("{:?}", counted.observed);
    assert!(cards.contains("10 of spades") && cards.contains("2 of hearts"), "{cards}");
}
