//! Running a study: a scenario script run trial after trial on worker threads, each trial seeded from (seed, trial).

use std::sync::atomic::{AtomicU64, Ordering};

use rhai::Scope;

use crate::dice::Seeded;
use crate::error::Error;
use crate::rules::{Problems, Ruleset};
use crate::script::{Host, Limits, Observations, SCRIPT_STACK};

/// What to run.
#[derive(Clone, Copy)]
pub struct Study<'a> {
    /// The script's text, and the name it is reported under.
    pub script: &'a str,
    pub name: &'a str,
    pub ruleset: &'a Ruleset,
    pub seed: u64,
    /// Where the script may read orders of battle from (its own folder).
    pub folder: &'a std::path::Path,
    /// Trials to run: `first..first + count`.
    pub first: u64,
    pub count: u64,
    pub jobs: usize,
    /// The operations and the time each trial may spend.
    pub limits: Limits,
    /// Whether a failing trial is counted and the study goes on (`--keep-going`), rather than
    /// ending it.
    pub keep_going: bool,
}

/// What a study counted, trial by trial in trial order (the same whatever the number of jobs).
#[derive(Debug, Default)]
pub struct Outcome {
    pub trials: Vec<Observations>,
    /// The last trial's value, as text (a scenario's report).
    pub last_value: Option<String>,
    /// A single trial's trace (a scenario played once is explained).
    pub trace: Option<crate::script::Trace>,
    /// The trials that failed, in trial order, when the study kept going past them.
    pub failures: Vec<TrialFailure>,
}

/// A trial that failed, with what it takes to replay it alone.
#[derive(Debug)]
pub struct TrialFailure {
    pub trial: u64,
    pub seed: u64,
    /// What went wrong: the script's error, or a worker that could not run.
    pub error: Box<Error>,
    /// A trial run alone: its trace up to the failure.
    pub trace: Option<crate::script::Trace>,
}

/// Why a study could not run.
#[derive(Debug)]
pub enum StudyError {
    /// The rules or the script do not compile.
    Setup(Box<Error>),
    /// A trial failed (the lowest-numbered one, when several did).
    Trial(TrialFailure),
}

/// Runs the study; `progress` is told how many trials are done as they finish.
pub fn run(study: &Study<'_>, progress: &(dyn Fn(u64) + Sync)) -> Result<Outcome, StudyError> {
    // Compile once up front, so that a mistake is reported once and not by every worker.
    let probe = Host::new(study.ruleset.clone()).map_err(|p| StudyError::Setup(Box::new(rules_broken(p))))?;
    probe.name_code(study.name);
    probe.allow_scenarios_from(study.folder);
    probe.compile(&trial_scope(study.first), study.script).map_err(|e| StudyError::Setup(Box::new(e.into())))?;
    drop(probe);

    let jobs = study.jobs.clamp(1, study.count.max(1) as usize);
    let done = AtomicU64::new(0);
    // The lowest trial that failed so far: workers go on below it, so the failure
    // reported is the same whatever the number of jobs.
    let failed = AtomicU64::new(u64::MAX);
    let mut results: Vec<(u64, Result<Trial, TrialFailure>)> = Vec::new();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|worker| {
                let (done, failed) = (&done, &failed);
                std::thread::Builder::new()
                    .stack_size(SCRIPT_STACK)
                    .spawn_scoped(scope, move || work(study, worker, jobs, done, failed, progress))
            })
            .collect();
        for worker in workers {
            match worker.map(|w| w.join()) {
                Ok(Ok(found)) => results.extend(found),
                Err(err) => {
                    results.push((u64::MAX, Err(worker_failed(study, format!("cannot start a worker: {err}")))))
                }
                Ok(Err(_)) => results.push((u64::MAX, Err(worker_failed(study, "a worker thread crashed".into())))),
            }
        }
    });
    results.sort_by_key(|(trial, _)| *trial);
    let mut outcome = Outcome::default();
    for (_, result) in results {
        match result {
            Ok(trial) => {
                outcome.trials.push(trial.observations);
                outcome.last_value = Some(trial.value);
                outcome.trace = trial.trace;
            }
            // A worker that could not run ends the study even when trials may fail.
            Err(failure) if study.keep_going && failure.trial != u64::MAX => outcome.failures.push(failure),
            Err(failure) => return Err(StudyError::Trial(failure)),
        }
    }
    Ok(outcome)
}

fn worker_failed(study: &Study<'_>, why: String) -> TrialFailure {
    TrialFailure { trial: u64::MAX, seed: study.seed, error: Box::new(Error::Worker(why)), trace: None }
}

/// What one trial gave.
struct Trial {
    observations: Observations,
    value: String,
    trace: Option<crate::script::Trace>,
}

/// One worker's share: trials `first + worker`, `first + worker + jobs`, ...
fn work(
    study: &Study<'_>,
    worker: usize,
    jobs: usize,
    done: &AtomicU64,
    failed: &AtomicU64,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<(u64, Result<Trial, TrialFailure>)> {
    let mut found = Vec::new();
    // Each worker has its own engine: Rhai engines are not shared between threads.
    let host = match Host::with_limits(study.ruleset.clone(), study.limits) {
        Ok(host) => host,
        Err(problems) => {
            let error = Box::new(rules_broken(problems));
            found.push((study.first, Err(TrialFailure { trial: study.first, seed: study.seed, error, trace: None })));
            return found;
        }
    };
    host.name_code(study.name);
    host.allow_scenarios_from(study.folder);
    // A study's trials are not explained one by one; a single trial is.
    host.set_tracing(study.count == 1);
    let ast = match host.compile(&trial_scope(study.first), study.script) {
        Ok(ast) => ast,
        Err(err) => {
            found.push((
                study.first,
                Err(TrialFailure { trial: study.first, seed: study.seed, error: Box::new(err.into()), trace: None }),
            ));
            return found;
        }
    };
    let mut trial = study.first + worker as u64;
    while trial < study.first + study.count && trial < failed.load(Ordering::Relaxed) {
        host.set_dice(Box::new(Seeded::for_trial(study.seed, trial)));
        let mut scope = trial_scope(trial);
        match host.run(&mut scope, &ast, study.script) {
            Ok(eval) => {
                let value = crate::present::value::display(&eval.value);
                let trace = (study.count == 1).then_some(eval.trace);
                found.push((trial, Ok(Trial { observations: host.take_observations(), value, trace })));
            }
            Err(err) => {
                // A trial run alone is explained up to where it failed.
                let trace = if study.count == 1 { host.take_failed_trace() } else { None };
                let error = Box::new(err.into());
                found.push((trial, Err(TrialFailure { trial, seed: study.seed, error, trace })));
                if !study.keep_going {
                    // Trials past a failure are not needed: the lowest failure is reported.
                    failed.fetch_min(trial, Ordering::Relaxed);
                    break;
                }
            }
        }
        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
        trial += jobs as u64;
    }
    found
}

/// A fresh scope for a trial: `trial` is its number. A variable, not a
/// constant: the script is compiled once, and the optimizer would fold a
/// constant into it.
fn trial_scope(trial: u64) -> Scope<'static> {
    let mut scope = Scope::new();
    scope.push("trial", trial as i64);
    scope
}

fn rules_broken(problems: Vec<crate::rules::Problem>) -> Error {
    Error::Rules(Problems(problems))
}
