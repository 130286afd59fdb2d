//! Command-line arguments, and lint levels from `-A/-W/-D` in the order given.

use std::path::PathBuf;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::config::LevelFlags;
use crate::diagnostic::Level;
use crate::lints;
use crate::workspace::{self, Workspace};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MessageFormat {
    /// miette reports for people (default).
    Human,
    /// One line per finding: `path:line:col: level[code]: message`.
    Short,
    /// Cargo's JSON messages, for rust-analyzer and other tools.
    Json,
    /// Same as `json` (accepted because rust-analyzer passes it).
    #[value(name = "json-diagnostic-rendered-ansi")]
    JsonRenderedAnsi,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions annotations (the default when `GITHUB_ACTIONS=true`).
    Github,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

/// Static linter for Rust MCP servers: failures hidden from the model, panics that leave
/// requests unanswered, and stdout writes that corrupt a stdio server's protocol stream.
#[derive(Debug, Parser)]
#[command(name = "mcp-lint", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Files or directories to lint (default: the current directory). Each file is linted
    /// with the context of its nearest Cargo.toml.
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub cargo: CargoArgs,

    /// Output format [default: human, or github when GITHUB_ACTIONS=true].
    #[arg(long, value_enum)]
    pub message_format: Option<MessageFormat>,

    /// Print the number of findings per lint after the report (on stderr).
    #[arg(long)]
    pub statistics: bool,

    /// Apply the fixes marked safe (MachineApplicable), in passes until none is left, then
    /// report what is left.
    #[arg(long)]
    pub fix: bool,

    /// With --fix or --diff, also apply fixes that may change behaviour beyond the finding.
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Show the fixes as a unified diff on stdout and write nothing (also with --fix: what
    /// --fix would write).
    #[arg(long)]
    pub diff: bool,

    /// Print only the findings: no summary line, no fix report, no warnings.
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Print the documentation of a lint, as `explain LINT` does.
    #[arg(long, value_name = "LINT")]
    pub explain: Option<String>,

    /// Set lint LINT (or `warnings`) to allow.
    #[arg(short = 'A', long = "allow", value_name = "LINT")]
    pub allow: Vec<String>,
    /// Set lint LINT (or `warnings`) to warn.
    #[arg(short = 'W', long = "warn", value_name = "LINT")]
    pub warn: Vec<String>,
    /// Set lint LINT to deny; `-D warnings` makes every warning an error.
    #[arg(short = 'D', long = "deny", value_name = "LINT")]
    pub deny: Vec<String>,

    /// Exit 0 even when findings are at deny level.
    #[arg(long)]
    pub exit_zero: bool,

    /// Exit 2 when mcp-lint itself failed on a file (`mcp_lint::internal_error`).
    #[arg(long)]
    pub strict: bool,

    /// Colour for human output.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: Color,

    /// Threads for parsing and analysis (default: one per core).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the documentation of a lint.
    Explain { lint: String },
    /// List the lints with their default level and category.
    Lints,
    /// Print each tool's failure contract: what the client gets when the tool fails.
    Contract(Box<ContractArgs>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ContractFormat {
    /// A compact table per tool (default).
    Human,
    /// One table per tool with the details collapsed, for a pull request or a job summary.
    Markdown,
    /// The versioned JSON format (`docs/contract.md`), as `--write` saves it.
    Json,
}

/// `mcp-lint contract`: the failure paths of every tool, prompt and resource handler.
#[derive(Debug, Args)]
pub struct ContractArgs {
    /// Files or directories to read (default: the current directory).
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub cargo: CargoArgs,

    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: ContractFormat,

    /// Compare with a contract saved by `--write`: print what changed, and exit 1 when a tool
    /// gained a path that reaches the client as a JSON-RPC error, no answer or a dead server.
    #[arg(long, value_name = "FILE")]
    pub check: Option<PathBuf>,

    /// Save the contract as JSON in FILE.
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,

    /// Colour for human output.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: Color,

    /// Threads for parsing and analysis (default: one per core).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
}

/// Cargo's package selection, plus the flags cargo and rust-analyzer pass that do not change
/// what mcp-lint reads (accepted and ignored).
#[derive(Debug, Args)]
pub struct CargoArgs {
    /// Path to Cargo.toml (implies cargo mode).
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Package to lint (name or package ID spec); repeatable.
    #[arg(short = 'p', long = "package", value_name = "SPEC")]
    pub package: Vec<String>,
    /// Lint every workspace member.
    #[arg(long, alias = "all")]
    pub workspace: bool,
    /// Exclude packages from `--workspace`.
    #[arg(long, value_name = "SPEC")]
    pub exclude: Vec<String>,

    #[arg(long, hide = true)]
    pub all_targets: bool,
    #[arg(long, hide = true)]
    pub lib: bool,
    #[arg(long, hide = true, num_args = 0..=1, default_missing_value = "")]
    pub bin: Vec<String>,
    #[arg(long, hide = true)]
    pub bins: bool,
    #[arg(long, hide = true, num_args = 0..=1, default_missing_value = "")]
    pub example: Vec<String>,
    #[arg(long, hide = true)]
    pub examples: bool,
    #[arg(long, hide = true, num_args = 0..=1, default_missing_value = "")]
    pub test: Vec<String>,
    #[arg(long, hide = true)]
    pub tests: bool,
    #[arg(long, hide = true, num_args = 0..=1, default_missing_value = "")]
    pub bench: Vec<String>,
    #[arg(long, hide = true)]
    pub benches: bool,
    #[arg(long, hide = true)]
    pub keep_going: bool,
    #[arg(long, hide = true)]
    pub all_features: bool,
    #[arg(long, hide = true)]
    pub no_default_features: bool,
    #[arg(short = 'F', long, hide = true)]
    pub features: Vec<String>,
    #[arg(long, hide = true)]
    pub target: Vec<String>,
    #[arg(long, hide = true)]
    pub target_dir: Option<PathBuf>,
    #[arg(long, hide = true)]
    pub config: Vec<String>,
    #[arg(long, hide = true)]
    pub frozen: bool,
    #[arg(long, hide = true)]
    pub locked: bool,
    #[arg(long, hide = true)]
    pub offline: bool,
    #[arg(short = 'v', long, hide = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

impl CargoArgs {
    pub fn selects_packages(&self) -> bool {
        self.manifest_path.is_some()
            || !self.package.is_empty()
            || self.workspace
            || !self.exclude.is_empty()
    }
}

/// The command, named as the user typed it: `cargo mcp-lint` when cargo ran us.
fn command(cargo: bool) -> clap::Command {
    let command = Cli::command();
    if cargo {
        command.bin_name("cargo mcp-lint")
    } else {
        command
    }
}

/// Parses arguments; `Err` carries clap's error (help and version included).
pub fn parse(args: Vec<std::ffi::OsString>, cargo: bool) -> Result<(Cli, ArgMatches), clap::Error> {
    let mut command = command(cargo);
    let matches = command
        .try_get_matches_from_mut(args)
        .map_err(|e| without_hidden_suggestion(e, &command))?;
    let cli = Cli::from_arg_matches(&matches)?;
    Ok((cli, matches))
}

/// clap's "a similar argument exists" may name one of the hidden cargo flags we only accept
/// for rust-analyzer's sake (`--example` for `--exampel`): such a hint is dropped.
fn without_hidden_suggestion(error: clap::Error, command: &clap::Command) -> clap::Error {
    if error.kind() != ErrorKind::UnknownArgument {
        return error;
    }
    let Some(ContextValue::String(suggested)) = error.get(ContextKind::SuggestedArg) else {
        return error;
    };
    let name = suggested.trim_start_matches('-');
    let visible = command.get_arguments().any(|arg| {
        !arg.is_hide_set()
            && (arg.get_long() == Some(name)
                || arg.get_all_aliases().is_some_and(|a| a.contains(&name)))
    });
    if visible {
        return error;
    }
    let mut rebuilt = clap::Error::new(ErrorKind::UnknownArgument).with_cmd(command);
    for (kind, value) in error.context() {
        if kind != ContextKind::SuggestedArg {
            rebuilt.insert(kind, value.clone());
        }
    }
    rebuilt
}

/// `-A/-W/-D` in command-line order, with names checked.
pub fn level_flags(cli: &Cli, matches: &ArgMatches) -> Result<LevelFlags, String> {
    let mut flags: Vec<(usize, Level, &String)> = Vec::new();
    for (id, level, values) in [
        ("allow", Level::Allow, &cli.allow),
        ("warn", Level::Warn, &cli.warn),
        ("deny", Level::Deny, &cli.deny),
    ] {
        if let Some(indices) = matches.indices_of(id) {
            flags.extend(indices.zip(values).map(|(i, v)| (i, level, v)));
        }
    }
    flags.sort_by_key(|f| f.0);
    flags
        .into_iter()
        .map(|(_, level, name)| {
            if name == "warnings" || lints::find_code(name).is_some() {
                Ok((level, name.clone()))
            } else {
                Err(lints::unknown_lint_message(name))
            }
        })
        .collect()
}

/// An explicit path must be a directory or a `.rs` file (a typo'd `Cargo.tml` is not
/// silently linted as nothing).
pub fn check_paths(paths: &[PathBuf]) -> Result<(), String> {
    for path in paths {
        if !path.exists() {
            return Err(format!("{}: no such file or directory", path.display()));
        }
        if !path.is_dir() && path.extension().is_none_or(|e| e != "rs") {
            return Err(format!(
                "{}: not a directory or a `.rs` file (for a manifest, use --manifest-path)",
                path.display()
            ));
        }
    }
    Ok(())
}

/// The packages cargo's flags select (cargo mode), or those holding `paths`.
pub fn load_selected(
    cargo: &CargoArgs,
    paths: &[PathBuf],
    cargo_mode: bool,
) -> Result<Workspace, workspace::WorkspaceError> {
    if cargo_mode {
        workspace::from_cargo(&workspace::Selection {
            manifest_path: cargo.manifest_path.clone(),
            packages: cargo.package.clone(),
            workspace: cargo.workspace,
            exclude: cargo.exclude.clone(),
        })
    } else {
        workspace::from_paths(paths)
    }
}
