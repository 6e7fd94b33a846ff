//! What a call can reach in the rules, read from the code rather than run: the procedure
//! files defining the functions it calls (and those they call in turn), and the words those
//! functions write (`option("veteran_volleys")`, `constant("struggle_cap")`).

use std::collections::BTreeSet;

use crate::script::syntax::{ASTNode, Expr, Stmt};
use rhai::Scope;

use super::Host;

/// The procedure files a call can reach, by layer id and name, and the words written in it and in them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    pub files: BTreeSet<(String, String)>,
    pub words: BTreeSet<String>,
}

impl Host {
    /// What `code` can reach, read from it and from every procedure it can call; nothing when
    /// it does not compile (its odds then say why).
    pub fn reach(&self, scope: &Scope, code: &str) -> Reach {
        let mut reach = Reach::default();
        let Ok(ast) = self.compile_alone(scope, code) else { return reach };
        let mut calls: Vec<String> = Vec::new();
        read(&ast, &mut calls, &mut reach.words);
        let mut seen: BTreeSet<String> = BTreeSet::new();
        while let Some(name) = calls.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            // Rhai hands a function's statements over only through a walk of an AST of its own.
            let mut alone = self.written.clone_functions_only();
            alone.retain_functions(|_, _, n, _| n == name);
            if crate::script::syntax::functions(&alone).next().is_none() {
                continue;
            }
            read(&alone, &mut calls, &mut reach.words);
            if let Some(file) = self.function_files.get(&name) {
                let rs = self.ruleset();
                if let Some(p) = rs.procedures.iter().find(|p| p.file.name() == file.name()) {
                    let layer = rs.layers.get(p.layer).map(|l| l.id.clone()).unwrap_or_default();
                    reach.files.insert((layer, p.name.clone()));
                }
            }
        }
        reach
    }
}

/// The functions `ast` calls and the strings it writes.
fn read(ast: &rhai::AST, calls: &mut Vec<String>, words: &mut BTreeSet<String>) {
    ast.walk(&mut |path: &[ASTNode]| {
        match path.last() {
            // A `base::` call stands for the copy of the base's function the merge holds under
            // the mangled name (its file kept under that name too).
            Some(ASTNode::Expr(Expr::FnCall(call, _)) | ASTNode::Stmt(Stmt::FnCall(call, _))) => {
                calls.push(call.name.to_string());
            }
            Some(ASTNode::Expr(Expr::MethodCall(call, _))) => calls.push(call.name.to_string()),
            Some(ASTNode::Expr(Expr::StringConstant(text, _))) => {
                words.insert(text.to_string());
            }
            _ => {}
        }
        true
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `fire(a, b, #{range: 2})` can reach under the shipped ruleset `id`, and whether it
    /// reaches the procedure file `name` of `layer`.
    fn fire_under(id: &str) -> (Reach, impl Fn(&Reach, &str, &str) -> bool) {
        let rules = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules");
        let host = Host::new(crate::rules::load(&[id.to_string()], &rules).unwrap().ruleset).unwrap();
        let mut scope = Scope::new();
        scope.push("a", 1_i64).push("b", 2_i64);
        let has = |reach: &Reach, layer: &str, name: &str| reach.files.contains(&(layer.to_string(), name.to_string()));
        (host.reach(&scope, "fire(a, b, #{range: 2})"), has)
    }

    #[test]
    fn a_call_reaches_the_files_of_the_functions_it_calls_and_their_words() {
        let (reach, has) = fire_under("ff-house-example");
        assert!(has(&reach, "ff-house-example", "fire_row") && has(&reach, "ff-napoleonic", "fire"), "{reach:?}");
        assert!(reach.words.contains("musketry_below_zero"), "{reach:?}");
    }

    #[test]
    fn a_base_call_reaches_the_base_s_own_function_and_file() {
        // ff-skirmishers' `fire` calls `base::fire`, ff-napoleonic's, which reads the interpretation.
        let (reach, has) = fire_under("ff-skirmishers");
        assert!(has(&reach, "ff-skirmishers", "fire") && has(&reach, "ff-napoleonic", "fire"), "{reach:?}");
        assert!(reach.words.contains("musketry_below_zero"), "{reach:?}");
    }
}
