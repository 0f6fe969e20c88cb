//! Every size limit on input from outside, in one place, with the reason
//! for each. The engines have their own hard limits (`slide::MAX_SIDE`,
//! `shisen::MAX_WIDTH`, …); these are the tighter ones the front ends
//! enforce so that no request or line can make a process run out of time
//! or memory.

/// Sliding-puzzle sides the web game deals, plays, hints, solves and
/// judges: 2 to 32 cells, any rectangle of them (10x3, 20x2, 32x8). 2×2 is
/// the smallest board on which a tile moves at all; 32×32 is the largest
/// whose tiles a window still shows (zoomed in, panned), and its solve,
/// tens of thousands of moves, still fits a submission
/// ([`submitted_moves`]).
pub const WEB_SLIDE_SIDES: std::ops::RangeInclusive<usize> = 2..=32;

/// The sides a race is played on: 3 to 10. A race's moves travel one by
/// one over a socket and are checked as they arrive, within
/// [`SUBMITTED_MOVES`]; the long solves of larger boards are not raced.
pub const RACE_SLIDE_SIDES: std::ops::RangeInclusive<usize> = 3..=10;

/// The largest last size of a `relay-N` (3×3 up to N×N), and the largest
/// side of a board a marathon or a relay down (`height-relay`, …) starts
/// at: 10×10. A relay to 10×10 is eight puzzles, a few thousand moves for
/// a strong player; an everything-up-to relay from 10×10 is 81 puzzles,
/// 103 440 moves allowed ([`format_moves`]), within [`FORMAT_MOVES`];
/// larger boards are played as single solves, where a person's long
/// solve has room of its own ([`submitted_moves`]).
pub const RELAY_LAST_SIDE: usize = 10;

/// The largest sliding-puzzle side the terminal game plays: bigger boards
/// cannot be drawn on any terminal, and their solutions run to millions
/// of moves.
pub const TERMINAL_SLIDE_SIDE: usize = 100;

/// The widest Shisen-Sho board the web game deals or reads.
pub const WEB_SHISEN_WIDTH: usize = 40;
/// The tallest Shisen-Sho board the web game deals or reads.
pub const WEB_SHISEN_HEIGHT: usize = 24;

/// The longest sliding-puzzle move list a submission may hold: a 10×10
/// needs a few hundred moves; this leaves room for clumsy play while
/// bounding the replay's work, and the moves with their times (about 8
/// bytes each) stay well inside [`REQUEST_BYTES`].
pub const SUBMITTED_MOVES: usize = 20_000;

/// The longest move list a submission of one w × h puzzle may hold. The
/// fast solver needs about 2·w·h·max(w, h) single-tile moves (some 1 900
/// on a 10×10, 65 000 on a 32×32) and a person solving by rows and columns
/// needs more: three times that leaves room for clumsy play, and boards up
/// to 10×10 keep [`SUBMITTED_MOVES`]. The replay of even the longest is a
/// few milliseconds.
pub fn submitted_moves(size: slide::Size) -> usize {
    let (w, h) = (size.width(), size.height());
    SUBMITTED_MOVES.max(6 * w * h * w.max(h))
}

/// The longest move list any submission of one puzzle may hold: a 32×32's
/// ([`submitted_moves`]), read before the game, and so its size, is known.
pub const MOST_SUBMITTED_MOVES: usize = 6 * 32 * 32 * 32;

/// The most turns (removals, shuffles, undos, redos) a Shisen-Sho
/// submission may hold; with their times they too fit [`REQUEST_BYTES`].
pub const SUBMITTED_TURNS: usize = 5_000;

/// The largest HTTP request body, in bytes.
pub const REQUEST_BYTES: usize = 256 * 1024;

/// The most single-tile moves a format's submission may hold over all its
/// puzzles: a marathon of 1,000 4×4 puzzles is allowed 320 000
/// ([`format_moves`]) and one of 100 10×10 puzzles 406 400; this bound
/// admits a marathon of 1,000 6×6 puzzles (928 000) while bounding the
/// replay's work (well under a second) and the request body
/// ([`SUBMIT_BYTES`], some 13 MB). A longer format is refused when dealt,
/// so that no one plays a format whose submission would be refused.
pub const FORMAT_MOVES: usize = 1_000_000;

