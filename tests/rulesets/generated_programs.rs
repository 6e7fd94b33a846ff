//! Generated programs: small well-typed procedures inside the subset `script::compiled` lowers run
//! compiled exactly as Rhai runs them (value, trace, error text), and with dice their exact odds
//! through the engine equal every face replayed (the reference).
//!
//! A program is made from a stream of choices (proptest shrinks the stream, so a failure shrinks
//! to a smaller program): a few functions, each calling those before it (and now and then itself,
//! on a number that runs down), over whole numbers, booleans, text, arrays and maps, with `let`
//! (shadowing too), assignment and compound assignment (to an item or a field too), `if`, `switch` with guards, `while` and
//! `loop` bounded by a counter (with `break` and `continue`), `for` over ranges, arrays and words,
//! indexing, field reads, `??`, interpolation, `note`, dice (`roll(..).total`, `.hits`, a labelled
//! roll, a roll compared or made text) and a unit's `stands`, markers and words. Division and
//! remainder by values that may be zero, and sums and products of large numbers, make errors that
//! must read the same both ways.

use std::cell::Cell;
use std::fmt::Write;

use grognard::dice::{EnumLimits, Seeded};
use grognard::script::{Evaluation, Host, ProcedureOdds, ScriptError};
use num_traits::Zero;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use rhai::Scope;

/// The types a generated expression has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Int,
    Float,
    Bool,
    Str,
    /// An array of whole numbers.
    Arr,
    /// A map with whole numbers at `a` and `b`.
    Map,
    /// The unit the entry call is given (only ever the parameter `u`).
    Unit,
}

const VALUE_TYPES: [Ty; 6] = [Ty::Int, Ty::Float, Ty::Bool, Ty::Str, Ty::Arr, Ty::Map];

/// A generated function: its name, parameters, what it returns, and the most dice it may roll
/// (log2 of the outcomes, for the odds property).
#[derive(Clone, Debug)]
struct Sig {
    name: String,
    params: Vec<Ty>,
    ret: Ty,
    dice: f64,
}

#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
    /// A loop's counter or item: never assigned, so every loop ends.
    fixed: bool,
}

/// Whole numbers a literal may be: small ones, and large ones whose products overflow.
const INTS: [&str; 14] = [
    "0",
    "1",
    "2",
    "3",
    "-1",
    "5",
    "7",
    "-4",
    "100",
    "9223372036854775807",
    "-9223372036854775807",
    "4611686018427387904",
    "3037000500",
    "1000000007",
];
/// Fractional numbers: a few, a tiny one, and one whose products are infinite.
const FLOATS: [&str; 6] = ["0.0", "1.5", "-2.5", "0.1", "1e300", "-0.0"];
const WORDS: [&str; 4] = ["\"a\"", "\"bc\"", "\"\"", "\"héllo\""];

/// Makes one program from a stream of choices; an exhausted stream always chooses the simplest.
struct Gen<'c> {
    choices: &'c [u32],
    at: usize,
    env: Vec<Var>,
    fresh: usize,
    funcs: Vec<Sig>,
    ret: Ty,
    /// Loops around here that a `break` or `continue` may leave.
    loops: usize,
    /// Whether a `return` may be written here (not inside a block used as a value).
    may_return: bool,
    /// Loops, and whether a function, are around the blocks used as values this is in: a
    /// `break` or `return` from inside one (rare) leaves them in Rhai, and is left to Rhai.
    outer_loops: usize,
    outer_return: bool,
    /// How many times the code here may run per call: the bounds of the loops around it.
    turns: f64,
    /// Most dice one call may roll (log2 of outcomes), when bounded.
    budget: Option<f64>,
    /// Dice the function may still roll (log2 of outcomes), when bounded.
    dice_left: Option<f64>,
    /// Dice rolled so far by the function being made.
    dice_used: f64,
    /// Expression nodes left to this function.
    fuel: usize,
    indent: usize,
}

impl<'c> Gen<'c> {
    fn new(choices: &'c [u32], dice: Option<f64>) -> Self {
        Gen {
            choices,
            at: 0,
            env: Vec::new(),
            fresh: 0,
            funcs: Vec::new(),
            ret: Ty::Int,
            loops: 0,
            may_return: true,
            outer_loops: 0,
            outer_return: false,
            turns: 1.0,
            budget: dice,
            dice_left: dice,
            dice_used: 0.0,
            fuel: 0,
            indent: 1,
        }
    }

    fn pick(&mut self, n: usize) -> usize {
        let c = self.choices.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        c as usize % n.max(1)
    }

    /// True about one time in `n`.
    fn one_in(&mut self, n: usize) -> bool {
        self.pick(n) == n - 1
    }

    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    /// Variables of `ty` a name reaches now (not shadowed by a later one of another type).
    fn visible(&self, ty: Ty, assignable: bool) -> Vec<String> {
        self.env
            .iter()
            .enumerate()
            .filter(|(i, v)| {
                v.ty == ty && (!assignable || !v.fixed) && !self.env[i + 1..].iter().any(|w| w.name == v.name)
            })
            .map(|(_, v)| v.name.clone())
            .collect()
    }

    fn var_of(&mut self, ty: Ty, assignable: bool) -> Option<String> {
        let vars = self.visible(ty, assignable);
        if vars.is_empty() {
            return None;
        }
        let i = self.pick(vars.len());
        Some(vars[i].clone())
    }

    /// A small number mostly; a large one (whose sums and products overflow) one time in four.
    fn int_literal(&mut self) -> String {
        let big = self.one_in(4) && self.budget.is_none();
        if big { INTS[self.pick(INTS.len())] } else { INTS[self.pick(8)] }.to_string()
    }

    fn small(&mut self) -> i64 {
        self.pick(5) as i64 - 1
    }

    /// Whether `cost` more dice (log2 outcomes), rolled on each turn of the loops around, fit.
    fn afford(&self, cost: f64) -> bool {
        self.dice_left.is_none_or(|left| cost * self.turns <= left + 1e-9)
    }

    fn spend(&mut self, cost: f64) {
        let cost = cost * self.turns;
        if let Some(left) = &mut self.dice_left {
            *left -= cost;
        }
        self.dice_used += cost;
    }

