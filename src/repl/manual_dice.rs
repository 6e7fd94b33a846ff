//! Manual dice: a `RollSource` that asks the player for the face rolled at the table.

use std::cell::RefCell;
use std::rc::Rc;

use crate::dice::{DiceError, Die, RollSource};

/// Asks for one face: shown `prompt` (with any complaint about the last answer
/// folded in), it returns what the player typed, or `None` to give up.
pub type Ask = Rc<RefCell<dyn FnMut(&str) -> Option<String>>>;

/// Asks for every die, checks each answer against the die, and asks again
/// when the answer is not a face of it.
pub struct Manual {
    ask: Ask,
}

impl Manual {
    pub fn new(ask: Ask) -> Self {
        Manual { ask }
    }
}

impl RollSource for Manual {
    fn face(&mut self, die: Die) -> Result<i64, DiceError> {
        self.face_for(die, "")
    }

    fn shows_purpose(&self) -> bool {
        true
    }

    /// A pool rolled together is asked for in one line (`6 5 2 4 1 3`); a line with
    /// fewer faces gives the first dice, and the rest are asked for one by one.
    fn pool_faces(&mut self, die: Die, what: &[String], take: &mut dyn FnMut(i64)) -> Result<(), DiceError> {
        if what.len() < 2 {
            for w in what {
                take(self.face_for(die, w)?);
            }
            return Ok(());
        }
        let n = what.len();
        // "volley, die 1 of 6" names the pool as "volley".
        let pool = what[0].rsplit_once(", die ").map_or("", |(pool, _)| pool);
        let purpose = if pool.is_empty() { String::new() } else { format!(" for {pool}") };
        let mut prompt = format!("roll {n} {}{purpose} (all on one line, or one at a time): ", die.describe());
        let faces = loop {
            let Some(answer) = (self.ask.borrow_mut())(&prompt) else {
                return Err(DiceError::Cancelled { die: die.describe() });
            };
            let read: Result<Vec<i64>, String> = answer
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|w| !w.is_empty())
                .map(|w| w.parse::<i64>().map_err(|_| format!("`{w}` is not a face")))
                .collect();
            prompt = match read {
                Err(complaint) => format!("{complaint}; roll {n} {}{purpose}: ", die.describe()),
                Ok(faces) if faces.is_empty() => format!("no face given; roll {n} {}{purpose}: ", die.describe()),
                Ok(faces) if faces.len() > n => {
                    format!("{} faces for {n} dice; roll {n} {}{purpose}: ", faces.len(), die.describe())
                }
                Ok(faces) => match faces.iter().find(|f| !die.has_face(**f)) {
                    Some(bad) => format!("{bad} is not on a {}; roll {n} {}{purpose}: ", die.describe(), die),
                    None => break faces,
                },
            };
        };
        let given = faces.len();
        for face in faces {
            take(face);
        }
        for w in &what[given..] {
            take(self.face_for(die, w)?);
        }
        Ok(())
    }

    fn face_for(&mut self, die: Die, what: &str) -> Result<i64, DiceError> {
        let purpose = if what.is_empty() { String::new() } else { format!(" for {what}") };
        let mut prompt = format!("roll a {}{purpose}: ", die.describe());
        loop {
            let Some(answer) = (self.ask.borrow_mut())(&prompt) else {
                return Err(DiceError::Cancelled { die: die.describe() });
            };
            match answer.trim().parse::<i64>() {
                Ok(face) if die.has_face(face) => return Ok(face),
                Ok(face) => prompt = format!("{face} is not on a {}; roll a {}{purpose}: ", die.describe(), die),
                Err(_) => prompt = format!("`{}` is not a face; roll a {}{purpose}: ", answer.trim(), die.describe()),
            }
        }
    }
}
