//! `Unit`: a troop unit's state (stands, formation, order, markers, where it stands).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A marker's value: a flag (`alert: true`), a count (`attached_guns: 2`) or a word.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Marker {
    Flag(bool),
    Count(i64),
    Text(String),
}

impl std::fmt::Display for Marker {
    /// `true`, `3`, `steady`: the value as a ruleset writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Marker::Flag(b) => write!(f, "{b}"),
            Marker::Count(n) => write!(f, "{n}"),
            Marker::Text(t) => f.write_str(t),
        }
    }
}

impl Marker {
    /// Whether the marker is in force: a true flag, a non-zero count, any word.
    pub fn is_set(&self) -> bool {
        match self {
            Marker::Flag(b) => *b,
            Marker::Count(n) => *n != 0,
            Marker::Text(_) => true,
        }
    }
}

/// Where a unit stands and which way it faces: the centre of its front edge, in
/// table inches, and its facing in degrees clockwise from straight up the table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub x: f64,
    pub y: f64,
    #[serde(default)]
    pub facing: f64,
}

/// A troop unit: a battalion, regiment, squadron or battery.
///
/// The words in `arm`, `kind`, `grade`, `formation` and `order` come from the
/// ruleset's vocabulary; the kernel stores them and the ruleset checks them.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub id: String,
    pub name: String,
    pub side: String,
    pub nation: String,
    /// infantry, cavalry, artillery... Left out, the ruleset's default (see `stands`).
    #[serde(default)]
    pub arm: String,
    /// line, light, guard, heavy, horse...
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Morale grade or rating: "veteran", "crack", "3".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grade: Option<String>,
    /// Stands (or bases, or guns) now. A unit that gives none has the ruleset's default
    /// (`unit_defaults:`), filled in by `Vocabulary::complete`, which refuses it without one.
    #[serde(default = "Unit::unset_stands", deserialize_with = "stands_within_reason")]
    pub stands: u32,
    /// Stands at the start of the battle; defaults to `stands`.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "some_stands_within_reason")]
    pub stands_at_start: Option<u32>,
    /// Left out, the ruleset's default (see `stands`).
    #[serde(default)]
    pub formation: String,
    /// good_order, disordered, spent, routed...
    pub order: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub markers: BTreeMap<String, Marker>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    /// The command (brigade, division...) the unit belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Ids of leaders attached to the unit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leaders: Vec<String>,
    /// Ids of units attached to it (a battery attached to a regiment).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attached: Vec<String>,
    /// The values of the fields the ruleset declares (`unit_fields:`): a shooting value, a
    /// morale rating. Checked, and completed with defaults, by `Vocabulary`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fields: BTreeMap<String, Marker>,
}

/// Cloned field by field, and into a unit that exists by reusing its words' room: an exact
/// walk puts units back as they were many times over, and the words rarely change.
impl Clone for Unit {
    fn clone(&self) -> Self {
        Unit {
            id: self.id.clone(),
            name: self.name.clone(),
            side: self.side.clone(),
            nation: self.nation.clone(),
            arm: self.arm.clone(),
            kind: self.kind.clone(),
            grade: self.grade.clone(),
            stands: self.stands,
            stands_at_start: self.stands_at_start,
            formation: self.formation.clone(),
            order: self.order.clone(),
            markers: self.markers.clone(),
            placement: self.placement,
            command: self.command.clone(),
            leaders: self.leaders.clone(),
            attached: self.attached.clone(),
            fields: self.fields.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        // Every field named: a field added to `Unit` must be added here too.
        let Unit {
            id,
            name,
            side,
            nation,
            arm,
            kind,
            grade,
            stands,
            stands_at_start,
            formation,
            order,
            markers,
            placement,
            command,
            leaders,
            attached,
            fields,
        } = source;
        self.id.clone_from(id);
        self.name.clone_from(name);
        self.side.clone_from(side);
        self.nation.clone_from(nation);
        self.arm.clone_from(arm);
        self.kind.clone_from(kind);
        self.grade.clone_from(grade);
        self.stands = *stands;
        self.stands_at_start = *stands_at_start;
        self.formation.clone_from(formation);
        self.order.clone_from(order);
        if self.markers != *markers {
            self.markers.clone_from(markers);
        }
        self.placement = *placement;
        self.command.clone_from(command);
        self.leaders.clone_from(leaders);
        self.attached.clone_from(attached);
        if self.fields != *fields {
            self.fields.clone_from(fields);
        }
    }
}

impl Unit {
    /// A unit in good order with `stands` stands and nothing else set; the
    /// other fields are public to fill in.
    pub fn new(id: &str, name: &str, side: &str, nation: &str, arm: &str, formation: &str, stands: u32) -> Self {
        Unit {
            id: id.to_string(),
            name: name.to_string(),
            side: side.to_string(),
            nation: nation.to_string(),
            arm: arm.to_string(),
            kind: None,
            grade: None,
            stands,
            stands_at_start: None,
            formation: formation.to_string(),
            order: "good_order".to_string(),
            markers: BTreeMap::new(),
            placement: None,
            command: None,
            leaders: Vec::new(),
            attached: Vec::new(),
            fields: BTreeMap::new(),
        }
    }

