//! Linear Warfare (seed 003), one file per rule area: the card draw and turn
//! sequence (and the exact odds of a draw), doctrine, the maneuver table,
//! movement and reactions, army withdrawal with rally and making it happen, the
//! charge, Charge Combat, fire, skirmishers, trophies of war, and the tables
//! against the seed text or, for the house tables, the inventory's proposal.
//!
//! `small_deck/` is a test overlay (a deck of six cards) that `cards` and
//! `card_odds` load by its path.

mod army_withdrawal;
mod card_odds;
mod cards;
mod charge;
mod charge_combat;
mod doctrine;
mod fire;
mod maneuver;
mod movement;
mod read_rules;
mod skirmishers;
mod table_reads;
mod tables;
mod trophies;
