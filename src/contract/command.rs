//! `mcp-lint contract`: the run, the rendering and the comparison with a saved contract.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use super::{check, contract_of, human, json, markdown, summary};
use crate::cli::{Color, ContractArgs, ContractFormat};
use crate::config::LevelFlags;
use crate::diagnostic::Level;
use crate::{INTERNAL_ERROR, PARSE_ERROR, exit, pipeline};

/// Runs `mcp-lint contract`; returns the exit code.
pub fn run(args: &ContractArgs, cargo: bool) -> i32 {
    match run_checked(args, cargo) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            exit::ERROR
        }
    }
}

fn run_checked(args: &ContractArgs, cargo: bool) -> Result<i32, String> {
    let cargo_mode = cargo || args.cargo.selects_packages();
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    if !cargo_mode {
        crate::cli::check_paths(&paths)?;
    }
    // A saved contract that cannot be read is an error before any work.
    let saved = args.check.as_deref().map(check::read).transpose()?;
    let workspace =
        crate::cli::load_selected(&args.cargo, &paths, cargo_mode).map_err(|e| e.to_string())?;
    let outcome =
        pipeline::contract_workspace(workspace, &LevelFlags::new(), Level::Warn, args.jobs)?;
    for warning in &outcome.warnings {
        eprintln!("warning: {warning}");
    }
    let unread = outcome
        .findings
        .iter()
        .filter(|(f, _)| f.lint == PARSE_ERROR || f.lint == INTERNAL_ERROR)
        .count();
    if unread > 0 {
        eprintln!(
            "warning: {unread} file(s) could not be analysed (run `mcp-lint` to see why): the contract may be incomplete"
        );
    }
    let contract = contract_of(&outcome);
    let diff = saved.map(|old| check::compare(&old, &contract));
    let text = match args.format {
        ContractFormat::Human => human::render(&contract, color(args.color)),
        ContractFormat::Markdown => markdown::render(&contract, diff.as_ref()),
        ContractFormat::Json => json::render(&contract)?,
    };
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(text.as_bytes()).is_err() || stdout.flush().is_err() {
        return Ok(exit::ERROR);
    }
    if let Some(path) = &args.write {
        std::fs::write(path, json::render(&contract)?)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    eprintln!("{}", summary(&contract));
    let Some(diff) = diff else {
        return Ok(exit::CLEAN);
    };
    eprint!("{}", diff.report());
    Ok(if diff.is_worse() {
        exit::DENIED
    } else {
        exit::CLEAN
    })
}

fn color(choice: Color) -> bool {
    match choice {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    }
}
