//! The `tessera` command: everything is in the library (`lib.rs`).

/// mimalloc, not the system's allocator: a live race allocates a few small
/// buffers a move (a frame, a step, an event), and glibc's malloc and free
/// were a tenth of a busy server's CPU (BENCHMARKS.md, "Live races").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tessera::run()
}
