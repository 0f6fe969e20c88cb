//! Playing a game: removal, gravity, undo and redo, shuffle, hints.

use shisen::{parse_board, Action, Deal, Game, Matching, MoveError, Point, Rules, Size, TileSet};

fn p(x: i32, y: i32) -> Point {
    Point::new(x, y)
}

fn game(text: &str, gravity: bool) -> Game {
    Game::new(
        parse_board(text, Matching::Standard).unwrap(),
        Rules {
            matching: Matching::Standard,
            gravity,
        },
    )
}

#[test]
fn removal_checks_tiles_kinds_and_paths() {
    let mut g = game("1.2\n.12\n", false);
    assert_eq!(
        g.remove(p(0, 0), p(0, 0)),
        Err(MoveError::SameTile(p(0, 0), p(0, 0)))
    );
    assert!(matches!(
        g.remove(p(0, 0), p(2, 0)),
        Err(MoveError::Mismatch(..))
    ));
    assert_eq!(g.remove(p(0, 0), p(5, 5)), Err(MoveError::NoTile(p(5, 5))));
    let path = g.remove(p(0, 0), p(1, 1)).unwrap();
    assert_eq!(path.turns(), 1);
    assert_eq!(g.board().to_string(), "..2\n..2\n");
    assert_eq!(g.remove(p(0, 0), p(1, 1)), Err(MoveError::NoTile(p(0, 0))));
}

#[test]
fn blocked_pairs_are_refused() {
    let mut g = game("2222\n2112\n2222\n2222\n", false);
    assert_eq!(g.remove(p(1, 1), p(2, 1)).map(|p| p.length()), Ok(1));
    let mut g = game("22222\n21312\n23332\n22222\n", false);
    assert_eq!(
        g.remove(p(1, 1), p(3, 1)),
        Err(MoveError::NoPath(p(1, 1), p(3, 1)))
    );
}

#[test]
fn gravity_drops_tiles_above() {
    let mut g = game("1.\n23\n13\n2.\n", true);
    g.remove(p(1, 1), p(1, 2)).unwrap();
    assert_eq!(g.board().to_string(), "1.\n2.\n1.\n2.\n");
    let mut g = game("31\n1.\n2.\n3.\n2.\n", true);
    g.remove(p(0, 1), p(1, 0)).unwrap();
    assert_eq!(g.board().to_string(), "..\n3.\n2.\n3.\n2.\n");
    // Without gravity the same removal leaves the 3 in place.
    let mut g = game("31\n1.\n2.\n3.\n2.\n", false);
    g.remove(p(0, 1), p(1, 0)).unwrap();
    assert_eq!(g.board().to_string(), "3.\n..\n2.\n3.\n2.\n");
}

#[test]
fn undo_redo_and_restart_walk_the_history() {
    let mut g = game("1122\n3344\n", false);
    let boards: Vec<String> = {
        let mut seen = vec![g.board().to_string()];
        for (a, b) in [(p(0, 0), p(1, 0)), (p(2, 0), p(3, 0)), (p(0, 1), p(1, 1))] {
            g.remove(a, b).unwrap();
            seen.push(g.board().to_string());
        }
        seen
    };
    assert!(g.undo());
    assert_eq!(g.board().to_string(), boards[2]);
    assert!(g.undo() && g.undo());
    assert!(!g.undo());
    assert_eq!(g.board().to_string(), boards[0]);
    assert!(g.go_to(3));
    assert_eq!(g.board().to_string(), boards[3]);
    assert!(!g.redo());
    g.restart();
    assert_eq!(g.step(), 0);
    assert_eq!(g.redoable(), 3);
    assert!(g.redo());
    assert_eq!(g.board().to_string(), boards[1]);
    // A new move drops the redoable branch.
    g.remove(p(0, 1), p(1, 1)).unwrap();
    assert_eq!(g.redoable(), 0);
    assert_eq!(g.history().len(), 2);
    assert!(matches!(g.history()[1], Action::Remove(_)));
    assert_eq!(g.stats().undos, 6);
}

#[test]
fn stuck_boards_are_detected_and_shuffles_keep_the_tiles() {
    // Diagonal pairs in a full 2 × 2: every way out is blocked.
    assert!(game("12\n21\n", false).is_stuck());
    // Taller, the same pattern connects round the ring.
    assert!(!game("12\n21\n12\n21\n", false).is_stuck());
    assert!(!game("1..2\n....\n2..1\n", false).is_stuck());
    let mut g = game("22222\n21332\n23312\n22222\n", false);
    g.remove(p(0, 0), p(1, 0)).unwrap();
    let before = sorted(g.board().to_string());
    g.shuffle(9);
    assert_eq!(sorted(g.board().to_string()), before);
    assert_eq!(g.stats().shuffles, 1);
    assert!(g.board().has_moves());
    assert!(matches!(g.history()[1], Action::Shuffle));
    let mut same = game("22222\n21332\n23312\n22222\n", false);
    same.remove(p(0, 0), p(1, 0)).unwrap();
    same.shuffle(9);
    assert_eq!(same.board(), g.board(), "a seed reproduces its shuffle");
    let mut stuck = game("12\n21\n12\n21\n", false);
    stuck.shuffle(1);
    assert!(stuck.board().has_moves());
}

fn sorted(s: String) -> Vec<char> {
    let mut v: Vec<char> = s.chars().collect();
    v.sort_unstable();
    v
}

#[test]
fn hints_are_moves_and_are_counted() {
    let board = Deal::random(3, Size::DEFAULT, TileSet::Standard).unwrap();
    let mut g = Game::new(board, Rules::default());
    let hint = g.hint().unwrap();
    assert!(g.board().is_move(hint.a, hint.b));
    assert_eq!(g.stats().hints, 1);
    let before = g.score(60);
    g.remove(hint.a, hint.b).unwrap();
    assert!(g.score(60) > before);
    assert!(g.score(60) >= g.score(600), "slower play scores no more");
}

#[test]
fn a_game_can_be_played_out_by_hints_or_gets_stuck() {
    for seed in 0..20 {
        let board = Deal::random(
            seed,
            Size::new(8, 4).unwrap(),
            TileSet::custom(8, 4).unwrap(),
        )
        .unwrap();
        for gravity in [false, true] {
            let mut g = Game::new(
                board.clone(),
                Rules {
                    matching: Matching::Standard,
                    gravity,
                },
            );
            while let Some(m) = g.hint() {
                g.remove(m.a, m.b).unwrap();
            }
            assert!(g.is_won() || g.is_stuck());
            assert_eq!(g.is_won(), g.board().tiles_left() == 0);
        }
    }
}
