//! Presentation, shared by every front-end: diagnostics, script values, odds, traces and a
//! ruleset's tables, lists and procedures as text and JSON, and output files written whole. It
//! knows no front-end's types: the command line, the REPL and headless runs all print through it.

pub mod attribution;
pub mod change_bar;
pub mod diagnostic;
pub mod escape;
mod escaped_diagnostic;
pub mod file;
pub mod fit;
pub mod html;
pub mod odds;
pub mod ruleset;
pub mod sweep;
pub mod trace;
pub mod value;
