//! Text made safe for a terminal: every control character a rule file, a scenario or a script
//! can carry (C0 but newline and tab, DEL, C1) written as a visible escape (`\u{1b}`), so that
//! no text grognard shows can clear a screen, retitle a window or write the clipboard.
//!
//! `escape` is for text; `Escaping` is a writer that escapes whatever passes through it, the
//! front-ends' last guard over their output streams (`cli::run`, `repl::Session::handle`).

use std::borrow::Cow;
use std::io::{self, Write};

/// Whether `c` is a control character a terminal could obey: every C0 control but newline and
/// tab, DEL, and every C1 control (U+0080 to U+009F, which some terminals read as ESC sequences).
pub fn is_hidden_control(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// `text` with each control character written as Rust writes it in a string (`\u{1b}`, `\r`,
/// `\0`, `\u{9b}`), as a script's strings are already shown (`"\u{1b}[2J"`). Every other
/// character, newlines, tabs and all of Unicode (`Württemberg`, `½`), is left as it is.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    push_escaped(&mut out, text);
    Cow::Owned(out)
}

/// `escape`, taking and giving back an owned text (not copied when nothing is escaped).
pub fn escape_owned(text: String) -> String {
    if text.chars().any(is_hidden_control) { escape(&text).into_owned() } else { text }
}

fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        if is_hidden_control(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
}

/// `escape`, but each SGR sequence (`ESC [ 1;31 m`: colour and weight, nothing more) left as it
/// is: for text grognard has styled itself (a diagnostic in colour), whose words were escaped
/// before they were styled.
pub fn escape_keeping_colour(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(at) = rest.find(is_hidden_control) {
        push_escaped(&mut out, &rest[..at]);
        let tail = &rest[at..];
        match sgr_len(tail) {
            Some(len) => {
                out.push_str(&tail[..len]);
                rest = &tail[len..];
            }
            None => {
                let c = tail.chars().next().expect("a control was found here");
                out.extend(c.escape_debug());
                rest = &tail[c.len_utf8()..];
            }
        }
    }
    push_escaped(&mut out, rest);
    Cow::Owned(out)
}

/// The longest SGR sequence grognard writes is far shorter; a longer one is not ours.
const MAX_SGR: usize = 32;

/// The length of the SGR sequence `text` starts with (`ESC [`, digits and `;`, `m`), if it does.
fn sgr_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.len() < 3 || bytes[0] != 0x1b || bytes[1] != b'[' {
        return None;
    }
    let params = bytes[2..].iter().take(MAX_SGR).take_while(|b| b.is_ascii_digit() || **b == b';').count();
    (bytes.get(2 + params) == Some(&b'm')).then_some(3 + params)
}

/// How an `Escaping` writer writes a control character it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shield {
    /// Text a person reads: escaped as `escape` does.
    Text,
    /// Styled text (diagnostics): escaped, SGR sequences kept, as `escape_keeping_colour`.
    Styled,
    /// JSON: serde_json escapes C0 itself but writes DEL and C1 as they are; they can stand only
    /// inside a string, where `\u007f` reads back as the same character. The text is kept exact.
    Json,
}

/// A writer that escapes every control character written through it, as its `Shield` says.
/// A control split across two writes (a C1's two bytes, an SGR sequence) is held until the rest
/// comes; what is still held when the writer is dropped is written escaped.
pub struct Escaping<W: Write> {
    inner: W,
    shield: Shield,
    held: Vec<u8>,
}

impl<W: Write> Escaping<W> {
    pub fn new(inner: W, shield: Shield) -> Self {
        Escaping { inner, shield, held: Vec::new() }
    }

    /// Writes `bytes` escaped, but for a tail that may be the start of something longer.
    fn pass(&mut self, bytes: &[u8], last: bool) -> io::Result<()> {
        let mut data = std::mem::take(&mut self.held);
        data.extend_from_slice(bytes);
        let mut out = String::new();
        let mut rest: &[u8] = &data;
        loop {
            match std::str::from_utf8(rest) {
                Ok(text) => {
                    let keep = if last { 0 } else { self.unfinished(text) };
                    self.shield_into(&mut out, &text[..text.len() - keep]);
                    self.held.extend_from_slice(&text.as_bytes()[text.len() - keep..]);
                    break;
                }
                Err(err) => {
                    let valid = std::str::from_utf8(&rest[..err.valid_up_to()]).expect("checked valid");
                    match err.error_len() {
                        // Bytes that are no UTF-8 are shown as bytes: `\x9b` alone is a C1 to some terminals.
                        Some(bad) => {
                            self.shield_into(&mut out, valid);
                            for b in &rest[valid.len()..valid.len() + bad] {
                                out += &format!("\\x{b:02x}");
                            }
                            rest = &rest[valid.len() + bad..];
                        }
                        // A character cut between writes: the rest of it comes next.
                        None if !last => {
                            let keep = self.unfinished(valid);
                            self.shield_into(&mut out, &valid[..valid.len() - keep]);
                            self.held.extend_from_slice(&rest[valid.len() - keep..]);
                            break;
                        }
                        None => {
                            self.shield_into(&mut out, valid);
                            for b in &rest[valid.len()..] {
                                out += &format!("\\x{b:02x}");
                            }
                            break;
                        }
                    }
                }
            }
        }
        self.inner.write_all(out.as_bytes())
    }

    /// How many bytes at the end of `text` may begin an SGR sequence not yet whole.
    fn unfinished(&self, text: &str) -> usize {
        if self.shield != Shield::Styled {
            return 0;
        }
        let Some(at) = text.rfind('\x1b') else { return 0 };
        let tail = &text.as_bytes()[at..];
        let open = tail.len() < MAX_SGR
            && (tail.len() == 1 || (tail[1] == b'[' && tail[2..].iter().all(|b| b.is_ascii_digit() || *b == b';')));
        if open { tail.len() } else { 0 }
    }

