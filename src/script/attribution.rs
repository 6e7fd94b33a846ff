//! Attribution: what each modifier that applied does to a call's odds, seen by working the
//! odds out again with that modifier left out, as if its list had none such.

use rhai::Scope;

use super::{Comparison, Host, ProcedureOdds, ScriptError};
use crate::dice::EnumLimits;

/// One modifier that applied, and the odds without it.
#[derive(Clone, Debug)]
pub struct Removal {
    /// The modifier list and the modifier's id in it (`fire_modifiers`, `veteran_volleys`).
    pub list: String,
    pub id: String,
    /// What it does when it applies, as the rules word it (`+1`, `halve fire points`).
    pub effect: String,
    pub text: String,
    pub source: String,
    /// The call's odds with this modifier left out.
    pub without: ProcedureOdds,
    /// From the odds without it (A) to the odds with it (B): what the modifier does.
    pub change: Comparison,
}

/// A call's odds, and each modifier that applied on any path with what it does to them.
#[derive(Clone, Debug)]
pub struct Attribution {
    pub odds: ProcedureOdds,
    /// In the order of their lists and then as each list writes them.
    pub removals: Vec<Removal>,
}

impl Attribution {
    /// The modifiers, the one that moves some outcome furthest first (alike ones keep their order).
    pub fn by_size(&self) -> Vec<&Removal> {
        let mut sorted: Vec<&Removal> = self.removals.iter().collect();
        sorted.sort_by_cached_key(|r| std::cmp::Reverse(r.change.size()));
        sorted
    }

    /// Whether every distribution was worked out exactly (otherwise sampled, the same seed for each).
    pub fn exact(&self) -> bool {
        self.odds.sampled.is_none() && self.removals.iter().all(|r| r.without.sampled.is_none())
    }
}

impl Host {
    /// The odds of `code`, then the odds again with each modifier that applied on any path left
    /// out in turn; a call that must be sampled is sampled with the same seed every time.
    pub fn attribution(
        &self,
        scope: &Scope,
        code: &str,
        limits: EnumLimits,
        sample: (u64, u64),
    ) -> Result<Attribution, ScriptError> {
        let (odds, seen) = self.odds_seeing(scope, code, limits, sample, &[])?;
        let mut removals = Vec::new();
        for (list, id) in seen.modifier_ids() {
            // The call may fail only without the modifier (a total off the table's edge): said so.
            let without = self.odds_without((&list, &id), scope, code, limits, sample).map_err(|err| match err {
                ScriptError::At(mut problem) => {
                    problem.message = format!("with modifier {list}.{id} left out: {}", problem.message);
                    ScriptError::At(problem)
                }
                other => other,
            })?;
            let change = Comparison::of(&without, &odds);
            let (effect, text, source) = {
                let ruleset = self.ruleset();
                let m = ruleset.modifiers.get(&list).and_then(|l| l.modifiers.iter().find(|m| m.id == id));
                m.map(|m| (m.effect.to_string(), m.text.clone(), m.source.to_string())).unwrap_or_default()
            };
            removals.push(Removal { list, id, effect, text, source, without, change });
        }
        // In the order the rules write them: by list, then as the list does.
        let order = |r: &Removal| {
            let ruleset = self.ruleset();
            ruleset.modifiers.get(&r.list).and_then(|l| l.modifiers.iter().position(|m| m.id == r.id))
        };
        removals.sort_by_cached_key(|r| (r.list.clone(), order(r)));
        Ok(Attribution { odds, removals })
    }
}