/// The moves one puzzle of `size` may take within a format: twice the
/// fast solver's 2·w·h·max(w, h) single-tile moves (a person's solve is
/// longer than the solver's, rarely twice as long over many puzzles),
/// and 64 more for the fumbles of small boards, where a few wasted moves
/// are most of a solve.
pub fn format_puzzle_moves(size: slide::Size) -> usize {
    let (w, h) = (size.width(), size.height());
    4 * w * h * w.max(h) + 64
}

/// The moves a format dealing puzzles of `sizes` may take over all of
/// them: the sum of each puzzle's [`format_puzzle_moves`]. A submission
/// holding more is refused, and a format allowed more than
/// [`FORMAT_MOVES`] is not dealt.
pub fn format_moves(sizes: &[slide::Size]) -> usize {
    sizes.iter().map(|&size| format_puzzle_moves(size)).sum()
}

/// The bytes a submitted move takes at most in a well-formed submission:
/// its letter, its time (ten digits, 115 days in milliseconds) with a
/// comma, and the letter of its control.
pub const SUBMITTED_MOVE_BYTES: usize = 1 + 11 + 1;

/// The most puzzles a format deals (`marathon-1000`; the longest relay,
/// everything up to 10×10, is 81).
pub const FORMAT_PUZZLES: usize = 1000;

/// The largest body of a sliding-puzzle submission, in bytes: a format at
/// its worst case ([`FORMAT_MOVES`] moves over [`FORMAT_PUZZLES`]
/// puzzles, with 256 bytes a puzzle for its field names and the game's
/// id). Only the submission route takes more than [`REQUEST_BYTES`].
pub const SUBMIT_BYTES: usize = FORMAT_MOVES * SUBMITTED_MOVE_BYTES + FORMAT_PUZZLES * 256;

/// The longest display name, in characters.
pub const NAME_CHARS: usize = 24;

/// The longest line read from standard input, in bytes: a 2048 × 2048
/// position (the engine's largest) written out is about 30 MB, so 64 MiB
/// reads every valid line and stops a runaway one long before memory does.
pub const STDIN_LINE_BYTES: usize = 64 << 20;

/// The most single-tile moves a move text may expand to, counts included
/// (`R3` is three): the engine's own limit, named here with the others. A
/// few kilobytes of large counts would otherwise ask for gigabytes.
pub const MOVES_TEXT: usize = slide::MAX_MOVES;

// A single game's longest submission fits the ordinary limit, and the
// format limit is above it.
const _: () = assert!(SUBMITTED_MOVES * SUBMITTED_MOVE_BYTES < REQUEST_BYTES);
const _: () = assert!(SUBMIT_BYTES > REQUEST_BYTES);
// The longest single puzzle, a 32×32's, fits the submission route's limit.
const _: () = assert!(MOST_SUBMITTED_MOVES * SUBMITTED_MOVE_BYTES < SUBMIT_BYTES);
const _: () = assert!(*WEB_SLIDE_SIDES.end() == 32);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_submission_holds_a_long_solve_of_its_size() {
        let size = |w, h| slide::Size::new(w, h).unwrap();
        assert_eq!(submitted_moves(size(2, 2)), SUBMITTED_MOVES);
        assert_eq!(submitted_moves(size(10, 10)), SUBMITTED_MOVES);
        assert_eq!(submitted_moves(size(32, 32)), MOST_SUBMITTED_MOVES);
        // Three times the fast solver's 65 000 moves on a 32×32.
        const { assert!(MOST_SUBMITTED_MOVES > 3 * 65_000) };
        assert!(submitted_moves(size(32, 8)) > submitted_moves(size(16, 16)));
    }

    #[test]
    fn the_longest_formats_fit_one_submission() {
        let size = |w, h| slide::Size::new(w, h).unwrap();
        // The numbers the limits' comments give.
        assert_eq!(format_moves(&[size(4, 4); 1000]), 320_000);
        assert_eq!(format_moves(&[size(10, 10); 100]), 406_400);
        assert_eq!(format_moves(&[size(6, 6); 1000]), 928_000);
        let everything: Vec<_> = (2..=10)
            .flat_map(|h| (2..=10).map(move |w| size(w, h)))
            .collect();
        assert_eq!(everything.len(), 81);
        let moves = format_moves(&everything);
        assert_eq!(moves, 103_440);
        assert!(moves < FORMAT_MOVES);
        assert!(format_moves(&[size(6, 6); 1000]) < FORMAT_MOVES);
        assert!(format_moves(&[size(7, 7); 1000]) > FORMAT_MOVES);
        const { assert!(SUBMIT_BYTES < 14_000_000) };
    }
}
