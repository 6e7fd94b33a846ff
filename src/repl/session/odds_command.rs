//! `:odds` at the table: a call's chances in percents (or fractions), its fields, and `:odds why`, what each modifier is worth.

use super::{Reply, Session, render};
use crate::dice::{DiceLimits, EnumLimits, exact_odds, parse_with};
use crate::present::attribution::render_attribution_within;
use crate::present::odds::{Chances, render_odds, render_outcomes, render_procedure_within};
use crate::script::{Host, Kept};

/// Puts the units and dice back as kept when dropped, however the work between ends (a panic
/// the terminal survives included): `:odds why` leaves the session as it found it.
struct PutBack<'h>(&'h Host, Kept);

impl Drop for PutBack<'_> {
    fn drop(&mut self) {
        self.0.put_back(&self.1);
    }
}

/// The fields `:odds --field NAME ... EXPR` asks for, whether `--exact` asks for fractions,
/// and the expression after them.
fn odds_fields(line: &str) -> Result<(Vec<String>, bool, &str), String> {
    let mut fields = Vec::new();
    let mut exact = false;
    let mut rest = line.trim_start();
    loop {
        let flag = |name: &str| rest.strip_prefix(name).filter(|a| a.is_empty() || a.starts_with(['=', ' ', '\t']));
        if let Some(after) = rest.strip_prefix("--exact").filter(|a| a.is_empty() || a.starts_with([' ', '\t'])) {
            exact = true;
            rest = after.trim_start();
        } else if let Some(after) = flag("--field") {
            let after = after.strip_prefix('=').unwrap_or(after).trim_start();
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            let name = &after[..end];
            if name.is_empty() {
                return Err("`--field` takes a field's name: `:odds --field attacker_lost melee(a, b, #{})`".into());
            }
            fields.push(name.to_string());
            rest = after[end..].trim_start();
        } else if let Some(flag) = rest.strip_prefix("--").map(|r| r.split_whitespace().next().unwrap_or("")) {
            let hint = crate::rules::did_you_mean(flag, ["exact", "field"].into_iter());
            return Err(format!("`--{flag}` is not a flag of `:odds`{hint}: it takes --exact and --field NAME"));
        } else {
            return Ok((fields, exact, rest));
        }
    }
}

/// Trials `:odds` (and `:odds why`) samples a call too large to walk.
const ODDS_SAMPLES: u64 = 20_000;

impl Session {
    pub(super) fn odds(&mut self, line: &str) -> Reply {
        if let Some(rest) = line.strip_prefix("why").filter(|r| r.is_empty() || r.starts_with(char::is_whitespace)) {
            return self.odds_why(rest.trim());
        }
        let (fields, exact, expr) = match odds_fields(line) {
            Ok(parsed) => parsed,
            Err(message) => return Reply::Error(message),
        };
        // Percents read at a glance; the exact fractions when asked for.
        let chances = if exact { Chances::Fractions } else { Chances::Percents };
        if expr.is_empty() {
            return Reply::Error("`:odds` takes a dice expression (`2d6 >= 8`) or a procedure call".into());
        }
        let conventions = self.host.ruleset().dice.clone();
        if let Ok(dice) = parse_with(expr, &conventions, &DiceLimits::default()) {
            if let Some(field) = fields.first() {
                return Reply::Error(format!(
                    "--field {field} reads a field of the map a procedure call returns, and `{expr}` is dice: a roll has no fields"
                ));
            }
            return match exact_odds(&dice, &DiceLimits::default()) {
                Ok(odds) => Reply::Output(render_odds(&dice.to_string(), &odds).trim_end().to_string()),
                Err(err) => Reply::Error(render(&err, self.look)),
            };
        }
        // `:odds fire 54th 4e range 1`: the odds of the call the short form stands for.
        let call = match self.short_call(expr) {
            Some(Ok(call)) => call,
            Some(Err(message)) => return Reply::Error(message),
            None => expr.to_string(),
        };
        match self.host.odds_with_fields(&self.scope, &call, EnumLimits::STANDARD, (ODDS_SAMPLES, self.seed), &fields) {
            Ok(odds) => {
                let table = render_procedure_within(&call, &odds, self.width, chances);
                // The player's question first: what the results mean for the sides.
                let name = call.split('(').next().unwrap_or("").trim();
                let outcomes: Vec<(String, Vec<String>)> = self
                    .host
                    .ruleset()
                    .contracts
                    .get(name)
                    .map(|c| {
                        c.outcomes
                            .iter()
                            .map(|(m, r)| (m.clone(), r.iter().map(|(w, _)| w.clone()).collect()))
                            .collect()
                    })
                    .unwrap_or_default();
                let text = match (render_outcomes(&outcomes, &odds, chances), table.split_once('\n')) {
                    (Some(lead), Some((heading, rest))) => format!("{heading}\n{lead}\n{rest}"),
                    _ => table,
                };
                Reply::Output(text.trim_end().to_string())
            }
            Err(err) => Reply::Error(render(&err, self.look)),
        }
    }

    /// `:odds why [CALL]`: what each modifier that applied does to the odds of CALL, or of the
    /// last resolution on the units as they stood before it.
    pub(super) fn odds_why(&mut self, call: &str) -> Reply {
        let (line, code, before) = match (&self.last_resolution, call.is_empty()) {
            (Some((line, code, kept)), true) => (line.clone(), code.clone(), Some(kept)),
            (None, true) => {
                return Reply::Error(
                    "`:odds why` weighs the modifiers of the last resolution, and none has been made: resolve one (`fire(a, b, #{range: 2})`), or give the call, `:odds why fire(a, b, #{range: 2})`".into(),
                );
            }
            (_, false) => (call.to_string(), call.to_string(), None),
        };
        let conventions = self.host.ruleset().dice.clone();
        if parse_with(&line, &conventions, &DiceLimits::default()).is_ok() {
            return Reply::Error(format!(
                "`:odds why` weighs the modifiers behind a procedure call's odds, and `{line}` is dice: a roll has no modifiers"
            ));
        }
        // A call given now may be a short form; the last resolution was kept as it ran.
        let code = match (before.is_some(), self.short_call(&line)) {
            (false, Some(Ok(code))) => code,
            (false, Some(Err(message))) => return Reply::Error(message),
            _ => code,
        };
        // The last resolution is weighed on the units as they stood before it, then they are
        // put back as they stand now, whatever the walk did.
        let now = PutBack(&self.host, self.host.keep(&self.scope));
        if let Some(before) = before {
            self.host.put_back(before);
        }
        let result = self.host.attribution(&self.scope, &code, EnumLimits::STANDARD, (ODDS_SAMPLES, self.seed));
        drop(now);
        match result {
            Ok(attribution) => {
                let heading = if call.is_empty() { format!("{line}  (as the units stood before it)") } else { code };
                Reply::Output(render_attribution_within(&heading, &attribution, self.width).trim_end().to_string())
            }
            Err(err) if call.is_empty() => Reply::Error(format!(
                "`:odds why` weighs the last resolution, `{line}`, and its odds cannot be worked out: {}",
                render(&err, self.look)
            )),
            Err(err) => Reply::Error(render(&err, self.look)),
        }
    }
}
