//! The reduction: solve one outer line of the unsolved rectangle, shrink
//! it, repeat; then finish the last small region exactly.
//!
//! The last region is chosen around the goal's blank cell (3 × 2, or 2 × 3
//! on a two-column board; the whole board when it is at most 3 × 3), so
//! every goal — blank in a corner, in the middle of a spiral, wherever a
//! custom goal puts it — is reached directly: once all lines outside the
//! region are in place, the region holds exactly its own tiles and the
//! blank, and solvability of the whole says the region is solvable.

use super::board::Board;
use super::frame::{Cell, Frame, Rect, Side};
use super::local::Local;
use super::route::{Region, Router};
use crate::{Direction, Size};

/// Solves the whole board, sending the moves to the router's output;
/// false if `stop` ended it first.
pub(crate) fn solve(
    router: &mut Router<'_>,
    size: Size,
    goal_blank: usize,
    auto: bool,
    stop: &dyn Fn() -> bool,
) -> bool {
    let Some(rect) = peel(router, size, goal_blank, 0, auto, stop) else {
        return false;
    };
    finish(router, rect);
    true
}

/// Up to this many unsolved cells (825 × 825) the routing is thorough when
/// left to choose. Thorough costs about twice as much per move as quick
/// and makes about a quarter fewer moves; quick while the rectangle is
/// larger keeps 1000 × 1000 within a minute (measured in one session:
/// 2.156 n³ in 44.3 s CPU, against 2.191 n³ in 43.0 s at 800 × 800 and
/// 2.120 n³ in 47–52 s at 850 × 850, where the gains by Manhattan distance
/// took 42–46 s for 2.185 n³).
const THOROUGH_CELLS: usize = 825 * 825;

/// Solves outer lines until at most `cells` cells are left unsolved (or
/// only the last region); returns the unsolved rectangle. It holds the
/// goal's blank cell and exactly the tiles that belong in it. `stop` is
/// asked before each line (a line of 1000 × 1000 takes under a tenth of a
/// second); `None` if it said to stop.
pub(crate) fn peel(
    router: &mut Router<'_>,
    size: Size,
    goal_blank: usize,
    cells: usize,
    auto: bool,
    stop: &dyn Fn() -> bool,
) -> Option<Rect> {
    // Boards of at most 64 cells have the beam search instead.
    let both_ends = (super::beam::MAX_CELLS + 1..=BOTH_ENDS_CELLS).contains(&size.cells());
    let last = final_region(size, goal_blank);
    let mut rect = Rect {
        x0: 0,
        y0: 0,
        x1: size.width(),
        y1: size.height(),
    };
    while rect != last && rect.width() * rect.height() > cells {
        if stop() {
            return None;
        }
        if auto {
            router.thorough = rect.width() * rect.height() <= THOROUGH_CELLS;
        }
        let side = next_side(rect, last, size.coords(router.board.blank()));
        if both_ends {
            place_best(router, rect, side);
        } else {
            let frame = Frame::new(size.width(), rect, side, false);
            router.board.watch(frame, rect);
            place_line(router, frame);
            router.board.unwatch();
        }
        rect = rect.without(side);
    }
    Some(rect)
}

/// The unsolved rectangle as a board of its own: the tiles named by local
/// goal cell, the blank's cell and the blank's goal cell.
pub(crate) fn extract(board: &Board, rect: Rect, goal_blank: usize) -> (Vec<u8>, usize, usize) {
    let width = board.width();
    let local = |cell: usize| (cell / width - rect.y0) * rect.width() + cell % width - rect.x0;
    let tiles = (rect.y0..rect.y1)
        .flat_map(|y| (rect.x0..rect.x1).map(move |x| y * width + x))
        .map(|cell| local(board.tile(cell)) as u8)
        .collect();
    (tiles, local(board.blank()), local(goal_blank))
}

/// The region solved last: small enough for an exact search, and holding
/// the goal's blank.
pub(crate) fn final_region(size: Size, goal_blank: usize) -> Rect {
    let (width, height) = (size.width(), size.height());
    let (fw, fh) = if width <= 3 && height <= 3 {
        (width, height)
    } else if width >= 3 {
        (3, 2)
    } else {
        (2, 3)
    };
    let (gx, gy) = size.coords(goal_blank);
    let x0 = gx.saturating_sub(fw / 2).min(width - fw);
    let y0 = gy.saturating_sub(fh / 2).min(height - fh);
    Rect {
        x0,
        y0,
        x1: x0 + fw,
        y1: y0 + fh,
    }
}

