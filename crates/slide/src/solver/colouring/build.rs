//! The breadth-first search from the painted goal that fills the table.

use super::*;

/// Breadth-first search from the painted goal over painted boards, one
/// level at a time, the level's boards shared among the threads. Early
/// levels expand the level's boards (a board of the next level is claimed
/// by one thread, so the count of boards filled is exact); once the boards not yet reached are fewer than the level's,
/// each of those looks for a neighbour on the level instead.
pub(super) fn breadth_first(
    colouring: &Colouring,
    progress: &mut dyn FnMut(BuildProgress),
) -> Vec<AtomicU8> {
    let size = colouring.size;
    let n = size.cells();
    let entries = colouring.entries();
    let distances: Vec<AtomicU8> = (0..entries).map(|_| AtomicU8::new(UNSEEN)).collect();
    let goal = colouring.index(colouring.goal_blank, |cell| colouring.colour[cell]);
    distances[goal].store(0, Ordering::Relaxed);
    let lines = lines(size);
    const CHUNK: usize = 1 << 14;
    /// Each level is searched in this many slices, with progress between.
    const SLICES: usize = 16;
    let chunks = entries.div_ceil(CHUNK);
    let (mut filled, mut level) = (1u64, 1u64);
    for depth in 0u8..UNSEEN - 1 {
        let backward = entries as u64 - filled < level;
        let added = AtomicU64::new(0);
        for slice in 0..SLICES {
            let range = chunks * slice / SLICES..chunks * (slice + 1) / SLICES;
            range.into_par_iter().for_each(|chunk| {
                let mut board = vec![0u8; n];
                let (mut sequence, mut decoded) = ([0u8; 32], u32::MAX);
                let mut new = 0;
                for index in chunk * CHUNK..((chunk + 1) * CHUNK).min(entries) {
                    let d = distances[index].load(Ordering::Relaxed);
                    if backward {
                        if d != UNSEEN {
                            continue;
                        }
                        let blank =
                            colouring.board_from(index, &mut sequence, &mut decoded, &mut board);
                        let mut found = false;
                        neighbours(colouring, &lines[blank], index, blank, &board, |i| {
                            found = distances[i].load(Ordering::Relaxed) == depth;
                            found
                        });
                        if found {
                            distances[index].store(depth + 1, Ordering::Relaxed);
                            new += 1;
                        }
                        continue;
                    }
                    if d != depth {
                        continue;
                    }
                    let blank =
                        colouring.board_from(index, &mut sequence, &mut decoded, &mut board);
                    neighbours(colouring, &lines[blank], index, blank, &board, |i| {
                        // Claimed once: the count of boards filled
                        // stays exact however the threads race.
                        let claimed = distances[i].load(Ordering::Relaxed) == UNSEEN
                            && distances[i]
                                .compare_exchange(
                                    UNSEEN,
                                    depth + 1,
                                    Ordering::Relaxed,
                                    Ordering::Relaxed,
                                )
                                .is_ok();
                        new += u64::from(claimed);
                        false
                    });
                }
                added.fetch_add(new, Ordering::Relaxed);
            });
            progress(BuildProgress {
                depth: u32::from(depth) + 1,
                filled: filled + added.load(Ordering::Relaxed),
                entries: entries as u64,
            });
        }
        level = added.load(Ordering::Relaxed);
        if level == 0 {
            break;
        }
        filled += level;
    }
    distances
}
