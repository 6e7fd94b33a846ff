//! The turn the REPL follows: where it stands in the ruleset's sequence of play (turn, side,
//! phase), `:turn` and `:next`, and the facts a phase keeps on units, cleared as it ends.

use serde::{Deserialize, Serialize};

use super::session::{Reply, Session, UNDO_DEPTH};
use crate::rules::sequence::{Acts, Moment, Sequence, Sides};
use crate::script::UnitRef;

/// Where the game stands: the game turn, whose player turn (0: the first side's), the phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    pub turn: u32,
    /// Whose player turn: 0, the first side's; 1, the second's (always 0 when the phases are
    /// the whole game turn).
    pub player: usize,
    /// The phase's index in the sequence.
    pub phase: usize,
    /// The two sides, the first to move first: the units' sides (or nations), or as `:turn` named them.
    pub sides: [String; 2],
}

impl Turn {
    /// The phasing side.
    fn phasing(&self) -> &str {
        &self.sides[self.player]
    }

    /// The phase now, by the sequence.
    fn phase<'s>(&self, sequence: &'s Sequence) -> &'s crate::rules::sequence::Phase {
        &sequence.phases[self.phase.min(sequence.phases.len() - 1)]
    }

    /// The prompt's note of it: `t1 france musketry`.
    pub fn brief(&self, sequence: &Sequence) -> String {
        format!("t{} {} {}", self.turn, self.phasing(), self.phase(sequence).id)
    }

    /// Where the game stands, in words, with who acts and what the phase does.
    pub fn describe(&self, sequence: &Sequence) -> String {
        let phase = self.phase(sequence);
        let acts = match phase.acts {
            Acts::Phasing => format!("{} acts", self.phasing()),
            Acts::Other => format!("{} acts", self.sides[1 - self.player]),
            Acts::Both => "both sides act".to_string(),
        };
        let whose = match sequence.sides {
            Sides::Alternate => format!(", {}'s player turn", self.phasing()),
            Sides::Named => format!(", {} moving", self.phasing()),
            Sides::Together => String::new(),
        };
        format!(
            "turn {}{whose}: {} phase ({} of {}; {acts})\n  {}",
            self.turn,
            phase.id,
            self.phase + 1,
            sequence.phases.len(),
            phase.text
        )
    }

    /// The next phase, as `:next` was given (`said`: a side, `turn` and a side, or nothing),
    /// and whether it begins a player turn and a game turn; or why it cannot be told.
    fn next(&self, sequence: &Sequence, said: &str) -> Result<(Turn, bool, bool), String> {
        let mut next = self.clone();
        let words: Vec<&str> = said.split_whitespace().collect();
        let last = self.phase + 1 >= sequence.phases.len();
        if !last {
            if !words.is_empty() {
                return Err(format!(
                    "`:next` moves on to the {} phase of this turn: it takes nothing until the {} phase is over, not `{said}`",
                    sequence.phases[self.phase + 1].id,
                    sequence.phases[sequence.phases.len() - 1].id
                ));
            }
            next.phase += 1;
            return Ok((next, false, false));
        }
        next.phase = 0;
        let side = |word: &str| -> Result<usize, String> {
            self.sides.iter().position(|s| s == word).ok_or_else(|| {
                let hint = crate::rules::did_you_mean(word, self.sides.iter().map(String::as_str));
                format!(
                    "`{word}` is not a side of this game{hint}: the sides are {} and {}",
                    self.sides[0], self.sides[1]
                )
            })
        };
        match (sequence.sides, words.as_slice()) {
            (Sides::Alternate, []) if next.player == 0 => next.player = 1,
            (Sides::Alternate | Sides::Together, []) => {
                next.player = 0;
                next.turn += 1;
                return Ok((next, true, true));
            }
            (Sides::Named, [who]) if *who != "turn" => next.player = side(who)?,
            (Sides::Named, ["turn", who]) => {
                next.player = side(who)?;
                next.turn += 1;
                return Ok((next, true, true));
            }
            (Sides::Named, _) => {
                return Err(format!(
                    "{}'s phases are over: name the side whose card came up next (`:next {}`), or begin a new turn (`:next turn {}`)",
                    self.phasing(),
                    self.sides[1 - self.player],
                    self.sides[0]
                ));
            }
            (_, _) => return Err(format!("`:next` takes nothing here, not `{said}`: it moves on one phase")),
        }
        Ok((next, true, false))
    }
}

/// What the sides are called until the units or `:turn` name them.
const PLACEHOLDERS: [&str; 2] = ["first", "second"];

/// The side a unit is on: its side, or when it gives none its nation.
pub fn side_of(unit: &UnitRef) -> String {
    let unit = unit.0.borrow();
    if unit.side.is_empty() { unit.nation.clone() } else { unit.side.clone() }
}

impl Session {
    /// The ruleset's sequence of play, if it has one.
    fn sequence(&self) -> Option<Sequence> {
        self.host.ruleset().sequence.clone()
    }

