//! SVG drawings of Shisen-Sho boards: the faces of [`super::faces`] on
//! ivory tiles, on the felt the web page uses, with the empty ring around
//! the interior (paths run through it) and, if given, a connecting path.

use std::fmt::Write as _;

use shisen::{Board, Path, Point};

use super::faces::{self, HEIGHT, WIDTH};

/// The SVG document of `board`, with `path` drawn over it. Tiles are
/// 40 × 52 pixels, the faces' own units, so the largest preset (30 × 16)
/// is 1280 × 936 pixels.
pub fn board(board: &Board, path: Option<&Path>) -> String {
    let (tw, th) = (WIDTH, HEIGHT);
    let w = (board.width() as u32 + 2) * tw;
    let h = (board.height() as u32 + 2) * th;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}"><defs><linearGradient id="ivory" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fffdf7"/><stop offset="1" stop-color="#efe6d2"/></linearGradient></defs><rect width="{w}" height="{h}" rx="10" fill="#24613f"/>"##
    );
    // The two tiles a path joins are drawn selected, as on the page.
    let ends: Vec<Point> = path
        .map(Path::points)
        .and_then(|points| Some(vec![*points.first()?, *points.last()?]))
        .unwrap_or_default();
    for (p, kind) in board.tiles() {
        let (x, y) = ((p.x as u32 + 1) * tw, (p.y as u32 + 1) * th);
        let fill = if ends.contains(&p) {
            "#ffe9a8"
        } else {
            "url(#ivory)"
        };
        let _ = write!(
            svg,
            r##"<g transform="translate({x} {y})"><rect x="2" y="3" width="37" height="48" rx="5" fill="#8b7d5f"/><rect x="1.5" y="1.5" width="37" height="48" rx="5" fill="{fill}" stroke="#9c8f73"/>{}</g>"##,
            faces::body(kind.symbol())
        );
    }
    if let Some(path) = path {
        let centre = |p: &Point| {
            let x = (f64::from(p.x) + 1.5) * f64::from(tw);
            let y = (f64::from(p.y) + 1.5) * f64::from(th);
            format!("{x},{y}")
        };
        let points: Vec<String> = path.points().iter().map(centre).collect();
        let _ = write!(
            svg,
            r##"<polyline points="{}" fill="none" stroke="#e74c3c" stroke-width="4" stroke-linejoin="round" stroke-linecap="round"/>"##,
            points.join(" ")
        );
    }
    svg.push_str("</svg>\n");
    svg
}
