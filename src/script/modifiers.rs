//! `Modifiers`: what a modifier list came to, the sum of what it adds and the halvings and
//! doublings of each quantity; a script sees it under the same name.

use std::collections::BTreeMap;
use std::rc::Rc;

/// What a modifier list came to: the sum of added values and the halvings and doublings of each quantity.
#[derive(Clone, Debug, Default)]
pub struct Modifiers {
    pub list: Rc<str>,
    pub total: i64,
    pub halve: BTreeMap<String, i64>,
    pub double: BTreeMap<String, i64>,
    pub applied: Vec<Rc<str>>,
}

impl Modifiers {
    /// How many of the modifiers halve `quantity`.
    pub fn halvings(&self, quantity: &str) -> i64 {
        self.halve.get(quantity).copied().unwrap_or(0)
    }

    /// `value` halved and doubled as the modifiers say.
    pub fn adjust(&self, quantity: &str, value: f64) -> f64 {
        let times = self.double.get(quantity).copied().unwrap_or(0) - self.halvings(quantity);
        value * 2f64.powi(times as i32)
    }
}
