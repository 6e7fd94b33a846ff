//! The grid `compare` sweeps: variables of the call, each with the values to try, from
//! `--vary NAME=V1,V2` flags or a small YAML file (`--grid FILE`), each name checked against
//! the call so that a misspelt one is refused rather than left out.

use std::path::Path;

use miette::SourceSpan;
use rhai::Dynamic;
use serde::Deserialize;
use serde_saphyr::Spanned;

use crate::error::{Error, InputError};
use crate::rules::{Entries, Problem, Problems, SourceFile, did_you_mean, parse_yaml, source_file, span_of};
use crate::script::Axis;

/// The most cells a grid may have: each is two exact walks.
pub const MAX_CELLS: usize = 10_000;

/// A grid file: `vary:` and, under it, each variable with its values.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GridFile {
    /// Each variable of the call, in order (the first varies slowest), with its values; `~`
    /// (null) is Rhai's `()`, as a key not given reads.
    vary: Entries<Spanned<String>, Vec<Option<Value>>>,
}

/// A value of a variable: true or false, a whole number, a number, or a word.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Value {
    Flag(bool),
    Int(i64),
    Number(f64),
    Text(String),
}

impl Value {
    /// The value as Rhai holds it, and as it reads (a number with a point keeps it: `2.0`).
    fn written_and_held(self) -> (String, Dynamic) {
        match self {
            Value::Flag(b) => (b.to_string(), Dynamic::from(b)),
            Value::Int(n) => (n.to_string(), Dynamic::from(n)),
            Value::Number(x) => (format!("{x:?}"), Dynamic::from(x)),
            Value::Text(t) => (t.clone(), Dynamic::from(t)),
        }
    }

    /// A value of `--vary`: `true`/`false`, a whole number, a number, else a word as written.
    fn from_flag(text: &str) -> Value {
        match text {
            "true" => Value::Flag(true),
            "false" => Value::Flag(false),
            _ => match (text.parse::<i64>(), text.parse::<f64>()) {
                (Ok(n), _) => Value::Int(n),
                (_, Ok(x)) if x.is_finite() => Value::Number(x),
                _ => Value::Text(text.to_string()),
            },
        }
    }
}

/// The axes of the grid: the file's (if one is given), then each `--vary`, checked against `call`.
pub fn axes(call: &str, file: Option<&Path>, vary: &[String]) -> Result<Vec<Axis>, Error> {
    let used = names_in(call);
    let mut axes: Vec<Axis> = Vec::new();
    if let Some(path) = file {
        // A named pipe or a device would hang the read or never end: refused by name, unopened.
        let text = crate::rules::files::read_regular(path)
            .map_err(|e| InputError::Grid { text: "--grid".to_string(), why: e.to_string() })?;
        let source = source_file(&path.display().to_string(), text);
        let grid: GridFile = parse_yaml(&source).map_err(|p| Problems(vec![*p]))?;
        for (name, values) in grid.vary.0 {
            let problem = |why: String| file_problem(&source, span_of(&source, &name), why);
            check_name(&name.value, &used, &axes).map_err(problem)?;
            if values.is_empty() {
                return Err(problem(format!("`{}` has no values: give a list, such as `[1, 2, 4]`", name.value)));
            }
            let values: Vec<(String, Dynamic)> = values
                .into_iter()
                .map(|v| v.map_or_else(|| ("()".to_string(), Dynamic::UNIT), Value::written_and_held))
                .collect();
            once_each(&name.value, &values).map_err(problem)?;
            axes.push(Axis { name: name.value, values });
        }
    }
    for flag in vary {
        let refused = |why: String| InputError::Grid { text: format!("--vary {flag}"), why };
        let Some((name, values)) = flag.split_once('=') else {
            return Err(refused("write NAME=V1,V2,... such as `--vary range=1,2,4`".into()).into());
        };
        let name = name.trim();
        check_name(name, &used, &axes).map_err(refused)?;
        let values: Vec<&str> = values.split(',').map(str::trim).collect();
        if values.iter().any(|v| v.is_empty()) {
            return Err(
                refused("a value is empty: write the values between commas, such as `range=1,2,4`".into()).into()
            );
        }
        // A value reads as it was written on the command line.
        let values: Vec<(String, Dynamic)> =
            values.into_iter().map(|v| (v.to_string(), Value::from_flag(v).written_and_held().1)).collect();
        once_each(name, &values).map_err(refused)?;
        axes.push(Axis { name: name.to_string(), values });
    }
    let cells = axes.iter().try_fold(1usize, |n, axis| n.checked_mul(axis.values.len()));
    match cells {
        Some(n) if n <= MAX_CELLS => Ok(axes),
        _ => Err(InputError::Grid {
            text: axes
                .iter()
                .map(|a| format!("{} ({} values)", a.name, a.values.len()))
                .collect::<Vec<_>>()
                .join(" × "),
            why: format!("more than {MAX_CELLS} cells: vary fewer values"),
        }
        .into()),
    }
}

