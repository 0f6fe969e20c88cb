//! The analysis of a solve against independent references: every distance
//! on 3 × 3 equals a breadth-first search's, in both metrics; on 4 × 4 the
//! chained distances equal the optimal solver's run on each position on
//! its own; a spent budget leaves bounds, never a wrong exact figure.

use std::collections::{HashMap, VecDeque};

use slide::{
    analyze, solve_optimal, Direction, Goal, HeuristicKind, Metric, Moves, Position, Progress, Rng,
    Scramble, SolveOptions,
};

/// Breadth-first distances from the goal to every position, in `metric`:
/// in MTM a run of one to all tiles of a line is one move.
fn bfs(goal: &Position, metric: Metric) -> HashMap<Position, u32> {
    let mut distance = HashMap::from([(goal.clone(), 0)]);
    let mut queue = VecDeque::from([goal.clone()]);
    let longest = goal.size().width().max(goal.size().height());
    while let Some(position) = queue.pop_front() {
        let d = distance[&position];
        for direction in Direction::ALL {
            let mut next = position.clone();
            let runs = if metric == Metric::Mtm { longest } else { 1 };
            for _ in 0..runs {
                if next.apply(direction).is_err() {
                    break;
                }
                if !distance.contains_key(&next) {
                    distance.insert(next.clone(), d + 1);
                    queue.push_back(next.clone());
                }
            }
        }
    }
    distance
}

/// A random walk of `len` legal moves from `start`.
fn walk(start: &Position, len: usize, rng: &mut Rng) -> Moves {
    let mut at = start.clone();
    let mut moves = Vec::new();
    while moves.len() < len {
        let d = Direction::ALL[rng.below(4) as usize];
        if at.apply(d).is_ok() {
            moves.push(d);
        }
    }
    moves.into_iter().collect()
}

/// A solution a person might play: a random detour, then the optimal way
/// home from wherever it ended.
fn wandering_solution(start: &Position, goal: &Position, rng: &mut Rng) -> Moves {
    let detour = walk(start, rng.below(12) as usize, rng);
    let mut at = start.clone();
    at.apply_all(&detour).unwrap();
    let home = solve_optimal(&at, goal, &SolveOptions::default())
        .unwrap()
        .moves;
    detour.iter().chain(home.iter()).collect()
}

fn positions(start: &Position, steps: &[Moves]) -> Vec<Position> {
    let mut at = start.clone();
    let mut out = vec![at.clone()];
    for step in steps {
        at.apply_all(step).unwrap();
        out.push(at.clone());
    }
    out
}

#[test]
fn every_three_by_three_distance_is_the_breadth_first_one_in_both_metrics() {
    let goal = Goal::RowMajor.position("3x3".parse().unwrap()).unwrap();
    let stm = bfs(&goal, Metric::Stm);
    let mtm = bfs(&goal, Metric::Mtm);
    assert_eq!(stm.len(), 181_440);
    let mut rng = Rng::new(2026);
    for case in 0..1000 {
        let start = Scramble::Uniform.generate(&goal, case);
        let moves = wandering_solution(&start, &goal, &mut rng);
        for (metric, reference) in [(Metric::Stm, &stm), (Metric::Mtm, &mtm)] {
            if metric == Metric::Mtm && case % 5 != 0 {
                continue; // a fifth of the cases in MTM: each is 30-odd solves
            }
            let a = analyze(&start, &goal, &moves, metric, &SolveOptions::default()).unwrap();
            assert!(a.exact() && a.solves(), "{start} {}", moves.compact());
            let expected: Vec<u32> = positions(&start, &a.moves)
                .iter()
                .map(|p| reference[p])
                .collect();
            let got: Vec<u32> = a.distances.iter().map(|d| d.moves).collect();
            assert_eq!(got, expected, "{metric:?} {start} {}", moves.compact());
            assert_eq!(a.best.length(metric) as u32, expected[0]);
            let lost = moves.length(metric) as u32 - expected[0];
            assert_eq!(a.lost(), Some(lost));
            let detours: u32 = a.detours(usize::MAX).iter().map(|d| d.lost).sum();
            assert_eq!(detours, lost, "the stretches add up to the moves lost");
            // Shortened: never longer, and ends solved. (Not always
            // optimal: a detour may end on another position at the same
            // distance, and the way between the two costs moves too.)
            let short = a.shortened(&start, &SolveOptions::default());
            let mut end = start.clone();
            end.apply_all(&short).unwrap();
            assert_eq!(end, goal);
            assert!(short.length(metric) <= moves.length(metric));
            if metric == Metric::Stm {
                // A single-tile move always changes the distance by one.
                assert!(a
                    .progress()
                    .iter()
                    .all(|p| matches!(p, Progress::Towards | Progress::Away)));
            }
        }
    }
}

