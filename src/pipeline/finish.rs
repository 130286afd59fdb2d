//! The last stage of a run: input findings at their packages' levels, suppression comments
//! applied, and the findings sorted.

use std::collections::HashMap;

use super::{Found, Job, Levels};
use crate::config::{self, Config};
use crate::diagnostic::{FileId, Level};
use crate::source::SourceMap;
use crate::{IO_ERROR, PARSE_ERROR};

/// `parse_error` and `io_error` at the level their package configures (or the command line,
/// for files outside any package); allowed ones are dropped.
pub(super) fn input_levels(
    findings: &mut Found,
    package_levels: &[Levels],
    flags: &config::LevelFlags,
) {
    let unpackaged = config::resolve_levels(&Config::default(), flags, &crate::lints::CODES);
    findings.retain_mut(|(f, package)| {
        if f.lint != PARSE_ERROR && f.lint != IO_ERROR {
            return true;
        }
        let levels = package
            .and_then(|p| package_levels.get(p))
            .unwrap_or(&unpackaged);
        f.level = levels.get(f.lint).copied().unwrap_or(Level::Warn);
        f.level > Level::Allow
    });
}

/// Applies suppression comments, in every file that has findings or directives.
pub(super) fn suppress(
    findings: &mut Found,
    items: &HashMap<FileId, Vec<(usize, usize)>>,
    sources: &SourceMap,
    jobs: &[Job],
    levels: &[Levels],
) {
    let mut directives = HashMap::new();
    // Files that were parsed but not lowered have no item ranges: their directives apply
    // line-wise.
    for job in jobs {
        let file = sources.get(job.file);
        // A file without directives may be released; one with them never is.
        if file.is_held() && super::files::has_directives(file.text()) {
            let ranges = items.get(&job.file).map_or(&[][..], Vec::as_slice);
            directives.insert(
                job.file,
                crate::suppress::directives(file, job.file, ranges),
            );
        }
    }
    let mut manifests_seen = std::collections::HashSet::new();
    for (f, _) in findings.iter() {
        let file = sources.get(f.span.file);
        if file.path.extension().is_some_and(|e| e == "toml")
            && manifests_seen.insert(f.span.file)
            && super::files::has_directives(file.text())
        {
            directives.insert(
                f.span.file,
                crate::suppress::directives(file, f.span.file, &[]),
            );
        }
    }
    let package_of: HashMap<FileId, usize> = jobs
        .iter()
        .map(|j| (j.file, j.package))
        .chain(
            findings
                .iter()
                .filter_map(|(f, p)| p.map(|p| (f.span.file, p))),
        )
        .collect();
    crate::suppress::apply(
        findings,
        &directives,
        &|file| package_of.get(&file).map(|&p| (p, levels[p].clone())),
        &|span| sources.get(span.file).line_col(span.start).0,
    );
}

/// By path, then position; one finding per span and lint.
pub(super) fn sort(findings: &mut Found, sources: &SourceMap) {
    findings.sort_by(|(a, _), (b, _)| {
        let pa = &sources.get(a.span.file).display;
        let pb = &sources.get(b.span.file).display;
        (pa, a.span.start, a.span.end, a.lint).cmp(&(pb, b.span.start, b.span.end, b.lint))
    });
    findings.dedup_by(|(a, _), (b, _)| a.span == b.span && a.lint == b.lint);
}
