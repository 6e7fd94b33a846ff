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

/// A serde "unknown field `X`, expected one of `a`, `b`" (YAML or a Rhai map made into a unit)
/// with "(did you mean `a`?)" put after the field when one of the expected is near it;
/// any other message as it is.
pub fn hint_unknown_field(message: &str) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else { return message.to_string() };
    let Some(end) = rest.find('`') else { return message.to_string() };
    let (field, after) = (&rest[..end], &rest[end + 1..]);
    let expected = after
        .trim_start_matches(", expected one of ")
        .trim_start_matches(", expected ")
        .split(',')
        .map(|w| w.trim().trim_matches('`'))
        .filter(|w| !w.is_empty());
    match closest(field, expected) {
        Some(near) => format!("unknown field `{field}` (did you mean `{near}`?){after}"),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{closest, hint_unknown_field};

    #[test]
    fn an_unknown_field_is_given_the_nearest_expected_one() {
        assert_eq!(
            hint_unknown_field("unknown field `stnds`, expected one of `name`, `stands`, `arm`"),
            "unknown field `stnds` (did you mean `stands`?), expected one of `name`, `stands`, `arm`"
        );
        assert_eq!(
            hint_unknown_field("unknown field `bandz`, expected one of id, bands, rows"),
            "unknown field `bandz` (did you mean `bands`?), expected one of id, bands, rows"
        );
        assert_eq!(
            hint_unknown_field("unknown field `colour`, expected one of text, source"),
            "unknown field `colour`, expected one of text, source"
        );
        assert_eq!(hint_unknown_field("invalid type: string"), "invalid type: string");
    }

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
