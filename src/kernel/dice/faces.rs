//! The faces and names of custom dice (`d{2,3,3,4,4,5}`, a ruleset's `avg`), kept once each for the whole process so that a `Die` stays a small copyable value.
//!
//! A die is copied into every roll and every step of an enumeration; its faces
//! are a shared, never-freed list. Each different list is kept once, and at most
//! `MAX_CUSTOM_DICE` of them: a script that makes a new die in a loop is refused
//! past that instead of growing without end.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The most different custom dice one process keeps.
pub const MAX_CUSTOM_DICE: usize = 10_000;

/// The one shared copy of `faces` (sorted), or `None` past `MAX_CUSTOM_DICE` different lists.
pub fn intern(faces: &[i64]) -> Option<&'static [i64]> {
    static KEPT: OnceLock<Mutex<HashMap<Vec<i64>, &'static [i64]>>> = OnceLock::new();
    let mut sorted = faces.to_vec();
    sorted.sort_unstable();
    let mut kept = KEPT.get_or_init(Mutex::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(shared) = kept.get(&sorted) {
        return Some(shared);
    }
    if kept.len() >= MAX_CUSTOM_DICE {
        return None;
    }
    let shared: &'static [i64] = Box::leak(sorted.clone().into_boxed_slice());
    kept.insert(sorted, shared);
    Some(shared)
}

/// The one shared copy of a die's name, or `None` past `MAX_CUSTOM_DICE` different names.
pub fn intern_name(name: &str) -> Option<&'static str> {
    static KEPT: OnceLock<Mutex<HashMap<String, &'static str>>> = OnceLock::new();
    let mut kept = KEPT.get_or_init(Mutex::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(shared) = kept.get(name) {
        return Some(shared);
    }
    if kept.len() >= MAX_CUSTOM_DICE {
        return None;
    }
    let shared: &'static str = Box::leak(name.to_string().into_boxed_str());
    kept.insert(name.to_string(), shared);
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
