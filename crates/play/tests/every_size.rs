//! Every board the page plays, and rectangles beside them: the puzzle a
//! seed deals can reach its goal (by a parity count written here, apart
//! from the engine's), and the fast solver's solution replays to it. Goals
//! of both permutation parities: row-major, blank-first, and row-major
//! with two tiles exchanged. Dealt as the page deals them (a spec and a
//! seed), the way a player meets them.

use play::slide_game::{GoalChoice, SlideSpec};
use slide::{FastSolver, Goal, Position, Size};

/// The fast solver's reduction, the part that scales to every size. On
/// boards of at most 64 cells `solve_fast` adds beam searches (a third of
/// a second a board, tested in slide's own tests/fast.rs); this test is
/// about sizes, so it leaves them out to stay within seconds.
const REDUCTION: FastSolver = FastSolver {
    beam_width: Some(0),
    thorough: None,
};

/// Whether `start` can reach `goal`, the textbook way: the permutation
/// taking one to the other (the blank as a tile) must have the parity of
/// the blank's taxicab distance between them. Parity by cycles: a cycle of
/// length k is k − 1 transpositions.
fn reaches(start: &Position, goal: &Position) -> bool {
    let width = start.size().width();
    let home: std::collections::HashMap<u32, usize> = goal
        .tiles()
        .iter()
        .enumerate()
        .map(|(cell, &tile)| (tile, cell))
        .collect();
    let to: Vec<usize> = start.tiles().iter().map(|tile| home[tile]).collect();
    let mut seen = vec![false; to.len()];
    let mut transpositions = 0;
    for first in 0..to.len() {
        let mut cell = first;
        let mut length = 0usize;
        while !seen[cell] {
            seen[cell] = true;
            cell = to[cell];
            length += 1;
        }
        transpositions += length.saturating_sub(1);
    }
    let (a, b) = (start.blank(), goal.blank());
    let distance = (a % width).abs_diff(b % width) + (a / width).abs_diff(b / width);
    transpositions % 2 == distance % 2
}

/// Row-major and blank-first, and row-major with its first two tiles
/// exchanged (the other parity from row-major's, whatever the size).
fn goals(size: Size) -> Vec<Goal> {
    let row_major = Goal::RowMajor.position(size).unwrap();
    vec![
        Goal::RowMajor,
        Goal::BlankFirst,
        Goal::Custom(row_major.with_first_tiles_swapped()),
    ]
}

#[test]
fn every_size_deals_a_solvable_puzzle_the_fast_solver_solves() {
    let squares = (2..=32).map(|n| (n, n));
    let rectangles = [
        (10, 3),
        (3, 10),
        (20, 2),
        (2, 20),
        (32, 8),
        (8, 32),
        (2, 5),
        (5, 2),
        (32, 2),
        (2, 32),
        (7, 31),
    ];
    for (w, h) in squares.chain(rectangles) {
        let size = Size::new(w, h).unwrap();
        for (g, goal) in goals(size).into_iter().enumerate() {
            let spec = SlideSpec::new(size, GoalChoice::Goal(goal)).unwrap();
            let seed = (w * 1000 + h * 10 + g) as u64;
            let puzzle = spec.issue(seed).unwrap();
            let (start, target) = (&puzzle.start, &puzzle.goal_position);
            assert!(reaches(start, target), "{w}x{h} goal {g}: dealt unsolvable");
            let moves = REDUCTION.solve(start, target).unwrap();
            let mut replay = start.clone();
            replay.apply_all(&moves).unwrap();
            assert_eq!(&replay, target, "{w}x{h} goal {g}: the solution misses");
            // The reference can say no: the other parity is unreachable.
            let swapped = start.with_first_tiles_swapped();
            assert!(!reaches(&swapped, target), "{w}x{h} goal {g}");
            assert!(
                REDUCTION.solve(&swapped, target).is_err(),
                "{w}x{h} goal {g}"
            );
        }
        // Row-major and the exchanged goal are of opposite parities.
        let [row_major, _, swapped] = &goals(size)[..] else {
            unreachable!()
        };
        let (a, b) = (
            row_major.position(size).unwrap(),
            swapped.position(size).unwrap(),
        );
        assert!(!reaches(&a, &b), "{w}x{h}");
    }
}
