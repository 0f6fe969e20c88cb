//! The reduction: solve one outer line of the unsolved rectangle, shrink
//! it, repeat; then finish the last small region exactly.
//!
//! The last region is chosen around the goal's blank cell (3 × 2, or 2 × 3
//! on a two-column board; the whole board when it is at most 3 × 3), so
//! every goal — blank in a corner, in the middle of a spiral, wherever a
//! custom goal puts it — is reached directly: once all lines outside the
//! region are in place, the region holds exactly its own tiles and the
//! blank, and solvability of the whole says the region is solvable.

use super::frame::{Cell, Frame, Rect, Side};
use super::local::Local;
use super::route::{Region, Router};
use crate::{Direction, Size};

/// Solves the whole board, sending the moves to the router's output.
pub(crate) fn solve<S: FnMut(Direction)>(
    router: &mut Router<'_, S>,
    size: Size,
    goal_blank: usize,
) {
    let last = final_region(size, goal_blank);
    let mut rect = Rect {
        x0: 0,
        y0: 0,
        x1: size.width(),
        y1: size.height(),
    };
    while rect != last {
        let side = next_side(rect, last, size.coords(router.board.blank()));
        let frame = orient(router, rect, side);
        place_line(router, frame);
        rect = rect.without(side);
    }
    finish(router, rect);
}

/// The region solved last: small enough for an exact search, and holding
/// the goal's blank.
fn final_region(size: Size, goal_blank: usize) -> Rect {
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
fn next_side(rect: Rect, last: Rect, (bx, by): (usize, usize)) -> Side {
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

/// Fills the line from whichever end makes its first tile cheapest to
/// bring in.
fn orient<S: FnMut(Direction)>(router: &Router<'_, S>, rect: Rect, side: Side) -> Frame {
    let board = &router.board;
    let width = board.width();
    let distance =
        |a: usize, b: usize| (a % width).abs_diff(b % width) + (a / width).abs_diff(b / width);
    [false, true]
        .map(|reversed| Frame::new(width, rect, side, reversed))
        .into_iter()
        .min_by_key(|frame| {
            let target = frame.cell((0, 0));
            let tile = board.at(target);
            distance(board.blank(), tile) + 2 * distance(tile, target)
        })
        .expect("two orientations")
}

/// Solves row 0 of `frame`: all but the last two tiles one by one, then
/// those two together.
fn place_line<S: FnMut(Direction)>(router: &mut Router<'_, S>, frame: Frame) {
    for u in 0..frame.width - 2 {
        let region = Region { frame, locked: u };
        router.tile_to(region, frame.cell((u, 0)), (u, 0));
    }
    place_pair(router, frame);
}

/// The last two cells of a line cannot be filled one after the other (the
/// second would have no way in). The second tile goes into the first cell,
/// the first tile next to it, and an exact search over the 2 × 3 window at
/// the end of the line — the two tiles, the blank and interchangeable
/// bystanders, 120 states — turns them into place in the fewest moves.
fn place_pair<S: FnMut(Direction)>(router: &mut Router<'_, S>, frame: Frame) {
    let w = frame.width;
    let (p, q) = ((w - 2, 0), (w - 1, 0));
    let (a, b) = (frame.cell(p), frame.cell(q));
    let at = |router: &Router<'_, S>, name: usize| frame.logical(router.board.at(name));
    if at(router, a) == p && at(router, b) == q {
        return;
    }
    let window: Vec<Cell> = (0..3)
        .flat_map(|v| (w - 2..w).map(move |u| (u, v)))
        .collect();
    let inside = |c: Cell| c.0 >= w - 2 && c.1 < 3;
    let blank = |router: &Router<'_, S>| frame.logical(router.board.blank());
    if !(inside(at(router, a)) && inside(at(router, b)) && inside(blank(router))) {
        router.tile_to(
            Region {
                frame,
                locked: w - 2,
            },
            b,
            p,
        );
        let region = Region {
            frame,
            locked: w - 1,
        };
        if !inside(at(router, a)) {
            router.tile_to(region, a, (w - 2, 1));
        }
        let (tile, from) = (at(router, a), blank(router));
        if !inside(from) {
            let target = window
                .iter()
                .copied()
                .filter(|&c| c != tile && c != p)
                .min_by_key(|&c| (c.0 - from.0).abs() + (c.1 - from.1).abs())
                .expect("free window cells");
            router.blank_to(region, target, Some(tile));
        }
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
fn finish<S: FnMut(Direction)>(router: &mut Router<'_, S>, rect: Rect) {
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
