//! `Trace`: the explanation of a resolution: every die, every modifier considered, the table cell read, the effects applied.

use std::fmt;

use serde::Serialize;

use crate::dice::Roll;
use crate::rules::{Cell, ModEffect};

/// Everything a resolution did, in order.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Trace {
    pub steps: Vec<Step>,
}

/// One step of a resolution.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// Dice rolled, each die with its natural face.
    Roll {
        #[serde(skip_serializing_if = "Option::is_none")]
        label: Option<String>,
        roll: Box<Roll>,
        /// The chance of this total or more on these dice (`script::luck`); none for a roll
        /// that asks yes or no, whose total says nothing of its luck.
        #[serde(skip_serializing_if = "Option::is_none")]
        luck: Option<f64>,
        /// For a roll that asks yes or no (`1d20 = 13`): the chance it answers yes (`script::luck`).
        #[serde(skip_serializing_if = "Option::is_none")]
        chance: Option<f64>,
    },
    /// A card drawn: which of the face-down cards (`position` of `of`) on which run through the deck.
    Card {
        #[serde(skip_serializing_if = "Option::is_none")]
        label: Option<String>,
        card: String,
        colour: String,
        position: usize,
        of: usize,
        run: u32,
    },
    /// A modifier considered, applied or not, and why not.
    Modifier {
        list: String,
        id: String,
        /// Whose roll it modifies, when the list names a `unit` (a melee's sides): `1/4e Ligne (attacker)`.
        #[serde(skip_serializing_if = "Option::is_none")]
        side: Option<String>,
        effect: ModEffect,
        /// How many times the value counted (`per:`), when it says.
        #[serde(skip_serializing_if = "Option::is_none")]
        times: Option<i64>,
        applied: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        why_not: Option<String>,
        text: String,
        source: String,
    },
    /// A table cell read, and the results a total one or two away would have read (`near`).
    Table {
        title: String,
        source: String,
        reading: Box<Cell>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        near: Vec<(i64, String)>,
        /// The chance of reading this result or a higher one, when one roll decided it (`script::luck`).
        #[serde(skip_serializing_if = "Option::is_none")]
        luck: Option<f64>,
    },
    /// Effects applied to a unit or leader.
    Effect { subject: String, effects: String },
    /// Anything a procedure says (`note(...)`, `print(...)`).
    Note { text: String },
    /// What a procedure says for the whole explanation only (`detail(...)`): how a total was
    /// made up, shown by `:why` and `:trace full`, left out of the brief trace.
    Detail { text: String },
}

impl Trace {
    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The steps as lines of text, one per step.
    pub fn lines(&self) -> Vec<String> {
        self.steps.iter().map(Step::to_string).collect()
    }
}

impl fmt::Display for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for step in &self.steps {
            writeln!(f, "{step}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Step {
    /// One line a player reads: what happened, with the rule's words and, for
    /// what counted, its source.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Roll { label, roll, .. } => match label {
                Some(label) => write!(f, "roll    {label}, {roll}"),
                None => write!(f, "roll    {roll}"),
            },
            Step::Card { label, card, colour, position, of, run } => {
                let label = label.as_ref().map_or(String::new(), |l| format!("{l}, "));
                write!(f, "card    {label}{card} ({colour}): card {position} of {of} face down, run {run}")
            }
            Step::Modifier { list, id, effect, times, applied, why_not, text, source, .. } => {
                let effect = match times {
                    Some(n) => format!("{effect} x{n}"),
                    None => effect.to_string(),
                };
                if *applied {
                    write!(f, "mod     yes {effect:<17} {text}  ({list}.{id}; {source})")
                } else {
                    write!(f, "mod     no  {effect:<17} {text}")?;
                    if let Some(why) = why_not {
                        write!(f, "  ({why})")?;
                    }
                    Ok(())
                }
            }
            Step::Table { title, source, reading, .. } => {
                write!(f, "table   {title}")?;
                if let Some(row) = &reading.row {
                    write!(f, ", row {row}")?;
                }
                write!(f, ", total {}", reading.total)?;
                if reading.read_as != reading.total {
                    write!(f, " read as {}", reading.read_as)?;
                }
                match (&reading.band, &reading.result) {
                    (Some(band), Some(result)) => {
                        write!(f, " -> {band}: {}: {}  ({source})", result.id, result.text)?;
                    }
                    _ => write!(f, ": no result  ({source})")?,
                }
                Ok(())
            }
            Step::Effect { subject, effects } => write!(f, "effect  {subject}: {effects}"),
            Step::Note { text } => write!(f, "note    {text}"),
            Step::Detail { text } => write!(f, "detail  {text}"),
        }
    }
}
