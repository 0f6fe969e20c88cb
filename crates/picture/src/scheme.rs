//! Colour schemes for sliding-puzzle tiles, the way speedsolvers colour
//! their boards: every tile is coloured by its goal cell, so a scheme shows
//! at a glance where each tile belongs and in which order it gets solved.
//!
//! The palettes are chosen for colour-blind players: the seven colours of
//! Okabe and Ito for the schemes with layers, and viridis for the
//! gradient. Text is black or white, whichever contrasts more; a test
//! checks every fill reaches WCAG's 4.5:1.

use std::fmt;
use std::str::FromStr;

use common::Dimensions;
use slide::Position;

use crate::grids::{Layers, LayersError};

/// How tiles are coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scheme {
    /// One colour for every tile: numbers only.
    #[default]
    Plain,
    /// By the layer in which the usual reduction solves the tile: the long
    /// side's extra rows or columns one at a time, then L-shaped fringes.
    Fringe,
    /// By the goal row.
    Rows,
    /// By the goal column.
    Columns,
    /// A gradient over the goal cells, from the corner solved first.
    Gradient,
    /// Grids ([`crate::grids`]): each tile by its innermost block, blocks
    /// that touch in different colours, and inside a block its fringes in
    /// turn in the block's colour and a paler shade of it. `None` takes
    /// the board's default layers; a board too small for any is coloured
    /// as [`Scheme::Fringe`].
    Grids(Option<Layers>),
}

/// A scheme's text that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SchemeError {
    /// No scheme has this name (the message lists the names).
    #[error("unknown colour scheme {0:?}: use plain, fringe, rows, columns, gradient, grids or grids:WxH,WxH,...")]
    Unknown(String),
    /// Grids with layers that are not layers.
    #[error("{0}")]
    Layers(#[from] LayersError),
}

impl FromStr for Scheme {
    type Err = SchemeError;

    /// A name, or `grids:` followed by layers (`grids:20x10,10x10`).
    fn from_str(s: &str) -> Result<Scheme, SchemeError> {
        let text = s.trim().to_ascii_lowercase();
        if let Some(layers) = text.strip_prefix("grids:") {
            return Ok(Scheme::Grids(Some(layers.parse()?)));
        }
        match text.as_str() {
            "plain" => Ok(Scheme::Plain),
            "fringe" => Ok(Scheme::Fringe),
            "rows" => Ok(Scheme::Rows),
            "columns" => Ok(Scheme::Columns),
            "gradient" => Ok(Scheme::Gradient),
            "grids" => Ok(Scheme::Grids(None)),
            _ => Err(SchemeError::Unknown(s.to_string())),
        }
    }
}

impl fmt::Display for Scheme {
    /// The text [`Scheme::from_str`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scheme::Plain => f.write_str("plain"),
            Scheme::Fringe => f.write_str("fringe"),
            Scheme::Rows => f.write_str("rows"),
            Scheme::Columns => f.write_str("columns"),
            Scheme::Gradient => f.write_str("gradient"),
            Scheme::Grids(None) => f.write_str("grids"),
            Scheme::Grids(Some(layers)) => write!(f, "grids:{layers}"),
        }
    }
}

/// A colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl fmt::Display for Rgb {
    /// `#rrggbb`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

impl Rgb {
    /// WCAG relative luminance.
    pub fn luminance(self) -> f64 {
        let channel = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(self.0) + 0.7152 * channel(self.1) + 0.0722 * channel(self.2)
    }

    /// WCAG contrast ratio between two colours (1 to 21).
    pub fn contrast(self, other: Rgb) -> f64 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    /// Black or white, whichever is easier to read on this colour.
    pub fn text(self) -> Rgb {
        let (black, white) = (Rgb(0, 0, 0), Rgb(255, 255, 255));
        if self.contrast(black) >= self.contrast(white) {
            black
        } else {
            white
        }
    }
}

