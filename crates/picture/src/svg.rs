//! SVG drawings of sliding-puzzle positions: one rounded square per tile,
//! filled by the colour scheme, with its number; the blank shows the
//! frame beneath.

use std::borrow::Cow;
use std::fmt::Write as _;

use slide::{Position, BLANK};

use super::scheme::{Rgb, Scheme};

/// How a position is drawn.
#[derive(Clone, Debug, Default)]
pub struct Style {
    /// The tiles' colours.
    pub scheme: Scheme,
    /// Leave the numbers off (a scheme alone shows where tiles belong).
    pub hide_numbers: bool,
    /// A line of text in a band under the board (an animation's move
    /// counter).
    pub caption: Option<String>,
    /// A picture puzzle's picture: each tile shows the part of it that
    /// belongs to the tile's goal cell.
    pub image: Option<super::image::Image>,
}

/// The height of the caption band, in pixels.
const CAPTION: usize = 30;

/// The frame around and between the tiles.
const FRAME: Rgb = Rgb(0x2b, 0x2b, 0x2b);

/// Pixels per cell: 64 on boards up to 64 cells a side, less beyond so
/// that the picture stays within 4096 pixels a side, and never below 16.
/// At 16 pixels a 4-digit number is about 6 pixels high: readable when
/// zoomed, which is what an SVG is for; that is why 1000 × 1000 boards get
/// a 16,000-pixel picture instead of an illegible small one.
pub fn cell_pixels(width: usize, height: usize) -> usize {
    (4096 / width.max(height).max(1)).clamp(16, 64)
}

/// A rectangle of the picture, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// The left edge.
    pub x: usize,
    /// The top edge.
    pub y: usize,
    /// The width.
    pub width: usize,
    /// The height.
    pub height: usize,
}

impl Rect {
    fn intersects(&self, other: &Rect) -> bool {
        self.x < other.x + other.width
            && other.x < self.x + self.width
            && self.y < other.y + other.height
            && other.y < self.y + self.height
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        let (x, y) = (self.x.min(other.x), self.y.min(other.y));
        let right = (self.x + self.width).max(other.x + other.width);
        let bottom = (self.y + self.height).max(other.y + other.height);
        Rect {
            x,
            y,
            width: right - x,
            height: bottom - y,
        }
    }
}

/// Where everything of a position's picture goes.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Pixels per cell.
    pub cell: usize,
    margin: usize,
    gap: usize,
    /// The whole picture, caption band included.
    pub width: usize,
    /// The whole picture's height, caption band included.
    pub height: usize,
    /// The board's height (the caption band lies below it).
    board_height: usize,
    /// Whether there is a caption band.
    captioned: bool,
}

impl Layout {
    /// Where everything goes in a picture of `position` drawn in `style`.
    pub fn new(position: &Position, style: &Style) -> Layout {
        let size = position.size();
        let cell = cell_pixels(size.width(), size.height());
        let margin = cell / 8;
        let board_height = size.height() * cell + 2 * margin;
        let captioned = style.caption.is_some();
        Layout {
            cell,
            margin,
            gap: (cell / 16).max(1),
            width: size.width() * cell + 2 * margin,
            height: board_height + if captioned { CAPTION } else { 0 },
            board_height,
            captioned,
        }
    }

    /// The whole picture.
    pub fn all(&self) -> Rect {
        Rect {
            x: 0,
            y: 0,
            width: self.width,
            height: self.height,
        }
    }

    /// The square of cell (x, y): its tile lies inside, with the gap.
    pub fn cell(&self, x: usize, y: usize) -> Rect {
        Rect {
            x: self.margin + x * self.cell,
            y: self.margin + y * self.cell,
            width: self.cell,
            height: self.cell,
        }
    }

    /// The square of the cell with index `cell` on a board `width` wide.
    pub fn cell_of(&self, cell: usize, width: usize) -> Rect {
        self.cell(cell % width, cell / width)
    }

    /// The band under the board that holds the caption (empty without one).
    pub fn caption(&self) -> Rect {
        Rect {
            x: 0,
            y: self.board_height,
            width: self.width,
            height: self.height - self.board_height,
        }
    }
}

/// The SVG document of `position`, coloured by where `goal` puts each
/// tile.
pub fn position(position: &Position, goal: &Position, style: &Style) -> String {
    let layout = Layout::new(position, style);
    view(position, goal, style, &layout, layout.all())
}

