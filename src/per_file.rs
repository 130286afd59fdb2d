//! The analysis of one file, bounded: parsed on a stack sized from its nesting bound, with
//! the items too deep for the budget left out, panics caught, and every place where a budget
//! ran out reported as `mcp_lint::analysis_incomplete`.

use crate::diagnostic::{FileId, Finding, Span};
use crate::model::{self, FileContext, FileModel};
use crate::source::{self, SourceFile};

/// A code for parts of a file that were not analysed because a budget ran out.
pub const ANALYSIS_INCOMPLETE: &str = "analysis_incomplete";

/// One file's model (or the one diagnostic that replaces it), and the parts left out.
pub struct Analysed {
    pub model: Result<FileModel, Box<Finding>>,
    pub incomplete: Vec<Finding>,
}

/// Parses and models `file` within the budgets.
pub fn analyse(cx: &FileContext<'_>, file: &SourceFile) -> Analysed {
    let prepared = source::prepare(&file.text);
    let mut incomplete: Vec<Finding> = prepared
        .too_deep
        .iter()
        .map(|segment| {
            let place = first_line(file, cx.file, segment.start, segment.end);
            Finding::new(
                ANALYSIS_INCOMPLETE,
                place,
                format!(
                    "this item was not analysed: it may nest up to {} levels deep, and parsing \
                     more than {} levels could exhaust the stack budget",
                    segment.bound,
                    source::max_levels()
                ),
            )
            .label("not analysed")
        })
        .collect();
    let stack = prepared.stack;
    let run = move || {
        let result = crate::isolate(|| {
            crate::inject_panic_for_tests(&file.display);
            let built = match syn::parse_file(&prepared.text) {
                Ok(ast) => Ok(model::build_file(cx, &ast)),
                Err(e) => Err(Box::new(parse_error(file, cx.file, &e))),
            };
            (built, crate::budget::take())
        });
        source::clear_span_cache();
        proc_macro2::extra::invalidate_current_thread_spans();
        result
    };
    let (model, stopped) = match source::on_stack(stack, run) {
        Ok(Ok((model, stopped))) => (model, stopped),
        Ok(Err(panic)) | Err(panic) => {
            let _ = crate::budget::take();
            (
                Err(Box::new(crate::internal_error(cx.file, &panic))),
                Vec::new(),
            )
        }
    };
    incomplete.extend(stopped.into_iter().map(|(mut place, reason)| {
        if place.file == usize::MAX {
            place.file = cx.file;
        }
        stopped_at(place, &reason)
    }));
    Analysed { model, incomplete }
}

/// The diagnostic for a pass that stopped at `place`.
pub fn stopped_at(place: Span, reason: &str) -> Finding {
    Finding::new(
        ANALYSIS_INCOMPLETE,
        place,
        format!("the analysis stopped here: {reason}"),
    )
    .label("analysis stopped")
}

fn parse_error(file: &SourceFile, id: FileId, e: &syn::Error) -> Finding {
    let span = source::span_of(id, e.span());
    let span = if span.start == 0 && span.end == 0 && !file.text.is_empty() {
        Span {
            file: id,
            start: file.text.len(),
            end: file.text.len(),
        }
    } else {
        span
    };
    Finding::new(
        crate::PARSE_ERROR,
        span,
        format!("this file could not be parsed, so it was not linted: {e}"),
    )
    .label(e.to_string())
}

/// The first line with code in `start..end`, as a span.
fn first_line(file: &SourceFile, id: FileId, start: usize, end: usize) -> Span {
    let text = file.text.get(start..end).unwrap_or("");
    let skip = text.len() - text.trim_start().len();
    let from = start + skip;
    let line_end = file.text[from..end.max(from)]
        .find('\n')
        .map_or(end, |i| from + i);
    Span {
        file: id,
        start: from,
        end: line_end.max(from),
    }
}
