//! Fire & Fury Napoleonic (seed 004).

mod fire;
mod maneuver;
mod melee;
mod rule_notes;
mod sequence;
mod tables;
