//! The optimal solver through the public API on boards of 13–16 cells,
//! with the small pattern databases (built in seconds): known optimal
//! lengths from Korf's 100 instances, and IDA* + Manhattan distance as an
//! independent check elsewhere.

use slide::{solve_optimal, Goal, HeuristicKind, Position, Scramble, Size, SolveOptions};

fn replays(start: &Position, solution: &slide::Solution, goal: &Position) -> bool {
    let mut p = start.clone();
    p.apply_all(&solution.moves).is_ok() && p == *goal
}

/// The shortest of Korf's 100 instances (goal blank-first), with the
/// optimal lengths he published.
const KORF: [(&str, usize); 4] = [
    ("3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0", 46),
    ("14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15", 45),
    ("3 6 5 2 10 0 15 14 1 4 13 12 9 8 11 7", 46),
    ("1 3 2 5 10 9 15 6 8 14 13 11 12 4 7 0", 42),
];

#[test]
fn korf_instances_with_the_small_databases() {
    let goal = Goal::BlankFirst.position(Size::square(4).unwrap()).unwrap();
    for (tiles, length) in KORF {
        let start: Position = tiles.parse().unwrap();
        let solution = solve_optimal(&start, &goal, &SolveOptions::default()).unwrap();
        assert_eq!(solution.moves.len(), length, "{start}");
        assert!(solution.optimal && solution.lower_bound as usize == length);
        assert!(replays(&start, &solution, &goal));
    }
}

#[test]
fn fourteen_and_fifteen_cell_boards_match_manhattan_ida_star() {
    let manhattan = SolveOptions {
        heuristic: HeuristicKind::Manhattan,
        ..SolveOptions::default()
    };
    for (size, goal) in [
        ("3x5", Goal::Spiral),
        ("5x3", Goal::Snake),
        ("2x7", Goal::RowMajor),
        ("4x4", Goal::Missing(6)),
    ] {
        let size: Size = size.parse().unwrap();
        let goal = goal.position(size).unwrap();
        for seed in 0..2 {
            let start = Scramble::Walk(36).generate(&goal, seed);
            let solution = solve_optimal(&start, &goal, &SolveOptions::default()).unwrap();
            let check = solve_optimal(&start, &goal, &manhattan).unwrap();
            assert!(replays(&start, &solution, &goal) && replays(&start, &check, &goal));
            assert_eq!(solution.moves.len(), check.moves.len(), "{size} {start}");
            assert!(solution.optimal && check.optimal);
        }
    }
}
