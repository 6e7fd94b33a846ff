//! `base::name(...)`: a function an overlay replaces, called from its replacement, so that an
//! overlay adds a line to a procedure instead of copying it.
//!
//! Rhai reads `base::fire` as a call into a module named `base`, and modules are resolved when a
//! script runs, by a scope the compiled procedures, the exact walk and Rhai would each have to
//! share. Instead each `base::name` is written, before the file is compiled, as a plain call to a
//! name of its own (`mangled`), and that name is given a copy of `name` as the layers below define
//! it. Every path then runs it as any other function of the ruleset. In a copy, a plain call
//! still reaches the top layer's function (as in the base itself), and a `base::` call in the
//! copied function reaches the layer below *it*: so calls go down through any depth of overlays.

use std::collections::BTreeSet;

use crate::script::syntax::{ASTNode, Expr};
use miette::SourceSpan;
use rhai::{AST, Module, Position, Shared};

use super::error::offset_of;
use crate::rules::{Problem, SourceFile, did_you_mean};

/// What stands for `base::` in a written call: six characters, as many as `base::`, so that
/// every column of the file stays where its author wrote it.
const WIDTH: usize = "base::".len();

/// The deepest layer a `base::` call can be written in (the mangled prefix holds two digits).
const MAX_LAYER: usize = 99;

/// The name `base::name` in layer `layer` is compiled under: `__b1__fire` for `base::fire`
/// written in the first overlay.
pub(crate) fn mangled(layer: usize, name: &str) -> String {
    let prefix = format!("__b{layer}_");
    format!("{prefix:_<WIDTH$}{name}")
}

/// How a compiled function's name is written by the rule author: `base::fire` for a copy made
/// for a `base::fire` call, the name itself otherwise.
pub(crate) fn written_name(name: &str) -> String {
    base_name(name).map_or_else(|| name.to_string(), |base| format!("base::{base}"))
}

/// The name after `base::`, when `name` is a mangled one.
fn base_name(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("__b")?;
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 || name.len() <= WIDTH || !name[3 + digits..WIDTH].chars().all(|c| c == '_') {
        return None;
    }
    Some(&name[WIDTH..])
}

/// One `base::name` found in a file.
#[derive(Clone, Debug)]
pub(crate) struct BaseCall {
    pub name: String,
    /// Where `base::name` is written.
    pub span: SourceSpan,
}

/// `text` with each `base::name` (found in code, never inside a string or a comment: see
/// `written_calls`) written as `mangled(layer, name)`, padded with spaces when the author spaced
/// `base :: name`; and the calls found.
pub(crate) fn rewrite(text: &str, layer: usize) -> (String, Vec<BaseCall>) {
    let found = written_calls(text);
    if found.is_empty() || layer > MAX_LAYER {
        return (text.to_string(), found);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for call in &found {
        out.push_str(&text[at..call.span.offset()]);
        let name = mangled(layer, &call.name);
        out.push_str(&format!("{name:<width$}", width = call.span.len()));
        at = call.span.offset() + call.span.len();
    }
    out.push_str(&text[at..]);
    (out, found)
}

/// Every `base::name` written in code. Read by a scanner of its own rather than by Rhai's
/// tokenizer: alone, that tokenizer cannot read past an interpolated string (`${...}` in
/// backticks needs the parser's help), so a `base::` call after one was left unrewritten and
/// refused as an unknown module.
fn written_calls(text: &str) -> Vec<BaseCall> {
    let mut found = Vec::new();
    scan_code(text.as_bytes(), 0, false, &mut found);
    found
}

/// Scans code from `i` (to the end, or past the `}` that closes an interpolation when `inside`),
/// skipping comments and strings, noting each `base::name`; returns where it stopped.
fn scan_code(b: &[u8], mut i: usize, inside: bool, found: &mut Vec<BaseCall>) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => i = skip_block_comment(b, i),
            b'"' | b'\'' => i = skip_quoted(b, i),
            b'`' => {
                i += 1;
                while i < b.len() && b[i] != b'`' {
                    match b[i] {
                        b'\\' => i += 2,
                        b'$' if b.get(i + 1) == Some(&b'{') => i = scan_code(b, i + 2, true, found),
                        _ => i += 1,
                    }
                }
                i += 1;
            }
            b'{' => {
                depth += 1;
                i += 1;
            }
            b'}' => {
                i += 1;
                if depth == 0 && inside {
                    return i;
                }
                depth = depth.saturating_sub(1);
            }
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if &b[start..i] == b"base"
                    && let Some(call) = base_call_at(b, start, i)
                {
                    found.push(call);
                }
            }
            _ => i += 1,
        }
    }
    i
}

