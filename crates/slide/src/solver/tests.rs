//! The solvers against an independent reference: breadth-first search
//! over [`Position`]s with the public move rules, on boards small enough to
//! enumerate, for every kind of goal.

use super::heuristic::{dual_sets, Estimate, Lookups, Manhattan, Patterns};
use super::*;
use crate::{Goal, Scramble};
use std::collections::HashMap;

/// Optimal distance of every position that reaches `goal`, by plain BFS.
fn brute_force(goal: &Position) -> HashMap<Position, u32> {
    let mut distances = HashMap::from([(goal.clone(), 0)]);
    let mut frontier = vec![goal.clone()];
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for position in &frontier {
            for d in position.legal_moves() {
                let mut child = position.clone();
                child.apply(d).unwrap();
                if !distances.contains_key(&child) {
                    distances.insert(child.clone(), depth);
                    next.push(child);
                }
            }
        }
        frontier = next;
    }
    distances
}

fn goals(size: Size) -> Vec<Position> {
    let n = size.cells() as u32;
    let mut custom: Vec<u32> = (0..n).rev().collect();
    custom.swap(0, n as usize / 2);
    [
        Goal::RowMajor,
        Goal::BlankFirst,
        Goal::Snake,
        Goal::Spiral,
        Goal::Missing(2),
        Goal::Custom(Position::new(size, custom).unwrap()),
    ]
    .iter()
    .map(|g| g.position(size).unwrap())
    .collect()
}

fn replays(start: &Position, moves: &Moves, goal: &Position) -> bool {
    let mut p = start.clone();
    p.apply_all(moves).is_ok() && p == *goal
}

#[test]
fn tables_agree_with_brute_force_for_every_goal() {
    for size in ["2x2", "2x3", "3x2", "2x4", "3x3"] {
        let size: Size = size.parse().unwrap();
        for goal in goals(size) {
            let reference = brute_force(&goal);
            assert_eq!(reference.len(), (1..=size.cells()).product::<usize>() / 2);
            for (i, (position, &d)) in reference.iter().enumerate() {
                let start = Canonical::new(position, &goal).unwrap();
                let table = DistanceTable::get(size, goal.blank());
                assert_eq!(table.distance(&start.cells), Some(d), "{position} → {goal}");
                if i % 97 == 0 {
                    let solution =
                        solve_optimal(position, &goal, &SolveOptions::default()).unwrap();
                    assert_eq!(solution.moves.len() as u32, d);
                    assert!(solution.optimal);
                    assert!(
                        replays(position, &solution.moves, &goal),
                        "{position} → {goal}"
                    );
                }
            }
        }
    }
}

#[test]
fn unsolvable_positions_are_answered_at_once() {
    let goal = Goal::RowMajor.position("4x4".parse().unwrap()).unwrap();
    let swapped = goal.with_first_tiles_swapped();
    assert_eq!(
        solve_optimal(&swapped, &goal, &SolveOptions::default()),
        Err(SolveError::Unsolvable)
    );
    let big = Goal::RowMajor.position("6x6".parse().unwrap()).unwrap();
    assert!(matches!(
        solve_optimal(&big, &big, &SolveOptions::default()),
        Err(SolveError::TooLarge { .. })
    ));
}

/// IDA* on a small board, run directly (the public entry point would use
/// the complete table there).
fn ida(position: &Position, goal: &Position, kind: HeuristicKind) -> Solution {
    let start = Canonical::new(position, goal).unwrap();
    let grid = Grid::new(position.size());
    let options = SolveOptions {
        heuristic: kind,
        databases: Some(&Databases::new()),
        ..SolveOptions::default()
    };
    match kind {
        HeuristicKind::Manhattan => search(
            &grid,
            &Manhattan::new(&grid, start.goal_blank),
            &start,
            &options,
        ),
        kind => {
            // Half the time with the dual sets loaded: whole dual lookups.
            if position.size().cells().is_multiple_of(2) {
                for (blank, kind) in dual_sets(position.size(), kind) {
                    let _ = Patterns::new(
                        position.size(),
                        blank,
                        kind,
                        Lookups::Regular,
                        options.databases(),
                    );
                }
            }
            let patterns = Patterns::new(
                position.size(),
                start.goal_blank,
                kind,
                Lookups::Dual,
                options.databases(),
            );
            search(&grid, &patterns, &start, &options)
        }
    }
}

