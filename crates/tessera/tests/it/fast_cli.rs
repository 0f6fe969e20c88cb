//! `tessera slide solve --fast | --auto | --count-only`, run as a user would.

use crate::common;

use assert_cmd::Command;
use common::cli::stdout;
use slide::{Goal, Moves, Position};

fn tessera() -> Command {
    Command::cargo_bin("tessera").unwrap()
}

/// Replays `moves` on `position` with the engine: does it reach the goal?
fn solves(position: &str, goal: &str, moves: &str) -> bool {
    let mut position: Position = position.parse().unwrap();
    let goal = goal
        .parse::<Goal>()
        .unwrap()
        .position(position.size())
        .unwrap();
    position.apply_all(&moves.parse::<Moves>().unwrap()).is_ok() && position == goal
}

#[test]
fn fast_solutions_replay_for_every_goal_and_shape() {
    for (size, goal) in [
        ("7x5", "row-major"),
        ("5x9", "spiral"),
        ("12x12", "snake"),
        ("9x4", "blank-first"),
    ] {
        let position = stdout(&[
            "slide", "new", "--size", size, "--goal", goal, "--seed", "11",
        ]);
        let position = position.trim();
        let moves = stdout(&["slide", "solve", "--fast", "--goal", goal, position]);
        assert!(solves(position, goal, moves.trim()), "{size} {goal}");
    }
}

#[test]
fn auto_uses_the_fast_solver_beyond_sixteen_cells() {
    let position = stdout(&["slide", "new", "--size", "10x10", "--seed", "2"]);
    let line = stdout(&["slide", "solve", "--json", position.trim()]);
    let json: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(json["optimal"], false);
    let moves = json["moves"].as_str().unwrap();
    assert_eq!(json["length"].as_u64().unwrap() as usize, moves.len());
    assert!(json["lower_bound"].as_u64().unwrap() <= moves.len() as u64);
    assert!(solves(position.trim(), "row-major", moves));
}

#[test]
fn count_only_prints_the_length_of_the_streamed_solution() {
    let position = stdout(&["slide", "new", "--size", "40x30", "--seed", "5"]);
    let moves = stdout(&["slide", "solve", "--fast", position.trim()]);
    let count = stdout(&["slide", "solve", "--fast", "--count-only", position.trim()]);
    assert_eq!(count.trim().parse::<usize>().unwrap(), moves.trim().len());
}

#[test]
fn streamed_json_is_one_valid_object_per_line() {
    let positions = stdout(&[
        "slide", "new", "--size", "20x20", "--seed", "1", "--count", "2",
    ]);
    let output = tessera()
        .args(["slide", "solve", "--fast", "--json", "-"])
        .write_stdin(format!("{positions}1 2 3/4 5 6/8 7 0\n"))
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["unsolvable"], true);
    for (line, position) in lines.iter().zip(positions.lines()) {
        assert!(solves(
            position,
            "row-major",
            line["moves"].as_str().unwrap()
        ));
    }
}

#[test]
fn parallel_batches_keep_input_order() {
    let positions = stdout(&[
        "slide", "new", "--size", "9x9", "--seed", "8", "--count", "6",
    ]);
    let serial = tessera()
        .args(["slide", "solve", "--fast", "-"])
        .write_stdin(positions.clone())
        .output()
        .unwrap();
    let parallel = tessera()
        .args(["slide", "solve", "--fast", "--jobs", "2", "-"])
        .write_stdin(positions)
        .output()
        .unwrap();
    assert_eq!(serial.stdout, parallel.stdout);
}

#[test]
fn unsolvable_and_mismatched_input() {
    assert_eq!(
        stdout(&["slide", "solve", "--fast", "2 1 3/4 5 6/7 8 0"]),
        "unsolvable\n"
    );
    tessera()
        .args([
            "slide",
            "solve",
            "--fast",
            "--goal",
            "missing:2",
            "1 2 3/4 5 6/7 8 0",
        ])
        .assert()
        .code(2);
    let large = stdout(&["slide", "new", "--size", "6x5", "--seed", "1"]);
    let refused = tessera()
        .args(["slide", "solve", "--optimal", large.trim()])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8(refused.stderr)
        .unwrap()
        .contains("--fast"));
}
