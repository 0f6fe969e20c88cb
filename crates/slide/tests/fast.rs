//! The fast solver: every solution replays to the goal, on every kind of
//! goal and board shape; unsolvable and mismatched input is refused.

use proptest::prelude::*;
use slide::{
    solve_fast, solve_fast_with, Direction, FastError, FastSolver, Goal, Position, Scramble, Size,
};
use std::collections::{HashMap, VecDeque};

fn goals(size: Size) -> impl Strategy<Value = Goal> {
    let n = size.cells() as u32;
    prop_oneof![
        Just(Goal::RowMajor),
        Just(Goal::BlankFirst),
        Just(Goal::Snake),
        Just(Goal::Spiral),
        (1..=n).prop_map(Goal::Missing),
        any::<u64>().prop_map(move |seed| {
            // A custom goal: a random arrangement of the row-major tiles.
            let base = Goal::RowMajor.position(size).unwrap();
            Goal::Custom(Scramble::Uniform.generate(&base, seed))
        }),
    ]
}

fn boards(max: usize) -> impl Strategy<Value = (Size, Goal, u64)> {
    (2..=max, 2..=max)
        .prop_map(|(w, h)| Size::new(w, h).unwrap())
        .prop_flat_map(|size| (Just(size), goals(size), any::<u64>()))
}

/// The plain line-by-line reduction, without the beam search.
const PLAIN: FastSolver = FastSolver {
    beam_width: Some(0),
    thorough: None,
};

/// Solves with `solver`, checks the replay reaches the goal, returns the
/// length.
fn check(solver: FastSolver, size: Size, goal: &Goal, seed: u64) -> Result<usize, TestCaseError> {
    let goal = goal.position(size).unwrap();
    let puzzle = Scramble::Uniform.generate(&goal, seed);
    let moves = solver.solve(&puzzle, &goal).unwrap();
    let mut replay = puzzle.clone();
    replay.apply_all(&moves).unwrap();
    prop_assert_eq!(replay, goal);
    Ok(moves.len())
}

/// Checks `solver` on `cases` random boards of sides 2 to `largest`, every
/// goal kind, shrinking any failure to the smallest case.
fn replays(solver: FastSolver, largest: usize, cases: u32) {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(cases));
    let outcome = runner.run(&boards(largest), |(size, goal, seed)| {
        check(solver, size, &goal, seed).map(|_| ())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
}

#[test]
fn the_reduction_replays_to_the_goal() {
    replays(PLAIN, 8, 400);
    replays(PLAIN, 30, 80);
}

/// The quick routing used while more than 825 × 825 cells are unsolved.
const QUICK: FastSolver = FastSolver {
    beam_width: Some(0),
    thorough: Some(false),
};

#[test]
fn the_quick_routing_replays_to_the_goal() {
    replays(QUICK, 12, 200);
    replays(QUICK, 30, 40);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(30))]

    #[test]
    fn the_beam_replays_and_never_loses_to_the_reduction((size, goal, seed) in boards(6)) {
        let narrow = FastSolver { beam_width: Some(100), thorough: None };
        let searched = check(narrow, size, &goal, seed)?;
        prop_assert!(searched <= check(PLAIN, size, &goal, seed)?);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20))]

    /// Boards of 26 to 64 cells also go through the staged beam search
    /// (an outer line at a time): its solution, when kept, replays too.
    #[test]
    fn the_staged_beam_replays_and_never_loses_to_the_reduction(
        (size, goal, seed) in (5..=8usize, 5..=8usize)
            .prop_filter("staged sizes", |(w, h)| w * h > 25)
            .prop_map(|(w, h)| Size::new(w, h).unwrap())
            .prop_flat_map(|size| (Just(size), goals(size), any::<u64>()))
    ) {
        let narrow = FastSolver { beam_width: Some(60), thorough: None };
        let searched = check(narrow, size, &goal, seed)?;
        prop_assert!(searched <= check(PLAIN, size, &goal, seed)?);
    }
}

