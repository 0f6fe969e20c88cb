//! The solver against exhaustive search on small boards, and solutions
//! replayed move by move.

use std::collections::HashSet;

use shisen::{solve, Board, Deal, Game, Matching, Nodes, Rules, Size, TileSet, Verdict};

/// Whether `board` can be cleared, trying every removal in every order
/// (with a memo of failed positions).
fn exhaustive(board: &Board, gravity: bool, failed: &mut HashSet<Board>) -> bool {
    if board.is_cleared() {
        return true;
    }
    if failed.contains(board) {
        return false;
    }
    for m in board.moves() {
        let mut game = Game::new(
            board.clone(),
            Rules {
                matching: board.matching(),
                gravity,
            },
        );
        game.remove(m.a, m.b).unwrap();
        if exhaustive(game.board(), gravity, failed) {
            return true;
        }
    }
    failed.insert(board.clone());
    false
}

/// Plays `moves` from `board` with the game's own checks; whether it ends
/// cleared.
fn replays(board: &Board, gravity: bool, moves: &[shisen::Move]) -> bool {
    let mut game = Game::new(
        board.clone(),
        Rules {
            matching: board.matching(),
            gravity,
        },
    );
    moves.iter().all(|m| game.remove(m.a, m.b).is_ok()) && game.is_won()
}

fn check(board: &Board, gravity: bool) -> bool {
    let solution = solve(
        board,
        Rules {
            matching: board.matching(),
            gravity,
        },
        &mut Nodes(u64::MAX),
    );
    let truth = exhaustive(board, gravity, &mut HashSet::new());
    match solution.verdict {
        Verdict::Solvable(moves) => {
            assert!(
                truth,
                "solver says solvable, exhaustive search disagrees:\n{board}"
            );
            assert!(
                replays(board, gravity, &moves),
                "solution does not replay:\n{board}{moves:?}"
            );
            true
        }
        Verdict::Unsolvable => {
            assert!(
                !truth,
                "solver says unsolvable, exhaustive search solves:\n{board}"
            );
            false
        }
        Verdict::Unknown => panic!("unbounded budget"),
    }
}

#[test]
fn agrees_with_exhaustive_search_on_6x4_boards() {
    let size = Size::new(6, 4).unwrap();
    let (mut solvable, mut total) = (0, 0);
    for set in [
        TileSet::custom(12, 2).unwrap(),
        TileSet::custom(6, 4).unwrap(),
    ] {
        for gravity in [false, true] {
            for seed in 0..300 {
                solvable += usize::from(check(&Deal::random(seed, size, set).unwrap(), gravity));
                total += 1;
            }
        }
    }
    // Both verdicts must occur for the comparison to mean much.
    assert!(solvable > 0 && solvable < total, "{solvable}/{total}");
}

#[test]
fn agrees_with_exhaustive_search_on_chinese_boards() {
    let size = Size::new(6, 4).unwrap();
    for seed in 0..100 {
        let board = Deal::random(seed, size, TileSet::Chinese).unwrap();
        assert_eq!(board.matching(), Matching::Chinese);
        check(&board, false);
        check(&board, true);
    }
}

#[test]
fn solves_classic_deals_and_replays_them() {
    for seed in 0..30 {
        let board = Deal::random(seed, Size::DEFAULT, TileSet::Standard).unwrap();
        for gravity in [false, true] {
            let rules = Rules {
                matching: Matching::Standard,
                gravity,
            };
            let solution = solve(&board, rules, &mut Nodes(2_000_000));
            if let Verdict::Solvable(moves) = &solution.verdict {
                assert_eq!(moves.len(), 72);
                assert!(replays(&board, gravity, moves));
            }
        }
    }
}

#[test]
fn budget_exhaustion_is_unknown() {
    let board = Deal::random(5, Size::DEFAULT, TileSet::Standard).unwrap();
    let solution = solve(
        &board,
        Rules {
            matching: Matching::Standard,
            gravity: true,
        },
        &mut Nodes(1),
    );
    assert_eq!(solution.verdict, Verdict::Unknown);
}

#[test]
fn a_crossed_board_is_unsolvable() {
    let board = shisen::parse_board("12\n21\n", Matching::Standard).unwrap();
    let solution = solve(&board, Rules::default(), &mut Nodes(1000));
    assert_eq!(solution.verdict, Verdict::Unsolvable);
}