    /// A scope for a block: names declared inside are gone after it.
    fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let depth = self.env.len();
        self.indent += 1;
        let out = f(self);
        self.indent -= 1;
        self.env.truncate(depth);
        out
    }

    /// A block used as a value: no `break`, `continue` or `return` inside escapes it.
    fn valued<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = (self.loops, self.may_return, self.outer_loops, self.outer_return);
        self.outer_loops += self.loops;
        self.outer_return |= self.may_return;
        self.loops = 0;
        self.may_return = false;
        let out = self.scoped(f);
        (self.loops, self.may_return, self.outer_loops, self.outer_return) = saved;
        out
    }

    fn pad(&self) -> String {
        "    ".repeat(self.indent)
    }

    // ----- expressions -----

    fn expr(&mut self, ty: Ty, depth: u32) -> String {
        let depth = if self.fuel == 0 { 0 } else { depth };
        self.fuel = self.fuel.saturating_sub(1);
        match ty {
            Ty::Int => self.int(depth),
            Ty::Bool => self.boolean(depth),
            Ty::Str => self.text(depth),
            Ty::Arr => self.array(depth),
            Ty::Map => self.map(depth),
            Ty::Float => self.float(depth),
            Ty::Unit => "u".to_string(),
        }
    }

    fn any_type(&mut self) -> Ty {
        VALUE_TYPES[self.pick(VALUE_TYPES.len())]
    }

    /// A call of an earlier function returning `ty`, if one can be called here.
    fn call(&mut self, ty: Option<Ty>, depth: u32) -> Option<String> {
        let unit = !self.visible(Ty::Unit, false).is_empty();
        let callable: Vec<Sig> = self
            .funcs
            .iter()
            .filter(|f| ty.is_none_or(|t| f.ret == t))
            .filter(|f| unit || !f.params.contains(&Ty::Unit))
            .filter(|f| self.afford(f.dice))
            .cloned()
            .collect();
        if callable.is_empty() {
            return None;
        }
        let f = callable[self.pick(callable.len())].clone();
        self.spend(f.dice);
        let args: Vec<String> = f.params.iter().map(|p| self.expr(*p, depth.saturating_sub(1))).collect();
        Some(format!("{}({})", f.name, args.join(", ")))
    }

    /// A roll read as a whole number, if its dice fit.
    fn roll_int(&mut self, depth: u32) -> Option<String> {
        let d6 = 6f64.log2();
        let rolls: [(&str, f64); 7] = [
            ("roll(\"1d6\").total", d6),
            ("roll(\"1d3\").total", 3f64.log2()),
            ("roll(\"2d3\").total", 2.0 * 3f64.log2()),
            ("roll(\"3d6 hits 4+\").hits", 3.0 * d6),
            ("roll(\"2d2 hits 2+\").hits", 2.0),
            ("(roll(\"1d3\") + 1)", 3f64.log2()),
            // A labelled roll: its label is worded only when someone reads it.
            ("", d6),
        ];
        let (text, cost) = rolls[self.pick(rolls.len())];
        if !self.afford(cost) {
            return None;
        }
        self.spend(cost);
        if text.is_empty() {
            let label = self.expr(Ty::Int, depth);
            return Some(format!("roll(\"1d6\", `die ${{{label}}}`).total"));
        }
        Some(text.to_string())
    }

    fn int(&mut self, depth: u32) -> String {
        let has_var = !self.visible(Ty::Int, false).is_empty();
        let unit = !self.visible(Ty::Unit, false).is_empty();
        if depth == 0 {
            if has_var && self.pick(2) == 1 {
                return self.var_of(Ty::Int, false).unwrap();
            }
            return self.int_literal();
        }
        let d = depth - 1;
        let choice = self.pick(24);
        match choice {
            0 => self.int_literal(),
            1 | 2 if has_var => self.var_of(Ty::Int, false).unwrap(),
            3..=5 => {
                let op = ["+", "-", "*", "/", "%"][self.pick(5)];
                let (a, b) = (self.int(d), self.int(d));
                // With dice bounded, fewer errors: one path that fails fails the whole walk.
                if self.budget.is_some() && (op == "/" || op == "%") {
                    format!("({a} {op} max({b}, 1))")
                } else {
                    format!("({a} {op} {b})")
                }
            }
            6 => format!("(-({}))", self.int(d)),
            7 => format!("{}({}, {})", ["max", "min"][self.pick(2)], self.int(d), self.int(d)),
            8 => format!("abs({})", self.int(d)),
            9 => {
                let base = if self.pick(2) == 0 { self.text(d) } else { self.array(d) };
                format!("({base}).len()")
            }
            10 => {
                let base = match self.var_of(Ty::Arr, false) {
                    Some(v) if self.pick(2) == 0 => v,
                    _ => format!("({})", self.array(d)),
                };
                let index = if self.pick(3) == 0 { self.int(d) } else { self.small().to_string() };
                if self.budget.is_some() { format!("({base} + [{index}])[-1]") } else { format!("{base}[{index}]") }
            }
            11 => {
                let base = match self.var_of(Ty::Map, false) {
                    Some(v) if self.pick(2) == 0 => v,
                    _ => format!("({})", self.map(d)),
                };
                match self.pick(4) {
                    0 => format!("{base}.a"),
                    1 => format!("{base}[\"b\"]"),
                    2 => format!("({base}.c ?? {})", self.int(d)),
                    _ => format!("{base}.b"),
                }
            }
            12 => self.if_expr(Ty::Int, d),
            13 => self.switch_expr(Ty::Int, d),
            14 => self.call(Some(Ty::Int), d).unwrap_or_else(|| self.int_literal()),
            15 | 16 => self.roll_int(d).unwrap_or_else(|| self.int_literal()),
            // With dice bounded (the odds property), rolls are chosen more often, to pass the small walk.
            22 | 23 if self.budget.is_some() => self.roll_int(d).unwrap_or_else(|| self.int_literal()),
            17 => format!("(({}).to_float() / ({}).to_float()).floor().to_int()", self.int(d), self.int(d)),
            // Rhai's own test: past the whole numbers `to_int` fails.
            18 if self.one_in(2) => format!("({}).{}().to_int()", self.float(d), ["floor", "ceiling"][self.pick(2)]),
            18 if unit => {
                ["u.stands", "u.stands", "(if u.has_marker(\"fresh\") { 1 } else { 0 })"][self.pick(3)].to_string()
            }
            19 => {
                let ty = self.any_type();
                format!("type_of({}).len()", self.expr(ty, d))
            }
            20 => self.block_expr(Ty::Int, d),
            21 => format!("({}).index_of(\"b\")", self.text(d)),
            _ => format!("({} {} {})", self.int(d), ["+", "*", "-"][self.pick(3)], self.int(d)),
        }
    }

    fn boolean(&mut self, depth: u32) -> String {
        let has_var = !self.visible(Ty::Bool, false).is_empty();
        let unit = !self.visible(Ty::Unit, false).is_empty();
        if depth == 0 {
            if has_var && self.pick(2) == 1 {
                return self.var_of(Ty::Bool, false).unwrap();
            }
            return ["true", "false"][self.pick(2)].to_string();
        }
        let d = depth - 1;
        // Now and then not a boolean at all: a guard, `!`, `&&` or `||` then fails, worded as Rhai words it.
        if self.budget.is_none() && self.one_in(40) {
            // (A call, never a literal: Rhai's parser refuses `if 1 {`.)
            return match self.pick(3) {
                0 => format!("abs({})", self.int(d)),
                1 => format!("({} + \"\")", self.text(d)),
                _ => format!("({}).abs()", self.float(d)),
            };
        }
        match self.pick(16) {
            0 => ["true", "false"][self.pick(2)].to_string(),
            1 if has_var => self.var_of(Ty::Bool, false).unwrap(),
            2..=4 => {
                let op = ["==", "!=", "<", "<=", ">", ">="][self.pick(6)];
                format!("({} {op} {})", self.int(d), self.int(d))
            }
            5 => format!("({} {} {})", self.text(d), ["==", "!=", "<"][self.pick(3)], self.text(d)),
            // Fractions compared with fractions or whole numbers.
            15 if self.one_in(2) => {
                let op = ["==", "!=", "<", ">="][self.pick(4)];
                let b = if self.pick(2) == 0 { self.float(d) } else { self.int(d) };
                format!("({} {op} {b})", self.float(d))
            }
            6 => format!("!({})", self.boolean(d)),
            7 => format!("({} && {})", self.boolean(d), self.boolean(d)),
            8 => format!("({} || {})", self.boolean(d), self.boolean(d)),
            9 => format!("({} in {})", self.int(d), self.array(d)),
            10 => format!("({}).contains(\"b\")", self.text(d)),
            11 => format!("({}).is_empty()", self.array(d)),
            12 if unit => [
                "u.has_marker(\"fresh\")",
                "u.has_marker(\"shaken\")",
                "(u.arm == \"infantry\")",
                "(\"line\" != u.formation)",
            ][self.pick(4)]
            .to_string(),
            13 if self.afford(6f64.log2()) => {
                self.spend(6f64.log2());
                format!("(roll(\"1d6\") {} {})", [">=", "<", "=="][self.pick(3)], self.int(d))
            }
            14 => self.if_expr(Ty::Bool, d),
            15 => self.call(Some(Ty::Bool), d).unwrap_or_else(|| "true".to_string()),
            _ => format!("({} == {})", self.boolean(d), self.boolean(d)),
        }
    }

    fn text(&mut self, depth: u32) -> String {
        let has_var = !self.visible(Ty::Str, false).is_empty();
        if depth == 0 {
            if has_var && self.pick(2) == 1 {
                return self.var_of(Ty::Str, false).unwrap();
            }
            return WORDS[self.pick(WORDS.len())].to_string();
        }
        let d = depth - 1;
        match self.pick(12) {
            0 => WORDS[self.pick(WORDS.len())].to_string(),
            1 | 2 if has_var => self.var_of(Ty::Str, false).unwrap(),
            3 => format!("({} + {})", self.text(d), self.text(d)),
            4 => format!("({} + {})", self.text(d), self.int(d)),
            5 => {
                let (t1, t2) = (self.any_type(), self.any_type());
                format!("`<${{{}}}|${{{}}}>`", self.expr(t1, d), self.expr(t2, d))
            }
            6 => format!("({}).to_string()", self.int(d)),
            7 => self.if_expr(Ty::Str, d),
            8 if self.budget.is_none() => format!(
                "`${{{}[{}]}}`",
                self.var_of(Ty::Str, false).unwrap_or_else(|| "\"héllo\"".into()),
                self.small()
            ),
            9 => self.call(Some(Ty::Str), d).unwrap_or_else(|| "\"z\"".to_string()),
            // A roll made text, and the name of its type.
            10 if self.afford(6f64.log2()) => {
                self.spend(6f64.log2());
                ["`${roll(\"1d6\")}`", "type_of(roll(\"1d6\"))"][self.pick(2)].to_string()
            }
            _ => self.switch_expr(Ty::Str, d),
        }
    }

    fn array(&mut self, depth: u32) -> String {
        let has_var = !self.visible(Ty::Arr, false).is_empty();
        if depth == 0 {
            if has_var && self.pick(2) == 1 {
                return self.var_of(Ty::Arr, false).unwrap();
            }
            return ["[]", "[1, 2, 3]", "[0]", "[-1, 7]"][self.pick(4)].to_string();
        }
        let d = depth - 1;
        match self.pick(7) {
            0 => ["[]", "[1, 2, 3]"][self.pick(2)].to_string(),
            1 | 2 if has_var => self.var_of(Ty::Arr, false).unwrap(),
            3 => {
                let n = self.pick(4);
                let items: Vec<String> = (0..n).map(|_| self.int(d)).collect();
                format!("[{}]", items.join(", "))
            }
            4 => format!("({} + [{}])", self.array(d), self.int(d)),
            5 => self.if_expr(Ty::Arr, d),
            _ => self.call(Some(Ty::Arr), d).unwrap_or_else(|| "[4]".to_string()),
        }
    }

    fn map(&mut self, depth: u32) -> String {
        let has_var = !self.visible(Ty::Map, false).is_empty();
        if depth == 0 {
            if has_var && self.pick(2) == 1 {
                return self.var_of(Ty::Map, false).unwrap();
            }
            return "#{a: 1, b: 2}".to_string();
        }
        let d = depth - 1;
        match self.pick(5) {
            0 | 1 if has_var => self.var_of(Ty::Map, false).unwrap(),
            2 => format!("#{{a: {}, b: {}}}", self.int(d), self.int(d)),
            3 => self.call(Some(Ty::Map), d).unwrap_or_else(|| "#{b: 5, a: -1}".to_string()),
            _ => self.if_expr(Ty::Map, d),
        }
    }

    fn float(&mut self, depth: u32) -> String {
        let has_var = !self.visible(Ty::Float, false).is_empty();
        if depth == 0 {
            if has_var && self.pick(2) == 1 {
                return self.var_of(Ty::Float, false).unwrap();
            }
            return FLOATS[self.pick(FLOATS.len())].to_string();
        }
        let d = depth - 1;
        match self.pick(9) {
            0 => FLOATS[self.pick(FLOATS.len())].to_string(),
            1 | 2 if has_var => self.var_of(Ty::Float, false).unwrap(),
            3 | 4 => {
                // A fraction with a fraction or a whole number, either way round.
                let op = ["+", "-", "*", "/", "%"][self.pick(5)];
                let (a, b) = (self.float(d), if self.pick(2) == 0 { self.float(d) } else { self.int(d) });
                if self.pick(2) == 0 { format!("({a} {op} {b})") } else { format!("({b} {op} {a})") }
            }
            5 => format!("({}).to_float()", self.int(d)),
            6 => format!("({}).{}()", self.float(d), ["floor", "ceiling", "round", "abs"][self.pick(4)]),
            7 => self.if_expr(Ty::Float, d),
            _ => self.call(Some(Ty::Float), d).unwrap_or_else(|| "(-(1.5))".to_string()),
        }
    }

    fn if_expr(&mut self, ty: Ty, d: u32) -> String {
        let guard = self.boolean(d);
        let then = self.valued(|g| g.expr(ty, d));
        let otherwise = self.valued(|g| g.expr(ty, d));
        format!("(if {guard} {{ {then} }} else {{ {otherwise} }})")
    }

    /// `{ statements; value }` used as a value.
    fn block_expr(&mut self, ty: Ty, d: u32) -> String {
        self.valued(|g| {
            let n = g.pick(3);
            let stmts = g.stmts(n, d.min(1));
            let value = g.expr(ty, d);
            let pad = g.pad();
            format!("{{\n{stmts}{pad}{value}\n{}}}", "    ".repeat(g.indent - 1))
        })
    }

    /// A `switch` on whole numbers or words, used as a value (always with a default arm).
    fn switch_expr(&mut self, ty: Ty, d: u32) -> String {
        let (value, cases) = match self.pick(5) {
            0 => (self.text(d), ["\"a\"", "\"bc\" | \"\"", "\"héllo\""]),
            // Booleans, and cases of other types that they never are.
            3 => (self.boolean(d), ["true", "false | 0", "\"a\""]),
            // Fractions: a case of `1.5` is not the case of `1`.
            1 => (self.float(d), ["0.0", "1.5 | 1", "-2.5"]),
            _ => (self.int(d), ["0", "1 | 2", "3"]),
        };
        let mut arms = Vec::new();
        for case in cases {
            if self.pick(3) == 0 {
                continue;
            }
            let guard = if self.one_in(3) { format!(" if {}", self.boolean(d)) } else { String::new() };
            let result = self.valued(|g| g.expr(ty, d));
            arms.push(format!("{case}{guard} => {result}"));
        }
        let default = self.valued(|g| g.expr(ty, d));
        arms.push(format!("_ => {default}"));
        format!("(switch {value} {{ {} }})", arms.join(", "))
    }

    // ----- statements -----

    fn stmts(&mut self, n: usize, depth: u32) -> String {
        let mut out = String::new();
        for _ in 0..n {
            let s = self.stmt(depth);
            let _ = writeln!(out, "{}{s}", self.pad());
        }
        out
    }

    fn body(&mut self, depth: u32) -> String {
        let n = 1 + self.pick(3);
        let stmts = self.scoped(|g| g.stmts(n, depth));
        format!("{{\n{stmts}{}}}", self.pad())
    }

    /// A loop body run up to `turns` times.
    fn loop_body(&mut self, turns: f64, depth: u32, head: &str) -> String {
        let saved = self.turns;
        self.turns *= turns;
        self.loops += 1;
        let n = 1 + self.pick(3);
        let stmts = self.scoped(|g| {
            let head = if head.is_empty() { String::new() } else { format!("{}{head}\n", g.pad()) };
            head + g.stmts(n, depth).as_str()
        });
        self.loops -= 1;
        self.turns = saved;
        format!("{{\n{stmts}{}}}", self.pad())
    }

    fn stmt(&mut self, depth: u32) -> String {
        let d = depth.saturating_sub(1);
        let e = depth.min(3) + 1;
        match self.pick(20) {
            0..=2 => {
                let ty = self.any_type();
                let value = self.expr(ty, e);
                // Now and then a name declared again (shadowing), else a new one.
                let name = match self.env.iter().filter(|v| v.ty != Ty::Unit).count() {
                    n if n > 0 && self.one_in(6) => {
                        let i = self.pick(n);
                        self.env.iter().filter(|v| v.ty != Ty::Unit).nth(i).unwrap().name.clone()
                    }
                    _ => self.name("v"),
                };
                self.env.push(Var { name: name.clone(), ty, fixed: false });
                format!("let {name} = {value};")
            }
            3 | 4 => {
                let ty = self.any_type();
                match self.var_of(ty, true) {
                    Some(v) => {
                        let value = self.expr(ty, e);
                        format!("{v} = {value};")
                    }
                    None => format!("{};", self.expr(ty, e)),
                }
            }
            5 | 6 => self.compound(e),
            7 | 8 if depth > 0 => {
                let guard = self.boolean(e);
                let then = self.body(d);
                if self.pick(2) == 0 {
                    format!("if {guard} {then}")
                } else {
                    format!("if {guard} {then} else {}", self.body(d))
                }
            }
            9 if depth > 0 => {
                let i = self.name("i");
                let n = self.pick(5);
                let head = format!("{i} += 1;");
                self.env.push(Var { name: i.clone(), ty: Ty::Int, fixed: true });
                let body = self.loop_body(n as f64, d, &head);
                self.env.pop();
                format!("let {i} = 0;\n{}while {i} < {n} {body}", self.pad())
            }
            10 if depth > 0 => {
                let i = self.name("i");
                let n = self.pick(5);
                let head = format!("{i} += 1; if {i} > {n} {{ break; }}");
                self.env.push(Var { name: i.clone(), ty: Ty::Int, fixed: true });
                let body = self.loop_body(n as f64, d, &head);
                self.env.pop();
                format!("let {i} = 0;\n{}loop {body}", self.pad())
            }
            11 if depth > 0 => {
                let x = self.name("x");
                if let Some(v) = self.var_of(Ty::Str, true).filter(|_| self.one_in(5)) {
                    // Over a word's characters, each added to a word.
                    let items = self.text(e.min(2));
                    return format!("for {x} in {items} {{ {v} += {x}; }}");
                }
                let (items, turns) = match self.pick(4) {
                    0 => {
                        let (a, b) = (self.small(), self.small() + 2);
                        (format!("range({a}, {b})"), (b - a).max(0) as f64)
                    }
                    1 => (format!("range(0, min({}, 3))", self.int(e)), 3.0),
                    2 => {
                        let (a, b) = (self.small(), self.small());
                        (format!("{a}..={b}"), (b - a + 1).max(0) as f64)
                    }
                    _ => {
                        // Arrays grow by a few items a turn at most; their rolls are counted as 8 turns
                        // (with dice bounded, as too many: the length is not known here).
                        let items = self.array(e.min(2));
                        (items, if self.budget.is_some() { 1e6 } else { 8.0 })
                    }
                };
                let counted = self.pick(3) == 0;
                let i = self.name("n");
                self.env.push(Var { name: x.clone(), ty: Ty::Int, fixed: true });
                if counted {
                    self.env.push(Var { name: i.clone(), ty: Ty::Int, fixed: true });
                }
                let body = self.loop_body(turns, d, "");
                self.env.pop();
                if counted {
                    self.env.pop();
                    format!("for ({x}, {i}) in {items} {body}")
                } else {
                    format!("for {x} in {items} {body}")
                }
            }
            12 if self.loops > 0 || (self.outer_loops > 0 && self.one_in(4)) => {
                let word = ["break", "continue"][self.pick(2)];
                if self.pick(3) == 0 { format!("{word};") } else { format!("if {} {{ {word}; }}", self.boolean(e)) }
            }
            13 if self.may_return || (self.outer_return && self.one_in(4)) => {
                let ty = self.ret;
                if self.budget.is_none() && self.one_in(8) {
                    // A bare `return` gives `()`.
                    return format!("if {} {{ return; }}", self.boolean(e));
                }
                format!("if {} {{ return {}; }}", self.boolean(e), self.expr(ty, e))
            }
            14 => {
                let ty = self.any_type();
                format!("note(`note ${{{}}}`);", self.expr(ty, e))
            }
            15 => match self.call(None, e) {
                Some(call) => format!("{call};"),
                None => format!("{};", self.int(e)),
            },
            16 if depth > 0 => self.switch_stmt(e, d),
            17 if !self.visible(Ty::Unit, false).is_empty() => {
                let change = self.pick(5);
                if change == 3 {
                    // A word changed, then read in place by a comparison.
                    let word = ["\"column\"", "\"line\"", "3"][self.pick(3)];
                    format!("u.formation = {word};")
                } else if change == 4 {
                    "note(`${u} ${type_of(u)} ${u.formation == \"column\"}`);".to_string()
                } else if change == 0 {
                    "if u.stands > 1 { u.stands -= 1; }".to_string()
                } else if change == 1 && self.budget.is_none() {
                    format!("u.stands += {};", self.int(e.min(2)))
                } else {
                    let stands = self.int(e.min(2));
                    if self.budget.is_some() {
                        format!("u.stands = max(0, {stands});")
                    } else {
                        format!("u.stands = {stands};")
                    }
                }
            }
            18 if self.budget.is_none() && self.one_in(4) => {
                let ty = self.any_type();
                format!("if {} {{ throw {}; }}", self.boolean(e), self.expr(ty, 1))
            }
            // With dice bounded (the odds property), a roll kept in a new variable.
            19 if self.budget.is_some() => match self.roll_int(e) {
                Some(roll) => {
                    let name = self.name("v");
                    self.env.push(Var { name: name.clone(), ty: Ty::Int, fixed: false });
                    format!("let {name} = {roll};")
                }
                None => format!("{};", self.int(e)),
            },
            _ => format!("{};", self.int(e)),
        }
    }

    fn compound(&mut self, e: u32) -> String {
        let ty = [Ty::Int, Ty::Int, Ty::Str, Ty::Arr, Ty::Map, Ty::Float][self.pick(6)];
        let Some(v) = self.var_of(ty, true) else { return format!("{};", self.int(e)) };
        match ty {
            Ty::Float => {
                let op = ["+=", "-=", "*=", "/="][self.pick(4)];
                let value = if self.pick(2) == 0 { self.float(e) } else { self.int(e) };
                format!("{v} {op} {value};")
            }
            Ty::Int => {
                let op = ["+=", "-=", "*=", "/=", "%="][self.pick(5)];
                format!("{v} {op} {};", self.int(e))
            }
            Ty::Str => {
                let value = if self.pick(2) == 0 { self.text(e) } else { self.int(e) };
                format!("{v} += {value};")
            }
            Ty::Arr => match self.pick(3) {
                0 => format!("{v}.push({});", self.int(e)),
                1 => format!("{v} += [{}];", self.int(e)),
                _ => {
                    // An item written where it lies, from the end when negative, or past the end.
                    let at = ["0", "1", "-1", "3"][self.pick(4)];
                    let op = ["=", "+=", "*="][self.pick(3)];
                    format!("{v}[{at}] {op} {};", self.int(e))
                }
            },
            _ => {
                // `c` is missing: `()` to add to, an error worded by Rhai.
                let field = ["a", "b", "a", "b", "c"][self.pick(5)];
                let op = ["=", "+=", "*="][self.pick(3)];
                if self.pick(2) == 0 {
                    format!("{v}.{field} {op} {};", self.int(e))
                } else {
                    format!("{v}[\"{field}\"] {op} {};", self.int(e))
                }
            }
        }
    }

    /// A `switch` as a statement: arms are blocks of statements, which no `break` or `return` leaves.
    fn switch_stmt(&mut self, e: u32, d: u32) -> String {
        let value = self.int(e);
        let mut arms = Vec::new();
        for case in ["0", "1 | 2", "3", "_"] {
            if self.pick(3) == 0 {
                continue;
            }
            let guard = if case != "_" && self.one_in(4) { format!(" if {}", self.boolean(e)) } else { String::new() };
            let block = self.valued(|g| {
                let n = 1 + g.pick(2);
                let stmts = g.stmts(n, d);
                format!("{{\n{stmts}{}}}", "    ".repeat(g.indent - 1))
            });
            arms.push(format!("{case}{guard} => {block}"));
        }
        format!("switch {value} {{\n{}{}\n{}}}", self.pad(), arms.join(&format!(",\n{}", self.pad())), self.pad())
    }

    // ----- functions and programs -----

    fn function(&mut self, index: usize, entry: bool) -> (Sig, String) {
        let name = format!("f{index}");
        let mut params: Vec<Ty> = (0..self.pick(4)).map(|_| self.any_type()).collect();
        if entry && self.pick(2) == 0 {
            params.insert(0, Ty::Unit);
        } else if !entry && self.one_in(5) {
            params.push(Ty::Unit);
        }
        // Now and then a function calls itself, on a number that falls to 0 within 4 calls.
        let recursive = !entry && self.one_in(4);
        if recursive {
            params.insert(0, Ty::Int);
        }
        let ret = if entry || recursive || self.pick(2) == 0 { Ty::Int } else { self.any_type() };
        self.env = params
            .iter()
            .enumerate()
            .map(|(i, ty)| Var {
                name: if *ty == Ty::Unit { "u".into() } else { format!("p{i}") },
                ty: *ty,
                fixed: false,
            })
            .collect();
        self.ret = ret;
        self.loops = 0;
        self.may_return = true;
        (self.outer_loops, self.outer_return) = (0, false);
        self.turns = 1.0;
        self.dice_used = 0.0;
        // A recursive function's dice are rolled up to 4 times a call.
        let levels = if recursive { 4.0 } else { 1.0 };
        self.dice_left = self.budget.map(|b| b / levels);
        self.fuel = 60;
        self.indent = 1;
        // Where the recursion ends: only the parameters are known there.
        let base = if recursive { format!("    if p0 <= 0 {{ return {}; }}\n", self.int(2)) } else { String::new() };
        let n = 1 + self.pick(6);
        let body = base + self.stmts(n, 2).as_str();
        let mut value = self.expr(ret, 3);
        if recursive {
            let args: Vec<String> = params[1..].iter().map(|p| self.expr(*p, 1)).collect();
            let args: String = args.iter().map(|a| format!(", {a}")).collect();
            value = format!("({name}(min(p0, 3) - 1{args}) + {value})");
            self.dice_used *= levels;
        }
        if entry && self.budget.is_some() {
            // The odds of every variable left, not only of the value: the engine keeps them all apart.
            let mut left: Vec<String> = VALUE_TYPES.iter().flat_map(|t| self.visible(*t, false)).collect();
            left.insert(0, value);
            value = format!("[{}]", left.join(", "));
        }
        let names: Vec<String> = self.env.iter().take(params.len()).map(|v| v.name.clone()).collect();
        let text = format!("fn {name}({}) {{\n{body}    {value}\n}}\n", names.join(", "));
        (Sig { name, params, ret, dice: self.dice_used }, text)
    }

    fn program(&mut self) -> Program {
        let count = 1 + self.pick(3);
        let names: Vec<String> = (0..count).map(|i| format!("f{i}")).collect();
        let mut source = String::new();
        for i in 0..count {
            let (sig, text) = self.function(i, i + 1 == count);
            source.push_str(&text);
            self.funcs.push(sig);
        }
        let entry = self.funcs.last().unwrap().clone();
        // The entry call's arguments: small expressions of literals, no calls, no dice.
        self.env.clear();
        if entry.params.contains(&Ty::Unit) {
            self.env.push(Var { name: "u".into(), ty: Ty::Unit, fixed: true });
        }
        self.funcs.clear();
        self.dice_left = Some(0.0);
        self.fuel = 6;
        let args: Vec<String> = entry.params.iter().map(|p| self.expr(*p, 1)).collect();
        let call = format!("{}({})", entry.name, args.join(", "));
        // Now and then the first argument is the caller's variable (Rhai passes it by reference; a
        // compiled function that only reads it borrows it): it must come back as it was, error or not.
        let call = match entry.params.first() {
            Some(first) if *first != Ty::Unit && self.pick(2) == 0 => {
                let rest: String = args[1..].iter().map(|a| format!(", {a}")).collect();
                format!("let a = {};\nlet r = {}(a{rest});\n[r, a]", args[0], entry.name)
            }
            _ => call,
        };
        let call = if entry.params.contains(&Ty::Unit) {
            format!(
                "let u = unit(#{{name: \"A\", arm: \"infantry\", stands: 4, formation: \"line\", markers: #{{fresh: true}}}});\nlet r = {call};\n[r, u.stands]"
            )
        } else {
            call
        };
        Program { source, call, names }
    }
}

