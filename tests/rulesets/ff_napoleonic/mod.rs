//! Fire & Fury Napoleonic (seed 004).

mod rule_notes;
mod tables;
mod sequence;