#[test]
fn the_default_solver_replays_on_every_mid_size() {
    for (n, goal) in (4..=8).zip([
        Goal::RowMajor,
        Goal::Spiral,
        Goal::Snake,
        Goal::BlankFirst,
        Goal::Missing(7),
    ]) {
        let size = Size::square(n).unwrap();
        let goal = goal.position(size).unwrap();
        let puzzle = Scramble::Uniform.generate(&goal, n as u64);
        let mut replay = puzzle.clone();
        replay
            .apply_all(&solve_fast(&puzzle, &goal).unwrap())
            .unwrap();
        assert_eq!(replay, goal);
    }
}

#[test]
fn no_solution_beats_the_known_optimum_on_korf_felner_instances() {
    // An independent reference: the optimal lengths published with the
    // instances. A shorter "solution" would mean a broken replay or bound.
    // A copy of the shared instance file, so the test needs nothing outside
    // the repository.
    let text = include_str!("data/korf_felner50_24puzzle.txt");
    let size = Size::square(5).unwrap();
    let goal = Goal::BlankFirst.position(size).unwrap();
    let lines = text.lines().filter(|l| !l.starts_with('#'));
    for line in lines.take(6) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let optimal: usize = fields[1].parse().unwrap();
        let tiles = fields[2..].iter().map(|t| t.parse().unwrap()).collect();
        let puzzle = Position::new(size, tiles).unwrap();
        let moves = solve_fast(&puzzle, &goal).unwrap();
        let mut replay = puzzle.clone();
        replay.apply_all(&moves).unwrap();
        assert_eq!(replay, goal);
        assert!(
            moves.len() >= optimal,
            "{} < optimal {optimal}",
            moves.len()
        );
    }
}

#[test]
fn boards_of_at_most_nine_cells_are_solved_optimally() {
    // Brute force: breadth-first distances from the goal over every
    // reachable position of 2 × 3 and 3 × 2, against the solver's lengths.
    for (w, h) in [(3, 2), (2, 3), (2, 2)] {
        let size = Size::new(w, h).unwrap();
        for goal in [Goal::RowMajor, Goal::Spiral] {
            let goal = goal.position(size).unwrap();
            for (position, distance) in distances(&goal) {
                assert_eq!(
                    solve_fast(&position, &goal).unwrap().len(),
                    distance,
                    "{position}"
                );
            }
        }
    }
}

