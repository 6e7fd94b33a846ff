//! The REPL in a terminal: rustyline with history, completion, hints, bracket highlighting and multi-line input.

use std::borrow::Cow;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::Ordering;

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter, MatchingBracketHighlighter};
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::history::DefaultHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{CompletionType, Config, Context, DefaultEditor, Editor, Helper};

#[cfg(unix)]
use super::plain_lines::PlainLines;
use super::session::{Reply, Session};
use crate::script::open_brackets;

/// No plain reader off unix: rustyline reads every terminal there.
#[cfg(not(unix))]
enum PlainLines {}

#[cfg(not(unix))]
impl PlainLines {
    fn read(&mut self, _: &str, _: &dyn Fn(&str) -> bool) -> rustyline::Result<String> {
        match *self {}
    }
}

/// Completion from the session's words, history hints, bracket matching, and
/// input that goes on while a brace, bracket or parenthesis is open.
struct ReplHelper {
    /// What completion offers, by where the cursor is.
    candidates: super::completion::Candidates,
    hinter: HistoryHinter,
    brackets: MatchingBracketHighlighter,
    /// Whether the line may be coloured (`--color`, `NO_COLOR`): hints grey, brackets matched.
    color: bool,
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (start, words) = super::completion::complete_at(&self.candidates, line, pos);
        let pairs = words.into_iter().map(|w| Pair { display: w.clone(), replacement: w }).collect();
        Ok((start, pairs))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, ctx: &Context<'_>) -> Option<String> {
        self.hinter.hint(line, pos, ctx)
    }
}

impl Highlighter for ReplHelper {
    fn highlight<'l>(&self, line: &'l str, pos: usize) -> Cow<'l, str> {
        if self.color { self.brackets.highlight(line, pos) } else { Cow::Borrowed(line) }
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        // Hints in grey, so they read as suggestions.
        if self.color { Cow::Owned(format!("\x1b[90m{hint}\x1b[0m")) } else { Cow::Borrowed(hint) }
    }

    fn highlight_char(&self, line: &str, pos: usize, kind: CmdKind) -> bool {
        self.color && self.brackets.highlight_char(line, pos, kind)
    }
}

impl Validator for ReplHelper {
    fn validate(&self, ctx: &mut ValidationContext<'_>) -> rustyline::Result<ValidationResult> {
        Ok(if open_brackets(ctx.input()) > 0 { ValidationResult::Incomplete } else { ValidationResult::Valid(None) })
    }
}

impl Helper for ReplHelper {}

/// Completion from the words one question of `:new` takes.
struct Words(Vec<String>);

impl Completer for Words {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let typed = line[..pos].trim_start();
        let start = pos - typed.len();
        let pairs = self
            .0
            .iter()
            .filter(|w| w.starts_with(typed))
            .map(|w| Pair { display: w.clone(), replacement: w.clone() })
            .collect();
        Ok((start, pairs))
    }
}

impl Hinter for Words {
    type Hint = String;
}
impl Highlighter for Words {}
impl Validator for Words {}
impl Helper for Words {}

/// The reader of every line on a terminal rustyline cannot drive; none where rustyline reads keys.
#[cfg(unix)]
fn plain_lines() -> Option<Rc<RefCell<PlainLines>>> {
    let term = std::env::var("TERM").ok();
    if !super::plain_lines::line_editor_cannot_drive(term.as_deref()) {
        return None;
    }
    match PlainLines::on_stdin() {
        Ok(lines) => Some(Rc::new(RefCell::new(lines))),
        Err(err) => {
            eprintln!("warning: Ctrl-C may not drop a line being typed on this terminal: {err}");
            None
        }
    }
}

/// Elsewhere rustyline reads every terminal as before.
#[cfg(not(unix))]
fn plain_lines() -> Option<Rc<RefCell<PlainLines>>> {
    None
}

/// Reads one answer, shown a prompt.
type ReadAnswer = Box<dyn FnMut(&str) -> rustyline::Result<String>>;

/// How a die's face is asked for: on the plain reader, or a line editor of its own.
fn asker(plain: Option<Rc<RefCell<PlainLines>>>) -> rustyline::Result<ReadAnswer> {
    Ok(match plain {
        Some(lines) => Box::new(move |prompt: &str| lines.borrow_mut().read(prompt, &|_| false)),
        None => {
            let mut editor = DefaultEditor::new()?;
            Box::new(move |prompt: &str| editor.readline(prompt))
        }
    })
}

/// The terminal's height in rows, when standard output is one.
fn terminal_height() -> Option<usize> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    terminal_size::terminal_size().map(|(_, h)| usize::from(h.0))
}

/// Prints `text`, a screenful at a time when it is taller than the terminal (`height`): after
/// each, Enter shows more, and `q` (or Ctrl-C, or Ctrl-D) stops.
fn page(text: &str, height: Option<usize>, read: &mut ReadAnswer) {
    let rows: Vec<&str> = text.lines().collect();
    let Some(height) = height.filter(|h| *h > 3 && rows.len() >= *h) else {
        println!("{text}");
        return;
    };
    // A screenful, less the row the question takes.
    let screenful = height - 1;
    let mut at = 0;
    while at < rows.len() {
        let end = (at + screenful).min(rows.len());
        for row in &rows[at..end] {
            println!("{row}");
        }
        at = end;
        if at == rows.len() {
            break;
        }
        let question = format!("-- {} more rows: Enter for more, q to stop -- ", rows.len() - at);
        match read(&question) {
            Ok(answer) if !answer.trim().eq_ignore_ascii_case("q") => {}
            _ => break,
        }
    }
}

