//! Grids: the layered colour scheme big-board speedsolvers use. The board
//! is cut into rectangles ("blocks"), those into smaller ones, and so on:
//! a 20 × 20 board into two 20 × 10 halves, each into 10 × 10 squares,
//! those into 10 × 5 and then 5 × 5 blocks, and each 5 × 5 block is solved
//! by fringes. Every layer's blocks tile the board from the corner the
//! reduction solves first, so a block next to the goal's blank may be cut
//! short (a 7 × 7 board in 8 × 4 blocks has a 7 × 4 and a 7 × 3 one).
//!
//! A layer nests in the one before it when its width and height divide the
//! outer layer's: then every inner block lies in exactly one outer block.

use std::fmt;

use common::Dimensions;

/// The most grid layers a scheme holds: halving each side of a board 5
/// times leaves blocks of at most 6 on boards up to 192 a side (bigger
/// boards keep bigger innermost blocks). Few enough that a scheme stays a
/// small value to copy.
pub const MOST_LAYERS: usize = 10;

/// The sides up to which a block is left to the fringe layer: speedsolvers
/// play boards up to 6 × 6 by fringes alone and cut anything bigger.
const FRINGE_SIDE: usize = 6;

/// One grid layer: the size of its blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Block {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

impl fmt::Display for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// Grid layers, outermost first, each nested in the one before it. Kept
/// in an array so that a scheme stays a plain value to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layers {
    blocks: [Block; MOST_LAYERS],
    len: usize,
}

/// Why layers were refused: the message names the layer and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LayersError(String);

impl Layers {
    /// Checks that there are 1 to [`MOST_LAYERS`] non-empty layers, each
    /// nested in the one before it and smaller than it.
    pub fn new(blocks: &[Block]) -> Result<Layers, LayersError> {
        let refuse = |why: String| Err(LayersError(why));
        if blocks.is_empty() {
            return refuse("grids needs at least one layer, e.g. grids:20x10,10x10".into());
        }
        if blocks.len() > MOST_LAYERS {
            return refuse(format!(
                "grids has {} layers: at most {MOST_LAYERS}",
                blocks.len()
            ));
        }
        for (i, block) in blocks.iter().enumerate() {
            if block.width == 0 || block.height == 0 {
                return refuse(format!("grids layer {} ({block}) is empty", i + 1));
            }
        }
        for (i, pair) in blocks.windows(2).enumerate() {
            let (outer, inner) = (pair[0], pair[1]);
            let (o, n) = (i + 1, i + 2);
            for (side, a, b) in [
                ("width", outer.width, inner.width),
                ("height", outer.height, inner.height),
            ] {
                if a % b != 0 {
                    return refuse(format!(
                        "grids layer {n} ({inner}) does not nest in layer {o} ({outer}): \
                         its {side} {b} does not divide {a}"
                    ));
                }
            }
            if inner == outer {
                return refuse(format!(
                    "grids layer {n} ({inner}) does not cut layer {o} ({outer}): make it smaller"
                ));
            }
        }
        let mut layers = Layers {
            blocks: [Block::default(); MOST_LAYERS],
            len: blocks.len(),
        };
        layers.blocks[..blocks.len()].copy_from_slice(blocks);
        Ok(layers)
    }

    /// The layers, outermost first.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks[..self.len]
    }

    /// The default layers of a `width` × `height` board: the longer side
    /// of the block halved at each layer (the height first on a square),
    /// rounding up, until both sides are at most 6; then fringes. An odd
    /// side's outer layer is rounded up so that the halves nest: 7 × 7 is
    /// cut as 8 × 4 then 4 × 4. None when the board is small enough for
    /// fringes alone.
    pub fn for_size(width: usize, height: usize) -> Option<Layers> {
        // Each side's halvings, then each outer side made twice the inner.
        let halvings = |side: usize| {
            let mut sides = vec![side];
            while sides.len() <= MOST_LAYERS / 2 && *sides.last()? > FRINGE_SIDE {
                let last = *sides.last()?;
                sides.push(last.div_ceil(2));
            }
            for i in (1..sides.len()).rev() {
                sides[i - 1] = sides[i] * 2;
            }
            Some(sides)
        };
        let (widths, heights) = (halvings(width)?, halvings(height)?);
        let (mut w, mut h) = (0, 0);
        let mut blocks = Vec::new();
        while w + 1 < widths.len() || h + 1 < heights.len() {
            let cut_width =
                h + 1 >= heights.len() || (w + 1 < widths.len() && widths[w] > heights[h]);
            if cut_width {
                w += 1;
            } else {
                h += 1;
            }
            blocks.push(Block {
                width: widths[w],
                height: heights[h],
            });
        }
        Layers::new(&blocks).ok()
    }

    /// The innermost block of the cell at `(x, y)`, counted from the
    /// corner solved first: its column and row among the blocks, and its
    /// rectangle `(x, y, width, height)` cut to a `width` × `height` board.
    pub fn innermost(&self, board: Dimensions, (x, y): (usize, usize)) -> Placed {
        place(
            board,
            *self.blocks().last().expect("layers are never empty"),
            (x, y),
        )
    }
}

/// A block of a layer on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Its column and row among the layer's blocks.
    pub index: (usize, usize),
    /// Its cells: left, top, width, height (cut at the board's edge).
    pub rect: (usize, usize, usize, usize),
}

