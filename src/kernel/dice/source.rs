//! Where faces come from: the `RollSource` trait, a seeded generator and supplied faces.
//!
//! The third source, the enumerator that walks every outcome, lives in `enumerate.rs`.

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};

use super::ast::Die;
use super::error::DiceError;

/// The only way randomness enters grognard: every die asks a source for its face.
pub trait RollSource {
    /// The natural face of one roll of `die`, within `die.min_face()..=die.max_face()`.
    fn face(&mut self, die: Die) -> Result<i64, DiceError>;

    /// The same, saying what the die is for ("musketry, die 1 of 2"): a source
    /// that asks a player for real dice shows it; the others ignore it.
    fn face_for(&mut self, die: Die, _what: &str) -> Result<i64, DiceError> {
        self.face(die)
    }

    /// Whether `face_for` shows what a die is for: when not, the words are not made.
    fn shows_purpose(&self) -> bool {
        false
    }

    /// Which of the face-down cards `face_down` (their names, in order) a draw for `what` takes,
    /// when the source knows it by name: a player at the table turns a real card over and
    /// names it (`drawn` are the deck's cards not face down, for a card named twice). None: the
    /// draw is made with a die of as many faces as there are cards face down.
    fn card_drawn(&mut self, _face_down: &[&str], _drawn: &[&str], _what: &str) -> Option<Result<usize, DiceError>> {
        None
    }

    /// Faces given in advance and not used, as an error: none for a generator.
    fn unused_faces(&self) -> Result<(), DiceError> {
        Ok(())
    }

    /// Where the source is in its stream of faces, to go back to (the REPL's `:undo`): none for
    /// dice that are asked for or given, which cannot be rolled again.
    fn position(&self) -> Option<u128> {
        None
    }

    /// Goes back (or on) to `position`, as `position` gave it.
    fn set_position(&mut self, _position: u128) {}

    /// Becomes the generator of trial `index` of a study seeded with `seed` (`Seeded::for_trial`),
    /// in place; false for a source that is not a generator, and is left as it was.
    fn become_trial(&mut self, _seed: u64, _index: u64) -> bool {
        false
    }

    /// The faces of dice rolled together (a pool), one for each of `what`, passed to
    /// `take` in order: a player at the table may give them all on one line.
    fn pool_faces(&mut self, die: Die, what: &[String], take: &mut dyn FnMut(i64)) -> Result<(), DiceError> {
        for w in what {
            take(self.face_for(die, w)?);
        }
        Ok(())
    }
}

impl<S: RollSource + ?Sized> RollSource for &mut S {
    fn face(&mut self, die: Die) -> Result<i64, DiceError> {
        (**self).face(die)
    }

    fn face_for(&mut self, die: Die, what: &str) -> Result<i64, DiceError> {
        (**self).face_for(die, what)
    }

    fn shows_purpose(&self) -> bool {
        (**self).shows_purpose()
    }

    fn card_drawn(&mut self, face_down: &[&str], drawn: &[&str], what: &str) -> Option<Result<usize, DiceError>> {
        (**self).card_drawn(face_down, drawn, what)
    }

    fn unused_faces(&self) -> Result<(), DiceError> {
        (**self).unused_faces()
    }

    fn position(&self) -> Option<u128> {
        (**self).position()
    }

    fn set_position(&mut self, position: u128) {
        (**self).set_position(position)
    }

    fn pool_faces(&mut self, die: Die, what: &[String], take: &mut dyn FnMut(i64)) -> Result<(), DiceError> {
        (**self).pool_faces(die, what, take)
    }
}

/// A reproducible generator: the same seed gives the same faces on every
/// platform, whatever `rand`'s own range sampling does in later versions,
/// because faces are derived here from the raw `u32` stream.
#[derive(Debug)]
pub struct Seeded {
    rng: ChaCha8Rng,
    seed: u64,
}

