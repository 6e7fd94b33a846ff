//! `Deck`: cards face down on top, cards drawn and in play, cards put to the bottom face up; one run through it at a time.

use std::collections::BTreeSet;

use thiserror::Error;

use crate::dice::{DiceError, Die, RollSource};

/// One card: its name ("7 of hearts") and the colour a side is allotted by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    pub name: String,
    pub colour: String,
}

/// What can go wrong with a deck.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CardError {
    /// A deck needs at least one card.
    #[error("a deck needs at least one card")]
    Empty,
    /// Every face-down card has been drawn: the run through the deck is over.
    #[error("the run through the deck is over (all {size} cards drawn): reshuffle before drawing again")]
    RunOver { size: usize },
    /// `to_bottom` named a card that is not in play.
    #[error("`{name}` is not a card drawn and still in play{}", if in_play.is_empty() { String::new() } else { format!(" (in play: {})", in_play.join(", ")) })]
    NotInPlay { name: String, in_play: Vec<String> },
    /// The dice source could not give the face that chooses the card.
    #[error("{0}")]
    Dice(#[from] DiceError),
}

/// A deck on the table. Cards are drawn from the face-down part on top; a
/// drawn card is in play until it is put to the bottom face up. When no
/// face-down card is left the run is over and the deck is reshuffled.
///
/// Drawing is a uniform choice among the face-down cards: the face of an
/// n-sided die asked of a `RollSource`, so that a seeded run is reproducible,
/// a test or a player can supply the draws, and the enumerator walks every
/// draw for exact odds. The face-down cards keep the order they were given in
/// (face `k` takes the k-th of them), which is the same as drawing the top
/// card of a well-shuffled deck.
///
/// # Example
/// ```
/// use grognard::cards::{Card, Deck};
/// use grognard::dice::Supplied;
/// let cards = ["red", "red", "black"].iter().enumerate()
///     .map(|(i, c)| Card { name: format!("card {i}"), colour: c.to_string() }).collect();
/// let mut deck = Deck::new(cards).unwrap();
/// let card = deck.draw(&mut Supplied::new([3]), "first card").unwrap();
/// assert_eq!(card.colour, "black");
/// assert_eq!(deck.face_down(), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    face_down: Vec<Card>,
    in_play: Vec<Card>,
    face_up: Vec<Card>,
    size: usize,
    run: u32,
    /// The names of the cards drawn at least once: a script may hold one of them.
    seen: BTreeSet<String>,
}

impl Deck {
    /// A deck of `cards`, all face down, on its first run.
    pub fn new(cards: Vec<Card>) -> Result<Deck, CardError> {
        if cards.is_empty() {
            return Err(CardError::Empty);
        }
        Ok(Deck {
            size: cards.len(),
            face_down: cards,
            in_play: Vec::new(),
            face_up: Vec::new(),
            run: 1,
            seen: BTreeSet::new(),
        })
    }

    /// Draws one face-down card, chosen by `source` (the face of an n-sided
    /// die for n cards left; the last card needs no die). It is in play until put to the bottom.
    pub fn draw(&mut self, source: &mut dyn RollSource, what: &str) -> Result<Card, CardError> {
        let (card, _) = self.draw_at(source, what)?;
        Ok(card)
    }

    /// As `draw`, also giving which of the face-down cards was taken (1-based)
    /// out of how many, for an explanation.
    pub fn draw_at(&mut self, source: &mut dyn RollSource, what: &str) -> Result<(Card, (usize, usize)), CardError> {
        let n = self.face_down.len();
        if n == 0 {
            return Err(CardError::RunOver { size: self.size });
        }
        let face_down: Vec<&str> = self.face_down.iter().map(|c| c.name.as_str()).collect();
        let drawn: Vec<&str> = self.in_play.iter().chain(&self.face_up).map(|c| c.name.as_str()).collect();
        // A card named at the table is the one taken, the last one left too.
        let named = source.card_drawn(&face_down, &drawn, what);
        let index = if let Some(named) = named {
            named?.min(n - 1)
        } else if n == 1 {
            0
        } else {
            let sides = u32::try_from(n).unwrap_or(u32::MAX);
            let die = Die::standard(sides);
            let face = source.face_for(die, what)?;
            usize::try_from(face - die.first).unwrap_or(0).min(n - 1)
        };
        self.take(index)
    }

