//! The Shisen-Sho board parser. Properties: a parsed board prints to text
//! that parses back to the same board; its move list equals the test
//! suite's brute-force reference (`crates/shisen/tests/reference`), every
//! pair of matching tiles it connects and no other.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shisen::{parse_board, Matching};

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