/// Where the history is kept between sessions: `$GROGNARD_HISTORY`, else
/// `~/.grognard_history`.
fn history_file() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("GROGNARD_HISTORY") {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".grognard_history"))
}

/// Runs the REPL on the terminal until `:quit` or Ctrl-D.
pub fn run_terminal(mut session: Session, said: &[String]) -> rustyline::Result<()> {
    // Tab lists every candidate (and completes what they share), rather than cycling through them.
    let config =
        Config::builder().auto_add_history(true).max_history_size(5_000)?.completion_type(CompletionType::List).build();
    let mut editor: Editor<ReplHelper, DefaultHistory> = Editor::with_config(config)?;
    let history = history_file();
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    // On a terminal rustyline cannot drive (TERM=dumb), lines are read here, so that Ctrl-C
    // drops them as it does where rustyline reads keys.
    let plain = plain_lines();
    // Manual dice are asked on a plain line editor of their own (or the plain reader), and so
    // is the pager's question.
    let mut ask_line = asker(plain.clone())?;
    let mut more = asker(plain.clone())?;
    let interrupt = session.interrupt_flag();
    session.set_asker(Rc::new(RefCell::new(move |prompt: &str| match ask_line(prompt) {
        Ok(answer) => Some(answer),
        // The line that asked stops as one Ctrl-C stops, taken back whole (`Session::evaluate_as`).
        Err(ReadlineError::Interrupted) => {
            interrupt.store(true, Ordering::Relaxed);
            None
        }
        Err(_) => None,
    })));
    // What a round decided, shown before the next round's dice are asked for.
    session.set_shower(Rc::new(RefCell::new(|text: &str| {
        println!("{}", crate::present::fit::fit(text, crate::present::trace::terminal_width()))
    })));
    // `:new` asks for each field on an editor of its own, Tab listing the words the field takes.
    let list = Config::builder().completion_type(CompletionType::List).build();
    let chooser: Rc<RefCell<Editor<Words, DefaultHistory>>> = Rc::new(RefCell::new(Editor::with_config(list)?));
    let chooser_plain = plain.clone();
    session.set_chooser(Rc::new(RefCell::new(move |prompt: &str, words: &[String]| {
        if let Some(lines) = &chooser_plain {
            return lines.borrow_mut().read(prompt, &|_| false).ok();
        }
        let mut editor = chooser.borrow_mut();
        editor.set_helper(Some(Words(words.to_vec())));
        editor.readline(prompt).ok()
    })));
    // Ctrl-C while a line runs stops it (the script ends with "interrupted") and the session
    // goes on; at the prompt the line editor reads it as a key, or, on a terminal it cannot
    // drive, `PlainLines` ends the read on it.
    if let Err(err) = signal_hook::flag::register(signal_hook::consts::SIGINT, session.interrupt_flag()) {
        eprintln!("warning: Ctrl-C will end the session: {err}");
    }
    let fitted = |text: &str| crate::present::fit::fit(text, crate::present::trace::terminal_width());
    println!("{}", fitted(&session.banner()));
    // What the command line asked for at the start (`--load`, `--seed`, `--dice`).
    for text in said.iter().filter(|t| !t.is_empty()) {
        println!("{}", fitted(text));
    }
    loop {
        // Read each time: the terminal may have been resized.
        session.set_width(crate::present::trace::terminal_width());
        editor.set_helper(Some(ReplHelper {
            candidates: session.candidates(),
            hinter: HistoryHinter::new(),
            brackets: MatchingBracketHighlighter::new(),
            color: session.look().color(),
        }));
        // The prompt says where the game stands: `[t1 france musketry] grognard> `.
        let prompt = session.prompt();
        let read = match &plain {
            Some(lines) => lines.borrow_mut().read(&prompt, &|text| open_brackets(text) > 0),
            None => editor.readline(&prompt),
        };
        match read {
            // A bug in grognard must not cost the player the game: a line that panics is
            // reported and the session goes on (its message has been printed by the panic hook).
            Ok(line) => match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| session.handle(&line)))
                .unwrap_or_else(|_| {
                    Reply::Error("grognard failed on this line (a bug: please report it); the session goes on".into())
                }) {
                Reply::Output(text) if text.is_empty() => {}
                // What a command prints (a chart, odds, help) fits the terminal as traces do,
                // a screenful at a time when it is taller (`:why`, a chart, help).
                Reply::Output(text) => {
                    page(&crate::present::fit::fit(&text, session.width()), terminal_height(), &mut more)
                }
                Reply::Error(text) => eprint!("{}", if text.ends_with('\n') { text } else { text + "\n" }),
                Reply::Quit => break,
            },
            // Ctrl-C drops the line being typed; the session goes on.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(err) => {
                eprintln!("cannot read the terminal: {err}");
                break;
            }
        }
        if let Some(path) = &history {
            let _ = editor.save_history(path);
        }
    }
    if let Some(path) = &history {
        let _ = editor.save_history(path);
    }
    Ok(())
}
