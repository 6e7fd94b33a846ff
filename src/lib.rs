//! grognard: a scripting-driven rules interpreter for horse-and-musket tabletop wargames.
//!
//! The kernel ([`dice`], [`measure`], [`unit`]) rolls dice and computes exact
//! odds, measures the table, and holds troop units as plain data. The command
//! line ([`cli`]) is a thin shell over it.

pub mod cli;
pub mod error;
#[cfg(test)]
mod floors;
pub mod kernel;
pub mod present;
pub mod repl;
pub mod rules;
pub mod run;
pub mod script;

pub use kernel::cards;
pub use kernel::dice;
pub use kernel::measure;
pub use kernel::unit;
