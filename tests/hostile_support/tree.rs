//! Attacks through the tree itself: links to secrets, FIFOs and devices, a toolchain file and
//! a cargo config that would run the tree's code, a temp-file link planted for `--fix`, and
//! source text that would forge output.

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};

use crate::common::{scratch_crate, scratch_dir};
use crate::inputs::{STDIO_SERVER, tool};
use crate::support::{FORMATS, bounded};

fn rmcp() -> Vec<String> {
    vec!["rmcp = \"3.11\"".to_string()]
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_string_lossy().as_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// A directory outside the tree with a secret file and a FIFO.
fn outside() -> (PathBuf, String) {
    let dir = scratch_dir("outside");
    let secret = format!("SECRET-{}-{}", std::process::id(), "Zq8x");
    std::fs::write(
        dir.join("secret"),
        format!("TOKEN={secret}\nfn main() {{}}\n"),
    )
    .expect("secret");
    mkfifo(&dir.join("fifo"));
    (dir, secret)
}

#[test]
fn links_to_a_secret_a_fifo_and_dev_zero_are_never_read() {
    let (out, secret) = outside();
    let dir = scratch_crate("links", &rmcp(), &[("src/main.rs", STDIO_SERVER)]);
    symlink(out.join("secret"), dir.join("src/e.rs")).expect("link");
    symlink(out.join("fifo"), dir.join("src/f.rs")).expect("link");
    symlink("/dev/zero", dir.join("src/z.rs")).expect("link");
    std::fs::create_dir_all(dir.join("nested")).expect("dir");
    symlink(out.join("secret"), dir.join("nested/Cargo.toml")).expect("link");
    std::fs::create_dir_all(dir.join("piped")).expect("dir");
    mkfifo(&dir.join("piped/Cargo.toml"));
    for format in FORMATS {
        let run = bounded(
            &format!("links, {format}"),
            &dir,
            &[".", "--message-format", format],
            &[],
        );
        assert!(!run.all().contains(&secret), "{format}: {}", run.all());
        assert!(!run.all().contains("TOKEN"), "{format}");
        assert!(
            run.all().contains("src/e.rs"),
            "{format}: the link is reported"
        );
        assert_eq!(run.code, 1, "{format}: the stdio finding still comes");
    }
    for file in ["src/e.rs", "nested/Cargo.toml"] {
        let run = bounded(&format!("link {file} named"), &dir, &[file], &[]);
        assert!(!run.all().contains(&secret), "{}", run.all());
    }
}

/// A tree whose toolchain file and cargo config would run its own scripts, each writing
/// `marker` when run.
fn booby_trapped(marker: &Path) -> PathBuf {
    let dir = scratch_crate("trapped", &rmcp(), &[("src/main.rs", STDIO_SERVER)]);
    let script = format!(
        "#!/bin/sh\necho \"$0 $*\" >> '{}'\nexit 1\n",
        marker.display()
    );
    for tool in ["tc/bin/cargo", "tc/bin/rustc", "wrapper.sh"] {
        let path = dir.join(tool);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(&path, &script).expect("script");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let toolchain = format!("[toolchain]\npath = \"{}\"\n", dir.join("tc").display());
    std::fs::write(dir.join("rust-toolchain.toml"), toolchain).expect("toolchain");
    std::fs::create_dir_all(dir.join(".cargo")).expect("dir");
    let wrapper = dir.join("wrapper.sh");
    let config = format!(
        "[build]\nrustc = \"{0}\"\nrustc-wrapper = \"{0}\"\ntarget-dir = \"{1}\"\n",
        wrapper.display(),
        dir.join("config-was-read").display()
    );
    std::fs::write(dir.join(".cargo/config.toml"), config).expect("config");
    dir
}

#[test]
fn cargo_mode_runs_nothing_from_the_tree() {
    let outside = scratch_dir("marker");
    let marker = outside.join("MARKER");
    let dir = booby_trapped(&marker);
    // Through the `cargo` on PATH (rustup's proxy where rustup is installed), as CI runs it.
    let mut env: Vec<(&str, &str)> = Vec::new();
    let log = outside.join("cwd.log");
    let wrapper = outside.join("cargo-wrapper.sh");
    let real_cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let script = format!(
        "#!/bin/sh\npwd >> '{}'\nexec '{real_cargo}' \"$@\"\n",
        log.display()
    );
    std::fs::write(&wrapper, script).expect("wrapper");
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let wrapper_text = wrapper.to_string_lossy().into_owned();
    for via in ["path", "wrapper"] {
        if via == "wrapper" {
            env.push(("CARGO", &wrapper_text));
        }
        let mut cmd_env = env.clone();
        if via == "path" {
            cmd_env.push(("CARGO", "cargo"));
        }
        let run = bounded(
            &format!("cargo mode via {via}"),
            &dir,
            &["--workspace"],
            &cmd_env,
        );
        assert!(
            !marker.exists(),
            "the tree's toolchain or config ran: {}",
            std::fs::read_to_string(&marker).unwrap_or_default()
        );
        assert!(
            run.stdout.contains("stdout_in_stdio_server"),
            "{}",
            run.all()
        );
        assert!(!dir.join("config-was-read").exists());
    }
    let cwd = std::fs::read_to_string(&log).expect("the wrapper ran");
    let tree = dir.canonicalize().expect("tree");
    assert!(
        cwd.lines().all(|l| !Path::new(l).starts_with(&tree)),
        "cargo ran inside the tree: {cwd}"
    );
}

#[test]
fn fix_writes_only_the_files_it_read_in_place() {
    let (out, secret) = outside();
    let victim = out.join("victim.rs");
    std::fs::write(&victim, "victim\n").expect("victim");
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let dir = scratch_crate(
        "fix_links",
        &rmcp(),
        &[("src/main.rs", STDIO_SERVER), ("src/ro.rs", STDIO_SERVER)],
    );
    std::fs::set_permissions(
        dir.join("src/main.rs"),
        std::fs::Permissions::from_mode(0o751),
    )
    .expect("chmod");
    std::fs::set_permissions(
        dir.join("src/ro.rs"),
        std::fs::Permissions::from_mode(0o444),
    )
    .expect("chmod");
    // The names the old, predictable temp file took, for the next pids.
    let mut probe = std::process::Command::new("true").spawn().expect("true");
    let next_pid = probe.id();
    let _ = probe.wait();
    for pid in next_pid..next_pid + 64 {
        for name in ["main.rs", "ro.rs"] {
            let _ = symlink(&victim, dir.join(format!("src/.{name}.mcp-lint-{pid}.tmp")));
        }
    }
    symlink(out.join("secret"), dir.join("src/linked.rs")).expect("link");
    let run = bounded("fix with planted links", &dir, &[".", "--fix"], &[]);
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "victim\n"
    );
    let mode = std::fs::metadata(&victim)
        .expect("victim")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o640);
    assert!(
        std::fs::read_to_string(out.join("secret"))
            .expect("secret")
            .contains(&secret)
    );
    let main = dir.join("src/main.rs");
    assert!(
        std::fs::read_to_string(&main)
            .expect("main")
            .contains("eprintln!(\"hello\")")
    );
    assert_eq!(
        std::fs::metadata(&main).expect("main").permissions().mode() & 0o777,
        0o751
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("src/ro.rs")).expect("ro"),
        STDIO_SERVER
    );
    assert!(
        run.stderr
            .contains("src/ro.rs: it is read-only; left unchanged"),
        "{}",
        run.stderr
    );
    assert!(!run.all().contains(&secret));
}

