//! `--fix` and `--diff`: apply the edits findings carry, safely.
//!
//! Only `MachineApplicable` edits are applied unless `--unsafe-fixes` also allows the
//! `MaybeIncorrect` ones. Per file, overlapping edits are skipped, the result must still parse
//! (Rust files), the file must not have changed since it was read, and the write is atomic
//! (a temporary file in the same directory, then a rename). The run applies fixes in passes,
//! re-linting in memory between them, until no fix is left (see `driver`).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::diagnostic::{Applicability, Edit, FileId, Finding};
use crate::source::SourceMap;

/// Which flag applies a finding's fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fixability {
    /// `--fix` (`MachineApplicable`).
    Safe,
    /// `--fix --unsafe-fixes` only (`MaybeIncorrect`).
    Unsafe,
}

/// Whether `--fix` can apply a finding's edits: it has some, all in one file, and none has
/// placeholders.
pub fn fixability(finding: &Finding) -> Option<Fixability> {
    let help = finding.help.as_ref()?;
    let file = help.edits.first()?.span.file;
    if help.edits.iter().any(|e| e.span.file != file) {
        return None;
    }
    match help.applicability {
        Applicability::MachineApplicable => Some(Fixability::Safe),
        Applicability::MaybeIncorrect => Some(Fixability::Unsafe),
        Applicability::HasPlaceholders => None,
    }
}

/// The edits to make, per file.
pub fn collect(findings: &[&Finding], unsafe_fixes: bool) -> BTreeMap<FileId, Vec<Edit>> {
    let mut per_file: BTreeMap<FileId, Vec<Edit>> = BTreeMap::new();
    for f in findings {
        let allowed = match fixability(f) {
            Some(Fixability::Safe) => true,
            Some(Fixability::Unsafe) => unsafe_fixes,
            None => false,
        };
        if let (true, Some(help)) = (allowed, &f.help)
            && let Some(first) = help.edits.first()
        {
            let edits = help.edits.iter().cloned();
            per_file.entry(first.span.file).or_default().extend(edits);
        }
    }
    per_file
}

/// `text` with `edits` applied; overlapping edits after the first are skipped.
pub fn apply_edits(text: &str, edits: &[Edit]) -> (String, usize) {
    let mut edits: Vec<&Edit> = edits.iter().collect();
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    edits.dedup_by(|a, b| a.span == b.span && a.replacement == b.replacement);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut applied = 0;
    for edit in edits {
        if edit.span.start < at || edit.span.end > text.len() {
            continue;
        }
        let (Some(before), Some(_)) = (
            text.get(at..edit.span.start),
            text.get(edit.span.start..edit.span.end),
        ) else {
            continue;
        };
        out.push_str(before);
        out.push_str(&edit.replacement);
        at = edit.span.end;
        applied += 1;
    }
    out.push_str(text.get(at..).unwrap_or(""));
    (out, applied)
}

/// The fix of one file: its new text, or why it is refused.
pub struct Plan {
    pub file: FileId,
    pub applied: usize,
    pub fixed: String,
    /// Why the file is left as it is (the fixed text would not parse).
    pub refused: Option<String>,
}

/// The fixed text of every file whose edits change it; nothing is written.
pub fn plan(sources: &SourceMap, edits: &BTreeMap<FileId, Vec<Edit>>) -> Vec<Plan> {
    let mut plans = Vec::new();
    for (&file, list) in edits {
        let source = sources.get(file);
        let (fixed, applied) = apply_edits(source.text(), list);
        if applied == 0 || fixed == source.text() {
            continue;
        }
        let is_rust = source.path.extension().is_some_and(|e| e == "rs");
        let refused = if is_rust {
            crate::source::parse_isolated(&fixed)
                .err()
                .map(|e| format!("the fixed file would not parse ({e}); left unchanged"))
        } else {
            None
        };
        plans.push(Plan {
            file,
            applied,
            fixed,
            refused,
        });
    }
    plans
}

