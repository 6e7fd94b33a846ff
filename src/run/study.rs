//! Running a study: a scenario script run trial after trial on worker threads, each trial seeded from (seed, trial),
//! its observations summed as blocks of trials finish.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, mpsc};

use rhai::Scope;

use super::accumulator::{Accumulator, BLOCK, TooManyValues};
use super::target_error::Stop;
use crate::error::Error;
use crate::rules::{Problems, Ruleset};
use crate::script::{Host, Limits, SCRIPT_STACK};

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
    /// Stop once every tallied share's 95% interval is within this many percentage points
    /// either side (`--target-error`), checked after each block of trials.
    pub target: Option<f64>,
}

/// Blocks a study of few trials is cut into (about), so that its trials are shared out too.
const FEWEST_BLOCKS: u64 = 64;

impl Study<'_> {
    /// Trials in a block: `BLOCK`, or fewer in a study of fewer than 64 blocks (so that all its
    /// workers have trials to run). A study run to a target error checks every `BLOCK` trials.
    /// It depends on the study alone, never on its jobs, so neither do the sums.
    fn block(&self) -> u64 {
        if self.target.is_some() { BLOCK } else { BLOCK.min(self.count.div_ceil(FEWEST_BLOCKS)).max(1) }
    }
}

/// What a study counted, summed in trial order (the same whatever the number of jobs).
#[derive(Debug, Default)]
pub struct Outcome {
    /// What the trials that ran through tallied and recorded.
    pub sums: Accumulator,
    /// A single trial's value, as text (a scenario's report).
    pub last_value: Option<String>,
    /// A single trial's trace (a scenario played once is explained).
    pub trace: Option<crate::script::Trace>,
    /// The first `FAILURES_KEPT` trials that failed, in trial order, when the study kept going
    /// past them.
    pub failures: Vec<TrialFailure>,
    /// How many trials failed in all.
    pub failed: u64,
    /// Why a study run to a target error stopped.
    pub stop: Option<Stop>,
}

/// Most failed trials a study keeps (with their errors) to report; the rest are only counted.
pub const FAILURES_KEPT: usize = 100;

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
    /// The study as a whole cannot go on, through no one trial: a worker could not start, or
    /// the trials tallied more different values than a study keeps.
    Whole(Box<Error>),
}

/// What a worker sends: a block of trials summed, that it cannot run at all, or that the
/// study cannot go on.
enum Message {
    Block(Block),
    Broken(TrialFailure),
    Refused(TooManyValues),
}

/// One block of consecutive trials (see `Study::block`), run by one worker in trial order.
struct Block {
    index: u64,
    sums: Accumulator,
    /// The block's failed trials, in order (the block ends at the first unless keeping going).
    failures: Vec<TrialFailure>,
    /// A single trial's value and trace.
    value: Option<String>,
    trace: Option<crate::script::Trace>,
}

/// Blocks a worker may run ahead of the lowest block not yet summed: what waits to be summed
/// stays small even when one trial is slow.
const AHEAD: u64 = 8;

/// Where the workers are: the next block to claim, the block past the last wanted (lowered when
/// a trial fails or the target error is met), and the blocks summed so far.
struct Dispatch {
    next: AtomicU64,
    end: AtomicU64,
    /// The lowest trial that failed so far: workers go on below it, so the failure reported is
    /// the same whatever the number of jobs.
    failed: AtomicU64,
    summed: Mutex<u64>,
    advanced: Condvar,
}

impl Dispatch {
    /// The next block for a worker to run, once it is near enough the blocks summed; none when
    /// no more are wanted.
    fn claim(&self, jobs: u64) -> Option<u64> {
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        let mut summed = self.summed.lock().unwrap_or_else(|e| e.into_inner());
        while index >= *summed + AHEAD + jobs && index < self.end.load(Ordering::Relaxed) {
            summed = self.advanced.wait(summed).unwrap_or_else(|e| e.into_inner());
        }
        (index < self.end.load(Ordering::Relaxed)).then_some(index)
    }

