//! `tessera slide dataset`: the .npz it writes, read back, against the
//! puzzles `slide new` deals and the distances `slide solve --optimal`
//! finds; the same seed gives the same file.

use crate::common;

use common::cli::stdout;
use ndarray::{Array1, Array2};
use ndarray_npy::NpzReader;
use slide::{Direction, Goal, Position};
use std::path::{Path, PathBuf};

/// A fresh path for `name` in the tests' scratch directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dataset-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `slide dataset ARGS -o PATH` and returns the file's bytes.
fn write(args: &[&str], path: &Path) -> Vec<u8> {
    let mut all = vec!["slide", "dataset"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", path.to_str().unwrap()]);
    stdout(&all);
    std::fs::read(path).unwrap()
}

struct Arrays {
    positions: Array2<u8>,
    distances: Array1<i32>,
    optimal: Array1<bool>,
    first_moves: Option<Array1<i8>>,
}

fn read(path: &Path) -> Arrays {
    let mut npz = NpzReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let names = npz.names().unwrap();
    Arrays {
        positions: npz.by_name("positions.npy").unwrap(),
        distances: npz.by_name("distances.npy").unwrap(),
        optimal: npz.by_name("optimal.npy").unwrap(),
        first_moves: names
            .iter()
            .any(|n| n.starts_with("first_moves"))
            .then(|| npz.by_name("first_moves.npy").unwrap()),
    }
}

/// What `slide solve --optimal` says the shortest solution's length is.
fn optimal_length(position: &Position) -> i32 {
    let solved = stdout(&[
        "slide",
        "solve",
        "--optimal",
        "--json",
        &position.to_string(),
    ]);
    let json: serde_json::Value = serde_json::from_str(&solved).unwrap();
    assert_eq!(json["optimal"], true);
    json["length"].as_i64().unwrap() as i32
}

fn text(row: ndarray::ArrayView1<u8>) -> String {
    row.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

#[test]
fn rows_are_the_dealt_puzzles_labelled_with_the_optimal_solvers_distances() {
    let path = scratch("3x3.npz");
    write(
        &[
            "--size",
            "3x3",
            "--count",
            "30",
            "--seed",
            "4",
            "--first-moves",
        ],
        &path,
    );
    let set = read(&path);
    assert_eq!(set.positions.dim(), (30, 9));
    assert!(set.optimal.iter().all(|&o| o));
    let dealt = stdout(&[
        "slide", "new", "--size", "3x3", "--seed", "4", "--count", "30",
    ]);
    let goal = Goal::RowMajor.position("3x3".parse().unwrap()).unwrap();
    let firsts = set.first_moves.unwrap();
    for (i, (row, line)) in set
        .positions
        .rows()
        .into_iter()
        .zip(dealt.lines())
        .enumerate()
    {
        let position: Position = text(row).parse().unwrap();
        assert_eq!(position, line.parse::<Position>().unwrap());
        assert_ne!(position, goal);
        if i % 3 == 0 {
            assert_eq!(optimal_length(&position), set.distances[i]);
            // The first move leads one move closer.
            let mut after = position.clone();
            after.apply(Direction::ALL[firsts[i] as usize]).unwrap();
            assert_eq!(optimal_length(&after), set.distances[i] - 1);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_file_whatever_the_jobs() {
    let args = [
        "--size", "4x3", "--goal", "snake", "--count", "50", "--seed", "9",
    ];
    let one = write(&[&args[..], &["--jobs", "1"]].concat(), &scratch("one.npz"));
    let many = write(
        &[&args[..], &["--jobs", "4"]].concat(),
        &scratch("many.npz"),
    );
    assert_eq!(one, many);
    let other = write(
        &[
            "--size", "4x3", "--goal", "snake", "--count", "50", "--seed", "10",
        ],
        &scratch("other.npz"),
    );
    assert_ne!(one, other);
}

#[test]
fn past_the_optimal_solver_inexact_labels_are_the_fast_solvers_lengths() {
    let path = scratch("6x6.npz");
    write(
        &["--size", "6x6", "--count", "6", "--seed", "2", "--inexact"],
        &path,
    );
    let set = read(&path);
    assert!(set.optimal.iter().all(|&o| !o));
    assert!(set.first_moves.is_none());
    for (row, distance) in set.positions.rows().into_iter().zip(&set.distances) {
        let count = stdout(&["slide", "solve", "--fast", "--count-only", &text(row)]);
        assert_eq!(count.trim().parse::<i32>().unwrap(), *distance);
    }
}
