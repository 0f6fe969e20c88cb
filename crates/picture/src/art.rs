//! The built-in pictures for picture puzzles, drawn by code so that they
//! are the project's own (same licence as the code) and cost nothing to
//! ship: a few kilobytes of SVG each.
//!
//! A good puzzle picture differs everywhere, so that every tile can be
//! told apart: each of these varies in colour across both axes.

use std::fmt::Write as _;

/// A built-in picture.
#[derive(Clone, Copy, Debug)]
pub struct Art {
    /// The name used on the command line and in share links.
    pub name: &'static str,
    /// What the page shows in its menu.
    pub title: &'static str,
    draw: fn() -> String,
}

impl PartialEq for Art {
    fn eq(&self, other: &Art) -> bool {
        self.name == other.name
    }
}

impl Eq for Art {}

/// Every built-in picture.
pub const ALL: [Art; 3] = [
    Art {
        name: "sunset",
        title: "Sunset over hills",
        draw: sunset,
    },
    Art {
        name: "waves",
        title: "Waves",
        draw: waves,
    },
    Art {
        name: "mosaic",
        title: "Mosaic",
        draw: mosaic,
    },
];

/// The side of every picture, in its own units.
const SIDE: f64 = 600.0;

impl Art {
    /// The built-in picture called `name`.
    pub fn named(name: &str) -> Option<Art> {
        ALL.into_iter().find(|art| art.name == name)
    }

    /// The picture as an SVG document.
    pub fn svg(self) -> String {
        (self.draw)()
    }
}

fn open(svg: &mut String) {
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{SIDE}" height="{SIDE}" viewBox="0 0 {SIDE} {SIDE}">"#
    );
}

/// A smooth ridge line: a sum of sines, the same every time.
fn ridge(x: f64, base: f64, seed: f64) -> f64 {
    base + 28.0 * (x / 97.0 + seed).sin()
        + 15.0 * (x / 41.0 + 2.0 * seed).sin()
        + 6.0 * (x / 13.0 + 3.0 * seed).sin()
}

