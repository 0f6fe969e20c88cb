//! Pictures of boards: colour schemes, SVG drawings of sliding-puzzle
//! positions, their PNG rasters and GIF animations of solutions, shared by
//! the command line's `render` and (for the colours) the terminal game.
//!
//! Every picture is first an SVG document; PNG and GIF are that document
//! drawn by resvg, so there is one drawing of a board, not one per format.
//! No I/O here: the caller writes the result.

pub mod animation;
pub mod raster;
pub mod scheme;
pub mod svg;

pub use scheme::Scheme;
