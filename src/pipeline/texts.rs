//! Which texts a run holds after their package's analyses (see [`Texts`]).

use super::{Found, files};
use crate::diagnostic::{FileId, Finding, Span};
use crate::source::SourceMap;

/// Which texts stay held after their package's analyses: those of the files a finding points
/// into (the renderers quote them, `--fix` edits them) and those with suppression comments
/// (read at the end). A run thus holds the text of the packages it is analysing, not the
/// tree's.
#[derive(Default)]
pub(super) struct Texts {
    /// Files a finding points into, among the first `seen` findings.
    pointed_at: std::collections::HashSet<FileId>,
    seen: usize,
}

impl Texts {
    /// Releases the text of each of `files` no finding points into and without directives.
    pub(super) fn release(
        &mut self,
        sources: &mut SourceMap,
        files: impl Iterator<Item = FileId>,
        findings: &Found,
    ) {
        for (f, _) in findings.get(self.seen..).unwrap_or(&[]) {
            self.pointed_at.extend(spans_of(f).map(|s| s.file));
        }
        self.seen = findings.len();
        for file in files {
            let source = &mut sources.files[file];
            if !self.pointed_at.contains(&file)
                && source.is_held()
                && !files::has_directives(source.text())
            {
                source.release();
            }
        }
    }
}

/// Every span of a finding: its own, its labels', its edits'.
fn spans_of(f: &Finding) -> impl Iterator<Item = Span> + '_ {
    let labels = f.labels.iter().map(|l| l.span);
    let edits = f.help.iter().flat_map(|h| h.edits.iter().map(|e| e.span));
    std::iter::once(f.span).chain(labels).chain(edits)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::workspace::{Dependency, Package, Target, Workspace};

    fn package(root: &Path, name: &str, files: &[&Path], sdk: bool) -> Package {
        Package {
            id: format!("path+file://{}#{name}@0.1.0", root.display()),
            name: name.into(),
            version: "0.1.0".into(),
            edition: "2021".into(),
            manifest_path: root.join("Cargo.toml"),
            targets: vec![Target {
                name: name.into(),
                kind: vec!["bin".into()],
                crate_types: vec!["bin".into()],
                src_path: files[0].to_path_buf(),
            }],
            dependencies: sdk
                .then(|| Dependency {
                    package: "rmcp".into(),
                    extern_name: "rmcp".into(),
                    requirement: Some("1.6".into()),
                    features: Vec::new(),
                    path: None,
                })
                .into_iter()
                .collect(),
            locked: Default::default(),
            files: files.iter().map(|f| f.to_path_buf()).collect(),
            profile_manifest: root.join("Cargo.toml"),
            context_only: false,
        }
    }

    #[test]
    fn a_text_is_held_after_the_run_only_where_a_finding_or_a_directive_needs_it() {
        let server = Path::new("/in-memory/server");
        let other = Path::new("/in-memory/other");
        let (tool, helper, quiet, commented, unread) = (
            server.join("src/main.rs"),
            server.join("src/helper.rs"),
            server.join("src/quiet.rs"),
            server.join("src/commented.rs"),
            other.join("src/main.rs"),
        );
        let texts = [
            (
                &tool,
                "mod commented;\nmod helper;\nmod quiet;\nuse rmcp::{tool, tool_router};\npub struct S;\n#[tool_router]\nimpl S {\n    \
                 #[tool(description = \"n\")]\n    async fn n(&self) -> String {\n        \
                 crate::helper::parse(\"a\")\n    }\n}\nfn main() {}\n",
            ),
            (
                &helper,
                "pub fn parse(p: &str) -> String {\n    std::fs::read_to_string(p).unwrap()\n}\n",
            ),
            (&quiet, "pub fn nothing() {}\n"),
            (
                &commented,
                "// mcp-lint: allow(panic_in_tool, reason = \"x\")\npub fn c() {}\n",
            ),
            (&unread, "fn main() { println!(\"hi\"); }\n"),
        ];
        let workspace = Workspace {
            root: "/in-memory".into(),
            packages: vec![
                package(
                    server,
                    "server",
                    &[&tool, &helper, &quiet, &commented],
                    true,
                ),
                package(other, "other", &[&unread], false),
            ],
            skipped: Vec::new(),
            overlay: texts
                .iter()
                .map(|(p, t)| (p.to_path_buf(), t.to_string()))
                .collect(),
        };
        let flags = crate::config::LevelFlags::new();
        let outcome = super::super::lint_workspace(
            workspace,
            &flags,
            crate::diagnostic::Level::Warn,
            Some(1),
        )
        .expect("the run");
        let held = |path: &Path| {
            let file = outcome.sources.files.iter().find(|f| f.path == path);
            file.expect("the file is in the run").is_held()
        };
        let panic = outcome
            .findings
            .iter()
            .find(|(f, _)| f.lint == "panic_in_tool")
            .unwrap_or_else(|| panic!("the unwrap is reported: {:?}", outcome.findings));
        assert_eq!(
            outcome.sources.get(panic.0.span.file).snippet(panic.0.span),
            "unwrap()"
        );
        assert!(held(&helper), "a finding points into the helper");
        assert!(held(&commented), "its directive is read at the end");
        assert!(
            !held(&quiet),
            "nothing needs the text of a file without findings"
        );
        assert!(!held(&unread), "a package no analysis reads is never held");
    }
}
