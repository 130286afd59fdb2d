//! `metamorph`: the metamorphic check on servers given by path (the development corpus, or
//! any server), outside the test suite.
//!
//! ```sh
//! cargo build --release
//! cargo run --release -p mcp-lint-metamorph --bin metamorph -- --bin target/release/mcp-lint DIR...
//! ```
//! Prints the family × lint table, then every verdict that moved (`-q`: the table only).
//! `--family NAME` (repeatable) runs only those families; `--ratchet FILE` compares with a
//! ratchet file and exits 1 when a pair is new or worse; `--write-ratchet FILE` saves one;
//! `--show` prints the files each family rewrites instead of checking (no linter needed);
//! `--list` prints the families.

use std::path::PathBuf;
use std::process::ExitCode;

use mcp_lint_metamorph::{Input, Linter, Ratchet, Tree, check, families};

struct Args {
    bin: PathBuf,
    dirs: Vec<PathBuf>,
    families: Vec<String>,
    quiet: bool,
    show: bool,
    ratchet: Option<PathBuf>,
    write_ratchet: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        bin: PathBuf::from("target/release/mcp-lint"),
        dirs: Vec::new(),
        families: Vec::new(),
        quiet: false,
        show: false,
        ratchet: None,
        write_ratchet: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--bin" => args.bin = PathBuf::from(value()?),
            "--family" => args.families.push(value()?),
            "--ratchet" => args.ratchet = Some(PathBuf::from(value()?)),
            "--write-ratchet" => args.write_ratchet = Some(PathBuf::from(value()?)),
            "-q" | "--quiet" => args.quiet = true,
            "--show" => args.show = true,
            "--list" => {
                for family in families::all() {
                    println!("{:<24} {}", family.name(), family.about());
                }
                std::process::exit(0);
            }
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with('-') => return Err(format!("unknown flag {flag}")),
            dir => args.dirs.push(PathBuf::from(dir)),
        }
    }
    if args.dirs.is_empty() {
        return Err("no server directory given".into());
    }
    Ok(args)
}

const USAGE: &str = "usage: metamorph [--bin MCP_LINT] [--family NAME].. [-q] [--show] \
                     [--ratchet FILE] [--write-ratchet FILE] DIR..  |  metamorph --list";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("metamorph: {e}");
            }
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let args = parse_args()?;
    let chosen: Vec<&'static dyn families::Family> = if args.families.is_empty() {
        families::all()
    } else {
        args.families
            .iter()
            .map(|n| families::by_name(n).ok_or(format!("no family called {n}")))
            .collect::<Result<_, _>>()?
    };
    let mut inputs = Vec::new();
    for dir in &args.dirs {
        let tree = Tree::read(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        inputs.push(Input {
            name,
            tree,
            args: Vec::new(),
        });
    }
    if args.show {
        show(&inputs, &chosen);
        return Ok(ExitCode::SUCCESS);
    }
    let linter = Linter::new(&args.bin)?;
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let work = check::work_dir("cli");
    let outcomes = check::run(&linter, &inputs, &chosen, &work, threads);
    let _ = std::fs::remove_dir_all(&work);
    if !args.quiet {
        print!("{}", check::report(&outcomes));
    }
    println!("{}", check::table(&outcomes, &chosen));
    if let Some(path) = &args.write_ratchet {
        std::fs::write(path, Ratchet::of(&outcomes).render())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = &args.ratchet {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let problems = Ratchet::parse(&text)?.compare(&outcomes);
        for p in &problems {
            println!("{p}");
        }
        if problems.iter().any(|p| !p.starts_with("better")) {
            return Ok(ExitCode::from(1));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints what each family makes of each input's files.
fn show(inputs: &[Input], chosen: &[&'static dyn families::Family]) {
    for input in inputs {
        for family in chosen {
            let rewrite = family.rewrite(&input.tree);
            for path in rewrite.changed_files() {
                println!("== {} × {}: {path}", input.name, family.name());
                println!("{}", rewrite.tree.files[path]);
            }
        }
    }
}