fn distances(goal: &Position) -> HashMap<Position, usize> {
    let mut distance = HashMap::from([(goal.clone(), 0)]);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(position) = queue.pop_front() {
        let d = distance[&position];
        for direction in Direction::ALL {
            let mut next = position.clone();
            if next.apply(direction).is_ok() && !distance.contains_key(&next) {
                distance.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    distance
}

#[test]
fn every_two_by_two_and_three_by_two_position_is_solved() {
    // Exhaustive on the tiny boards: every solvable arrangement.
    for (w, h) in [(2, 2), (3, 2), (2, 3)] {
        let size = Size::new(w, h).unwrap();
        let goal = Goal::RowMajor.position(size).unwrap();
        let mut tiles: Vec<u32> = (0..size.cells() as u32).collect();
        let mut solved = 0;
        permute(&mut tiles, 0, &mut |tiles| {
            let puzzle = Position::new(size, tiles.to_vec()).unwrap();
            if puzzle.is_solvable(&goal).unwrap() {
                let mut replay = puzzle.clone();
                replay
                    .apply_all(&solve_fast(&puzzle, &goal).unwrap())
                    .unwrap();
                assert_eq!(replay, goal);
                solved += 1;
            }
        });
        assert_eq!(solved, (1..=size.cells()).product::<usize>() / 2);
    }
}

fn permute(items: &mut [u32], k: usize, visit: &mut impl FnMut(&[u32])) {
    if k == items.len() {
        return visit(items);
    }
    for i in k..items.len() {
        items.swap(k, i);
        permute(items, k + 1, visit);
        items.swap(k, i);
    }
}

#[test]
fn the_streamed_solution_equals_the_returned_one() {
    let size = Size::new(17, 11).unwrap();
    let goal = Goal::Spiral.position(size).unwrap();
    let puzzle = Scramble::Uniform.generate(&goal, 5);
    let mut streamed = Vec::new();
    let count = solve_fast_with(&puzzle, &goal, &mut |d| streamed.push(d)).unwrap();
    assert_eq!(count as usize, streamed.len());
    assert_eq!(streamed, solve_fast(&puzzle, &goal).unwrap().0);
}

#[test]
fn a_solved_board_needs_no_moves() {
    let goal = Goal::RowMajor.position(Size::new(9, 7).unwrap()).unwrap();
    assert!(solve_fast(&goal, &goal).unwrap().is_empty());
}

#[test]
fn unsolvable_positions_are_refused_before_any_move() {
    let goal = Goal::RowMajor.position(Size::new(6, 5).unwrap()).unwrap();
    let puzzle = Scramble::Uniform
        .generate(&goal, 9)
        .with_first_tiles_swapped();
    let mut emitted = 0;
    let refused = solve_fast_with(&puzzle, &goal, &mut |_| emitted += 1);
    assert!(matches!(refused, Err(FastError::Unsolvable(_))));
    assert_eq!(emitted, 0);
}

#[test]
fn mismatched_goals_are_refused() {
    let puzzle = Goal::RowMajor.position(Size::new(4, 4).unwrap()).unwrap();
    let other = Goal::RowMajor.position(Size::new(5, 4).unwrap()).unwrap();
    assert!(matches!(
        solve_fast(&puzzle, &other),
        Err(FastError::Mismatch(_))
    ));
    let missing = Goal::Missing(3).position(puzzle.size()).unwrap();
    assert!(matches!(
        solve_fast(&puzzle, &missing),
        Err(FastError::Mismatch(_))
    ));
}

#[test]
fn the_stop_hook_ends_a_solve_part_way_and_costs_nothing_unused() {
    use std::cell::Cell;
    let goal = Goal::RowMajor.position(Size::new(60, 60).unwrap()).unwrap();
    let puzzle = Scramble::Uniform.generate(&goal, 5);
    let full = solve_fast(&puzzle, &goal).unwrap();
    // Never saying stop changes nothing, and it is asked at every line.
    let (mut moves, asked) = (Vec::new(), Cell::new(0));
    let never = || {
        asked.set(asked.get() + 1);
        false
    };
    let count = FastSolver::default()
        .solve_until(&puzzle, &goal, &mut |d| moves.push(d), &never)
        .unwrap();
    assert_eq!((count as usize, &moves), (full.len(), &full.0));
    assert!(asked.get() >= 60, "asked {} times", asked.get());
    // Told to stop once 1000 moves are out: it does, long before the end,
    // and what it emitted replays (it leads part of the way).
    let emitted = Cell::new(0usize);
    let mut prefix = puzzle.clone();
    let mut sink = |d: Direction| {
        emitted.set(emitted.get() + 1);
        prefix.apply(d).unwrap();
    };
    let stopped =
        FastSolver::default().solve_until(&puzzle, &goal, &mut sink, &|| emitted.get() >= 1000);
    assert_eq!(stopped, Err(FastError::Stopped));
    assert!(
        (1000..full.len() / 2).contains(&emitted.get()),
        "{} of {} moves",
        emitted.get(),
        full.len()
    );
    assert_ne!(prefix, goal);
    // A small board (searched whole, emitted at the end) stops before any
    // move.
    let small = Goal::RowMajor.position(Size::new(8, 8).unwrap()).unwrap();
    let puzzle = Scramble::Uniform.generate(&small, 5);
    let mut emitted = 0;
    let stopped =
        FastSolver::default().solve_until(&puzzle, &small, &mut |_| emitted += 1, &|| true);
    assert_eq!((stopped, emitted), (Err(FastError::Stopped), 0));
}
