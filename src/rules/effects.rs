//! `Effects`: what a table result does to a unit or a leader (disorder, stands lost, markers...).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::unit::{Leader, Marker, Unit};

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
    /// Applies these effects to a unit: its order, stands, markers, and removal from play.
    /// Returns the stands it actually lost: no more than it had.
    pub fn apply_to_unit(&self, unit: &mut Unit) -> u32 {
        if let Some(order) = &self.order {
            unit.order = order.clone();
        }
        let lost = self.lose_stands.map_or(0, |n| unit.lose_stands(n));
        for (name, value) in &self.markers {
            unit.set_marker(name, value.clone());
        }
        for name in &self.clear_markers {
            unit.clear_marker(name);
        }
        if self.removed {
            unit.set_marker("removed", Marker::Flag(true));
        }
        lost
    }

    /// Whether these effects can befall a leader, who has no order and no stands.
    pub fn fit_a_leader(&self) -> bool {
        self.order.is_none() && self.lose_stands.is_none()
    }

    /// Applies these effects to a leader: markers set and cleared, and removal from play,
    /// which also detaches him. Returns the id of the unit he was taken off, which must let go
    /// of him too, so that nothing counts a fallen or captured leader as still with his men.
    pub fn apply_to_leader(&self, leader: &mut Leader) -> Option<String> {
        for (name, value) in &self.markers {
            leader.markers.insert(name.clone(), value.clone());
        }
        for name in &self.clear_markers {
            leader.markers.remove(name);
        }
        if self.removed {
            leader.markers.insert("removed".into(), Marker::Flag(true));
            leader.attached_to.take()
        } else {
            None
        }
    }

    /// Whether applying these changes nothing.
    pub fn is_empty(&self) -> bool {
        *self == Effects::default()
    }

    /// Plain words for a trace: "disordered, loses 1 stand, battery: silenced".
    pub fn describe(&self) -> String {
        self.describe_lost(self.lose_stands)
    }

    /// `describe` once applied, with the stands the unit actually lost (`apply_to_unit`):
    /// "loses 4 stands (7 called for, all it had)" when it had fewer than the result takes.
    pub fn describe_applied(&self, lost: u32) -> String {
        self.describe_lost(self.lose_stands.map(|_| lost))
    }

    fn describe_lost(&self, lost: Option<u32>) -> String {
        let mut parts = Vec::new();
        if let Some(order) = &self.order {
            parts.push(order.replace('_', " "));
        }
        if let Some(n) = lost {
            let called = self.lose_stands.unwrap_or(n);
            let short = if called > n { format!(" ({called} called for, all it had)") } else { String::new() };
            parts.push(format!("loses {n} stand{}{short}", if n == 1 { "" } else { "s" }));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stands_lost_are_said_as_lost() {
        let effects = Effects { order: Some("disordered".into()), lose_stands: Some(7), ..Effects::default() };
        let mut unit = Unit::new("a", "A", "blue", "france", "infantry", "line", 4);
        let lost = effects.apply_to_unit(&mut unit);
        assert_eq!((lost, unit.stands), (4, 0));
        assert_eq!(effects.describe_applied(lost), "disordered, loses 4 stands (7 called for, all it had)");
        // What the table says, before it is applied, is what it calls for.
        assert_eq!(effects.describe(), "disordered, loses 7 stands");
        let mut whole = Unit::new("b", "B", "blue", "france", "infantry", "line", 8);
        let lost = effects.apply_to_unit(&mut whole);
        assert_eq!(effects.describe_applied(lost), "disordered, loses 7 stands");
    }
}
