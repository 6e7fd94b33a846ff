//! Fire & Fury Napoleonic (seed 004).

mod command;
mod fatigue;
mod fire;
mod maneuver;
mod melee;
mod movement;
mod rule_notes;
mod sequence;
mod tables;
