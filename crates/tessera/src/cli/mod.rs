//! Command-line front end: argument parsing (clap) and dispatch.
//!
//! Every subcommand returns `Result<(), Failure>`; a [`Failure::Input`] is the
//! user's to fix and exits with code 2, anything else exits with code 1.

mod bench;
mod board;
mod input;
mod render;
mod seeds;
mod shisen_bench;
mod shisen_cmd;
mod shisen_input;
mod shisen_paths;
mod shisen_replay;
mod shisen_solve;
mod slide_cmd;
mod solve;
mod tables;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

use crate::failure::Failure;

#[derive(Parser)]
#[command(name = "tessera", version, about = "Tile puzzles: the sliding puzzle and Shisen-Sho", long_about = None)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no subcommand tessera serves the web app, so `tessera --addr …`
    /// works like `tessera serve --addr …`.
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Subcommand)]
enum Command {
    /// The sliding puzzle (15 puzzle) of any width × height.
    #[command(subcommand)]
    Slide(slide_cmd::SlideCommand),
    /// Shisen-Sho: deal boards, find paths, list moves, solve.
    #[command(subcommand)]
    Shisen(shisen_cmd::ShisenCommand),
    /// Play in the terminal: `play slide` or `play shisen`.
    #[command(subcommand)]
    Play(crate::tui::PlayCommand),
    /// Play both games in the browser (the default with no subcommand).
    Serve(ServeArgs),
    /// The help and a small demonstration puzzle.
    Demo,
}

#[derive(clap::Args)]
struct ServeArgs {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// SQLite database file for records, created on first run.
    #[arg(long, default_value = "tessera.db")]
    db: std::path::PathBuf,
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Slide(command)) => slide_cmd::run(command),
        Some(Command::Shisen(command)) => shisen_cmd::run(command),
        Some(Command::Play(command)) => crate::tui::run(command),
        Some(Command::Serve(args)) => serve(args),
        Some(Command::Demo) => demo(),
        None => serve(cli.serve),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

/// Starts the web server (see `crate::web`).
fn serve(args: ServeArgs) -> Result<(), Failure> {
    crate::web::serve(args.addr, &args.db).map_err(|e| Failure::Other(e.to_string()))
}

/// The help and a small demonstration.
fn demo() -> Result<(), Failure> {
    use clap::CommandFactory;
    Cli::command().print_help().map_err(Failure::io)?;
    println!();
    slide_cmd::demo()
}
