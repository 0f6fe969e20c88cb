use super::*;
use crate::solver::pdb::placement;
use crate::Size;
use std::collections::VecDeque;

/// The database by a plain 0-1 breadth-first search over (tile cells,
/// blank cell): a blank move costs 1 if it moves a pattern tile and 0
/// otherwise; a placement's value is its best over blank cells.
/// (A placement of the whole board's tiles can be out of reach: `None`.)
fn reference(spec: &PatternSpec) -> Vec<Option<u32>> {
    let size = spec.size();
    let n = size.cells();
    let mut distance = vec![u32::MAX; spec.entries() * n];
    let mut queue = VecDeque::new();
    let goal: Vec<u8> = spec.cells().to_vec();
    let g = index(&goal, n);
    for blank in 0..n as u8 {
        let allowed = match spec.goal_blank() {
            Some(b) => {
                let occupied = goal.iter().fold(0u32, |m, &c| m | 1 << c);
                let free = full_mask(n) & !occupied;
                Geometry::new(size).region(b as u32, free) >> blank & 1 != 0
            }
            None => !goal.contains(&blank),
        };
        if allowed {
            distance[g * n + blank as usize] = 0;
            queue.push_back((goal.clone(), blank, 0u32));
        }
    }
    while let Some((cells, blank, d)) = queue.pop_front() {
        if d > distance[index(&cells, n) * n + blank as usize] {
            continue;
        }
        let (x, y) = size.coords(blank as usize);
        let mut next = Vec::new();
        if x > 0 {
            next.push(blank as usize - 1);
        }
        if x + 1 < size.width() {
            next.push(blank as usize + 1);
        }
        if y > 0 {
            next.push(blank as usize - size.width());
        }
        if y + 1 < size.height() {
            next.push(blank as usize + size.width());
        }
        for c in next {
            let mut moved = cells.clone();
            let cost = match moved.iter().position(|&t| t as usize == c) {
                Some(j) => {
                    moved[j] = blank;
                    1
                }
                None => 0,
            };
            let slot = index(&moved, n) * n + c;
            if d + cost < distance[slot] {
                distance[slot] = d + cost;
                let item = (moved, c as u8, d + cost);
                if cost == 0 {
                    queue.push_front(item);
                } else {
                    queue.push_back(item);
                }
            }
        }
    }
    (0..spec.entries())
        .map(|r| {
            let best = (0..n).map(|b| distance[r * n + b]).min().unwrap();
            (best < u32::MAX).then_some(best)
        })
        .collect()
}

#[test]
fn every_value_equals_a_plain_search_over_tile_and_blank_cells() {
    let cases: &[(&str, &[u8], Option<u8>)] = &[
        ("3x3", &[0, 1, 2], None),
        ("3x3", &[1, 3, 4], Some(0)),
        ("3x3", &[0, 1, 2, 3, 4, 5, 6, 7], None),
        ("2x4", &[0, 1, 2, 3, 4, 5, 6], None),
        ("4x3", &[0, 1, 4, 5, 8], None),
        ("3x4", &[1, 3, 4, 6, 7], Some(0)),
        ("4x4", &[0, 1, 2, 4], None),
        ("5x5", &[0, 1, 5], None),
    ];
    for &(size, cells, blank) in cases {
        let size: Size = size.parse().unwrap();
        let spec = match blank {
            Some(b) => PatternSpec::with_goal_blank(size, cells.to_vec(), b),
            None => PatternSpec::new(size, cells.to_vec()),
        };
        assert_eq!(spec.goal_blank(), blank, "{spec}");
        let database = PatternDatabase::build(&spec, &mut |_| {});
        let expected = reference(&spec);
        let mut at = vec![0u8; cells.len()];
        let (mut reached, mut capped) = (0, 0);
        for (r, &d) in expected.iter().enumerate() {
            placement(r, size.cells(), &mut at);
            let value = database.value(&at) as u32;
            // Out of reach: any value is a lower bound.
            let Some(d) = d else { continue };
            let md: u32 = at
                .iter()
                .zip(cells)
                .map(|(&c, &g)| {
                    let ((x, y), (gx, gy)) = (size.coords(c as usize), size.coords(g as usize));
                    (x.abs_diff(gx) + y.abs_diff(gy)) as u32
                })
                .sum();
            // An excess over four bits is capped, to a smaller bound.
            let stored = d.min(md + 2 * MAX_EXCESS as u32);
            assert_eq!(value, stored, "{spec}, placement {at:?}");
            capped += u64::from(stored < d);
            reached += 1;
        }
        assert_eq!(database.capped(), capped, "{spec}");
        let whole = cells.len() + 1 == size.cells();
        assert_eq!(reached * (1 + usize::from(whole)), expected.len());
        // Only the whole 2 × 4 board has excesses that large.
        assert_eq!(capped > 0, size.cells() == 8 && whole, "{spec}");
    }
}

