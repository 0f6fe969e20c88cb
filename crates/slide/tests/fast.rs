//! The fast solver: every solution replays to the goal, on every kind of
//! goal and board shape; unsolvable and mismatched input is refused.

use proptest::prelude::*;
use slide::{solve_fast, solve_fast_with, FastError, Goal, Position, Scramble, Size};

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

fn check(size: Size, goal: &Goal, seed: u64) -> Result<(), TestCaseError> {
    let goal = goal.position(size).unwrap();
    let puzzle = Scramble::Uniform.generate(&goal, seed);
    let moves = solve_fast(&puzzle, &goal).unwrap();
    let mut replay = puzzle.clone();
    replay.apply_all(&moves).unwrap();
    prop_assert_eq!(replay, goal);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn small_boards_replay_to_the_goal((size, goal, seed) in boards(8)) {
        check(size, &goal, seed)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn boards_up_to_30_replay_to_the_goal((size, goal, seed) in boards(30)) {
        check(size, &goal, seed)?;
    }
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
