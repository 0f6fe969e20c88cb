//! The baseline for `tessera shisen moves --count`, whole process: the same
//! boards read the same way, each board's moves counted by the breadth-first
//! search of "Using breadth-first search in Shisen-Sho" (the benches'
//! `baseline::bfs`, every pair of matching tiles tried) instead of the
//! engine's bitboards. It prints one count per board, as tessera does, so
//! `scripts/bench-batch` also checks that the two agree.
//!
//!   bfs_moves half COUNT   # COUNT half-played 18x8 boards (72 tiles left)
//!   bfs_moves count        # counts the moves of every board on stdin

use std::io::{Read, Write};

use shisen::{parse_boards, Matching};

#[path = "../benches/common/mod.rs"]
mod common;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match args.first().map(String::as_str) {
        Some("half") => {
            let count = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(10_000);
            for board in common::played(72, count) {
                writeln!(out, "{board}\n").unwrap();
            }
        }
        Some("count") => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).unwrap();
            for board in parse_boards(&text, Matching::Standard) {
                let board = board.unwrap();
                let pairs = common::pairs(std::slice::from_ref(&board));
                let moves = pairs
                    .iter()
                    .filter(|(_, p, q)| common::baseline::bfs(&board, *p, *q).is_some())
                    .count();
                writeln!(out, "{moves}").unwrap();
            }
        }
        _ => {
            eprintln!("usage: bfs_moves half COUNT | bfs_moves count < boards");
            std::process::exit(2);
        }
    }
}
