//! `cargo mcp-lint`: cargo runs this with argv `[cargo-mcp-lint, mcp-lint, ..]`.

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    mcp_lint::allocator::configure();
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "mcp-lint") {
        args.remove(1);
    }
    let code = mcp_lint::run_cargo(args);
    std::process::exit(code);
}
