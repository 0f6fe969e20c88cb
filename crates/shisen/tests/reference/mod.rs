//! An independent reference for connections: breadth-first search over
//! (cell, direction, turns) with a visited set, on the board plus its ring.
//! Shared by the integration tests.

use std::collections::{HashSet, VecDeque};

use shisen::{Board, Kind, Matching, Move, Point, Size};

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Whether `p` is on the board or its ring and holds no tile.
fn free(board: &Board, p: Point) -> bool {
    let (w, h) = (board.width() as i32, board.height() as i32);
    (-1..=w).contains(&p.x) && (-1..=h).contains(&p.y) && board.get(p).is_none()
}

/// The shortest connection from `a` to `b` as (steps, turns): fewest
/// steps, then fewest turns; `None` if no connection of ≤ 2 turns exists.
pub fn shortest(board: &Board, a: Point, b: Point) -> Option<(usize, usize)> {
    if a == b {
        return None;
    }
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    // State: cell, direction index, turns so far, steps so far.
    for d in 0..4 {
        queue.push_back((a, d, 0usize, 0usize));
    }
    let mut best: Option<(usize, usize)> = None;
    while let Some((p, d, turns, steps)) = queue.pop_front() {
        if best.is_some_and(|(s, _)| steps >= s) {
            break; // every later state is at least as long
        }
        for (nd, &(dx, dy)) in DIRS.iter().enumerate() {
            if steps > 0 && nd == (d + 2) % 4 {
                continue; // reversing never helps and is not a 90° turn
            }
            let nt = turns + usize::from(steps > 0 && nd != d);
            if nt > 2 {
                continue;
            }
            let q = Point::new(p.x + dx, p.y + dy);
            if q == b {
                let found = (steps + 1, nt);
                best = Some(best.map_or(found, |old| old.min(found)));
            } else if free(board, q) && seen.insert((q, nd, nt)) {
                queue.push_back((q, nd, nt, steps + 1));
            }
        }
    }
    best
}

#[allow(dead_code)] // not every test binary lists moves
/// Every pair of matching tiles the reference connects, sorted like
/// `Board::moves` (reading order of `a`, then of `b`).
pub fn moves(board: &Board) -> Vec<Move> {
    let tiles: Vec<(Point, Kind)> = board.tiles().collect();
    let mut moves = Vec::new();
    for (i, &(p, kp)) in tiles.iter().enumerate() {
        for &(q, kq) in &tiles[i + 1..] {
            if board.matching().matches(kp, kq) && shortest(board, p, q).is_some() {
                moves.push(Move::new(p, q));
            }
        }
    }
    moves.sort_by_key(|m| ((m.a.y, m.a.x), (m.b.y, m.b.x)));
    moves
}

/// Checks that `points` is a real connection from `a` to `b` on `board`:
/// axis-parallel segments, each turning 90°, through free cells only.
#[allow(dead_code)] // not every test binary checks paths
pub fn check_path(board: &Board, a: Point, b: Point, points: &[Point]) -> Result<(), String> {
    if points.first() != Some(&a) || points.last() != Some(&b) {
        return Err(format!("ends {points:?} are not {a} and {b}"));
    }
    if !(2..=4).contains(&points.len()) {
        return Err(format!("{} points", points.len()));
    }
    let mut last_dir = None;
    for w in points.windows(2) {
        let (p, q) = (w[0], w[1]);
        if (p.x != q.x) == (p.y != q.y) {
            return Err(format!(
                "segment {p} → {q} is not a straight non-empty line"
            ));
        }
        let dir = ((q.x - p.x).signum(), (q.y - p.y).signum());
        if let Some(last) = last_dir {
            if last == dir || last == (-dir.0, -dir.1) {
                return Err(format!("no 90° turn at {p}"));
            }
        }
        last_dir = Some(dir);
        let mut c = p;
        while c != q {
            c = Point::new(c.x + dir.0, c.y + dir.1);
            if c != b && !free(board, c) {
                return Err(format!("cell {c} on segment {p} → {q} is not free"));
            }
        }
    }
    Ok(())
}

/// A board of `size` whose cells hold a tile with probability `density`
/// (per mille), all of one kind, its count made even.
#[allow(dead_code)]
pub fn random_board(rng: &mut shisen::Rng, size: Size, density: u64) -> Board {
    let one = Kind::new('1').ok();
    let mut cells: Vec<Option<Kind>> = (0..size.cells())
        .map(|_| if rng.below(1000) < density { one } else { None })
        .collect();
    if cells.iter().flatten().count() % 2 == 1 {
        let i = rng.below(cells.len() as u64) as usize;
        cells[i] = if cells[i].is_some() { None } else { one };
    }
    Board::new(size, Matching::Standard, cells).expect("one kind, even count")
}
