//! Cards: a deck drawn through a `RollSource`, with cards put to the bottom face up and runs through the deck counted.

mod deck;
#[cfg(test)]
mod tests;

pub use deck::{Card, CardError, Deck};
