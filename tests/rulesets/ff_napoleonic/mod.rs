//! Fire & Fury Napoleonic (seed 004).

mod command;
mod fatigue;
mod fire;
mod maneuver;
mod melee;
mod movement;
mod one_fact;
mod rule_notes;
mod sequence;
mod tables;
