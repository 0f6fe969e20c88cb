//! `tessera`: tile puzzles — the sliding puzzle and Shisen-Sho — from the
//! command line, in the browser and in the terminal. The engines live in
//! the `slide` and `shisen` crates and the game sessions in `play`; this
//! crate only parses input at the edge, calls them, and renders results.
//!
//! It is a library only so that the fuzz targets in `fuzz/` can drive the
//! real HTTP router in-process; the binary (`main.rs`) calls [`run`].

/// A subcommand's `after_help`: its examples, one command a line under
/// `Examples:`, as every `--help` ends (the tests run each one).
macro_rules! examples {
    ($($example:literal),+ $(,)?) => {
        concat!("Examples:", $("\n  ", $example),+)
    };
}

mod cli;
mod failure;
#[doc(hidden)]
pub mod fuzzing;
mod tui;

pub use cli::run;
