//! Cards for Rhai: `new_deck([...])`, `deck.draw("label")` through the host's dice, bottom face up, reshuffle, runs.

use std::rc::Rc;

use rhai::{Array, Dynamic, Engine, EvalAltResult, FuncRegistration, Map};

use num_bigint::BigUint;

use super::unseen::Unseen;
use crate::cards::{Card, CardError, Deck};
use crate::dice::Weights;
use crate::script::error::fail;
use crate::script::handles::DeckRef;
use crate::script::mode::WalkDice;
use crate::script::state::{Shared, State};
use crate::script::trace::Step;

/// A drawn card as Rhai sees it: `#{name, colour, position, of, run}`.
fn card_map(card: &Card, position: usize, of: usize, run: u32) -> Map {
    let mut map = Map::new();
    map.insert("name".into(), card.name.clone().into());
    map.insert("colour".into(), card.colour.clone().into());
    map.insert("position".into(), Dynamic::from(position as i64));
    map.insert("of".into(), Dynamic::from(of as i64));
    map.insert("run".into(), Dynamic::from(i64::from(run)));
    map
}

pub fn register(engine: &mut Engine, state: &Shared) {
    engine.register_fn("new_deck", |cards: Array| -> Result<DeckRef, Box<EvalAltResult>> {
        let mut deck = Vec::with_capacity(cards.len());
        for (i, item) in cards.into_iter().enumerate() {
            let Some(map) = item.clone().try_cast::<Map>() else {
                return fail(format!(
                    "card {} of the deck is {}, not a map such as #{{name: \"7 of hearts\", colour: \"red\"}}",
                    i + 1,
                    item.type_name()
                ));
            };
            let field = |key: &str| map.get(key).filter(|v| v.is_string()).map(|v| v.to_string());
            let (Some(name), Some(colour)) = (field("name"), field("colour")) else {
                return fail(format!("card {} of the deck needs a `name` and a `colour` (words)", i + 1));
            };
            deck.push(Card { name, colour });
        }
        Deck::new(deck).map(DeckRef::new).or_else(|e| fail(e.to_string()))
    });

    engine
        .register_type_with_name::<DeckRef>("Deck")
        .register_get("size", |d: &mut DeckRef| d.0.borrow().size() as i64)
        .register_get("face_down", |d: &mut DeckRef| d.0.borrow().face_down() as i64)
        .register_get("run", |d: &mut DeckRef| i64::from(d.0.borrow().run()))
        .register_get("run_over", |d: &mut DeckRef| d.0.borrow().run_over())
        .register_fn("face_down_of", |d: &mut DeckRef, colour: &str| d.0.borrow().face_down_of(colour) as i64)
        .register_fn("to_string", |d: &mut DeckRef| describe(&d.0.borrow()))
        .register_fn("to_debug", |d: &mut DeckRef| describe(&d.0.borrow()));

    // The names of the cards drawn: `Unseen` while a walk draws by kind (see `unseen`).
    for (getter, in_play) in [("in_play", true), ("face_up", false)] {
        let st = state.clone();
        engine.register_get(getter, move |d: &mut DeckRef| {
            let deck = d.0.borrow();
            let cards = if in_play { deck.in_play() } else { deck.face_up() };
            let by_kind = {
                let mut st = st.borrow_mut();
                let by_kind = st.cards.by_kind && st.mode.walking().is_some();
                st.cards.unseen |= by_kind && !cards.is_empty();
                by_kind
            };
            let name = |c: &Card| {
                if by_kind {
                    Dynamic::from(Unseen::Name(c.name.as_str().into()))
                } else {
                    Dynamic::from(c.name.clone())
                }
            };
            cards.iter().map(name).collect::<Array>()
        });
    }
    let st = state.clone();
    engine.register_fn("to_bottom", move |d: &mut DeckRef, name: &str| -> Result<(), Box<EvalAltResult>> {
        d.edit().to_bottom(name).or_else(|e| fail(e.to_string()))?;
        st.borrow_mut().record(|| Step::Note { text: format!("{name} to the bottom of the deck, face up") });
        Ok(())
    });
    engine.register_fn("all_to_bottom", |d: &mut DeckRef| d.edit().all_to_bottom() as i64);
    let st = state.clone();
    engine.register_fn("reshuffle", move |d: &mut DeckRef| {
        let mut deck = d.edit();
        deck.reshuffle();
        let run = deck.run();
        st.borrow_mut().record(|| Step::Note { text: format!("the deck is reshuffled: run {run} through it begins") });
    });

    for labelled in [false, true] {
        let state = state.clone();
        let draw = move |d: &mut DeckRef, label: Option<&str>| -> Result<Map, Box<EvalAltResult>> {
            let mut st = state.borrow_mut();
            let mut deck = d.edit();
            let what = label.unwrap_or("card draw");
            if st.cards.by_kind
                && let Some(dice) = st.mode.walking().map(|w| w.dice.clone())
            {
                return draw_by_kind(&mut st, &dice, &mut deck);
            }
            match deck.draw_at(&mut st.mode, what) {
                Ok((card, (position, of))) => {
                    let run = deck.run();
                    let label = label.map(str::to_string);
                    let (name, colour) = (card.name.clone(), card.colour.clone());
                    st.record(|| Step::Card { label, card: name, colour, position, of, run });
                    Ok(card_map(&card, position, of, run))
                }
                Err(CardError::Dice(err)) => {
                    let message = err.to_string();
                    st.dice_error = Some(err);
                    fail(message)
                }
                Err(err) => fail(err.to_string()),
            }
        };
        // Volatile, like `roll`: the optimizer must never fold a draw into a constant.
        let registration = FuncRegistration::new("draw").with_volatility(true);
        if labelled {
            registration.register_into_engine(engine, move |d: &mut DeckRef, label: &str| draw(d, Some(label)));
        } else {
            registration.register_into_engine(engine, move |d: &mut DeckRef| draw(d, None));
        }
    }
}

/// A draw during an exact walk that draws by kind (see `unseen`): a branch over the kinds
/// of card left, each as likely as it has cards; the first card of the kind is taken, and
/// its name and place are `Unseen`.
fn draw_by_kind(st: &mut State, dice: &WalkDice, deck: &mut Deck) -> Result<Map, Box<EvalAltResult>> {
    let kinds = deck.kinds();
    let total = deck.face_down();
    let chosen = if kinds.len() > 1 {
        let weights = Rc::new(Weights {
            counts: kinds.iter().map(|(_, n)| BigUint::from(*n)).collect(),
            total: BigUint::from(total),
        });
        let chosen = dice.borrow_mut().choose(&weights);
        match chosen {
            Ok(i) => i,
            Err(err) => {
                let message = err.to_string();
                st.dice_error = Some(err);
                return fail(message);
            }
        }
    } else {
        0
    };
    let index = kinds.get(chosen).map_or(0, |k| k.0);
    let (card, (position, of)) = deck.take(index).or_else(|e| fail(e.to_string()))?;
    st.cards.unseen = true;
    let mut map = card_map(&card, position, of, deck.run());
    map.insert("name".into(), Dynamic::from(Unseen::Name(card.name.into())));
    map.insert("position".into(), Dynamic::from(Unseen::Place(position as i64)));
    Ok(map)
}

/// `deck of 36: 30 face down, 2 in play, 4 face up; run 1`.
fn describe(deck: &Deck) -> String {
    format!(
        "deck of {}: {} face down, {} in play, {} face up; run {}",
        deck.size(),
        deck.face_down(),
        deck.in_play().len(),
        deck.face_up().len(),
        deck.run()
    )
}
