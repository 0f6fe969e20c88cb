//! Command-line front end: argument parsing (clap) and dispatch.
//!
//! Every subcommand returns `Result<(), Failure>`; a [`Failure::Input`] is the
//! user's to fix and exits with code 2, anything else exits with code 1.

mod failure;
mod input;
mod render;
mod shisen;
mod slide;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

pub use failure::Failure;

#[derive(Parser)]
#[command(name = "tessera", version, about = "Tile puzzles: the sliding puzzle and Shisen-Sho", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// The sliding puzzle (15 puzzle) of any width × height.
    #[command(subcommand)]
    Slide(slide::SlideCommand),
    /// Shisen-Sho: deal boards, find paths, list moves.
    #[command(subcommand)]
    Shisen(shisen::ShisenCommand),
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Slide(command)) => slide::run(command),
        Some(Command::Shisen(command)) => shisen::run(command),
        None => demo(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

/// With no subcommand: the help and a small demonstration.
fn demo() -> Result<(), Failure> {
    use clap::CommandFactory;
    Cli::command().print_help().map_err(Failure::io)?;
    println!();
    slide::demo()
}