    /// The face-down cards a draw cannot tell apart, as the index of the first of them and
    /// how many they are, in the order of the face-down cards: those of one colour never
    /// drawn yet are alike (no script has held one); a card drawn before is alone.
    pub fn kinds(&self) -> Vec<(usize, usize)> {
        let mut kinds: Vec<(usize, usize)> = Vec::new();
        let mut unseen: Vec<(&str, usize)> = Vec::new();
        for (i, card) in self.face_down.iter().enumerate() {
            if self.seen.contains(&card.name) {
                kinds.push((i, 1));
            } else if let Some(&(_, at)) = unseen.iter().find(|(colour, _)| *colour == card.colour) {
                kinds[at].1 += 1;
            } else {
                unseen.push((&card.colour, kinds.len()));
                kinds.push((i, 1));
            }
        }
        kinds
    }

    /// Draws the face-down card at `index` (from 0; the last one past the end); with its
    /// place (1-based) among how many.
    pub fn take(&mut self, index: usize) -> Result<(Card, (usize, usize)), CardError> {
        let n = self.face_down.len();
        if n == 0 {
            return Err(CardError::RunOver { size: self.size });
        }
        let index = index.min(n - 1);
        let card = self.face_down.remove(index);
        if !self.seen.contains(&card.name) {
            self.seen.insert(card.name.clone());
        }
        self.in_play.push(card.clone());
        Ok((card, (index + 1, n)))
    }

    /// Puts the card in play named `name` to the bottom, face up (a surplus
    /// card, or a card replaced by a trump).
    pub fn to_bottom(&mut self, name: &str) -> Result<(), CardError> {
        let Some(at) = self.in_play.iter().position(|c| c.name == name) else {
            return Err(CardError::NotInPlay {
                name: name.to_string(),
                in_play: self.in_play.iter().map(|c| c.name.clone()).collect(),
            });
        };
        let card = self.in_play.remove(at);
        self.face_up.push(card);
        Ok(())
    }

    /// Puts every card in play to the bottom face up (the end of a turn); how many.
    pub fn all_to_bottom(&mut self) -> usize {
        let n = self.in_play.len();
        self.face_up.append(&mut self.in_play);
        n
    }

    /// Gathers the cards at the bottom, face down again, and starts the next
    /// run. The cards in play stay on the table: they belong to the turn going
    /// on and go to the bottom of the new deck, face up, at its end (seed 003,
    /// L62: "When the turn is complete, all drawn cards are placed on the
    /// bottom of the deck, face up. When you have gone through the entire
    /// deck, reshuffle and start over").
    pub fn reshuffle(&mut self) {
        self.face_down.append(&mut self.face_up);
        self.run += 1;
    }

    /// Whether every face-down card has been drawn (the face-up cards are reached).
    pub fn run_over(&self) -> bool {
        self.face_down.is_empty()
    }

    /// The run through the deck now going on, from 1.
    pub fn run(&self) -> u32 {
        self.run
    }

    /// How many cards the deck holds in all.
    pub fn size(&self) -> usize {
        self.size
    }

    /// How many cards are still face down.
    pub fn face_down(&self) -> usize {
        self.face_down.len()
    }

    /// How many face-down cards are of `colour`.
    pub fn face_down_of(&self, colour: &str) -> usize {
        self.face_down.iter().filter(|c| c.colour == colour).count()
    }

    /// The cards drawn and not yet put to the bottom.
    pub fn in_play(&self) -> &[Card] {
        &self.in_play
    }

    /// The cards at the bottom, face up, in the order they were put there.
    pub fn face_up(&self) -> &[Card] {
        &self.face_up
    }
}