#[test]
fn ida_star_is_optimal_with_every_heuristic() {
    for size in ["3x3", "2x4", "2x5"] {
        let size: Size = size.parse().unwrap();
        for goal in goals(size) {
            let table = DistanceTable::get(size, goal.blank());
            for seed in 0..12 {
                let position = Scramble::Uniform.generate(&goal, seed);
                let exact = table
                    .distance(&Canonical::new(&position, &goal).unwrap().cells)
                    .unwrap();
                for kind in [
                    HeuristicKind::Manhattan,
                    HeuristicKind::Small,
                    HeuristicKind::Large,
                ] {
                    let solution = ida(&position, &goal, kind);
                    assert_eq!(
                        solution.moves.len() as u32,
                        exact,
                        "{kind:?} {position} → {goal}"
                    );
                    assert!(solution.optimal && solution.lower_bound == exact);
                    assert!(replays(&position, &solution.moves, &goal));
                }
            }
        }
    }
}

#[test]
fn pattern_databases_are_admissible_and_exact_for_a_full_pattern() {
    for size in ["3x3", "2x4"] {
        let size: Size = size.parse().unwrap();
        let n = size.cells();
        for goal_blank in [0, n - 1, n / 2] {
            let table = DistanceTable::get(size, goal_blank);
            let full: Vec<u8> = (0..n as u8).filter(|&c| c as usize != goal_blank).collect();
            let exact = PatternDatabase::build(&PatternSpec::new(size, full.clone()), &mut |_| {});
            let part = PatternSpec::new(size, full[..4].to_vec());
            let partial = PatternDatabase::build(&part, &mut |_| {});
            let databases = Databases::new();
            let large = HeuristicKind::Large;
            let regular = Patterns::new(size, goal_blank, large, Lookups::Regular, &databases);
            // Only the regular tables loaded: the partial dual lookup.
            let partial_dual = Patterns::new(size, goal_blank, large, Lookups::Dual, &databases);
            // Every dual set loaded: the whole dual lookup on every cell.
            for (blank, kind) in dual_sets(size, large) {
                let _ = Patterns::new(size, blank, kind, Lookups::Regular, &databases);
            }
            let patterns = Patterns::new(size, goal_blank, large, Lookups::Dual, &databases);
            let mut dual_stronger = [0; 2];
            for r in 0..table::factorial(n) {
                let cells = table::unrank(r, n);
                let Some(d) = table.distance(&cells) else {
                    continue;
                };
                let start = Canonical {
                    size,
                    blank: cells
                        .iter()
                        .position(|&t| t as usize == goal_blank)
                        .unwrap(),
                    cells,
                    goal_blank,
                };
                let positions = start.positions();
                let at = |tiles: &[u8]| -> Vec<u8> {
                    tiles.iter().map(|&t| positions[t as usize]).collect()
                };
                // Exact, but where four bits cannot hold the excess over
                // the Manhattan sum (a few 2 × 4 positions): then lower.
                let v = exact.value(&at(&full)) as u32;
                assert!(v == d || (exact.capped() > 0 && v < d), "{v} vs {d}");
                assert!(partial.value(&at(part.cells())) as u32 <= d);
                let regular = regular.initial(&positions).0;
                assert!(regular <= d);
                assert_eq!(regular, patterns.initial(&positions).0);
                let dual = patterns.dual(&start.cells, start.blank, u32::MAX);
                assert!(dual <= d, "dual {dual} > {d} for {:?}", start.cells);
                let weaker = partial_dual.dual(&start.cells, start.blank, u32::MAX);
                assert!(
                    weaker <= d,
                    "partial dual {weaker} > {d} for {:?}",
                    start.cells
                );
                dual_stronger[0] += u32::from(weaker > regular);
                dual_stronger[1] += u32::from(dual > regular);
            }
            // Both dual lookups add something.
            assert!(
                dual_stronger.iter().all(|&k| k > 1000),
                "{size} blank {goal_blank}: {dual_stronger:?}"
            );
        }
    }
}

#[test]
fn twelve_cell_boards_are_solved_by_ida_star() {
    let size: Size = "3x4".parse().unwrap();
    for goal in goals(size) {
        for seed in 0..3 {
            let position = Scramble::Uniform.generate(&goal, seed);
            let solution = solve_optimal(&position, &goal, &SolveOptions::default()).unwrap();
            assert!(solution.optimal);
            assert!(replays(&position, &solution.moves, &goal));
            // Manhattan IDA* is a slower, independent check of the length.
            let manhattan = ida(&position, &goal, HeuristicKind::Manhattan);
            assert_eq!(manhattan.moves.len(), solution.moves.len());
        }
    }
}

#[test]
fn a_stopped_search_still_returns_a_solution_and_a_lower_bound() {
    let goal = Goal::RowMajor.position("3x4".parse().unwrap()).unwrap();
    let position = Scramble::Uniform.generate(&goal, 5);
    let full = solve_optimal(&position, &goal, &SolveOptions::default()).unwrap();
    let options = SolveOptions {
        heuristic: HeuristicKind::Manhattan,
        node_limit: Some(1),
        ..SolveOptions::default()
    };
    let bounded = solve_optimal(&position, &goal, &options).unwrap();
    assert!(replays(&position, &bounded.moves, &goal));
    assert!(bounded.lower_bound <= full.moves.len() as u32);
    assert!(bounded.moves.len() >= full.moves.len());
}

