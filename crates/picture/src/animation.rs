//! A solution played out as a looping GIF: the start, then one frame per
//! move, each with a move counter, and a pause on the solved board before
//! the loop begins again.

use std::collections::{HashMap, HashSet};

use color_quant::NeuQuant;
use gif::{DisposalMethod, Encoder, Frame, Repeat};
use resvg::tiny_skia::Pixmap;
use slide::{Direction, Moves, Position};

use super::raster::{self, RasterError};
use super::svg::{self, Layout, Rect, Style};

/// The most frames one animation may have: a 10 × 10 board's fast
/// solution has about 2,000 moves; beyond that a GIF stops being watched.
pub const MAX_FRAMES: usize = 10_000;

/// The most pixels drawn over all frames (about 2 minutes of work).
pub const MAX_TOTAL_PIXELS: u64 = 1 << 30;

/// Why an animation could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AnimationError {
    /// A move of the solution that no tile can make.
    #[error("move {index} ({direction}) is not possible: no tile can move that way")]
    Illegal {
        /// Its place in the solution, from 0.
        index: usize,
        /// The way it asked a tile to move.
        direction: Direction,
    },
    #[error(
        "{frames} frames of {width}×{height} pixels are too many to draw (at most {MAX_FRAMES} \
         frames and {MAX_TOTAL_PIXELS} pixels in all); animate a shorter solution or a smaller board"
    )]
    /// More frames or pixels than an animation may hold.
    TooLarge {
        /// The frames the solution would take.
        frames: usize,
        /// A frame's width in pixels.
        width: u32,
        /// A frame's height in pixels.
        height: u32,
    },
    /// A frame could not be drawn.
    #[error(transparent)]
    Raster(#[from] RasterError),
    /// The GIF encoder refused the frames.
    #[error("cannot encode the GIF: {0}")]
    Encode(#[from] gif::EncodingError),
}

/// How long each frame shows, in hundredths of a second (GIF's unit).
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Each move's frame.
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
///
/// The first frame is the whole picture. After it, a frame redraws only
/// what a move changed (the two cells and the counter) over the frame
/// before, and leaves everything else transparent; all frames share one
/// palette. A 10 × 10 solution of 2,000 moves is then a few seconds and
/// a few megabytes, not minutes and a hundred.
pub fn solution_gif(
    start: &Position,
    goal: &Position,
    moves: &Moves,
    style: &Style,
    timing: Timing,
    mut progress: impl FnMut(usize),
) -> Result<Vec<u8>, AnimationError> {
    let frames = moves.0.len() + 1;
    let caption = |i: usize| match i {
        0 => format!("0 / {}", moves.0.len()),
        i => format!("{i} / {}  {}", moves.0.len(), moves.0[i - 1]),
    };
    let style = Style {
        caption: Some(caption(0)),
        ..style.clone()
    };
    let layout = Layout::new(start, &style);
    let (width, height) = (layout.width as u32, layout.height as u32);
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
    check(start, moves)?;
    let whole = raster::pixmap(&svg::position(start, goal, &style))?;
    let mut canvas = Canvas::new(&whole, layout.width);
    let mut out = Vec::new();
    {
        let mut encoder = Encoder::new(&mut out, w16, h16, &canvas.palette.rgb)?;
        encoder.set_repeat(Repeat::Infinite)?;
        let delay = |i: usize| {
            if i + 1 == frames {
                timing.hold
            } else {
                timing.per_move
            }
        };
        let mut first = Frame::from_indexed_pixels(w16, h16, canvas.indices.clone(), None);
        first.delay = delay(0);
        encoder.write_frame(&first)?;
        progress(1);
        let mut position = start.clone();
        for (i, &direction) in moves.0.iter().enumerate() {
            let blank = position.blank();
            position.apply(direction).expect("checked above");
            let style = Style {
                caption: Some(caption(i + 1)),
                ..style.clone()
            };
            let cells = layout
                .cell_of(blank, position.size().width())
                .union(&layout.cell_of(position.blank(), position.size().width()));
            let band = layout.caption();
            for rect in [cells, band] {
                let part = raster::pixmap(&svg::view(&position, goal, &style, &layout, rect))?;
                canvas.paint(&part, rect);
            }
            let mut frame = canvas.frame(&[cells, band]);
            frame.delay = delay(i + 1);
            encoder.write_frame(&frame)?;
            progress(i + 2);
        }
    }
    Ok(out)
}

/// Checks that every move can be played from `start`.
fn check(start: &Position, moves: &Moves) -> Result<(), AnimationError> {
    let mut position = start.clone();
    for (index, &direction) in moves.0.iter().enumerate() {
        position
            .apply(direction)
            .map_err(|_| AnimationError::Illegal { index, direction })?;
    }
    Ok(())
}

/// The colours of an animation, at most 255 of them: index 255 is left
/// for "transparent" (unchanged since the frame before).
struct Palette {
    /// 256 colours, 3 bytes each.
    rgb: Vec<u8>,
    /// The index of every colour seen so far.
    known: HashMap<[u8; 3], u8>,
}

/// The index that stands for "as in the frame before".
const UNCHANGED: u8 = 255;

impl Palette {
    /// The colours of `pixmap`, the animation's first frame: all of them
    /// when there are at most 255, else 255 chosen by NeuQuant. Later
    /// frames move the same tiles about, so they bring few new colours
    /// (anti-aliased digits of the counter), each mapped to the nearest.
    fn of(pixmap: &Pixmap) -> Palette {
        let mut distinct: Vec<[u8; 3]> = Vec::new();
        let mut seen = HashSet::new();
        for p in pixmap.pixels() {
            let c = [p.red(), p.green(), p.blue()];
            if seen.insert(c) {
                distinct.push(c);
            }
        }
        let mut rgb: Vec<u8> = if distinct.len() <= 255 {
            distinct.concat()
        } else {
            NeuQuant::new(10, 255, pixmap.data()).color_map_rgb()
        };
        rgb.resize(256 * 3, 0);
        Palette {
            rgb,
            known: HashMap::new(),
        }
    }

    fn index(&mut self, c: [u8; 3]) -> u8 {
        if let Some(&i) = self.known.get(&c) {
            return i;
        }
        let distance = |i: &usize| -> u32 {
            (0..3)
                .map(|k| u32::from(self.rgb[i * 3 + k].abs_diff(c[k])).pow(2))
                .sum()
        };
        let nearest = (0..255).min_by_key(distance).unwrap_or(0) as u8;
        self.known.insert(c, nearest);
        nearest
    }
}

/// The picture as palette indices, kept up to date move by move.
struct Canvas {
    width: usize,
    indices: Vec<u8>,
    palette: Palette,
}

impl Canvas {
    fn new(whole: &Pixmap, width: usize) -> Canvas {
        let mut palette = Palette::of(whole);
        let indices = whole
            .pixels()
            .iter()
            .map(|p| palette.index([p.red(), p.green(), p.blue()]))
            .collect();
        Canvas {
            width,
            indices,
            palette,
        }
    }

    /// Copies `part`, the drawing of `rect`, into the picture.
    fn paint(&mut self, part: &Pixmap, rect: Rect) {
        let pixels = part.pixels();
        for row in 0..rect.height {
            for col in 0..rect.width {
                let p = pixels[row * rect.width + col];
                let at = (rect.y + row) * self.width + rect.x + col;
                self.indices[at] = self.palette.index([p.red(), p.green(), p.blue()]);
            }
        }
    }

    /// A frame over the smallest rectangle holding `changed`, showing the
    /// picture inside those rectangles and "unchanged" elsewhere.
    fn frame(&self, changed: &[Rect]) -> Frame<'static> {
        let bounds = changed[1..].iter().fold(changed[0], |a, b| a.union(b));
        let mut buffer = vec![UNCHANGED; bounds.width * bounds.height];
        for rect in changed {
            for row in rect.y..rect.y + rect.height {
                let from = row * self.width + rect.x;
                let to = (row - bounds.y) * bounds.width + rect.x - bounds.x;
                buffer[to..to + rect.width].copy_from_slice(&self.indices[from..from + rect.width]);
            }
        }
        Frame {
            left: bounds.x as u16,
            top: bounds.y as u16,
            width: bounds.width as u16,
            height: bounds.height as u16,
            transparent: Some(UNCHANGED),
            dispose: DisposalMethod::Keep,
            buffer: buffer.into(),
            ..Frame::default()
        }
    }
}
