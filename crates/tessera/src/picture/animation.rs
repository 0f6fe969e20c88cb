//! A solution played out as a looping GIF: the start, then one frame per
//! move, each with a move counter, and a pause on the solved board before
//! the loop begins again.

use gif::{Encoder, Frame, Repeat};
use slide::{Direction, Moves, Position};

use super::raster::{self, RasterError};
use super::svg::{self, Style};

/// The most frames one animation may have: a 10 × 10 board's fast
/// solution has about 2,000 moves; beyond that a GIF stops being watched.
pub const MAX_FRAMES: usize = 10_000;

/// The most pixels drawn over all frames (about 2 minutes of work).
pub const MAX_TOTAL_PIXELS: u64 = 1 << 30;

/// Why an animation could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AnimationError {
    #[error("move {index} ({direction}) is not possible: no tile can move that way")]
    Illegal { index: usize, direction: Direction },
    #[error(
        "{frames} frames of {width}×{height} pixels are too many to draw (at most {MAX_FRAMES} \
         frames and {MAX_TOTAL_PIXELS} pixels in all); animate a shorter solution or a smaller board"
    )]
    TooLarge {
        frames: usize,
        width: u32,
        height: u32,
    },
    #[error(transparent)]
    Raster(#[from] RasterError),
    #[error("cannot encode the GIF: {0}")]
    Encode(#[from] gif::EncodingError),
}

/// How long each frame shows, in hundredths of a second (GIF's unit).
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub per_move: u16,
    /// The solved (last) frame, before the loop starts again.
    pub hold: u16,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            per_move: 25,
            hold: 200,
        }
    }
}

/// The GIF of `moves` played from `start`, coloured by `goal`.
/// `progress` hears the number of frames done after each one.
pub fn solution_gif(
    start: &Position,
    goal: &Position,
    moves: &Moves,
    style: &Style,
    timing: Timing,
    mut progress: impl FnMut(usize),
) -> Result<Vec<u8>, AnimationError> {
    let frames = moves.0.len() + 1;
    let frame = |i: usize, position: &Position| {
        let caption = match i {
            0 => format!("0 / {}", moves.0.len()),
            i => format!("{i} / {}  {}", moves.0.len(), moves.0[i - 1]),
        };
        let style = Style {
            caption: Some(caption),
            ..style.clone()
        };
        svg::position(position, goal, &style)
    };
    let first = raster::tree(&frame(0, start))?;
    let size = first.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    let too_large = AnimationError::TooLarge {
        frames,
        width,
        height,
    };
    let total = frames as u64 * u64::from(width) * u64::from(height);
    let (Ok(w16), Ok(h16)) = (u16::try_from(width), u16::try_from(height)) else {
        return Err(too_large);
    };
    if frames > MAX_FRAMES || total > MAX_TOTAL_PIXELS {
        return Err(too_large);
    }
    let positions = played(start, moves)?;
    let mut out = Vec::new();
    {
        let mut encoder = Encoder::new(&mut out, w16, h16, &[])?;
        encoder.set_repeat(Repeat::Infinite)?;
        for (i, position) in positions.iter().enumerate() {
            let tree = if i == 0 {
                first.clone()
            } else {
                raster::tree(&frame(i, position))?
            };
            let mut pixels = raster::draw(&tree)?.take();
            // Speed 10 of NeuQuant's 1-30: the frames have few colours
            // besides the anti-aliased edges, so quality costs little.
            let mut gif_frame = Frame::from_rgba_speed(w16, h16, &mut pixels, 10);
            gif_frame.delay = if i + 1 == positions.len() {
                timing.hold
            } else {
                timing.per_move
            };
            encoder.write_frame(&gif_frame)?;
            progress(i + 1);
        }
    }
    Ok(out)
}

/// `start` and every position the moves pass through.
fn played(start: &Position, moves: &Moves) -> Result<Vec<Position>, AnimationError> {
    let mut positions = Vec::with_capacity(moves.0.len() + 1);
    positions.push(start.clone());
    let mut position = start.clone();
    for (index, &direction) in moves.0.iter().enumerate() {
        position
            .apply(direction)
            .map_err(|_| AnimationError::Illegal { index, direction })?;
        positions.push(position.clone());
    }
    Ok(positions)
}
