//! Findings: what the linter says, independent of how it is rendered.

use std::fmt;

/// A lint level, ordered from quietest to loudest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Allow,
    Warn,
    Deny,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }

    /// The rustc diagnostic level this lint level is reported at.
    pub fn rustc_level(self) -> &'static str {
        match self {
            Level::Deny => "error",
            _ => "warning",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Index of a file in the run's [`crate::source::SourceMap`].
pub type FileId = usize;

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: usize,
    pub end: usize,
}

/// How safe a suggested edit is to apply without review (rustc's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applicability {
    MachineApplicable,
    MaybeIncorrect,
    HasPlaceholders,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::MachineApplicable => "MachineApplicable",
            Applicability::MaybeIncorrect => "MaybeIncorrect",
            Applicability::HasPlaceholders => "HasPlaceholders",
        }
    }
}

/// A replacement of `span` by `replacement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub replacement: String,
}

/// The help attached to a finding: prose, optional example code, optional edits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Help {
    pub message: String,
    pub edits: Vec<Edit>,
    pub applicability: Applicability,
}

/// A secondary span with a label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub text: String,
}

/// One diagnostic. Built by lints, sorted and filtered in one place, rendered by `render`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Lint name without the `mcp_lint::` prefix.
    pub lint: &'static str,
    pub level: Level,
    pub message: String,
    pub span: Span,
    pub label: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    pub help: Option<Help>,
}

impl Finding {
    pub fn new(lint: &'static str, span: Span, message: impl Into<String>) -> Self {
        Finding {
            lint,
            level: Level::Warn,
            message: message.into(),
            span,
            label: String::new(),
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    pub fn label(mut self, text: impl Into<String>) -> Self {
        self.label = text.into();
        self
    }

    pub fn secondary(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    pub fn note(mut self, text: impl Into<String>) -> Self {
        self.notes.push(text.into());
        self
    }

    pub fn help(mut self, message: impl Into<String>) -> Self {
        self.help = Some(Help {
            message: message.into(),
            edits: Vec::new(),
            applicability: Applicability::MaybeIncorrect,
        });
        self
    }

    pub fn fix(
        mut self,
        message: impl Into<String>,
        edits: Vec<Edit>,
        applicability: Applicability,
    ) -> Self {
        self.help = Some(Help {
            message: message.into(),
            edits,
            applicability,
        });
        self
    }

    /// The code as shown to users: `mcp_lint::NAME`.
    pub fn code(&self) -> String {
        format!("mcp_lint::{}", self.lint)
    }
}
