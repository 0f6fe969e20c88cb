//! Shared by the benches: the two baseline path finders and the boards.
//!
//! * `baseline::bfs`: the breadth-first search of "Using breadth-first
//!   search in Shisen-Sho" (italankin): a queue of nodes (cell, direction,
//!   turns left), no visited set, and its three prunings — adjacent tiles
//!   connect at once, a tile without an empty neighbour connects to nothing,
//!   and on the last two segments a step must bring the Manhattan distance
//!   to the target down.
//! * `baseline::kshisen`: kshisen's method — a straight line, then the two L
//!   shapes, then walk out from tile A in each direction and try a straight
//!   or L connection from every free cell reached to tile B, keeping the
//!   shortest.
//!
//! Boards: 18 × 8 standard deals, full (144 tiles), half-played (72) and
//! nearly empty (≤ 16), reached by playing random legal moves.

#![allow(dead_code)] // each bench uses part of this

use shisen::{Board, Deal, Game, Point, Rng, Rules, Size, TileSet};

pub mod baseline {
    use shisen::{Board, Point};

    const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

    /// On the board or its ring, and empty.
    fn free(board: &Board, p: Point) -> bool {
        let (w, h) = (board.width() as i32, board.height() as i32);
        (-1..=w).contains(&p.x) && (-1..=h).contains(&p.y) && board.get(p).is_none()
    }

    fn step(p: Point, d: usize) -> Point {
        Point::new(p.x + DIRS[d].0, p.y + DIRS[d].1)
    }

    fn manhattan(p: Point, q: Point) -> u32 {
        p.x.abs_diff(q.x) + p.y.abs_diff(q.y)
    }

    struct Node {
        at: Point,
        dir: u8,
        turns_left: u8,
        parent: u32,
    }

    /// The breadth-first search of the article; returns the corner points.
    pub fn bfs(board: &Board, a: Point, b: Point) -> Option<Vec<Point>> {
        if manhattan(a, b) == 1 {
            return Some(vec![a, b]);
        }
        let open = |p: Point| (0..4).any(|d| free(board, step(p, d)));
        if !open(a) || !open(b) {
            return None;
        }
        // The start node has no direction yet: its first step is no turn.
        let mut nodes = vec![Node {
            at: a,
            dir: 0,
            turns_left: 2,
            parent: u32::MAX,
        }];
        let mut head = 0;
        while head < nodes.len() {
            let (at, dir, turns_left) = (nodes[head].at, nodes[head].dir, nodes[head].turns_left);
            for d in 0..4u8 {
                if d == (dir + 2) % 4 && nodes[head].parent != u32::MAX {
                    continue;
                }
                let turn = u8::from(d != dir && nodes[head].parent != u32::MAX);
                if turn > turns_left {
                    continue;
                }
                let left = turns_left - turn;
                let next = step(at, usize::from(d));
                // On the second and third segments, head for the target.
                if left < 2 && manhattan(next, b) >= manhattan(at, b) {
                    continue;
                }
                if next == b {
                    return Some(corners(&nodes, head, a, b));
                }
                if free(board, next) {
                    nodes.push(Node {
                        at: next,
                        dir: d,
                        turns_left: left,
                        parent: head as u32,
                    });
                }
            }
            head += 1;
        }
        None
    }

    /// The corner points of the path ending at `nodes[last]` then `b`.
    fn corners(nodes: &[Node], last: usize, a: Point, b: Point) -> Vec<Point> {
        let mut cells = vec![b];
        let mut i = last as u32;
        while i != u32::MAX {
            cells.push(nodes[i as usize].at);
            i = nodes[i as usize].parent;
        }
        cells.dedup();
        cells.reverse();
        let mut points = vec![a];
        for w in cells.windows(3) {
            let (d1, d2) = (
                (w[1].x - w[0].x, w[1].y - w[0].y),
                (w[2].x - w[1].x, w[2].y - w[1].y),
            );
            if d1 != d2 {
                points.push(w[1]);
            }
        }
        points.push(b);
        points
    }

