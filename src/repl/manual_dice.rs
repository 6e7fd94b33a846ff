//! Manual dice: a `RollSource` that asks the player for the face rolled at the table.

use std::cell::RefCell;
use std::rc::Rc;

use crate::dice::{DiceError, Die, RollSource};

/// Asks for one face: shown `prompt` (with any complaint about the last answer
/// folded in), it returns what the player typed, or `None` to give up. A Ctrl-C gives up
/// and sets the session's interrupt flag, so that the line is refused as interrupted.
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

    /// A card is turned over at the table and named (`4S`, `4 of spades`, `Q♥`): it must be
    /// one still face down; one drawn already, or not in the deck, is asked for again.
    fn card_drawn(&mut self, face_down: &[&str], drawn: &[&str], what: &str) -> Option<Result<usize, DiceError>> {
        let purpose = if what.is_empty() { String::new() } else { format!(" for {what}") };
        let left = face_down.len();
        let ask = format!("draw a card{purpose} and name it (4S, 10 of hearts, Q♥; {left} face down): ");
        let mut prompt = ask.clone();
        loop {
            let Some(answer) = (self.ask.borrow_mut())(&prompt) else {
                return Some(Err(DiceError::Cancelled { die: format!("card ({left} face down)") }));
            };
            let typed = answer.trim();
            if let Some(at) = super::card_names::find(typed, face_down) {
                return Some(Ok(at));
            }
            prompt = match super::card_names::find(typed, drawn) {
                Some(at) => format!("the {} was drawn already this run; {ask}", drawn[at]),
                None if super::card_names::card_key(typed).is_some() => {
                    format!("there is no `{typed}` in this deck; {ask}")
                }
                None => format!("`{typed}` is not a card (a rank and a suit: 4S, 10 of hearts, Q♥); {ask}"),
            };
        }
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
        let mut prompt = format!("roll {n} {}{purpose} (all on one line, or one at a time): ", asked(die));
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
                Err(complaint) => format!("{complaint}; roll {n} {}{purpose}: ", asked(die)),
                Ok(faces) if faces.is_empty() => format!("no face given; roll {n} {}{purpose}: ", asked(die)),
                Ok(faces) if faces.len() > n => {
                    format!("{} faces for {n} dice; roll {n} {}{purpose}: ", faces.len(), asked(die))
                }
                Ok(faces) => match faces.iter().find(|f| typed_face(die, **f).is_none()) {
                    Some(bad) => format!("{bad} is not on a {}; roll {n} {}{purpose}: ", asked(die), die),
                    None => break faces.into_iter().filter_map(|f| typed_face(die, f)).collect::<Vec<_>>(),
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
        let mut prompt = format!("roll a {}{purpose}: ", asked(die));
        loop {
            let Some(answer) = (self.ask.borrow_mut())(&prompt) else {
                return Err(DiceError::Cancelled { die: die.describe() });
            };
            match answer.trim().parse::<i64>().map(|typed| (typed, typed_face(die, typed))) {
                Ok((_, Some(face))) => return Ok(face),
                Ok((face, None)) => prompt = format!("{face} is not on a {}; roll a {}{purpose}: ", asked(die), die),
                Err(_) => prompt = format!("`{}` is not a face; roll a {}{purpose}: ", answer.trim(), asked(die)),
            }
        }
    }
}

/// Whether `die` is a plain ten-sided die, whose tenth face some dice print as 0 and others as 10.
fn is_d10(die: Die) -> bool {
    die.to_string() == "d10" && die.max_face() - die.min_face() == 9
}

/// The face a number typed for `die` stands for: the number, when the die has that face; on a
/// d10, a 0 typed for a die read 1-10 is its 10, and a 10 typed for one read 0-9 is its 0, since a
/// die at the table may print that face either way.
fn typed_face(die: Die, typed: i64) -> Option<i64> {
    match typed {
        _ if die.has_face(typed) => Some(typed),
        0 if is_d10(die) && die.min_face() == 1 => Some(10),
        10 if is_d10(die) && die.min_face() == 0 => Some(0),
        _ => None,
    }
}

/// The die as a prompt names it; a d10 says how the face it prints as 0 or 10 is read.
fn asked(die: Die) -> String {
    match die.min_face() {
        1 if is_d10(die) => "d10 (1-10: a 0 is 10)".to_string(),
        0 if is_d10(die) => "d10 (0-9: a 10 is 0)".to_string(),
        _ => die.describe(),
    }
}
