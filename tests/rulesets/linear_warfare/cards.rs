//! The Card Draw (AR-PROC-CARD-DRAW, -TRUMPS, AR-RULE-EXCEPTIONAL-GENERAL,
//! AR-TAB-DAYLIGHT-RUNS): the deck against the seed, scripted draw
//! sequences, every trump restriction, runs and night, exact chances.

use grognard::dice::{EnumLimits, Seeded, Supplied};
use grognard::rules::{LookupValue, Source, TableBody};
use grognard::script::{Host, Outcome, Step};
use num_bigint::BigInt;
use num_rational::BigRational;
use rhai::{Map, Scope};

use crate::support::{error_debug, eval_map, int, lw, ruleset, text};

/// Seed 003, L62.
const SEED_DECK: &str = "Take an ordinary deck of playing cards. Remove the Jokers, Aces and face cards and set them aside. \
Shuffle the remaining 36 cards. Allocate one color to each side.";

/// Seed 003, L78-82, as printed (tabs made spaces).
const SEED_DAYLIGHT: &str = "January, February, December -3 -2
March, April, November -2 -1
May, September, October -1 -0
June, July, August -0 -0";

/// The faces that draw `colours` in order from a fresh deck of 18 black and
/// 18 red (the deck lists black first: the table's colours in order): face 1
/// takes the first black card left, the last face the last red one; the last
/// card of the deck needs no face.
fn faces(colours: &str) -> Vec<i64> {
    let (mut black, mut red) = (18i64, 18i64);
    let mut out = Vec::new();
    for c in colours.chars() {
        let n = black + red;
        match c {
            'B' => {
                if n > 1 {
                    out.push(1);
                }
                black -= 1;
            }
            'R' => {
                if n > 1 {
                    out.push(n);
                }
                red -= 1;
            }
            _ => {}
        }
    }
    out
}

/// A day with no dice of its own: `runs` given, trumps given.
fn day(french: &str, allies: &str, runs: i64) -> String {
    format!(
        r#"let day = card_day(#{{runs: {runs}, sides: [#{{name: "french", colour: "red", {french}}}, #{{name: "allies", colour: "black", {allies}}}]}});"#
    )
}

fn host_with(faces: Vec<i64>) -> Host {
    let host = lw();
    host.set_dice(Box::new(Supplied::new(faces)));
    host
}

fn strings(map: &Map, key: &str) -> Vec<String> {
    map[key].clone().into_array().unwrap().iter().map(|v| v.to_string()).collect()
}

#[test]
fn the_deck_is_36_cards_2_to_10_in_four_suits_18_per_colour() {
    assert!(SEED_DECK.contains("Remove the Jokers, Aces and face cards") && SEED_DECK.contains("remaining 36 cards"));
    let rs = ruleset(&["linear-warfare"]);
    let t = &rs.tables["card_deck"];
    assert!(
        matches!(&t.source, Source::Seed(s) if s.seed == "003" && s.inventory.as_deref() == Some("AR-PROC-CARD-DRAW"))
    );
    let TableBody::Lookup { values: LookupValue::Map(colours), .. } = &t.body else { panic!("a lookup") };
    let mut total = 0;
    for (colour, suits) in colours {
        let LookupValue::Map(suits) = suits else { panic!("{colour}") };
        assert_eq!(suits.len(), 2, "two suits of {colour}");
        for ranks in suits.values() {
            assert_eq!(ranks.to_string(), "2 3 4 5 6 7 8 9 10", "no Aces, no face cards");
            total += 9;
        }
    }
    assert_eq!(total, 36);
    let m = eval_map(
        &lw(),
        r#"let d = lw_deck(); #{size: d.size, red: d.face_down_of("red"), black: d.face_down_of("black")}"#,
    );
    assert_eq!((int(&m, "size"), int(&m, "red"), int(&m, "black")), (36, 18, 18));
}

#[test]
fn the_chance_the_first_two_cards_are_the_same_colour_is_exact() {
    let code = r#"let d = lw_deck(); let a = d.draw("first"); let b = d.draw("second"); a.colour == b.colour"#;
    let odds = lw().odds(&Scope::new(), code, EnumLimits::default(), (100, 1)).unwrap();
    // Independent count: every ordered pair of two different cards of 18 red and 18 black.
    let colour = |i: usize| i < 18;
    let (mut same, mut all) = (0i64, 0i64);
    for a in 0..36 {
        for b in 0..36 {
            if a != b {
                all += 1;
                if colour(a) == colour(b) {
                    same += 1;
                }
            }
        }
    }
    assert_eq!(
        odds.distribution.probability(&Outcome::Flag(true)),
        BigRational::new(BigInt::from(same), BigInt::from(all))
    );
    assert_eq!(same * 35, all * 17, "17/35");
    assert!(odds.exact);
}

