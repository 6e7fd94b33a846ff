//! The words a `switch` is written with (`"line" => ...`), read off the source text: Rhai keeps
//! a switch's cases only as hashes of their values, so `check` finds the words where they are
//! written to hold them to the kind of value switched on.

use rhai::Position;

/// The string literals written as cases of the `switch` at `at` in `source` (`"a" | "b" =>`),
/// each with where it is written.
pub(super) fn case_words(source: &str, at: Position) -> Vec<(String, Position)> {
    let start = crate::script::error::offset_of(source, at);
    let Some(rest) = source.get(start..) else { return Vec::new() };
    let chars: Vec<(usize, char)> = rest.char_indices().collect();
    let mut i = 0;
    // The switch's own `{`, past the value switched on.
    let mut depth = 0i32;
    while i < chars.len() {
        match chars[i].1 {
            '"' | '`' => i = skip_string(&chars, i),
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '{' if depth == 0 => break,
            _ => {}
        }
        i += 1;
    }
    let mut found = Vec::new();
    let mut depth = 0i32;
    while i < chars.len() {
        let (offset, c) = chars[i];
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            '/' if chars.get(i + 1).is_some_and(|(_, n)| *n == '/') => {
                while i < chars.len() && chars[i].1 != '\n' {
                    i += 1;
                }
            }
            '`' => i = skip_string(&chars, i),
            '"' => {
                let end = skip_string(&chars, i);
                let next: String =
                    chars[end + 1..].iter().map(|(_, c)| *c).skip_while(|c| c.is_whitespace()).take(2).collect();
                let is_case = depth == 1 && (next == "=>" || (next.starts_with('|') && next != "||") || next == "if");
                if is_case {
                    let word: String = chars[i + 1..end].iter().map(|(_, c)| *c).collect();
                    found.push((word, position_of(source, start + offset)));
                }
                i = end;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// The index of the closing quote of the string opened at `open`.
fn skip_string(chars: &[(usize, char)], open: usize) -> usize {
    let quote = chars[open].1;
    let mut i = open + 1;
    while i < chars.len() && chars[i].1 != quote {
        if chars[i].1 == '\\' {
            i += 1;
        }
        i += 1;
    }
    i.min(chars.len().saturating_sub(1))
}

/// Line and column (from 1, in characters) of a byte offset, as Rhai counts them.
fn position_of(source: &str, offset: usize) -> Position {
    let before = &source[..offset.min(source.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Position::new(u16::try_from(line).unwrap_or(u16::MAX), u16::try_from(column).unwrap_or(u16::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_of_cases_are_read_where_written() {
        let source = "fn f(u) {\n    switch u.formation {\n        \"line\" | \"colum\" => 1,\n        \"square\" if x == \"y\" || z => 2,\n        _ => \"other\"\n    }\n}\n";
        let words = case_words(source, Position::new(2, 5));
        let got: Vec<(String, Option<usize>, Option<usize>)> =
            words.into_iter().map(|(w, p)| (w, p.line(), p.position())).collect();
        assert_eq!(
            got,
            vec![
                ("line".to_string(), Some(3), Some(9)),
                ("colum".to_string(), Some(3), Some(18)),
                ("square".to_string(), Some(4), Some(9)),
            ]
        );
    }
}
