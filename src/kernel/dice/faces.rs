//! The faces and names of custom dice (`d{2,3,3,4,4,5}`, a ruleset's `avg`), kept once each for the whole process so that a `Die` stays a small copyable value.
//!
//! A die is copied into every roll and every step of an enumeration; its faces
//! are a shared, never-freed list. Each different list is kept once, and at most
//! `MAX_CUSTOM_DICE` of them: a script that makes a new die in a loop is refused
//! past that instead of growing without end.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, OnceLock};

/// The most different custom dice one process keeps.
pub const MAX_CUSTOM_DICE: usize = 10_000;

/// The one shared copy of `faces` (sorted), or `None` past `MAX_CUSTOM_DICE` different lists.
pub fn intern(faces: &[i64]) -> Option<&'static [i64]> {
    static KEPT: OnceLock<Mutex<HashMap<Vec<i64>, &'static [i64]>>> = OnceLock::new();
    let mut sorted = faces.to_vec();
    sorted.sort_unstable();
    keep_once(&KEPT, sorted, |sorted| Box::leak(sorted.into_boxed_slice()))
}

/// The one shared copy of a die's name, or `None` past `MAX_CUSTOM_DICE` different names.
pub fn intern_name(name: &str) -> Option<&'static str> {
    static KEPT: OnceLock<Mutex<HashMap<String, &'static str>>> = OnceLock::new();
    keep_once(&KEPT, name.to_string(), |name| Box::leak(name.into_boxed_str()))
}

/// The copy `kept` holds of `key`, or a new one made by `leak`; none when `kept` is full.
fn keep_once<K: Clone + Eq + Hash, V: ?Sized>(
    kept: &OnceLock<Mutex<HashMap<K, &'static V>>>,
    key: K,
    leak: impl FnOnce(K) -> &'static V,
) -> Option<&'static V> {
    let mut kept = kept.get_or_init(Mutex::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(shared) = kept.get(&key) {
        return Some(shared);
    }
    if kept.len() >= MAX_CUSTOM_DICE {
        return None;
    }
    let shared = leak(key.clone());
    kept.insert(key, shared);
    Some(shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_kept_once_sorted() {
        let a = intern(&[5, 2, 3, 3, 4, 4]).unwrap();
        let b = intern(&[2, 3, 3, 4, 4, 5]).unwrap();
        assert_eq!(a, [2, 3, 3, 4, 4, 5]);
        assert!(std::ptr::eq(a, b));
    }

    #[test]
    fn a_name_is_kept_once() {
        let a = intern_name("avg").unwrap();
        let b = intern_name(&String::from("avg")).unwrap();
        assert!(std::ptr::eq(a, b));
    }
}
