//! Breadth-first search on a small grid of at most 16 cells.
//!
//! Used where geometry alone gets awkward: the last two tiles of a line (a
//! 2 × 3 window, 120 states once the bystanders are interchangeable) and
//! the final region (at most 3 × 3 cells, 181 440 states). The search is
//! exact, so these pieces are solved in the fewest moves.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

/// A small grid to search: `labels[i]` names the tile on local cell `i`
/// (row-major, `width` wide); equal labels are interchangeable tiles.
pub(crate) struct Local<'a> {
    pub width: usize,
    pub labels: &'a [u8],
    pub blank: u8,
    /// The label each cell must hold at the end, or `None` for "any".
    pub goal: &'a [Option<u8>],
}

impl Local<'_> {
    /// The local cells the blank visits, in order, on a shortest way to the
    /// goal; `None` if the goal cannot be reached.
    pub fn solve(&self) -> Option<Vec<usize>> {
        let cells = self.labels.len();
        debug_assert!(cells <= 16 && self.goal.len() == cells);
        let start = encode(self.labels);
        let blank_of = |state: u64| (0..cells).find(|&i| label(state, i) == self.blank);
        let mut parent: HashMap<u64, (u64, u8)> = HashMap::new();
        parent.insert(start, (start, u8::MAX));
        let mut queue = VecDeque::from([start]);
        while let Some(state) = queue.pop_front() {
            if self.reached(state) {
                return Some(path(&parent, state));
            }
            let blank = blank_of(state).expect("the blank is on the grid");
            for next in self.neighbours(blank) {
                let child = swap(state, blank, next);
                if let Entry::Vacant(slot) = parent.entry(child) {
                    slot.insert((state, next as u8));
                    queue.push_back(child);
                }
            }
        }
        None
    }

    fn reached(&self, state: u64) -> bool {
        self.goal
            .iter()
            .enumerate()
            .all(|(i, want)| want.is_none_or(|want| label(state, i) == want))
    }

    fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> {
        super::beam::neighbours(cell, self.width, self.labels.len())
    }
}

fn encode(labels: &[u8]) -> u64 {
    labels
        .iter()
        .enumerate()
        .fold(0, |state, (i, &l)| state | (l as u64) << (4 * i))
}

fn label(state: u64, cell: usize) -> u8 {
    (state >> (4 * cell) & 15) as u8
}

fn swap(state: u64, a: usize, b: usize) -> u64 {
    let (la, lb) = (label(state, a) as u64, label(state, b) as u64);
    let cleared = state & !(15 << (4 * a)) & !(15 << (4 * b));
    cleared | lb << (4 * a) | la << (4 * b)
}

fn path(parent: &HashMap<u64, (u64, u8)>, mut state: u64) -> Vec<usize> {
    let mut cells = Vec::new();
    loop {
        let (previous, cell) = parent[&state];
        if cell == u8::MAX {
            break;
        }
        cells.push(cell as usize);
        state = previous;
    }
    cells.reverse();
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_classic_eight_puzzle_distance() {
        // 8 6 7 / 2 5 4 / 3 _ 1 is one of the two hardest 8-puzzle positions:
        // 31 moves from 1 2 3 / 4 5 6 / 7 8 _.
        let labels = [8, 6, 7, 2, 5, 4, 3, 0, 1];
        let goal: Vec<Option<u8>> = [1, 2, 3, 4, 5, 6, 7, 8, 0].map(Some).to_vec();
        let local = Local {
            width: 3,
            labels: &labels,
            blank: 0,
            goal: &goal,
        };
        assert_eq!(local.solve().unwrap().len(), 31);
    }

    #[test]
    fn refuses_an_unreachable_goal() {
        let labels = [2, 1, 3, 0];
        let goal: Vec<Option<u8>> = [1, 2, 3, 0].map(Some).to_vec();
        let local = Local {
            width: 2,
            labels: &labels,
            blank: 0,
            goal: &goal,
        };
        assert_eq!(local.solve(), None);
    }
}
