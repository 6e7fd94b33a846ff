//! Operators, indexing and iteration in compiled code, as Rhai computes them: arithmetic and
//! comparison on the operands Rhai's built-in operators take, `base[index]`, the items a `for`
//! loop takes, and errors placed and worded as Rhai places and words them.

use rhai::{Dynamic, EvalAltResult, ImmutableString, Map, NativeCallContext, Position};

use super::code::Op;
use crate::script::value_compare::compare;

pub(super) type R<T> = Result<T, Box<EvalAltResult>>;

/// An error from a call made at `pos`, placed there as Rhai places it.
pub(super) fn at(mut err: Box<EvalAltResult>, pos: Position) -> Box<EvalAltResult> {
    err.set_position(pos);
    err
}

pub(super) fn mismatch<T>(ctx: &NativeCallContext, actual: &str, pos: Position) -> Box<EvalAltResult> {
    let engine = ctx.engine();
    EvalAltResult::ErrorMismatchDataType(
        engine.map_type_name(std::any::type_name::<T>()).into(),
        engine.map_type_name(actual).into(),
        pos,
    )
    .into()
}

/// `a op b` for the operands Rhai's built-in operators compute without error; none otherwise.
pub(super) fn fast(op: Op, a: &Dynamic, b: &Dynamic) -> Option<Dynamic> {
    match op {
        Op::Compare(c) => compare(c, a, b).map(Dynamic::from),
        _ => arithmetic(op, a, b),
    }
}

pub(super) fn arithmetic(op: Op, a: &Dynamic, b: &Dynamic) -> Option<Dynamic> {
    if let (Ok(x), Ok(y)) = (a.as_int(), b.as_int()) {
        // Overflow and division by zero: Rhai's operator raises its own error.
        let value = match op {
            Op::Add => x.checked_add(y)?,
            Op::Sub => x.checked_sub(y)?,
            Op::Mul => x.checked_mul(y)?,
            Op::Div if y != 0 => x.checked_div(y)?,
            Op::Rem if y != 0 => x.checked_rem(y)?,
            _ => return None,
        };
        return Some(Dynamic::from(value));
    }
    let float = |v: &Dynamic| v.as_float().ok().or_else(|| v.as_int().ok().map(|i| i as f64));
    if !(a.is_float() || b.is_float()) {
        return None;
    }
    let (x, y) = (float(a)?, float(b)?);
    Some(Dynamic::from(match op {
        Op::Add => x + y,
        Op::Sub => x - y,
        Op::Mul => x * y,
        Op::Div if y != 0.0 => x / y,
        _ => return None,
    }))
}

/// The items a `for` loop takes from `items`, as Rhai iterates them: an array's items, a
/// range's numbers, a string's characters, a blob's bytes; anything else is Rhai's error.
pub(super) fn iterate(items: Dynamic, at: Position) -> R<Box<dyn Iterator<Item = Dynamic>>> {
    if items.is_array() {
        return Ok(Box::new(items.into_array().unwrap_or_default().into_iter()));
    }
    if items.is_blob() {
        return Ok(Box::new(items.into_blob().unwrap_or_default().into_iter().map(|b| Dynamic::from_int(b.into()))));
    }
    if let Some(text) = items.read_lock::<ImmutableString>() {
        let chars: Vec<Dynamic> = text.chars().map(Dynamic::from_char).collect();
        return Ok(Box::new(chars.into_iter()));
    }
    if let Some(range) = items.read_lock::<std::ops::Range<rhai::INT>>() {
        return Ok(Box::new(range.clone().map(Dynamic::from_int)));
    }
    if let Some(range) = items.read_lock::<std::ops::RangeInclusive<rhai::INT>>() {
        return Ok(Box::new(range.clone().map(Dynamic::from_int)));
    }
    Err(EvalAltResult::ErrorFor(at).into())
}

/// `base[index]` as Rhai reads it: an array's item (from the end when negative), a map's
/// value (`()` when missing), a string's character, a blob's byte, a number's bit; else Rhai's errors.
pub(super) fn indexed(ctx: &NativeCallContext, base: &Dynamic, index: Dynamic, pos: Position) -> R<Dynamic> {
    fn from_end(i: rhai::INT, len: usize) -> Option<usize> {
        let len = len as rhai::INT;
        let i = if i < 0 { len + i } else { i };
        (0..len).contains(&i).then_some(i as usize)
    }
    if let Some(array) = base.read_lock::<rhai::Array>() {
        let i = index.as_int().map_err(|t| mismatch::<rhai::INT>(ctx, t, pos))?;
        return from_end(i, array.len())
            .map(|at| array[at].clone())
            .ok_or_else(|| EvalAltResult::ErrorArrayBounds(array.len(), i, pos).into());
    }
    if let Some(map) = base.read_lock::<Map>() {
        let Some(key) = index.read_lock::<ImmutableString>() else {
            return Err(mismatch::<ImmutableString>(ctx, index.type_name(), pos));
        };
        return Ok(map.get(key.as_str()).cloned().unwrap_or(Dynamic::UNIT));
    }
    if let Some(text) = base.read_lock::<ImmutableString>() {
        let i = index.as_int().map_err(|t| mismatch::<rhai::INT>(ctx, t, pos))?;
        let chars = text.chars().count();
        return from_end(i, chars)
            .and_then(|at| text.chars().nth(at))
            .map(Dynamic::from_char)
            .ok_or_else(|| EvalAltResult::ErrorStringBounds(chars, i, pos).into());
    }
    if let Some(blob) = base.read_lock::<rhai::Blob>() {
        let i = index.as_int().map_err(|t| mismatch::<rhai::INT>(ctx, t, pos))?;
        return from_end(i, blob.len())
            .map(|at| Dynamic::from_int(blob[at].into()))
            .ok_or_else(|| EvalAltResult::ErrorArrayBounds(blob.len(), i, pos).into());
    }
    if let Ok(bits) = base.as_int() {
        // A number's bits, as Rhai reads them: `5[0]` is true.
        let i = index.as_int().map_err(|t| mismatch::<rhai::INT>(ctx, t, pos))?;
        return from_end(i, rhai::INT::BITS as usize)
            .map(|at| Dynamic::from_bool((bits >> at) & 1 == 1))
            .ok_or_else(|| EvalAltResult::ErrorBitFieldBounds(rhai::INT::BITS as usize, i, pos).into());
    }
    let engine = ctx.engine();
    let what = format!("{} [{}]", engine.map_type_name(base.type_name()), engine.map_type_name(index.type_name()));
    Err(EvalAltResult::ErrorIndexingType(what, pos).into())
}
