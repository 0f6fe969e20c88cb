//! IDA* over multi-tile moves bounded by the colour table.

use super::*;

/// IDA* over multi-tile moves bounded by a [`ColourTable`]. Answers the
/// moves of a shortest solution with the nodes generated, or `None` with
/// the proven lower bound when `stop` ends it first.
pub(crate) fn search(
    table: &ColourTable,
    start: &Canonical,
    stop: &dyn Fn(u64) -> bool,
) -> Result<(Moves, u64), (u32, u64)> {
    match search_within(table, start, stop, 0, u32::MAX)? {
        (Some(moves), nodes) => Ok((moves, nodes)),
        (None, _) => unreachable!("every solvable position has a solution"),
    }
}

/// IDA* for a position whose distance is known to be at least `floor`:
/// the first threshold is `floor` (or the bound, if higher), and past
/// `ceiling` it gives up with `None`. The analysis of a solve knows the
/// distance of the position before, so each position is one or two
/// thresholds, and a move away from the goal needs no search at its own
/// distance, the costliest.
pub(crate) fn search_within(
    table: &ColourTable,
    start: &Canonical,
    stop: &dyn Fn(u64) -> bool,
    floor: u32,
    ceiling: u32,
) -> Result<(Option<Moves>, u64), (u32, u64)> {
    let mut dfs = Dfs {
        table,
        cells: start.cells.clone(),
        path: Vec::new(),
        nodes: 0,
        next_check: 0,
        next_bound: u32::MAX,
        stop,
        stopped: false,
    };
    if dfs.solved() {
        return Ok((Some(Moves(Vec::new())), 0));
    }
    let views = table.views(&dfs.cells, start.blank);
    let mut bound = views.bound().max(floor);
    while bound <= ceiling {
        dfs.next_bound = u32::MAX;
        if dfs.visit(start.blank, &views, None, 0, bound) {
            return Ok((Some(Moves(dfs.path)), dfs.nodes));
        }
        if dfs.stopped {
            return Err((bound, dfs.nodes));
        }
        bound = dfs.next_bound;
    }
    Ok((None, dfs.nodes))
}

pub(super) struct Dfs<'a> {
    pub(super) table: &'a ColourTable,
    pub(super) cells: Vec<u8>,
    pub(super) path: Vec<Direction>,
    pub(super) nodes: u64,
    pub(super) next_check: u64,
    pub(super) next_bound: u32,
    pub(super) stop: &'a dyn Fn(u64) -> bool,
    pub(super) stopped: bool,
}

impl Dfs<'_> {
    pub(super) fn solved(&self) -> bool {
        self.cells.iter().enumerate().all(|(c, &t)| c == t as usize)
    }

    /// Searches below a node at MTM depth `g` (its `views`) whose last
    /// move went along `axis` (true: horizontal).
    pub(super) fn visit(
        &mut self,
        blank: usize,
        views: &Views,
        axis: Option<bool>,
        g: u32,
        bound: u32,
    ) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + (1 << 14);
            self.stopped = (self.stop)(self.nodes);
        }
        if self.stopped {
            return false;
        }
        let table = self.table;
        for (d, line) in &table.lines[blank] {
            let horizontal = is_horizontal(*d);
            // Two moves along one line in a row make one move, or none.
            if axis == Some(horizontal) {
                continue;
            }
            let mut b = blank;
            let mut slid = 0;
            let mut found = false;
            let mut child = *views;
            for &to in line {
                let to = to as usize;
                table.slide(&mut child.word, self.cells[to], to, b);
                self.cells.swap(b, to);
                b = to;
                slid += 1;
                self.path.push(*d);
                self.nodes += 1;
                // The child is pruned as soon as one view's distance
                // exceeds what the bound leaves; that distance is a lower
                // bound on the child's, so the next bound stays safe.
                let limit = bound.saturating_sub(g + 1);
                match table.step((views, blank), &mut child, b, horizontal, limit) {
                    Err(h) => self.next_bound = self.next_bound.min(g + 1 + h),
                    Ok(()) if g < bound => {
                        let h = child.bound();
                        if (h == 0 && self.solved())
                            || self.visit(b, &child, Some(horizontal), g + 1, bound)
                        {
                            found = true;
                            break;
                        }
                    }
                    Ok(()) => self.next_bound = self.next_bound.min(g + 1 + child.bound()),
                }
                if self.stopped {
                    break;
                }
            }
            if found {
                return true;
            }
            // Slide the run back: the blank walks back along the line.
            for j in (0..slid).rev() {
                let before = if j == 0 { blank } else { line[j - 1] as usize };
                self.cells.swap(before, line[j] as usize);
                self.path.pop();
            }
            if self.stopped {
                return false;
            }
        }
        false
    }
}
