//! The sequence of play (`sequence:` in ruleset.yaml): the phases of a turn and who acts in
//! each, what runs as a player turn ends, and the facts a unit's effects record for a phase
//! or a turn (stands lost this phase), which modifiers read by name as markers.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_saphyr::Spanned;

use super::problem::{Problem, SourceFile, did_you_mean};
use super::source::Source;
use super::yaml::{Entries, span_of};
use crate::unit::MarkerKind;

/// `sequence:` as written.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SequenceDef {
    /// What the sequence is, in a sentence.
    pub text: String,
    pub source: Source,
    /// Whose the phases are: `alternate`, one side's player turn, each side in turn, the two
    /// making a game turn; `named`, one side's (a Movement Phase), the side named as it begins
    /// (the card drawn), the game turn ending when the player says; `together` (the default),
    /// the whole game turn, both sides.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub sides: Option<Spanned<String>>,
    /// The phases in order.
    pub phases: Vec<PhaseDef>,
    /// A procedure given the units of the side whose player turn ends (a procedure with a
    /// contract, taking one parameter, the units).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub end_of_player_turn: Option<Spanned<String>>,
    /// A procedure given every unit as each game turn after the first begins (a procedure
    /// with a contract, taking one parameter, the units).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub start_of_turn: Option<Spanned<String>>,
    /// Facts the effects on a unit record, by marker name.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, FactDef>")]
    pub facts: Entries<Spanned<String>, FactDef>,
}

/// One phase as written.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhaseDef {
    /// The phase's name, a word (`musketry`).
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// Who acts: `phasing`, `other` or `both`.
    #[schemars(with = "String")]
    pub acts: Spanned<String>,
    /// What happens in it, in the seed's words.
    pub text: String,
}

/// A fact as written.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FactDef {
    /// What it counts: `stands_lost` (each stand a unit loses, however it loses it).
    #[schemars(with = "String")]
    pub counts: Spanned<String>,
    /// When it goes back to nothing: at the start of each phase named here, of every `phase`,
    /// of each side's `player_turn`, or of each game `turn`.
    #[schemars(with = "Vec<String>")]
    pub clears: Vec<Spanned<String>>,
    pub text: String,
    pub source: Source,
}

/// Whose the phases are (see `SequenceDef::sides`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    Alternate,
    Named,
    Together,
}

/// Who acts in a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acts {
    Phasing,
    Other,
    Both,
}

/// A phase of the sequence.
#[derive(Clone, Debug)]
pub struct Phase {
    pub id: String,
    pub acts: Acts,
    pub text: String,
}

/// What a fact counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counts {
    StandsLost,
}

/// The words a fact may count.
const COUNTS: [&str; 1] = ["stands_lost"];

/// The moments a fact may clear at, beside the phases' own names.
const MOMENTS: [&str; 3] = ["phase", "player_turn", "turn"];

/// A fact recorded on units, and when it clears.
#[derive(Clone, Debug)]
pub struct Fact {
    pub counts: Counts,
    /// Phase ids, or `phase`, `player_turn`, `turn`.
    pub clears: Vec<String>,
    pub text: String,
    pub source: Source,
}

/// A moment in the sequence: a phase begins, and whether it begins a player turn and a game turn.
#[derive(Clone, Copy, Debug)]
pub struct Moment<'a> {
    pub phase: &'a str,
    pub player_turn: bool,
    pub turn: bool,
}

impl Fact {
    /// Whether the fact goes back to nothing at `moment`.
    pub fn clears_at(&self, moment: Moment) -> bool {
        self.clears.iter().any(|c| match c.as_str() {
            "phase" => true,
            "player_turn" => moment.player_turn,
            "turn" => moment.turn,
            phase => phase == moment.phase,
        })
    }
}

/// The sequence of play.
#[derive(Clone, Debug)]
pub struct Sequence {
    pub text: String,
    pub source: Source,
    pub sides: Sides,
    pub phases: Vec<Phase>,
    pub end_of_player_turn: Option<(String, super::problem::Origin)>,
    pub start_of_turn: Option<(String, super::problem::Origin)>,
    pub facts: BTreeMap<String, Fact>,
}

impl Sequence {
    /// The facts that count stands lost.
    pub fn stands_lost_facts(&self) -> impl Iterator<Item = &str> {
        self.facts.iter().filter(|(_, f)| f.counts == Counts::StandsLost).map(|(n, _)| n.as_str())
    }
}