#[test]
fn a_draw_is_in_the_trace() {
    let host = host_with(vec![36]);
    let e = host.eval(&mut Scope::new(), r#"let d = lw_deck(); d.draw("first card")"#).unwrap();
    let cards: Vec<&Step> = e.trace.steps.iter().filter(|s| matches!(s, Step::Card { .. })).collect();
    assert_eq!(cards.len(), 1);
    assert_eq!(cards[0].to_string(), "card    first card, 10 of hearts (red): card 36 of 36 face down, run 1");
}

#[test]
fn the_daylight_table_matches_the_seed_cell_by_cell() {
    let rs = ruleset(&["linear-warfare"]);
    let t = &rs.tables["daylight"];
    let mut cells = 0;
    for line in SEED_DAYLIGHT.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (months, numbers) = words.split_at(words.len() - 2);
        for month in months.iter().map(|m| m.trim_end_matches(',').to_lowercase()) {
            for (region, printed) in ["northern_europe", "mediterranean"].iter().zip(numbers) {
                let value = t.read_lookup(&[month.clone(), region.to_string()]).unwrap();
                assert_eq!(*value, LookupValue::Int(printed.parse::<i64>().unwrap()), "{month} {region}");
                cells += 1;
            }
        }
    }
    assert_eq!(cells, 24, "12 months, 2 regions");
    let regions = &rs.tables["daylight_regions"];
    for (region, column) in [
        ("north_america", "mediterranean"),
        ("india", "mediterranean"),
        ("china", "mediterranean"),
        ("tropics", "mediterranean"),
        ("northern_europe", "northern_europe"),
    ] {
        assert_eq!(regions.read_lookup(&[region.into()]).unwrap().to_string(), column);
    }
}