    /// Blocks below `summed` are summed, and none from `end` on is wanted.
    fn advance(&self, summed: u64, end: u64) {
        self.end.fetch_min(end, Ordering::Relaxed);
        *self.summed.lock().unwrap_or_else(|e| e.into_inner()) = summed;
        self.advanced.notify_all();
    }
}

/// Runs the study; `progress` is told how many trials are done as they finish. Each worker
/// runs whole blocks of trials and sends their sums; this thread joins them in trial order as
/// they come, so memory does not grow with the number of trials.
pub fn run(study: &Study<'_>, progress: &(dyn Fn(u64) + Sync)) -> Result<Outcome, StudyError> {
    // Compile once up front, so that a mistake is reported once and not by every worker.
    let probe = Host::new(study.ruleset.clone()).map_err(|p| StudyError::Setup(Box::new(rules_broken(p))))?;
    probe.name_code(study.name);
    probe.allow_scenarios_from(study.folder);
    probe.compile(&trial_scope(study.first), study.script).map_err(|e| StudyError::Setup(Box::new(e.into())))?;
    drop(probe);

    let blocks = study.count.div_ceil(study.block());
    let jobs = study.jobs.clamp(1, blocks.max(1) as usize);
    let done = AtomicU64::new(0);
    let dispatch = Dispatch {
        next: AtomicU64::new(0),
        end: AtomicU64::new(blocks),
        failed: AtomicU64::new(u64::MAX),
        summed: Mutex::new(0),
        advanced: Condvar::new(),
    };
    let (send, receive) = mpsc::channel::<Message>();
    let mut outcome = Outcome::default();
    let result = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                let (done, dispatch, send) = (&done, &dispatch, send.clone());
                std::thread::Builder::new()
                    .stack_size(SCRIPT_STACK)
                    .spawn_scoped(scope, move || work(study, jobs as u64, dispatch, done, progress, send))
            })
            .collect();
        drop(send);
        let result = gather(study, &receive, &dispatch, &mut outcome);
        // Whatever ended the gathering, no worker waits for more.
        dispatch.advance(0, 0);
        for worker in workers {
            match worker.map(|w| w.join()) {
                Ok(Ok(())) => {}
                Err(err) => return Err(StudyError::Whole(worker_failed(format!("cannot start a worker: {err}")))),
                Ok(Err(_)) => return Err(StudyError::Whole(worker_failed("a worker thread crashed".into()))),
            }
        }
        result
    });
    result?;
    Ok(outcome)
}

/// Joins the workers' blocks in trial order as they come, until every wanted block is in.
fn gather(
    study: &Study<'_>,
    receive: &mpsc::Receiver<Message>,
    dispatch: &Dispatch,
    outcome: &mut Outcome,
) -> Result<(), StudyError> {
    let mut waiting: BTreeMap<u64, Block> = BTreeMap::new();
    let mut summed = 0u64;
    for message in receive {
        let block = match message {
            Message::Block(block) => block,
            Message::Broken(failure) => return Err(StudyError::Trial(failure)),
            Message::Refused(why) => return Err(too_many_values(why)),
        };
        waiting.insert(block.index, block);
        while let Some(block) = waiting.remove(&summed) {
            summed += 1;
            let mut end = dispatch.end.load(Ordering::Relaxed);
            for failure in block.failures {
                if !study.keep_going {
                    return Err(StudyError::Trial(failure));
                }
                outcome.failed += 1;
                if outcome.failures.len() < FAILURES_KEPT {
                    outcome.failures.push(failure);
                }
            }
            outcome.sums.join(block.sums).map_err(too_many_values)?;
            outcome.last_value = block.value.or(outcome.last_value.take());
            outcome.trace = block.trace.or(outcome.trace.take());
            let trials = (summed * study.block()).min(study.count);
            if let Some(target) = study.target {
                let widest = outcome.sums.widest();
                let met = widest.as_ref().is_some_and(|(w, ..)| *w <= target);
                if met || trials >= study.count {
                    outcome.stop = Some(Stop { met, trials, widest });
                    end = summed;
                }
            }
            dispatch.advance(summed, end);
            if summed >= end {
                return Ok(());
            }
        }
    }
    // Every sender is gone before every wanted block came: a worker died (the caller says so).
    Ok(())
}

