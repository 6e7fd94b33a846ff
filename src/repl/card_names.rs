//! A playing card as a player names it at the table: `4S`, `4 of spades`, `Q♥`, `10c`,
//! `ten of hearts`, read to the rank and suit a deck's card names hold.

/// A card's rank and suit (`"4"`, `'s'`), as read from how it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardKey {
    rank: String,
    suit: char,
}

/// The suits by the words and signs a player may write for them.
const SUITS: [(char, &[&str]); 4] = [
    ('s', &["s", "spade", "spades", "♠", "♤"]),
    ('h', &["h", "heart", "hearts", "♥", "♡"]),
    ('d', &["d", "diamond", "diamonds", "♦", "♢"]),
    ('c', &["c", "club", "clubs", "♣", "♧"]),
];

/// The ranks by the words a player may write for them.
const RANKS: [(&str, &[&str]); 13] = [
    ("a", &["a", "ace", "1"]),
    ("2", &["2", "two"]),
    ("3", &["3", "three"]),
    ("4", &["4", "four"]),
    ("5", &["5", "five"]),
    ("6", &["6", "six"]),
    ("7", &["7", "seven"]),
    ("8", &["8", "eight"]),
    ("9", &["9", "nine"]),
    ("10", &["10", "ten", "t"]),
    ("j", &["j", "jack", "knave"]),
    ("q", &["q", "queen"]),
    ("k", &["k", "king"]),
];

/// The rank and suit `text` names, if it names one: the suit last (a word, a letter or a
/// sign), the rank before it (a number, a letter or a word), with or without `of` between.
pub fn card_key(text: &str) -> Option<CardKey> {
    let lower = text.trim().to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let (rank, suit) = match words.as_slice() {
        [rank, "of", suit] | [rank, suit] => (rank.to_string(), suit.to_string()),
        // `4s`, `10♥`, `qh`: the suit is the last character.
        [one] => {
            let last = one.chars().last()?;
            (one[..one.len() - last.len_utf8()].to_string(), last.to_string())
        }
        _ => return None,
    };
    let suit = SUITS.iter().find(|(_, names)| names.contains(&suit.as_str()))?.0;
    let rank = RANKS.iter().find(|(_, names)| names.contains(&rank.as_str()))?.0.to_string();
    Some(CardKey { rank, suit })
}

/// Which of `names` (a deck's cards) the player's `typed` names: by rank and suit when both
/// read as cards, else by the name itself, any case.
pub fn find(typed: &str, names: &[&str]) -> Option<usize> {
    let key = card_key(typed);
    names.iter().position(|name| match (&key, card_key(name)) {
        (Some(key), Some(card)) => *key == card,
        _ => name.trim().eq_ignore_ascii_case(typed.trim()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_is_read_however_the_player_writes_it() {
        let deck = ["4 of spades", "10 of hearts", "queen of hearts", "2 of clubs"];
        for (typed, at) in [
            ("4S", 0),
            ("4s", 0),
            ("4 of spades", 0),
            ("four of spades", 0),
            ("4♠", 0),
            ("10h", 1),
            ("10 ♥", 1),
            ("ten of hearts", 1),
            ("Q♥", 2),
            ("qh", 2),
            ("Queen of Hearts", 2),
            ("2c", 3),
            ("2 club", 3),
        ] {
            assert_eq!(find(typed, &deck), Some(at), "{typed}");
        }
        for typed in ["4", "spades", "4x", "11h", "", "4 of spades of"] {
            assert_eq!(find(typed, &deck), None, "{typed}");
        }
        // A deck of cards named otherwise is matched by name.
        assert_eq!(find("Trump", &["trump", "4 of spades"]), Some(0));
    }
}