/// Reads a layer's `sequence:`, each word checked: who acts, what a fact counts and when it
/// clears; each fact's marker is declared as a count (and refused when a marker of that name is).
pub fn build(
    def: SequenceDef,
    file: &SourceFile,
    markers: &BTreeMap<String, MarkerKind>,
    problems: &mut Vec<Problem>,
) -> Option<Sequence> {
    if def.phases.is_empty() {
        problems.push(
            Problem::general("rules::sequence", "`sequence:` lists no phases")
                .with_help("list each phase with who acts: phases: [{ id: maneuver, acts: phasing, text: ... }]"),
        );
    }
    let mut wrong = |what: &Spanned<String>, message: String, label: &str| {
        problems.push(Problem::error("rules::sequence", message, file, span_of(file, what)).with_label(label));
    };
    let mut phases: Vec<Phase> = Vec::new();
    for p in def.phases {
        let acts = match p.acts.value.as_str() {
            "phasing" => Acts::Phasing,
            "other" => Acts::Other,
            "both" => Acts::Both,
            other => {
                let hint = did_you_mean(other, ["phasing", "other", "both"].into_iter());
                wrong(
                    &p.acts,
                    format!("`{other}` is not who acts in a phase{hint}: phasing, other or both"),
                    "who acts",
                );
                continue;
            }
        };
        if MOMENTS.contains(&p.id.value.as_str()) {
            wrong(
                &p.id,
                format!(
                    "a phase may not be called `{}`: the word says when a fact clears (phase, player_turn, turn)",
                    p.id.value
                ),
                "a word taken",
            );
            continue;
        }
        if phases.iter().any(|q| q.id == p.id.value) {
            wrong(&p.id, format!("the phase `{}` is listed twice", p.id.value), "listed before");
            continue;
        }
        phases.push(Phase { id: p.id.value, acts, text: p.text.trim().to_string() });
    }
    let mut facts = BTreeMap::new();
    for (name, f) in def.facts.0 {
        let counts = match f.counts.value.as_str() {
            "stands_lost" => Counts::StandsLost,
            other => {
                let hint = did_you_mean(other, COUNTS.into_iter());
                wrong(&f.counts, format!("a fact counts stands_lost, not `{other}`{hint}"), "what it counts");
                continue;
            }
        };
        if markers.contains_key(&name.value) {
            wrong(
                &name,
                format!(
                    "`{}` is already a marker (vocabulary: markers): a fact of the sequence is a marker of its own, with a name of its own",
                    name.value
                ),
                "a marker already",
            );
            continue;
        }
        if f.clears.is_empty() {
            wrong(
                &name,
                format!(
                    "the fact `{}` never clears: say when, `clears: [phase]`, `[turn]` or a phase's name",
                    name.value
                ),
                "never cleared",
            );
        }
        let known: Vec<&str> = MOMENTS.iter().copied().chain(phases.iter().map(|p| p.id.as_str())).collect();
        for c in &f.clears {
            if !known.contains(&c.value.as_str()) {
                let hint = did_you_mean(&c.value, known.iter().copied());
                wrong(
                    c,
                    format!(
                        "a fact clears at a phase of the sequence, `phase`, `player_turn` or `turn`, not `{}`{hint}",
                        c.value
                    ),
                    "when it clears",
                );
            }
        }
        let clears = f.clears.into_iter().map(|c| c.value).collect();
        facts.insert(name.value, Fact { counts, clears, text: f.text.trim().to_string(), source: f.source });
    }
    let procedure = |name: Spanned<String>| {
        let origin = super::problem::Origin { file: file.clone(), span: span_of(file, &name) };
        (name.value, origin)
    };
    let end_of_player_turn = def.end_of_player_turn.map(procedure);
    let start_of_turn = def.start_of_turn.map(procedure);
    let sides = match def.sides.as_ref().map(|s| s.value.as_str()) {
        None | Some("together") => Sides::Together,
        Some("alternate") => Sides::Alternate,
        Some("named") => Sides::Named,
        Some(other) => {
            let hint = did_you_mean(other, ["alternate", "named", "together"].into_iter());
            let at = def.sides.as_ref().expect("matched a word");
            problems.push(
                Problem::error(
                    "rules::sequence",
                    format!("`{other}` is not whose the phases are{hint}: alternate, named or together"),
                    file,
                    span_of(file, at),
                )
                .with_label("whose the phases are"),
            );
            Sides::Together
        }
    };
    // Built from what is right even when something is not, so that every slip is reported at once.
    Some(Sequence {
        text: def.text.trim().to_string(),
        source: def.source,
        sides,
        phases,
        end_of_player_turn,
        start_of_turn,
        facts,
    })
    .filter(|s| !s.phases.is_empty())
}
