//! The budget of one command: the operations, the time and the memory a script may spend, counted the same by Rhai and by compiled code, and Ctrl-C.
//!
//! Rhai's own operation limit counts one evaluation, and compiled procedures
//! run beside its count; so Rhai's limit is switched off and every path ticks
//! this one meter instead: Rhai on each of its operations (`on_progress`),
//! compiled code on each statement, call and loop turn. A meter is begun
//! afresh for each command (a REPL line, an `eval`, one trial of a study, a
//! whole `odds` walk) and, once it has stopped, it stays stopped until begun
//! again, so that no binding that catches an error can carry on past it.
//!
//! Memory is read on every tick from the thread's count of what it holds (`memory::held`):
//! the command is stopped once that has grown past its budget since the command began, so
//! growth is charged as it happens, whichever path (or the exact engine's own states) made it.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rhai::{Dynamic, EvalAltResult, Position};

use crate::memory;

/// Why a script was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It spent its operations.
    Operations(u64),
    /// It ran past its time.
    Time(Duration),
    /// It grew the memory its thread holds by more than this many bytes.
    Memory(usize),
    /// Ctrl-C.
    Interrupted,
}

impl Stop {
    /// What the report says.
    pub fn message(self) -> String {
        match self {
            Stop::Operations(max) => format!("stopped after {max} operations, the limit for one command"),
            Stop::Time(limit) => format!("stopped after {}, the time limit for one command", seconds(limit)),
            Stop::Memory(max) => format!("stopped at {}, the memory limit for one command", mebibytes(max)),
            Stop::Interrupted => "interrupted (Ctrl-C)".to_string(),
        }
    }

    /// How to go further, when there is a way.
    pub fn help(self) -> Option<String> {
        match self {
            Stop::Operations(_) => Some(
                "a rule ran too long (an endless loop? a call that calls itself?); raise the limit with \
                 --max-operations N"
                    .to_string(),
            ),
            Stop::Time(_) => Some("raise the limit with --time-limit SECONDS".to_string()),
            Stop::Memory(_) => Some(
                "a rule kept more than it should (a value grown in a loop?); raise the limit with --max-memory MIB"
                    .to_string(),
            ),
            Stop::Interrupted => None,
        }
    }
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 { format!("{s} s") } else { format!("{s:.1} s") }
}

/// A number of bytes in mebibytes, as the flag takes it.
fn mebibytes(bytes: usize) -> String {
    format!("{} MiB", bytes >> 20)
}

/// How often (in operations) the clock and Ctrl-C are looked at: reading the clock costs more than an operation.
const LOOK_EVERY: u64 = 1 << 10;

/// Counts what the scripts of one command spend, against its limits.
#[derive(Debug)]
pub struct Meter {
    spent: Cell<u64>,
    /// The limits of the command begun last.
    max_operations: Cell<u64>,
    time_limit: Cell<Option<Duration>>,
    deadline: Cell<Option<Instant>>,
    /// The memory the command may grow by, and the count (`memory::held`) past which it has.
    max_memory: Cell<usize>,
    memory_ceiling: Cell<isize>,
    stopped: Cell<Option<Stop>>,
    interrupt: RefCell<Arc<AtomicBool>>,
}

impl Default for Meter {
    fn default() -> Self {
        Meter {
            spent: Cell::new(0),
            max_operations: Cell::new(u64::MAX),
            time_limit: Cell::new(None),
            deadline: Cell::new(None),
            max_memory: Cell::new(usize::MAX),
            memory_ceiling: Cell::new(isize::MAX),
            stopped: Cell::new(None),
            interrupt: RefCell::default(),
        }
    }
}

impl Meter {
    /// Starts a command under these limits: nothing spent, the clock started, the memory held
    /// now taken as its floor, a Ctrl-C pressed before it forgotten.
    pub fn begin(&self, max_operations: u64, time_limit: Option<Duration>, max_memory: usize) {
        self.max_operations.set(max_operations);
        self.max_memory.set(max_memory);
        self.memory_ceiling.set(memory::held().saturating_add(isize::try_from(max_memory).unwrap_or(isize::MAX)));
        self.time_limit.set(time_limit);
        self.spent.set(0);
        self.stopped.set(None);
        self.interrupt.borrow().store(false, Ordering::Relaxed);
        self.deadline.set(time_limit.map(|t| Instant::now() + t));
    }

    /// Lowers the operations allowed to `cap` more than spent so far, for a try that must not
    /// spend the command's whole budget; `restore` puts the command's limit back.
    pub fn cap(&self, cap: u64) -> u64 {
        let full = self.max_operations.get();
        self.max_operations.set(full.min(self.spent.get().saturating_add(cap)));
        full
    }

    /// Puts back the limit `cap` lowered, forgetting a stop the lowered limit caused (the
    /// operations spent still count against the command).
    pub fn restore(&self, full: u64) {
        if let Some(Stop::Operations(_)) = self.stopped.get() {
            self.stopped.set(None);
        }
        self.max_operations.set(full);
    }

