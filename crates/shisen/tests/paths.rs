//! Paths against the brute-force reference on many random boards.

mod reference;

use shisen::{Board, Point, Rng, Size};

/// Compares `board.path(a, b)` with the reference; returns whether a path
/// exists.
fn agree(board: &Board, a: Point, b: Point) -> bool {
    let expected = reference::shortest(board, a, b);
    let got = board.path(a, b);
    let got_measure = got.map(|p| (p.length(), p.turns()));
    assert_eq!(got_measure, expected, "{a} → {b} on\n{board}got {got:?}");
    if let Some(path) = got {
        if let Err(e) = reference::check_path(board, a, b, path.points()) {
            panic!("{a} → {b} on\n{board}{e}: {:?}", path.points());
        }
    }
    got.is_some()
}

fn random_point(rng: &mut Rng, board: &Board) -> Point {
    Point::new(
        rng.below(board.width() as u64) as i32,
        rng.below(board.height() as u64) as i32,
    )
}

/// An occupied cell if the board has one, else any cell.
fn random_tile(rng: &mut Rng, board: &Board) -> Point {
    for _ in 0..8 {
        let p = random_point(rng, board);
        if board.get(p).is_some() {
            return p;
        }
    }
    random_point(rng, board)
}

/// Runs `boards` random boards with sizes up to `max_w × max_h` and every
/// density, several queries each: random tiles, a tile and a neighbour,
/// tiles sharing a row or a column. Returns (queries, connected).
fn sweep(seed: u64, boards: usize, max_w: u64, max_h: u64) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let (mut queries, mut connected) = (0, 0);
    for _ in 0..boards {
        let size = Size::new(1 + rng.below(max_w) as usize, 1 + rng.below(max_h) as usize).unwrap();
        let density = rng.below(1001);
        let board = reference::random_board(&mut rng, size, density);
        let a = random_tile(&mut rng, &board);
        let mut targets = vec![random_tile(&mut rng, &board), random_tile(&mut rng, &board)];
        let (dx, dy) = [(1, 0), (0, 1), (-1, 0), (0, -1)][rng.below(4) as usize];
        targets.push(Point::new(a.x + dx, a.y + dy));
        targets.push(Point::new(rng.below(size.width() as u64) as i32, a.y));
        targets.push(Point::new(a.x, rng.below(size.height() as u64) as i32));
        for b in targets {
            if board.contains(b) && b != a {
                queries += 1;
                connected += usize::from(agree(&board, a, b));
            } else {
                assert!(board.path(a, b).is_none());
            }
        }
    }
    (queries, connected)
}

#[test]
fn small_and_classic_boards_agree_with_reference() {
    let (queries, connected) = sweep(1, 100_000, 20, 10);
    // Both outcomes must be well represented for the sweep to mean anything.
    assert!(queries > 300_000, "{queries}");
    assert!(
        connected > queries / 5 && connected < queries * 4 / 5,
        "{connected} of {queries}"
    );
}

#[test]
fn large_boards_agree_with_reference() {
    let (queries, _) = sweep(2, 1_500, 64, 64);
    assert!(queries > 4_000);
}

#[test]
fn ring_paths_are_found() {
    // Two tiles in the top row, a tile between: the path leaves over the ring.
    let board = shisen::parse_board("1.2.1\n2....\n", shisen::Matching::Standard).unwrap();
    let path = board.path(Point::new(0, 0), Point::new(4, 0)).unwrap();
    assert_eq!(
        path.points(),
        [
            Point::new(0, 0),
            Point::new(0, -1),
            Point::new(4, -1),
            Point::new(4, 0)
        ]
    );
    // Round the middle tile: the ring column x = −1 and the free column
    // x = 1 are equally short; the smaller coordinate wins the tie.
    let board = shisen::parse_board("1.\n2.\n1.\n2.\n", shisen::Matching::Standard).unwrap();
    let path = board.path(Point::new(0, 0), Point::new(0, 2)).unwrap();
    assert_eq!(
        path.points(),
        [
            Point::new(0, 0),
            Point::new(-1, 0),
            Point::new(-1, 2),
            Point::new(0, 2)
        ]
    );
}

#[test]
fn shortest_path_is_preferred_over_fewer_turns_elsewhere() {
    // The L would need a turn at an occupied cell; the Z inside is shorter
    // than the way round the ring.
    let board = shisen::parse_board("1....\n2.2.3\n3...1\n", shisen::Matching::Standard).unwrap();
    let path = board.path(Point::new(0, 0), Point::new(4, 2)).unwrap();
    assert_eq!(path.length(), 6);
    assert_eq!(path.turns(), 2);
    assert_eq!(
        reference::shortest(&board, Point::new(0, 0), Point::new(4, 2)),
        Some((6, 2))
    );
}

#[test]
fn adjacent_tiles_connect_directly() {
    let board = shisen::parse_board("1111\n1111\n", shisen::Matching::Standard).unwrap();
    let path = board.path(Point::new(1, 0), Point::new(1, 1)).unwrap();
    assert_eq!(path.points(), [Point::new(1, 0), Point::new(1, 1)]);
    assert!(board.path(Point::new(1, 0), Point::new(2, 1)).is_none());
    assert!(board.path(Point::new(0, 0), Point::new(0, 0)).is_none());
    assert!(board.path(Point::new(0, 0), Point::new(9, 0)).is_none());
}