    /// Whether the cells strictly between `p` and `q` (same row or column)
    /// are free.
    fn clear(board: &Board, p: Point, q: Point) -> bool {
        let d = ((q.x - p.x).signum(), (q.y - p.y).signum());
        let mut c = Point::new(p.x + d.0, p.y + d.1);
        while c != q {
            if !free(board, c) {
                return false;
            }
            c = Point::new(c.x + d.0, c.y + d.1);
        }
        true
    }

    /// A straight or L connection from `p` to `b` (`p` itself free or the
    /// start tile), as corner points.
    fn simple(board: &Board, p: Point, b: Point) -> Option<Vec<Point>> {
        if (p.x == b.x || p.y == b.y) && clear(board, p, b) {
            return Some(vec![p, b]);
        }
        for c in [Point::new(b.x, p.y), Point::new(p.x, b.y)] {
            if c != p && c != b && free(board, c) && clear(board, p, c) && clear(board, c, b) {
                return Some(vec![p, c, b]);
            }
        }
        None
    }

    fn length(points: &[Point]) -> u32 {
        points.windows(2).map(|w| manhattan(w[0], w[1])).sum()
    }

    /// kshisen's method; returns the corner points of the shortest found.
    pub fn kshisen(board: &Board, a: Point, b: Point) -> Option<Vec<Point>> {
        if let Some(path) = simple(board, a, b) {
            return Some(path);
        }
        let mut best: Option<Vec<Point>> = None;
        for d in 0..4 {
            let mut p = step(a, d);
            while free(board, p) {
                if let Some(rest) = simple(board, p, b) {
                    let mut path = vec![a];
                    path.extend(rest);
                    if best.as_ref().is_none_or(|old| length(&path) < length(old)) {
                        best = Some(path);
                    }
                }
                p = step(p, d);
            }
        }
        best
    }
}

/// Boards reached by playing random legal moves from a deal until at most
/// `left` tiles remain (deals that get stuck first are skipped).
pub fn played(left: usize, count: usize) -> Vec<Board> {
    let mut boards = Vec::new();
    let mut seed = 0;
    while boards.len() < count {
        seed += 1;
        let mut game = Game::new(
            Deal::random(seed, Size::DEFAULT, TileSet::Standard).unwrap(),
            Rules::default(),
        );
        let mut rng = Rng::new(seed);
        while game.board().tiles_left() > left {
            let moves = game.board().moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            game.remove(m.a, m.b).unwrap();
        }
        if game.board().tiles_left() <= left {
            boards.push(game.board().clone());
        }
    }
    boards
}

/// Every pair of matching tiles of each board.
pub fn pairs(boards: &[Board]) -> Vec<(usize, Point, Point)> {
    let mut pairs = Vec::new();
    for (i, board) in boards.iter().enumerate() {
        let tiles: Vec<_> = board.tiles().collect();
        for (j, &(p, kp)) in tiles.iter().enumerate() {
            for &(q, kq) in &tiles[j + 1..] {
                if board.matching().matches(kp, kq) {
                    pairs.push((i, p, q));
                }
            }
        }
    }
    pairs
}

/// The connectable pairs of each board on its own, tagged with the
/// board's index: what a whole-board move enumeration must find.
pub fn pairs_per_board(boards: &[Board]) -> Vec<Vec<(usize, Point, Point)>> {
    (0..boards.len())
        .map(|i| {
            pairs(&boards[i..=i])
                .into_iter()
                .map(|(_, p, q)| (i, p, q))
                .collect()
        })
        .collect()
}

/// The three board sets.
pub fn sets() -> Vec<(&'static str, Vec<Board>)> {
    vec![
        ("full", played(144, 32)),
        ("half", played(72, 32)),
        ("nearly-empty", played(16, 32)),
    ]
}

/// The length of a path given by its corner points.
pub fn length(points: &[Point]) -> usize {
    points
        .windows(2)
        .map(|w| (w[0].x.abs_diff(w[1].x) + w[0].y.abs_diff(w[1].y)) as usize)
        .sum()
}