#[test]
fn daylight_runs_are_the_modified_d6_and_at_least_one() {
    let host = lw();
    for (month, region, die, runs) in [
        ("january", "northern_europe", 6, 3),
        ("January", "northern_europe", 2, 1),
        ("december", "china", 1, 1),
        ("march", "mediterranean", 5, 4),
        ("july", "northern_europe", 6, 6),
        ("october", "tropics", 4, 4),
    ] {
        host.set_dice(Box::new(Supplied::new([die])));
        let m = eval_map(&host, &format!(r#"daylight_runs("{month}", "{region}")"#));
        assert_eq!(int(&m, "runs"), runs, "{month} {region} {die}");
    }
}

#[test]
fn trumps_are_a_d6_plus_cp_capped_at_the_eight_face_cards_and_aces() {
    let host = lw();
    for (die, cp, trumps) in [(1, 1, 2), (4, 2, 6), (5, 3, 8), (6, 3, 8), (6, 2, 8)] {
        host.set_dice(Box::new(Supplied::new([die])));
        assert_eq!(int(&eval_map(&host, &format!(r#"trump_count("red", {cp})"#)), "trumps"), trumps, "{die}+{cp}");
    }
    let mut rs = ruleset(&["linear-warfare"]);
    rs.set_interpretation("trump_ninth", "joker").unwrap();
    let host = Host::new(rs).unwrap();
    host.set_dice(Box::new(Supplied::new([6])));
    assert_eq!(int(&eval_map(&host, r#"trump_count("black", 3)"#), "trumps"), 9);
    assert!(error_debug(&host, r#"trump_count("black", 4)"#).contains("CP rating is 1, 2 or 3"));
}

#[test]
fn a_third_card_for_a_side_before_the_other_has_two_phases_goes_to_the_bottom() {
    let host = host_with(faces("RRRBB"));
    let code = format!(
        r#"{} let t = day.play_turn(); t.events = day.events; t.face_up = day.deck.face_up.len(); t.surplus = day.surplus; t"#,
        day("trumps: 0", "trumps: 0", 1)
    );
    let t = eval_map(&host, &code);
    assert_eq!(strings(&t, "phases"), ["french", "french", "allies", "allies"]);
    assert_eq!(strings(&t, "events"), ["phase", "phase", "surplus", "phase", "phase"]);
    // The surplus card and, at the end of the turn, every drawn card: bottom, face up.
    assert_eq!((int(&t, "surplus"), int(&t, "face_up")), (1, 5));
}

#[test]
fn an_exceptional_general_gets_three_phases() {
    let host = host_with(faces("RRRBRB"));
    let code = format!(
        r#"{} let t = day.play_turn(); t.events = day.events; t"#,
        day("trumps: 0, exceptional: true", "trumps: 0", 1)
    );
    let t = eval_map(&host, &code);
    assert_eq!(strings(&t, "phases"), ["french", "french", "french", "allies", "allies"]);
    assert_eq!(strings(&t, "events"), ["phase", "phase", "phase", "phase", "surplus", "phase"]);
    // Killed during the turn: two phases from the next turn.
    let host = host_with(faces("RRRBB"));
    let code = format!(
        r#"{} day.sides.french.exceptional = false; let t = day.play_turn(); t.events = day.events; t"#,
        day("trumps: 0, exceptional: true", "trumps: 0", 1)
    );
    let t = eval_map(&host, &code);
    assert_eq!(strings(&t, "events"), ["phase", "phase", "phase", "phase", "phase"], "this turn still three");
}

#[test]
fn a_trump_replaces_an_opposing_card_and_the_card_goes_to_the_bottom() {
    let host = host_with(faces("R"));
    let code = format!(
        r#"{} day.draw_card(); day.trump("allies"); let e = day.resolve_card();
        e.trumps_left = day.sides.allies.trumps; e.face_up = day.deck.face_up; e"#,
        day("trumps: 0", "trumps: 3", 1)
    );
    let e = eval_map(&host, &code);
    assert_eq!((text(&e, "kind"), text(&e, "side")), ("phase".into(), "allies".into()));
    assert!(e["trump"].as_bool().unwrap());
    assert_eq!(int(&e, "trumps_left"), 2);
    assert_eq!(strings(&e, "face_up"), ["10 of hearts"]);
}

#[test]
fn every_trump_restriction_is_refused_with_its_reason() {
    let cases: [(&str, &str, &str, &str); 6] = [
        // No card drawn yet.
        ("", "", r#"day.trump("allies")"#, "no card has been drawn to trump"),
        // Its own colour.
        ("R", "", r#"day.draw_card(); day.trump("french")"#, "own colour"),
        // No overtrumping.
        ("R", "", r#"day.draw_card(); day.trump("allies"); day.trump("french")"#, "no overtrumping"),
        // No trumps left.
        ("R", "trumps: 0", r#"day.draw_card(); day.trump("allies")"#, "allies has no trumps left"),
        // The trumper has had all its phases: B B then a red card.
        (
            "BBR",
            "",
            r#"day.next_card(); day.next_card(); day.draw_card(); day.trump("allies")"#,
            "already had all its 2 Movement Phases",
        ),
        // The card would go to the bottom anyway: R R then a third red card.
        (
            "RRR",
            "",
            r#"day.next_card(); day.next_card(); day.draw_card(); day.trump("allies")"#,
            "goes to the bottom anyway",
        ),
    ];
    for (draws, allies, code, reason) in cases {
        let host = host_with(faces(draws));
        let allies = if allies.is_empty() { "trumps: 2" } else { allies };
        let err = error_debug(&host, &format!("{} {code}", day("trumps: 2", allies, 1)));
        assert!(err.contains("cannot trump") && err.contains(reason), "{code}: {err}");
    }
}

#[test]
fn a_scripted_player_trumps_by_plan() {
    // Allies trump the first red card, not the second.
    let host = host_with(faces("RRBBR"));
    let code = format!(
        r#"{} let t = day.play_turn(); t.played = day.trumps_played.allies; t.events = day.events; t"#,
        day("trumps: 0", "trumps: 2, plan: [true, false]", 1)
    );
    let t = eval_map(&host, &code);
    // R trumped (allies), R kept (french), B allies, B surplus (allies had two), R french.
    assert_eq!(int(&t, "played"), 1);
    assert_eq!(strings(&t, "phases"), ["allies", "french", "allies", "french"]);
    assert_eq!(strings(&t, "events"), ["phase", "phase", "phase", "surplus", "phase"]);
}

#[test]
fn one_run_through_the_deck_is_36_cards_then_night() {
    for seed in 0..5 {
        let host = lw();
        host.set_dice(Box::new(Seeded::new(seed)));
        let code = format!(
            r#"{} let d = day.play_day(); d.night = day.night; d.run = day.deck.run; d.carried = day.carried_over; d"#,
            day("trumps: 0", "trumps: 0", 2)
        );
        let d = eval_map(&host, &code);
        let phases = d["phases"].clone().cast::<Map>();
        let drawn = int(&phases, "french") + int(&phases, "allies") + int(&d, "surplus");
        // The cards in play when the first run ends stay out of the second run's deck.
        assert_eq!(drawn, 72 - int(&d, "carried"), "two runs of 36 cards, each a phase or surplus (seed {seed})");
        assert_eq!((int(&d, "runs"), int(&d, "run")), (2, 2));
        assert!(d["night"].as_bool().unwrap());
    }
}

#[test]
fn finishing_the_turn_after_the_last_run_is_an_interpretation() {
    // Seed 1 ends the run mid-turn for at least one of these; with finish_turn more cards are drawn.
    let mut more = 0;
    for seed in 0..10 {
        let mut counts = Vec::new();
        for choice in ["reshuffle_now", "finish_turn"] {
            let mut rs = ruleset(&["linear-warfare"]);
            rs.set_interpretation("deck_runs_out", choice).unwrap();
            let host = Host::new(rs).unwrap();
            host.set_dice(Box::new(Seeded::new(seed)));
            let code = format!(r#"{} let d = day.play_day(); d"#, day("trumps: 0", "trumps: 0", 1));
            let d = eval_map(&host, &code);
            let phases = d["phases"].clone().cast::<Map>();
            counts.push(int(&phases, "french") + int(&phases, "allies") + int(&d, "surplus"));
        }
        assert_eq!(counts[0], 36);
        assert!(counts[1] >= 36);
        if counts[1] > 36 {
            more += 1;
        }
    }
    assert!(more > 0, "some day ends its last run in the middle of a turn");
}

#[test]
fn the_same_seed_gives_the_same_day() {
    let run = |seed| {
        let host = lw();
        host.set_dice(Box::new(Seeded::new(seed)));
        let code = r#"let day = card_day(#{sides: [#{name: "french", colour: "red", cp: 3, policy: "always"},
            #{name: "allies", colour: "black", cp: 1, policy: "first"}], month: "may", region: "northern_europe"});
            let d = day.play_day(); `${d}`"#;
        host.eval(&mut Scope::new(), code).unwrap().value.to_string()
    };
    assert_eq!(run(4), run(4));
}

#[test]
fn each_phase_calls_the_scenario_with_the_sequence_of_play() {
    let host = host_with(faces("RBRB"));
    let code = format!(
        r#"fn phase(p) {{ tally("phase", `${{p.side}} ${{p.phase}} ${{p.steps}}`); }}
        fn turn_end(t) {{ tally("end", `turn ${{t.turn}}`); }}
        {} day.on_phase = Fn("phase"); day.on_turn_end = Fn("turn_end"); day.play_turn(); ()"#,
        day("trumps: 0", "trumps: 0", 1)
    );
    host.eval(&mut Scope::new(), &code).unwrap();
    let tallies = host.take_observations().tallies;
    let values: Vec<String> = tallies.iter().map(|(_, v)| v.to_string()).collect();
    assert_eq!(
        values,
        [
            r#"french 1 ["charges", "movement_and_fire", "unattached_leaders"]"#,
            r#"allies 1 ["charges", "movement_and_fire", "unattached_leaders"]"#,
            r#"french 2 ["charges", "movement_and_fire", "unattached_leaders"]"#,
            r#"allies 2 ["charges", "movement_and_fire", "unattached_leaders"]"#,
            "turn 1",
        ]
    );
}

#[test]
fn bad_setups_are_clear_errors() {
    let host = lw();
    for (code, reason) in [
        (r#"card_day(#{runs: 1, sides: [#{name: "a", colour: "red", trumps: 0}]})"#, "needs two sides"),
        (
            r#"card_day(#{runs: 1, sides: [#{name: "a", colour: "red", trumps: 0}, #{name: "b", colour: "red", trumps: 0}]})"#,
            "both sides have the colour red",
        ),
        (
            r#"card_day(#{runs: 1, sides: [#{name: "a", colour: "red", trumps: 0}, #{name: "b", colour: "green", trumps: 0}]})"#,
            "no card of the deck is green",
        ),
        (
            r#"card_day(#{sides: [#{name: "a", colour: "red", trumps: 0}, #{name: "b", colour: "black", trumps: 0}]})"#,
            "month and region",
        ),
        (
            r#"card_day(#{runs: 1, sides: [#{name: "a", colour: "red"}, #{name: "b", colour: "black", trumps: 0}]})"#,
            "senior commander's CP",
        ),
    ] {
        let err = error_debug(&host, code);
        assert!(err.contains(reason), "{code}: {err}");
    }
}

#[test]
fn who_is_an_exceptional_general_is_an_interpretation() {
    // By default the scenario's flag, and only for CP 3.
    let e = error_debug(&lw(), &format!("{} day", day("trumps: 0, cp: 2, exceptional: true", "trumps: 0", 1)));
    assert!(e.contains("an Exceptional General has CP 3"), "{e}");
    let mut rs = ruleset(&["linear-warfare"]);
    rs.set_interpretation("exceptional_general", "every_cp_3").unwrap();
    let host = Host::new(rs).unwrap();
    let m = eval_map(&host, &format!("{} day.allot", day("trumps: 0, cp: 3", "trumps: 0, cp: 2", 1)));
    assert_eq!((int(&m, "french"), int(&m, "allies")), (3, 2));
}

#[test]
fn played_trumps_come_back_at_the_reshuffle_only_under_the_flip() {
    let played = |choice: &str| {
        let mut rs = ruleset(&["linear-warfare"]);
        rs.set_interpretation("trump_spent", choice).unwrap();
        let host = Host::new(rs).unwrap();
        host.set_dice(Box::new(Seeded::new(3)));
        let code = format!(
            r#"{} let d = day.play_day(); d.trumps_played.allies"#,
            day("trumps: 0", "trumps: 1, policy: \"always\"", 3)
        );
        host.eval(&mut Scope::new(), &code).unwrap().value.as_int().unwrap()
    };
    assert_eq!(played("spent"), 1);
    assert_eq!(played("returned"), 3, "one trump, played once in each of three runs");
}

#[test]
fn the_army_withdrawal_check_runs_at_the_end_of_each_turn() {
    let host = host_with(faces("RBRB").into_iter().chain([10]).collect());
    let code = format!(
        r#"fn turn_end(t) {{ let a = army_of_day(); tally("check", `${{a.withdrawal_check().result}}`); }}
        fn army_of_day() {{ let u = unit(#{{name: "U", arm: "infantry", grade: "2", stands: 5, formation: "line"}}); u.stands = 4; #{{units: [u]}} }}
        {} day.on_turn_end = Fn("turn_end"); day.play_turn(); ()"#,
        day("trumps: 0", "trumps: 0", 1)
    );
    host.eval(&mut Scope::new(), &code).unwrap();
    assert_eq!(host.take_observations().tallies, [("check".into(), "holds".into())]);
}

#[test]
fn exact_odds_of_the_daylight_runs_in_a_northern_winter() {
    let odds = lw()
        .odds(&Scope::new(), r#"daylight_runs("january", "northern_europe").runs"#, EnumLimits::default(), (100, 1))
        .unwrap();
    // Independent count: max(1, d6 - 3).
    for runs in 1..=3i64 {
        let ways = (1..=6i64).filter(|d| (d - 3).max(1) == runs).count() as i64;
        assert_eq!(
            odds.distribution.probability(&Outcome::Number(runs)),
            BigRational::new(BigInt::from(ways), BigInt::from(6)),
            "{runs}"
        );
    }
}

/// Seed 003, L62 and L84.
const SEED_BOTTOM: &str = "When the turn is complete, all drawn cards are placed on the bottom of the deck, face up. \
When you have gone through the entire deck, reshuffle and start over.";
const SEED_NIGHT: &str = "When you have finished the last allowed \"run\" through the deck, night has fallen.";

#[test]
fn a_reshuffle_in_the_middle_of_a_turn_leaves_that_turns_cards_in_play() {
    assert!(SEED_BOTTOM.contains("When the turn is complete, all drawn cards"));
    // Turn 1 R R R(surplus) B B, seven turns R B R B: 33 cards, 17 red and 16 black; turn 9
    // draws R B B, the last three: the run is over with those three in play. The next card
    // (face 1 of the new deck: turn 1's surplus red, the first put to the bottom) ends the turn.
    let colours = format!("RRRBB{}RBB", "RBRB".repeat(7));
    let host = host_with(faces(&colours).into_iter().chain([1]).collect());
    let code = format!(
        r#"{} for i in 1..=9 {{ day.play_turn(); }}
        #{{carried: day.carried_over, face_down: day.deck.face_down, face_up: day.deck.face_up.len(), run: day.deck.run,
          in_play: day.deck.in_play.len(), turn: day.turn, night: day.night}}"#,
        day("trumps: 0", "trumps: 0", 2)
    );
    let m = eval_map(&host, &code);
    // The new deck is the 33 cards at the bottom; one drawn; the turn's four go to the bottom face up.
    assert_eq!(
        (int(&m, "carried"), int(&m, "face_down"), int(&m, "face_up"), int(&m, "run"), int(&m, "in_play")),
        (3, 32, 4, 2, 0)
    );
    assert_eq!(int(&m, "turn"), 10);
    assert!(!m["night"].as_bool().unwrap());
}

#[test]
fn a_last_run_ending_with_a_turn_is_night_under_both_readings() {
    assert!(SEED_NIGHT.contains("night has fallen"));
    // Nine turns of R B R B: the one allowed run ends with the ninth turn.
    for choice in ["reshuffle_now", "finish_turn"] {
        let mut rs = ruleset(&["linear-warfare"]);
        rs.set_interpretation("deck_runs_out", choice).unwrap();
        let host = Host::new(rs).unwrap();
        host.set_dice(Box::new(Supplied::new(faces(&"RBRB".repeat(9)))));
        let code = format!(r#"{} let d = day.play_day(); d.night = day.night; d"#, day("trumps: 0", "trumps: 0", 1));
        let d = eval_map(&host, &code);
        let phases = d["phases"].clone().cast::<Map>();
        assert_eq!(int(&d, "turns"), 9, "{choice}");
        assert_eq!((int(&phases, "french"), int(&phases, "allies"), int(&d, "surplus")), (18, 18, 0), "{choice}");
        assert_eq!(int(&d, "runs"), 1, "{choice}");
        assert!(d["night"].as_bool().unwrap());
    }
}

#[test]
fn bad_runs_and_trumps_are_refused_and_a_written_cp_is_read() {
    let host = lw();
    let sides = |french: &str| {
        format!(r#"[#{{name: "a", colour: "red", {french}}}, #{{name: "b", colour: "black", trumps: 0}}]"#)
    };
    for (runs, french, reason) in [
        (r#""2""#, "trumps: 0", "runs is the number of runs through the deck, a whole number of 1 or more"),
        ("0", "trumps: 0", "a whole number of 1 or more, not 0"),
        ("1.5", "trumps: 0", "a whole number of 1 or more"),
        ("1", "trumps: 20", "trumps is a whole number from 0 to 8 (the face cards and Aces of red), not 20"),
        ("1", "trumps: -3", "from 0 to 8"),
        ("1", r#"trumps: "2""#, "from 0 to 8"),
        ("1", "cp: 4", "CP rating is 1, 2 or 3"),
        ("1", r#"cp: "two""#, "CP rating is 1, 2 or 3"),
    ] {
        let code = format!("card_day(#{{runs: {runs}, sides: {}}})", sides(french));
        let err = error_debug(&host, &code);
        assert!(err.contains(reason), "{code}: {err}");
    }
    // cp: "2" (as a leader's rating is written) is CP 2: 1d6 + 2 trumps; "3" may be Exceptional.
    host.set_dice(Box::new(Supplied::new([4])));
    let m = eval_map(
        &host,
        &format!(
            r#"let day = card_day(#{{runs: 1, sides: {}}}); #{{trumps: day.sides.a.trumps, cp: day.sides.a.cp}}"#,
            sides(r#"cp: "2""#)
        ),
    );
    assert_eq!((int(&m, "trumps"), int(&m, "cp")), (6, 2));
    let m = eval_map(
        &host,
        &format!(
            r#"let day = card_day(#{{runs: 1, sides: {}}}); day.allot"#,
            sides(r#"cp: "3", trumps: 8, exceptional: true"#)
        ),
    );
    assert_eq!(int(&m, "a"), 3);
    // Under trump_ninth = joker a ninth trump may be given.
    let mut rs = ruleset(&["linear-warfare"]);
    rs.set_interpretation("trump_ninth", "joker").unwrap();
    let m = eval_map(
        &Host::new(rs).unwrap(),
        &format!(r#"let day = card_day(#{{runs: 1, sides: {}}}); #{{t: day.sides.a.trumps}}"#, sides("trumps: 9")),
    );
    assert_eq!(int(&m, "t"), 9);
}

#[test]
fn exact_chance_that_a_side_with_one_trump_has_the_first_two_phases() {
    // The allies hold one trump and play it whenever they may; the French have none.
    let code = format!(
        r#"{} day.next_card(); day.next_card(); day.phases.allies == 2"#,
        day("trumps: 0", r#"trumps: 1, policy: "always""#, 1)
    );
    let odds = lw().odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap();
    assert!(odds.exact);
    // Independent count over every ordered pair of two of the 36 cards (18 red, 18 black):
    // a red first card is trumped (the allies' phase, their trump spent), a black one is
    // theirs anyway; the second phase is theirs when the card is black, or red with their
    // trump still in hand.
    let red = |i: usize| i < 18;
    let (mut allies_twice, mut all) = (0i64, 0i64);
    for a in 0..36 {
        for b in 0..36 {
            if a == b {
                continue;
            }
            all += 1;
            let mut trumps = 1;
            if red(a) {
                trumps -= 1;
            }
            let second_allies = !red(b) || trumps > 0;
            if second_allies {
                allies_twice += 1;
            }
        }
    }
    let expected = BigRational::new(BigInt::from(allies_twice), BigInt::from(all));
    assert_eq!(odds.distribution.probability(&Outcome::Flag(true)), expected);
    assert_eq!(expected, BigRational::new(BigInt::from(53), BigInt::from(70)));
}

/// Every ordered draw of a deck of `red` and `black` cards, as colours (true = red).
fn orderings(red: usize, black: usize) -> Vec<Vec<bool>> {
    if red + black == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    // Cards are distinct: each of the `red` red cards may come first (and each black one).
    for (colour, n) in [(true, red), (false, black)] {
        if n == 0 {
            continue;
        }
        let rest = if colour { orderings(red - 1, black) } else { orderings(red, black - 1) };
        for _ in 0..n {
            for r in &rest {
                let mut v = vec![colour];
                v.extend(r);
                out.push(v);
            }
        }
    }
    out
}

#[test]
fn exact_chance_of_a_surplus_card_in_a_whole_first_turn() {
    // A deck of 3 red and 3 black (the test overlay small_deck), so that every draw of the
    // whole turn can be walked. French red, allies black, no trumps.
    let overlay = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/rulesets/linear_warfare/small_deck");
    for (french, french_phases) in [("trumps: 0", 2usize), ("trumps: 0, cp: 3, exceptional: true", 3)] {
        let host = Host::new(ruleset(&[overlay])).unwrap();
        let code = format!(r#"{} day.play_turn(); day.surplus > 0"#, day(french, "trumps: 0", 1));
        let odds = host.odds(&Scope::new(), &code, EnumLimits::default(), (100, 1)).unwrap();
        assert!(odds.exact);
        // Independent count over the 720 orderings of the six cards: phases until both sides
        // have theirs; a card for a side that has had all its phases is a surplus card.
        let all = orderings(3, 3);
        assert_eq!(all.len(), 720);
        let mut surplus_turns = 0i64;
        for order in &all {
            let (mut fr, mut al, mut surplus) = (0usize, 0usize, false);
            for &red in order {
                if fr == french_phases && al == 2 {
                    break;
                }
                let (used, allot) = if red { (&mut fr, french_phases) } else { (&mut al, 2) };
                if *used < allot {
                    *used += 1;
                } else {
                    surplus = true;
                }
            }
            if surplus {
                surplus_turns += 1;
            }
        }
        let expected = BigRational::new(BigInt::from(surplus_turns), BigInt::from(720));
        assert_eq!(odds.distribution.probability(&Outcome::Flag(true)), expected, "{french}");
        if french_phases == 2 {
            // Hypergeometric: no surplus only when the first four cards are two of each colour,
            // C(4,2) x (3 x 2) x (3 x 2) / (6 x 5 x 4 x 3) = 216/360, so 2/5 with a surplus.
            assert_eq!(expected, BigRational::new(BigInt::from(2), BigInt::from(5)));
        }
    }
}
