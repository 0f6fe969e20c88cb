//! The painting of the board: each goal cell's colour, the board symmetries
//! that fix the goal's blank, and the moves of a painted board.

use super::*;

/// The colour of each goal cell (`UNSEEN` for the blank's): the quadrants
/// of the board, with the quadrant opposite the blank split (its edge row
/// alone, the rest joined to the quadrant beside the blank's) and the
/// blank's quadrant given the nearest tile of that neighbour when it is
/// short. Any colouring is admissible; this one keeps the table near 150 M
/// entries on 4 × 4 while every colour stays in one region.
pub(super) fn paint(size: Size, goal_blank: usize) -> Vec<u8> {
    let (w, h) = (size.width(), size.height());
    let quadrant = |cell: usize| {
        let (x, y) = size.coords(cell);
        (2 * x / w, 2 * y / h)
    };
    let (bx, by) = quadrant(goal_blank);
    let (ox, oy) = (1 - bx, 1 - by);
    let edge_row = if oy == 0 { 0 } else { h - 1 };
    let code = |(qx, qy): (usize, usize)| (qx + 2 * qy) as u8;
    let mut colour: Vec<u8> = (0..size.cells())
        .map(|cell| {
            let q = quadrant(cell);
            if cell == goal_blank {
                UNSEEN
            } else if q == (ox, oy) && size.coords(cell).1 == edge_row {
                4
            } else if q == (ox, oy) {
                code((ox, by))
            } else {
                code(q)
            }
        })
        .collect();
    let count = |colour: &[u8], c: u8| colour.iter().filter(|&&k| k == c).count();
    let (own, beside) = (code((bx, by)), code((ox, by)));
    if own != beside && count(&colour, own) + 1 < count(&colour, beside) {
        let nearest = (0..size.cells())
            .filter(|&c| colour[c] == beside)
            .min_by_key(|&c| size.distance(c, goal_blank));
        if let Some(cell) = nearest {
            colour[cell] = own;
        }
    }
    // Number the colours in use 0, 1, …
    let mut used: Vec<u8> = colour.iter().copied().filter(|&c| c != UNSEEN).collect();
    used.sort_unstable();
    used.dedup();
    for c in colour.iter_mut().filter(|c| **c != UNSEEN) {
        *c = used.iter().position(|u| u == c).expect("in use") as u8;
    }
    colour
}

/// A symmetry of the board that fixes the goal's blank: the board seen
/// through it is as far from the goal as the board itself.
pub(super) struct Symmetry {
    /// `inverse[c']`: the cell that lands on `c'`.
    pub(super) inverse: Vec<u8>,
    /// `image[c]`: where cell `c` lands.
    pub(super) image: Vec<u8>,
    /// Whether rows become columns.
    pub(super) transposes: bool,
}

pub(super) fn symmetries(size: Size, goal_blank: usize) -> Vec<Symmetry> {
    let (w, h) = (size.width(), size.height());
    let mut found = Vec::new();
    for transpose in [false, true] {
        if transpose && w != h {
            continue;
        }
        for (flip_x, flip_y) in [(false, false), (true, false), (false, true), (true, true)] {
            let image: Vec<u8> = (0..size.cells())
                .map(|cell| {
                    let (mut x, mut y) = size.coords(cell);
                    if transpose {
                        (x, y) = (y, x);
                    }
                    if flip_x {
                        x = w - 1 - x;
                    }
                    if flip_y {
                        y = h - 1 - y;
                    }
                    size.cell(x, y) as u8
                })
                .collect();
            if image[goal_blank] as usize != goal_blank {
                continue;
            }
            let mut inverse = vec![0u8; image.len()];
            for (cell, &to) in image.iter().enumerate() {
                inverse[to as usize] = cell as u8;
            }
            found.push(Symmetry {
                inverse,
                image,
                transposes: transpose,
            });
        }
    }
    found
}

/// Where each tile of each view lands on its view's packed board: the
/// tile's colour in the view, shifted to the cell's image.
pub(super) fn view_bits(symmetries: &[Symmetry], colour_of: &[Vec<u8>], n: usize) -> Vec<u64> {
    let mut bits = vec![0; symmetries.len() * n * n];
    for (s, symmetry) in symmetries.iter().enumerate() {
        for tile in 0..n {
            for cell in 0..n {
                let colour = u64::from(colour_of[s][tile]);
                let shift = 2 * u64::from(symmetry.image[cell]);
                bits[(s * n + tile) * n + cell] = colour << shift;
            }
        }
    }
    bits
}

/// The cells each move from a blank cell slides, nearest first, by the
/// direction the tiles move.
pub(super) fn lines(size: Size) -> Vec<Vec<(Direction, Vec<u8>)>> {
    (0..size.cells())
        .map(|blank| {
            let (x, y) = size.coords(blank);
            Direction::ALL
                .into_iter()
                .map(|d| {
                    let (dx, dy) = d.blank_step();
                    let mut cells = Vec::new();
                    let (mut cx, mut cy) = (x, y);
                    while let (Some(nx), Some(ny)) =
                        (cx.checked_add_signed(dx), cy.checked_add_signed(dy))
                    {
                        if nx >= size.width() || ny >= size.height() {
                            break;
                        }
                        cells.push(size.cell(nx, ny) as u8);
                        (cx, cy) = (nx, ny);
                    }
                    (d, cells)
                })
                .filter(|(_, cells)| !cells.is_empty())
                .collect()
        })
        .collect()
}

pub(super) fn is_horizontal(d: Direction) -> bool {
    matches!(d, Direction::Left | Direction::Right)
}

/// Calls `each` with the index of every painted board one multi-tile move
/// from the painted `board` (blank on `blank`, index `index`). A
/// horizontal move keeps the colour sequence, so only the blank's part of
/// the index changes; a vertical one is ranked from the board packed two
/// bits a cell.
#[inline]
pub(super) fn neighbours(
    colouring: &Colouring,
    lines: &[(Direction, Vec<u8>)],
    index: usize,
    blank: usize,
    board: &[u8],
    mut each: impl FnMut(usize) -> bool,
) {
    let n = colouring.size.cells();
    for (d, line) in lines {
        if is_horizontal(*d) {
            for &to in line {
                if each(index - index % n + to as usize) {
                    return;
                }
            }
            continue;
        }
        let mut word = pack_board(board, blank);
        let mut b = blank;
        for &to in line {
            let to = to as usize;
            let colour = word >> (2 * to) & 3;
            word ^= colour << (2 * to) | colour << (2 * b);
            b = to;
            if each(colouring.packed_index(word, b)) {
                return;
            }
        }
    }
}

/// A painted board (a colour per cell) packed two bits a cell, zero on
/// the blank's cell.
#[inline]
pub(super) fn pack_board(board: &[u8], blank: usize) -> u64 {
    (0..board.len())
        .filter(|&c| c != blank)
        .fold(0, |word, c| word | u64::from(board[c]) << (2 * c))
}
