//! Rendering diagnostics: fancy on a terminal, plain and stable for files, pipes and snapshots.
//! Every control character in what a diagnostic says is escaped before miette styles it
//! (`escaped_diagnostic`), so the only escape sequences in a report are its own colours.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

use super::escape::{escape, escape_keeping_colour};
use super::escaped_diagnostic::Escaped;

/// Renders a diagnostic as plain Unicode text, 80 columns wide, without colour:
/// what the command line prints when stderr is not a terminal, and what
/// snapshot tests compare.
pub fn render_plain(diagnostic: &dyn Diagnostic) -> String {
    let mut out = String::new();
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(80);
    // Writing into a String cannot fail.
    let _ = handler.render_report(&mut out, &Escaped::new(diagnostic));
    // Escaped already; this is the guard over anything miette itself might add.
    escape(&out).into_owned()
}

/// Whether to colour output: `--color auto|always|never`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour on a terminal, unless `NO_COLOR` is set (to anything but nothing) or `TERM` is `dumb`.
    #[default]
    Auto,
    /// Colour even into a file or a pipe.
    Always,
    /// Never colour.
    Never,
}

/// How diagnostics are drawn: plain for files, pipes and snapshots, or for a person at a
/// terminal, in colour or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Look {
    #[default]
    Plain,
    Terminal {
        color: bool,
    },
}

impl Look {
    /// The look for a stream that is a terminal or not, as `choice` and the environment say.
    pub fn for_stream(is_terminal: bool, choice: ColorChoice) -> Look {
        let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        let dumb = env("TERM").is_some_and(|t| t == "dumb");
        Look::decide(is_terminal, choice, env("NO_COLOR").is_some() || dumb)
    }

    /// The look, given whether the environment asks for no colour (`NO_COLOR`, `TERM=dumb`).
    fn decide(is_terminal: bool, choice: ColorChoice, no_color: bool) -> Look {
        match choice {
            ColorChoice::Always => Look::Terminal { color: true },
            _ if !is_terminal => Look::Plain,
            ColorChoice::Never => Look::Terminal { color: false },
            ColorChoice::Auto => Look::Terminal { color: !no_color },
        }
    }

    /// Whether colour may be used.
    pub fn color(self) -> bool {
        matches!(self, Look::Terminal { color: true })
    }
}

/// Renders a diagnostic in `look`.
pub fn render(diagnostic: &dyn Diagnostic, look: Look) -> String {
    match look {
        Look::Plain => render_plain(diagnostic),
        Look::Terminal { color } => render_for_terminal(diagnostic, color),
    }
}

/// Renders a diagnostic for a human at a terminal, in colour or not.
pub fn render_for_terminal(diagnostic: &dyn Diagnostic, color: bool) -> String {
    let mut out = String::new();
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let handler = GraphicalReportHandler::new_themed(theme);
    let _ = handler.render_report(&mut out, &Escaped::new(diagnostic));
    if color { escape_keeping_colour(&out).into_owned() } else { escape(&out).into_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Problem, source_file};

    /// A problem whose every part holds control characters, its source too.
    fn hostile() -> Problem {
        let file = source_file("t\x1b[2J.rhai", "let name = \"\x1b]0;PWNED\x07\";\r\nfoo(name);\r\n".to_string());
        Problem::error("script::runtime", "no function foo(\"\x1b]0;PWNED\x07\")", &file, (26, 3).into())
            .with_label("called here \u{9b}2J")
            .with_help("\x1b[31mred\x1b[0m help")
    }

    #[test]
    fn every_word_of_a_diagnostic_is_escaped_and_the_underline_still_points() {
        let plain = render_plain(&hostile());
        assert!(!plain.chars().any(|c| c.is_control() && c != '\n'), "{plain:?}");
        for shown in [
            r#"no function foo("\u{1b}]0;PWNED\u{7}")"#,
            r"t\u{1b}[2J.rhai:2:1",
            r#"let name = "\u{1b}]0;PWNED\u{7}";"#,
            r"called here \u{9b}2J",
            r"\u{1b}[31mred\u{1b}[0m help",
        ] {
            assert!(plain.contains(shown), "{shown} not in\n{plain}");
        }
        // The underline is under `foo`, on the line after the escaped one.
        let lines: Vec<&str> = plain.lines().collect();
        let at = lines.iter().position(|l| l.contains("foo(name);")).expect(&plain);
        let column = lines[at][..lines[at].find("foo").unwrap()].chars().count();
        let under: String = lines[at + 1].chars().skip(column).take(3).collect();
        assert_eq!(under, "─┬─", "{plain}");
    }

    #[test]
    fn in_colour_only_the_colours_are_escape_sequences() {
        let coloured = render_for_terminal(&hostile(), true);
        assert!(coloured.contains("\x1b["), "{coloured:?}");
        let mut rest = coloured.as_str();
        while let Some(at) = rest.find('\x1b') {
            let after = &rest[at + 1..];
            let end = after.find('m').expect("an SGR sequence");
            assert!(
                after.starts_with('[') && after[1..end].chars().all(|c| c.is_ascii_digit() || c == ';'),
                "{after:?}"
            );
            rest = &after[end + 1..];
        }
        assert!(!rest.chars().any(|c| c.is_control() && c != '\n'), "{rest:?}");
        assert!(coloured.contains(r"\u{1b}]0;PWNED\u{7}"), "{coloured}");
    }

    #[test]
    fn colour_follows_the_choice_the_stream_and_no_color() {
        use ColorChoice::*;
        // A terminal: colour unless NO_COLOR (or TERM=dumb) says no, or the user does.
        assert_eq!(Look::decide(true, Auto, false), Look::Terminal { color: true });
        assert_eq!(Look::decide(true, Auto, true), Look::Terminal { color: false });
        assert_eq!(Look::decide(true, Never, false), Look::Terminal { color: false });
        assert_eq!(Look::decide(true, Always, true), Look::Terminal { color: true });
        // A file or a pipe: plain, unless colour is asked for whatever the stream.
        assert_eq!(Look::decide(false, Auto, false), Look::Plain);
        assert_eq!(Look::decide(false, Never, false), Look::Plain);
        assert_eq!(Look::decide(false, Always, false), Look::Terminal { color: true });
    }
}
