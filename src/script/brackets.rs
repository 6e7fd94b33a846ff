//! Brackets in Rhai source as written, outside strings: how many a line leaves open (the REPL
//! goes on to the next line while one is), and where the bracket that opens a text closes.

/// Each bracket outside strings (`"…"`, `` `…` ``, `'…'`), with its byte offset and the depth
/// after it.
fn brackets(text: &str) -> impl Iterator<Item = (usize, i64)> + '_ {
    let mut depth = 0i64;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    text.char_indices().filter_map(move |(i, c)| {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '`' | '\'' => quote = Some(c),
                '{' | '[' | '(' => {
                    depth += 1;
                    return Some((i, depth));
                }
                '}' | ']' | ')' => {
                    depth -= 1;
                    return Some((i, depth));
                }
                _ => {}
            },
        }
        None
    })
}

/// How many brackets are still open at the end of `text`, outside strings.
pub fn open_brackets(text: &str) -> i64 {
    brackets(text).last().map_or(0, |(_, depth)| depth)
}

/// Where the bracket that `text` opens with is closed: the byte offset of its closing bracket.
pub fn closing_bracket(text: &str) -> Option<usize> {
    brackets(text).find(|(_, depth)| *depth == 0).map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_in_strings_do_not_count() {
        assert_eq!(open_brackets("melee(a, b, #{cover: \"}\""), 2);
        assert_eq!(open_brackets("f(`(`) + g('[')"), 0);
        assert_eq!(open_brackets("f(\"\\\"(\")"), 0);
        assert_eq!(closing_bracket("#{x: [1, #{y: \"}\"}]} + 1"), Some(19));
        assert_eq!(closing_bracket("(never closed"), None);
    }
}
