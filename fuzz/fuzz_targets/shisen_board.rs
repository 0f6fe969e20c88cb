//! The Shisen-Sho board parser. Properties: a parsed board prints to text
//! that parses back to the same board; its move list equals the test
//! suite's brute-force reference (`crates/shisen/tests/reference`), every
//! pair of matching tiles it connects and no other; and the text read as a
//! stream and counted straight from the text (`Boards::next_count`, the
//! batch path) gives, board after board, what building each board and
//! counting its moves gives, errors included.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shisen::{parse_board, parse_boards, Board, Matching};

#[path = "../../crates/shisen/tests/reference/mod.rs"]
#[allow(dead_code)]
mod reference;

fuzz_target!(|data: &[u8]| {
    let Some((&flag, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let matching = Matching::from_chinese(flag & 1 == 1);
    let mut built = parse_boards(text, matching);
    let mut counted = parse_boards(text, matching);
    while let Some(board) = built.next_ref() {
        let expected = board.map(Board::count_moves);
        assert_eq!(counted.next_count(), Some(expected), "{text:?}");
    }
    assert_eq!(counted.next_count(), None, "{text:?}");
    let Ok(board) = parse_board(text, matching) else {
        return;
    };
    let printed = board.to_string();
    let again = parse_board(&printed, matching).expect("a printed board parses");
    assert!(again == board, "{printed}");
    // The reference is quadratic in tiles; big boards are the parser's
    // business, covered by the round trip above.
    if board.tiles_left() <= 200 {
        assert_eq!(board.moves(), reference::moves(&board), "\n{printed}");
    }
});
