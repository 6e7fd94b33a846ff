//! `grognard check` on a ruleset's scripts: every problem building a host finds (procedures and
//! `when:` conditions that do not compile, unknown functions, names and dice written as
//! literals, rolls never read, broken contracts, misspelt words), errors and warnings alike.

use super::host::Host;
use super::sandbox::Limits;
use crate::rules::{Problem, Ruleset};

/// Every script problem in `ruleset`: compile errors and calls to unknown
/// functions, in procedures and in modifiers' conditions.
pub fn check(ruleset: &Ruleset) -> Vec<Problem> {
    Host::build(ruleset.clone(), Limits::default()).1
}
