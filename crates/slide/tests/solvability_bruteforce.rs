//! The solvability rule against the whole state graph: for every
//! arrangement of small boards, breadth-first reachability from the goal
//! must agree with the parity rule, for every built-in goal.

use slide::{Direction, Goal, Position, Size};
use std::collections::VecDeque;

/// Rank of a permutation of 0..n in lexicographic order (Lehmer code).
fn rank(tiles: &[u32]) -> usize {
    let n = tiles.len();
    let mut rank = 0;
    for i in 0..n {
        let smaller = tiles[i + 1..].iter().filter(|&&t| t < tiles[i]).count();
        rank = rank * (n - i) + smaller;
    }
    rank
}

fn unrank(mut rank: usize, n: usize) -> Vec<u32> {
    let mut digits = vec![0; n];
    for i in (0..n).rev() {
        let base = n - i;
        digits[i] = rank % base;
        rank /= base;
    }
    let mut pool: Vec<u32> = (0..n as u32).collect();
    digits.into_iter().map(|d| pool.remove(d)).collect()
}

/// Every arrangement reachable from `goal`, by breadth-first search.
fn reachable(goal: &Position) -> Vec<bool> {
    let n = goal.size().cells();
    let total: usize = (1..=n).product();
    let mut seen = vec![false; total];
    let mut queue = VecDeque::from([goal.clone()]);
    seen[rank(goal.tiles())] = true;
    while let Some(position) = queue.pop_front() {
        for d in Direction::ALL {
            let mut next = position.clone();
            if next.apply(d).is_ok() {
                let r = rank(next.tiles());
                if !seen[r] {
                    seen[r] = true;
                    queue.push_back(next);
                }
            }
        }
    }
    seen
}

fn check_board(width: usize, height: usize) {
    let size = Size::new(width, height).unwrap();
    let n = size.cells();
    for goal in [Goal::RowMajor, Goal::BlankFirst, Goal::Snake, Goal::Spiral] {
        let goal = goal.position(size).unwrap();
        let seen = reachable(&goal);
        let reached = seen.iter().filter(|&&s| s).count();
        assert_eq!(
            reached * 2,
            seen.len(),
            "{size} {goal}: half the arrangements are reachable"
        );
        for (r, &is_reachable) in seen.iter().enumerate() {
            let position = Position::new(size, unrank(r, n)).unwrap();
            let rule = position.is_solvable(&goal).unwrap();
            assert_eq!(
                rule, is_reachable,
                "{size} goal {goal}: position {position}"
            );
        }
    }
}

#[test]
fn two_by_two() {
    check_board(2, 2);
}

#[test]
fn two_by_three_and_three_by_two() {
    check_board(2, 3);
    check_board(3, 2);
}

#[test]
fn two_by_four_and_four_by_two() {
    check_board(2, 4);
    check_board(4, 2);
}

#[test]
fn three_by_three() {
    check_board(3, 3);
}

#[test]
fn missing_number_goals_follow_the_same_rule() {
    // Labels 1..9 without 5 on 3×3: relabel onto 0..8 to reuse the ranking.
    let size = Size::new(3, 3).unwrap();
    let goal = Goal::Missing(5).position(size).unwrap();
    let dense = |p: &Position| -> Vec<u32> {
        p.tiles()
            .iter()
            .map(|&t| if t > 5 { t - 1 } else { t })
            .collect()
    };
    let dense_goal = Position::new(size, dense(&goal)).unwrap();
    let seen = reachable(&dense_goal);
    for (r, &is_reachable) in seen.iter().enumerate() {
        let tiles: Vec<u32> = unrank(r, 9)
            .into_iter()
            .map(|t| if t >= 5 { t + 1 } else { t })
            .collect();
        let position = Position::new(size, tiles).unwrap();
        assert_eq!(
            position.is_solvable(&goal).unwrap(),
            is_reachable,
            "{position}"
        );
    }
}
