//! What an overlay writes that changes nothing it meant to: a function that replaces no function
//! of the layers below and that nothing calls, one named as a base function but taking another
//! number of parameters, and a modifier list, table or constant it adds that nothing reads.
//!
//! Why: an overlay replaces by name (and, for a function, by arity too). A slip in either makes a
//! new thing beside the base's instead of a replacement, and the house rule is quietly not
//! applied. Each of these is refused where it is written, with the base's name it was likely
//! meant to be.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::script::syntax::{ASTNode, Expr, Stmt};
use miette::SourceSpan;
use rhai::{AST, Engine, OptimizationLevel};

use super::base_calls::{LayerFile, written_name};
use crate::rules::{Problem, Ruleset, SourceFile, did_you_mean};

const CODE: &str = "script::overlay";

/// Every such slip in the overlays of `rs`, whose procedure files (compiled, each with its layer)
/// are `files`.
pub(crate) fn problems(files: &[LayerFile], rs: &Ruleset) -> Vec<Problem> {
    if rs.layers.len() < 2 {
        return Vec::new();
    }
    let named = names_in_code(files, rs);
    let mut problems = functions(files, rs, &named);
    problems.extend(lists_and_tables(rs, &named));
    problems
}

/// A function as written: its name, its number of parameters and where its name stands.
pub(crate) struct Defined<'a> {
    pub name: String,
    pub arity: usize,
    /// Where its name is written in its file.
    pub offset: usize,
    pub file: &'a LayerFile<'a>,
}

/// Each function of a file, from its AST, placed at its name where `fn name(` is written with
/// that many parameters. Rhai keeps no position for a function, and its tokenizer alone cannot
/// read past an interpolated string, so the text is searched.
pub(crate) fn defined_functions<'a>(file: &'a LayerFile<'a>) -> Vec<Defined<'a>> {
    let text = file.file.inner();
    crate::script::syntax::functions(file.ast)
        .map(|def| {
            let arity = def.params.len();
            let offset = written_at(text, &def.name, arity).unwrap_or(0);
            Defined { name: def.name.to_string(), arity, offset, file }
        })
        .collect()
}

/// Where `fn name(` with `arity` parameters is written in `text`: the offset of `name`.
fn written_at(text: &str, name: &str, arity: usize) -> Option<usize> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(found) = text[from..].find("fn") {
        let at = from + found;
        from = at + 2;
        if text[..at].chars().next_back().is_some_and(word) {
            continue;
        }
        let rest = &text[at + 2..];
        let gap = rest.len() - rest.trim_start().len();
        let Some(after) = rest.trim_start().strip_prefix(name) else { continue };
        let Some(params) = after.trim_start().strip_prefix('(') else { continue };
        let Some(params) = params.split(')').next() else { continue };
        if params.split(',').filter(|p| !p.trim().is_empty()).count() == arity && gap > 0 {
            return Some(at + 2 + gap);
        }
    }
    None
}

/// Every name the code of the ruleset writes: the functions and methods it calls (a `base::`
/// call as the name it reaches) and every string, in procedures of every layer and in the
/// modifiers' conditions. A string counts, as a table or list is often passed by name.
fn names_in_code(files: &[LayerFile], rs: &Ruleset) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut read = |ast: &AST| {
        ast.walk(&mut |path: &[ASTNode]| {
            match path.last() {
                Some(ASTNode::Expr(Expr::FnCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _))) => {
                    let name = written_name(&call.name);
                    names.insert(name.strip_prefix("base::").unwrap_or(&name).to_string());
                }
                Some(ASTNode::Expr(Expr::MethodCall(call, _))) => {
                    names.insert(call.name.to_string());
                }
                Some(ASTNode::Expr(Expr::StringConstant(text, _))) => {
                    names.insert(text.to_string());
                }
                _ => {}
            }
            true
        });
    };
    for file in files {
        read(file.ast);
    }
    let mut engine = Engine::new_raw();
    engine.set_optimization_level(OptimizationLevel::None);
    let conditions = rs
        .modifiers
        .values()
        .flat_map(|list| &list.modifiers)
        .flat_map(|m| m.when.iter().chain(m.per.as_ref().map(|(text, _)| text)));
    // A condition that does not compile is reported where conditions are compiled.
    for ast in conditions.filter_map(|text| engine.compile_expression(text).ok()) {
        read(&ast);
    }
    names
}