#[derive(Debug)]
struct Program {
    source: String,
    call: String,
    names: Vec<String>,
}

/// A program made from `choices`; with `dice`, rolling at most that many (log2 outcomes) per call.
fn generate(choices: &[u32], dice: Option<f64>) -> Program {
    Gen::new(choices, dice).program()
}

/// Both hosts of a program's ruleset: compiled procedures, and Rhai's alone; none when
/// `check` refuses the program for comparing values of two kinds or a place with a word it is
/// never given (the generator now and then writes either, as Rhai allows): no ruleset holding
/// it loads, so no player runs it. Any other problem fails the test.
fn loaded(program: &Program) -> Option<[Host; 2]> {
    let scratch = tempfile::tempdir().unwrap();
    let folder = scratch.path().join("generated");
    std::fs::create_dir_all(folder.join("procedures")).unwrap();
    std::fs::write(folder.join("ruleset.yaml"), "id: generated\ntitle: Generated programs\nsource: house\n").unwrap();
    std::fs::write(folder.join("procedures/generated.rhai"), &program.source).unwrap();
    let rs = crate::support::ruleset(&[folder.to_str().unwrap()]);
    match Host::new(rs.clone()) {
        Ok(host) => Some([host, Host::interpreted(rs).unwrap()]),
        Err(problems) => {
            let errors: Vec<_> = problems.iter().filter(|p| p.is_error()).collect();
            let kinds = |p: &&grognard::rules::Problem| {
                p.message.contains("values of two kinds") || p.message.contains("is only ever given")
            };
            assert!(errors.iter().all(kinds), "{problems:?}\n{}", program.source);
            None
        }
    }
}

