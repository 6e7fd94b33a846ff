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

/// The one choice between the two: fancy for a person at a terminal, plain otherwise.
pub fn render(diagnostic: &dyn Diagnostic, fancy: bool) -> String {
    if fancy { render_for_terminal(diagnostic) } else { render_plain(diagnostic) }
}

/// Renders a diagnostic for a human at a terminal (colours when the terminal has them).
pub fn render_for_terminal(diagnostic: &dyn Diagnostic) -> String {
    let mut out = String::new();
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode());
    let _ = handler.render_report(&mut out, diagnostic);
    out
}
