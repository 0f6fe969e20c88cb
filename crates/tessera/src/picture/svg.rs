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

/// The SVG document of `position`, coloured by where `goal` puts each
/// tile.
pub fn position(position: &Position, goal: &Position, style: &Style) -> String {
    let size = position.size();
    let (width, height) = (size.width(), size.height());
    let cell = cell_pixels(width, height);
    let margin = cell / 8;
    let gap = (cell / 16).max(1);
    let (w, board_h) = (width * cell + 2 * margin, height * cell + 2 * margin);
    let h = board_h + if style.caption.is_some() { CAPTION } else { 0 };
    let fills = style.scheme.fills(goal);
    let digits = position
        .tiles()
        .iter()
        .max()
        .map_or(1, |t| t.to_string().len());
    // Wide numbers get smaller type, so that they fit the tile.
    let font = (cell as f64 * (0.5f64).min(1.7 / digits as f64)).round();
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold">"#
    );
    let _ = write!(svg, r#"<rect width="{w}" height="{h}" fill="{FRAME}"/>"#);
    for y in 0..height {
        for x in 0..width {
            let label = position.tile_at(x, y);
            if label == BLANK {
                continue;
            }
            let fill = fills[label as usize];
            let (left, top) = (margin + x * cell + gap, margin + y * cell + gap);
            let side = cell - 2 * gap;
            let radius = cell / 10;
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
    if let Some(caption) = &style.caption {
        let (cx, cy) = (w / 2, board_h + CAPTION / 2 - margin / 2);
        let _ = write!(
            svg,
            r##"<text x="{cx}" y="{cy}" font-size="18" fill="#f0f0f0" text-anchor="middle" dominant-baseline="central">{}</text>"##,
            escape(caption)
        );
    }
    svg.push_str("</svg>\n");
    svg
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