/// Which outer line to solve next: across the longer dimension, so the
/// rectangle stays near square (tiles then travel least); of two opposite
/// lines, the one nearer the blank.
pub(crate) fn next_side(rect: Rect, last: Rect, (bx, by): (usize, usize)) -> Side {
    let (top, bottom) = (rect.y0 < last.y0, rect.y1 > last.y1);
    let (left, right) = (rect.x0 < last.x0, rect.x1 > last.x1);
    let rows = top || bottom;
    let columns = left || right;
    if rows && (!columns || rect.height() >= rect.width()) {
        match (top, bottom) {
            (true, true) if by - rect.y0 > rect.y1 - 1 - by => Side::Bottom,
            (true, _) => Side::Top,
            _ => Side::Bottom,
        }
    } else {
        match (left, right) {
            (true, true) if bx - rect.x0 > rect.x1 - 1 - bx => Side::Right,
            (true, _) => Side::Left,
            _ => Side::Right,
        }
    }
}

/// On boards of at most this many cells, each line is solved from either
/// end on copies of the board and the better kept (see [`place_best`]):
/// twice the time, which 100 × 100 has to spare (measured on 30 boards:
/// 1.847 n³ in 0.059 s CPU, both ends 1.837 n³ in 0.124 s).
const BOTH_ENDS_CELLS: usize = 100 * 100;

/// Solves `side` of `rect` from either end on copies of the board and
/// keeps the one that leaves the better board: fewer moves, plus the
/// distance the tiles in `rect` have left to go, at a move a cell.
fn place_best(router: &mut Router<'_>, rect: Rect, side: Side) {
    let mut best: Option<(u64, Board, Vec<Direction>)> = None;
    for reversed in [false, true] {
        let frame = Frame::new(router.board.width(), rect, side, reversed);
        let (board, moves) = trial(router, rect, frame);
        let score = moves.len() as u64 + board.distance(rect);
        if best.as_ref().is_none_or(|b| score < b.0) {
            best = Some((score, board, moves));
        }
    }
    let (_, board, moves) = best.expect("two trials");
    router.adopt(board, &moves);
}

/// Solves row 0 of `frame` on a copy of the board: the board after, and
/// the moves.
fn trial(router: &Router<'_>, rect: Rect, frame: Frame) -> (Board, Vec<Direction>) {
    let mut moves = Vec::new();
    let mut sink = |d| moves.push(d);
    let mut trial = Router::new(router.board.clone(), &mut sink, router.thorough);
    trial.board.watch(frame, rect);
    place_line(&mut trial, frame);
    trial.board.unwatch();
    let board = trial.into_board();
    (board, moves)
}

/// Solves row 0 of `frame`, in the order that keeps the blank's trips
/// short: each time the cell whose tile the blank reaches first. Placed cells split the line into free runs;
/// a run is never left one cell long (that cell would have no way in), and
/// each run ends as a pair of cells filled together.
fn place_line(router: &mut Router<'_>, frame: Frame) {
    let mut placed = vec![false; frame.width as usize];
    let mut runs = vec![(0, frame.width)];
    while let Some((i, u)) = cheapest(router, frame, &runs) {
        let region = Region {
            frame,
            placed: &placed,
        };
        router.tile_to(region, frame.cell((u, 0)), (u, 0));
        placed[u as usize] = true;
        let (start, end) = runs.swap_remove(i);
        runs.extend(
            [(start, u), (u + 1, end)]
                .into_iter()
                .filter(|(s, e)| s < e),
        );
    }
    while !runs.is_empty() {
        let blank = frame.logical(router.board.blank());
        let i = (0..runs.len())
            .min_by_key(|&i| manhattan(blank, (runs[i].0, 0)))
            .expect("a run");
        let (start, _) = runs.swap_remove(i);
        place_pair(router, frame, &mut placed, start);
    }
}

/// The next cell to fill, as (run index, cell), or `None` once every run
/// is down to a pair.
fn cheapest(router: &Router<'_>, frame: Frame, runs: &[(i32, i32)]) -> Option<(usize, i32)> {
    let blank = frame.logical(router.board.blank());
    let cost = |u: i32| {
        let tile = frame.logical(router.board.at(frame.cell((u, 0))));
        let home = (u, 0);
        let first = if tile == home {
            0
        } else {
            // The blank's way to the first cell the tile steps into.
            let (du, dv) = ((u - tile.0).signum(), (0 - tile.1).signum());
            let mut best = i32::MAX;
            for step in [(du, 0), (0, dv)] {
                if step != (0, 0) {
                    let next = (tile.0 + step.0, tile.1 + step.1);
                    let behind = (blank.0 == tile.0 && tile.0 == next.0)
                        || (blank.1 == tile.1 && tile.1 == next.1);
                    let between = behind
                        && manhattan(blank, next)
                            > manhattan(tile, next) + manhattan(blank, tile) - 1;
                    best = best.min(manhattan(blank, next) + 2 * between as i32);
                }
            }
            best
        };
        first + PUSH * manhattan(tile, home)
    };
    let mut best: Option<(i32, usize, i32)> = None;
    for (i, &(start, end)) in runs.iter().enumerate().filter(|(_, (s, e))| e - s > 2) {
        let ends = [start, end - 1].into_iter().map(|u| (u, 0));
        let inner = (start + 2..end - 2).map(|u| (u, SPLIT));
        for (u, extra) in ends.chain(inner) {
            let c = cost(u) + extra;
            if best.is_none_or(|(b, _, _)| c < b) {
                best = Some((c, i, u));
            }
        }
    }
    best.map(|(_, i, u)| (i, u))
}

