//! `Leader`: a commander with a rating, a level in the chain and, perhaps, a unit he is attached to.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::unit::Marker;

/// A commander on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leader {
    pub id: String,
    pub name: String,
    pub side: String,
    /// The rating the ruleset reads ("excellent", "4", "CP 3"...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<String>,
    /// The command he leads (brigade, division, corps, army...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commands: Option<String>,
    /// The unit he is attached to, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached_to: Option<String>,
    /// Wounded, captured, killed, exceptional...: whatever the ruleset tracks.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub markers: BTreeMap<String, Marker>,
}

impl Leader {
    /// The keys a leader is written with (its serde fields), for a "did you mean" on a misspelt one.
    pub const KEYS: [&'static str; 7] = ["id", "name", "side", "rating", "commands", "attached_to", "markers"];

    /// Whether the leader carries `marker` (a flag that is set, or any count or text).
    pub fn has_marker(&self, marker: &str) -> bool {
        self.markers.get(marker).is_some_and(Marker::is_set)
    }
}
