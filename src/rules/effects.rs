//! `Effects`: what a table result does to a unit or a leader (disorder, stands lost, markers...).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::unit::Marker;

/// Structured effects of a result. A procedure applies them with `apply(unit, result)`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Effects {
    /// The order the unit is put in: `disordered`, `spent`, `routed`...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    /// Stands (or bases) lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lose_stands: Option<u32>,
    /// Markers set: `{ battery: silenced }`, `{ immobile_turns: 2 }`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub markers: std::collections::BTreeMap<String, Marker>,
    /// Markers removed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clear_markers: Vec<String>,
    /// The unit or leader leaves play (wrecked battery, a leader killed).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub removed: bool,
}

impl Effects {
    /// Whether applying these changes nothing.
    pub fn is_empty(&self) -> bool {
        *self == Effects::default()
    }

    /// Plain words for a trace: "disordered, loses 1 stand, battery: silenced".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(order) = &self.order {
            parts.push(order.replace('_', " "));
        }
        if let Some(n) = self.lose_stands {
            parts.push(format!("loses {n} stand{}", if n == 1 { "" } else { "s" }));
        }
        for (name, value) in &self.markers {
            parts.push(match value {
                Marker::Flag(true) => name.replace('_', " "),
                Marker::Flag(false) => format!("not {}", name.replace('_', " ")),
                Marker::Count(n) => format!("{name}: {n}"),
                Marker::Text(t) => format!("{name}: {t}"),
            });
        }
        for name in &self.clear_markers {
            parts.push(format!("no longer {}", name.replace('_', " ")));
        }
        if self.removed {
            parts.push("removed from play".into());
        }
        if parts.is_empty() { "no effect".into() } else { parts.join(", ") }
    }
}
