//! Partitions of the goal cells into patterns, and the board symmetries that
//! map a pattern onto its canonical congruent one.

use super::*;

/// The canonical patterns (up to board symmetry) that solving on `size`
/// towards a goal with the blank on `goal_blank` needs with `kind`: what a
/// front end should load or build beforehand.
pub fn required_patterns(size: Size, goal_blank: usize, kind: HeuristicKind) -> Vec<PatternSpec> {
    if kind == HeuristicKind::Manhattan {
        return Vec::new();
    }
    let symmetries = symmetries(size);
    let mut specs: Vec<PatternSpec> = partitions(size, goal_blank, kind)
        .iter()
        .flatten()
        .map(|group| canonical(size, group, goal_blank, &symmetries).0)
        .collect();
    specs.sort();
    specs.dedup();
    specs
}

/// The partitions of the goal cells (blank excepted) into patterns: cells
/// in column-major order (row-major when the board is taller than wide),
/// read from the end far from the blank, cut into groups of at most
/// `group_size` tiles — on 4 × 4 with a corner blank, the two column
/// halves. Square boards add the same cut of the transposed order.
pub(crate) fn partitions(size: Size, goal_blank: usize, kind: HeuristicKind) -> Vec<Vec<Vec<u8>>> {
    if kind == HeuristicKind::Small && (size.width(), size.height()) == (4, 4) {
        return blocks(size, goal_blank);
    }
    if kind == HeuristicKind::Large && (size.width(), size.height()) == (5, 5) {
        if let Some(partitions) = corner_blocks(size, goal_blank) {
            return partitions;
        }
    }
    let n = size.cells();
    let m = kind.group_size(n);
    let column_major: Vec<usize> = (0..size.width())
        .flat_map(|x| (0..size.height()).map(move |y| size.cell(x, y)))
        .collect();
    let row_major: Vec<usize> = (0..n).collect();
    let orders = if size.width() == size.height() {
        vec![column_major, row_major]
    } else if size.width() > size.height() {
        vec![column_major]
    } else {
        vec![row_major]
    };
    orders
        .into_iter()
        .map(|mut order| {
            let at = order.iter().position(|&c| c == goal_blank).expect("a cell");
            if at < n / 2 {
                order.reverse();
            }
            order.retain(|&c| c != goal_blank);
            order
                .chunks(m)
                .map(|g| g.iter().map(|&c| c as u8).collect())
                .collect()
        })
        .collect()
}

/// Korf and Felner's 6-6-3 partition of the 4 × 4 board, placed around
/// the goal's blank: the rest of the blank's row is the 3-tile pattern, and
/// the other three rows split into a left and a right 2 × 3 block. The
/// reflected partition does the same with the blank's column. Compact
/// blocks capture more of the tiles' interactions than the column-major
/// cut of the larger partitions: fewer nodes, and every 6-tile block of
/// both partitions is congruent, so one 6-tile table serves them all.
pub(super) fn blocks(size: Size, goal_blank: usize) -> Vec<Vec<Vec<u8>>> {
    let (bx, by) = (goal_blank % size.width(), goal_blank / size.width());
    let cut = |transpose: bool| -> Vec<Vec<u8>> {
        let mut groups = vec![Vec::new(); 3];
        for y in 0..size.height() {
            for x in 0..size.width() {
                let cell = size.cell(x, y);
                if cell == goal_blank {
                    continue;
                }
                // (along, across): the blank's line is `across == its own`.
                let (along, across, line) = if transpose { (y, x, bx) } else { (x, y, by) };
                let g = if across == line {
                    2
                } else {
                    usize::from(along >= 2)
                };
                groups[g].push(cell as u8);
            }
        }
        groups
    };
    vec![cut(false), cut(true)]
}

/// Korf and Felner's 6-6-6-6 partition of the 5 × 5 board, for a goal
/// with the blank in a corner: four compact blocks of six tiles, drawn
/// here with the blank at the top left (`_`). The reflected partition is
/// the same drawing turned about the diagonal through the blank. B, C and
/// D are congruent rectangles, so two tables serve both partitions: A's
/// (which walls the blank into its corner) and the rectangle's. `None`
/// when the blank is not in a corner.
pub(super) fn corner_blocks(size: Size, goal_blank: usize) -> Option<Vec<Vec<Vec<u8>>>> {
    const SHAPE: [&[u8; 5]; 5] = [b"_AABB", b"AAABB", b"CCABB", b"CCDDD", b"CCDDD"];
    let (w, h) = (size.width(), size.height());
    let (bx, by) = (goal_blank % w, goal_blank / w);
    if !(bx == 0 || bx == w - 1) || !(by == 0 || by == h - 1) {
        return None;
    }
    // The drawing's coordinates of a cell: mirrored so the blank is at
    // (0, 0).
    let frame = |x: usize, y: usize| {
        let fx = if bx == 0 { x } else { w - 1 - x };
        let fy = if by == 0 { y } else { h - 1 - y };
        (fx, fy)
    };
    let cut = |transpose: bool| -> Vec<Vec<u8>> {
        let mut groups = vec![Vec::new(); 4];
        for cell in (0..size.cells()).filter(|&c| c != goal_blank) {
            let (fx, fy) = frame(cell % w, cell / w);
            let (col, row) = if transpose { (fy, fx) } else { (fx, fy) };
            groups[usize::from(SHAPE[row][col] - b'A')].push(cell as u8);
        }
        groups
    };
    Some(vec![cut(false), cut(true)])
}

/// Cell permutations that preserve adjacency: mirrors and half turns, and
/// on square boards the transpositions and quarter turns too.
pub(super) fn symmetries(size: Size) -> Vec<Vec<u8>> {
    type CellMap = Box<dyn Fn(usize, usize) -> (usize, usize)>;
    let (w, h) = (size.width(), size.height());
    let mut maps: Vec<CellMap> = vec![
        Box::new(|x, y| (x, y)),
        Box::new(move |x, y| (w - 1 - x, y)),
        Box::new(move |x, y| (x, h - 1 - y)),
        Box::new(move |x, y| (w - 1 - x, h - 1 - y)),
    ];
    if w == h {
        maps.push(Box::new(|x, y| (y, x)));
        maps.push(Box::new(move |x, y| (w - 1 - y, x)));
        maps.push(Box::new(move |x, y| (y, h - 1 - x)));
        maps.push(Box::new(move |x, y| (w - 1 - y, h - 1 - x)));
    }
    maps.iter()
        .map(|f| {
            (0..size.cells())
                .map(|cell| {
                    let (x, y) = size.coords(cell);
                    let (nx, ny) = f(x, y);
                    size.cell(nx, ny) as u8
                })
                .collect()
        })
        .collect()
}

/// The smallest congruent pattern S and a symmetry σ with σ(S) = `group`.
pub(super) fn canonical(
    size: Size,
    group: &[u8],
    goal_blank: usize,
    symmetries: &[Vec<u8>],
) -> (PatternSpec, Vec<u8>) {
    symmetries
        .iter()
        .map(|sigma| {
            let mut inverse = vec![0u8; sigma.len()];
            for (c, &s) in sigma.iter().enumerate() {
                inverse[s as usize] = c as u8;
            }
            let cells = group.iter().map(|&g| inverse[g as usize]).collect();
            let blank = inverse[goal_blank];
            (
                PatternSpec::with_goal_blank(size, cells, blank),
                sigma.clone(),
            )
        })
        .min()
        .expect("the identity")
}
