//! `tessera`: tile puzzles — the sliding puzzle and Shisen-Sho — from the
//! command line. The engines live in the `slide` and `shisen` crates; this
//! binary only parses input at the edge, calls them, and renders results.

mod cli;
mod failure;
mod store;
mod tui;
mod web;

fn main() -> std::process::ExitCode {
    cli::run()
}