/// Why a variable's values cannot be swept: more than a grid may hold, or one given twice
/// (two cells alike).
fn once_each(name: &str, values: &[(String, Dynamic)]) -> Result<(), String> {
    if values.len() > MAX_CELLS {
        return Err(format!("`{name}` has {} values, more than the {MAX_CELLS} cells a grid may have", values.len()));
    }
    let mut seen = std::collections::HashSet::new();
    match values.iter().find(|(value, _)| !seen.insert(value.as_str())) {
        Some((value, _)) => Err(format!("`{name}` is given `{value}` twice: give each value once")),
        None => Ok(()),
    }
}

fn file_problem(source: &SourceFile, span: SourceSpan, why: String) -> Error {
    Problems(vec![Problem::error("cli::grid_file", why, source, span)]).into()
}

/// Why a variable's name cannot be swept, if it cannot: not a name, named twice, or not a
/// variable the call reads (with the nearest one it does).
fn check_name(name: &str, used: &[String], axes: &[Axis]) -> Result<(), String> {
    let mut chars = name.chars();
    let is_name = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name {
        return Err(format!("`{name}` is not a variable's name: letters, digits and `_`, not starting with a digit"));
    }
    if axes.iter().any(|a| a.name == name) {
        return Err(format!("`{name}` is varied twice: give all its values once"));
    }
    if !used.iter().any(|u| u == name) {
        let hint = did_you_mean(name, used.iter().map(String::as_str));
        return Err(format!(
            "the call reads no variable `{name}`{hint}: write it where its value goes, as `#{{range: {name}}}`"
        ));
    }
    Ok(())
}

