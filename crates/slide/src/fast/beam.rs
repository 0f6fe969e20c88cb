//! Beam search for boards of up to 64 cells: markedly shorter solutions
//! than the line-by-line reduction where there is time to look around.
//!
//! Each depth keeps the `width` most promising positions by Manhattan
//! distance plus linear conflicts (an admissible lower bound, so a finished
//! path is never cut short by it) and expands them by every move but the
//! one undoing the last. Positions already seen are dropped. The search is
//! bounded in width and depth, so it always ends; it may fail to find a
//! solution, and then the reduction's stands.

use crate::Direction;
use std::collections::HashSet;

/// Boards this large or smaller get a beam search.
pub(crate) const MAX_CELLS: usize = 64;

/// The board measured against its goal; tiles are named by goal cell.
pub(crate) struct Bound {
    width: usize,
    height: usize,
    blank_goal: u8,
}

impl Bound {
    pub fn new(width: usize, height: usize, blank_goal: usize) -> Bound {
        Bound {
            width,
            height,
            blank_goal: blank_goal as u8,
        }
    }

    /// Manhattan distance plus linear conflicts: a lower bound on the moves
    /// left.
    pub fn of(&self, tiles: &[u8]) -> u32 {
        let manhattan: u32 = (0..tiles.len())
            .filter(|&cell| tiles[cell] != self.blank_goal)
            .map(|cell| self.distance(cell, tiles[cell] as usize))
            .sum();
        let rows: u32 = (0..self.height).map(|y| self.row_conflicts(tiles, y)).sum();
        let columns: u32 = (0..self.width)
            .map(|x| self.column_conflicts(tiles, x))
            .sum();
        manhattan + rows + columns
    }

    fn distance(&self, a: usize, b: usize) -> u32 {
        let (w, a, b) = (self.width, a, b);
        ((a % w).abs_diff(b % w) + (a / w).abs_diff(b / w)) as u32
    }

    /// Two moves for each tile of row `y` that must leave the row to let
    /// the others pass: the row's tiles that belong in it, minus the longest
    /// run already in goal order.
    fn row_conflicts(&self, tiles: &[u8], y: usize) -> u32 {
        let w = self.width;
        let keys = (y * w..y * w + w)
            .map(|cell| tiles[cell])
            .filter(|&t| t != self.blank_goal && t as usize / w == y)
            .map(|t| t as usize % w);
        conflicts(keys)
    }

    fn column_conflicts(&self, tiles: &[u8], x: usize) -> u32 {
        let w = self.width;
        let keys = (0..self.height)
            .map(|y| tiles[y * w + x])
            .filter(|&t| t != self.blank_goal && t as usize % w == x)
            .map(|t| t as usize / w);
        conflicts(keys)
    }
}

/// Twice the number of keys outside a longest increasing subsequence.
fn conflicts(keys: impl Iterator<Item = usize>) -> u32 {
    let mut tails: Vec<usize> = Vec::new();
    let mut count = 0;
    for key in keys {
        count += 1;
        match tails.binary_search(&key) {
            Ok(_) => {}
            Err(i) if i == tails.len() => tails.push(key),
            Err(i) => tails[i] = key,
        }
    }
    2 * (count - tails.len()) as u32
}

/// A node of the search tree: how it was reached.
struct Node {
    parent: u32,
    to: u8,
}

/// Searches with `beam` positions per depth for a solution shorter than
/// `limit` moves; returns the moves.
pub(crate) fn search(
    width: usize,
    tiles: &[u8],
    blank: usize,
    blank_goal: usize,
    beam: usize,
    limit: usize,
) -> Option<Vec<Direction>> {
    let cells = tiles.len();
    let height = cells / width;
    let bound = Bound::new(width, height, blank_goal);
    let mut nodes = vec![Node {
        parent: u32::MAX,
        to: blank as u8,
    }];
    // The layer: node index, lower bound, then the tiles, per entry.
    let mut layer: Vec<(u32, u32, Vec<u8>)> = vec![(0, bound.of(tiles), tiles.to_vec())];
    let mut seen: HashSet<Vec<u8>> = HashSet::from([tiles.to_vec()]);
    for _depth in 0..limit {
        if let Some((index, _, _)) = layer.iter().find(|(_, h, _)| *h == 0) {
            return Some(moves(&nodes, *index as usize, width));
        }
        let mut children: Vec<(u32, u32, Vec<u8>)> = Vec::with_capacity(layer.len() * 3);
        for (index, _, state) in &layer {
            let node = &nodes[*index as usize];
            let here = node.to as usize;
            let back = (node.parent != u32::MAX).then(|| nodes[node.parent as usize].to as usize);
            for next in neighbours(here, width, cells) {
                if Some(next) == back {
                    continue;
                }
                let mut child = state.clone();
                child.swap(here, next);
                if seen.contains(&child) {
                    continue;
                }
                let h = bound.of(&child);
                nodes.push(Node {
                    parent: *index,
                    to: next as u8,
                });
                seen.insert(child.clone());
                children.push((nodes.len() as u32 - 1, h, child));
            }
        }
        if children.is_empty() {
            return None;
        }
        if children.len() > beam {
            children.select_nth_unstable_by_key(beam, |(i, h, _)| (*h, *i));
            children.truncate(beam);
        }
        layer = children;
    }
    None
}

fn neighbours(cell: usize, width: usize, cells: usize) -> impl Iterator<Item = usize> {
    let x = cell % width;
    [
        (x > 0).then(|| cell - 1),
        (x + 1 < width).then(|| cell + 1),
        (cell >= width).then(|| cell - width),
        (cell + width < cells).then(|| cell + width),
    ]
    .into_iter()
    .flatten()
}

/// The moves from the root to node `index`.
fn moves(nodes: &[Node], mut index: usize, width: usize) -> Vec<Direction> {
    let mut moves = Vec::new();
    while nodes[index].parent != u32::MAX {
        let (to, from) = (
            nodes[index].to as usize,
            nodes[nodes[index].parent as usize].to as usize,
        );
        moves.push(if to == from + 1 {
            Direction::Left
        } else if to + 1 == from {
            Direction::Right
        } else if to == from + width {
            Direction::Up
        } else {
            Direction::Down
        });
        index = nodes[index].parent as usize;
    }
    moves.reverse();
    moves
}