    /// Setting this flag stops the script running now (a Ctrl-C handler sets it).
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.interrupt.borrow().clone()
    }

    /// Listens to `flag` instead (a REPL keeps one flag for every host it builds).
    pub fn set_interrupt_flag(&self, flag: Arc<AtomicBool>) {
        *self.interrupt.borrow_mut() = flag;
    }

    /// Why the command was stopped, if it was.
    pub fn stopped(&self) -> Option<Stop> {
        self.stopped.get()
    }

    /// One operation: `Some` when the command must stop.
    #[inline]
    pub fn tick(&self) -> Option<Stop> {
        let spent = self.spent.get() + 1;
        self.spent.set(spent);
        if spent > self.max_operations.get() {
            return Some(self.stop(Stop::Operations(self.max_operations.get())));
        }
        if let Some(stop) = self.past_memory() {
            return Some(stop);
        }
        if spent.is_multiple_of(LOOK_EVERY) {
            return self.look();
        }
        self.stopped.get()
    }

    #[cold]
    fn look(&self) -> Option<Stop> {
        if let Some(stop) = self.stopped.get() {
            return Some(stop);
        }
        if self.interrupt.borrow().load(Ordering::Relaxed) {
            return Some(self.stop(Stop::Interrupted));
        }
        if let (Some(deadline), Some(limit)) = (self.deadline.get(), self.time_limit.get())
            && Instant::now() >= deadline
        {
            return Some(self.stop(Stop::Time(limit)));
        }
        None
    }

    /// The stop, once the thread holds more than the command may grow to.
    #[inline]
    fn past_memory(&self) -> Option<Stop> {
        (memory::held() > self.memory_ceiling.get()).then(|| self.stop(Stop::Memory(self.max_memory.get())))
    }

    fn stop(&self, why: Stop) -> Stop {
        let first = *self.stopped.get().get_or_insert(why);
        self.stopped.set(Some(first));
        first
    }

    /// The operations spent so far in this command.
    pub fn spent(&self) -> u64 {
        self.spent.get()
    }

    /// `n` operations at once at `pos` (a call remembered, spending what it spent when it ran),
    /// as an error when the command must stop: past the limit, or, as `tick` would have found
    /// on the way, past the time limit or interrupted.
    pub fn spend_at(&self, n: u64, pos: Position) -> Result<(), Box<EvalAltResult>> {
        let before = self.spent.get();
        let spent = before.saturating_add(n);
        self.spent.set(spent);
        if spent > self.max_operations.get() {
            return Err(terminated(self.stop(Stop::Operations(self.max_operations.get())), pos));
        }
        if let Some(stop) = self.past_memory() {
            return Err(terminated(stop, pos));
        }
        let stop = if spent / LOOK_EVERY > before / LOOK_EVERY { self.look() } else { self.stopped.get() };
        match stop {
            None => Ok(()),
            Some(stop) => Err(terminated(stop, pos)),
        }
    }

    /// One operation at `pos`, as an error when the command must stop (what compiled code calls).
    #[inline]
    pub fn tick_at(&self, pos: Position) -> Result<(), Box<EvalAltResult>> {
        match self.tick() {
            None => Ok(()),
            Some(stop) => Err(terminated(stop, pos)),
        }
    }
}

/// The error a stopped script ends with: the one Rhai raises when `on_progress` says stop.
pub fn terminated(stop: Stop, pos: Position) -> Box<EvalAltResult> {
    EvalAltResult::ErrorTerminated(Dynamic::from(stop.message()), pos).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_stop_past_the_limit_and_stay_stopped() {
        let meter = Meter::default();
        meter.begin(3, None, usize::MAX);
        assert_eq!([meter.tick(), meter.tick(), meter.tick()], [None, None, None]);
        assert_eq!(meter.tick(), Some(Stop::Operations(3)));
        assert_eq!(meter.tick(), Some(Stop::Operations(3)));
        meter.begin(3, None, usize::MAX);
        assert_eq!(meter.tick(), None);
    }

    #[test]
    fn an_interrupt_is_seen_within_a_look_and_forgotten_by_the_next_command() {
        let meter = Meter::default();
        meter.begin(u64::MAX, None, usize::MAX);
        meter.interrupt_flag().store(true, Ordering::Relaxed);
        let stops: Vec<_> = (0..LOOK_EVERY).filter_map(|_| meter.tick()).collect();
        assert_eq!(stops, [Stop::Interrupted]);
        meter.begin(u64::MAX, None, usize::MAX);
        assert!((0..LOOK_EVERY * 2).all(|_| meter.tick().is_none()));
    }

    #[test]
    fn a_deadline_passed_stops_at_the_next_look() {
        let meter = Meter::default();
        meter.begin(u64::MAX, Some(Duration::ZERO), usize::MAX);
        let first = (0..LOOK_EVERY).find_map(|_| meter.tick());
        assert_eq!(first, Some(Stop::Time(Duration::ZERO)));
        assert_eq!(Stop::Time(Duration::from_secs(60)).message(), "stopped after 60 s, the time limit for one command");
    }

    #[test]
    fn memory_grown_past_the_budget_stops_at_the_next_tick_and_is_measured_from_the_start() {
        let meter = Meter::default();
        let kept = vec![0u8; 8 << 20];
        meter.begin(u64::MAX, None, 4 << 20);
        assert_eq!(meter.tick(), None, "what was held before the command is not its own");
        let grown = vec![0u8; 5 << 20];
        assert_eq!(meter.tick(), Some(Stop::Memory(4 << 20)));
        assert_eq!(Stop::Memory(4 << 20).message(), "stopped at 4 MiB, the memory limit for one command");
        drop((kept, grown));
    }
}