/// Both hosts of a program that loads.
fn hosts(program: &Program) -> [Host; 2] {
    loaded(program).unwrap_or_else(|| panic!("refused by check:\n{}", program.source))
}

fn shown(result: Result<Evaluation, ScriptError>) -> String {
    match result {
        Ok(eval) => format!("{:?}\n{}", eval.value, eval.trace),
        Err(err) => format!("error: {err}"),
    }
}

/// The choices a program is made from.
fn choices() -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(any::<u32>(), 100..1200)
}

/// A runner that makes the same `cases` on every run, and writes no regression files. To look
/// further, set the count in the environment variable named by `cases_from`, and another seed in
/// `GROGNARD_GENERATED_SEED`; `GROGNARD_SHOW_GENERATED` prints each program.
fn runner(cases_from: &str, cases: u32, seed: u64) -> TestRunner {
    // A value set but not a whole number is refused, not quietly replaced by the default.
    let number = |name: &str| {
        std::env::var(name).ok().map(|c| c.parse::<u64>().unwrap_or_else(|_| panic!("{name}={c}: not a whole number")))
    };
    let cases = number(cases_from).map_or(cases, |n| n as u32);
    let seed = number("GROGNARD_GENERATED_SEED").map_or(seed, |s| seed ^ s);
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        max_shrink_iters: 2_000,
        ..Config::default()
    })
}

