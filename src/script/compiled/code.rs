//! The compiled form of a procedure function: statements and expressions over numbered local slots.

use rhai::{Dynamic, ImmutableString, Position};

use crate::script::properties::UnitWord;
use crate::script::value_compare::Op as Comparison;

/// One compiled function.
#[derive(Debug)]
pub struct Function {
    pub name: ImmutableString,
    /// Local slots: the parameters first, then each `let` in order.
    pub slots: usize,
    pub body: Vec<Code>,
    /// Whether its first parameter is only read: a caller's variable passed by
    /// reference (`a` in `fire(a, b, c)`) is then lent to it, not copied.
    pub lends_first: bool,
    /// Whether it is a method (it reads `this`): slot 0 holds the receiver, taken from
    /// the caller and given back after, and the parameters follow.
    pub method: bool,
}

/// A statement. Each yields a value, as in Rhai: a block's value is its last statement's.
#[derive(Debug)]
pub enum Code {
    Expr(Ex),
    /// `let x = e`: the value of the statement is `()`.
    Let(usize, Ex),
    /// `x = e` and `x op= e` (the operator applied as Rhai would).
    Set(usize, Option<Op>, Ex, Position),
    /// `x.name = e`, `x[i] = e`, `x.a[i].b op= e`: a place inside the slot's value, by its steps.
    SetAt(usize, Box<[Step]>, Option<Op>, Ex, Position),
    /// `if guard { .. } else { .. }`; the position is the guard's.
    If(Ex, Vec<Code>, Vec<Code>, Position),
    /// `switch value { .. }`: each case value's Rhai hash, the case's guards and results.
    Switch(Ex, Box<SwitchTable>),
    /// `while guard { .. }` (no guard: `loop`), with the guard's position, and the loop's.
    While(Option<(Ex, Position)>, Vec<Code>, Position),
    /// `for x in items { .. }`, `for (x, i) in items { .. }`.
    For(Box<ForLoop>),
    Break,
    Continue,
    Return(Option<Ex>),
    /// `throw e`.
    Throw(Option<Ex>, Position),
    Block(Vec<Code>),
}

/// One step into a value: a property (`.name`) or an index (`[i]`, with the index's position).
#[derive(Debug)]
pub enum Step {
    Property(ImmutableString, Position),
    Index(Ex, Position),
}

impl Step {
    /// The index worked out at this step, if it is one.
    pub fn index(&self) -> Option<&Ex> {
        match self {
            Step::Index(ex, _) => Some(ex),
            Step::Property(..) => None,
        }
    }

    pub fn index_mut(&mut self) -> Option<&mut Ex> {
        match self {
            Step::Index(ex, _) => Some(ex),
            Step::Property(..) => None,
        }
    }
}

/// `for x in items { .. }`: over an array's items, a range's numbers, a string's characters
/// or a blob's bytes (what Rhai iterates); anything else is Rhai's error for it.
#[derive(Debug)]
pub struct ForLoop {
    /// The slot of the item, and of the counter (`for (x, i) in ..`) from 0.
    pub item: usize,
    pub counter: Option<usize>,
    pub items: Ex,
    /// Where the items are written, for the error when they cannot be iterated.
    pub items_at: Position,
    pub body: Vec<Code>,
    pub pos: Position,
}

/// A `switch` whose cases are literal values (no ranges).
#[derive(Debug)]
pub struct SwitchTable {
    /// Rhai's hash of each case value, and the indices of its (guard, result) pairs in order.
    pub cases: Vec<(u64, Vec<usize>)>,
    /// Each case's guard (none: always) with its position, and result.
    pub arms: Vec<(Option<(Ex, Position)>, Ex)>,
    pub default: Option<usize>,
}

/// An expression.
#[derive(Debug)]
pub enum Ex {
    Const(Dynamic),
    Var(usize),
    /// A variable's last read: its value is taken, not copied (see `moves`).
    Move(usize),
    Array(Vec<Ex>),
    Map(Vec<(ImmutableString, Ex)>),
    /// A string with `${..}` parts, each made text as Rhai does.
    Interpolated(Vec<Ex>),
    /// `value.name`.
    Property(Box<Ex>, ImmutableString, Position),
    /// `value[index]`: an array's item (from the end when negative), a map's value (`()` when
    /// missing), a string's character, a blob's byte; with the index's position.
    Index(Box<Ex>, Box<Ex>, Position),
    /// `value.name(args)`: the receiver is passed by reference (a slot when it is a variable,
    /// a place in one when it is a variable's property or item: `this.deck.draw()`); with
    /// Rhai's hash of a script function it would call (see `Callee`), and the index of the
    /// compiled method it names, if any.
    Method(Box<Ex>, ImmutableString, Vec<Ex>, Option<u64>, Option<usize>, Position),
    /// `name(args)`.
    Call(Callee, Vec<Ex>, Position),
    /// A binary operator.
    Binary(Op, Box<Ex>, Box<Ex>, Position),
    /// `x.arm == "artillery"` (either way round): when `x` holds a unit, its
    /// word compared where it lies; else the comparison as written.
    WordCompare(Box<WordCompare>),
    /// `!value`.
    Not(Box<Ex>, Position),
    /// `-value`.
    Negate(Box<Ex>, Position),
    /// `a && b`, each term with its position (for the error when it is not a boolean).
    And(Vec<(Ex, Position)>),
    Or(Vec<(Ex, Position)>),
    /// `a ?? b`.
    Coalesce(Vec<Ex>),
    /// `type_of(value)`.
    TypeOf(Box<Ex>),
    /// A block used as a value (`if` and `switch` as expressions).
    Block(Vec<Code>),
}

