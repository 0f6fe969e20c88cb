//! `tessera`: tile puzzles — the sliding puzzle and Shisen-Sho — from the
//! command line, in the browser and in the terminal. The engines live in
//! the `slide` and `shisen` crates and the game sessions in `play`; this
//! crate only parses input at the edge, calls them, and renders results.

/// A subcommand's `after_help`: its examples, one command a line under
/// `Examples:`, as every `--help` ends (the tests run each one).
macro_rules! examples {
    ($($example:literal),+ $(,)?) => {
        concat!("Examples:", $("\n  ", $example),+)
    };
}

mod cli;
mod failure;
mod tui;

/// mimalloc, not the system's allocator: a live race allocates a few small
/// buffers a move (a frame, a step, an event), and glibc's malloc and free
/// were a tenth of a busy server's CPU (BENCHMARKS.md, "Live races").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::run()
}
