//! What units and leaders show a script by name: their properties, their words (`arm`,
//! `formation`...) and their marker methods, read alike by the bindings, native conditions and
//! compiled procedures.

use rhai::{Dynamic, ImmutableString};

use crate::unit::{Leader, Marker, Unit};

pub(crate) fn marker_to(marker: Option<&Marker>) -> Dynamic {
    match marker {
        None => Dynamic::UNIT,
        Some(Marker::Flag(b)) => Dynamic::from(*b),
        Some(Marker::Count(n)) => Dynamic::from(*n),
        Some(Marker::Text(t)) => Dynamic::from(ImmutableString::from(t.as_str())),
    }
}

/// The properties a script reads off a unit: `unit.formation`, `unit.stands`...
pub(crate) const UNIT_PROPERTIES: [&str; 14] = Unit::PROPERTIES;

/// A unit's property by name, one place for the Rhai getters and for conditions read natively.
pub(crate) fn unit_property(u: &Unit, name: &str) -> Option<Dynamic> {
    if let Some(text) = unit_text(u, name) {
        // Made from the words in place: a copy of the `String` first would cost a second allocation.
        return Some(text.map_or(Dynamic::UNIT, |t| Dynamic::from(ImmutableString::from(t))));
    }
    Some(match name {
        "stands" => Dynamic::from(i64::from(u.stands)),
        "stands_at_start" => Dynamic::from(i64::from(u.starting_stands())),
        "stands_lost" => Dynamic::from(i64::from(u.stands_lost())),
        "eliminated" => Dynamic::from(u.is_eliminated()),
        // A field the ruleset declares (`unit_fields:`), filled in when the unit was made.
        _ => return u.fields.get(name).map(|value| marker_to(Some(value))),
    })
}

/// A unit's word-valued property read in place (`None` inside: the unit has
/// none, `()` to a script); none for a property that is not a word.
pub(crate) fn unit_text<'u>(u: &'u Unit, name: &str) -> Option<Option<&'u str>> {
    UnitWord::named(name).map(|word| word.of(u))
}

/// A unit's word-valued property, named once where a condition is compiled
/// instead of by its name at every reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnitWord {
    Id,
    Name,
    Side,
    Nation,
    Arm,
    Type,
    Grade,
    Formation,
    Order,
    Command,
}

impl UnitWord {
    /// The word property a script calls `name`, if it is one.
    pub(crate) fn named(name: &str) -> Option<UnitWord> {
        Some(match name {
            "id" => UnitWord::Id,
            "name" => UnitWord::Name,
            "side" => UnitWord::Side,
            "nation" => UnitWord::Nation,
            "arm" => UnitWord::Arm,
            "type" => UnitWord::Type,
            "grade" => UnitWord::Grade,
            "formation" => UnitWord::Formation,
            "order" => UnitWord::Order,
            "command" => UnitWord::Command,
            _ => return None,
        })
    }

    /// Its value on `u`, in place (`None`: the unit has none).
    pub(crate) fn of(self, u: &Unit) -> Option<&str> {
        match self {
            UnitWord::Id => Some(&u.id),
            UnitWord::Name => Some(&u.name),
            UnitWord::Side => Some(&u.side),
            UnitWord::Nation => Some(&u.nation),
            UnitWord::Arm => Some(&u.arm),
            UnitWord::Type => u.kind.as_ref(),
            UnitWord::Grade => u.grade.as_ref(),
            UnitWord::Formation => Some(&u.formation),
            UnitWord::Order => Some(&u.order),
            UnitWord::Command => u.command.as_ref(),
        }
        .map(String::as_str)
    }
}

/// `unit.marker("battery")` and `unit.has_marker("breakthrough")`, by name.
pub(crate) fn unit_method(u: &Unit, name: &str, marker: &str) -> Option<Dynamic> {
    match name {
        "marker" => Some(marker_to(u.markers.get(marker))),
        "has_marker" => Some(Dynamic::from(u.has_marker(marker))),
        _ => None,
    }
}

/// The properties a script reads off a leader.
pub(crate) const LEADER_PROPERTIES: [&str; 5] = ["id", "name", "side", "rating", "attached"];

/// A leader's property by name.
pub(crate) fn leader_property(l: &Leader, name: &str) -> Option<Dynamic> {
    Some(match name {
        "id" => Dynamic::from(ImmutableString::from(l.id.as_str())),
        "name" => Dynamic::from(ImmutableString::from(l.name.as_str())),
        "side" => Dynamic::from(ImmutableString::from(l.side.as_str())),
        "rating" => l.rating.clone().map_or(Dynamic::UNIT, Dynamic::from),
        "attached" => Dynamic::from(l.attached_to.is_some()),
        _ => return None,
    })
}

/// `leader.marker("killed")` and `leader.has_marker("killed")`, by name.
pub(crate) fn leader_method(l: &Leader, name: &str, marker: &str) -> Option<Dynamic> {
    match name {
        "marker" => Some(marker_to(l.markers.get(marker))),
        "has_marker" => Some(Dynamic::from(l.has_marker(marker))),
        _ => None,
    }
}