/// Okabe and Ito's colour-blind-safe palette, without its black.
const LAYERS: [Rgb; 7] = [
    Rgb(0xe6, 0x9f, 0x00), // orange
    Rgb(0x56, 0xb4, 0xe9), // sky blue
    Rgb(0x00, 0x9e, 0x73), // bluish green
    Rgb(0xf0, 0xe4, 0x42), // yellow
    Rgb(0x00, 0x72, 0xb2), // blue
    Rgb(0xd5, 0x5e, 0x00), // vermillion
    Rgb(0xcc, 0x79, 0xa7), // reddish purple
];

/// Stops of viridis, dark to light.
const VIRIDIS: [Rgb; 5] = [
    Rgb(0x44, 0x01, 0x54),
    Rgb(0x3b, 0x52, 0x8b),
    Rgb(0x21, 0x91, 0x8c),
    Rgb(0x5e, 0xc9, 0x62),
    Rgb(0xfd, 0xe7, 0x25),
];

/// The tile colour of the plain scheme.
const PLAIN: Rgb = Rgb(0xf3, 0xe9, 0xd2);

/// Where a board's goal puts its cells: its size and the goal's blank, from
/// which the schemes measure (the reduction starts in the far corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The goal's blank cell, (x, y).
    pub blank: (usize, usize),
}

impl Frame {
    /// A cell's coordinates counted from the corner opposite the blank.
    fn far_corner_coords(&self, (x, y): (usize, usize)) -> (usize, usize) {
        let flip = |v: usize, len: usize, blank: usize| {
            if blank * 2 >= len {
                v
            } else {
                len - 1 - v
            }
        };
        (
            flip(x, self.width, self.blank.0),
            flip(y, self.height, self.blank.1),
        )
    }

    /// The layer of the usual reduction that solves the tile of goal cell
    /// `cell`: on a w × h board with w > h the first w − h columns one at
    /// a time (rows likewise when h > w), then on the square left the L
    /// of row and column k together.
    pub fn fringe(&self, cell: (usize, usize)) -> usize {
        let (x, y) = self.far_corner_coords(cell);
        let (w, h) = (self.width, self.height);
        if w > h {
            let extra = w - h;
            if x < extra {
                x
            } else {
                extra + (x - extra).min(y)
            }
        } else {
            let extra = h - w;
            if y < extra {
                y
            } else {
                extra + (y - extra).min(x)
            }
        }
    }
}

impl Scheme {
    /// The fill of the tile whose goal cell is `cell` in `frame`.
    pub fn fill(&self, frame: &Frame, cell: (usize, usize)) -> Rgb {
        let layer = |i: usize| LAYERS[i % LAYERS.len()];
        match self {
            Scheme::Plain => PLAIN,
            Scheme::Fringe => layer(frame.fringe(cell)),
            Scheme::Rows => layer(cell.1),
            Scheme::Columns => layer(cell.0),
            Scheme::Gradient => {
                let (x, y) = frame.far_corner_coords(cell);
                let span = (frame.width + frame.height).saturating_sub(2).max(1);
                gradient((x + y) as f64 / span as f64)
            }
            Scheme::Grids(Some(layers)) => frame.grids_fill(layers, cell),
            Scheme::Grids(None) => self.for_board(frame).fill(frame, cell),
        }
    }

    /// The scheme as drawn on `frame`'s board: default grid layers made
    /// explicit (or fringes, when the board is too small for any).
    pub fn for_board(&self, frame: &Frame) -> Scheme {
        match self {
            Scheme::Grids(None) => match Layers::for_size(frame.width, frame.height) {
                Some(layers) => Scheme::Grids(Some(layers)),
                None => Scheme::Fringe,
            },
            other => *other,
        }
    }
}