fn sunset() -> String {
    let mut svg = String::new();
    open(&mut svg);
    svg.push_str(concat!(
        r##"<defs><linearGradient id="sky" x1="0" y1="0" x2="0.3" y2="1">"##,
        r##"<stop offset="0" stop-color="#1b1f5e"/><stop offset="0.45" stop-color="#b5446e"/>"##,
        r##"<stop offset="0.75" stop-color="#f6a04d"/><stop offset="1" stop-color="#ffe3a3"/>"##,
        r##"</linearGradient></defs><rect width="600" height="600" fill="url(#sky)"/>"##,
        r##"<circle cx="410" cy="330" r="80" fill="#ffd166"/><circle cx="410" cy="330" r="56" fill="#fff1c1"/>"##,
    ));
    // A few stars in the dark part of the sky.
    for i in 0..24 {
        let x = (i * 151 % 580 + 10) as f64;
        let y = (i * 67 % 170 + 12) as f64;
        let _ = write!(
            svg,
            r##"<circle cx="{x}" cy="{y}" r="{}" fill="#fdf6e3"/>"##,
            1.0 + (i % 3) as f64 * 0.6
        );
    }
    let hills = [
        (360.0, 0.3, "#7b3f61"),
        (410.0, 1.7, "#4f2d5c"),
        (460.0, 2.9, "#2e1f47"),
        (520.0, 4.1, "#161630"),
    ];
    for (base, seed, colour) in hills {
        let mut d = format!("M0 {SIDE}");
        for step in 0..=60 {
            let x = f64::from(step) * 10.0;
            let _ = write!(d, " L{x} {:.1}", ridge(x, base, seed));
        }
        let _ = write!(d, " L{SIDE} {SIDE} Z");
        let _ = write!(svg, r#"<path d="{d}" fill="{colour}"/>"#);
    }
    svg.push_str("</svg>\n");
    svg
}

/// Viridis, a few stops: dark purple to yellow.
const VIRIDIS: [&str; 8] = [
    "#440154", "#46327e", "#365c8d", "#277f8e", "#1fa187", "#4ac16d", "#a0da39", "#fde725",
];

fn waves() -> String {
    let mut svg = String::new();
    open(&mut svg);
    let _ = write!(
        svg,
        r#"<rect width="600" height="600" fill="{}"/>"#,
        VIRIDIS[7]
    );
    // Bands from the top down, tilted, each edge a wave whose phase
    // drifts, so no two tiles of a band look alike.
    for (band, colour) in VIRIDIS.iter().enumerate().take(7) {
        let top = 640.0 - 95.0 * band as f64;
        let mut d = String::from("M0 0");
        for step in 0..=60 {
            let x = f64::from(step) * 10.0;
            let y = top
                + 0.45 * (x - 300.0)
                + 22.0 * (x / 60.0 + band as f64 * 0.9).sin()
                + 9.0 * (x / 23.0).cos();
            let _ = write!(d, " L{x} {y:.1}");
        }
        d.push_str(" L600 0 Z");
        let _ = write!(svg, r#"<path d="{d}" fill="{colour}"/>"#);
    }
    // Light from the left, shade to the right: the bands change along x.
    svg.push_str(concat!(
        r##"<defs><linearGradient id="light"><stop offset="0" stop-color="#ffffff" stop-opacity="0.35"/>"##,
        r##"<stop offset="1" stop-color="#000000" stop-opacity="0.35"/></linearGradient></defs>"##,
        r##"<rect width="600" height="600" fill="url(#light)"/>"##,
    ));
    // Drifting bubbles over the bands.
    for i in 0..60 {
        let x = (i * 211 % 580 + 10) as f64;
        let y = (i * 97 % 580 + 10) as f64;
        let r = 5.0 + (i * 7 % 29) as f64;
        let _ = write!(
            svg,
            r##"<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="3"/>"##
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Okabe and Ito's colours (black left out).
const OKABE_ITO: [&str; 7] = [
    "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7",
];

fn mosaic() -> String {
    let mut svg = String::new();
    open(&mut svg);
    let n = 12;
    let cell = SIDE / f64::from(n);
    for y in 0..n {
        for x in 0..n {
            // Colours and the arcs' turn come from a small hash of the
            // cell (Truchet tiles), so the pattern never repeats in step
            // with the tiles.
            let hash = (x * x * 3 + y * 7 + x * y * 5 + y * y) as usize;
            let colour = OKABE_ITO[hash % 7];
            let back = OKABE_ITO[(hash / 7 + hash % 7 + 1) % 7];
            let (left, top) = (f64::from(x) * cell, f64::from(y) * cell);
            let turn = (hash / 3).is_multiple_of(2);
            let _ = write!(
                svg,
                r#"<rect x="{left}" y="{top}" width="{cell}" height="{cell}" fill="{back}"/>"#
            );
            let h = cell / 2.0;
            let (a, b) = if turn {
                ((left, top), (left + cell, top + cell))
            } else {
                ((left + cell, top), (left, top + cell))
            };
            let _ = write!(
                svg,
                r#"<circle cx="{}" cy="{}" r="{h}" fill="{colour}"/><circle cx="{}" cy="{}" r="{h}" fill="{colour}"/>"#,
                a.0, a.1, b.0, b.1
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_picture_parses_and_has_a_unique_name() {
        let mut names = std::collections::HashSet::new();
        for art in ALL {
            assert!(names.insert(art.name));
            roxmltree::Document::parse(&art.svg()).unwrap_or_else(|e| panic!("{}: {e}", art.name));
            assert_eq!(Art::named(art.name), Some(art));
        }
        assert_eq!(Art::named("nope"), None);
    }

    #[test]
    fn pictures_differ_across_the_board() {
        // Drawn at 4 × 4 tiles, no two tiles of a picture look the same:
        // a picture puzzle needs every tile to be recognisable.
        for art in ALL {
            let pixmap = crate::raster::pixmap(&art.svg()).unwrap();
            let tile = |tx: u32, ty: u32| -> Vec<u8> {
                let mut sample = Vec::new();
                for (dx, dy) in [(20, 20), (75, 40), (40, 110), (130, 130), (100, 75)] {
                    let p = pixmap.pixel(tx * 150 + dx, ty * 150 + dy).unwrap();
                    sample.extend([p.red() / 8, p.green() / 8, p.blue() / 8]);
                }
                sample
            };
            let mut seen = std::collections::HashSet::new();
            for t in 0..16 {
                assert!(seen.insert(tile(t % 4, t / 4)), "{}: tile {t}", art.name);
            }
        }
    }
}