/// The value of one placement found by a search of its own: A* from
/// the placement (every blank cell at cost 0) to the goal placement
/// (with the blank where the database seeds it) over (tile cells,
/// blank cell), guided by the tiles' Manhattan sum. That bound is
/// consistent (a pattern move changes it by one, a blank move not at
/// all), so the first goal state taken is at the distance. It shares
/// nothing with the builder: it runs from the placement, not from the
/// goal, one state at a time.
fn value_by_search(spec: &PatternSpec, start: &[u8]) -> u32 {
    let size = spec.size();
    let (n, w) = (size.cells(), size.width());
    let goal = spec.cells();
    let occupied = goal.iter().fold(0u32, |m, &c| m | 1 << c);
    let goal_blanks = match spec.goal_blank() {
        Some(b) => Geometry::new(size).region(u32::from(b), full_mask(n) & !occupied),
        None => full_mask(n) & !occupied,
    };
    let manhattan = |cells: &[u8]| -> u32 {
        cells
            .iter()
            .zip(goal)
            .map(|(&c, &g)| {
                let ((x, y), (gx, gy)) = (size.coords(c as usize), size.coords(g as usize));
                (x.abs_diff(gx) + y.abs_diff(gy)) as u32
            })
            .sum()
    };
    // A state: 5 bits a tile cell, then the blank's.
    let key = |cells: &[u8], blank: u8| {
        cells
            .iter()
            .fold(u64::from(blank), |k, &c| k << 5 | u64::from(c))
    };
    let mut best: std::collections::HashMap<u64, u32> = Default::default();
    // Buckets by f = g + h.
    let mut open: Vec<Vec<(Vec<u8>, u8, u32)>> = vec![Vec::new(); 256];
    for blank in (0..n as u8).filter(|b| !start.contains(b)) {
        best.insert(key(start, blank), 0);
        open[manhattan(start) as usize].push((start.to_vec(), blank, 0));
    }
    let mut f = 0;
    loop {
        let Some((cells, blank, g)) = open[f].pop() else {
            f += 1;
            continue;
        };
        if best[&key(&cells, blank)] < g {
            continue;
        }
        if cells == goal && goal_blanks >> blank & 1 != 0 {
            return g;
        }
        let (x, y) = (blank as usize % w, blank as usize / w);
        let steps = [
            (x > 0).then(|| blank - 1),
            (x + 1 < w).then(|| blank + 1),
            (y > 0).then(|| blank - w as u8),
            (y + 1 < size.height()).then(|| blank + w as u8),
        ];
        for next in steps.into_iter().flatten() {
            let mut moved = cells.clone();
            let cost = match moved.iter().position(|&c| c == next) {
                Some(j) => {
                    moved[j] = blank;
                    1
                }
                None => 0,
            };
            let k = key(&moved, next);
            if best.get(&k).is_none_or(|&old| g + cost < old) {
                best.insert(k, g + cost);
                let h = manhattan(&moved);
                open[(g + cost + h) as usize].push((moved, next, g + cost));
            }
        }
    }
}

/// The 5 × 5 six-tile tables of the large set (Korf and Felner's
/// 6-6-6-6), built in full, against the search of each sampled
/// placement. (Their 127.5 M entries are too many for the plain
/// search over every state above.)
#[test]
fn five_by_five_six_tile_tables_agree_with_a_search_from_each_placement() {
    use crate::solver::heuristic::{required_patterns, HeuristicKind};
    let size: Size = "5x5".parse().unwrap();
    let specs = required_patterns(size, 0, HeuristicKind::Large);
    assert_eq!(specs.len(), 2);
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for spec in &specs {
        let database = PatternDatabase::build(spec, &mut |_| {});
        assert_eq!(database.capped(), 0, "{spec}");
        let mut at = vec![0u8; spec.cells().len()];
        // The goal, then placements at random.
        for sample in 0..=SAMPLES {
            // xorshift: a fixed sample, the same on every run.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let r = if sample == 0 {
                index(spec.cells(), size.cells())
            } else {
                (state % spec.entries() as u64) as usize
            };
            placement(r, size.cells(), &mut at);
            let expected = value_by_search(spec, &at);
            assert_eq!(
                u32::from(database.value(&at)),
                expected,
                "{spec}, placement {at:?}"
            );
        }
    }
}

/// Placements sampled per table by the test above.
const SAMPLES: usize = 60;

#[test]
fn a_build_gives_up_when_told_and_otherwise_matches_the_plain_build() {
    let spec = PatternSpec::new("4x3".parse().unwrap(), vec![0, 1, 4, 5, 8]);
    let asked = std::cell::Cell::new(0u32);
    let count = || {
        asked.set(asked.get() + 1);
        false
    };
    let whole = PatternDatabase::build_until(&spec, &mut |_| {}, &count).expect("not stopped");
    assert_eq!(
        whole.to_bytes(),
        PatternDatabase::build(&spec, &mut |_| {}).to_bytes()
    );
    let checks = asked.get();
    assert!(checks > 4, "asked once a layer at least: {checks}");
    // Told to stop at the third check: no table, and no more checks.
    // (The first ones are asked while its memory is set up.)
    asked.set(0);
    let third = || {
        asked.set(asked.get() + 1);
        asked.get() >= 3
    };
    assert!(PatternDatabase::build_until(&spec, &mut |_| {}, &third).is_none());
    assert_eq!(asked.get(), 3);
}

#[test]
fn decoding_without_division_agrees_with_the_plain_inverse() {
    for (n, k) in [(16, 8), (16, 7), (25, 6), (9, 8), (32, 5)] {
        let entries: usize = (0..k).map(|j| n - j).product();
        let reciprocals = reciprocals(n, k);
        let (mut fast, mut plain) = (vec![0u8; k], vec![0u8; k]);
        let step = entries / 100_000 + 1;
        for p in (0..entries).step_by(step).chain([entries - 1]) {
            let used = decode(p, n, &reciprocals, &mut fast);
            assert_eq!(used, placement(p, n, &mut plain), "{n} {k} {p}");
            assert_eq!(fast, plain, "{n} {k} {p}");
        }
    }
}

#[test]
fn free_cell_ordinals_round_trip() {
    let free = 0b1011_0110_1001u32;
    for ordinals in 0..1u32 << free.count_ones() {
        let cells = deposit(ordinals, free);
        assert_eq!(cells & !free, 0);
        assert_eq!(ordinals_of(cells, free), ordinals);
    }
}
