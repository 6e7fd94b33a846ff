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
