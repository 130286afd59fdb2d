//! Output formats. Renderers know findings, spans and levels, never specific lints.

pub mod escape;
pub mod github;
pub mod human;
pub mod json;
pub mod sarif;
pub mod short;
pub mod targets;

use crate::diagnostic::{Finding, Span};
use crate::source::SourceMap;
use crate::workspace::Package;

/// A finding with what renderers need to place it.
pub struct Placed<'a> {
    pub finding: &'a Finding,
    pub package: Option<&'a Package>,
}

/// Line and column range of a span, 1-based, columns in characters.
pub struct Location {
    pub line_start: usize,
    pub column_start: usize,
    pub line_end: usize,
    pub column_end: usize,
}

pub fn locate(sources: &SourceMap, span: Span) -> Location {
    let file = sources.get(span.file);
    let (line_start, column_start) = file.line_col(span.start);
    let (line_end, column_end) = file.line_col(span.end);
    Location {
        line_start,
        column_start,
        line_end,
        column_end,
    }
}
