//! A diagnostic with every control character in what it says escaped: its message, labels,
//! help, causes, related problems, and the source it quotes (the underlines moved to match), so
//! that miette styles only safe text and its own colours are the only escapes left in a report.

use std::error::Error;
use std::fmt;

use miette::{Diagnostic, LabeledSpan, NamedSource, Severity, SourceCode, SourceSpan};

use super::escape::{escape, is_hidden_control};

/// `inner`, as it may be shown on a terminal.
pub(super) struct Escaped<'a> {
    inner: Inner<'a>,
    /// The source quoted, escaped, when it holds a control character; else the inner's is used.
    source: Option<EscapedSource>,
    cause: Option<Box<Escaped<'a>>>,
    related: Vec<Escaped<'a>>,
}

#[derive(Clone, Copy)]
enum Inner<'a> {
    Diagnostic(&'a dyn Diagnostic),
    /// A cause that is no diagnostic: only its message is shown.
    Error(&'a dyn Error),
}

impl<'a> Escaped<'a> {
    pub(super) fn new(diagnostic: &'a dyn Diagnostic) -> Self {
        Escaped::within(Inner::Diagnostic(diagnostic), None)
    }

    /// `inner`, whose labels point into `parent`'s source when it has none of its own (as miette reads them).
    fn within(inner: Inner<'a>, parent: Option<&'a dyn SourceCode>) -> Self {
        let (own, cause, related) = match inner {
            Inner::Diagnostic(d) => {
                let own = d.source_code().or(parent);
                let cause = match d.diagnostic_source() {
                    Some(next) => Some(Inner::Diagnostic(next)),
                    None => d.source().map(|e| Inner::Error(e as &dyn Error)),
                };
                let related = d.related().map(|r| r.collect::<Vec<_>>()).unwrap_or_default();
                (own, cause, related)
            }
            Inner::Error(e) => (None, e.source().map(|e| Inner::Error(e as &dyn Error)), Vec::new()),
        };
        Escaped {
            inner,
            source: own.and_then(EscapedSource::of),
            cause: cause.map(|c| Box::new(Escaped::within(c, own))),
            related: related.into_iter().map(|r| Escaped::within(Inner::Diagnostic(r), own)).collect(),
        }
    }

    fn diagnostic(&self) -> Option<&'a dyn Diagnostic> {
        match self.inner {
            Inner::Diagnostic(d) => Some(d),
            Inner::Error(_) => None,
        }
    }
}

fn escaped_box<'b>(text: Option<Box<dyn fmt::Display + 'b>>) -> Option<Box<dyn fmt::Display + 'b>> {
    text.map(|t| Box::new(escape(&t.to_string()).into_owned()) as Box<dyn fmt::Display>)
}

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = match self.inner {
            Inner::Diagnostic(d) => d.to_string(),
            Inner::Error(e) => e.to_string(),
        };
        f.write_str(&escape(&message))
    }
}

impl fmt::Debug for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Escaped({self})")
    }
}

// Causes are given as diagnostics (`diagnostic_source`), escaped, and none as a plain error.
impl Error for Escaped<'_> {}

impl Diagnostic for Escaped<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        escaped_box(self.diagnostic()?.code())
    }

    fn severity(&self) -> Option<Severity> {
        self.diagnostic()?.severity()
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        escaped_box(self.diagnostic()?.help())
    }

    fn url<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        escaped_box(self.diagnostic()?.url())
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        match &self.source {
            Some(source) => Some(source.code()),
            None => self.diagnostic()?.source_code(),
        }
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let labels = self.diagnostic()?.labels()?;
        Some(Box::new(labels.map(|label| {
            let span = match &self.source {
                Some(source) => source.moved(*label.inner()),
                None => *label.inner(),
            };
            let text = label.label().map(|l| escape(l).into_owned());
            if label.primary() {
                LabeledSpan::new_primary_with_span(text, span)
            } else {
                LabeledSpan::new_with_span(text, span)
            }
        })))
    }

    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn Diagnostic> + 'b>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(self.related.iter().map(|r| r as &dyn Diagnostic)))
    }

    fn diagnostic_source(&self) -> Option<&dyn Diagnostic> {
        self.cause.as_deref().map(|c| c as &dyn Diagnostic)
    }
}

/// A source with its control characters escaped, and where each was, to move spans by.
struct EscapedSource {
    code: Code,
    /// Each control character escaped: where it was, and how many bytes more it takes now.
    grown: Vec<(usize, usize)>,
}

enum Code {
    Named(NamedSource<String>),
    Plain(String),
}

impl EscapedSource {
    /// `source` escaped, when it holds a control character (none when it holds none, or is no UTF-8).
    fn of(source: &dyn SourceCode) -> Option<EscapedSource> {
        // From the start to the end, whatever the lines: the whole text.
        let whole = source.read_span(&SourceSpan::from((0, 0)), 0, usize::MAX).ok()?;
        let text = std::str::from_utf8(whole.data()).ok()?;
        if !text.chars().any(is_hidden_control) {
            return None;
        }
        let mut escaped = String::with_capacity(text.len() + 16);
        let mut grown = Vec::new();
        let mut chars = text.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            // A line ended by CRLF is no overwritten line: miette reads it as a line break.
            let crlf = c == '\r' && chars.peek().is_some_and(|(_, next)| *next == '\n');
            if is_hidden_control(c) && !crlf {
                let before = escaped.len();
                escaped.extend(c.escape_debug());
                grown.push((at, escaped.len() - before - c.len_utf8()));
            } else {
                escaped.push(c);
            }
        }
        let code = match whole.name() {
            Some(name) => {
                let named = NamedSource::new(name, escaped);
                Code::Named(match whole.language() {
                    Some(language) => named.with_language(language),
                    None => named,
                })
            }
            None => Code::Plain(escaped),
        };
        Some(EscapedSource { code, grown })
    }

    fn code(&self) -> &dyn SourceCode {
        match &self.code {
            Code::Named(named) => named,
            Code::Plain(plain) => plain,
        }
    }

    /// Where an offset of the original text is in the escaped one.
    fn offset(&self, offset: usize) -> usize {
        offset + self.grown.iter().take_while(|(at, _)| *at < offset).map(|(_, more)| more).sum::<usize>()
    }

    /// A span of the original text, over the same characters in the escaped one.
    fn moved(&self, span: SourceSpan) -> SourceSpan {
        let start = self.offset(span.offset());
        let end = self.offset(span.offset() + span.len());
        (start, end - start).into()
    }
}