#[test]
fn an_optimal_solution_loses_nothing_and_a_back_and_forth_loses_two() {
    let goal = Goal::RowMajor.position("3x3".parse().unwrap()).unwrap();
    let start: Position = "8 6 7/2 5 4/3 0 1".parse().unwrap();
    let best = solve_optimal(&start, &goal, &SolveOptions::default())
        .unwrap()
        .moves;
    let a = analyze(&start, &goal, &best, Metric::Stm, &SolveOptions::default()).unwrap();
    assert_eq!(a.lost(), Some(0));
    assert!(a.detours(3).is_empty());
    assert!(a.progress().iter().all(|p| *p == Progress::Towards));
    // Two wasted moves after the fifth: one stretch of two moves losing two.
    let mut wasteful: Vec<Direction> = best.iter().take(5).collect();
    let mut at = start.clone();
    at.apply_all(&wasteful.iter().copied().collect()).unwrap();
    let distance = |p: &Position| {
        solve_optimal(p, &goal, &SolveOptions::default())
            .unwrap()
            .stm()
    };
    let here = distance(&at);
    let away = Direction::ALL
        .into_iter()
        .find(|&d| {
            let mut next = at.clone();
            next.apply(d).is_ok() && distance(&next) > here
        })
        .unwrap();
    wasteful.extend([away, away.inverse()]);
    wasteful.extend(best.iter().skip(5));
    let moves: Moves = wasteful.into_iter().collect();
    let a = analyze(&start, &goal, &moves, Metric::Stm, &SolveOptions::default()).unwrap();
    assert_eq!(a.lost(), Some(2));
    assert_eq!(a.progress()[5], Progress::Away);
    let detours = a.detours(3);
    assert_eq!(detours.len(), 1, "{detours:?}");
    assert_eq!((detours[0].from, detours[0].to, detours[0].lost), (5, 7, 2));
}

#[test]
fn an_unfinished_solve_counts_its_last_detour_in_full() {
    let goal = Goal::RowMajor.position("3x3".parse().unwrap()).unwrap();
    let start: Position = "1 2 3/4 5 6/7 0 8".parse().unwrap();
    // Solved after one move, then two away and one back: 4 lost.
    let moves: Moves = "LRRL".parse().unwrap();
    let a = analyze(&start, &goal, &moves, Metric::Stm, &SolveOptions::default()).unwrap();
    let d: Vec<u32> = a.distances.iter().map(|d| d.moves).collect();
    assert_eq!(d, [1, 0, 1, 2, 1]);
    assert!(!a.solves());
    assert_eq!(a.lost(), Some(4));
    let detours = a.detours(3);
    assert_eq!(detours.len(), 1);
    assert_eq!((detours[0].from, detours[0].to, detours[0].lost), (1, 4, 4));
}

#[test]
fn four_by_four_chained_distances_equal_the_solver_on_each_position() {
    let goal = Goal::RowMajor.position("4x4".parse().unwrap()).unwrap();
    let options = SolveOptions {
        heuristic: HeuristicKind::Manhattan,
        ..SolveOptions::default()
    };
    let mut rng = Rng::new(16);
    for case in 0..20 {
        // Starts a few dozen moves out, so that each solve stays quick
        // with Manhattan distance alone.
        let start = {
            let mut p = goal.clone();
            p.apply_all(&walk(&goal, 36, &mut rng)).unwrap();
            p
        };
        let detour = walk(&start, 10 + case % 7, &mut rng);
        let mut at = start.clone();
        at.apply_all(&detour).unwrap();
        let home = solve_optimal(&at, &goal, &options).unwrap().moves;
        let moves: Moves = detour.iter().chain(home.iter()).collect();
        let a = analyze(&start, &goal, &moves, Metric::Stm, &options).unwrap();
        assert!(a.exact() && a.solves());
        for (p, d) in positions(&start, &a.moves).iter().zip(&a.distances) {
            let alone = solve_optimal(p, &goal, &options).unwrap();
            assert!(alone.optimal);
            assert_eq!(d.moves as usize, alone.stm(), "{p}");
        }
    }
}

