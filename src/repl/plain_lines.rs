//! Lines read on a terminal the line editor cannot drive (`TERM=dumb`): the terminal edits each line itself, and Ctrl-C drops what was read.
//!
//! rustyline reads such a terminal with `read_line`, which goes on reading across a Ctrl-C (the
//! signal's handler only sets a flag): the lines of an open bracket already read, or a
//! question's, ran into the line typed after it. Here the read waits on the terminal and on
//! Ctrl-C at once (`poll` on stdin and signal-hook's self-pipe), so a Ctrl-C ends the read,
//! drops what was read of the line, and the caller treats it as rustyline's `Interrupted`.

use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::net::UnixStream;

use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::termios::{FlushArg, tcflush};
use rustyline::error::ReadlineError;

/// The byte Ctrl-C types on a terminal that does not turn it into a signal (`stty -isig`).
const ETX: u8 = 0x03;

/// What one read of the terminal takes at most: more than std's buffer for stdin, so a read
/// goes straight to the terminal and nothing waits in that buffer unseen by `poll`.
const CHUNK: usize = 64 * 1024;

/// Reads lines from `input`, each ended early by a Ctrl-C.
pub struct PlainLines<R: Read + AsFd = io::Stdin> {
    input: R,
    /// Where prompts are shown.
    out: Box<dyn Write>,
    /// A byte arrives here for each Ctrl-C (SIGINT), written by the signal's handler.
    interrupts: UnixStream,
    /// What was read past the end of the last line.
    pending: Vec<u8>,
    chunk: Vec<u8>,
}

/// Whether rustyline reads a terminal of this `TERM` as a plain file (its list of terminals it
/// cannot drive, `UNSUPPORTED_TERM` in rustyline 19's `tty/mod.rs`, compared as it compares).
pub fn line_editor_cannot_drive(term: Option<&str>) -> bool {
    term.is_some_and(|term| ["dumb", "cons25", "emacs"].iter().any(|t| t.eq_ignore_ascii_case(term)))
}

impl PlainLines {
    /// Lines from stdin, prompts to stdout, each read ended by a Ctrl-C.
    pub fn on_stdin() -> io::Result<PlainLines> {
        let (interrupts, wake) = UnixStream::pair()?;
        interrupts.set_nonblocking(true)?;
        signal_hook::low_level::pipe::register(signal_hook::consts::SIGINT, wake)?;
        Ok(PlainLines::with(io::stdin(), Box::new(io::stdout()), interrupts))
    }
}

impl<R: Read + AsFd> PlainLines<R> {
    /// Lines from `input`, prompts to `out`, a read ended by any byte that comes on `interrupts`.
    pub fn with(input: R, out: Box<dyn Write>, interrupts: UnixStream) -> PlainLines<R> {
        PlainLines { input, out, interrupts, pending: Vec::new(), chunk: vec![0; CHUNK] }
    }

    /// Shows `prompt` and reads a line, and more lines while `goes_on` says the text so far is
    /// not finished (a bracket open). A Ctrl-C drops everything read of it: `Interrupted`.
    pub fn read(&mut self, prompt: &str, goes_on: &dyn Fn(&str) -> bool) -> Result<String, ReadlineError> {
        // A Ctrl-C that came before this read (one that stopped a line running) is spent.
        self.forget_interrupts();
        self.out.write_all(prompt.as_bytes())?;
        self.out.flush()?;
        let mut text = String::new();
        loop {
            text += &self.next_line()?;
            if !goes_on(&text) {
                return Ok(text);
            }
            text.push('\n');
        }
    }

    /// The next line, without its end.
    fn next_line(&mut self) -> Result<String, ReadlineError> {
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                return Ok(text_of(&line[..end]));
            }
            let (input, interrupted) = self.wait()?;
            if interrupted {
                self.forget_interrupts();
                // What was read of the line goes, and what the terminal still holds of it: the
                // terminal drops it on Ctrl-C itself, unless told not to (`stty noflsh`).
                self.pending.clear();
                let _ = tcflush(self.input.as_fd(), FlushArg::TCIFLUSH);
                // The terminal shows `^C` where the line stopped: the next prompt starts below.
                writeln!(self.out)?;
                self.out.flush()?;
                return Err(ReadlineError::Interrupted);
            }
            if !input {
                continue;
            }
            let n = match self.input.read(&mut self.chunk) {
                Ok(n) => n,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err.into()),
            };
            if n == 0 {
                // Ctrl-D: on an empty line the end; after some text, that text is the line.
                if self.pending.is_empty() {
                    return Err(ReadlineError::Eof);
                }
                let line = std::mem::take(&mut self.pending);
                return Ok(text_of(&line));
            }
            self.pending.extend_from_slice(&self.chunk[..n]);
            // Ctrl-C typed as a byte: what came before it goes; what follows starts a new line.
            if let Some(at) = self.pending.iter().rposition(|&b| b == ETX) {
                self.pending.drain(..=at);
                return Err(ReadlineError::Interrupted);
            }
        }
    }

    /// Waits until the input can be read or a Ctrl-C came: which of them.
    fn wait(&self) -> io::Result<(bool, bool)> {
        let mut fds = [
            PollFd::new(self.input.as_fd(), PollFlags::POLLIN),
            PollFd::new(self.interrupts.as_fd(), PollFlags::POLLIN),
        ];
        loop {
            match poll(&mut fds, PollTimeout::NONE) {
                Ok(_) => break,
                // The signal's handler has written its byte: the next wait sees it.
                Err(Errno::EINTR) => continue,
                Err(errno) => return Err(errno.into()),
            }
        }
        // A hang-up or an error counts as ready: the read says which.
        let ready = |fd: &PollFd| fd.revents().is_none_or(|r| !r.is_empty());
        Ok((ready(&fds[0]), ready(&fds[1])))
    }

    fn forget_interrupts(&mut self) {
        let mut bytes = [0u8; 64];
        while matches!(self.interrupts.read(&mut bytes), Ok(n) if n > 0) {}
    }
}

