// glibc's allocator serialises syn's many small allocations across threads.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    mcp_lint::allocator::configure();
    std::process::exit(mcp_lint::run(std::env::args_os().collect()));
}