/// Runs `f` on a thread with the stack scripts run on (`SCRIPT_STACK`, as the binary and a
/// study's workers give them): a deep program recurses as deep as the call limit allows.
fn on_script_stack(f: fn()) {
    let thread = std::thread::Builder::new().stack_size(grognard::script::SCRIPT_STACK).spawn(f).unwrap();
    if let Err(panic) = thread.join() {
        std::panic::resume_unwind(panic);
    }
}

#[test]
fn generated_programs_run_compiled_as_rhai_runs_them() {
    on_script_stack(run_compiled_as_rhai_runs_them);
}

fn run_compiled_as_rhai_runs_them() {
    let (cases, compiled_cases, valued, functions, compiled_functions) =
        (Cell::new(0), Cell::new(0), Cell::new(0), Cell::new(0), Cell::new(0));
    let result = runner("GROGNARD_GENERATED_CASES", 300, 0x9e0_6a2d).run(&choices(), |choices| {
        let program = generate(&choices, None);
        if std::env::var_os("GROGNARD_SHOW_GENERATED").is_some() {
            eprintln!("{}{}\n", program.source, program.call);
        }
        let Some([compiled, interpreted]) = loaded(&program) else { return Ok(()) };
        assert!(interpreted.compiled_procedures().is_empty());
        let names = compiled.compiled_procedures();
        let all = program.names.iter().all(|n| names.contains(n));
        if !all && std::env::var_os("GROGNARD_SHOW_GENERATED").is_some() {
            eprintln!("NOT COMPILED {names:?}\n{}", program.source);
        }
        cases.set(cases.get() + 1);
        compiled_cases.set(compiled_cases.get() + usize::from(all));
        functions.set(functions.get() + program.names.len());
        compiled_functions.set(compiled_functions.get() + program.names.iter().filter(|n| names.contains(n)).count());
        for (seed, tracing) in [(1, true), (2, true), (3, false)] {
            let run = |host: &Host| {
                host.set_dice(Box::new(Seeded::for_trial(seed, 0)));
                host.set_tracing(tracing);
                let mut scope = Scope::new();
                let value = shown(host.eval(&mut scope, &program.call));
                // The caller's variable after the call, even one that failed.
                let lent =
                    if program.call.starts_with("let a") { shown(host.eval(&mut scope, "a")) } else { String::new() };
                value + lent.as_str()
            };
            let (a, b) = (run(&compiled), run(&interpreted));
            if a != b {
                return Err(TestCaseError::fail(format!(
                    "seed {seed}, tracing {tracing}\n{}\n{}\ncompiled: {a}\nRhai: {b}",
                    program.source, program.call
                )));
            }
            if seed == 1 && !a.starts_with("error") {
                valued.set(valued.get() + 1);
            }
        }
        Ok(())
    });
    if let Err(err) = result {
        panic!("{err}");
    }
    let (cases, compiled_cases, valued) = (cases.get(), compiled_cases.get(), valued.get());
    eprintln!(
        "{cases} programs, {compiled_cases} wholly compiled ({} of {} functions), {valued} gave a value",
        compiled_functions.get(),
        functions.get()
    );
    // The generator stays inside what `script::compiled` lowers (but for `a[i].b` chains, and a
    // `break` or `return` from inside a block used as a value, now and then), so the comparison tests it.
    assert!(compiled_cases * 20 >= cases * 17, "only {compiled_cases} of {cases} programs compiled whole");
    assert!(valued * 3 >= cases, "only {valued} of {cases} programs gave a value");
}