    fn shield_into(&self, out: &mut String, text: &str) {
        match self.shield {
            Shield::Text => out.push_str(&escape(text)),
            Shield::Styled => out.push_str(&escape_keeping_colour(text)),
            Shield::Json => {
                for c in text.chars() {
                    if is_hidden_control(c) {
                        out.push_str(&format!("\\u{:04x}", c as u32));
                    } else {
                        out.push(c);
                    }
                }
            }
        }
    }
}

impl<W: Write> Write for Escaping<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pass(buf, false)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for Escaping<W> {
    fn drop(&mut self) {
        if !self.held.is_empty() {
            // Nothing more is coming: what was held is no sequence of ours.
            let _ = self.pass(&[], true);
            let _ = self.inner.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_but_newline_and_tab_is_escaped() {
        for code in (0u32..0x20).chain([0x7f]).chain(0x80..0xa0) {
            let c = char::from_u32(code).unwrap();
            let escaped = escape(&format!("a{c}b")).into_owned();
            if c == '\n' || c == '\t' {
                assert_eq!(escaped, format!("a{c}b"));
                continue;
            }
            assert!(!escaped.chars().any(char::is_control), "{code:#x} gave {escaped:?}");
            let expected = match c {
                '\0' => "a\\0b".to_string(),
                '\r' => "a\\rb".to_string(),
                _ => format!("a\\u{{{code:x}}}b"),
            };
            assert_eq!(escaped, expected, "{code:#x}");
        }
    }

    #[test]
    fn the_hostile_sequences_of_the_issue_are_shown_not_obeyed() {
        assert_eq!(escape("\x1b[2JEVIL"), "\\u{1b}[2JEVIL");
        assert_eq!(escape("\x1b]0;PWNED\x07\x1b[2J"), "\\u{1b}]0;PWNED\\u{7}\\u{1b}[2J");
        assert_eq!(escape("\x1b]52;c;aGk=\x07"), "\\u{1b}]52;c;aGk=\\u{7}");
        assert_eq!(escape("\u{9b}2J"), "\\u{9b}2J");
        assert_eq!(escape("\u{7f}"), "\\u{7f}");
    }

    #[test]
    fn other_text_is_left_as_it_is_and_not_copied() {
        for text in ["Württemberg", "½ fire point", "line one\nline two\tthen a tab", "4e Ligne — 1/2 row", "", "ě"]
        {
            assert!(matches!(escape(text), Cow::Borrowed(t) if t == text), "{text}");
            assert!(matches!(escape_keeping_colour(text), Cow::Borrowed(t) if t == text), "{text}");
        }
        // A backslash is no control: a text that reads `\u{1b}` is left as it reads.
        assert_eq!(escape("\\u{1b}"), "\\u{1b}");
    }

    #[test]
    fn colour_is_kept_and_nothing_else() {
        assert_eq!(escape_keeping_colour("\x1b[31;1mrules::yaml\x1b[0m"), "\x1b[31;1mrules::yaml\x1b[0m");
        assert_eq!(escape_keeping_colour("\x1b[m"), "\x1b[m");
        assert_eq!(
            escape_keeping_colour("\x1b[31mbad \x1b[2J\x1b]0;t\x07\x1b[0m"),
            "\x1b[31mbad \\u{1b}[2J\\u{1b}]0;t\\u{7}\x1b[0m"
        );
        assert_eq!(escape_keeping_colour("\x1b["), "\\u{1b}[");
        assert_eq!(escape_keeping_colour("\u{9b}31m"), "\\u{9b}31m");
    }

    fn through(shield: Shield, pieces: &[&[u8]]) -> String {
        let mut out = Vec::new();
        {
            let mut writer = Escaping::new(&mut out, shield);
            for piece in pieces {
                writer.write_all(piece).unwrap();
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_writer_escapes_what_passes_even_cut_between_writes() {
        let whole = "\x1b[31mred\x1b[0m \x1b]0;PWNED\x07 \u{9b}2J Württemberg\n".as_bytes();
        for cut in 0..=whole.len() {
            let (a, b) = whole.split_at(cut);
            assert_eq!(
                through(Shield::Text, &[a, b]),
                "\\u{1b}[31mred\\u{1b}[0m \\u{1b}]0;PWNED\\u{7} \\u{9b}2J Württemberg\n",
                "cut at {cut}"
            );
            assert_eq!(
                through(Shield::Styled, &[a, b]),
                "\x1b[31mred\x1b[0m \\u{1b}]0;PWNED\\u{7} \\u{9b}2J Württemberg\n",
                "cut at {cut}"
            );
        }
        // An SGR begun and never ended is no colour of ours.
        assert_eq!(through(Shield::Styled, &[b"end \x1b[3"]), "end \\u{1b}[3");
        // Bytes that are no UTF-8 are shown as bytes.
        assert_eq!(through(Shield::Text, &[b"a\x9bb", b"\xc3"]), "a\\x9bb\\xc3");
    }

    #[test]
    fn json_keeps_its_exact_text_and_is_safe() {
        let value = serde_json::json!({ "name": "\x1b[2J\u{7f}\u{9b}Württemberg" });
        let text = serde_json::to_string_pretty(&value).unwrap();
        let shown = through(Shield::Json, &[text.as_bytes()]);
        assert!(!shown.chars().any(is_hidden_control), "{shown}");
        assert!(shown.contains(r#""\u001b[2J\u007f\u009bWürttemberg""#), "{shown}");
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(back, value);
    }
}
