//! Comparisons of two values as Rhai's operators make them (`==`, `<`, ...), for code that compares without Rhai: native conditions and compiled procedures.

use std::cmp::Ordering;

use rhai::{Array, Dynamic};

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    /// The comparison Rhai writes as `syntax` (`==`, `<`...), if it is one.
    pub fn from_syntax(syntax: &str) -> Option<Op> {
        Some(match syntax {
            "==" => Op::Eq,
            "!=" => Op::Ne,
            "<" => Op::Lt,
            "<=" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            _ => return None,
        })
    }

    /// How Rhai writes it.
    pub fn syntax(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }

    /// The operator with its sides swapped: `a < b` is `b > a`.
    pub(crate) fn flipped(self) -> Op {
        match self {
            Op::Lt => Op::Gt,
            Op::Le => Op::Ge,
            Op::Gt => Op::Lt,
            Op::Ge => Op::Le,
            same => same,
        }
    }
}

/// `word op literal` as `compare` makes it, for a word read in place; none
/// when the literal is not text and `()` (then `compare` decides).
pub(crate) fn compare_text(op: Op, word: Option<&str>, literal: &Dynamic) -> Option<bool> {
    let literal = literal.as_immutable_string_ref().ok()?;
    match word {
        // Equality first tells words apart by their length, without comparing their letters.
        Some(word) if op == Op::Eq => Some(word == literal.as_str()),
        Some(word) if op == Op::Ne => Some(word != literal.as_str()),
        Some(word) => compare_order(op, Some(word.cmp(literal.as_str()))),
        // `()` against text: different types, never equal, never ordered.
        None => Some(op == Op::Ne),
    }
}

/// Whether a word read in place equals any item of `list`; none if an item
/// is not text (then `compare` decides).
pub(crate) fn any_equal_text(word: Option<&str>, list: &Array) -> Option<bool> {
    let mut any = false;
    for item in list {
        any |= compare_text(Op::Eq, word, item)?;
    }
    Some(any)
}

/// A comparison as Rhai makes it between `()`, booleans, numbers and text;
/// none for any other type (Rhai decides those).
pub(crate) fn compare(op: Op, a: &Dynamic, b: &Dynamic) -> Option<bool> {
    let order = if let (Ok(x), Ok(y)) = (a.as_immutable_string_ref(), b.as_immutable_string_ref()) {
        Some(x.as_str().cmp(y.as_str()))
    } else {
        match (Prim::of(a)?, Prim::of(b)?) {
            (Prim::Int(x), Prim::Int(y)) => x.partial_cmp(&y),
            (Prim::Int(x), Prim::Float(y)) => return Some(fractions(op, x as f64, y)),
            (Prim::Float(x), Prim::Int(y)) => return Some(fractions(op, x, y as f64)),
            (Prim::Float(x), Prim::Float(y)) => return Some(fractions(op, x, y)),
            (Prim::Bool(x), Prim::Bool(y)) => {
                return match op {
                    Op::Eq => Some(x == y),
                    Op::Ne => Some(x != y),
                    _ => None,
                };
            }
            // `()` equals `()` and is never ordered.
            (Prim::Unit, Prim::Unit) => return Some(op == Op::Eq),
            // Values of different types: never equal, never ordered.
            _ => return Some(op == Op::Ne),
        }
    };
    compare_order(op, order)
}

/// Two numbers compared as Rhai compares them when one is a fraction (rhai 1.27's built-in
/// operators, checked build): within a relative epsilon, so `0.1 + 0.2 == 0.3`, NaN is
/// unequal to everything and infinity not equal to itself.
fn fractions(op: Op, x: f64, y: f64) -> bool {
    let max = if x * y == 0.0 { 1.0 } else { x.abs().max(y.abs()) };
    if max == 0.0 {
        return matches!(op, Op::Eq | Op::Ge | Op::Le);
    }
    match op {
        Op::Eq => (x - y).abs() / max <= f64::EPSILON,
        Op::Ne => (x - y).abs() / max > f64::EPSILON,
        Op::Gt => (x - y) / max > f64::EPSILON,
        Op::Ge => (x - y) / max > -f64::EPSILON,
        Op::Lt => (y - x) / max > f64::EPSILON,
        Op::Le => (y - x) / max > -f64::EPSILON,
    }
}

/// What `op` says of two values `order`ed (none: unordered, such as NaN).
fn compare_order(op: Op, order: Option<Ordering>) -> Option<bool> {
    Some(match (op, order) {
        (Op::Eq, o) => o == Some(Ordering::Equal),
        (Op::Ne, o) => o != Some(Ordering::Equal),
        (_, None) => return None,
        (Op::Lt, Some(o)) => o == Ordering::Less,
        (Op::Le, Some(o)) => o != Ordering::Greater,
        (Op::Gt, Some(o)) => o == Ordering::Greater,
        (Op::Ge, Some(o)) => o != Ordering::Less,
    })
}

/// The values `compare` knows besides text.
enum Prim {
    Unit,
    Bool(bool),
    Int(i64),
    Float(f64),
    Text,
}

impl Prim {
    fn of(value: &Dynamic) -> Option<Prim> {
        if value.is_unit() {
            Some(Prim::Unit)
        } else if let Ok(b) = value.as_bool() {
            Some(Prim::Bool(b))
        } else if let Ok(n) = value.as_int() {
            Some(Prim::Int(n))
        } else if let Ok(x) = value.as_float() {
            Some(Prim::Float(x))
        } else if value.is_string() {
            Some(Prim::Text)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use rhai::{Dynamic, Engine};

    #[test]
    fn numbers_with_a_fraction_compare_as_rhai_compares_them() {
        // Within Rhai's relative epsilon: `0.1 + 0.2 == 0.3`, NaN unequal to all, infinity not equal to itself.
        let engine = Engine::new();
        let values = ["0.1 + 0.2", "0.3", "1.0", "1", "0", "0.0", "-0.0", "1e300 % -0.0", "1e308 * 10.0", "-3", "2.5"];
        for x in values {
            for y in values {
                for (op, written) in [
                    (super::Op::Eq, "=="),
                    (super::Op::Ne, "!="),
                    (super::Op::Lt, "<"),
                    (super::Op::Le, "<="),
                    (super::Op::Gt, ">"),
                    (super::Op::Ge, ">="),
                ] {
                    let a: Dynamic = engine.eval(x).unwrap();
                    let b: Dynamic = engine.eval(y).unwrap();
                    let rhai: bool = engine.eval(&format!("({x}) {written} ({y})")).unwrap();
                    assert_eq!(super::compare(op, &a, &b), Some(rhai), "({x}) {written} ({y})");
                }
            }
        }
    }
}