/// A line's bytes as text, without the `\r` a terminal may leave before its end.
fn text_of(line: &[u8]) -> String {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    String::from_utf8_lossy(line).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// What a test's reader shows, kept to be read.
    #[derive(Clone, Default)]
    struct Shown(Arc<Mutex<Vec<u8>>>);

    impl Write for Shown {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().expect("not poisoned").extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Shown {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().expect("not poisoned")).into_owned()
        }
    }

    /// A reader on a socket standing for the terminal, with the ends a test types into and
    /// presses Ctrl-C on.
    fn reader() -> (PlainLines<UnixStream>, UnixStream, UnixStream, Shown) {
        let (input, typed) = UnixStream::pair().unwrap();
        let (interrupts, ctrl_c) = UnixStream::pair().unwrap();
        interrupts.set_nonblocking(true).unwrap();
        let shown = Shown::default();
        (PlainLines::with(input, Box::new(shown.clone()), interrupts), typed, ctrl_c, shown)
    }

    fn brackets(text: &str) -> bool {
        crate::script::open_brackets(text) > 0
    }

    #[test]
    fn a_line_goes_on_while_a_bracket_is_open() {
        let (mut lines, mut typed, _ctrl_c, shown) = reader();
        typed.write_all(b"let x = (1 +\r\n2)\nnext\n").unwrap();
        assert_eq!(lines.read("grognard> ", &brackets).unwrap(), "let x = (1 +\n2)");
        assert_eq!(lines.read("grognard> ", &brackets).unwrap(), "next");
        assert_eq!(shown.text(), "grognard> grognard> ");
        drop(typed);
        assert!(matches!(lines.read("grognard> ", &brackets), Err(ReadlineError::Eof)));
    }

    #[test]
    fn ctrl_c_drops_the_lines_read_of_an_open_bracket() {
        let (mut lines, mut typed, mut ctrl_c, shown) = reader();
        typed.write_all(b"let x = (1 +\n").unwrap();
        // The first line is read and waits for its bracket to close when Ctrl-C comes.
        let pressed = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            ctrl_c.write_all(&[1]).unwrap();
            // Kept open, as the signal's handler keeps its end.
            ctrl_c
        });
        let read = lines.read("grognard> ", &brackets);
        let _ctrl_c = pressed.join().unwrap();
        assert!(matches!(read, Err(ReadlineError::Interrupted)), "{read:?}");
        assert_eq!(shown.text(), "grognard> \n");
        // The next line stands alone.
        typed.write_all(b"let x = 7;\n").unwrap();
        assert_eq!(lines.read("grognard> ", &brackets).unwrap(), "let x = 7;");
    }

    #[test]
    fn a_ctrl_c_before_the_read_is_spent() {
        let (mut lines, mut typed, mut ctrl_c, _shown) = reader();
        // Pressed while a line ran: that line was stopped; the next read is not.
        ctrl_c.write_all(&[1, 1]).unwrap();
        typed.write_all(b"kept\n").unwrap();
        assert_eq!(lines.read("grognard> ", &brackets).unwrap(), "kept");
    }

    #[test]
    fn ctrl_c_typed_as_a_byte_drops_what_came_before_it() {
        // A terminal that does not signal (`stty -isig`) passes Ctrl-C on as a byte.
        let (mut lines, mut typed, _ctrl_c, _shown) = reader();
        typed.write_all(b"3/95\x03marker\n").unwrap();
        assert!(matches!(lines.read("name: ", &|_| false), Err(ReadlineError::Interrupted)));
        assert_eq!(lines.read("grognard> ", &brackets).unwrap(), "marker");
    }

    #[test]
    fn ctrl_d_after_some_text_ends_the_line() {
        let (mut lines, mut typed, _ctrl_c, _shown) = reader();
        typed.write_all("2d6 ≥".as_bytes()).unwrap();
        drop(typed);
        assert_eq!(lines.read("grognard> ", &brackets).unwrap(), "2d6 ≥");
        assert!(matches!(lines.read("grognard> ", &brackets), Err(ReadlineError::Eof)));
    }

    #[test]
    fn the_terminals_rustyline_cannot_drive() {
        for term in ["dumb", "DUMB", "emacs", "cons25"] {
            assert!(line_editor_cannot_drive(Some(term)), "{term}");
        }
        for term in [None, Some("xterm"), Some("xterm-256color"), Some("dumber"), Some("")] {
            assert!(!line_editor_cannot_drive(term), "{term:?}");
        }
    }
}