#[test]
fn generated_programs_have_the_same_exact_odds_through_the_engine_as_every_face_replayed() {
    on_script_stack(same_exact_odds_through_the_engine_as_every_face_replayed);
}

fn same_exact_odds_through_the_engine_as_every_face_replayed() {
    let limits = EnumLimits { max_outcomes: 20_000, max_depth: 64 };
    let (cases, compared, engine_worked, failed) = (Cell::new(0), Cell::new(0), Cell::new(0), Cell::new(0));
    let result = runner("GROGNARD_GENERATED_ODDS_CASES", 100, 0x0dd5_e9e1).run(&choices(), |choices| {
        // At most 2^10 ways the dice of one call fall: the reference replays every one.
        let program = generate(&choices, Some(10.0));
        let Some([host, _]) = loaded(&program) else { return Ok(()) };
        cases.set(cases.get() + 1);
        let odds = |engine: bool| -> Result<ProcedureOdds, String> {
            host.set_exact_engine(engine);
            host.odds(&Scope::new(), &program.call, limits, (100, 1)).map_err(|e| e.to_string())
        };
        let (engine, replayed) = (odds(true), odds(false));
        let whole = |o: &ProcedureOdds| o.exact && o.sampled.is_none() && o.distribution.residual().is_zero();
        let fail = |why: String| Err(TestCaseError::fail(format!("{why}\n{}\n{}", program.source, program.call)));
        match (&engine, &replayed) {
            (Ok(engine), Ok(replayed)) if whole(engine) && whole(replayed) => {
                let chances =
                    |o: &ProcedureOdds| o.distribution.iter().map(|(o, p)| (o.clone(), p)).collect::<Vec<_>>();
                if chances(engine) != chances(replayed) {
                    return fail(format!("engine {:?}\nreplayed {:?}", chances(engine), chances(replayed)));
                }
                compared.set(compared.get() + 1);
                if std::env::var_os("GROGNARD_SHOW_GENERATED").is_some() {
                    eprintln!("runs: engine {}, replayed {}", engine.runs, replayed.runs);
                }
                // Fewer runs than faces: the engine worked the call out (a small walk replays every face).
                if engine.runs < replayed.runs {
                    engine_worked.set(engine_worked.get() + 1);
                }
            }
            (Ok(_), Ok(_)) => {}
            // Whichever error a walk meets first, both ways meet one.
            (Err(_), Err(_)) => failed.set(failed.get() + 1),
            _ => {
                return fail(format!("engine {:?}\nreplayed {:?}", engine.map(|o| o.runs), replayed.map(|o| o.runs)));
            }
        }
        Ok(())
    });
    if let Err(err) = result {
        panic!("{err}");
    }
    let (cases, compared, engine_worked) = (cases.get(), compared.get(), engine_worked.get());
    eprintln!(
        "{cases} programs, {compared} compared whole, {engine_worked} by the engine, {} failed both ways",
        failed.get()
    );
    assert!(compared * 2 >= cases, "only {compared} of {cases} programs compared");
    assert!(engine_worked * 4 >= cases, "only {engine_worked} of {cases} programs worked out by the engine");
}