impl Seeded {
    /// A generator for `seed`. The 32-byte ChaCha key is spread from the seed by
    /// SplitMix64 in our own code, so it cannot change under us either.
    pub fn new(seed: u64) -> Self {
        Seeded { rng: ChaCha8Rng::from_seed(key_from(seed, 0)), seed }
    }

    /// The generator for trial `index` of a study seeded with `seed`: independent
    /// of how trials are shared among threads.
    pub fn for_trial(seed: u64, index: u64) -> Self {
        Seeded { rng: ChaCha8Rng::from_seed(key_from(seed, index.wrapping_add(1))), seed }
    }

    /// A seed from the clock and the process id, to be shown to the player so that
    /// what was rolled can be rolled again.
    pub fn fresh_seed() -> u64 {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        (nanos ^ u64::from(std::process::id()).rotate_left(32)) % 1_000_000_000
    }

    /// The seed this generator started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// An unbiased index in `0..n` by rejection sampling on the raw stream.
    fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        // The largest multiple of n that fits in 2^32; draws at or above it are rejected,
        // so every residue is equally likely.
        let zone = (1u64 << 32) - ((1u64 << 32) % u64::from(n));
        loop {
            let x = u64::from(self.rng.next_u32());
            if x < zone {
                return (x % u64::from(n)) as u32;
            }
        }
    }
}

fn key_from(seed: u64, stream: u64) -> [u8; 32] {
    let mut state = seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03);
    let mut key = [0u8; 32];
    for chunk in key.chunks_exact_mut(8) {
        chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
    }
    key
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl RollSource for Seeded {
    fn face(&mut self, die: Die) -> Result<i64, DiceError> {
        Ok(die.face(self.below(die.sides)))
    }

    fn position(&self) -> Option<u128> {
        Some(self.rng.get_word_pos())
    }

    fn set_position(&mut self, position: u128) {
        self.rng.set_word_pos(position);
    }

    fn become_trial(&mut self, seed: u64, index: u64) -> bool {
        *self = Seeded::for_trial(seed, index);
        true
    }
}

/// Faces given in advance: real dice rolled at the table, or a test's script.
/// Each face is checked against the die it is used for.
#[derive(Clone, Debug, Default)]
pub struct Supplied {
    faces: Vec<i64>,
    next: usize,
}

impl Supplied {
    /// Faces to hand out in order.
    pub fn new(faces: impl Into<Vec<i64>>) -> Self {
        Supplied { faces: faces.into(), next: 0 }
    }

    /// Reads a comma- or space-separated list such as `8,4,10`.
    pub fn parse_list(text: &str) -> Result<Self, String> {
        let faces = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse::<i64>().map_err(|_| format!("`{s}` is not a die face")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Supplied::new(faces))
    }

    /// How many faces have been used so far.
    pub fn used(&self) -> usize {
        self.next
    }

    /// The faces not yet used.
    pub fn remaining(&self) -> &[i64] {
        &self.faces[self.next..]
    }
}

impl RollSource for Supplied {
    fn face(&mut self, die: Die) -> Result<i64, DiceError> {
        self.face_for(die, "")
    }

    /// Errors name what the die was for: the faces are a player's, given in advance.
    fn face_for(&mut self, die: Die, what: &str) -> Result<i64, DiceError> {
        let Some(&face) = self.faces.get(self.next) else {
            return Err(DiceError::OutOfFaces { die: die.describe(), used: self.next, what: what.to_string() });
        };
        if !die.has_face(face) {
            let position = self.next + 1;
            return Err(DiceError::BadFace { face, die: die.describe(), position, what: what.to_string() });
        }
        self.next += 1;
        Ok(face)
    }

    fn shows_purpose(&self) -> bool {
        true
    }

    fn unused_faces(&self) -> Result<(), DiceError> {
        match self.remaining() {
            [] => Ok(()),
            unused => Err(DiceError::UnusedFaces { unused: unused.to_vec(), given: self.faces.len() }),
        }
    }
}