impl Frame {
    /// A cell's fill under grid layers: the colour of its innermost block,
    /// paler on every other fringe of that block.
    fn grids_fill(&self, layers: &Layers, cell: (usize, usize)) -> Rgb {
        let (x, y) = self.far_corner_coords(cell);
        let board = Dimensions {
            width: self.width,
            height: self.height,
        };
        let block = layers.innermost(board, (x, y));
        let ((bx, by), (left, top, width, height)) = (block.index, block.rect);
        // Across a row of blocks the colour steps by 1, down a column by 3,
        // diagonally by 2 or 4: never a multiple of 7, so blocks that touch
        // (at a side or a corner) differ.
        let colour = LAYERS[(bx + 3 * by) % LAYERS.len()];
        // The block is solved from its own far corner, like a board.
        let inside = Frame {
            width,
            height,
            blank: (width - 1, height - 1),
        };
        if inside.fringe((x - left, y - top)).is_multiple_of(2) {
            colour
        } else {
            colour.paler()
        }
    }
}

impl Rgb {
    /// Two fifths of the way to white.
    fn paler(self) -> Rgb {
        let mix = |c: u8| (f64::from(c) + (255.0 - f64::from(c)) * 0.4).round() as u8;
        Rgb(mix(self.0), mix(self.1), mix(self.2))
    }
}

impl Scheme {
    /// The fill of every tile toward `goal`, indexed by label (labels run
    /// up to the cell count): each tile coloured by its goal cell. The
    /// SVG renderer and the terminal game both draw from this.
    pub fn fills(&self, goal: &Position) -> Vec<Rgb> {
        let size = goal.size();
        let width = size.width();
        let frame = Frame {
            width,
            height: size.height(),
            blank: (goal.blank() % width, goal.blank() / width),
        };
        let scheme = self.for_board(&frame);
        let mut fills = vec![PLAIN; size.cells() + 1];
        for (cell, &label) in goal.tiles().iter().enumerate() {
            if let Some(slot) = fills.get_mut(label as usize) {
                *slot = scheme.fill(&frame, (cell % width, cell / width));
            }
        }
        fills
    }
}