/// A worker that could not start or ended without an answer: no trial is at fault.
fn worker_failed(why: String) -> Box<Error> {
    Box::new(Error::Worker(why))
}

fn too_many_values(why: TooManyValues) -> StudyError {
    StudyError::Whole(Box::new(Error::TooManyValues(why.to_string())))
}

/// One worker: blocks claimed one after another, each run in trial order and sent summed.
fn work(
    study: &Study<'_>,
    jobs: u64,
    dispatch: &Dispatch,
    done: &AtomicU64,
    progress: &(dyn Fn(u64) + Sync),
    send: mpsc::Sender<Message>,
) {
    let broken =
        |error: Error| TrialFailure { trial: study.first, seed: study.seed, error: Box::new(error), trace: None };
    // Each worker has its own engine: Rhai engines are not shared between threads.
    let host = match Host::with_limits(study.ruleset.clone(), study.limits) {
        Ok(host) => host,
        Err(problems) => {
            let _ = send.send(Message::Broken(broken(rules_broken(problems))));
            return;
        }
    };
    host.name_code(study.name);
    host.allow_scenarios_from(study.folder);
    // A study's trials are not explained one by one; a single trial is.
    let alone = study.count == 1;
    // A study keeps what repeats from trial to trial (`GROGNARD_INTERPRET=1`: nothing).
    let keeps = !alone && !Host::interpreting();
    host.set_tracing(alone);
    host.set_studying(keeps);
    let ast = match host.compile(&trial_scope(study.first), study.script) {
        Ok(ast) => ast,
        Err(err) => {
            let _ = send.send(Message::Broken(broken(err.into())));
            return;
        }
    };
    if keeps {
        host.keep_resolutions(&ast);
    }
    // What every trial starts from, made once (see `Host::set_up`); a single trial runs whole.
    let setup = if keeps { host.set_up(&trial_scope(study.first), &ast, study.script) } else { None };
    while let Some(index) = dispatch.claim(jobs) {
        let mut block = Block { index, sums: Accumulator::default(), failures: Vec::new(), value: None, trace: None };
        let start = study.first + index * study.block();
        let end = (start + study.block()).min(study.first + study.count);
        for trial in start..end {
            // Past a failure, or past where the target error was met, nothing more is wanted.
            if trial >= dispatch.failed.load(Ordering::Relaxed) || index >= dispatch.end.load(Ordering::Relaxed) {
                break;
            }
            host.set_trial_dice(study.seed, trial);
            let ran = match &setup {
                Some(setup) => host.run_set_up(setup, trial as i64, study.script),
                None => {
                    host.forget_units();
                    host.run(&mut trial_scope(trial), &ast, study.script)
                }
            };
            match ran {
                Ok(eval) => {
                    if let Err(why) = host.read_observations(|o| block.sums.add(o)) {
                        // The study ends here whatever trial comes next: no more is wanted.
                        dispatch.advance(0, 0);
                        let _ = send.send(Message::Refused(why));
                        return;
                    }
                    if alone {
                        block.value = Some(crate::present::value::display(&eval.value));
                        block.trace = Some(eval.trace);
                    }
                }
                Err(err) => {
                    // A trial run alone is explained up to where it failed.
                    let trace = if alone { host.take_failed_trace() } else { None };
                    block.failures.push(TrialFailure { trial, seed: study.seed, error: Box::new(err.into()), trace });
                    if !study.keep_going {
                        // Trials past a failure are not needed: the lowest failure is reported.
                        dispatch.failed.fetch_min(trial, Ordering::Relaxed);
                        break;
                    }
                }
            }
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
        }
        if send.send(Message::Block(block)).is_err() {
            return;
        }
    }
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