/// The block of size `block` that holds `(x, y)` on `board`.
pub fn place(board: Dimensions, block: Block, (x, y): (usize, usize)) -> Placed {
    let (bx, by) = (x / block.width, y / block.height);
    let (left, top) = (bx * block.width, by * block.height);
    Placed {
        index: (bx, by),
        rect: (
            left,
            top,
            block.width.min(board.width - left),
            block.height.min(board.height - top),
        ),
    }
}

impl fmt::Display for Layers {
    /// `20x10,10x10,10x5,5x5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, block) in self.blocks().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{block}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Layers {
    type Err = LayersError;

    /// Blocks `WxH` separated by commas, outermost first.
    fn from_str(s: &str) -> Result<Layers, LayersError> {
        let blocks = s
            .split(',')
            .enumerate()
            .map(|(i, text)| {
                text.parse::<Dimensions>()
                    .map(|d| Block {
                        width: d.width,
                        height: d.height,
                    })
                    .map_err(|_| {
                        LayersError(format!(
                            "grids layer {} {:?} is not a block size: expected WxH, e.g. 10x5",
                            i + 1,
                            text.trim()
                        ))
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Layers::new(&blocks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(text: &str) -> Vec<String> {
        let layers: Layers = text.parse().unwrap();
        layers.blocks().iter().map(ToString::to_string).collect()
    }

    #[test]
    fn defaults_halve_the_longer_side_until_fringes_do() {
        let default = |w, h| Layers::for_size(w, h).map(|l| l.to_string());
        assert_eq!(default(20, 20).as_deref(), Some("20x10,10x10,10x5,5x5"));
        assert_eq!(default(7, 7).as_deref(), Some("8x4,4x4"));
        assert_eq!(default(10, 10).as_deref(), Some("10x5,5x5"));
        assert_eq!(
            default(32, 32).as_deref(),
            Some("32x16,16x16,16x8,8x8,8x4,4x4")
        );
        assert_eq!(default(32, 8).as_deref(), Some("16x8,8x8,8x4,4x4"));
        assert_eq!(default(10, 3).as_deref(), Some("5x3"));
        assert_eq!(default(6, 6), None);
        assert_eq!(default(2, 5), None);
        // Huge boards stop at the most layers, every one nested.
        let huge = Layers::for_size(100_000, 3).unwrap();
        assert_eq!(huge.blocks().len(), MOST_LAYERS / 2);
    }

    #[test]
    fn every_layer_covers_every_cell_once_and_nests() {
        for (w, h) in [
            (7, 7),
            (9, 13),
            (20, 20),
            (32, 8),
            (8, 32),
            (10, 3),
            (31, 31),
        ] {
            let board = Dimensions {
                width: w,
                height: h,
            };
            let layers = Layers::for_size(w, h).unwrap();
            let list = layers.blocks();
            for (k, &block) in list.iter().enumerate() {
                // The layer's rectangles, listed, cover each cell once...
                let mut covered = vec![0; w * h];
                let mut rects = Vec::new();
                for top in (0..h).step_by(block.height) {
                    for left in (0..w).step_by(block.width) {
                        let rect = place(board, block, (left, top)).rect;
                        assert_eq!((rect.0, rect.1), (left, top));
                        for y in top..top + rect.3 {
                            for x in left..left + rect.2 {
                                covered[y * w + x] += 1;
                            }
                        }
                        rects.push(rect);
                    }
                }
                assert!(covered.iter().all(|&c| c == 1), "{w}x{h} layer {block}");
                // ...each cell's block is the rectangle that holds it...
                for y in 0..h {
                    for x in 0..w {
                        let (l, t, bw, bh) = place(board, block, (x, y)).rect;
                        assert!((l..l + bw).contains(&x) && (t..t + bh).contains(&y));
                    }
                }
                // ...and each lies inside one block of the layer before.
                if k > 0 {
                    for &(l, t, bw, bh) in &rects {
                        let outer = place(board, list[k - 1], (l, t)).rect;
                        assert!(l + bw <= outer.0 + outer.2 && t + bh <= outer.1 + outer.3);
                    }
                }
            }
        }
    }

    #[test]
    fn layers_read_back_and_refusals_name_the_layer() {
        assert_eq!(
            blocks("20x10, 10x10,10x5,5x5"),
            ["20x10", "10x10", "10x5", "5x5"]
        );
        assert_eq!(blocks("8x4"), ["8x4"]);
        let refused = |text: &str| text.parse::<Layers>().unwrap_err().to_string();
        assert_eq!(
            refused("20x10,7x10"),
            "grids layer 2 (7x10) does not nest in layer 1 (20x10): its width 7 does not divide 20"
        );
        assert_eq!(
            refused("20x10,10x10,10x3"),
            "grids layer 3 (10x3) does not nest in layer 2 (10x10): its height 3 does not divide 10"
        );
        assert!(refused("10x10,20x5").contains("does not nest"));
        assert!(refused("10x5,10x5").contains("does not cut"));
        assert!(refused("10x5,0x5").contains("layer 2 (0x5) is empty"));
        assert!(refused("10x5,ax5").contains("layer 2 \"ax5\" is not a block size"));
        assert!(refused("").contains("layer 1"));
        let many = ["1x1"; MOST_LAYERS + 1].join(",");
        assert!(refused(&many).contains("at most"));
    }
}