#[test]
fn four_by_three_multi_tile_distances_equal_the_solver_on_each_position() {
    // Past the complete tables (10 cells): every distance from a search,
    // or, where the move is the first run of the optimal solution known
    // from the position before, from that solution without one.
    let goal = Goal::RowMajor.position("4x3".parse().unwrap()).unwrap();
    let mut rng = Rng::new(43);
    for case in 0..12 {
        let start = Scramble::Uniform.generate(&goal, 100 + case);
        let detour = walk(&start, 4 + case as usize % 5, &mut rng);
        let mut at = start.clone();
        at.apply_all(&detour).unwrap();
        let home = solve_optimal(&at, &goal, &SolveOptions::default().in_metric(Metric::Mtm))
            .unwrap()
            .moves;
        let moves: Moves = detour.iter().chain(home.iter()).collect();
        let a = analyze(&start, &goal, &moves, Metric::Mtm, &SolveOptions::default()).unwrap();
        assert!(a.exact() && a.solves());
        for (p, d) in positions(&start, &a.moves).iter().zip(&a.distances) {
            let alone =
                solve_optimal(p, &goal, &SolveOptions::default().in_metric(Metric::Mtm)).unwrap();
            assert!(alone.optimal);
            assert_eq!(d.moves as usize, alone.mtm(), "{p}");
        }
    }
}

#[test]
fn a_spent_budget_leaves_bounds_that_never_exceed_the_distance() {
    let goal = Goal::RowMajor.position("4x4".parse().unwrap()).unwrap();
    let start = Scramble::Uniform.generate(&goal, 5);
    let moves = walk(&start, 40, &mut Rng::new(5));
    let tight = SolveOptions {
        heuristic: HeuristicKind::Manhattan,
        node_limit: Some(2_000),
        ..SolveOptions::default()
    };
    let a = analyze(&start, &goal, &moves, Metric::Stm, &tight).unwrap();
    assert!(!a.exact());
    assert_eq!(a.lost(), None);
    assert!(a.detours(3).is_empty());
    assert_eq!(a.distances.len(), 41);
    // A bound is at most the true distance: check the last few, which are
    // no easier than the others, with a full solve.
    let all = positions(&start, &a.moves);
    for (p, d) in all.iter().zip(&a.distances).skip(38) {
        let full = solve_optimal(p, &goal, &SolveOptions::default()).unwrap();
        assert!(
            d.moves as usize <= full.stm(),
            "{p}: {} > {}",
            d.moves,
            full.stm()
        );
    }
}

#[test]
fn an_illegal_move_is_named() {
    let goal = Goal::RowMajor.position("3x3".parse().unwrap()).unwrap();
    let start: Position = "1 2 3/4 5 6/7 8 0".parse().unwrap();
    let moves: Moves = "RRLLL".parse().unwrap();
    let error = analyze(&start, &goal, &moves, Metric::Stm, &SolveOptions::default()).unwrap_err();
    assert_eq!(error.to_string(), "move 5 (L) is not possible there");
}

#[test]
fn beyond_five_by_five_every_distance_is_the_bound_and_the_best_is_the_fast_solution() {
    let goal = Goal::RowMajor.position("6x6".parse().unwrap()).unwrap();
    let start = Scramble::Uniform.generate(&goal, 11);
    // A detour, then the fast solver's way home: a solve a person might send.
    let detour = walk(&start, 30, &mut Rng::new(11));
    let mut at = start.clone();
    at.apply_all(&detour).unwrap();
    let home = slide::solve_fast(&at, &goal).unwrap();
    let moves: Moves = detour.iter().chain(home.iter()).collect();
    for metric in [Metric::Stm, Metric::Mtm] {
        let a = analyze(&start, &goal, &moves, metric, &SolveOptions::default()).unwrap();
        let all = positions(&start, &a.moves);
        assert_eq!(a.distances.len(), a.moves.len() + 1);
        for (p, d) in all.iter().zip(&a.distances) {
            // Counted afresh on each position: the bound kept move by move
            // is the same, and only the goal itself is exact.
            let fresh = slide::LowerBound::new(p, &goal).unwrap();
            let expected = match metric {
                Metric::Stm => fresh.value(),
                Metric::Mtm => fresh.mtm_value(),
            };
            assert_eq!(u64::from(d.moves), expected, "{p}");
            assert_eq!(d.exact, *p == goal);
        }
        assert!(a.solves() && !a.exact());
        assert_eq!(a.lost(), None);
        // The fast solver's solution, never claimed optimal, reaches the goal.
        assert!(!a.best.optimal);
        assert_eq!(a.best.lower_bound, a.distances[0].moves);
        let mut end = start.clone();
        end.apply_all(&a.best.moves).unwrap();
        assert_eq!(end, goal);
        assert!(a.best.moves.length(metric) as u32 >= a.best.lower_bound);
    }
    let bad: Moves = "UUUUUUU".parse().unwrap();
    let error = analyze(&start, &goal, &bad, Metric::Stm, &SolveOptions::default()).unwrap_err();
    assert!(error.to_string().starts_with("move "), "{error}");
}
