//! Places inside a variable (`this.sides[name].trumps`, `this.deck`): written, or lent to a method, where they lie, as Rhai does.
//!
//! A map's property or item and an array's item are reached in place. A
//! property of any other value goes through its getter and is given back through
//! its setter (`unit.markers.fresh = true`). A map's missing key in the middle of
//! a place is a `()` of its own, whose changes are lost, as in Rhai; at the end of
//! an assignment it is added.

use rhai::{Dynamic, EvalAltResult, ImmutableString, Map, Position};

use super::code::{Ex, Op, Step, StepRef};
use super::ops::{indexed, mismatch};
use super::runner::{R, Runner};

/// One step of a place, with its index worked out.
pub(super) enum At<'a> {
    Property(&'a ImmutableString, Position),
    Index(Dynamic, Position),
}

/// An index from the end when negative, within `len`.
fn from_end(i: rhai::INT, len: usize) -> Option<usize> {
    let len = len as rhai::INT;
    let i = if i < 0 { len + i } else { i };
    (0..len).contains(&i).then_some(i as usize)
}

impl Runner<'_, '_> {
    /// The indices of `steps` worked out, in order.
    pub(super) fn worked_out<'s>(
        &mut self,
        steps: impl IntoIterator<Item = StepRef<'s>>,
        slots: &mut [Dynamic],
    ) -> R<Vec<At<'s>>> {
        steps
            .into_iter()
            .map(|step| {
                Ok(match step {
                    StepRef::Property(name, pos) => At::Property(name, pos),
                    StepRef::Index(ex, pos) => At::Index(self.expr(ex, slots)?, pos),
                })
            })
            .collect()
    }

    /// `slot.steps = value`, or `slot.steps op= value`: the value first, then the indices.
    pub(super) fn set_at(
        &mut self,
        slot: usize,
        steps: &[Step],
        op: Option<Op>,
        value: &Ex,
        pos: Position,
        slots: &mut [Dynamic],
    ) -> R<()> {
        let value = self.expr(value, slots)?;
        let path = self.worked_out(
            steps.iter().map(|s| match s {
                Step::Property(name, pos) => StepRef::Property(name, *pos),
                Step::Index(ex, pos) => StepRef::Index(ex, *pos),
            }),
            slots,
        )?;
        let Some((last, before)) = path.split_last() else { return Ok(()) };
        self.within(&mut slots[slot], before, |runner, target| runner.assign(target, last, op, value))?;
        let target = std::mem::take(&mut slots[slot]);
        slots[slot] = self.sized(target, pos)?;
        Ok(())
    }

    /// Runs `f` on the place `path` leads to inside `target`, given back where it lies.
    pub(super) fn within<T>(
        &mut self,
        target: &mut Dynamic,
        path: &[At],
        f: impl FnOnce(&mut Self, &mut Dynamic) -> R<T>,
    ) -> R<T> {
        let Some((step, rest)) = path.split_first() else { return f(self, target) };
        match step {
            At::Property(name, pos) => {
                if let Some(mut map) = target.write_lock::<Map>() {
                    return match map.get_mut(name.as_str()) {
                        Some(value) => self.within(value, rest, f),
                        None => self.within(&mut Dynamic::from(()), rest, f),
                    };
                }
                let mut value = self.property(target, name, *pos)?;
                let result = self.within(&mut value, rest, f)?;
                self.set_property(target, name, value, *pos)?;
                Ok(result)
            }
            At::Index(index, pos) => {
                if let Some(mut map) = target.write_lock::<Map>() {
                    let key = self.key(index, *pos)?;
                    return match map.get_mut(key.as_str()) {
                        Some(value) => self.within(value, rest, f),
                        None => self.within(&mut Dynamic::from(()), rest, f),
                    };
                }
                if let Some(mut array) = target.write_lock::<rhai::Array>() {
                    let at = self.item(index, array.len(), *pos)?;
                    return self.within(&mut array[at], rest, f);
                }
                // A character, a byte or a bit: a copy, as Rhai gives.
                let mut value = indexed(self.ctx, target, index.clone(), *pos)?;
                self.within(&mut value, rest, f)
            }
        }
    }

    /// The key an index names in a map: text, else Rhai's error.
    fn key(&self, index: &Dynamic, pos: Position) -> R<ImmutableString> {
        index
            .read_lock::<ImmutableString>()
            .map(|k| k.clone())
            .ok_or_else(|| mismatch::<ImmutableString>(self.ctx, index.type_name(), pos))
    }

    /// Which of `len` items (an array's, a blob's) an index names, from the end when negative;
    /// else Rhai's error.
    fn item(&self, index: &Dynamic, len: usize, pos: Position) -> R<usize> {
        let i = index.as_int().map_err(|t| mismatch::<rhai::INT>(self.ctx, t, pos))?;
        from_end(i, len).ok_or_else(|| EvalAltResult::ErrorArrayBounds(len, i, pos).into())
    }

    /// `target.name = value` or `target[index] = value` (with `op`, `op=`).
    fn assign(&mut self, target: &mut Dynamic, step: &At, op: Option<Op>, value: Dynamic) -> R<()> {
        match step {
            At::Property(name, pos) => {
                let value = match op {
                    None => value,
                    Some(op) => {
                        let old = self.property(target, name, *pos)?;
                        self.op_assign(op, old, value, *pos)?
                    }
                };
                self.set_property(target, name, value, *pos)
            }
            At::Index(index, pos) => {
                let value = match op {
                    None => value,
                    Some(op) => {
                        let old = indexed(self.ctx, target, index.clone(), *pos)?;
                        self.op_assign(op, old, value, *pos)?
                    }
                };
                if let Some(mut map) = target.write_lock::<Map>() {
                    let key = self.key(index, *pos)?;
                    map.insert(key.as_str().into(), value);
                    return Ok(());
                }
                if let Some(mut array) = target.write_lock::<rhai::Array>() {
                    let at = self.item(index, array.len(), *pos)?;
                    array[at] = value;
                    return Ok(());
                }
                if target.is_string() {
                    // A character of a string: the string made again with it, as Rhai does.
                    let i = index.as_int().map_err(|t| mismatch::<rhai::INT>(self.ctx, t, *pos))?;
                    let c = value
                        .as_char()
                        .map_err(|t| EvalAltResult::ErrorMismatchDataType("char".into(), t.to_string(), *pos))?;
                    let mut chars: Vec<char> = target.clone().into_string().unwrap_or_default().chars().collect();
                    let len = chars.len();
                    if from_end(i, len).is_none() {
                        return Err(EvalAltResult::ErrorStringBounds(len, i, *pos).into());
                    }
                    // Rhai 1.27 checks a negative index from the end but writes the character
                    // that many from the start (none when that is past the end): as Rhai does.
                    let at = if i < 0 { i.unsigned_abs() as usize } else { i as usize };
                    if let Some(slot) = chars.get_mut(at) {
                        *slot = c;
                    }
                    *target = Dynamic::from(chars.into_iter().collect::<String>());
                    return Ok(());
                }
                if let Some(mut blob) = target.write_lock::<rhai::Blob>() {
                    // A byte of a blob: its low eight bits, as Rhai keeps them.
                    let at = self.item(index, blob.len(), *pos)?;
                    let byte = value
                        .as_int()
                        .map_err(|t| EvalAltResult::ErrorMismatchDataType("INT".into(), t.to_string(), *pos))?;
                    blob[at] = (byte & 0xff) as u8;
                    return Ok(());
                }
                if let Ok(bits) = target.as_int() {
                    // A bit of a whole number (`n[3] = true`).
                    let i = index.as_int().map_err(|t| mismatch::<rhai::INT>(self.ctx, t, *pos))?;
                    let Some(at) = from_end(i, rhai::INT::BITS as usize) else {
                        return Err(EvalAltResult::ErrorBitFieldBounds(rhai::INT::BITS as usize, i, *pos).into());
                    };
                    let bit = value
                        .as_bool()
                        .map_err(|t| EvalAltResult::ErrorMismatchDataType("bool".into(), t.to_string(), *pos))?;
                    let mask: rhai::INT = 1 << at;
                    *target = Dynamic::from_int(if bit { bits | mask } else { bits & !mask });
                    return Ok(());
                }
                // Anything else (a type's own indexer): Rhai's indexer.
                let (mut index, mut value) = (index.clone(), value);
                self.ctx
                    .call_native_fn_raw("index$set$", true, &mut [target, &mut index, &mut value])
                    .map(|_| ())
                    .map_err(|e| super::ops::at(e, *pos))
            }
        }
    }
}