/// Weight of the tile's own way home in the choice of the next cell. The
/// tile travels that way whenever it is placed, so only the blank's trip is
/// worth minimising: measured, 0 gives the shortest solutions.
const PUSH: i32 = 0;

/// Roughly the extra moves of one more pair, the price of splitting a run.
const SPLIT: i32 = 12;

fn manhattan(a: Cell, b: Cell) -> i32 {
    (a.0 - b.0).abs() + (a.1 - b.1).abs()
}

/// The last two cells of a run, `(m, 0)` and `(m + 1, 0)`, cannot be
/// filled one after the other (the second would have no way in). The
/// second tile goes into the first cell, the first tile below it, and an
/// exact search over the 2 × 3 window under the pair — the two tiles, the
/// blank and interchangeable bystanders, 120 states — turns them into
/// place in the fewest moves.
fn place_pair(router: &mut Router<'_>, frame: Frame, placed: &mut [bool], m: i32) {
    let (p, q) = ((m, 0), (m + 1, 0));
    let (a, b) = (frame.cell(p), frame.cell(q));
    let at = |router: &Router<'_>, name: usize| frame.logical(router.board.at(name));
    let window: Vec<Cell> = (0..3)
        .flat_map(|v| (m..m + 2).map(move |u| (u, v)))
        .collect();
    let inside = |c: Cell| (m..m + 2).contains(&c.0) && c.1 < 3;
    let blank = |router: &Router<'_>| frame.logical(router.board.blank());
    let done = at(router, a) == p && at(router, b) == q;
    let gathered = inside(at(router, a)) && inside(at(router, b)) && inside(blank(router));
    if !done && !gathered {
        router.tile_to(Region { frame, placed }, b, p);
        placed[m as usize] = true;
        let region = Region { frame, placed };
        if !inside(at(router, a)) {
            router.tile_to(region, a, (m, 1));
        }
        let (tile, from) = (at(router, a), blank(router));
        if !inside(from) {
            // Row 0 of the window is a dead end while `p` is placed.
            let target = window
                .iter()
                .copied()
                .filter(|&c| c != tile && c.1 > 0)
                .min_by_key(|&c| manhattan(c, from))
                .expect("free window cells");
            router.blank_to(region, target, Some(tile));
        }
    }
    placed[m as usize] = true;
    placed[m as usize + 1] = true;
    if done {
        return;
    }
    let labels: Vec<u8> = window
        .iter()
        .map(|&c| {
            let cell = frame.cell(c);
            match router.board.tile(cell) {
                _ if cell == router.board.blank() => 0,
                name if name == a => 1,
                name if name == b => 2,
                _ => 3,
            }
        })
        .collect();
    let goal = [Some(1), Some(2), None, None, None, None];
    let search = Local {
        width: 2,
        labels: &labels,
        blank: 0,
        goal: &goal,
    };
    let path = search
        .solve()
        .expect("a 2 × 3 window with bystanders reaches every placement of two tiles");
    for i in path {
        router.step(frame.cell(window[i]));
    }
}

/// Solves the last region exactly: by then it holds exactly its own tiles.
fn finish(router: &mut Router<'_>, rect: Rect) {
    let width = router.board.width();
    let cells: Vec<usize> = (rect.y0..rect.y1)
        .flat_map(|y| (rect.x0..rect.x1).map(move |x| y * width + x))
        .collect();
    let local = |cell: usize| {
        let (x, y) = (cell % width, cell / width);
        debug_assert!((rect.x0..rect.x1).contains(&x) && (rect.y0..rect.y1).contains(&y));
        ((y - rect.y0) * rect.width() + x - rect.x0) as u8
    };
    let labels: Vec<u8> = cells.iter().map(|&c| local(router.board.tile(c))).collect();
    let blank = local(router.board.tile(router.board.blank()));
    let goal: Vec<Option<u8>> = (0..cells.len() as u8).map(Some).collect();
    let search = Local {
        width: rect.width(),
        labels: &labels,
        blank,
        goal: &goal,
    };
    let path = search
        .solve()
        .expect("the last region of a solvable board is solvable");
    for i in path {
        router.step(cells[i]);
    }
}