#[test]
fn solvable_deals_are_solvable_and_reproducible() {
    let deal = || {
        Deal::solvable(
            9,
            Size::DEFAULT,
            TileSet::Standard,
            Rules::default(),
            &mut Nodes(u64::MAX),
        )
        .unwrap()
        .unwrap()
    };
    let (a, b) = (deal(), deal());
    assert_eq!(a.board, b.board);
    assert!(replays(&a.board, false, &a.solution));
}

#[test]
fn safe_hints_keep_the_game_solvable() {
    let deal = Deal::solvable(
        4,
        Size::new(8, 4).unwrap(),
        TileSet::custom(8, 4).unwrap(),
        Rules::default(),
        &mut Nodes(u64::MAX),
    )
    .unwrap()
    .unwrap();
    let mut game = Game::new(deal.board, Rules::default());
    loop {
        let verdict = game.still_solvable(&mut Nodes(100_000));
        let Some(m) = game.safe_hint(&verdict) else {
            break;
        };
        game.remove(m.a, m.b).unwrap();
    }
    assert!(game.is_won());
}

#[test]
fn solvable_deals_are_exact_rejection_sampling() {
    // The generator must accept exactly the first draw that exhaustive
    // search solves: never skip a solvable draw, never accept another.
    let size = Size::new(6, 4).unwrap();
    let set = TileSet::custom(12, 2).unwrap();
    for gravity in [false, true] {
        let rules = Rules {
            matching: Matching::Standard,
            gravity,
        };
        let mut skipped = 0;
        for seed in 0..40 {
            let deal = Deal::solvable(seed, size, set, rules, &mut Nodes(u64::MAX))
                .unwrap()
                .unwrap();
            let (attempts, first) = (1..)
                .zip(Deal::draw_seeds(seed))
                .map(|(i, draw)| (i, Deal::random(draw, size, set).unwrap()))
                .find(|(_, board)| exhaustive(board, gravity, &mut HashSet::new()))
                .unwrap();
            assert_eq!(deal.attempts, attempts, "seed {seed}");
            assert_eq!(deal.board, first, "seed {seed}");
            assert!(replays(&deal.board, gravity, &deal.solution));
            skipped += attempts - 1;
        }
        // Unsolvable draws must occur for the test to mean much.
        assert!(skipped > 0, "gravity {gravity}");
    }
}

#[test]
fn a_budget_never_changes_the_deal() {
    // Stopping on a draw must give no deal, not move on to the next one.
    let (size, set) = (Size::new(12, 6).unwrap(), TileSet::custom(18, 4).unwrap());
    let rules = Rules {
        matching: Matching::Standard,
        gravity: true,
    };
    let mut stopped = 0;
    for seed in 0..40 {
        let full = Deal::solvable(seed, size, set, rules, &mut Nodes(u64::MAX)).unwrap();
        let full = full.expect("unbounded generation finds a deal");
        match Deal::solvable(seed, size, set, rules, &mut Nodes(300)).unwrap() {
            Some(deal) => assert_eq!(deal.board, full.board, "seed {seed}"),
            None => stopped += 1,
        }
    }
    assert!(stopped > 0);
}

/// A budget by the wall clock, as front ends make one.
struct Clock(std::time::Instant);

impl shisen::Budget for Clock {
    fn allows(&mut self, _nodes: u64) -> bool {
        std::time::Instant::now() < self.0
    }
}

#[test]
fn a_large_board_stops_soon_after_its_budget() {
    // On 64 × 64 one node costs hundreds of milliseconds; checking the
    // budget only between nodes overshot an 8 s limit by 69 s.
    let size = Size::new(64, 64).unwrap();
    let board = Deal::random(1, size, TileSet::Standard).unwrap();
    let rules = Rules::new(board.matching(), false);
    for budget_ms in [300, 1000] {
        let budget = std::time::Duration::from_millis(budget_ms);
        let began = std::time::Instant::now();
        let solution = solve(&board, rules, &mut Clock(began + budget));
        let took = began.elapsed();
        assert!(
            took <= budget + std::time::Duration::from_millis(500),
            "{budget:?} budget took {took:?} ({} nodes)",
            solution.nodes
        );
        match solution.verdict {
            Verdict::Unknown => {}
            Verdict::Solvable(moves) => assert!(replays(&board, false, &moves)),
            Verdict::Unsolvable => panic!("a random 64x64 deal refuted in {took:?}?"),
        }
    }
}
