//! The ff-napoleonic tables against seed 004, cell by cell.

use crate::ruleset;

#[test]
fn the_ruleset_loads() {
    let rs = ruleset(&["ff-napoleonic"]);
    assert!(rs.tables.contains_key("musketry"));
}
