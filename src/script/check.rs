//! Checking a ruleset's scripts: procedures and `when:` conditions compile, and call only functions that exist.

use super::host::Host;
use super::sandbox::Limits;
use crate::rules::{Problem, Ruleset};

/// Every script problem in `ruleset`: compile errors and calls to unknown
/// functions, in procedures and in modifiers' conditions.
pub fn check(ruleset: &Ruleset) -> Vec<Problem> {
    Host::build(ruleset.clone(), Limits::default()).1
}
