//! The move-string parser, compact form (`R3U2`) included. Properties: a
//! parsed list prints (letter by letter, and compact) to text that parses
//! back to the same list; the compact text counts each run once, so its
//! runs are the multi-tile moves; applying the moves to a position either
//! succeeds or stops at the first illegal one, and undoing them returns.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slide::{Moves, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(moves) = text.parse::<Moves>() else {
        return;
    };
    let letters = moves.to_string();
    assert_eq!(letters.parse::<Moves>().as_ref(), Ok(&moves));
    let compact = moves.compact();
    assert_eq!(compact.parse::<Moves>().as_ref(), Ok(&moves), "{compact}");
    let runs = compact.chars().filter(char::is_ascii_alphabetic).count();
    assert_eq!(runs, moves.mtm_len());
    let start: Position = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0".parse().unwrap();
    let mut position = start.clone();
    let mut done = 0;
    for direction in moves.iter() {
        if position.apply(direction).is_err() {
            break;
        }
        done += 1;
    }
    let played: Vec<_> = moves.iter().take(done).collect();
    for &direction in played.iter().rev() {
        position.undo(direction).unwrap();
    }
    assert_eq!(position, start);
});
