//! The crate's own source, read by tests that hold it to rules of the house: every module by
//! its path, and its code without comments and without its `#[cfg(test)]` items.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The modules compiled only for tests, as these checks are.
const TEST_ONLY: [&str; 3] = ["floors", "codes", "source_scan"];

/// The crate's `src/` folder.
pub fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every source file under `src/`, by its module path (`script::bindings::rules`), tests left out.
pub fn modules() -> BTreeMap<Vec<String>, PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&src(), &mut files);
    let mut modules = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(src()).expect("under src").with_extension("");
        let mut path: Vec<String> = relative.iter().map(|s| s.to_string_lossy().into_owned()).collect();
        let last = path.last().expect("a name").clone();
        if last == "tests"
            || TEST_ONLY.contains(&last.as_str())
            || last.ends_with("_tests")
            || path.iter().any(|p| p == "snapshots")
        {
            continue;
        }
        if ["mod", "lib", "main"].contains(&last.as_str()) {
            path.pop();
        }
        modules.insert(path, file);
    }
    modules
}

/// The text of a source file without comments and without its `#[cfg(test)]` modules.
pub fn code_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).expect("a readable source file");
    without_test_items(&lex(&text, Strings::Kept))
}

/// The code of a source's text with comments left out and every string literal emptied (`""`),
/// so that neither a `//` nor a path inside a string is read as code; `#[cfg(test)]` items left out.
pub fn paths_code(text: &str) -> String {
    without_test_items(&lex(text, Strings::Emptied))
}

/// What `lex` does with the text of string literals.
#[derive(Clone, Copy, PartialEq)]
enum Strings {
    Kept,
    Emptied,
}

/// A source's text with its comments (line, block, doc) turned to spaces, each line kept, read as
/// Rust reads it: a `//` inside a string or a character literal is not a comment.
fn lex(text: &str, strings: Strings) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == '"'
            || (c == 'r' && (i == 0 || !ident(chars[i - 1]) || chars[i - 1] == 'b') && raw_opens(&chars[i + 1..]))
        {
            // A string, plain (with escapes) or raw (`r#"…"#`, closed by as many `#`).
            let hashes = if c == 'r' { chars[i + 1..].iter().take_while(|&&h| h == '#').count() } else { 0 };
            let raw = c == 'r';
            let open_end = if raw { i + 1 + hashes + 1 } else { i + 1 };
            out.extend(&chars[i..open_end]);
            i = open_end;
            while i < chars.len() {
                if !raw && chars[i] == '\\' {
                    if strings == Strings::Kept {
                        out.extend(&chars[i..(i + 2).min(chars.len())]);
                    }
                    i += 2;
                    continue;
                }
                if chars[i] == '"' && chars[i + 1..].iter().take(hashes).filter(|&&h| h == '#').count() == hashes {
                    break;
                }
                if strings == Strings::Kept || chars[i] == '\n' {
                    out.push(chars[i]);
                }
                i += 1;
            }
            let close_end = (i + 1 + hashes).min(chars.len());
            out.extend(&chars[i.min(chars.len())..close_end]);
            i = close_end;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal (`'"'`, `'\''`), not a lifetime.
            let mut end = i + 2;
            if next == Some('\\') {
                end += 1;
                while end < chars.len() && chars[end] != '\'' {
                    end += 1;
                }
            }
            let end = (end + 1).min(chars.len());
            if strings == Strings::Kept {
                out.extend(&chars[i..end]);
            } else {
                out.push_str("' '");
            }
            i = end;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether the text after an `r` opens a raw string: `#`s, then `"`.
fn raw_opens(after: &[char]) -> bool {
    let hashes = after.iter().take_while(|&&h| h == '#').count();
    after.get(hashes) == Some(&'"')
}

/// Code with each `#[cfg(test)]` item left out, up to its closing brace (or semicolon).
fn without_test_items(code: &str) -> String {
    let mut code = code.to_string();
    while let Some(at) = code.find("#[cfg(test)]") {
        let rest = &code[at..];
        let mut depth = 0usize;
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        code.replace_range(at..at + end, "");
    }
    code
}
