//! `Vocabulary`: the words a ruleset allows for arms, types, grades, formations, orders and nations.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

/// Words a ruleset allows. An empty set means "any word": a ruleset that does
/// not list formations does not restrict them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vocabulary {
    #[serde(default)]
    pub arms: BTreeSet<String>,
    #[serde(default)]
    pub types: BTreeSet<String>,
    #[serde(default)]
    pub grades: BTreeSet<String>,
    #[serde(default)]
    pub formations: BTreeSet<String>,
    #[serde(default)]
    pub orders: BTreeSet<String>,
    #[serde(default)]
    pub nations: BTreeSet<String>,
    #[serde(default)]
    pub markers: BTreeSet<String>,
}

impl Vocabulary {
    /// Whether `word` is allowed by `set` (every word is, when the set is empty).
    pub fn allows(set: &BTreeSet<String>, word: &str) -> bool {
        set.is_empty() || set.contains(word)
    }

    /// The allowed word closest to `word`, for a "did you mean" hint.
    pub fn closest<'a>(set: &'a BTreeSet<String>, word: &str) -> Option<&'a str> {
        set.iter()
            .map(|w| (edit_distance(w, word), w))
            .filter(|(d, w)| *d <= 2.max(w.len() / 3))
            .min()
            .map(|(_, w)| w.as_str())
    }
}

/// Levenshtein distance, for suggestions.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}
