//! The sliding-puzzle position parser, with a `--size` and a goal.
//!
//! Input: `SIZE\nGOAL\nPOSITION` (any part may be junk). Properties:
//! - a parsed position prints to text that parses back to the same value,
//!   with and without the size;
//! - a parsed goal prints to text that parses back to the same goal, and
//!   its position for the size has the size;
//! - solvability against the goal is decided without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slide::{Goal, Position, Size};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = text.splitn(3, '\n');
    let (size, goal, position) = match (parts.next(), parts.next(), parts.next()) {
        (Some(s), Some(g), Some(p)) => (s, g, p),
        _ => ("", "", text),
    };
    let size: Option<Size> = size.parse().ok();
    let Ok(start) = Position::parse(position, size) else {
        return;
    };
    let printed = start.to_string();
    assert_eq!(Position::parse(&printed, None).as_ref(), Ok(&start), "{printed}");
    assert_eq!(
        Position::parse(&printed, Some(start.size())).as_ref(),
        Ok(&start)
    );
    let Ok(goal) = goal.parse::<Goal>() else {
        return;
    };
    let shown = goal.to_string();
    assert_eq!(shown.parse::<Goal>().as_ref(), Ok(&goal), "{shown}");
    if let Ok(target) = goal.position(start.size()) {
        assert_eq!(target.size(), start.size());
        let _ = start.is_solvable(&target);
    }
});
