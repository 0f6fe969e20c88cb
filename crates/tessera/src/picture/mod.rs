//! Pictures of boards: colour schemes and SVG drawings of sliding-puzzle
//! positions, shared by the command line's `render` and (for the colours)
//! the terminal game.
//!
//! Drawing is text generation, no I/O: the caller writes the result.

pub mod scheme;
pub mod svg;

pub use scheme::Scheme;