    /// Every unit the session knows, each once: its variables' in the order they were made,
    /// then the others the host knows.
    fn every_unit(&self) -> Vec<UnitRef> {
        let mut units: Vec<UnitRef> = Vec::new();
        let named = self.scope.iter().filter_map(|(_, _, value)| value.try_cast::<UnitRef>());
        for u in named.chain(self.host.units()) {
            if !units.iter().any(|v| std::rc::Rc::ptr_eq(&v.0, &u.0)) {
                units.push(u);
            }
        }
        units
    }

    /// The two sides, from the units' sides (or nations) in the order first met; `first` and
    /// `second` while the units name fewer.
    fn sides_of_units(&self) -> [String; 2] {
        let mut sides: Vec<String> = Vec::new();
        for unit in self.every_unit() {
            let side = side_of(&unit);
            if !side.is_empty() && !sides.contains(&side) {
                sides.push(side);
            }
        }
        let mut sides = sides.into_iter();
        [sides.next().unwrap_or_else(|| PLACEHOLDERS[0].into()), sides.next().unwrap_or_else(|| PLACEHOLDERS[1].into())]
    }

    /// Starts following the turn when the rules have a sequence of play (facts recorded from
    /// now on), or stops when they have none. A turn already followed goes on where it stood
    /// when the new rules have the same phases.
    pub(super) fn follow_turn(&mut self) {
        let Some(sequence) = self.sequence() else {
            self.turn = None;
            self.host.record_facts(false);
            return;
        };
        self.host.record_facts(true);
        // A turn that does not fit these rules' sequence (other rules, a saved game edited by
        // hand) starts again.
        let player_turns = if sequence.sides == Sides::Together { 1 } else { 2 };
        match &self.turn {
            Some(turn) if turn.phase < sequence.phases.len() && turn.player < player_turns && turn.turn >= 1 => {}
            _ => self.turn = Some(Turn { turn: 1, player: 0, phase: 0, sides: self.sides_of_units() }),
        }
    }

    /// Names the sides from the units once they name them, while the game still calls either
    /// `first` or `second`.
    pub(super) fn settle_sides(&mut self) {
        if let Some(turn) = &self.turn
            && turn.sides.iter().any(|s| PLACEHOLDERS.contains(&s.as_str()))
        {
            let sides = self.sides_of_units();
            if let Some(turn) = self.turn.as_mut() {
                turn.sides = sides;
            }
        }
    }

    /// The prompt: `[t1 france musketry] grognard> `, or `grognard> ` without a sequence.
    pub fn prompt(&self) -> String {
        match (&self.turn, self.sequence()) {
            (Some(turn), Some(sequence)) => {
                crate::present::escape::escape_owned(format!("[{}] grognard> ", turn.brief(&sequence)))
            }
            _ => "grognard> ".to_string(),
        }
    }

    /// `:turn`: where the game stands; `:turn SIDE SIDE`: a new game, SIDE moving first.
    pub(super) fn turn_command(&mut self, rest: &str) -> Reply {
        let Some(sequence) = self.sequence() else {
            return Reply::Error(format!(
                "{} has no sequence of play (`sequence:` in ruleset.yaml): there is no turn to follow",
                self.host.ruleset().title
            ));
        };
        let sides: Vec<&str> = rest.split_whitespace().collect();
        match sides.as_slice() {
            [] => {}
            [first, second] if first != second => {
                let kept = self.host.keep(&self.scope);
                self.push_undo(format!(":turn {rest}"), kept);
                for unit in self.every_unit() {
                    clear_facts(&unit, &sequence, None);
                }
                self.turn = Some(Turn { turn: 1, player: 0, phase: 0, sides: [first.to_string(), second.to_string()] });
            }
            _ => {
                return Reply::Error(format!(
                    "`:turn` names the two sides, the one that moves first first (`:turn france allies`), not `{rest}`"
                ));
            }
        }
        let sides = self.sides_of_units();
        let turn = self.turn.get_or_insert(Turn { turn: 1, player: 0, phase: 0, sides }).clone();
        let mut text = turn.describe(&sequence);
        // A side no unit is on gets nothing of the sequence's procedures: said, not left silent.
        let units = self.every_unit();
        for side in &turn.sides {
            if !units.is_empty() && !units.iter().any(|u| side_of(u) == *side) {
                text += &format!(
                    "\nno unit is on the side `{side}` (a unit's side, or its nation when it gives none): give units their side (`a.side = \"{side}\"`)"
                );
            }
        }
        Reply::Output(text)
    }

