//! Running compiled functions: local slots, control flow and operator fast paths here;
//! every other call goes to Rhai through the calling context, so it means what Rhai means.

use rhai::{Dynamic, EvalAltResult, ImmutableString, Map, Position};

use super::code::{Callee, Code, Ex, Function, Op, SwitchTable, WordCompare};
use super::code::{PURE_METHODS, place_of};
use super::direct;
use super::lower::switch_hash;
use super::ops::{at, fast, indexed, iterate, mismatch};
use super::runner::{Caller, Flow, R, Runner, Slots};
use crate::dice::RollSource;
use crate::script::UnitRef;
use crate::script::bindings::dice::roll;
use crate::script::bindings::unseen::{Piece, Unseen};
use crate::script::condition::{CONDITION_NAMES, ConditionValues};
use crate::script::modifier_engine::modifiers_of;
use crate::script::value_compare::compare_text;

/// Call arguments: a few, kept on the stack.
type Args = smallvec::SmallVec<[Dynamic; 4]>;

impl Runner<'_, '_> {
    /// Runs `f` on its arguments, the first `slots`; an error inside is wrapped as
    /// Rhai wraps one from a script function.
    pub fn call(&mut self, f: &Function, slots: &mut Slots, pos: Position) -> R<Dynamic> {
        let engine = self.ctx.engine();
        if crate::script::syntax::call_level(self.ctx) + self.depth > engine.max_call_levels() {
            return Err(EvalAltResult::ErrorStackOverflow(pos).into());
        }
        self.meter.tick_at(pos)?;
        slots.resize(f.slots, Dynamic::UNIT);
        self.depth += 1;
        let result = self.block(&f.body, slots);
        self.depth -= 1;
        match result {
            Ok(Flow::Value(v) | Flow::Return(v)) => Ok(v),
            Ok(Flow::Break | Flow::Continue) => Ok(Dynamic::UNIT),
            Err(mut err) if err.is_system_exception() || matches!(*err, EvalAltResult::Exit(..)) => {
                err.set_position(pos);
                Err(err)
            }
            Err(err) => Err(EvalAltResult::ErrorInFunctionCall(
                f.name.to_string(),
                self.ctx.call_source().unwrap_or("").to_string(),
                err,
                pos,
            )
            .into()),
        }
    }

    fn block(&mut self, code: &[Code], slots: &mut [Dynamic]) -> R<Flow> {
        // Only the last statement's value is the block's: the others' are dropped where they
        // lie, not moved (moving each freshly made value stalls this CPU more than the work).
        let Some((last, before)) = code.split_last() else { return Ok(Flow::Value(Dynamic::UNIT)) };
        for stmt in before {
            match self.stmt(stmt, slots)? {
                Flow::Value(_) => {}
                other => return Ok(other),
            }
        }
        self.stmt(last, slots)
    }