/// `base :: name` from `start` (where `base` begins; `after` is just past it), if that is what
/// is written there.
fn base_call_at(b: &[u8], start: usize, after: usize) -> Option<BaseCall> {
    let spaces = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let i = spaces(after);
    if b.get(i..i + 2) != Some(b"::") {
        return None;
    }
    let from = spaces(i + 2);
    let mut end = from;
    while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
        end += 1;
    }
    if end == from || b[from].is_ascii_digit() {
        return None;
    }
    let name = std::str::from_utf8(&b[from..end]).ok()?.to_string();
    Some(BaseCall { name, span: (start, end - start).into() })
}

/// Past a `/* ... */` comment starting at `i` (Rhai nests them).
fn skip_block_comment(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// Past a string or character literal starting at `i` (its quote), escapes and all.
fn skip_quoted(b: &[u8], mut i: usize) -> usize {
    let quote = b[i];
    i += 1;
    while i < b.len() && b[i] != quote {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

/// A compiled procedure file and the layer it belongs to.
pub(crate) struct LayerFile<'a> {
    pub layer: usize,
    /// The id of the layer (`ff-napoleonic`), for messages.
    pub layer_id: &'a str,
    pub file: &'a SourceFile,
    pub ast: &'a AST,
    pub calls: &'a [BaseCall],
}

/// The copies every `base::` call needs, as one AST of functions, with the file each copy comes
/// from; and a problem for each call that reaches nothing: written in a ruleset that extends
/// none, naming a function no layer below defines, or with a number of arguments none of them
/// takes.
pub(crate) fn copies(files: &[LayerFile], problems: &mut Vec<Problem>) -> (AST, Vec<(String, SourceFile)>) {
    let mut module = Module::new();
    let mut made: BTreeSet<(String, usize)> = BTreeSet::new();
    let mut homes = Vec::new();
    for caller in files.iter().filter(|f| !f.calls.is_empty()) {
        if caller.layer > MAX_LAYER {
            problems.push(Problem::error(
                "script::base_call",
                format!(
                    "`base::` calls work in the first {MAX_LAYER} layers of a ruleset; this is layer {}",
                    caller.layer
                ),
                caller.file,
                caller.calls[0].span,
            ));
            continue;
        }
        let below = || files.iter().filter(|f| f.layer < caller.layer);
        for (name, arity, at) in called(caller) {
            let Some(base) = base_name(&name) else { continue };
            if made.contains(&(name.clone(), arity)) {
                continue;
            }
            // The nearest layer below that defines it, its last file first (as the merge reads).
            let found = below().rev().find_map(|f| {
                crate::script::syntax::functions(f.ast)
                    .find(|d| d.name == base && d.params.len() == arity)
                    .map(|d| (f, d))
            });
            match found {
                Some((home, def)) => {
                    let mut copy = (**def).clone();
                    copy.name = name.as_str().into();
                    module.set_script_fn(Shared::new(copy));
                    made.insert((name.clone(), arity));
                    homes.push((name.clone(), home.file.clone()));
                }
                None => {
                    // Where the author wrote `base::name`, as the rewrite found it.
                    let offset = offset_of(caller.file.inner(), at);
                    let call = caller.calls.iter().find(|c| c.span.offset() == offset);
                    let span = call.map_or_else(|| (offset, 0).into(), |c| c.span);
                    problems.push(unreached(caller, base, span, arity, below().collect()));
                }
            }
        }
    }
    (AST::new_from_module(module), homes)
}

/// Each mangled call in a file: its name, the number of arguments it is made with, and where.
fn called(file: &LayerFile) -> Vec<(String, usize, Position)> {
    let mut calls = Vec::new();
    file.ast.walk(&mut |path: &[ASTNode]| {
        if let Some(ASTNode::Expr(Expr::FnCall(call, at))) = path.last()
            && base_name(&call.name).is_some()
        {
            calls.push((call.name.to_string(), call.args.len(), *at));
        }
        true
    });
    calls
}

/// Why `base::name` with `arity` arguments reaches nothing.
fn unreached(caller: &LayerFile, name: &str, span: SourceSpan, arity: usize, below: Vec<&LayerFile>) -> Problem {
    let problem =
        |message: String| Problem::error("script::base_call", message, caller.file, span).with_label("this call");
    if below.is_empty() {
        return problem(format!(
            "`base::{}`: {} extends no ruleset, so there is no base to call",
            name, caller.layer_id
        ))
        .with_help("`base::name(...)` calls the function an overlay replaces, as the ruleset it extends defines it");
    }
    let defined: Vec<(&str, usize, &LayerFile)> = below
        .iter()
        .flat_map(|f| crate::script::syntax::functions(f.ast).map(move |d| (d.name.as_str(), d.params.len(), *f)))
        .collect();
    let same_name: Vec<&(&str, usize, &LayerFile)> = defined.iter().filter(|(n, _, _)| *n == name).collect();
    if same_name.is_empty() {
        let hint = did_you_mean(name, defined.iter().map(|(n, _, _)| *n));
        let layers: Vec<&str> = below.iter().map(|f| f.layer_id).collect::<BTreeSet<_>>().into_iter().collect();
        return problem(format!("`base::{}`: no function `{}` in {}{hint}", name, name, layers.join(", ")));
    }
    let takes: BTreeSet<String> = same_name.iter().map(|(_, a, f)| format!("{a} ({})", f.file.name())).collect();
    problem(format!(
        "`base::{}` is called with {arity} argument{}; the base takes {}",
        name,
        if arity == 1 { "" } else { "s" },
        takes.into_iter().collect::<Vec<_>>().join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mangled_name_is_as_wide_as_base_and_reads_back() {
        assert_eq!(mangled(1, "fire"), "__b1__fire");
        assert_eq!(mangled(42, "fire"), "__b42_fire");
        assert_eq!(mangled(1, "fire").len(), "base::fire".len());
        assert_eq!(written_name("__b1__fire"), "base::fire");
        assert_eq!(written_name("__b42_fire"), "base::fire");
        assert_eq!(written_name("fire"), "fire");
        assert_eq!(written_name("__b1_"), "__b1_");
        assert_eq!(written_name("__bx__fire"), "__bx__fire");
    }

    #[test]
    fn only_calls_in_code_are_rewritten() {
        let text = "fn fire(a) {\n  // base::fire in a comment\n  let s = \"base::fire\";\n  base::fire(a) + base :: fire(a)\n}";
        let (out, calls) = rewrite(text, 2);
        assert_eq!(
            out,
            "fn fire(a) {\n  // base::fire in a comment\n  let s = \"base::fire\";\n  __b2__fire(a) + __b2__fire  (a)\n}"
        );
        assert_eq!(calls.len(), 2);
        assert_eq!(&text[calls[0].span.offset()..][..calls[0].span.len()], "base::fire");
        assert_eq!(&text[calls[1].span.offset()..][..calls[1].span.len()], "base :: fire");
        // Every line keeps its length, so Rhai's positions still point at the author's text.
        for (a, b) in text.lines().zip(out.lines()) {
            assert_eq!(a.len(), b.len());
        }
    }

    #[test]
    fn a_call_after_an_interpolated_string_is_rewritten_and_one_inside_its_code_too() {
        let text = "fn fire(a) {\n  note(`${a.name} \"fires\" /* not a comment */ ${base::fire(a)} base::fire`);\n  \
                    /* base::fire /* nested */ base::fire */ base::fire(a)\n}";
        let (out, calls) = rewrite(text, 1);
        assert_eq!(
            out,
            "fn fire(a) {\n  note(`${a.name} \"fires\" /* not a comment */ ${__b1__fire(a)} base::fire`);\n  \
             /* base::fire /* nested */ base::fire */ __b1__fire(a)\n}"
        );
        assert_eq!(calls.len(), 2);
        // Not a `base::` call: another name, a name that ends in base, a number.
        assert!(written_calls("database::x(); based::y; base; base::1").is_empty());
    }
}
