//! Fire & Fury Napoleonic (seed 004).

mod tables;
