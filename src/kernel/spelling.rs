//! "Did you mean": the known word closest to a misspelt one, by edit distance (`strsim`).

/// The word of `known` closest to `word`, when it is close enough to be a likely misspelling:
/// at most 2 edits, or a third of the known word's length for longer words.
pub fn closest<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|w| (strsim::levenshtein(w, word), w))
        .filter(|(d, w)| *d <= 2.max(w.len() / 3))
        .min()
        .map(|(_, w)| w)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn the_nearest_word_within_reach() {
        let known = ["avg", "d66", "fudge"];
        assert_eq!(closest("avgg", known), Some("avg"));
        assert_eq!(closest("fudeg", known), Some("fudge"));
        assert_eq!(closest("musket", known), None);
        // Equally near: the first in order wins, so the hint is the same on every run.
        assert_eq!(closest("ab", ["aa", "bb"]), Some("aa"));
    }
}