/// Replaces the content `expected` of the regular file `path`, under `root`, by `new`. Refuses
/// links, files outside `root`, read-only files and files changed since they were read. The
/// new content goes to a fresh temporary file beside the target (created exclusively under an
/// unpredictable name, so a planted link cannot redirect the write), gets the target's mode
/// and owner, then replaces the target by a rename.
pub fn write_in_place(
    path: &Path,
    root: Option<&Path>,
    expected: &str,
    new: &str,
) -> Result<(), String> {
    let meta = std::fs::symlink_metadata(path)
        .map_err(|e| format!("cannot read it again: {e}; left unchanged"))?;
    if meta.file_type().is_symlink() {
        return Err("it is a symbolic link; left unchanged".into());
    }
    if !meta.is_file() {
        return Err("it is not a regular file; left unchanged".into());
    }
    if meta.permissions().readonly() {
        return Err("it is read-only; left unchanged".into());
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let inside = root.is_some_and(|root| {
        let (Ok(dir), Ok(root)) = (dir.canonicalize(), root.canonicalize()) else {
            return false;
        };
        dir.starts_with(root)
    });
    if !inside {
        return Err("it is outside the packages being linted; left unchanged".into());
    }
    let current = crate::read::regular_file(path)
        .map_err(|e| format!("cannot read it again ({e}); left unchanged"))?;
    if current != expected {
        return Err("it changed since it was read; left unchanged".into());
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (temp, mut file) = create_temp(dir, &name)
        .map_err(|e| format!("cannot create a temporary file beside it: {e}; left unchanged"))?;
    let mut write = || -> std::io::Result<()> {
        file.write_all(new.as_bytes())?;
        keep_mode_and_owner(&file, &meta)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        format!("cannot write it: {e}; left unchanged")
    })
}

/// A new file `.NAME.mcp-lint-RANDOM.tmp` in `dir`, created exclusively (`O_EXCL`: never an
/// existing file or link) and private until it gets the target's mode.
fn create_temp(dir: &Path, name: &str) -> std::io::Result<(PathBuf, std::fs::File)> {
    let mut last = std::io::Error::other("no attempt");
    for attempt in 0..16 {
        let temp = dir.join(format!(".{name}.mcp-lint-{}.tmp", random_suffix(attempt)));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
        }
        match options.open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = e,
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// Gives the new file the target's permissions and, where they differ, its owner and group
/// (which only root may do; failing that, the fix is refused rather than changing owners).
fn keep_mode_and_owner(file: &std::fs::File, target: &std::fs::Metadata) -> std::io::Result<()> {
    file.set_permissions(target.permissions())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let own = file.metadata()?;
        if own.uid() != target.uid() || own.gid() != target.gid() {
            std::os::unix::fs::fchown(file, Some(target.uid()), Some(target.gid()))?;
        }
    }
    Ok(())
}

/// Sixteen hex digits no other process can predict: the standard library's random hash keys
/// (seeded per process from the OS), the time and `attempt`.
pub fn random_suffix(attempt: u32) -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(attempt);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(now);
    format!("{:016x}", hasher.finish())
}

/// A unified diff of `old` → `new`.
/// Source text in it is defused like every other output: control characters shown, no line
/// starting a workflow command.
pub fn unified_diff(display: &str, old: &str, new: &str) -> String {
    let diff = similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(2)
        .header(&format!("a/{display}"), &format!("b/{display}"))
        .to_string();
    let shown = crate::render::escape::control(&diff);
    crate::render::escape::workflow_commands(&shown).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Span;

    fn edit(start: usize, end: usize, text: &str) -> Edit {
        Edit {
            span: Span {
                file: 0,
                start,
                end,
            },
            replacement: text.into(),
        }
    }

    #[test]
    fn applies_in_order_and_skips_overlaps() {
        let text = "println!(a); println!(b);";
        let (out, n) = apply_edits(
            text,
            &[
                edit(13, 20, "eprintln"),
                edit(0, 7, "eprintln"),
                edit(2, 5, "x"),
            ],
        );
        assert_eq!(out, "eprintln!(a); eprintln!(b);");
        assert_eq!(n, 2);
    }

    #[test]
    fn refuses_a_file_changed_since_it_was_read_and_writes_atomically() {
        let dir = std::env::temp_dir().join(format!("mcp-lint-fix-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("a.rs");
        std::fs::write(&path, "fn main() { println!(\"x\"); }\n").expect("write");
        let err = write_in_place(&path, Some(&dir), "something else", "new").expect_err("refused");
        assert!(err.contains("changed since it was read"), "{err}");
        let original = "fn main() { println!(\"x\"); }\n";
        let outside = write_in_place(&path, Some(&dir.join("elsewhere")), original, "x");
        assert!(outside.is_err_and(|e| e.contains("outside")));
        write_in_place(&path, Some(&dir), original, "fn main() {}\n").expect("written");
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            "fn main() {}\n"
        );
        let leftovers = std::fs::read_dir(&dir)
            .expect("list")
            .filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.file_name().to_string_lossy().contains(".tmp"))
            })
            .count();
        assert_eq!(leftovers, 0);
    }

    #[test]
    fn insertion() {
        let (out, n) = apply_edits(
            "fmt().init()",
            &[edit(5, 5, ".with_writer(std::io::stderr)")],
        );
        assert_eq!(out, "fmt().with_writer(std::io::stderr).init()");
        assert_eq!(n, 1);
    }
}
