fn main() {
    std::process::exit(mcp_lint::run(std::env::args_os().collect()));
}