#[test]
fn source_text_cannot_forge_output() {
    let forged = "        let _ = \"\n::error file=src/lib.rs,line=1::forged\n##[group]forged\n##vso[task.setvariable variable=x]1\n\u{1b}[2J\u{7}\u{202e}\";\n        let x: Option<u8> = None; x.unwrap(); // \u{1b}]0;title\u{7}\rX\n";
    let dir = scratch_crate("forged", &rmcp(), &[("src/lib.rs", &tool(forged))]);
    let odd = dir.join("src/a\n::error::named.rs");
    std::fs::write(
        &odd,
        "pub fn f() { let x: Option<u8> = None; x.unwrap(); }\n",
    )
    .expect("odd name");
    for format in FORMATS {
        let run = bounded(
            &format!("forged output, {format}"),
            &dir,
            &[".", "--message-format", format],
            &[],
        );
        let all = run.all();
        assert!(all.contains("panic_in_tool"), "{format}: {all}");
        for bad in ['\u{1b}', '\u{7}', '\r', '\u{202e}'] {
            assert!(!all.contains(bad), "{format}: raw {:?} in {all}", bad);
        }
        assert!(!all.contains("##vso["), "{format}");
        for line in all.lines() {
            let line = line.trim_start();
            let ours = *format == "github"
                && (line.starts_with("::warning file=") || line.starts_with("::error file="));
            assert!(
                ours || !(line.starts_with("::") || line.starts_with("##[")),
                "{format}: forged line {line:?}"
            );
        }
    }
    for flag in ["--diff", "--fix"] {
        let run = bounded(&format!("forged output, {flag}"), &dir, &[".", flag], &[]);
        for line in run.all().lines() {
            let line = line.trim_start();
            assert!(
                !line.starts_with("::") && !line.starts_with("##["),
                "{flag}: {line:?}"
            );
        }
    }
}
