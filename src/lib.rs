//! grognard: a scripting-driven rules interpreter for horse-and-musket tabletop wargames.
//!
//! The kernel ([`dice`], [`measure`], [`unit`], [`cards`]) rolls dice and computes exact
//! odds, measures the table, holds troop units as plain data and draws cards. [`rules`] turns a
//! ruleset folder into checked data; [`script`] runs its procedures in Rhai, traced, and walks
//! them for exact odds; [`present`] prints what the front-ends show; [`run`] runs studies
//! headless, [`repl`] resolves one combat at a time, and [`cli`] is the command line over all of
//! it. `ARCHITECTURE.md` describes the floors, which `cargo test` holds every import to.

mod kernel;

pub mod cli;
pub mod error;
pub mod present;
pub mod repl;
pub mod rules;
pub mod run;
pub mod script;

pub use kernel::{cards, dice, measure, memory, unit};

/// Every allocation is counted against the thread that makes it, so that a command's memory is a
/// budget (`memory`, `script::budget`).
#[global_allocator]
static ALLOCATOR: memory::Counting = memory::Counting;

#[cfg(test)]
mod codes;
#[cfg(test)]
mod floors;
#[cfg(test)]
mod source_scan;
