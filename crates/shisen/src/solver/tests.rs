use super::*;
use crate::{Deal, Game, Size, TileSet};

/// Whether `board` can be cleared without gravity, trying every pair.
fn exhaustive(board: &Board, failed: &mut HashSet<u64>) -> bool {
    if board.is_cleared() {
        return true;
    }
    if failed.contains(&board.position_key()) {
        return false;
    }
    for m in board.moves() {
        let mut next = board.clone();
        next.remove_pair(m.a, m.b, false);
        if exhaustive(&next, failed) {
            return true;
        }
    }
    failed.insert(board.position_key());
    false
}

#[test]
fn probing_everywhere_agrees_with_exhaustive_search() {
    // Easy boards never reach probing in `solve`: force it at every node.
    let size = Size::new(8, 6).unwrap();
    let set = TileSet::custom(12, 4).unwrap();
    let mut unsolvable = 0;
    for seed in 0..100 {
        let board = Deal::random(seed, size, set).unwrap();
        let truth = exhaustive(&board, &mut HashSet::new());
        let rules = Rules::default();
        match solve_probing_from(&board, rules, &mut Nodes(u64::MAX), 0).verdict {
            Verdict::Solvable(moves) => {
                assert!(truth, "seed {seed}");
                let mut game = Game::new(board, rules);
                assert!(moves.iter().all(|m| game.remove(m.a, m.b).is_ok()));
                assert!(game.is_won());
            }
            Verdict::Unsolvable => {
                assert!(!truth, "seed {seed}");
                unsolvable += 1;
            }
            Verdict::Unknown => panic!("unbounded"),
        }
    }
    assert!(unsolvable > 0, "{unsolvable}");
}

#[test]
fn luby_sequence() {
    let terms: Vec<u64> = (1..=15).map(luby).collect();
    assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
}
