//! Plain script values (nothing, flags, numbers, characters, text, and lists and maps of them) hashed and compared by what they hold.
//!
//! An exact walk merges states by their values (`odds::fingerprint`), and keeps
//! the units it made by their specification (`bindings::unit`): both tell plain
//! values apart the same way, here, and say themselves what any other kind is.

use std::hash::Hash;

use ahash::AHasher;
use rhai::{Array, Dynamic, ImmutableString, Map};

/// How the caller hashes a value of another kind met at any depth; false when it cannot.
pub type OtherHash<'a> = &'a dyn Fn(&Dynamic, &mut AHasher) -> bool;

/// How the caller compares two values of another kind (of the same type) met at any depth.
pub type OtherSame<'a> = &'a dyn Fn(&Dynamic, &Dynamic) -> bool;

/// Feeds `value` to `hasher`, its kind first; false when a part cannot be hashed. A shared
/// value (a captured variable) is never plain.
pub fn hash(value: &Dynamic, hasher: &mut AHasher, other: OtherHash) -> bool {
    if value.is_shared() {
        return other(value, hasher);
    }
    // Each kind asked by its tag: `as_int()` and the like on another kind would name its type.
    if value.is_unit() {
        0u8.hash(hasher);
    } else if value.is_bool() {
        (1u8, value.as_bool().unwrap_or_default()).hash(hasher);
    } else if value.is_int() {
        (2u8, value.as_int().unwrap_or_default()).hash(hasher);
    } else if value.is_float() {
        (3u8, value.as_float().unwrap_or_default().to_bits()).hash(hasher);
    } else if value.is_char() {
        (4u8, value.as_char().unwrap_or_default()).hash(hasher);
    } else if let Some(s) = value.read_lock::<ImmutableString>() {
        (5u8, s.as_str()).hash(hasher);
    } else if let Some(array) = value.read_lock::<Array>() {
        (6u8, array.len()).hash(hasher);
        return array.iter().all(|v| hash(v, hasher, other));
    } else if let Some(map) = value.read_lock::<Map>() {
        return hash_map(&map, hasher, other);
    } else {
        return other(value, hasher);
    }
    true
}

/// `hash` of a map's keys and values.
pub fn hash_map(map: &Map, hasher: &mut AHasher, other: OtherHash) -> bool {
    (7u8, map.len()).hash(hasher);
    map.iter().all(|(k, v)| {
        k.as_str().hash(hasher);
        hash(v, hasher, other)
    })
}

/// Whether two values hold the same, of the same kinds, with the same tags (a script reads a
/// value's `tag`); floats by their bits. A shared value is the same as nothing.
pub fn same(a: &Dynamic, b: &Dynamic, other: OtherSame) -> bool {
    if a.is_shared() || b.is_shared() || a.tag() != b.tag() || a.type_id() != b.type_id() {
        return false;
    }
    // Of one type, asked by its tag (see `hash`).
    if a.is_unit() {
        return true;
    }
    if a.is_bool() {
        return a.as_bool() == b.as_bool();
    }
    if a.is_int() {
        return a.as_int() == b.as_int();
    }
    if a.is_float() {
        return a.as_float().map(f64::to_bits) == b.as_float().map(f64::to_bits);
    }
    if a.is_char() {
        return a.as_char() == b.as_char();
    }
    if let (Some(x), Some(y)) = (a.read_lock::<ImmutableString>(), b.read_lock::<ImmutableString>()) {
        return *x == *y;
    }
    if let (Some(x), Some(y)) = (a.read_lock::<Array>(), b.read_lock::<Array>()) {
        return x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same(p, q, other));
    }
    if let (Some(x), Some(y)) = (a.read_lock::<Map>(), b.read_lock::<Map>()) {
        return same_map(&x, &y, other);
    }
    other(a, b)
}

/// `same` for two maps: the same keys, in order, with the same values.
pub fn same_map(a: &Map, b: &Map, other: OtherSame) -> bool {
    a.len() == b.len() && a.iter().zip(b.iter()).all(|((k, v), (l, w))| k == l && same(v, w, other))
}

/// Whether `is` holds for `value` or for any value in its arrays and maps, at any depth.
pub fn any_within(value: &Dynamic, is: &dyn Fn(&Dynamic) -> bool) -> bool {
    if is(value) {
        return true;
    }
    if let Some(array) = value.read_lock::<Array>() {
        return array.iter().any(|v| any_within(v, is));
    }
    if let Some(map) = value.read_lock::<Map>() {
        return map.values().any(|v| any_within(v, is));
    }
    false
}
