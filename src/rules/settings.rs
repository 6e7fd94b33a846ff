//! The options and interpretations as set (`Settings`), and the switches asked for (`Switches`).

use std::collections::BTreeMap;

/// The current value of every option and interpretation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub options: BTreeMap<String, bool>,
    pub interpretations: BTreeMap<String, String>,
}

/// Switches asked for on the command line or in the REPL:
/// `--with OPTION`, `--without OPTION`, `--set INTERPRETATION=CHOICE`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Switches {
    pub with: Vec<String>,
    pub without: Vec<String>,
    pub set: Vec<(String, String)>,
}
