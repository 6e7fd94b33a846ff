//! Exact odds: every dice outcome of some code walked (face by face when small, by the exact
//! engine otherwise), deepened past loops, or sampled past the limits.

use std::rc::Rc;

use rhai::{AST, Dynamic, Scope};

use super::Host;
use crate::dice::{DiceError, Distribution, EnumLimits, Enumerator, Seeded};
use crate::script::compiled::runner::Seam;
use crate::script::error::ScriptError;
use crate::script::fields::FieldOdds;
use crate::script::mode::{Mode, Pools, WalkBy, Walking};
use crate::script::observed::{ExactObservations, ObservedOdds};
use crate::script::outcome::{Outcome, display_order};
use crate::script::procedure_odds::ProcedureOdds;
use crate::script::replayed::Replayed;
use crate::script::seen::Seen;
use crate::script::state::{CardWalk, Observations};

/// Most outcomes `odds` replays face by face before the exact engine works a call out
/// instead, and most dice in one of them.
const SMALL_WALK: u64 = 48;
const SMALL_DEPTH: usize = 2;

/// Clears what `odds_seeing` and `odds_without` set in the state however the walk ends, a
/// panic the REPL survives included: a modifier left out must not stay out.
struct Unset<'h>(&'h Host);

impl Drop for Unset<'_> {
    fn drop(&mut self) {
        if let Ok(mut st) = self.0.state.try_borrow_mut() {
            st.seen = None;
            st.left_out = None;
        }
    }
}

impl Host {
    /// `code` compiled alone for `odds`: the code asked last is not compiled again, unless
    /// the scope holds a constant (the optimizer may have folded its value in).
    fn compile_for_odds(&self, scope: &Scope, code: &str) -> Result<Rc<AST>, ScriptError> {
        let constants = scope.iter().any(|(_, constant, _)| constant);
        if !constants
            && let Some((known, ast)) = &*self.odds_code.borrow()
            && known == code
        {
            return Ok(ast.clone());
        }
        let ast = Rc::new(self.compile_alone(scope, code)?);
        if !constants {
            *self.odds_code.borrow_mut() = Some((code.to_string(), ast.clone()));
        }
        Ok(ast)
    }

    /// The exact distribution of what `code` returns, walking every dice outcome;
    /// falls back to `sample` trials (saying so) when there are more outcomes than `limits` allow.
    /// Units in `scope` are copied for each outcome, so the session's units are left as they were.
    pub fn odds(
        &self,
        scope: &Scope,
        code: &str,
        limits: EnumLimits,
        sample: (u64, u64),
    ) -> Result<ProcedureOdds, ScriptError> {
        self.odds_with_fields(scope, code, limits, sample, &[])
    }

    /// `odds_with_fields`, and what its paths touched: every modifier that applied and every
    /// table row read, on any path walked or sampled (what attribution and `compare` name).
    pub fn odds_seeing(
        &self,
        scope: &Scope,
        code: &str,
        limits: EnumLimits,
        sample: (u64, u64),
        fields: &[String],
    ) -> Result<(ProcedureOdds, Seen), ScriptError> {
        self.state.borrow_mut().seen = Some(Seen::default());
        let _unset = Unset(self);
        let odds = self.odds_with_fields(scope, code, limits, sample, fields);
        let seen = self.state.borrow_mut().seen.take().unwrap_or_default();
        Ok((odds?, seen))
    }

    /// `odds` with one modifier (list, id) left out, as if its list had none such.
    pub fn odds_without(
        &self,
        (list, id): (&str, &str),
        scope: &Scope,
        code: &str,
        limits: EnumLimits,
        sample: (u64, u64),
    ) -> Result<ProcedureOdds, ScriptError> {
        self.state.borrow_mut().left_out = Some((Rc::from(list), Rc::from(id)));
        let _unset = Unset(self);
        self.odds_with_fields(scope, code, limits, sample, &[])
    }