#[test]
fn hints_start_an_optimal_solution() {
    let goal = Goal::Spiral.position("3x3".parse().unwrap()).unwrap();
    let table = DistanceTable::get(goal.size(), goal.blank());
    for seed in 0..50 {
        let mut position = Scramble::Uniform.generate(&goal, seed);
        let before = table
            .distance(&Canonical::new(&position, &goal).unwrap().cells)
            .unwrap();
        match hint(&position, &goal, &SolveOptions::default()).unwrap() {
            None => assert_eq!(before, 0),
            Some(d) => {
                position.apply(d).unwrap();
                let after = table
                    .distance(&Canonical::new(&position, &goal).unwrap().cells)
                    .unwrap();
                assert_eq!(after + 1, before);
            }
        }
    }
}

#[test]
fn puzzles_of_a_chosen_length() {
    let goal = Goal::RowMajor.position("3x3".parse().unwrap()).unwrap();
    let range: LengthRange = "20..22".parse().unwrap();
    for seed in 0..20 {
        let (position, solution) =
            with_optimal_length(&goal, range, seed, &SolveOptions::default()).unwrap();
        let length = solution.moves.len() as u32;
        assert!((20..=22).contains(&length));
        assert!(replays(&position, &solution.moves, &goal));
        let again = with_optimal_length(&goal, range, seed, &SolveOptions::default()).unwrap();
        assert_eq!(again.0, position);
    }
    assert!(matches!(
        with_optimal_length(
            &goal,
            "32..40".parse().unwrap(),
            1,
            &SolveOptions::default()
        ),
        Err(DifficultyError::Unreachable { longest: 31, .. })
    ));
    assert!(matches!(
        "9..3".parse::<LengthRange>(),
        Err(DifficultyError::Empty { .. })
    ));
    assert!(matches!(
        "a..3".parse::<LengthRange>(),
        Err(DifficultyError::Syntax(_))
    ));
}

#[test]
fn bounded_mode_on_five_by_five_returns_a_replayable_solution() {
    let goal = Goal::BlankFirst.position("5x5".parse().unwrap()).unwrap();
    let position = Scramble::Walk(40).generate(&goal, 3);
    let options = SolveOptions {
        heuristic: HeuristicKind::Manhattan,
        node_limit: Some(200_000),
        ..SolveOptions::default()
    };
    let solution = solve_optimal(&position, &goal, &options).unwrap();
    assert!(replays(&position, &solution.moves, &goal));
    assert!(solution.lower_bound <= solution.moves.len() as u32);
}

#[test]
fn seeding_from_the_goal_blank_region_is_stronger_and_still_admissible() {
    let size: Size = "3x3".parse().unwrap();
    // Tiles 1 and 3 at home wall the blank into cell 0.
    let walled = PatternSpec::with_goal_blank(size, vec![1, 3, 4], 0);
    assert_eq!(walled.goal_blank(), Some(0));
    assert!(walled.file_name().ends_with("-b0.pdb"));
    let open = PatternSpec::with_goal_blank(size, vec![1, 2, 4], 0);
    assert_eq!(open.goal_blank(), None);
    let seeded = PatternDatabase::build(&walled, &mut |_| {});
    let anywhere = PatternDatabase::build(&PatternSpec::new(size, vec![1, 3, 4]), &mut |_| {});
    let back = PatternDatabase::from_bytes(&walled, seeded.to_bytes()).unwrap();
    assert_eq!(back.spec(), &walled);
    let table = DistanceTable::get(size, 0);
    let mut stronger = 0;
    for r in 0..table::factorial(9) {
        let cells = table::unrank(r, 9);
        let Some(d) = table.distance(&cells) else {
            continue;
        };
        let positions = Canonical {
            size,
            blank: cells.iter().position(|&t| t == 0).unwrap(),
            cells,
            goal_blank: 0,
        }
        .positions();
        let at: Vec<u8> = [1, 3, 4].iter().map(|&t| positions[t]).collect();
        let (s, a) = (seeded.value(&at), anywhere.value(&at));
        assert!(a <= s && s as u32 <= d);
        stronger += usize::from(s > a);
    }
    assert!(stronger > 0);
}

