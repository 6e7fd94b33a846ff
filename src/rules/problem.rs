//! `Problem`: one thing wrong (or doubtful) in a rule file, pointing at its file, line and column.

use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource, Severity, SourceCode, SourceSpan};

/// A rule file's text, shared by every problem found in it.
pub type SourceFile = Arc<NamedSource<String>>;

/// Reads a file into a shareable source, named by its path as the user wrote it.
pub fn source_file(name: &str, text: String) -> SourceFile {
    Arc::new(NamedSource::new(name, text).with_language("yaml"))
}

/// One problem in a ruleset. Errors make `grognard check` fail; warnings do not.
#[derive(Clone)]
pub struct Problem {
    /// Stable, namespaced code: `rules::unknown_table`, `rules::band_gap`...
    pub code: &'static str,
    pub message: String,
    pub file: Option<SourceFile>,
    pub span: Option<SourceSpan>,
    pub label: String,
    pub help: Option<String>,
    pub severity: Severity,
}

impl Problem {
    /// A problem from a diagnostic about text that starts at `at` in `file` (a dice
    /// expression in a table, say): its first label moved into the file, its help kept.
    pub fn within(file: &SourceFile, code: &'static str, at: SourceSpan, err: &dyn Diagnostic) -> Problem {
        let label = err.labels().and_then(|mut l| l.next());
        let (span, text) = match label {
            Some(l) => ((at.offset() + l.offset(), l.len()).into(), l.label().unwrap_or_default().to_string()),
            None => (at, String::new()),
        };
        let mut problem = Problem::error(code, err.to_string(), file, span).with_label(text);
        if let Some(help) = err.help() {
            problem = problem.with_help(help.to_string());
        }
        problem
    }

    /// An error at `span` in `file`.
    pub fn error(code: &'static str, message: impl Into<String>, file: &SourceFile, span: SourceSpan) -> Self {
        Problem {
            code,
            message: message.into(),
            file: Some(file.clone()),
            span: Some(span),
            label: String::new(),
            help: None,
            severity: Severity::Error,
        }
    }

    /// An error that belongs to no place in a file (a missing folder...).
    pub fn general(code: &'static str, message: impl Into<String>) -> Self {
        Problem {
            code,
            message: message.into(),
            file: None,
            span: None,
            label: String::new(),
            help: None,
            severity: Severity::Error,
        }
    }

    /// The same problem as a warning.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    /// Words under the underline.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// The same problem, said another way.
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    /// A hint on how to fix it.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Whether this problem makes the ruleset unusable.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col`, for one-line summaries and tests.
    pub fn place(&self) -> String {
        let (Some(file), Some(span)) = (&self.file, self.span) else {
            return String::new();
        };
        let text = file.inner();
        let offset = span.offset().min(text.len());
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{}:{line}:{column}", file.name())
    }
}

impl fmt::Debug for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} at {}", self.code, self.message, self.place())
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Problem {}

impl Diagnostic for Problem {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.file.as_deref().map(|f| f as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.span?;
        let label = (!self.label.is_empty()).then(|| self.label.clone());
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(label, span))))
    }
}

/// Every problem found in a ruleset: the error `load` returns when any of them is an error.
#[derive(Debug, Clone)]
pub struct Problems(pub Vec<Problem>);

impl Problems {
    /// How many errors and how many warnings.
    pub fn counts(&self) -> (usize, usize) {
        let errors = self.0.iter().filter(|p| p.is_error()).count();
        (errors, self.0.len() - errors)
    }
}

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (errors, warnings) = self.counts();
        write!(f, "{errors} error{} and {warnings} warning{} in the rules", plural(errors), plural(warnings))
    }
}

impl std::error::Error for Problems {}

/// The most problems a report shows (`grognard check --max-problems` shows more): the first
/// say what is wrong, and a table of thousands of overlapping bands would print for minutes.
pub const SHOWN_PROBLEMS: usize = 50;

impl Diagnostic for Problems {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("rules::invalid"))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let more = self.0.len().checked_sub(SHOWN_PROBLEMS).filter(|&n| n > 0)?;
        Some(Box::new(format!(
            "… and {more} more problem{} ({SHOWN_PROBLEMS} shown; `grognard check --max-problems N` shows more)",
            plural(more)
        )))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        Some(Box::new(self.0.iter().take(SHOWN_PROBLEMS).map(|p| p as &dyn Diagnostic)))
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A place in a rule file.
#[derive(Clone, Debug)]
pub struct Origin {
    pub file: SourceFile,
    pub span: miette::SourceSpan,
}

/// ` (did you mean `x`?)` when a known word is close to `word`, else nothing.
pub fn did_you_mean<'a>(word: &str, known: impl Iterator<Item = &'a str>) -> String {
    let set: std::collections::BTreeSet<String> = known.map(str::to_string).collect();
    match crate::unit::Vocabulary::closest(&set, word) {
        Some(close) => format!(" (did you mean `{close}`?)"),
        None => String::new(),
    }
}