    pub fn stmt(&mut self, code: &Code, slots: &mut [Dynamic]) -> R<Flow> {
        self.meter.tick_at(Position::NONE)?;
        Ok(match code {
            Code::Expr(ex) => Flow::Value(self.expr(ex, slots)?),
            Code::Let(slot, ex) => {
                slots[*slot] = self.expr(ex, slots)?;
                Flow::Value(Dynamic::UNIT)
            }
            Code::Set(slot, op, ex, pos) => {
                let value = self.expr(ex, slots)?;
                slots[*slot] = match op {
                    None => value,
                    Some(op) => {
                        let value = self.op_assign(*op, std::mem::take(&mut slots[*slot]), value, *pos)?;
                        self.sized(value, *pos)?
                    }
                };
                Flow::Value(Dynamic::UNIT)
            }
            Code::SetAt(slot, steps, op, ex, pos) => {
                self.set_at(*slot, steps, *op, ex, *pos, slots)?;
                Flow::Value(Dynamic::UNIT)
            }
            Code::If(guard, then, otherwise, pos) => {
                if self.guard(guard, slots, *pos)? {
                    self.block(then, slots)?
                } else {
                    self.block(otherwise, slots)?
                }
            }
            Code::Switch(value, table) => {
                let value = self.expr(value, slots)?;
                match self.switch_arm(table, &value, slots)? {
                    Some(arm) => Flow::Value(self.expr(&table.arms[arm].1, slots)?),
                    None => Flow::Value(Dynamic::UNIT),
                }
            }
            Code::While(guard, body, pos) => {
                loop {
                    self.turn(*pos)?;
                    if let Some((guard, at)) = guard
                        && !self.guard(guard, slots, *at)?
                    {
                        break;
                    }
                    match self.block(body, slots)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Value(_) | Flow::Continue => {}
                    }
                }
                Flow::Value(Dynamic::UNIT)
            }
            Code::For(each) => {
                let items = self.expr(&each.items, slots)?;
                for (counter, item) in (0..).zip(iterate(items, each.items_at)?) {
                    self.turn(each.pos)?;
                    if let Some(slot) = each.counter {
                        slots[slot] = Dynamic::from_int(counter);
                    }
                    slots[each.item] = item;
                    match self.block(&each.body, slots)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Value(_) | Flow::Continue => {}
                    }
                }
                Flow::Value(Dynamic::UNIT)
            }
            Code::Break => Flow::Break,
            Code::Continue => Flow::Continue,
            Code::Return(ex) => Flow::Return(match ex {
                Some(ex) => self.expr(ex, slots)?,
                None => Dynamic::UNIT,
            }),
            Code::Throw(ex, pos) => {
                let value = match ex {
                    Some(ex) => self.expr(ex, slots)?,
                    None => Dynamic::UNIT,
                };
                return Err(EvalAltResult::ErrorRuntime(value, *pos).into());
            }
            Code::Block(code) => self.block(code, slots)?,
        })
    }

    /// The arm a `switch` takes, as Rhai picks it: the case of the value's hash whose guard holds, else the default.
    /// Notes that the script looked at what `value` is: a card drawn by kind is then told apart
    /// from the others of its kind (see `bindings::unseen`).
    fn seen(&self, value: &Dynamic) {
        if value.is::<Unseen>() {
            self.state.borrow_mut().cards.told_apart = true;
        }
    }

    fn switch_arm(&mut self, table: &SwitchTable, value: &Dynamic, slots: &mut [Dynamic]) -> R<Option<usize>> {
        self.seen(value);
        // Rhai hashes these kinds; a case value is a literal of one of them.
        let hashable = value.is_unit()
            || value.is_bool()
            || value.is_string()
            || value.is_char()
            || value.is_int()
            || value.is_float();
        if hashable {
            let hash = switch_hash(value);
            if let Some((_, arms)) = table.cases.iter().find(|(h, _)| *h == hash) {
                for &arm in arms {
                    let holds = match &table.arms[arm].0 {
                        None => true,
                        Some((guard, pos)) => self.guard(guard, slots, *pos)?,
                    };
                    if holds {
                        return Ok(Some(arm));
                    }
                }
            }
        }
        Ok(table.default)
    }

    /// An `if`, `while` or `switch` guard, or a term of `&&` or `||`: true or false,
    /// else Rhai's mismatch error at `pos`.
    pub fn guard(&mut self, guard: &Ex, slots: &mut [Dynamic], pos: Position) -> R<bool> {
        // A comparison of a variable or a constant with another: compared where they lie.
        if let Ex::Binary(op, a, b, _) = guard
            && let (Some(a), Some(b)) = (lies(a, slots), lies(b, slots))
            && let Some(Ok(truth)) = fast(*op, a, b).map(|v| v.as_bool())
        {
            return Ok(truth);
        }
        if let Ex::WordCompare(compare) = guard
            && let Some(truth) = word_truth(compare, slots)
        {
            return Ok(truth);
        }
        let value = self.expr(guard, slots)?;
        value.as_bool().map_err(|t| mismatch::<bool>(self.ctx, t, pos))
    }

    /// Counts a loop turn against the command's budget.
    fn turn(&mut self, pos: Position) -> R<()> {
        self.meter.tick_at(pos)
    }

    /// `value`, if it is within the engine's size limits on strings, arrays and maps (nested ones
    /// counted in) and nests no deeper than the sandbox allows, else the error Rhai's walk gives
    /// (`sandbox::measure`): what is checked of each value a script makes or keeps.
    pub(super) fn sized(&self, value: Dynamic, pos: Position) -> R<Dynamic> {
        crate::script::sandbox::measure(self.ctx.engine(), &value, Position::NONE).map_err(|e| at(e, pos))?;
        Ok(value)
    }

    pub(super) fn expr(&mut self, ex: &Ex, slots: &mut [Dynamic]) -> R<Dynamic> {
        Ok(match ex {
            Ex::Const(v) => v.clone(),
            Ex::Var(slot) => slots[*slot].clone(),
            Ex::Move(slot) => std::mem::take(&mut slots[*slot]),
            Ex::Array(items) => {
                let mut array = rhai::Array::with_capacity(items.len());
                for item in items {
                    array.push(self.expr(item, slots)?);
                }
                self.sized(Dynamic::from_array(array), Position::NONE)?
            }
            Ex::Map(entries) => {
                let mut map = Map::new();
                for (key, value) in entries {
                    let value = self.expr(value, slots)?;
                    map.insert(key.as_str().into(), value);
                }
                self.sized(Dynamic::from_map(map), Position::NONE)?
            }
            Ex::Interpolated(parts) => {
                let values = self.unworded(parts, slots)?;
                let text = self.worded(values);
                self.sized(text, Position::NONE)?
            }
            // `note(`...`)` (or `detail`) with tracing off: nobody reads the words.
            Ex::Call(Callee::Other(name, Some(script)), args, _)
                if (name == "note" || name == "detail")
                    && let [Ex::Interpolated(parts)] = &args[..]
                    && !self.state.borrow().tracing
                    && !self.redefined(*script) =>
            {
                self.unread(parts, slots)?;
                Dynamic::UNIT
            }
            // `roll("1d10", `...`)` with tracing off and dice that do not show what they are for.
            Ex::Call(callee @ Callee::Other(name, Some(script)), args, pos)
                if name == "roll"
                    && let [expr, Ex::Interpolated(parts)] = &args[..]
                    && self.labels_unread()
                    && !self.redefined(*script) =>
            {
                let expr = self.expr(expr, slots)?;
                let parts = self.unworded(parts, slots)?;
                if let Some(text) = expr.read_lock::<ImmutableString>() {
                    return roll(self.state, &text, None).map(Dynamic::from).map_err(|e| at(e, *pos));
                }
                // Not text: called as written (Rhai words the error), with the label made.
                let label = self.worded(parts);
                self.call_out(callee, [expr, label].into_iter().collect(), *pos)?
            }
            Ex::Index(base, index, pos) => {
                let index = self.expr(index, slots)?;
                match base.as_ref() {
                    Ex::Var(slot) => indexed(self.ctx, &slots[*slot], index, *pos)?,
                    other => {
                        let base = self.expr(other, slots)?;
                        indexed(self.ctx, &base, index, *pos)?
                    }
                }
            }
            // Off a variable, read in place: `situation.range` does not copy the situation.
            Ex::Property(base, name, pos) => match base.as_ref() {
                Ex::Var(slot) => self.property(&mut slots[*slot], name, *pos)?,
                other => {
                    let mut base = self.expr(other, slots)?;
                    self.property(&mut base, name, *pos)?
                }
            },
            Ex::Method(receiver, name, args, script, _, pos) => {
                let mut values = Args::new();
                values.push(Dynamic::UNIT);
                for arg in args {
                    values.push(self.expr(arg, slots)?);
                }
                let place = match receiver.as_ref() {
                    Ex::Var(_) => None,
                    _ if PURE_METHODS.contains(&name.as_str()) => None,
                    other => place_of(other),
                };
                if let Some((slot, steps)) = place {
                    // `this.deck.draw()`: the method changes the place where it lies.
                    let path = self.worked_out(steps, slots)?;
                    let result = self.within(&mut slots[slot], &path, |runner, target| {
                        std::mem::swap(&mut values[0], target);
                        let result = runner.method(name, *script, &mut values, *pos);
                        std::mem::swap(&mut values[0], target);
                        result
                    });
                    let receiver = std::mem::take(&mut slots[slot]);
                    slots[slot] = self.sized(receiver, *pos)?;
                    return self.sized(result?, *pos);
                }
                match receiver.as_ref() {
                    Ex::Var(slot) => {
                        std::mem::swap(&mut values[0], &mut slots[*slot]);
                        let result = self.method(name, *script, &mut values, *pos);
                        std::mem::swap(&mut values[0], &mut slots[*slot]);
                        // A method may grow its receiver (`list.push(x)`).
                        let receiver = std::mem::take(&mut slots[*slot]);
                        slots[*slot] = self.sized(receiver, *pos)?;
                        self.sized(result?, *pos)?
                    }
                    other => {
                        values[0] = self.expr(other, slots)?;
                        let result = self.method(name, *script, &mut values, *pos)?;
                        self.sized(result, *pos)?
                    }
                }
            }
            Ex::Call(Callee::Other(name, Some(script)), args, pos)
                if name == "modifiers"
                    && let Some(result) = self.modifiers_lent(*script, args, slots, *pos) =>
            {
                result?
            }
            Ex::Call(callee, args, pos) => {
                let mut values = Args::new();
                for arg in args {
                    values.push(self.expr(arg, slots)?);
                }
                let result = self.call_out(callee, values, *pos)?;
                self.sized(result, *pos)?
            }
            Ex::WordCompare(compare) => match word_truth(compare, slots) {
                Some(truth) => Dynamic::from(truth),
                None => self.expr(&compare.written, slots)?,
            },
            Ex::Binary(op, a, b, pos) => {
                if let (Some(x), Some(y)) = (lies(a, slots), lies(b, slots))
                    && let Some(value) = fast(*op, x, y)
                {
                    return Ok(value);
                }
                let a = self.expr(a, slots)?;
                let b = self.expr(b, slots)?;
                let result = self.binary(*op, a, b, *pos)?;
                self.sized(result, *pos)?
            }
            Ex::Not(value, pos) => {
                let value = self.expr(value, slots)?;
                match value.as_bool() {
                    Ok(b) => Dynamic::from(!b),
                    Err(_) => self.rhai_op("!", vec![value], *pos)?,
                }
            }
            Ex::Negate(value, pos) => {
                let value = self.expr(value, slots)?;
                match (value.as_int(), value.as_float()) {
                    (Ok(i), _) if i != i64::MIN => Dynamic::from(-i),
                    // Rhai's fast operators negate a whole number themselves, with an error of
                    // their own words; its `-` function (called below) words it otherwise.
                    (Ok(_), _) if self.ctx.engine().fast_operators() => {
                        return Err(EvalAltResult::ErrorArithmetic("integer overflow".into(), *pos).into());
                    }
                    (_, Ok(f)) => Dynamic::from(-f),
                    _ => self.rhai_op("-", vec![value], *pos)?,
                }
            }
            Ex::And(terms) => {
                for (term, pos) in terms {
                    if !self.guard(term, slots, *pos)? {
                        return Ok(Dynamic::FALSE);
                    }
                }
                Dynamic::TRUE
            }
            Ex::Or(terms) => {
                for (term, pos) in terms {
                    if self.guard(term, slots, *pos)? {
                        return Ok(Dynamic::TRUE);
                    }
                }
                Dynamic::FALSE
            }
            Ex::Coalesce(terms) => {
                let mut value = Dynamic::UNIT;
                for term in terms {
                    value = self.expr(term, slots)?;
                    if !value.is_unit() {
                        break;
                    }
                }
                value
            }
            Ex::TypeOf(value) => {
                let value = self.expr(value, slots)?;
                self.seen(&value);
                Dynamic::from(self.table.type_name(self.ctx.engine(), &value))
            }
            Ex::Block(code) => match self.block(code, slots)? {
                Flow::Value(v) => v,
                // `break`, `continue` and `return` inside a block used as a value are never lowered
                // (see `lower`): Rhai leaves the loop or function around it, which a value cannot.
                _ => Dynamic::UNIT,
            },
        })
    }

    /// The values of an interpolated string's parts, not yet made text. Words
    /// nobody will read stop here: making text calls only native `to_string`s,
    /// which change nothing, so only working out the parts can fail or act.
    fn unworded(&mut self, parts: &[Ex], slots: &mut [Dynamic]) -> R<Args> {
        let mut values = Args::new();
        for part in parts {
            values.push(self.expr(part, slots)?);
        }
        Ok(values)
    }

    /// An interpolated string's parts worked out for what they may do or fail at, when
    /// nobody reads the words: a constant or a variable read can do neither, and is skipped.
    fn unread(&mut self, parts: &[Ex], slots: &mut [Dynamic]) -> R<()> {
        for part in parts {
            if !matches!(part, Ex::Const(_) | Ex::Var(_)) {
                let _ = self.expr(part, slots)?;
            }
        }
        Ok(())
    }

    /// Parts made text and joined, as Rhai's interpolation makes them; with a card's name
    /// drawn by kind among them, text that keeps it unseen (see `bindings::unseen`).
    fn worded(&self, values: Args) -> Dynamic {
        if values.iter().any(|v| v.is::<Unseen>()) {
            let mut pieces = Vec::new();
            for mut value in values {
                match value.clone().try_cast::<Unseen>() {
                    Some(Unseen::Text(inner)) => pieces.extend(inner),
                    Some(unseen) => pieces.push(Piece::Unseen(unseen)),
                    None if value.is_string() => pieces.push(Piece::Known(value.to_string())),
                    None => pieces.push(Piece::Known(self.printed(&mut value))),
                }
            }
            return Dynamic::from(Unseen::Text(pieces));
        }
        let mut text = String::new();
        for mut value in values {
            if value.is_string() {
                text.push_str(value.read_lock::<ImmutableString>().as_deref().map_or("", |s| s.as_str()));
            } else {
                text.push_str(&self.printed(&mut value));
            }
        }
        Dynamic::from(text)
    }

    /// Whether a roll's label goes unread: not traced, and the dice do not show what they are for.
    fn labels_unread(&self) -> bool {
        let st = self.state.borrow();
        !st.tracing && !st.mode.shows_purpose()
    }

    /// `value` made text as Rhai's interpolation makes it (its `to_string`).
    fn printed(&self, value: &mut Dynamic) -> String {
        // A whole number prints as Rust prints it (Rhai's own `to_string` for INT), without a call.
        if let Ok(n) = value.as_int() {
            return n.to_string();
        }
        match self.ctx.call_native_fn_raw("to_string", true, &mut [value]) {
            Ok(r) if r.is_string() => r.into_string().unwrap_or_default(),
            Ok(r) => self.ctx.engine().map_type_name(r.type_name()).to_string(),
            Err(_) => self.ctx.engine().map_type_name(&value.to_string()).to_string(),
        }
    }

    pub(super) fn property(&mut self, base: &mut Dynamic, name: &ImmutableString, pos: Position) -> R<Dynamic> {
        if let Some(map) = base.read_lock::<Map>() {
            return Ok(map.get(name.as_str()).cloned().unwrap_or(Dynamic::UNIT));
        }
        if let Some(value) = direct::property(base, name) {
            return Ok(value);
        }
        let getter = format!("get${name}");
        self.ctx.call_native_fn_raw(&getter, true, &mut [base]).map_err(|e| at(e, pos))
    }

    pub(super) fn set_property(
        &mut self,
        base: &mut Dynamic,
        name: &ImmutableString,
        value: Dynamic,
        pos: Position,
    ) -> R<()> {
        if let Some(mut map) = base.write_lock::<Map>() {
            map.insert(name.as_str().into(), value);
            return Ok(());
        }
        let setter = format!("set${name}");
        let mut value = value;
        self.ctx.call_native_fn_raw(&setter, true, &mut [base, &mut value]).map(|_| ()).map_err(|e| at(e, pos))
    }

    /// `receiver.name(args)`, with the receiver in `values[0]`.
    fn method(
        &mut self,
        name: &ImmutableString,
        script: Option<u64>,
        values: &mut [Dynamic],
        pos: Position,
    ) -> R<Dynamic> {
        if script.is_none_or(|script| !self.redefined(script))
            && let Some(value) = direct::method(name, values)
        {
            return Ok(value);
        }
        // `f.call(x)` on a function pointer: Rhai's evaluator calls it itself, not through a function.
        if name == "call"
            && let Some(pointer) = values[0].read_lock::<rhai::FnPtr>().map(|p| p.clone())
        {
            return pointer.call_raw(self.ctx, None, values[1..].to_vec()).map_err(|e| at(e, pos));
        }
        let mut refs: smallvec::SmallVec<[&mut Dynamic; 4]> = values.iter_mut().collect();
        self.ctx.call_fn_raw(name, true, true, &mut refs).map_err(|e| at(e, pos))
    }

    fn call_out(&mut self, callee: &Callee, mut values: Args, pos: Position) -> R<Dynamic> {
        let name = match callee {
            Callee::Procedure(index, name, script) => {
                if !self.redefined(*script)
                    && let Some(f) = self.table.function(*index)
                {
                    let mut slots: Slots = values.into_iter().collect();
                    if let Some(seam) = self.seam
                        && let Some(taken) = seam.call(self, *index, &f, &mut slots, pos, Caller::Compiled)
                    {
                        return taken;
                    }
                    return self.call(&f, &mut slots, pos);
                }
                name
            }
            Callee::Other(name, script) => {
                // Read here unless the caller's code defines the function again (an operator cannot be).
                let own = |runner: &Self| script.is_none_or(|script| !runner.redefined(script));
                if direct::BUILTINS.contains(&name.as_str())
                    && own(self)
                    && let Some(value) = direct::builtin(name, &values)
                {
                    return Ok(value);
                }
                if direct::CALLS.contains(&name.as_str())
                    && own(self)
                    && let Some(result) = direct::call(self.ctx, self.state, name, &mut values)
                {
                    return result.map_err(|e| at(e, pos));
                }
                name
            }
        };
        let mut refs: smallvec::SmallVec<[&mut Dynamic; 4]> = values.iter_mut().collect();
        self.ctx.call_fn_raw(name, false, false, &mut refs).map_err(|e| at(e, pos))
    }

    /// `modifiers("list", #{ firer: firer, .. })` of locals and constants, with
    /// their values lent where they lie: no map is made, nothing is copied.
    /// None for any other form of the call (then it is made as written).
    fn modifiers_lent(&mut self, script: u64, args: &[Ex], slots: &[Dynamic], pos: Position) -> Option<R<Dynamic>> {
        let [Ex::Const(list), Ex::Map(entries)] = args else { return None };
        let list = list.read_lock::<ImmutableString>()?;
        let unit = Dynamic::UNIT;
        let mut values: ConditionValues = [&unit; CONDITION_NAMES.len()];
        for (key, value) in entries {
            let value = match value {
                Ex::Var(slot) | Ex::Move(slot) => &slots[*slot],
                Ex::Const(value) => value,
                _ => return None,
            };
            // Later entries of the same name win, as in a map; other names are not read.
            if let Some(i) = CONDITION_NAMES.iter().position(|n| *n == key.as_str()) {
                values[i] = value;
            }
        }
        if self.redefined(script) {
            return None;
        }
        Some(modifiers_of(self.ctx, self.state, &list, &values).map(Dynamic::from).map_err(|e| at(e, pos)))
    }

    /// Whether the caller's code defines the function of this `script` hash
    /// (its name and arity) again: it takes precedence, as in Rhai.
    pub fn redefined(&self, script: u64) -> bool {
        crate::script::syntax::defined_again(self.ctx, script)
    }

    /// `a op b`: natively for numbers, text, booleans and `()` as Rhai's built-in operators
    /// compute them, else Rhai's own operator (which also words every error).
    fn binary(&mut self, op: Op, a: Dynamic, b: Dynamic, pos: Position) -> R<Dynamic> {
        if let Some(value) = fast(op, &a, &b) {
            return Ok(value);
        }
        self.rhai_op(op.syntax(), vec![a, b], pos)
    }

    /// `a op= b` as Rhai computes it for these operands: the operator, then the assignment.
    pub(super) fn op_assign(&mut self, op: Op, a: Dynamic, b: Dynamic, pos: Position) -> R<Dynamic> {
        if let Some(value) = fast(op, &a, &b) {
            return Ok(value);
        }
        // Rhai tries the op-assignment function first (`+=` appends to a list in place), then the operator.
        let (mut a, mut b) = (a, b);
        if let Some(syntax) = op.assign_syntax() {
            match self.ctx.call_native_fn_raw(syntax, true, &mut [&mut a, &mut b]) {
                Ok(_) => return Ok(a),
                Err(err) if matches!(*err, EvalAltResult::ErrorFunctionNotFound(..)) => {}
                Err(err) => return Err(at(err, pos)),
            }
        }
        self.rhai_op(op.syntax(), vec![a, b], pos)
    }

    fn rhai_op(&mut self, syntax: &str, mut values: Vec<Dynamic>, pos: Position) -> R<Dynamic> {
        let mut refs: smallvec::SmallVec<[&mut Dynamic; 2]> = values.iter_mut().collect();
        self.ctx.call_native_fn_raw(syntax, false, &mut refs).map_err(|e| at(e, pos))
    }
}

/// A unit's word compared where it lies; none when the variable does not hold a unit.
fn word_truth(compare: &WordCompare, slots: &[Dynamic]) -> Option<bool> {
    let unit = slots.get(compare.slot)?.read_lock::<UnitRef>()?;
    let unit = unit.0.borrow();
    compare_text(compare.op, compare.word.of(&unit), &compare.literal)
}

/// A variable's or a constant's value where it lies, without a copy.
fn lies<'a>(ex: &'a Ex, slots: &'a [Dynamic]) -> Option<&'a Dynamic> {
    match ex {
        Ex::Var(slot) => slots.get(*slot),
        Ex::Const(value) => Some(value),
        _ => None,
    }
}
