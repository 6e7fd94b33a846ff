//! `Table`: every procedure function of a host by its index, compiled or not.

use std::cell::RefCell;
use std::rc::Rc;

use rhai::{Dynamic, Engine, ImmutableString};

use super::code::Function;

/// Every procedure function by its index, compiled or not (none: left to Rhai).
#[derive(Default)]
pub struct Table {
    pub(super) functions: Vec<Option<Rc<Function>>>,
    /// What `type_of` said of each Rust type so far: made once, not at every call.
    type_names: RefCell<Vec<(&'static str, ImmutableString)>>,
}

impl Table {
    /// A table of `functions` (none: left to Rhai).
    pub(super) fn new(functions: Vec<Option<Rc<Function>>>) -> Table {
        Table { functions, ..Table::default() }
    }

    /// The compiled function of index `index`, if it was compiled.
    pub(crate) fn function(&self, index: usize) -> Option<Rc<Function>> {
        self.functions.get(index).cloned().flatten()
    }

    /// `type_of(value)`, as the engine names the value's type.
    pub(super) fn type_name(&self, engine: &Engine, value: &Dynamic) -> ImmutableString {
        let rust = value.type_name();
        let mut known = self.type_names.borrow_mut();
        if let Some((_, name)) = known.iter().find(|(r, _)| *r == rust) {
            return name.clone();
        }
        let name: ImmutableString = engine.map_type_name(rust).into();
        known.push((rust, name.clone()));
        name
    }
}