    /// The properties a script reads off a unit: `unit.formation`, `unit.stands`...
    pub const PROPERTIES: [&'static str; 14] = [
        "id",
        "name",
        "side",
        "nation",
        "arm",
        "type",
        "grade",
        "stands",
        "stands_at_start",
        "stands_lost",
        "formation",
        "order",
        "command",
        "eliminated",
    ];

    /// The keys a unit is written with (its serde fields), for a "did you mean" on a misspelt one.
    pub const KEYS: [&'static str; 17] = [
        "id",
        "name",
        "side",
        "nation",
        "arm",
        "type",
        "grade",
        "stands",
        "stands_at_start",
        "formation",
        "order",
        "markers",
        "placement",
        "command",
        "leaders",
        "attached",
        "fields",
    ];

    /// Whether `name` is one a unit has whatever the ruleset (a property, or a key of a unit as
    /// written): a field of a ruleset's own may not take it.
    pub fn is_kernel_name(name: &str) -> bool {
        Unit::PROPERTIES.contains(&name) || Unit::KEYS.contains(&name) || name == "placed"
    }

    /// What `stands` holds until the ruleset's default is filled in: no unit has this many
    /// (a unit is given at most `MOST_STANDS`).
    pub const UNSET_STANDS: u32 = u32::MAX;

    /// The most stands a unit may be given: far past any army, far short of `UNSET_STANDS`.
    pub const MOST_STANDS: u32 = 100_000;

    fn unset_stands() -> u32 {
        Unit::UNSET_STANDS
    }

    /// Stands at the start of the battle.
    pub fn starting_stands(&self) -> u32 {
        self.stands_at_start.unwrap_or(self.stands)
    }

    /// Stands lost since the start.
    pub fn stands_lost(&self) -> u32 {
        self.starting_stands().saturating_sub(self.stands)
    }

    /// Removes up to `n` stands and returns how many were really lost: a unit
    /// cannot lose more stands than it has.
    pub fn lose_stands(&mut self, n: u32) -> u32 {
        if self.stands_at_start.is_none() {
            self.stands_at_start = Some(self.stands);
        }
        let lost = n.min(self.stands);
        self.stands -= lost;
        lost
    }

    /// Whether no stand is left.
    pub fn is_eliminated(&self) -> bool {
        self.stands == 0
    }

    /// Whether the unit carries `marker` (a flag that is set, a non-zero count, a word).
    pub fn has_marker(&self, marker: &str) -> bool {
        self.markers.get(marker).is_some_and(Marker::is_set)
    }

    /// Sets a marker to a value, replacing what it had.
    pub fn set_marker(&mut self, marker: &str, value: Marker) {
        self.markers.insert(marker.to_string(), value);
    }

    /// Removes a marker; returns whether it was there.
    pub fn clear_marker(&mut self, marker: &str) -> bool {
        self.markers.remove(marker).is_some()
    }
}

/// Stands as written, refused past `Unit::MOST_STANDS`: a number that large is a slip, and
/// `u32::MAX` would read as no stands given at all.
fn stands_within_reason<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let stands = u32::deserialize(d)?;
    if stands > Unit::MOST_STANDS {
        return Err(serde::de::Error::custom(format!(
            "{stands} stands is more than a unit may have (at most {})",
            Unit::MOST_STANDS
        )));
    }
    Ok(stands)
}

fn some_stands_within_reason<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    stands_within_reason(d).map(Some)
}
