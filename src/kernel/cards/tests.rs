//! The deck: drawing through a source, bottom face up, reshuffling, runs.

use super::{Card, CardError, Deck};
use crate::dice::{Enumerator, Seeded, Supplied};

fn deck(colours: &[(&str, usize)]) -> Deck {
    let mut cards = Vec::new();
    for (colour, n) in colours {
        for i in 0..*n {
            cards.push(Card { name: format!("{colour} {i}"), colour: colour.to_string() });
        }
    }
    Deck::new(cards).unwrap()
}

#[test]
fn a_supplied_face_takes_that_face_down_card() {
    let mut d = deck(&[("red", 2), ("black", 2)]);
    let c = d.draw(&mut Supplied::new([4]), "").unwrap();
    assert_eq!(c.name, "black 1");
    // The others keep their order: face 3 is now the last one.
    let c = d.draw(&mut Supplied::new([3]), "").unwrap();
    assert_eq!(c.name, "black 0");
    assert_eq!((d.face_down(), d.in_play().len(), d.face_down_of("red")), (2, 2, 2));
}

#[test]
fn the_last_card_needs_no_die() {
    let mut d = deck(&[("red", 1), ("black", 1)]);
    d.draw(&mut Supplied::new([1]), "").unwrap();
    // No face left to supply: the last card is taken without a die.
    let c = d.draw(&mut Supplied::new([]), "").unwrap();
    assert_eq!(c.colour, "black");
    assert!(d.run_over());
    assert_eq!(d.draw(&mut Supplied::new([1]), ""), Err(CardError::RunOver { size: 2 }));
}

#[test]
fn cards_go_to_the_bottom_face_up_and_come_back_at_the_reshuffle() {
    let mut d = deck(&[("red", 3), ("black", 3)]);
    let a = d.draw(&mut Supplied::new([1]), "").unwrap();
    let b = d.draw(&mut Supplied::new([1]), "").unwrap();
    d.to_bottom(&a.name).unwrap();
    assert_eq!(d.face_up().len(), 1);
    assert!(matches!(d.to_bottom(&a.name), Err(CardError::NotInPlay { .. })));
    assert_eq!(d.all_to_bottom(), 1);
    assert_eq!(d.face_up().iter().map(|c| c.name.clone()).collect::<Vec<_>>(), [a.name, b.name]);
    assert_eq!((d.face_down(), d.run()), (4, 1));
    d.reshuffle();
    assert_eq!((d.face_down(), d.face_up().len(), d.run()), (6, 0, 2));
}

#[test]
fn a_reshuffle_leaves_the_cards_in_play_on_the_table() {
    let mut d = deck(&[("red", 3), ("black", 3)]);
    // Four cards drawn and put to the bottom (earlier turns), two in play (this turn).
    for _ in 0..4 {
        let c = d.draw(&mut Supplied::new([1]), "").unwrap();
        d.to_bottom(&c.name).unwrap();
    }
    let a = d.draw(&mut Supplied::new([1]), "").unwrap();
    let b = d.draw(&mut Supplied::new([]), "").unwrap();
    assert!(d.run_over());
    d.reshuffle();
    // Only the four face-up cards are shuffled back; this turn's two stay in play.
    assert_eq!((d.face_down(), d.in_play().len(), d.face_up().len(), d.run()), (4, 2, 0, 2));
    assert!(d.in_play().iter().all(|c| c.name == a.name || c.name == b.name));
    // At the end of the turn they go to the bottom of the new deck, face up.
    assert_eq!(d.all_to_bottom(), 2);
    assert_eq!((d.face_down(), d.face_up().len()), (4, 2));
}

#[test]
fn a_supplied_face_past_the_cards_left_is_refused() {
    let mut d = deck(&[("red", 2), ("black", 2)]);
    d.draw(&mut Supplied::new([1]), "").unwrap();
    assert!(matches!(d.draw(&mut Supplied::new([4]), "second card"), Err(CardError::Dice(_))));
    assert_eq!(d.face_down(), 3, "a refused draw takes no card");
}

#[test]
fn a_seeded_deck_draws_the_same_cards_again() {
    let draw_all = |seed| {
        let mut d = deck(&[("red", 18), ("black", 18)]);
        let mut source = Seeded::new(seed);
        (0..36).map(|_| d.draw(&mut source, "").unwrap().name).collect::<Vec<_>>()
    };
    assert_eq!(draw_all(7), draw_all(7));
    assert_ne!(draw_all(7), draw_all(8));
    let mut all = draw_all(7);
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 36, "every card once");
}

#[test]
fn the_enumerator_walks_every_draw_once() {
    // Two draws from 3 red and 2 black: 5 x 4 = 20 equally likely paths; both
    // red in 3 x 2 of them.
    let mut walk = Enumerator::new(4);
    let (mut paths, mut both_red) = (0, 0);
    loop {
        walk.begin_run();
        let mut d = deck(&[("red", 3), ("black", 2)]);
        let a = d.draw(&mut walk, "").unwrap();
        let b = d.draw(&mut walk, "").unwrap();
        let end = walk.end_run().unwrap();
        assert!(!end.cut_off);
        paths += 1;
        if a.colour == "red" && b.colour == "red" {
            both_red += 1;
        }
        if !walk.advance() {
            break;
        }
    }
    assert_eq!((paths, both_red), (20, 6));
}

#[test]
fn an_empty_deck_is_refused() {
    assert_eq!(Deck::new(Vec::new()), Err(CardError::Empty));
}
