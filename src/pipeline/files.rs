//! Reading a run's inputs: the files of every package in parallel (each through the safe
//! reader), the entries skipped while walking, and the manifests whose profiles set
//! `panic = "abort"`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{Found, Job};
use crate::IO_ERROR;
use crate::diagnostic::{FileId, Finding, Level, Span};
use crate::lints::cx::AbortSetting;
use crate::source::{SourceFile, SourceMap};
use crate::workspace::{self, Workspace};
use crate::{model, read, sdk};

/// Files skipped while walking the tree (symbolic links, broken manifests).
pub(super) fn skipped_files(workspace: &Workspace, sources: &mut SourceMap, level: Level) -> Found {
    let mut findings = Vec::new();
    for (path, message) in &workspace.skipped {
        let id = sources.add(SourceFile::new(
            path.clone(),
            display_path(&workspace.root, path),
            String::new(),
        ));
        let mut f = Finding::new(IO_ERROR, empty_span(id), format!("skipped: {message}"));
        f.level = level.max(Level::Warn);
        findings.push((f, None));
    }
    findings
}

pub(super) fn empty_span(file: FileId) -> Span {
    Span {
        file,
        start: 0,
        end: 0,
    }
}

/// Reads every file in parallel: its text, the path shown to users, its module path.
pub(super) fn read_files(
    workspace: &Workspace,
    pool: &rayon::ThreadPool,
    sources: &mut SourceMap,
    findings: &mut Found,
    level: Level,
) -> Vec<Job> {
    let root = canonical(&workspace.root);
    let package_roots: Vec<PathBuf> = workspace
        .packages
        .iter()
        .map(|p| canonical(p.root()))
        .collect();
    let to_read: Vec<(usize, &PathBuf)> = workspace
        .packages
        .iter()
        .enumerate()
        .flat_map(|(pi, p)| p.files.iter().map(move |f| (pi, f)))
        .collect();
    // Directories are resolved once each: files share them, and resolving costs syscalls.
    let mut dirs: Vec<&Path> = to_read.iter().filter_map(|(_, f)| f.parent()).collect();
    dirs.sort();
    dirs.dedup();
    let resolved: HashMap<&Path, PathBuf> = pool.install(|| {
        dirs.par_iter()
            .map(|d| {
                let dir = if d.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    d
                };
                (*d, canonical(dir))
            })
            .collect()
    });
    let absolute_of = |path: &Path| match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => resolved
            .get(dir)
            .map_or_else(|| canonical(path), |d| d.join(name)),
        _ => canonical(path),
    };
    let read: Vec<(String, Vec<model::ir::Name>, Result<Read, String>)> = pool.install(|| {
        to_read
            .par_iter()
            .map(|&(pi, path)| {
                let package = &workspace.packages[pi];
                let absolute = absolute_of(path);
                let relative = absolute
                    .strip_prefix(&package_roots[pi])
                    .unwrap_or(&absolute);
                let mut module = vec![model::ir::Name::from(package.name.replace('-', "_"))];
                module.extend(model::module_of(relative));
                // Each text is looked at as it is read, and only those with suppression
                // comments (read at the end of the run) are kept: the others are read again
                // when their package is lowered, so the run never holds the whole tree's.
                let source = text_of(workspace, path).map(|text| {
                    let hints = sdk::SourceHints::of(&text);
                    (hints, has_directives(&text).then_some(text))
                });
                let display = absolute
                    .strip_prefix(&root)
                    .unwrap_or(&absolute)
                    .to_string_lossy()
                    .replace('\\', "/");
                (display, module, source)
            })
            .collect()
    });
    let mut jobs = Vec::new();
    for ((pi, path), (display, module, source)) in to_read.iter().zip(read) {
        match source {
            Ok((hints, kept)) => {
                let source = match kept {
                    Some(text) => SourceFile::new((*path).clone(), display, text),
                    None => SourceFile::set_aside((*path).clone(), display),
                };
                let id = sources.add(source.with_fix_root(package_roots[*pi].clone()));
                jobs.push(Job {
                    package: *pi,
                    file: id,
                    module,
                    hints,
                });
            }
            Err(message) => {
                let id = sources.add(SourceFile::new((*path).clone(), display, String::new()));
                let mut f = Finding::new(IO_ERROR, empty_span(id), message);
                f.level = level.max(Level::Warn);
                findings.push((f, Some(*pi)));
            }
        }
    }
    jobs
}

