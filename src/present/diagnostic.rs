//! Rendering diagnostics: fancy on a terminal, plain and stable for files, pipes and snapshots.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

/// Renders a diagnostic as plain Unicode text, 80 columns wide, without colour:
/// what the command line prints when stderr is not a terminal, and what
/// snapshot tests compare.
pub fn render_plain(diagnostic: &dyn Diagnostic) -> String {
    let mut out = String::new();
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(80);
    // Writing into a String cannot fail.
    let _ = handler.render_report(&mut out, diagnostic);
    out
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
    let _ = handler.render_report(&mut out, diagnostic);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