    /// `:next`: the next phase. Facts that clear as it begins are cleared, and at the end of a
    /// player turn the sequence's procedure runs on that side's units. All or nothing, and
    /// `:undo` takes it back.
    pub(super) fn next_phase(&mut self, asked: &str) -> Reply {
        let Some(sequence) = self.sequence() else {
            return Reply::Error(format!(
                "{} has no sequence of play (`sequence:` in ruleset.yaml): there is no phase to move on to",
                self.host.ruleset().title
            ));
        };
        let Some(turn) = self.turn.clone() else { return self.turn_command("") };
        let (next, player_turn, new_turn) = match turn.next(&sequence, asked) {
            Ok(next) => next,
            Err(message) => return Reply::Error(message),
        };
        let kept = self.host.keep(&self.scope);
        let mut said = Vec::new();
        // The side whose player turn ends: its units are given to the procedure that ends it.
        if player_turn && let Some((procedure, _)) = &sequence.end_of_player_turn {
            let side = turn.phasing().to_string();
            let every = self.every_unit();
            let any = !every.is_empty();
            let units: Vec<UnitRef> = every.into_iter().filter(|u| side_of(u) == side).collect();
            if units.is_empty() && any {
                said.push(format!(
                    "the end of {side}'s player turn reached no unit: none is on the side `{side}` (give units their side: `a.side = \"{side}\"`)"
                ));
            }
            let what = format!("the end of {side}'s player turn");
            match self.run_on_units(procedure, units, &what) {
                Ok(text) => said.extend(text),
                Err(message) => {
                    self.host.put_back(&kept);
                    return Reply::Error(format!("{message}; the game stays at {}", turn.brief(&sequence)));
                }
            }
        }
        // A new game turn: the sequence's procedure that begins it, given every unit.
        if new_turn && let Some((procedure, _)) = &sequence.start_of_turn {
            let what = format!("the start of turn {}", next.turn);
            match self.run_on_units(procedure, self.every_unit(), &what) {
                Ok(text) => said.extend(text),
                Err(message) => {
                    self.host.put_back(&kept);
                    return Reply::Error(format!("{message}; the game stays at {}", turn.brief(&sequence)));
                }
            }
        }
        let moment = Moment { phase: &sequence.phases[next.phase].id, player_turn, turn: new_turn };
        let mut cleared = 0;
        for unit in self.every_unit() {
            cleared += usize::from(clear_facts(&unit, &sequence, Some(moment)));
        }
        if cleared > 0 {
            let facts: Vec<&str> =
                sequence.facts.iter().filter(|(_, f)| f.clears_at(moment)).map(|(n, _)| n.as_str()).collect();
            said.push(format!("cleared {} on {cleared} unit{}", facts.join(", "), if cleared == 1 { "" } else { "s" }));
        }
        let line = format!(":next {asked}").trim_end().to_string();
        self.push_undo(line.clone(), kept);
        self.log.push(super::game::Logged {
            when: Some(next.brief(&sequence)),
            line,
            call: None,
            steps: said.iter().flat_map(|s| s.lines().map(str::to_string)).collect(),
        });
        let text = next.describe(&sequence);
        self.turn = Some(next);
        said.insert(0, text);
        Reply::Output(said.join("\n"))
    }

    /// Runs a procedure of the sequence (`what` it does: "the end of france's player turn")
    /// on `units`: its trace under a line saying what it was, when it says anything; or why it
    /// could not be worked out.
    fn run_on_units(&self, procedure: &str, units: Vec<UnitRef>, what: &str) -> Result<Option<String>, String> {
        let mut scope = rhai::Scope::new();
        scope.push("units", units.into_iter().map(rhai::Dynamic::from).collect::<rhai::Array>());
        match self.host.eval(&mut scope, &format!("{procedure}(units)")) {
            Ok(eval) => {
                let text = crate::present::trace::render(&eval.trace, self.trace_form, self.width);
                Ok((!text.trim().is_empty()).then(|| format!("{what} ({procedure}):\n{}", text.trim_end())))
            }
            Err(err) => Err(format!("{}{what} could not be worked out", super::session::render(&err, self.look))),
        }
    }

    /// Keeps what a line changed, to undo, with the game as it stood before it.
    pub(super) fn push_undo(&mut self, line: String, kept: crate::script::Kept) {
        if self.undo.len() == UNDO_DEPTH {
            self.undo.remove(0);
        }
        let undone = super::session::Undone {
            line,
            kept,
            turn: self.turn.clone(),
            standing: self.standing.clone(),
            logged: self.log.len(),
        };
        self.undo.push(undone);
    }

    /// Where the game stands, as the prompt and the log say it: `t1 france musketry`.
    pub(super) fn turn_brief(&self) -> Option<String> {
        Some(self.turn.as_ref()?.brief(&self.sequence()?))
    }
}

/// Clears from `unit` the facts that clear at `moment` (every fact when none); whether any was set.
fn clear_facts(unit: &UnitRef, sequence: &Sequence, moment: Option<Moment>) -> bool {
    let clearing: Vec<&String> =
        sequence.facts.iter().filter(|(_, f)| moment.is_none_or(|m| f.clears_at(m))).map(|(n, _)| n).collect();
    if !clearing.iter().any(|name| unit.0.borrow().markers.contains_key(*name)) {
        return false;
    }
    let mut unit = unit.edit();
    for name in clearing {
        unit.markers.remove(name);
    }
    true
}