/// Window shortening keeps a path a solution and never lengthens it, and
/// a path no longer than the shortest window comes out optimal: checked
/// against breadth-first distances on 3 × 3, with detours (a walk and its
/// way back) put into optimal solutions.
#[test]
fn window_shortening_keeps_solutions_and_finds_short_ones_optimal() {
    let size: Size = "3x3".parse().unwrap();
    let goal = Goal::RowMajor.position(size).unwrap();
    let distances = brute_force(&goal);
    let grid = Grid::new(size);
    let mut positions: Vec<&Position> = distances.keys().collect();
    positions.sort_by_key(ToString::to_string);
    let mut walk_seed = 0usize;
    let mut exact = 0;
    // A sample of all, and every position at most 6 moves out.
    let near = positions.iter().filter(|p| distances[**p] <= 6);
    let sample = positions.iter().step_by(997).chain(near).enumerate();
    for (i, position) in sample {
        // An optimal solution, by the distances.
        let mut optimal = Vec::new();
        let mut at = (*position).clone();
        while at != goal {
            let step = at
                .legal_moves()
                .find(|&d| {
                    let mut next = at.clone();
                    next.apply(d).unwrap();
                    distances[&next] + 1 == distances[&at]
                })
                .unwrap();
            at.apply(step).unwrap();
            optimal.push(step);
        }
        // A detour of `walk` moves and back, before the solution.
        for walk in [1, 2, 3, 8] {
            let mut detour = Vec::new();
            let mut at = (*position).clone();
            for _ in 0..walk {
                walk_seed = walk_seed.wrapping_mul(31).wrapping_add(7);
                let moves: Vec<Direction> = at.legal_moves().collect();
                let d = moves[walk_seed % moves.len()];
                at.apply(d).unwrap();
                detour.push(d);
            }
            let back: Vec<Direction> = detour.iter().rev().map(|d| d.inverse()).collect();
            let path: Vec<Direction> = detour
                .into_iter()
                .chain(back)
                .chain(optimal.clone())
                .collect();
            let start = Canonical::new(position, &goal).unwrap();
            let shortened = window::shorten(&grid, &start, path.clone(), Limits::default());
            let mut replay = (*position).clone();
            replay.apply_all(&Moves(shortened.clone())).unwrap();
            assert_eq!(replay, goal, "position {i}");
            assert!(shortened.len() <= path.len());
            if path.len() <= 12 {
                assert_eq!(shortened.len(), optimal.len(), "{position}: {path:?}");
                exact += 1;
            }
        }
    }
    assert!(exact > 100, "{exact} short paths");
}

/// A weighted search that improves on its first solution keeps to the
/// rules of every search: what it returns replays to the goal and is no
/// shorter than the breadth-first distance; it is never longer than the
/// first solution the same weight finds, often shorter; and where no
/// solution is shorter than the limit it says so; going on past that
/// iteration with no budget, it ends at the optimum. Checked on 3 × 3 with
/// the Manhattan bound, at weights 3 and 3/2.
#[test]
fn improving_weighted_search_finds_shorter_solutions_never_wrong_ones() {
    let size: Size = "3x3".parse().unwrap();
    let goal = Goal::RowMajor.position(size).unwrap();
    let distances = brute_force(&goal);
    let grid = Grid::new(size);
    let mut positions: Vec<&Position> = distances.keys().collect();
    positions.sort_by_key(ToString::to_string);
    let mut shorter = 0;
    for position in positions.iter().step_by(499) {
        let distance = distances[*position];
        if distance == 0 {
            continue;
        }
        let start = Canonical::new(position, &goal).unwrap();
        let estimate = Manhattan::new(&grid, start.goal_blank);
        for (num, den) in [(3, 1), (3, 2)] {
            let search = || {
                Search::new(&grid, &estimate, &start.cells, Limits::default()).with_weight(num, den)
            };
            let Outcome::Found(first) = search().run(start.blank, u32::MAX) else {
                panic!("{position}: no solution at w = {num}/{den}");
            };
            let Outcome::Found(improved) = search().improving(false).run(start.blank, u32::MAX)
            else {
                panic!("{position}: no improved solution at w = {num}/{den}");
            };
            let mut replay = (*position).clone();
            replay.apply_all(&Moves(improved.clone())).unwrap();
            assert_eq!(replay, goal, "{position}");
            assert!(improved.len() >= distance as usize, "{position}");
            assert!(improved.len() <= first.len(), "{position}");
            shorter += usize::from(improved.len() < first.len());
            // Going on without a budget, it ends only when the limit
            // prunes every node: at the optimum.
            let Outcome::Found(kept_on) = search().improving(true).run(start.blank, u32::MAX)
            else {
                panic!("{position}: no solution going on at w = {num}/{den}");
            };
            assert_eq!(kept_on.len(), distance as usize, "{position}");
            // Nothing is shorter than the optimum.
            assert!(matches!(
                search().improving(true).run(start.blank, distance),
                Outcome::None
            ));
        }
    }
    assert!(shorter > 10, "{shorter} improved");
}
