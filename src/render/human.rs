//! miette's graphical report, one per finding.

use std::fmt;

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, Severity,
    SourceSpan,
};

use crate::diagnostic::{Finding, Level};
use crate::source::SourceMap;

struct Report<'a> {
    finding: &'a Finding,
    source: NamedSource<String>,
    help: Option<String>,
    code: String,
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.finding.message)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.finding.message)
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
            Some(f.label.clone()).filter(|l| !l.is_empty()),
            SourceSpan::from(f.span.start..f.span.end),
        );
        let secondary = f
            .labels
            .iter()
            .filter(|l| l.span.file == f.span.file)
            .map(|l| {
                LabeledSpan::new_with_span(
                    Some(l.text.clone()),
                    SourceSpan::from(l.span.start..l.span.end),
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

fn render_one(handler: &GraphicalReportHandler, sources: &SourceMap, finding: &Finding) -> String {
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
    let report = Report {
        finding,
        source: NamedSource::new(file.display.clone(), file.text.clone()),
        help: (!help.is_empty()).then_some(help),
        code: finding.code(),
    };
    let mut out = String::new();
    if handler.render_report(&mut out, &report).is_err() {
        out = format!("{}: {}\n", finding.code(), finding.message);
    }
    out
}
