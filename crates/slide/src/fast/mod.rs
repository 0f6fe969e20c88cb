//! The fast solver: short solutions at once, for boards up to 1000 × 1000.
//!
//! The optimal solver stops near 4 × 4; beyond that people want a solution
//! now, and a short one. This one reduces the board line by line — solve
//! an outer row or column, shrink, repeat — and solves the last 3 × 2
//! region by exact search. Tiles and the blank travel along geometric
//! paths with O(1) work per move, so time is proportional to the length of
//! the solution, and memory to the board: 1000 × 1000 takes ~2.2·10⁹ moves,
//! streamed to a sink as they are produced, never stored.
//!
//! Every blank move displaces a tile; the routing prefers, among short
//! paths, those that push displaced tiles toward their goals, which makes
//! later placements cheaper (about 1.84 n³ moves in all instead of 2.56 n³
//! on 100 × 100). See `BENCHMARKS.md` for the figures.
//!
//! On boards of at most 64 cells a beam search guided by Manhattan
//! distance and linear conflicts also runs, and the shorter of the two
//! solutions is returned. Above 25 cells a staged beam search instead
//! brings the outer lines home one at a time before it solves the last
//! 5 × 5 or smaller; it runs rows first and columns first, and the shortest
//! of the three solutions is kept.

mod beam;
mod board;
mod cancel;
mod divide;
mod error;
mod frame;
mod local;
mod reduce;
mod route;

pub use error::FastError;

use crate::{goal_cells, Direction, Moves, Position, Size};
use board::Board;
use route::Router;

/// Solves `position` toward `goal` and returns the moves.
///
/// ```
/// use slide::{solve_fast, Goal, Scramble};
/// let goal = Goal::Snake.position("12x9".parse().unwrap()).unwrap();
/// let mut puzzle = Scramble::Uniform.generate(&goal, 42);
/// let moves = solve_fast(&puzzle, &goal).unwrap();
/// puzzle.apply_all(&moves).unwrap();
/// assert_eq!(puzzle, goal);
/// ```
pub fn solve_fast(position: &Position, goal: &Position) -> Result<Moves, FastError> {
    FastSolver::default().solve(position, goal)
}

/// Solves `position` toward `goal`, handing each move to `sink` as soon as
/// it is final; returns how many moves were emitted.
///
/// Refuses at once, before any move, a position that cannot reach the goal
/// or does not match it.
///
/// The sink is a `dyn FnMut`, not a type parameter: generic over it, the
/// whole reduction was compiled again into every crate and test that
/// passed a closure of its own, each copy optimised (minutes of every test
/// build); one indirect call per move costs nothing beside routing it.
pub fn solve_fast_with(
    position: &Position,
    goal: &Position,
    sink: &mut dyn FnMut(Direction),
) -> Result<u64, FastError> {
    FastSolver::default().solve_with(position, goal, sink)
}

/// The fast solver with its knobs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FastSolver {
    /// Thorough routing (shorter solutions, about half the speed) or quick:
    /// `None` picks thorough while at most 825 × 825 cells are unsolved,
    /// quick before.
    pub thorough: Option<bool>,
    /// Positions kept per depth by the beam search on boards of at most 64
    /// cells: `None` picks a width by board size (a few tenths of a second
    /// at most), `Some(0)` turns the search off (the plain reduction).
    pub beam_width: Option<usize>,
}

/// The beam widths when none is given: the whole-board search's (up to
/// 25 cells) and the staged searches'. Measured (CPU time per solve, mean
/// length over the Manhattan and linear-conflict bound, BENCHMARKS.md):
/// 1500 takes 0.26 s on 7 × 7 (1.63); 1200 on 8 × 8, 0.37 s (1.68).
/// Doubling a width doubles its time for solutions a few per cent shorter.
fn auto_widths(cells: usize) -> (usize, usize) {
    match cells {
        0..=25 => (2000, 2000),
        26..=49 => (1500, 1500),
        _ => (700, 1200),
    }
}

impl FastSolver {
    /// Like [`solve_fast`].
    pub fn solve(&self, position: &Position, goal: &Position) -> Result<Moves, FastError> {
        let mut moves = Vec::new();
        self.solve_with(position, goal, &mut |d| moves.push(d))?;
        Ok(Moves(moves))
    }