/// What `call` gives with `source` as the procedures, compiled and by Rhai alone.
fn both_ways(source: &str, call: &str) -> (String, String) {
    let program = Program { source: source.to_string(), call: call.to_string(), names: Vec::new() };
    let [compiled, interpreted] = hosts(&program);
    let run = |host: &Host| {
        host.set_dice(Box::new(Seeded::for_trial(1, 0)));
        shown(host.eval(&mut Scope::new(), call))
    };
    (run(&compiled), run(&interpreted))
}

// Found by the generator: `break`, `continue` and `return` inside a `switch` arm or an `if`
// used as a value leave the loop or the function in Rhai; compiled code lost them (the value
// of the block was `()` and the loop went on).
#[test]
fn leaving_from_inside_a_block_used_as_a_value_leaves_as_in_rhai() {
    let source = r#"
        fn arm_breaks() { let i = 0; loop { i += 1; switch i { 3 => { break; }, _ => {} } } i }
        fn arm_returns(a) { switch a { 1 => { return 10; }, _ => {} } 20 }
        fn arm_returns_bare(a) { switch a { 1 => return 10, _ => 0 } }
        fn if_value_returns(a) { let x = if a > 0 { return 10; } else { 3 }; x }
        fn if_value_continues(a) { let t = 0; while t < 5 { t += 1; let y = if t == 2 { continue; } else { 1 }; a += y; } a }
        fn switch_value_breaks() { let t = 0; for i in 0..5 { let q = switch i { 2 => { break; }, _ => i }; t += q; } t }
    "#;
    for (call, expected) in [
        ("arm_breaks()", "3"),
        ("arm_returns(1)", "10"),
        ("arm_returns_bare(1)", "10"),
        ("if_value_returns(1)", "10"),
        ("if_value_continues(0)", "4"),
        ("switch_value_breaks()", "1"),
    ] {
        let (compiled, rhai) = both_ways(source, call);
        assert_eq!(compiled, rhai, "{call}");
        assert_eq!(rhai.trim(), expected, "{call}");
    }
}