    /// `odds`, with the distribution of each of `fields` of the map `code` returns besides
    /// (`attacker_lost`, or a path `attacker.stands`). A result that is not a map, or a field
    /// that no result has, is an error (naming the nearest field there is).
    pub fn odds_with_fields(
        &self,
        scope: &Scope,
        code: &str,
        limits: EnumLimits,
        sample: (u64, u64),
        fields: &[String],
    ) -> Result<ProcedureOdds, ScriptError> {
        let fields = fields.iter().map(|f| FieldOdds::new(f)).collect::<Result<Vec<_>, _>>()?;
        let alone = self.compile_for_odds(scope, code)?;
        let ast = self.with_procedures(&alone);
        let saved_tracing = std::mem::replace(&mut self.state.borrow_mut().tracing, false);
        let dice = self.walk_dice.clone();
        let saved = std::mem::replace(
            &mut self.state.borrow_mut().mode,
            Mode::Walking(Walking { dice, by: WalkBy::Faces(Replayed::default()) }),
        );
        self.state.borrow_mut().units_made = Some(Default::default());
        // The whole walk is one command: its operations are counted across every outcome.
        self.begin(self.walk_limits.get());
        // Cards are drawn by kind first, unless Rhai runs code that could look at a card's name
        // without the walk hearing of it (see `bindings::unseen`).
        let by_kind = !crate::script::bindings::unseen::rhai_may_tell_apart(&ast);
        self.state.borrow_mut().cards = CardWalk { by_kind, ..CardWalk::default() };
        let mut result = self.walk_exactly(scope, &alone, &ast, code, limits, &fields);
        let cards = self.state.borrow().cards;
        if cards.by_kind && cards.unseen && (cards.told_apart || result.is_err()) {
            // A card drawn by kind was told apart from the others of its kind (or the walk
            // failed with one in hand): walked again, card by card, on what the command has left.
            self.state.borrow_mut().cards = CardWalk::default();
            result = self.walk_exactly(scope, &alone, &ast, code, limits, &fields);
        }
        self.state.borrow_mut().cards = CardWalk::default();
        // A walk that cut off half the chance or more says too little: sample instead.
        let half = num_rational::BigRational::new(1.into(), 2.into());
        let result = match result {
            Ok(Some(odds)) if odds.distribution.residual() < half => Ok(odds),
            Ok(walked) => {
                // Said by what stopped the walk, and the flag that goes further.
                let why = match walked.map(|w| (w.cut_by_outcomes, w.cut_off_at)) {
                    Some((None, Some(depth))) => {
                        format!("half the chance or more lies past {depth} dice (--max-depth {})", limits.max_depth)
                    }
                    _ => format!("more than {} dice outcomes (--max-outcomes)", limits.max_outcomes),
                };
                self.sample(scope, &ast, code, sample, &why, &fields)
            }
            Err(err) => Err(err),
        };
        let mut st = self.state.borrow_mut();
        st.mode = saved;
        st.tracing = saved_tracing;
        st.units_made = None;
        let mut odds = result?;
        for field in &mut odds.fields {
            field.check_found()?;
            field.order = display_order(&st.ruleset, field.distribution.iter().map(|(o, _)| o));
        }
        odds.order = display_order(&st.ruleset, odds.distribution.iter().map(|(o, _)| o));
        Ok(odds)
    }

    /// The exact walk of `code` (the merged `ast`, `alone` its own part): replayed face by face
    /// when small, else worked out by the engine, else (the engine could not) replayed.
    fn walk_exactly(
        &self,
        scope: &Scope,
        alone: &Rc<AST>,
        ast: &AST,
        code: &str,
        limits: EnumLimits,
        fields: &[FieldOdds],
    ) -> Result<Option<ProcedureOdds>, ScriptError> {
        let engine = self.native.as_ref().filter(|_| self.exact_engine.get());
        // A walk of a few outcomes (one fire) costs less replayed face by face than worked
        // out by the engine: tried first, within a small budget, then the engine.
        let small = if engine.is_some() { self.small_walk(scope, alone, ast, code, fields) } else { None };
        if let Some(small) = small {
            return Ok(Some(small));
        }
        let Some(native) = engine else { return self.deepen(scope, ast, code, limits, fields, None) };
        // Fields read more of the call's value than the code does.
        let projection =
            if fields.is_empty() { crate::script::odds::projection::Projection::of(alone, ast) } else { None };
        // The engine takes the procedures' calls over at the compiled runner's seam.
        native.set_seam(Some(Rc::new(crate::script::odds::Walk::reading(projection, self.walk_dice.clone()))));
        let result = self.deepen(scope, ast, code, limits, fields, Some(Rc::default()));
        native.set_seam(self.kept_calls.borrow().clone().map(|kept| kept as Rc<dyn Seam>));
        match result {
            // The engine could not walk it: every face is replayed instead.
            Err(err) if err.to_string().contains(crate::script::error::UNSUPPORTED) => {
                self.deepen(scope, ast, code, limits, fields, None)
            }
            other => other,
        }
    }