/// What reading a file keeps: its hints, and its text when it has suppression comments.
type Read = (sdk::SourceHints, Option<String>);

/// Whether a file's text has a suppression comment.
pub(super) fn has_directives(text: &str) -> bool {
    text.contains("mcp-lint:")
}

/// A source file's text: the one in memory for it (a `--fix` round's), else the file's.
fn text_of(workspace: &Workspace, path: &Path) -> Result<String, String> {
    match workspace.overlay.get(path) {
        Some(text) => Ok(text.clone()),
        None => read_source(path),
    }
}

/// Reads again the text of each of `files` not held. A file that can no longer be read
/// (removed or replaced since the first read) is held empty, with an `io_error`.
pub(super) fn hold_texts(
    workspace: &Workspace,
    pool: &rayon::ThreadPool,
    sources: &mut SourceMap,
    files: &[FileId],
    level: Level,
) -> Found {
    let unread: Vec<FileId> = files
        .iter()
        .copied()
        .filter(|&f| !sources.get(f).is_held())
        .collect();
    let texts: Vec<Result<String, String>> = pool.install(|| {
        unread
            .par_iter()
            .map(|&f| text_of(workspace, &sources.get(f).path))
            .collect()
    });
    let mut findings = Vec::new();
    for (file, text) in unread.into_iter().zip(texts) {
        let text = text.unwrap_or_else(|message| {
            let mut f = Finding::new(IO_ERROR, empty_span(file), message);
            f.level = level.max(Level::Warn);
            findings.push((f, None));
            String::new()
        });
        sources.files[file].hold(text);
    }
    findings
}

/// Per package, the `panic = "abort"` settings of the manifest whose profiles apply; each such
/// manifest is added to the sources once, so findings can point into it.
pub(super) fn abort_settings(
    workspace: &Workspace,
    sources: &mut SourceMap,
) -> Vec<Vec<AbortSetting>> {
    let mut manifests: HashMap<PathBuf, Vec<AbortSetting>> = HashMap::new();
    workspace
        .packages
        .iter()
        .map(|package| {
            let path = &package.profile_manifest;
            if let Some(settings) = manifests.get(path) {
                return settings.clone();
            }
            let text = read::regular_file(path).unwrap_or_default();
            let found = workspace::panic_abort_settings(&text);
            let settings: Vec<AbortSetting> = if found.is_empty() {
                Vec::new()
            } else {
                let display = display_path(&workspace.root, path);
                let source = SourceFile::new(path.clone(), display, text)
                    .with_fix_root(canonical(&workspace.root));
                let file = sources.add(source);
                found
                    .into_iter()
                    .map(|(profile, range)| AbortSetting {
                        profile,
                        span: Span {
                            file,
                            start: range.start,
                            end: range.end,
                        },
                    })
                    .collect()
            };
            manifests.insert(path.clone(), settings.clone());
            settings
        })
        .collect()
}

pub(super) fn read_source(path: &Path) -> Result<String, String> {
    read::regular_file(path).map_err(|e| e.to_string())
}

pub(super) fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

pub fn display_path(root: &Path, path: &Path) -> String {
    let root = canonical(root);
    // The directory is resolved, not the file: a symbolic link keeps its own name.
    let abs = match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => canonical(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        })
        .join(name),
        _ => canonical(path),
    };
    let shown = abs.strip_prefix(&root).unwrap_or(&abs);
    shown.to_string_lossy().replace('\\', "/")
}
