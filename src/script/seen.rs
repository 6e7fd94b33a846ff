//! `Seen`: what the paths of one `odds` command touched, on any path walked or sampled: the
//! modifiers that applied and the table rows read (what `compare` and attribution name).

use std::collections::BTreeSet;
use std::rc::Rc;
use std::sync::Arc;

/// The modifiers that applied, by list and id; the tables read, by id and row (none for a
/// table of bands, a lookup, or a result named by a rule); and the results they gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    pub modifiers: BTreeSet<(Rc<str>, Rc<str>)>,
    pub rows: BTreeSet<(Arc<str>, Option<Arc<str>>)>,
    pub results: BTreeSet<(Arc<str>, String)>,
}

impl Seen {
    /// The modifiers as (list, id) text.
    pub fn modifier_ids(&self) -> Vec<(String, String)> {
        self.modifiers.iter().map(|(list, id)| (list.to_string(), id.to_string())).collect()
    }

    /// Whether `table` was read, in `row` when one is named.
    pub fn read(&self, table: &str, row: Option<&str>) -> bool {
        self.rows.iter().any(|(t, r)| **t == *table && (row.is_none() || r.as_deref() == row))
    }

    /// Whether `table` gave `result`.
    pub fn gave(&self, table: &str, result: &str) -> bool {
        self.results.iter().any(|(t, r)| **t == *table && r == result)
    }

    /// Whether modifier `id` of `list` applied.
    pub fn applied(&self, list: &str, id: &str) -> bool {
        self.modifiers.iter().any(|(l, i)| **l == *list && **i == *id)
    }
}