    /// The walk replayed face by face when it is whole within `SMALL_WALK` outcomes of
    /// `SMALL_DEPTH` dice; none when it is not (or fails: the engine then walks it, and says
    /// why if it fails too).
    fn small_walk(
        &self,
        scope: &Scope,
        alone: &Rc<AST>,
        ast: &AST,
        code: &str,
        fields: &[FieldOdds],
    ) -> Option<ProcedureOdds> {
        // Two dice at most a run: a loop or a pool goes to the engine at its first run.
        *self.walk_dice.borrow_mut() = Enumerator::new(SMALL_DEPTH);
        let limits = EnumLimits { max_outcomes: SMALL_WALK, max_depth: SMALL_DEPTH };
        // The try spends a twentieth of the command's operations at most: the rest is the engine's.
        let full = self.meter.cap(self.walk_limits.get().max_operations / 20);
        let before = self.snapshot(scope);
        let small = match fields.is_empty().then(|| self.called_once(scope, alone)).flatten() {
            // `fire(unit(..), unit(..), #{..}).result`: the units made once, the call replayed.
            Some(called) => self.walk_until(scope, &called, code, limits, fields, None, true),
            None => self.walk_until(scope, ast, code, limits, fields, None, true),
        };
        // The units the arguments made are gone again, as every run's are.
        self.restore(&before);
        self.meter.restore(full);
        match small {
            Ok(odds) if num_traits::Zero::is_zero(&odds.distribution.residual()) => Some(odds),
            _ => None,
        }
    }

    /// The code `alone` (`name(args).field`, its arguments making nothing but units and
    /// leaders) with its arguments worked out once, merged with the procedures; none for
    /// other code, or arguments that fail (the walk then works them out as written).
    fn called_once(&self, scope: &Scope, alone: &Rc<AST>) -> Option<AST> {
        crate::script::odds::projection::Projection::of(alone, &self.procedures.borrow())?;
        let arguments = self.arguments_of(alone);
        let mut values = Vec::new();
        for argument in arguments.iter() {
            let mut scope = scope.clone();
            values.push(self.engine.eval_ast_with_scope::<Dynamic>(&mut scope, argument).ok()?);
        }
        let called = crate::script::odds::projection::Projection::called_with(alone, values)?;
        Some(self.with_procedures(&called))
    }

    /// The arguments of `alone`'s call, each as code of its own: taken apart once for the
    /// code asked again.
    fn arguments_of(&self, alone: &Rc<AST>) -> Rc<[AST]> {
        if let Some((known, arguments)) = &*self.odds_arguments.borrow()
            && Rc::ptr_eq(known, alone)
        {
            return arguments.clone();
        }
        let arguments: Rc<[AST]> = crate::script::odds::projection::Projection::arguments(alone).into();
        *self.odds_arguments.borrow_mut() = Some((alone.clone(), arguments.clone()));
        arguments
    }

    /// Walks the outcomes cut off at 2 dice, then 4, 6... until nothing is cut
    /// off, the depth limit is reached, or the next walk would pass the outcome
    /// limit; returns the deepest walk that finished (none when even the first
    /// had too many outcomes). A loop such as "fight again on a tie" so ends
    /// with the exact odds of every outcome within the depth, and the rest as residual.
    fn deepen(
        &self,
        scope: &Scope,
        ast: &AST,
        code: &str,
        limits: EnumLimits,
        fields: &[FieldOdds],
        whole_calls: Option<Rc<Pools>>,
    ) -> Result<Option<ProcedureOdds>, ScriptError> {
        let mut best: Option<ProcedureOdds> = None;
        let mut depth = limits.max_depth.min(2);
        loop {
            *self.walk_dice.borrow_mut() = Enumerator::new(depth);
            let attempt = EnumLimits { max_depth: depth, ..limits };
            let previous_runs = best.as_ref().map(|b| b.runs);
            match self.walk_until(scope, ast, code, attempt, fields, whole_calls.clone(), false) {
                Ok(mut odds) => {
                    let complete = num_traits::Zero::is_zero(&odds.distribution.residual());
                    if !complete {
                        odds.cut_off_at = Some(depth);
                    }
                    let runs = odds.runs;
                    best = Some(odds);
                    if complete || depth >= limits.max_depth {
                        return Ok(best);
                    }
                    // Each deeper walk costs about as many times more as the last one did.
                    if let Some(previous) = previous_runs {
                        let growth = runs as f64 / previous.max(1) as f64;
                        if runs as f64 * growth > limits.max_outcomes as f64 {
                            return Ok(best.map(|b| ProcedureOdds { cut_by_outcomes: Some(limits.max_outcomes), ..b }));
                        }
                    }
                    depth = (depth + 2).min(limits.max_depth);
                }
                // The deeper walk would pass the outcome limit: the one before is kept, cut by it.
                Err(ScriptError::Dice(DiceError::TooManyOutcomes { .. })) => {
                    return Ok(best.map(|b| ProcedureOdds { cut_by_outcomes: Some(limits.max_outcomes), ..b }));
                }
                Err(err) => return Err(err),
            }
        }
    }

