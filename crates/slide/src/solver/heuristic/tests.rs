use super::*;

#[test]
fn four_by_four_uses_the_column_halves_and_their_reflection() {
    let size: Size = "4x4".parse().unwrap();
    let parts = partitions(size, 0, HeuristicKind::Large);
    assert_eq!(parts.len(), 2);
    let mut halves: Vec<Vec<u8>> = parts[0].clone();
    halves.iter_mut().for_each(|g| g.sort_unstable());
    assert_eq!(
        halves,
        vec![
            vec![2, 3, 6, 7, 10, 11, 14, 15],
            vec![1, 4, 5, 8, 9, 12, 13]
        ]
    );
    // Blank-first and row-major goals share one 7-tile and one 8-tile table.
    let corner = required_patterns(size, 0, HeuristicKind::Large);
    assert_eq!(corner.len(), 2);
    assert_eq!(corner, required_patterns(size, 15, HeuristicKind::Large));
    let small = partitions(size, 15, HeuristicKind::Small);
    let sizes: Vec<usize> = small[0].iter().map(Vec::len).collect();
    assert_eq!(sizes, vec![6, 6, 3]);
}

/// Each of `kind`'s partitions covers every tile (every cell but the
/// goal blank's) once.
fn assert_every_tile_once(size: Size, blank: usize, kind: HeuristicKind) {
    for part in partitions(size, blank, kind) {
        let mut cells: Vec<u8> = part.concat();
        cells.sort_unstable();
        let expected: Vec<u8> = (0..size.cells() as u8)
            .filter(|&c| c != blank as u8)
            .collect();
        assert_eq!(cells, expected, "{size}, blank {blank}");
    }
}

#[test]
fn four_by_four_small_set_is_korf_and_felners_blocks() {
    let size: Size = "4x4".parse().unwrap();
    // Blank-first: the top row, then two 2 × 3 blocks below it.
    assert_eq!(
        partitions(size, 0, HeuristicKind::Small),
        vec![
            vec![
                vec![4, 5, 8, 9, 12, 13],
                vec![6, 7, 10, 11, 14, 15],
                vec![1, 2, 3]
            ],
            vec![
                vec![1, 2, 3, 5, 6, 7],
                vec![9, 10, 11, 13, 14, 15],
                vec![4, 8, 12]
            ],
        ]
    );
    // Every goal blank: each partition covers every tile once, and the
    // set needs one 6-tile table (all blocks congruent) and the 3-tile
    // tables of the blank's lines.
    for blank in 0..16 {
        assert_every_tile_once(size, blank, HeuristicKind::Small);
        let sixes = required_patterns(size, blank, HeuristicKind::Small)
            .iter()
            .filter(|spec| spec.cells().len() == 6)
            .count();
        assert!(sixes >= 1, "blank {blank}");
    }
    assert_eq!(required_patterns(size, 0, HeuristicKind::Small).len(), 2);
}

#[test]
fn five_by_five_large_set_is_korf_and_felners_six_tile_blocks() {
    let size: Size = "5x5".parse().unwrap();
    // Blank-first: the drawing itself, and its turn about the diagonal.
    assert_eq!(
        partitions(size, 0, HeuristicKind::Large),
        vec![
            vec![
                vec![1, 2, 5, 6, 7, 12],
                vec![3, 4, 8, 9, 13, 14],
                vec![10, 11, 15, 16, 20, 21],
                vec![17, 18, 19, 22, 23, 24]
            ],
            vec![
                vec![1, 5, 6, 10, 11, 12],
                vec![15, 16, 17, 20, 21, 22],
                vec![2, 3, 4, 7, 8, 9],
                vec![13, 14, 18, 19, 23, 24]
            ],
        ]
    );
    // Every corner blank: two tables of six tiles serve both partitions
    // (the block that walls the blank in, and the three rectangles),
    // and each partition covers every tile once.
    for blank in [0, 4, 20, 24] {
        let specs = required_patterns(size, blank, HeuristicKind::Large);
        assert_eq!(specs.len(), 2, "blank {blank}");
        assert!(specs.iter().all(|spec| spec.cells().len() == 6));
        assert!(specs.iter().all(|spec| spec.entries() == 127_512_000));
        assert_every_tile_once(size, blank, HeuristicKind::Large);
    }
    // The small set is 5-5-5-5-4; other blanks cut six-tile columns.
    let small = partitions(size, 24, HeuristicKind::Small);
    assert_eq!(
        small[0].iter().map(Vec::len).collect::<Vec<_>>(),
        [5, 5, 5, 5, 4]
    );
    let center = partitions(size, 12, HeuristicKind::Large);
    assert!(center.iter().all(|part| part.iter().all(|g| g.len() == 6)));
}

#[test]
fn symmetries_preserve_adjacency() {
    for size in ["4x4", "3x5", "2x7"] {
        let size: Size = size.parse().unwrap();
        for sigma in symmetries(size) {
            for a in 0..size.cells() {
                for b in 0..size.cells() {
                    assert_eq!(
                        size.distance(a, b),
                        size.distance(sigma[a] as usize, sigma[b] as usize)
                    );
                }
            }
        }
    }
}