    /// Like [`solve_fast_with`].
    pub fn solve_with(
        &self,
        position: &Position,
        goal: &Position,
        sink: &mut dyn FnMut(Direction),
    ) -> Result<u64, FastError> {
        self.solve_until(position, goal, sink, &|| false)
    }

    /// Like [`FastSolver::solve_with`], but gives up with
    /// [`FastError::Stopped`] once `stop` returns true. It is asked
    /// before each line the reduction solves and between the searches on
    /// small boards, so rarely that it costs nothing, and often enough to
    /// stop within a tenth of a second on 1000 × 1000. The moves already
    /// handed to `sink` then lead only part of the way.
    pub fn solve_until(
        &self,
        position: &Position,
        goal: &Position,
        sink: &mut dyn FnMut(Direction),
        stop: &dyn Fn() -> bool,
    ) -> Result<u64, FastError> {
        let solvability = position.solvability(goal)?;
        if !solvability.is_solvable() {
            return Err(FastError::Unsolvable(solvability));
        }
        let tiles = goal_cells(position, goal)?;
        let (size, blank, goal_blank) = (position.size(), position.blank(), goal.blank());
        if size.cells() > beam::MAX_CELLS || self.beam_width == Some(0) {
            return reduce(size, tiles, blank, goal_blank, self.thorough, sink, stop);
        }
        // Small boards: the shorter of the reduction and a beam search
        // (which starts once the reduction has peeled the board down to
        // `BEAM_CELLS`, on boards larger than that).
        let mut reduced = Vec::new();
        let thorough = self.thorough;
        let mut keep = |d| reduced.push(d);
        reduce(
            size,
            tiles.clone(),
            blank,
            goal_blank,
            thorough,
            &mut keep,
            stop,
        )?;
        let mut moves = Vec::new();
        let mut record = |d| moves.push(d);
        let tiles_copy = tiles.clone();
        let board = Board::new(size.width(), tiles, blank);
        let mut router = Router::new(board, &mut record, self.thorough.unwrap_or(true));
        let rect = reduce::peel(&mut router, size, goal_blank, BEAM_CELLS, false, stop)
            .ok_or(FastError::Stopped)?;
        let (small, small_blank, small_goal) = reduce::extract(&router.board, rect, goal_blank);
        router.finish();
        let limit = reduced.len().saturating_sub(moves.len());
        let (whole, staged_width) = match self.beam_width {
            Some(width) => (width, width),
            None => auto_widths(small.len()),
        };
        if stop() {
            return Err(FastError::Stopped);
        }
        // Above `STAGE_CELLS` the staged searches alone: the whole-board
        // beam won on none of 40 boards of 7 × 7 and 8 × 8 once the stages
        // kept their beams varied (BENCHMARKS.md).
        let searched = (size.cells() <= STAGE_CELLS).then(|| {
            beam::search(
                rect.width(),
                &small,
                small_blank,
                small_goal,
                None,
                whole,
                limit,
            )
        });
        let mut best = match searched.flatten() {
            Some(tail) if moves.len() + tail.len() < reduced.len() => {
                moves.extend(tail);
                moves
            }
            _ => reduced,
        };
        // The staged searches (rows first, or columns first) each win on
        // some boards: keep the shortest.
        if size.cells() > STAGE_CELLS {
            for columns_first in [false, true] {
                if stop() {
                    return Err(FastError::Stopped);
                }
                let limit = best.len();
                let staged = staged(
                    size,
                    &tiles_copy,
                    blank,
                    goal_blank,
                    staged_width,
                    limit,
                    columns_first,
                );
                if let Some(staged) = staged.filter(|s| s.len() < limit) {
                    best = staged;
                }
            }
        }
        best.iter().for_each(|&d| sink(d));
        Ok(best.len() as u64)
    }
}

/// Boards above this many cells are also solved in stages: a beam search
/// brings one outer line home, the board shrinks by it, and so on down to
/// this size, where one beam search finishes. A beam over the whole of a
/// 7 × 7 or 8 × 8 board loses its way (2.0 and 2.2 times the bound); the
/// staged searches reach 1.63 and 1.68 (BENCHMARKS.md; stopping at 36
/// cells, stages of two lines, or a line in two or three steps were all
/// longer).
const STAGE_CELLS: usize = 25;

