//! Every size limit on input from outside, in one place, with the reason
//! for each. The engines have their own hard limits (`slide::MAX_SIDE`,
//! `shisen::MAX_WIDTH`, …); these are the tighter ones the front ends
//! enforce so that no request or line can make a process run out of time
//! or memory.

/// Sliding-puzzle sides the web game deals and solves: 3 to 10 cells
/// (smaller is no game; larger does not fit a page).
pub const WEB_SLIDE_SIDES: std::ops::RangeInclusive<usize> = 3..=10;

/// The largest last size of a relay (`relay-N` plays 3×3 up to N×N): the
/// largest board the page deals, so every relay can be played there. A
/// relay to 10×10 is eight puzzles, a few thousand moves for a strong
/// player, well inside what a submission may hold.
pub const RELAY_LAST_SIDE: usize = *WEB_SLIDE_SIDES.end();

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

/// The most turns (removals, shuffles, undos, redos) a Shisen-Sho
/// submission may hold; with their times they too fit [`REQUEST_BYTES`].
pub const SUBMITTED_TURNS: usize = 5_000;

/// The largest HTTP request body, in bytes.
pub const REQUEST_BYTES: usize = 256 * 1024;

/// The most single-tile moves a format's submission may hold over all its
/// puzzles: a marathon of 100 10×10 puzzles solved by the fast solver is
/// about 192 000 moves (seed 5, tests/it/formats.rs); twice that leaves room
/// for clumsier play while bounding the replay's work (each puzzle is
/// still held to [`SUBMITTED_MOVES`]).
pub const FORMAT_MOVES: usize = 400_000;

/// The bytes a submitted move takes at most in a well-formed submission:
/// its letter, its time (ten digits, 115 days in milliseconds) with a
/// comma, and the letter of its control.
pub const SUBMITTED_MOVE_BYTES: usize = 1 + 11 + 1;

/// The most puzzles a format deals (`marathon-100`).
pub const FORMAT_PUZZLES: usize = 100;

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