/// The names the call reads as variables: words outside strings, not a map's key (`range:`),
/// a field (`.range`) or a call (`fire(`).
fn names_in(call: &str) -> Vec<String> {
    let chars: Vec<char> = call.chars().collect();
    let mut names = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' || c == '\'' || c == '`' {
            i += 1;
            while i < chars.len() && chars[i] != c {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let before = chars[..start].iter().rev().find(|c| !c.is_whitespace());
            // What follows, past any spaces: `(` for a call, `:` for a map's key (not `::`).
            let next = (i..chars.len()).find(|j| !chars[*j].is_whitespace());
            let after = next.map(|j| chars[j]);
            let path = next.is_some_and(|j| chars.get(j + 1) == Some(&':'));
            let key_or_call = after == Some('(') || (after == Some(':') && !path);
            if before != Some(&'.') && !key_or_call && !names.contains(&word) {
                names.push(word);
            }
        } else {
            i += 1;
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    const CALL: &str = r#"fire(unit(#{name: "A", formation: formation}), b, #{range: range, note: "range"}).result"#;

    #[test]
    fn the_names_a_call_reads_are_its_variables_not_its_keys_fields_calls_or_strings() {
        assert_eq!(names_in(CALL), vec!["formation", "b", "range"]);
        assert_eq!(names_in("f(x::y, 'c', `t`, z )"), vec!["x", "y", "z"]);
        // A key spaced from its colon is still a key.
        assert_eq!(names_in("f(#{range : 2, r: range})"), vec!["range"]);
        assert_eq!(names_in("f(#{range : 2})"), Vec::<String>::new());
    }

    #[test]
    fn flags_give_numbers_flags_and_words() {
        let axes = axes(CALL, None, &["range=1, 2.5".into(), "formation=line,true".into()]).unwrap();
        assert_eq!(axes[0].name, "range");
        assert_eq!(axes[0].values[0].1.as_int(), Ok(1));
        assert_eq!(axes[0].values[1].1.as_float(), Ok(2.5));
        assert_eq!(axes[1].values[0].1.clone().into_string().unwrap(), "line");
        assert_eq!(axes[1].values[1].1.as_bool(), Ok(true));
        assert_eq!(axes[1].values.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(), ["line", "true"]);
    }

    #[test]
    fn a_name_the_call_does_not_read_is_refused_with_the_nearest() {
        let err = axes(CALL, None, &["rnage=1,2".into()]).unwrap_err().to_string();
        assert!(err.contains("the call reads no variable `rnage`") && err.contains("did you mean `range`"), "{err}");
        let err = axes(CALL, None, &["range=1,2".into(), "range=3".into()]).unwrap_err().to_string();
        assert!(err.contains("varied twice"), "{err}");
        let err = axes(CALL, None, &["range".into()]).unwrap_err().to_string();
        assert!(err.contains("NAME=V1,V2"), "{err}");
        let err = axes(CALL, None, &["range=1,,2".into()]).unwrap_err().to_string();
        assert!(err.contains("a value is empty"), "{err}");
        let err = axes(CALL, None, &["2x=1".into()]).unwrap_err().to_string();
        assert!(err.contains("not a variable's name"), "{err}");
        let err = axes(CALL, None, &["range=1,2,1".into()]).unwrap_err().to_string();
        assert!(err.contains("`range` is given `1` twice"), "{err}");
        // As written: `2.0` is not `2`.
        let read = axes(CALL, None, &["range=2,2.0".into()]).unwrap();
        assert_eq!(read[0].values.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(), ["2", "2.0"]);
    }

    #[test]
    fn a_file_gives_its_axes_in_order_and_its_mistakes_where_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grid.yaml");
        std::fs::write(&path, "vary:\n  range: [1, 2]\n  formation: [line, column, square]\n").unwrap();
        let axes_read = axes(CALL, Some(&path), &[]).unwrap();
        assert_eq!(axes_read.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["range", "formation"]);
        assert_eq!(axes_read[1].values.len(), 3);
        std::fs::write(&path, "vary:\n  range: [1, 2]\n  formaton: [line]\n").unwrap();
        let err = axes(CALL, Some(&path), &[]).unwrap_err();
        let Error::Rules(problems) = &err else { panic!("{err}") };
        assert!(problems.0[0].to_string().contains("did you mean `formation`"), "{err:?}");
        std::fs::write(&path, "vray:\n  range: [1, 2]\n").unwrap();
        let err = axes(CALL, Some(&path), &[]).unwrap_err();
        assert!(format!("{err:?}").contains("unknown field `vray`"), "{err:?}");
        // `~` is `()`, as a key not given reads; a number with a point keeps it.
        std::fs::write(&path, "vary:\n  range: [~, 2.0]\n").unwrap();
        let read = axes(CALL, Some(&path), &[]).unwrap();
        assert!(read[0].values[0].1.is_unit());
        assert_eq!(read[0].values.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(), ["()", "2.0"]);
        std::fs::write(&path, "vary:\n  range: []\n").unwrap();
        assert!(format!("{:?}", axes(CALL, Some(&path), &[]).unwrap_err()).contains("has no values"));
    }

    #[test]
    fn too_many_cells_are_refused() {
        let many: Vec<String> = (0..101).map(|n| n.to_string()).collect();
        let flags = vec![format!("range={}", many.join(",")), format!("formation={}", many.join(","))];
        let err = axes(CALL, None, &flags).unwrap_err().to_string();
        assert!(err.contains("more than 10000 cells"), "{err}");
        // One variable of a million values is refused before its values are compared.
        let million: Vec<String> = (0..1_000_000).map(|n| n.to_string()).collect();
        let err = axes(CALL, None, &[format!("range={}", million.join(","))]).unwrap_err().to_string();
        assert!(err.contains("`range` has 1000000 values, more than the 10000 cells"), "{err}");
    }
}
