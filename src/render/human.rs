//! miette's graphical report, one per finding.

use std::fmt;

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError,
    MietteSpanContents, Severity, SourceCode, SourceSpan, SpanContents,
};

use super::escape;
use crate::diagnostic::{Finding, Level, Span};
use crate::source::{SourceFile, SourceMap};

struct Report<'a> {
    finding: &'a Finding,
    message: String,
    source: Window,
    help: Option<String>,
    code: String,
}

/// The lines of a file a finding's spans cover, with one line of context each side and
/// control characters escaped: what miette is given instead of the whole file, so that
/// drawing a finding costs the size of its lines, not of its file.
struct Window {
    name: String,
    text: String,
    /// 0-based number of the window's first line in the file.
    first_line: usize,
    /// Byte of the file where the window starts.
    start: usize,
    /// Per byte of the file from `start` (and one past the window): its byte in `text`;
    /// empty when nothing was escaped (the same byte).
    map: Vec<usize>,
}

/// Windows over this many bytes are not drawn: the finding is printed in the short form.
const MAX_WINDOW: usize = 16 * 1024;

impl Window {
    fn new(file: &SourceFile, spans: &[Span]) -> Option<Window> {
        let first = spans.iter().map(|s| file.line_col(s.start).0).min()?;
        let last = spans.iter().map(|s| file.line_col(s.end).0).max()?;
        let first_line = first.saturating_sub(2);
        let start = file.line_start(first_line + 1);
        let end = file.line_start(last + 2).max(start);
        let raw = file.text().get(start..end)?;
        if raw.len() > MAX_WINDOW {
            return None;
        }
        let name = escape::one_line(&file.display).into_owned();
        if !raw.contains(['\t', '\r']) && !escape::may_need_escapes(raw) {
            // Nothing to escape: the window is the text itself, offsets shift by `start`.
            return Some(Window {
                name,
                text: raw.to_string(),
                first_line,
                start,
                map: Vec::new(),
            });
        }
        let mut text = String::with_capacity(raw.len());
        let mut map = Vec::with_capacity(raw.len() + 1);
        for c in raw.chars() {
            let at = text.len();
            map.extend(std::iter::repeat_n(at, c.len_utf8()));
            match c {
                '\t' => text.push_str("    "),
                '\r' => {}
                _ => text.push_str(&escape::control(c.encode_utf8(&mut [0; 4]))),
            }
        }
        map.push(text.len());
        Some(Window {
            name,
            text,
            first_line,
            start,
            map,
        })
    }

    /// A span of the file as a span of the window.
    fn place(&self, span: Span) -> SourceSpan {
        let at = |byte: usize| {
            let i = byte.saturating_sub(self.start);
            if self.map.is_empty() {
                return i.min(self.text.len());
            }
            self.map[i.min(self.map.len() - 1)]
        };
        let (a, b) = (at(span.start), at(span.end));
        SourceSpan::from(a..b.max(a))
    }
}

impl SourceCode for Window {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.as_str().read_span(span, before, after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            inner.column(),
            // miette counts the lines up to the end of the span from the top of the source,
            // and merges snippets by it: count from the top of the file.
            inner.line_count() + self.first_line,
        )))
    }
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report<'_> {}

impl Diagnostic for Report<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<Severity> {
        Some(match self.finding.level {
            Level::Deny => Severity::Error,
            _ => Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let f = self.finding;
        let primary = LabeledSpan::new_primary_with_span(
            Some(escape::control(&f.label).into_owned()).filter(|l| !l.is_empty()),
            self.source.place(f.span),
        );
        let secondary = f
            .labels
            .iter()
            .filter(|l| l.span.file == f.span.file)
            .map(|l| {
                LabeledSpan::new_with_span(
                    Some(escape::control(&l.text).into_owned()),
                    self.source.place(l.span),
                )
            });
        Some(Box::new(std::iter::once(primary).chain(secondary)))
    }
}

/// Renders findings; `color` picks the theme.
pub fn render(sources: &SourceMap, findings: &[&Finding], color: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_width(100)
        .with_wrap_lines(false);
    let mut out = String::new();
    for finding in findings {
        out.push_str(&render_one(&handler, sources, finding));
        out.push('\n');
    }
    out
}

pub fn render_plain(sources: &SourceMap, finding: &Finding) -> String {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_links(false)
        .with_width(100)
        .with_wrap_lines(false);
    render_one(&handler, sources, finding)
}

/// One finding drawn by miette; when it cannot be drawn (a window too large, a panic in the
/// drawing), in the short form. Either way with source text defused.
fn render_one(handler: &GraphicalReportHandler, sources: &SourceMap, finding: &Finding) -> String {
    let drawn = crate::isolate(|| draw(handler, sources, finding))
        .ok()
        .flatten();
    let text = drawn.unwrap_or_else(|| short_form(sources, finding));
    escape::workflow_commands(&text).into_owned()
}

fn short_form(sources: &SourceMap, finding: &Finding) -> String {
    let file = sources.get(finding.span.file);
    let (line, col) = file.line_col(finding.span.start);
    format!(
        "{}[{}]: {}\n  --> {}:{line}:{col}\n",
        finding.level.rustc_level(),
        finding.code(),
        escape::one_line(&finding.message),
        escape::one_line(&file.display)
    )
}

fn draw(
    handler: &GraphicalReportHandler,
    sources: &SourceMap,
    finding: &Finding,
) -> Option<String> {
    let file = sources.get(finding.span.file);
    let mut help = String::new();
    if let Some(h) = &finding.help {
        help.push_str(&h.message);
        // Show the edit as code, like rustc's "help: try" lines.
        for edit in &h.edits {
            let replaced = file.snippet(edit.span);
            if replaced.is_empty() {
                help.push_str(&format!("\n    insert: {}", edit.replacement));
            } else if replaced.contains('\n') || replaced.len() > 60 {
                help.push_str(&format!("\n    → {}", edit.replacement));
            } else {
                help.push_str(&format!("\n    {replaced} → {}", edit.replacement));
            }
        }
    }
    for note in &finding.notes {
        if !help.is_empty() {
            help.push('\n');
        }
        help.push_str("note: ");
        help.push_str(note);
    }
    let mut spans = vec![finding.span];
    spans.extend(
        finding
            .labels
            .iter()
            .filter(|l| l.span.file == finding.span.file)
            .map(|l| l.span),
    );
    let report = Report {
        finding,
        message: escape::control(&finding.message).into_owned(),
        source: Window::new(file, &spans)?,
        help: (!help.is_empty()).then(|| escape::control(&help).into_owned()),
        code: finding.code(),
    };
    let mut out = String::new();
    handler.render_report(&mut out, &report).ok()?;
    Some(out)
}
