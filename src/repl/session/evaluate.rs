//! A line of Rhai at the table: run all or nothing, its steps shown as they come, and `:undo`, which takes the last line back.

use std::rc::Rc;
use std::sync::atomic::Ordering;

use super::{DiceSetting, NOTHING_APPLIED, Reply, Session, Undone, render};
use crate::dice::DiceError;
use crate::present::trace::{self, TraceForm};
use crate::present::value::display;
use crate::repl::game::Logged;
use crate::rules::Problem;
use crate::script::{ScriptError, Step, Trace};

impl Session {
    /// `:undo`: the units and leaders back as they were before the last line, and generated dice
    /// back where they were, so the same line rolls the same again.
    pub(super) fn undo(&mut self) -> Reply {
        let Some(Undone { line, kept, turn, standing, logged }) = self.undo.pop() else {
            return Reply::Output("nothing to undo".into());
        };
        self.host.put_back(&kept);
        self.turn = turn;
        self.standing = standing;
        self.log.truncate(logged);
        self.last = None;
        // What `:odds why` would weigh was just taken back.
        self.last_resolution = None;
        let dice = match self.dice {
            DiceSetting::Auto => "the dice are back where they were",
            DiceSetting::Manual => "roll the dice at the table again",
        };
        Reply::Output(format!("undone: {line}\n{dice}; the units now:\n{}", self.units_listing()))
    }

    pub(super) fn evaluate(&mut self, code: &str) -> Reply {
        self.evaluate_as(code, code)
    }

    /// Runs `code`, kept for `:undo` as the player wrote it (`line`).
    pub(in crate::repl) fn evaluate_as(&mut self, code: &str, line: &str) -> Reply {
        self.evaluate_shown(code, line, None)
    }

    /// Runs `code` as `evaluate_as` does, its result under `heading`. With dice at the table,
    /// each round decided is shown (under the heading) before the next round's dice are asked.
    pub(super) fn evaluate_shown(&mut self, code: &str, line: &str, heading: Option<&str>) -> Reply {
        let heading_shown = Rc::new(std::cell::Cell::new(false));
        if self.dice == DiceSetting::Manual {
            let (show, form, width) = (self.show.clone(), self.trace_form, self.width);
            let (heading, shown) = (heading.map(str::to_string), heading_shown.clone());
            self.host.show_progress(Some(Box::new(move |steps: &[Step]| {
                let mut text = String::new();
                if let Some(heading) = heading.as_ref().filter(|_| !shown.replace(true)) {
                    text += heading;
                    text.push('\n');
                }
                text += &trace::render(&Trace { steps: steps.to_vec() }, form, width);
                (show.borrow_mut())(text.trim_end());
            })));
        }
        let reply = self.evaluate_steps(code, line);
        self.host.show_progress(None);
        match (reply, heading) {
            (Reply::Output(text), Some(heading)) if !heading_shown.get() => {
                Reply::Output(format!("{heading}\n{text}").trim_end().to_string())
            }
            (reply, _) => reply,
        }
    }

    pub(super) fn evaluate_steps(&mut self, code: &str, line: &str) -> Reply {
        // A Ctrl-C pressed before this line (at the prompt) is not one that stops it.
        self.interrupt.store(false, Ordering::Relaxed);
        let kept = self.host.keep(&self.scope);
        let variables = self.scope.clone();
        // A resolution (one call) is kept apart for `:odds why`, with the units as they were.
        let call = code.trim().trim_end_matches(';').trim_end();
        let before = self.host.is_call(&self.scope, call).then(|| self.host.keep(&self.scope));
        let result = self.host.eval(&mut self.scope, code);
        // A line is all or nothing: an error, a die refused or not given, Ctrl-C while it ran
        // or at a die it asked for, a limit reached (operations, time, memory, a value's size
        // or depth): the line is taken back whole, as if it had not been typed. A melee stopped
        // in its second round keeps nothing of its first (a fight half resolved is worse than
        // none), and typing the line again resolves it once.
        let eval = match result {
            Ok(eval) => eval,
            Err(err) => {
                let said = if self.interrupt.load(Ordering::Relaxed) {
                    self.interrupted(&err)
                } else {
                    render(&err, self.look)
                };
                self.host.put_back(&kept);
                self.scope = variables;
                return Reply::Error(format!("{said}{NOTHING_APPLIED}"));
            }
        };
        if let Some(before) = before {
            self.last_resolution = Some((line.to_string(), call.to_string(), before));
        }
        // Only a line that changed units, moved the generated dice or rolled at the table is
        // kept to undo (looking at a unit is not): a fire that did nothing is still the last
        // roll, and `:undo` after it takes back that fire, not the line before.
        let rolled = eval.trace.steps.iter().any(|s| matches!(s, Step::Roll { .. } | Step::Card { .. }));
        if rolled || self.host.changed_since(&kept) {
            self.push_undo(line.to_string(), kept);
        }
        // The log of the game keeps each resolution (a line that rolled, read a table or
        // applied an effect), with what the dice said and did.
        if !eval.trace.is_empty() {
            let steps = trace::render(&eval.trace, TraceForm::Off, None);
            self.log.push(Logged {
                when: self.turn_brief(),
                line: line.to_string(),
                call: (code != line).then(|| code.to_string()),
                steps: steps.lines().map(str::to_string).collect(),
            });
        }
        // The modifiers that did not apply are for `:why` (or `:trace full`); what was shown
        // as the line ran is not shown again.
        let unshown = Trace { steps: eval.trace.steps.get(self.host.progress_shown()..).unwrap_or_default().to_vec() };
        let mut text = trace::render(&unshown, self.trace_form, self.width);
        if !eval.value.is_unit() {
            text += &format!("= {}", display(&eval.value));
        }
        self.last = Some(eval);
        Reply::Output(text.trim_end().to_string())
    }

    /// Why Ctrl-C stopped a line.
    pub(super) fn interrupted(&self, err: &ScriptError) -> String {
        match err {
            // A die asked for and not given: the roll did not fail, the player stopped the line.
            ScriptError::Dice(DiceError::Cancelled { die }) => render(
                &Problem::general("script::interrupted", format!("interrupted (Ctrl-C) while a {die} was asked for")),
                self.look,
            ),
            other => render(other, self.look),
        }
    }
}