// Found by the generator: Rhai's own `-x` (its fast operators) says "integer overflow" for the
// smallest whole number; compiled code called the `-` function, which words it otherwise.
#[test]
fn negating_the_smallest_number_fails_as_in_rhai() {
    let source = "fn neg(x) { -x }\nfn neg_of_sum(x) { -(x - 1) }\n";
    for call in ["neg(-9223372036854775807 - 1)", "neg_of_sum(-9223372036854775807)", "neg(-9223372036854775807)"] {
        let (compiled, rhai) = both_ways(source, call);
        assert_eq!(compiled, rhai, "{call}");
    }
}

// Found by the generator: Rhai compares fractions within a relative epsilon (`0.1 + 0.2 == 0.3`
// is true), so NaN is unequal to nothing and infinity not equal to itself; compiled code compared
// them as Rust does.
#[test]
fn fractions_compare_as_in_rhai() {
    let source = r#"
        fn ne(a, b) { a != b }
        fn eq(a, b) { a == b }
        fn lt(a, b) { a < b }
        fn ge(a, b) { a >= b }
        fn guard(a, b) { if a != b { 1 } else { 2 } }
        fn within(a, list) { a in list }
        fn nan() { 1e300 % -0.0 }
        fn inf() { 1e300 * 1e300 }
    "#;
    let pairs = [
        ("nan()", "2.0"),
        ("nan()", "nan()"),
        ("2", "nan()"),
        ("inf()", "inf()"),
        ("0.1 + 0.2", "0.3"),
        ("1.0", "1.0000000000000002"),
        ("3", "3.0000000000000004"),
        ("-0.0", "0.0"),
        ("1.5", "2"),
    ];
    for (a, b) in pairs {
        for f in ["ne", "eq", "lt", "ge", "guard"] {
            let call = format!("{f}({a}, {b})");
            let (compiled, rhai) = both_ways(source, &call);
            assert_eq!(compiled, rhai, "{call}");
        }
        let call = format!("within({a}, [{b}])");
        let (compiled, rhai) = both_ways(source, &call);
        assert_eq!(compiled, rhai, "{call}");
    }
}