/// The staged solution of a board of at most 64 cells (see
/// [`STAGE_CELLS`]), if it is shorter than `limit` moves.
fn staged(
    size: Size,
    tiles: &[u32],
    mut blank: usize,
    goal_blank: usize,
    beam: usize,
    limit: usize,
    columns_first: bool,
) -> Option<Vec<Direction>> {
    let width = size.width();
    let mut cells = tiles.to_vec();
    let last = reduce::final_region(size, goal_blank);
    let mut rect = frame::Rect {
        x0: 0,
        y0: 0,
        x1: width,
        y1: size.height(),
    };
    let mut moves: Vec<Direction> = Vec::new();
    loop {
        let area = rect.width() * rect.height();
        let rest = (area > STAGE_CELLS && rect != last)
            .then(|| rect.without(side(rect, last, size.coords(blank), columns_first)));
        let local = |cell: usize| (cell / width - rect.y0) * rect.width() + cell % width - rect.x0;
        let small: Vec<u8> = (rect.y0..rect.y1)
            .flat_map(|y| (rect.x0..rect.x1).map(move |x| y * width + x))
            .map(|cell| local(cells[cell] as usize) as u8)
            .collect();
        // The stage: the tiles whose goal is on the line given up.
        let stage: Option<Vec<bool>> = rest.map(|r| {
            (rect.y0..rect.y1)
                .flat_map(|y| (rect.x0..rect.x1).map(move |x| (x, y)))
                .map(|(x, y)| !(r.x0..r.x1).contains(&x) || !(r.y0..r.y1).contains(&y))
                .collect()
        });
        let found = beam::search(
            rect.width(),
            &small,
            local(blank),
            local(goal_blank),
            stage.as_deref(),
            beam,
            limit.checked_sub(moves.len())?,
        )?;
        for &d in &found {
            let (x, y) = size.coords(blank);
            let (dx, dy) = d.blank_step();
            let to = size.cell(x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
            cells.swap(blank, to);
            blank = to;
        }
        moves.extend(found);
        match rest {
            Some(rest) => rect = rest,
            None => return Some(moves),
        }
    }
}

/// The reduction's next line, or with `columns_first` the same choice
/// made on the board turned about its diagonal: on a square rectangle a
/// column rather than a row.
fn side(
    rect: frame::Rect,
    last: frame::Rect,
    (x, y): (usize, usize),
    columns_first: bool,
) -> frame::Side {
    use frame::Side;
    if !columns_first {
        return reduce::next_side(rect, last, (x, y));
    }
    let turn = |r: frame::Rect| frame::Rect {
        x0: r.y0,
        y0: r.x0,
        x1: r.y1,
        y1: r.x1,
    };
    match reduce::next_side(turn(rect), turn(last), (y, x)) {
        Side::Top => Side::Left,
        Side::Bottom => Side::Right,
        Side::Left => Side::Top,
        Side::Right => Side::Bottom,
    }
}

/// The beam search runs on at most this many cells. (Measured: on 8 × 8,
/// peeling to 6 × 6 first gives longer solutions than a narrower beam over
/// the whole board, as the reduction's lines cost ~3× their lower bound.)
const BEAM_CELLS: usize = beam::MAX_CELLS;

/// The line-by-line reduction, streamed to `sink`; returns the move count.
fn reduce(
    size: Size,
    tiles: Vec<u32>,
    blank: usize,
    goal_blank: usize,
    thorough: Option<bool>,
    sink: &mut dyn FnMut(Direction),
    stop: &dyn Fn() -> bool,
) -> Result<u64, FastError> {
    let board = Board::new(size.width(), tiles, blank);
    let mut router = Router::new(board, sink, thorough.unwrap_or(false));
    if !reduce::solve(&mut router, size, goal_blank, thorough.is_none(), stop) {
        return Err(FastError::Stopped);
    }
    debug_assert!(router.board.is_solved());
    Ok(router.finish())
}
