// glibc's allocator serialises syn's many small allocations across threads.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(mcp_lint::run(std::env::args_os().collect()));
}