/// The functions of every overlay that replace nothing they meant to.
fn functions(files: &[LayerFile], rs: &Ruleset, named: &BTreeSet<String>) -> Vec<Problem> {
    let all: Vec<Defined> = files.iter().flat_map(defined_functions).collect();
    let mut problems = Vec::new();
    for def in all.iter().filter(|d| d.file.layer > 0) {
        let layer = def.file.layer;
        let below: Vec<&Defined> = all.iter().filter(|d| d.file.layer < layer).collect();
        if below.iter().any(|b| b.name == def.name && b.arity == def.arity) {
            continue;
        }
        let same_name: Vec<&&Defined> = below.iter().filter(|b| b.name == def.name).collect();
        let span = (def.offset, def.name.len()).into();
        let problem = |message: String, label: &str| {
            Problem::error(CODE, message, def.file.file, span).with_label(label.to_string())
        };
        if !same_name.is_empty() {
            // Its own layer may replace the base's and add one of another arity beside it.
            let replaced = all
                .iter()
                .any(|d| d.file.layer == layer && d.name == def.name && same_name.iter().any(|b| b.arity == d.arity));
            if replaced {
                continue;
            }
            let takes: Vec<String> = same_name
                .iter()
                .map(|b| {
                    format!(
                        "{} in {} ({}:{})",
                        parameters(b.arity),
                        b.file.layer_id,
                        relative(rs, b.file),
                        line_of(b.file.file.inner(), b.offset)
                    )
                })
                .collect();
            problems.push(
                problem(
                    format!("`{}` takes {}, here {}: it would not replace it", def.name, takes.join(" or "), def.arity),
                    "not the base's arity",
                )
                .with_help("a function replaces the base's only with the same name and number of parameters"),
            );
            continue;
        }
        if named.contains(&def.name) || rs.contracts.contains_key(&def.name) {
            continue;
        }
        let hint = did_you_mean(&def.name, below.iter().map(|b| b.name.as_str()));
        problems.push(
            problem(
                format!("`{}` replaces nothing in {} and nothing calls it{hint}", def.name, layers_below(rs, layer)),
                "replaces nothing",
            )
            .with_help(
                "a function replaces the base's of the same name and number of parameters; a new entry \
                 procedure needs a contract (`contracts/NAME.yaml`)",
            ),
        );
    }
    problems
}

/// The modifier lists, tables and constants an overlay adds that no code of any layer names.
fn lists_and_tables(rs: &Ruleset, named: &BTreeSet<String>) -> Vec<Problem> {
    let whole = |file: &SourceFile| Some((file.clone(), SourceSpan::from((0, 0))));
    let lists: Vec<Added> = rs.modifiers.values().map(|l| (l.id.as_str(), whole(&l.file))).collect();
    // A table written whole in place of a base's is no table the overlay adds.
    let tables: Vec<Added> =
        rs.tables.values().map(|t| (&*t.id, t.file.as_ref().filter(|_| !t.replaces_below).and_then(whole))).collect();
    let constants: Vec<Added> = rs
        .constants
        .iter()
        .map(|(name, c)| {
            let at = (!c.replaces_below).then(|| (c.written.file.clone(), c.written.span));
            (name.as_str(), at)
        })
        .collect();
    let mut problems = Vec::new();
    for (kind, things) in [("modifier list", lists), ("table", tables), ("constant", constants)] {
        let layer_of: BTreeMap<&str, (usize, Option<Place>)> = things
            .into_iter()
            .map(|(id, at)| (id, (at.as_ref().map_or(0, |(file, _)| layer_of(rs, file)), at)))
            .collect();
        for (id, (layer, at)) in &layer_of {
            let (Some((file, span)), true) = (at, *layer > 0) else { continue };
            if named.contains(*id) {
                continue;
            }
            let below = layer_of.iter().filter(|(_, (l, _))| l < layer).map(|(id, _)| *id);
            let hint = did_you_mean(id, below);
            let message = format!(
                "{kind} `{id}` is added by {} and nothing reads it: no procedure or condition names it{hint}",
                rs.layers[*layer].id
            );
            problems.push(Problem::error(CODE, message, file, *span).with_label("added here").with_help(format!(
                "the base's {kind} of the same name is changed by writing that name; a {kind} of the \
                     overlay's own is read by a procedure that names it"
            )));
        }
    }
    problems
}

/// A list, table or constant by name, with where a layer adds it (none when it replaces a lower
/// layer's).
type Added<'a> = (&'a str, Option<Place>);

/// Where something is written: its file and span.
type Place = (SourceFile, SourceSpan);

/// The index of the layer whose folder holds `file` (the last that does).
fn layer_of(rs: &Ruleset, file: &SourceFile) -> usize {
    let path = Path::new(file.name());
    rs.layers.iter().rposition(|l| path.starts_with(&l.folder)).unwrap_or(0)
}

/// `file`'s path inside its layer's folder, as an author names it.
fn relative(rs: &Ruleset, file: &LayerFile) -> String {
    let path = Path::new(file.file.name());
    rs.layers.get(file.layer).and_then(|l| path.strip_prefix(&l.folder).ok()).unwrap_or(path).display().to_string()
}

/// The ids of the layers below `layer`, base first.
fn layers_below(rs: &Ruleset, layer: usize) -> String {
    rs.layers[..layer].iter().map(|l| l.id.as_str()).collect::<Vec<_>>().join(", ")
}

/// The line (from 1) an offset falls on.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

fn parameters(n: usize) -> String {
    format!("{n} parameter{}", if n == 1 { "" } else { "s" })
}
