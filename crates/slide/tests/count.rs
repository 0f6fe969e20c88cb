//! Counting every optimal solution against an independent reference: on
//! 3 × 3 (and 2 × 4), the count of shortest paths over the layers of a
//! breadth-first search from the goal, in both metrics, for 1,000 random
//! positions; every listed solution replays to the goal at the optimal
//! length, the list has no duplicates, and asking for all of them lists as
//! many as were counted.

use std::collections::{HashMap, HashSet, VecDeque};

use slide::{
    all_optimal, Direction, Goal, HeuristicKind, Metric, Position, Rng, Scramble, Size,
    SolveOptions,
};

/// For every position: its distance from the goal in `metric` and how many
/// shortest paths lead there (= from it to the goal: moves reverse). In
/// MTM a run of one to all tiles of a line is one move.
fn shortest_paths(goal: &Position, metric: Metric) -> HashMap<Position, (u32, u128)> {
    let mut layers = HashMap::from([(goal.clone(), (0u32, 1u128))]);
    let mut queue = VecDeque::from([goal.clone()]);
    let longest = goal.size().width().max(goal.size().height());
    while let Some(position) = queue.pop_front() {
        let (d, ways) = layers[&position];
        for direction in Direction::ALL {
            let mut next = position.clone();
            let runs = if metric == Metric::Mtm { longest } else { 1 };
            for _ in 0..runs {
                if next.apply(direction).is_err() {
                    break;
                }
                match layers.get_mut(&next) {
                    None => {
                        layers.insert(next.clone(), (d + 1, ways));
                        queue.push_back(next.clone());
                    }
                    // Another shortest way in.
                    Some((e, count)) if *e == d + 1 => *count += ways,
                    Some(_) => {}
                }
            }
        }
    }
    layers
}

fn check(size: Size, cases: u64) {
    let goal = Goal::RowMajor.position(size).unwrap();
    for metric in [Metric::Stm, Metric::Mtm] {
        let reference = shortest_paths(&goal, metric);
        for case in 0..cases {
            let start = Scramble::Uniform.generate(&goal, case);
            let (distance, ways) = reference[&start];
            let all = all_optimal(
                &start,
                &goal,
                &SolveOptions::default().in_metric(metric),
                50,
            )
            .unwrap();
            assert!(all.complete);
            assert_eq!(
                (all.length as u32, all.count),
                (distance, ways),
                "{start} {metric}"
            );
            let listed: HashSet<String> = all.solutions.iter().map(ToString::to_string).collect();
            assert_eq!(listed.len(), all.solutions.len(), "no solution twice");
            assert_eq!(all.solutions.len() as u128, ways.min(50));
            for moves in &all.solutions {
                let mut at = start.clone();
                at.apply_all(moves).unwrap();
                assert_eq!(at, goal, "{start}: {moves}");
                let length = match metric {
                    Metric::Stm => moves.len(),
                    Metric::Mtm => moves.mtm_len(),
                };
                assert_eq!(length as u32, distance);
            }
        }
    }
}

#[test]
fn counts_equal_shortest_paths_over_the_bfs_layers_on_3x3() {
    check(Size::square(3).unwrap(), 1000);
}

#[test]
fn counts_equal_shortest_paths_over_the_bfs_layers_on_2x4() {
    check(Size::new(4, 2).unwrap(), 500);
}

#[test]
fn a_solved_position_has_one_empty_solution() {
    let goal = Goal::RowMajor.position(Size::square(3).unwrap()).unwrap();
    let all = all_optimal(&goal, &goal, &SolveOptions::default(), 5).unwrap();
    assert_eq!((all.length, all.count, all.solutions.len()), (0, 1, 1));
    assert!(all.solutions[0].is_empty());
}

/// Taxicab distance of every tile to its goal cell.
fn manhattan(position: &Position, goal: &Position) -> u32 {
    let size = position.size();
    let mut total = 0;
    for (cell, &tile) in position.tiles().iter().enumerate() {
        if tile == 0 {
            continue;
        }
        let home = goal.tiles().iter().position(|&t| t == tile).unwrap();
        let ((x, y), (hx, hy)) = (size.coords(cell), size.coords(home));
        total += x.abs_diff(hx) + y.abs_diff(hy);
    }
    total as u32
}

/// Every path of exactly `left` moves to the goal, walked one by one (no
/// table, no memory): the brute-force count. MTM moves are runs.
fn enumerate(
    at: &Position,
    goal: &Position,
    left: u32,
    metric: Metric,
    last: Option<Direction>,
) -> u128 {
    let longest = at.size().width().max(at.size().height());
    let per = if metric == Metric::Mtm {
        longest as u32 - 1
    } else {
        1
    };
    if manhattan(at, goal).div_ceil(per) > left {
        return 0;
    }
    if left == 0 {
        return u128::from(at == goal);
    }
    let mut total = 0;
    for direction in Direction::ALL {
        // A shortest path never undoes its last move, nor (in MTM) goes
        // on with it as a second move.
        if last == Some(direction.inverse()) || (metric == Metric::Mtm && last == Some(direction)) {
            continue;
        }
        let mut next = at.clone();
        let runs = if metric == Metric::Mtm { longest } else { 1 };
        for _ in 0..runs {
            if next.apply(direction).is_err() {
                break;
            }
            total += enumerate(&next, goal, left - 1, metric, Some(direction));
        }
    }
    total
}

/// 4 × 4, where the bound is the pattern databases (or Manhattan): the
/// counts equal a brute-force enumeration of the paths, in both metrics.
#[test]
fn counts_on_4x4_equal_a_brute_force_enumeration() {
    let goal = Goal::RowMajor.position(Size::square(4).unwrap()).unwrap();
    let mut rng = Rng::new(11);
    for case in 0..24 {
        let mut start = goal.clone();
        let mut last: Option<Direction> = None;
        for _ in 0..(14 + case % 8) {
            let moves: Vec<Direction> = start
                .legal_moves()
                .filter(|d| Some(d.inverse()) != last)
                .collect();
            let d = moves[rng.below(moves.len() as u64) as usize];
            start.apply(d).unwrap();
            last = Some(d);
        }
        let metric = if case % 3 == 0 {
            Metric::Mtm
        } else {
            Metric::Stm
        };
        let heuristic = if case % 2 == 0 {
            HeuristicKind::Manhattan
        } else {
            HeuristicKind::default()
        };
        let options = SolveOptions {
            heuristic,
            ..SolveOptions::default()
        };
        let all = all_optimal(&start, &goal, &options.in_metric(metric), 3).unwrap();
        let brute = enumerate(&start, &goal, all.length as u32, metric, None);
        assert_eq!(all.count, brute, "{start} {metric}");
        assert!(all.count >= 1);
        for moves in &all.solutions {
            let mut at = start.clone();
            at.apply_all(moves).unwrap();
            assert_eq!(at, goal);
        }
    }
}
