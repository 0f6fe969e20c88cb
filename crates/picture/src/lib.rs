//! Pictures of boards: colour schemes, SVG drawings of sliding-puzzle
//! positions and Shisen-Sho boards, their PNG rasters and GIF animations of
//! solutions, shared by the command line's `render`, the web page (the
//! Shisen-Sho faces) and the terminal game (the colours).
//!
//! Every picture is first an SVG document; PNG and GIF are that document
//! drawn by resvg, so there is one drawing of a board, not one per format.
//! No I/O here: the caller writes the result.

pub mod animation;
pub mod art;
pub mod faces;
pub mod grids;
pub mod image;
pub mod raster;
pub mod scheme;
pub mod shisen_board;
pub mod svg;

pub use scheme::Scheme;