    /// One walk of every dice outcome within `limits`, the host's walk dice steering it, its calls worked
    /// out whole when `whole_calls` holds the pools' odds (the engine at the seam), else replayed
    /// face by face; giving up at the first run cut off when `whole_or_nothing`. Each run's
    /// result adds its chance to the distribution, and to that of each of `fields`; what it
    /// tallied and recorded is added with the same chance.
    #[allow(clippy::too_many_arguments)]
    fn walk_until(
        &self,
        scope: &Scope,
        ast: &AST,
        code: &str,
        limits: EnumLimits,
        fields: &[FieldOdds],
        whole_calls: Option<Rc<Pools>>,
        whole_or_nothing: bool,
    ) -> Result<ProcedureOdds, ScriptError> {
        // Replayed face by face, its runs make the same calls after the same faces: their
        // answers are kept, for this walk alone.
        let by = match whole_calls {
            Some(pools) => WalkBy::WholeCalls(pools),
            None => WalkBy::Faces(Replayed::default()),
        };
        self.state.borrow_mut().mode = Mode::Walking(Walking { dice: self.walk_dice.clone(), by });
        let snapshot = self.snapshot(scope);
        let mut dist = Distribution::new();
        let mut fields = fields.to_vec();
        let mut observed = ExactObservations::default();
        let mut runs = 0u64;
        loop {
            {
                self.walk_dice.borrow_mut().begin_run();
                if let Mode::Walking(Walking { by: WalkBy::Faces(replayed), .. }) = &mut self.state.borrow_mut().mode {
                    replayed.begin_run();
                }
            }
            let mut run_scope = scope.clone();
            let result = self.run_metered(&mut run_scope, ast, code);
            self.restore(&snapshot);
            let end = self.walk_dice.borrow_mut().end_run()?;
            let (num, den) = (&end.weight_num, &end.weight_den);
            match (end.cut_off, result) {
                (true, _) if whole_or_nothing => return Err(DiceError::CutOff { depth: limits.max_depth }.into()),
                (true, _) => {
                    dist.add_residual_fraction(num, den);
                    for field in &mut fields {
                        field.add_residual(num, den);
                    }
                }
                (false, Ok(eval)) => {
                    if crate::script::bindings::unseen::holds_unseen(&eval.value) {
                        // The name of a card drawn by kind is part of the result: told apart.
                        self.state.borrow_mut().cards.told_apart = true;
                    }
                    dist.add_fraction(Outcome::of(&eval.value), num, den);
                    for field in &mut fields {
                        field.add(&eval.value, num, den)?;
                    }
                    // What the run counted, whether Rhai's code or a compiled call's outcome (the
                    // engine installs the observations of the world it chose) counted it.
                    observed.add_run(&self.state.borrow().observations, num, den);
                }
                (false, Err(err)) => return Err(err),
            }
            runs += 1;
            let more = self.walk_dice.borrow_mut().advance();
            if !more {
                return Ok(ProcedureOdds {
                    distribution: dist,
                    exact: true,
                    runs,
                    sampled: None,
                    cut_off_at: None,
                    cut_by_outcomes: None,
                    order: Vec::new(),
                    fields,
                    observed: ObservedOdds::Exact(observed),
                });
            }
            if runs >= limits.max_outcomes {
                return Err(DiceError::TooManyOutcomes { limit: limits.max_outcomes }.into());
            }
        }
    }

    fn sample(
        &self,
        scope: &Scope,
        ast: &AST,
        code: &str,
        (trials, seed): (u64, u64),
        why: &str,
        fields: &[FieldOdds],
    ) -> Result<ProcedureOdds, ScriptError> {
        let snapshot = self.snapshot(scope);
        let trials = trials.max(1);
        let mut counts = std::collections::BTreeMap::new();
        let mut fields = fields.to_vec();
        let mut observed = Vec::new();
        let (one, all) = (num_bigint::BigUint::from(1u32), num_bigint::BigUint::from(trials));
        for trial in 0..trials {
            self.state.borrow_mut().mode = Mode::Playing(Box::new(Seeded::for_trial(seed, trial)));
            let mut run_scope = scope.clone();
            let eval = self.run_metered(&mut run_scope, ast, code);
            self.restore(&snapshot);
            let eval = eval?;
            *counts.entry(Outcome::of(&eval.value)).or_insert_with(num_bigint::BigUint::default) += 1u32;
            for field in &mut fields {
                field.add(&eval.value, &one, &all)?;
            }
            // A trial that counted nothing is kept as a number only (a sample may be long).
            let counted = std::mem::take(self.state.borrow_mut().observations_mut());
            if counted != Observations::default() {
                observed.push(counted);
            }
        }
        let note = format!("{why}: sampled {trials} trials with seed {seed} instead");
        Ok(ProcedureOdds {
            distribution: Distribution::from_counts(counts, trials.into()),
            exact: false,
            runs: trials,
            sampled: Some(note),
            cut_off_at: None,
            cut_by_outcomes: None,
            order: Vec::new(),
            fields,
            observed: ObservedOdds::Sampled { trials, observed },
        })
    }
}
