//! Exact odds of whole procedures: each compiled procedure call is worked out once, over merged states, and becomes one weighted choice.
//!
//! An `odds` walk replays the code it was given (Rhai's) once for every way
//! its dice fall. Under this engine, a call of a compiled procedure is not
//! replayed face by face: its whole distribution (what it returns, and the
//! units, leaders, decks and observations it leaves) is worked out by `flow`,
//! statement by statement over merged states, kept for the rest of the walk
//! (the same call on the same world is not worked out twice), and the walk
//! then branches once over its outcomes. See docs/odds.md.
//!
//! Where the engine cannot go on (a value it cannot compare would make it
//! follow states apart without end, a loop with too many states), it says so
//! with `unsupported`, and the caller falls back to replaying.

mod branching;
mod call_odds;
mod chance;
mod flow;
mod liveness;
mod markov;
pub mod projection;
mod pure;
mod quiet;
mod seam;
mod states;
mod walk;

pub use walk::Walk;
