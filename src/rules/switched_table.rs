//! A table that a patch changes only while an option is on or an interpretation is chosen: the
//! table as it reads for each way those switches can stand, so that switching picks one
//! (`Ruleset::set_option`) and nothing is patched while its option is off.

use std::fmt;

use super::settings::Settings;
use super::table::Table;

/// What a patch applies under: `option: x` and `interpretation: { name: choice }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchGate {
    pub option: Option<String>,
    /// Each interpretation and the choices the patch holds under.
    pub interpretation: Vec<(String, Vec<String>)>,
}

impl PatchGate {
    /// Whether the switches as they stand let the patch apply.
    pub fn holds(&self, settings: &Settings) -> bool {
        self.option.as_ref().is_none_or(|o| settings.options.get(o).copied().unwrap_or(false))
            && self
                .interpretation
                .iter()
                .all(|(name, choices)| settings.interpretations.get(name).is_some_and(|c| choices.contains(c)))
    }
}

impl fmt::Display for PatchGate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(option) = &self.option {
            parts.push(format!("option {option} is on"));
        }
        for (name, choices) in &self.interpretation {
            parts.push(format!("{name} is {}", choices.join(" or ")));
        }
        f.write_str(&parts.join(" and "))
    }
}

/// The most switched patches one table may have: its readings double with each.
pub const MAX_GATES: usize = 6;

/// A table's switched patches, and the table as it reads under each way they can stand.
#[derive(Clone, Debug)]
pub struct SwitchedTable {
    /// The gates of the patches, in load order.
    pub gates: Vec<PatchGate>,
    /// For each way the gates can stand (one flag per gate, in order), the table.
    pub variants: Vec<(Vec<bool>, Table)>,
}

impl SwitchedTable {
    /// A table no switched patch has touched yet.
    pub fn new(table: Table) -> Self {
        SwitchedTable { gates: Vec::new(), variants: vec![(Vec::new(), table)] }
    }

    /// The table as it reads under `settings`.
    pub fn select(&self, settings: &Settings) -> &Table {
        let wanted: Vec<bool> = self.gates.iter().map(|g| g.holds(settings)).collect();
        self.variants
            .iter()
            .find(|(when, _)| *when == wanted)
            .map(|(_, table)| table)
            .unwrap_or_else(|| &self.variants[0].1)
    }
}
