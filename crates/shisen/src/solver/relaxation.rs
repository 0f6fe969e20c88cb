//! The relaxation that proves a position unsolvable, and the probes that
//! ban pairings whose relaxation fails.

use super::*;

/// The relaxation: tile `i` may go once it connects to the cell of a tile
/// `j` of its class (`ranges[i]`) with `allowed(i, j)`. Whether every tile
/// goes. The tiles `given` go first, unchecked (the caller knows they
/// would); the sweeps visit the others in `order`: the result
/// does not depend on it (letting a tile go only helps the others), the
/// time does. With `partners`, also records for each tile the allowed
/// tiles of its class it connects to when it goes (bit
/// `j - ranges[i].start`), and in `gone` the order they went in.
pub(super) fn relaxation_clears(
    board: &Board,
    tiles: &[Point],
    ranges: &[Range<usize>],
    allowed: impl Fn(usize, usize) -> bool,
    given: &[usize],
    order: &[usize],
    mut partners: Option<(&mut Vec<u8>, &mut Vec<usize>)>,
) -> bool {
    let mut relaxed = board.clone();
    for &i in given {
        relaxed.vacate(tiles[i]);
    }
    if given.len() == tiles.len() {
        return true;
    }
    // Sweeps over the tiles still there, each letting go whatever it can
    // (a tile let go early in a sweep helps the later ones), until a sweep
    // lets none go.
    let mut left: Vec<usize> = order.to_vec();
    loop {
        let before = left.len();
        left.retain(|&i| {
            let t = tiles[i];
            let mut candidates = ranges[i].clone().filter(|&j| j != i && allowed(i, j));
            let goes = relaxed.connects_any(t, candidates.by_ref().map(|j| tiles[j]));
            if goes {
                if let Some((partners, gone)) = partners.as_mut() {
                    gone.push(i);
                    // `connects_any` stopped at the first partner found.
                    let first = ranges[i]
                        .clone()
                        .filter(|&j| j != i && allowed(i, j))
                        .find(|&j| relaxed.connects_any(t, std::iter::once(tiles[j])));
                    let mut mask = 0u8;
                    for j in first.into_iter().chain(candidates) {
                        if j == first.unwrap_or(usize::MAX)
                            || relaxed.connects_any(t, std::iter::once(tiles[j]))
                        {
                            mask |= 1 << (j - ranges[i].start).min(7);
                        }
                    }
                    partners[i] = mask;
                }
                relaxed.vacate(t);
            }
            !goes
        });
        if left.is_empty() {
            return true;
        }
        if left.len() == before {
            return false;
        }
    }
}

/// The pairings of four tiles, as index pairs.
pub(super) const PAIRINGS: [[(usize, usize); 2]; 3] =
    [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]];

/// The partner of the `at`-th tile of a class of four under pairing `k`.
pub(super) fn partner_in(k: usize, at: usize) -> usize {
    let [(a, b), (x, y)] = PAIRINGS[k];
    [(a, b), (b, a), (x, y), (y, x)]
        .iter()
        .find(|p| p.0 == at)
        .map_or(at, |p| p.1)
}

/// Whether the bans allow tiles `i` and `j` of `tiles` to pair.
pub(super) fn not_banned<'a>(
    bans: &'a Bans,
    tiles: &'a [Point],
) -> impl Fn(usize, usize) -> bool + 'a {
    move |i, j| !bans.contains(Move::new(tiles[i], tiles[j]))
}

/// Probes every class of four tiles: a pairing is impossible if the
/// relaxation fails with the class's other pairings banned. Bans the pairs
/// of impossible pairings (unhashed: they follow from the position and
/// the bans) and repeats while that finds more. Returns the bans added, or
/// `None` (with none added) if the relaxation fails or some class has no
/// possible pairing: the position is unsolvable.
///
/// A pairing the plain relaxation already respects — each tile of the
/// class, when it went, connected to its partner under that pairing — is
/// not probed: fixing it changes nothing in the relaxation's run.
///
/// Each relaxation is paid for through `spend` first; when the budget
/// refuses, the bans added are taken back and the refusal returned.
pub(super) fn probe(
    board: &Board,
    bans: &mut Bans,
    spend: &mut impl FnMut(u64) -> Result<(), Stop>,
) -> Result<Option<Vec<Move>>, Stop> {
    let (tiles, ranges) = flat_classes(board);
    let mut found = Vec::new();
    let fours: Vec<usize> = (0..tiles.len())
        .filter(|&i| ranges[i].start == i && ranges[i].len() == 4)
        .collect();
    let pair = |f: usize, (a, b): (usize, usize)| Move::new(tiles[f + a], tiles[f + b]);
    let undo = |bans: &mut Bans, found: &[Move]| {
        for &m in found {
            bans.unban(m, false);
        }
    };
    let dead = |bans: &mut Bans, found: &[Move]| {
        undo(bans, found);
        Ok(None)
    };
    let mut pay = |bans: &mut Bans, found: &[Move]| {
        spend(tiles.len() as u64).inspect_err(|_| undo(bans, found))
    };
    let outside = outside_in(board, &tiles);
    loop {
        let mut partners = vec![0u8; tiles.len()];
        // The plain run's order makes the probes' first sweeps go far.
        let mut gone = Vec::with_capacity(tiles.len());
        pay(bans, &found)?;
        if !relaxation_clears(
            board,
            &tiles,
            &ranges,
            not_banned(bans, &tiles),
            &[],
            &outside,
            Some((&mut partners, &mut gone)),
        ) {
            return dead(bans, &found);
        }
        let mut changed = false;
        for &f in &fours {
            let open =
                |bans: &Bans, k: usize| PAIRINGS[k].iter().all(|&p| !bans.contains(pair(f, p)));
            let options: Vec<usize> = (0..3).filter(|&k| open(bans, k)).collect();
            if options.is_empty() {
                return dead(bans, &found);
            }
            if options.len() < 2 {
                continue;
            }
            for k in options {
                let respected = (0..4).all(|at| partners[f + at] & (1 << partner_in(k, at)) != 0);
                if respected || !open(bans, k) {
                    continue;
                }
                pay(bans, &found)?;
                let others: Vec<Move> = (0..3)
                    .filter(|&o| o != k)
                    .flat_map(|o| PAIRINGS[o].map(|p| pair(f, p)))
                    .collect();
                others.iter().for_each(|&m| bans.add(m, false));
                // The plain run's tiles up to the first that connected to
                // no partner allowed now go the same way in this one.
                let allowed = not_banned(bans, &tiles);
                let same = gone
                    .iter()
                    .take_while(|&&i| {
                        let start = ranges[i].start;
                        ranges[i].len() <= 8
                            && ranges[i]
                                .clone()
                                .any(|j| partners[i] & (1 << (j - start)) != 0 && allowed(i, j))
                    })
                    .count();
                let (given, rest) = gone.split_at(same);
                let clears = relaxation_clears(board, &tiles, &ranges, allowed, given, rest, None);
                others.iter().for_each(|&m| bans.unban(m, false));
                if !clears {
                    for p in PAIRINGS[k] {
                        bans.add(pair(f, p), false);
                        found.push(pair(f, p));
                    }
                    changed = true;
                }
            }
            if (0..3).all(|k| !open(bans, k)) {
                return dead(bans, &found);
            }
        }
        if !changed {
            return Ok(Some(found));
        }
    }
}