/// Viridis at `t` in [0, 1], linear between its stops.
fn gradient(t: f64) -> Rgb {
    let t = t.clamp(0.0, 1.0) * (VIRIDIS.len() - 1) as f64;
    let i = (t.floor() as usize).min(VIRIDIS.len() - 2);
    let f = t - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |p: u8, q: u8| (f64::from(p) + (f64::from(q) - f64::from(p)) * f).round() as u8;
    Rgb(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Scheme; 6] = [
        Scheme::Plain,
        Scheme::Fringe,
        Scheme::Rows,
        Scheme::Columns,
        Scheme::Gradient,
        Scheme::Grids(None),
    ];

    fn frame(width: usize, height: usize) -> Frame {
        Frame {
            width,
            height,
            blank: (width - 1, height - 1),
        }
    }

    #[test]
    fn every_fill_is_readable() {
        for scheme in ALL {
            let sizes = [
                (2, 2),
                (3, 3),
                (4, 4),
                (5, 3),
                (3, 7),
                (10, 10),
                (20, 20),
                (32, 8),
            ];
            for (w, h) in sizes.into_iter().chain([(100, 100)]) {
                let frame = frame(w, h);
                for y in 0..h {
                    for x in 0..w {
                        let fill = scheme.fill(&frame, (x, y));
                        let ratio = fill.contrast(fill.text());
                        assert!(ratio >= 4.5, "{scheme:?} {fill} at {x},{y}: {ratio:.2}");
                    }
                }
            }
        }
    }

    #[test]
    fn fringes_are_the_reductions_layers() {
        // Row-major 4 × 4: L-shaped layers from the top-left corner.
        let square = frame(4, 4);
        let layers: Vec<usize> = (0..16).map(|i| square.fringe((i % 4, i / 4))).collect();
        assert_eq!(layers, [0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 2, 2, 0, 1, 2, 3]);
        // 5 × 3: the first two columns alone, then fringes of the 3 × 3.
        let wide = frame(5, 3);
        let row: Vec<usize> = (0..5).map(|x| wide.fringe((x, 2))).collect();
        assert_eq!(row, [0, 1, 2, 3, 4]);
        assert_eq!(wide.fringe((4, 0)), 2);
        // A blank-first goal measures from the bottom-right corner.
        let flipped = Frame {
            blank: (0, 0),
            ..square
        };
        assert_eq!(flipped.fringe((3, 3)), 0);
        assert_eq!(flipped.fringe((1, 1)), 2);
        // Neighbouring layers differ in colour.
        for k in 0..10 {
            assert_ne!(LAYERS[k % 7], LAYERS[(k + 1) % 7]);
        }
    }

    /// The innermost block of each cell, found by brute force: the block
    /// sizes of the last layer tiled from the far corner, cut at the edge.
    fn grids_blocks(frame: &Frame, width: usize, height: usize) -> Vec<usize> {
        let cells = frame.width * frame.height;
        (0..cells)
            .map(|i| {
                let (x, y) = frame.far_corner_coords((i % frame.width, i / frame.width));
                (y / height) * frame.width + x / width
            })
            .collect()
    }

    #[test]
    fn grids_colour_touching_blocks_apart_and_fringes_inside() {
        for (w, h, blank) in [
            (20, 20, (19, 19)),
            (7, 7, (0, 0)),
            (32, 8, (31, 7)),
            (9, 13, (8, 12)),
        ] {
            let frame = Frame {
                width: w,
                height: h,
                blank,
            };
            let scheme = Scheme::Grids(None).for_board(&frame);
            let Scheme::Grids(Some(layers)) = scheme else {
                panic!("{w}x{h} has layers")
            };
            let last = *layers.blocks().last().unwrap();
            let blocks = grids_blocks(&frame, last.width, last.height);
            let fill = |i: usize| scheme.fill(&frame, (i % w, i / w));
            // The block's own colour and its paler shade: two fills a block.
            let base = |f: Rgb| {
                LAYERS
                    .iter()
                    .position(|&c| c == f || c.paler() == f)
                    .expect("a layer colour")
            };
            for i in 0..w * h {
                let (x, y) = (i % w, i / w);
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, usize::MAX)] {
                    let (nx, ny) = (x + dx, y.wrapping_add(dy));
                    if nx >= w || ny >= h {
                        continue;
                    }
                    let j = ny * w + nx;
                    let same_block = blocks[i] == blocks[j];
                    assert_eq!(
                        same_block,
                        base(fill(i)) == base(fill(j)),
                        "{w}x{h}: cells {i} and {j}"
                    );
                }
            }
        }
        // Inside a 5 × 5 block of 20 × 20: fringes alternate full and pale.
        let big = frame(20, 20);
        let scheme = Scheme::Grids(None);
        let diagonal: Vec<Rgb> = (0..5).map(|k| scheme.fill(&big, (k, k))).collect();
        assert_eq!(diagonal[0], LAYERS[0]);
        assert_eq!(diagonal[1], LAYERS[0].paler());
        assert_eq!(diagonal[2], LAYERS[0]);
        assert_eq!(scheme.fill(&big, (5, 0)), LAYERS[1]);
        assert_eq!(scheme.fill(&big, (0, 5)), LAYERS[3]);
        // Too small for a grid: fringes.
        let small = frame(5, 5);
        for i in 0..25 {
            let cell = (i % 5, i / 5);
            assert_eq!(scheme.fill(&small, cell), Scheme::Fringe.fill(&small, cell));
        }
    }

    #[test]
    fn names_parse_and_gradient_runs_dark_to_light() {
        for text in ["grids", "grids:20x10,10x10,10x5,5x5", "rows"] {
            assert_eq!(text.parse::<Scheme>().unwrap().to_string(), text);
        }
        assert!(matches!(
            "grids:20x10,7x10".parse::<Scheme>(),
            Err(SchemeError::Layers(_))
        ));
        assert!("grids:".parse::<Scheme>().is_err());
        assert_eq!("Fringe".parse::<Scheme>(), Ok(Scheme::Fringe));
        assert!("stripes".parse::<Scheme>().is_err());
        assert_eq!(gradient(0.0), VIRIDIS[0]);
        assert_eq!(gradient(1.0), VIRIDIS[4]);
        assert!(gradient(0.3).luminance() < gradient(0.7).luminance());
        assert_eq!(Rgb(0x0a, 0xff, 0).to_string(), "#0aff00");
    }
}