impl Ex {
    /// Whether `p` holds for an expression directly inside this one, tried in the order they
    /// are worked out (a block's statements are not expressions of it: none for a block).
    /// The analyses of `script::odds` walk expressions through this, each minding only the
    /// kinds it treats apart.
    pub fn any_child<'a>(&'a self, p: &mut dyn FnMut(&'a Ex) -> bool) -> bool {
        match self {
            Ex::Const(_) | Ex::Var(_) | Ex::Move(_) | Ex::Block(_) => false,
            Ex::Array(items) | Ex::Interpolated(items) | Ex::Coalesce(items) | Ex::Call(_, items, _) => {
                items.iter().any(&mut *p)
            }
            Ex::Map(entries) => entries.iter().any(|(_, e)| p(e)),
            Ex::Property(base, ..) | Ex::Not(base, _) | Ex::Negate(base, _) | Ex::TypeOf(base) => p(base),
            Ex::Index(base, index, _) => p(base) || p(index),
            Ex::Method(receiver, _, args, ..) => p(receiver) || args.iter().any(&mut *p),
            Ex::Binary(_, a, b, _) => p(a) || p(b),
            Ex::WordCompare(compare) => p(&compare.written),
            Ex::And(terms) | Ex::Or(terms) => terms.iter().any(|(e, _)| p(e)),
        }
    }

    /// The slot a place lies in (`x`, `x.a`, `x[i].b`), or none for any other expression.
    pub fn place_root(&self) -> Option<usize> {
        match self {
            Ex::Var(slot) | Ex::Move(slot) => Some(*slot),
            Ex::Property(base, ..) | Ex::Index(base, ..) => base.place_root(),
            _ => None,
        }
    }
}

/// A unit's word compared with a literal word.
#[derive(Debug)]
pub struct WordCompare {
    /// The operator with the word on its left.
    pub op: Comparison,
    pub slot: usize,
    pub word: UnitWord,
    pub literal: Dynamic,
    /// The comparison as written, for a value that is not a unit.
    pub written: Ex,
}

/// Who a call goes to, with Rhai's hash of a script function of its name and
/// arity (none for an operator): a script function with that hash in the
/// caller's code (one typed at the REPL) takes the call over.
#[derive(Debug)]
pub enum Callee {
    /// A procedure function, by its index in the table: run directly when compiled.
    Procedure(usize, ImmutableString, u64),
    /// Anything else: grognard's functions and Rhai's, found as Rhai finds them.
    Other(ImmutableString, Option<u64>),
}

/// The binary operators with a native fast path; any other operand types go to Rhai's own operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Compare(Comparison),
}

impl Op {
    /// The operator named by Rhai's syntax, if it is one of these.
    pub fn from_syntax(syntax: &str) -> Option<Op> {
        Some(match syntax {
            "+" => Op::Add,
            "-" => Op::Sub,
            "*" => Op::Mul,
            "/" => Op::Div,
            "%" => Op::Rem,
            other => Op::Compare(Comparison::from_syntax(other)?),
        })
    }

    /// Rhai's syntax for the operator.
    pub fn syntax(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::Rem => "%",
            Op::Compare(c) => c.syntax(),
        }
    }

    /// The op-assignment form (`+=`), for the arithmetic operators.
    pub fn assign_syntax(self) -> Option<&'static str> {
        Some(match self {
            Op::Add => "+=",
            Op::Sub => "-=",
            Op::Mul => "*=",
            Op::Div => "/=",
            Op::Rem => "%=",
            Op::Compare(_) => return None,
        })
    }
}

/// Methods that never change their receiver: called on a property
/// (`situation.range.to_float()`), the receiver is read, not written back.
pub const PURE_METHODS: &[&str] = &[
    "to_float",
    "to_int",
    "floor",
    "ceiling",
    "round",
    "abs",
    "len",
    "is_empty",
    "contains",
    "sub_string",
    "to_string",
    "starts_with",
    "ends_with",
    "index_of",
    "keys",
    "values",
    "to_upper",
    "to_lower",
];

/// One step of a place as written: a property or an index still to work out.
pub(crate) enum StepRef<'a> {
    Property(&'a ImmutableString, Position),
    Index(&'a Ex, Position),
}

/// The slot and steps of `ex` when it is a place in a variable: `x`, `x.a`, `x[i].b`...
pub(crate) fn place_of(ex: &Ex) -> Option<(usize, Vec<StepRef<'_>>)> {
    match ex {
        Ex::Var(slot) => Some((*slot, Vec::new())),
        Ex::Property(base, name, pos) => {
            let (slot, mut steps) = place_of(base)?;
            steps.push(StepRef::Property(name, *pos));
            Some((slot, steps))
        }
        Ex::Index(base, index, pos) => {
            let (slot, mut steps) = place_of(base)?;
            steps.push(StepRef::Index(index, *pos));
            Some((slot, steps))
        }
        _ => None,
    }
}
