//! `Side`: one army's side of the table.

use serde::{Deserialize, Serialize};

/// A side in a battle: who fights for it and who commands it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    pub id: String,
    pub name: String,
    /// Nations fighting on this side (an allied army has several).
    #[serde(default)]
    pub nations: Vec<String>,
    /// The army commander's leader id, if the side has one on the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commander: Option<String>,
}
