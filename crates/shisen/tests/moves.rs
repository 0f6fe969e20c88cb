//! Move lists against the brute-force reference: every pair of matching
//! tiles that the reference connects, and no other.

mod reference;

use proptest::prelude::*;
use shisen::{Board, Deal, Kind, Matching, Move, Point, Size, TileSet};

/// A board of `size` with `kinds` kinds, the cells kept with probability
/// `keep` per mille, each class's count made even.
fn sparse_board(seed: u64, size: Size, kinds: u64, keep: u64, matching: Matching) -> Board {
    let mut rng = shisen::Rng::new(seed);
    let mut cells: Vec<Option<Kind>> = (0..size.cells())
        .map(|_| (rng.below(1000) < keep).then(|| Kind::nth(rng.below(kinds) as usize).unwrap()))
        .collect();
    // Drop the last tile of every odd class.
    let mut counts = std::collections::HashMap::new();
    for k in cells.iter().flatten() {
        *counts.entry(matching.class(*k)).or_insert(0usize) += 1;
    }
    for cell in cells.iter_mut().rev() {
        if let Some(k) = *cell {
            let n = counts.get_mut(&matching.class(k)).unwrap();
            if *n % 2 == 1 {
                *n -= 1;
                *cell = None;
            }
        }
    }
    Board::new(size, matching, cells).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn moves_match_reference(
        seed in any::<u64>(),
        w in 1usize..=20,
        h in 1usize..=10,
        kinds in 1u64..=44,
        keep in 0u64..=1000,
        chinese in any::<bool>(),
    ) {
        let matching = if chinese { Matching::Chinese } else { Matching::Standard };
        let board = sparse_board(seed, Size::new(w, h).unwrap(), kinds, keep, matching);
        let moves = board.moves();
        prop_assert_eq!(&moves, &reference::moves(&board));
        prop_assert_eq!(board.count_moves(), moves.len());
        prop_assert_eq!(board.has_moves(), !moves.is_empty());
        for m in moves {
            prop_assert!(board.is_move(m.a, m.b));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Lines too long for a `u64` with their ring take the `u128` paths.
    #[test]
    fn wide_board_moves_match_reference(
        seed in any::<u64>(),
        w in 60usize..=64,
        h in 1usize..=6,
        keep in 0u64..=1000,
        tall in any::<bool>(),
    ) {
        let size = if tall { Size::new(h, w) } else { Size::new(w, h) }.unwrap();
        let board = sparse_board(seed, size, 30, keep, Matching::Standard);
        let moves = board.moves();
        prop_assert_eq!(&moves, &reference::moves(&board));
        prop_assert_eq!(board.count_moves(), moves.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// A stream counted straight from its text (`Boards::next_count`)
    /// gives every board's count by the reference: boards of every size
    /// up to the widest, few or many kinds (classes past the counter's
    /// room), with `\r\n` line ends or not.
    #[test]
    fn counted_streams_match_reference(
        seeds in proptest::collection::vec(any::<u64>(), 1..6),
        w in 1usize..=64,
        h in 1usize..=12,
        kinds in 1u64..=61,
        keep in 0u64..=1000,
        chinese in any::<bool>(),
        crlf in any::<bool>(),
    ) {
        let matching = if chinese { Matching::Chinese } else { Matching::Standard };
        let boards: Vec<Board> = seeds
            .iter()
            .map(|&seed| sparse_board(seed, Size::new(w, h).unwrap(), kinds, keep, matching))
            .collect();
        let mut text = boards.iter().map(Board::to_string).collect::<Vec<_>>().join("\n");
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let mut stream = shisen::parse_boards(&text, matching);
        for board in &boards {
            let counted = stream.next_count().expect("a board").expect("a valid board");
            prop_assert_eq!(counted, reference::moves(board).len());
        }
        prop_assert!(stream.next_count().is_none());
    }
}

/// Kinds beyond ASCII are numbered by a search instead of the byte table;
/// both kinds of class must be told apart and counted.
#[test]
fn non_ascii_kinds_mix_with_ascii_ones() {
    let board = shisen::parse_board("é.aé\n.a..\nΩbbΩ\n", Matching::Standard).unwrap();
    assert_eq!(board.moves(), reference::moves(&board));
    assert_eq!(board.count_moves(), 4);
    let odd = shisen::parse_board("é.aé\n.a..\nΩbb.\n", Matching::Standard);
    assert!(odd.is_err());
}

#[test]
fn full_deals_only_have_neighbour_and_edge_moves() {
    for seed in 0..50 {
        let board = Deal::random(seed, Size::DEFAULT, TileSet::Standard).unwrap();
        assert_eq!(board.moves(), reference::moves(&board));
    }
}

#[test]
fn chinese_flowers_pair_across_kinds() {
    let board = shisen::parse_board("s.v\nw.z\n", Matching::Chinese).unwrap();
    assert_eq!(
        board.moves(),
        vec![
            Move::new(Point::new(0, 0), Point::new(2, 0)),
            Move::new(Point::new(0, 1), Point::new(2, 1))
        ]
    );
    assert!(!board.is_move(Point::new(0, 0), Point::new(0, 1)));
}