/// The part `view` of the picture of `position`, as a document of its own
/// with only what shows there: how an animation redraws the cells a move
/// changed without drawing the whole board again.
pub fn view(
    position: &Position,
    goal: &Position,
    style: &Style,
    layout: &Layout,
    view: Rect,
) -> String {
    let size = position.size();
    let cell = layout.cell;
    let fills = style.scheme.fills(goal);
    let digits = position
        .tiles()
        .iter()
        .max()
        .map_or(1, |t| t.to_string().len());
    // Wide numbers get smaller type, so that they fit the tile.
    let font = (cell as f64 * (0.5f64).min(1.7 / digits as f64)).round();
    let Rect {
        x: vx,
        y: vy,
        width: vw,
        height: vh,
    } = view;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{vw}" height="{vh}" viewBox="{vx} {vy} {vw} {vh}" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold">"#
    );
    let _ = write!(
        svg,
        r#"<rect x="{vx}" y="{vy}" width="{vw}" height="{vh}" fill="{FRAME}"/>"#
    );
    // The picture is embedded only where a tile can show it: not in the
    // caption band an animation redraws every frame.
    let board = Rect {
        height: layout.board_height,
        ..layout.all()
    };
    let image = style.image.as_ref().filter(|_| board.intersects(&view));
    let homes = image.map(|image| {
        // The picture covers the board's cells (cropped to their shape,
        // centred), defined once and shown through each tile's window.
        let (pw, ph) = (size.width() * cell, size.height() * cell);
        let _ = write!(
            svg,
            r#"<defs><image id="picture" width="{pw}" height="{ph}" preserveAspectRatio="xMidYMid slice" href="{}"/></defs>"#,
            image.href()
        );
        homes(goal)
    });
    for y in 0..size.height() {
        for x in 0..size.width() {
            let label = position.tile_at(x, y);
            let square = layout.cell(x, y);
            if label == BLANK || !square.intersects(&view) {
                continue;
            }
            let fill = fills[label as usize];
            let gap = layout.gap;
            let (left, top) = (square.x + gap, square.y + gap);
            let side = cell - 2 * gap;
            let radius = cell / 10;
            if let Some(homes) = &homes {
                // The window onto the picture at the tile's goal cell.
                let home = homes[label as usize];
                let (hx, hy) = (
                    home % size.width() * cell + gap,
                    home / size.width() * cell + gap,
                );
                let _ = write!(
                    svg,
                    r##"<svg x="{left}" y="{top}" width="{side}" height="{side}" viewBox="{hx} {hy} {side} {side}"><use href="#picture"/></svg>"##
                );
                if !style.hide_numbers {
                    corner_number(&mut svg, label, left, top, cell);
                }
                continue;
            }
            let _ = write!(
                svg,
                r#"<rect x="{left}" y="{top}" width="{side}" height="{side}" rx="{radius}" fill="{fill}"/>"#
            );
            if !style.hide_numbers {
                let (cx, cy) = (left + side / 2, top + side / 2);
                let _ = write!(
                    svg,
                    r#"<text x="{cx}" y="{cy}" font-size="{font}" fill="{}" text-anchor="middle" dominant-baseline="central">{label}</text>"#,
                    fill.text()
                );
            }
        }
    }
    let band = layout.caption();
    if let (Some(caption), true) = (&style.caption, layout.captioned && band.intersects(&view)) {
        let (cx, cy) = (band.width / 2, band.y + CAPTION / 2 - layout.margin / 2);
        let _ = write!(
            svg,
            r##"<text x="{cx}" y="{cy}" font-size="18" fill="#f0f0f0" text-anchor="middle" dominant-baseline="central">{}</text>"##,
            escape(caption)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// The goal cell of every label.
fn homes(goal: &Position) -> Vec<usize> {
    let labels = goal.tiles();
    let mut homes = vec![0; labels.iter().max().map_or(0, |&m| m as usize + 1)];
    for (cell, &label) in labels.iter().enumerate() {
        homes[label as usize] = cell;
    }
    homes
}

/// A tile's number in its top-left corner, white on a dark patch so that
/// it reads on any picture.
fn corner_number(svg: &mut String, label: u32, left: usize, top: usize, cell: usize) {
    let font = (cell as f64 * 0.28).round().max(7.0);
    let digits = label.to_string().len() as f64;
    let (w, h) = (font * (0.3 + 0.62 * digits), font * 1.25);
    let (x, y) = (left as f64 + 1.0, top as f64 + 1.0);
    let _ = write!(
        svg,
        r##"<rect x="{x}" y="{y}" width="{w:.1}" height="{h:.1}" rx="{:.1}" fill="#000" fill-opacity="0.6"/><text x="{:.1}" y="{:.1}" font-size="{font}" fill="#fff" text-anchor="middle" dominant-baseline="central">{label}</text>"##,
        h / 4.0,
        x + w / 2.0,
        y + h / 2.0
    );
}

/// `text` with the characters that XML reserves written as references.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.contains(['&', '<', '>', '"', '\'']) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' | '<' | '>' | '"' | '\'' => {
                let _ = write!(out, "&#{};", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}
