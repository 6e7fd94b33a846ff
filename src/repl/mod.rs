//! The REPL: a session for resolving combats at the table and trying rules, and its terminal.

mod card_names;
mod completion;
mod game;
mod manual_dice;
mod new_unit;
#[cfg(unix)]
mod plain_lines;
mod save_load;
mod saved;
mod session;
mod short_form;
mod terminal;
mod turn;

pub use manual_dice::{Ask, Manual};
pub use new_unit::Choose;
pub use session::{COMMANDS, DiceSetting, Reply, Session, Show};
pub use terminal::run_terminal;

#[cfg(test)]
mod tests;
