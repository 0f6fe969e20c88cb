//! Shisen-Sho tile faces, drawn as SVG so that they look the same on every
//! machine (no mahjong font needed) and stay legible from 14×6 to 30×16.
//!
//! This is the one drawing of the faces: `shisen render` places them on a
//! board, and the web page gets them from the module `faces.js`, which the
//! server writes from this file (see [`faces_module`]).
//!
//! Symbols are the engine's: 1-9 circles, a-i bamboo, j-r characters,
//! E S W N winds, R G H dragons, s-v flowers, w-z seasons; anything else is
//! drawn as its character.

use std::fmt::Write as _;

use super::svg::escape;

/// A face's own coordinates: 40 wide, 52 high.
pub const WIDTH: u32 = 40;
/// A face's height in its own coordinates.
pub const HEIGHT: u32 = 52;

/// Every symbol with a face of its own, as opposed to a drawn character.
pub const SYMBOLS: &str = "123456789abcdefghijklmnopqrESWNRGHstuvwxyz";

/// Pip positions (3 × 3 grid cells) for ranks 1-9.
const PIPS: [&[(u8, u8)]; 9] = [
    &[(1, 1)],
    &[(1, 0), (1, 2)],
    &[(0, 0), (1, 1), (2, 2)],
    &[(0, 0), (2, 0), (0, 2), (2, 2)],
    &[(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    &[(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    &[(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (0, 1),
        (2, 1),
        (0, 2),
        (1, 2),
        (2, 2),
    ],
    &[
        (0, 0),
        (1, 0),
        (2, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (0, 2),
        (1, 2),
        (2, 2),
    ],
];

const BLUE: &str = "#1f5fa8";
const RED: &str = "#c0392b";
const GREEN: &str = "#1e8449";
const PIP_COLORS: [&str; 3] = [BLUE, RED, GREEN];

/// The face's coordinates of a pip's grid cell.
fn at(c: u8, r: u8) -> (f64, f64) {
    (9.0 + f64::from(c) * 11.0, 11.0 + f64::from(r) * 15.0)
}

/// The pips of `rank` (1-9) with their grid positions.
fn pips(rank: u32) -> impl Iterator<Item = (usize, (f64, f64))> {
    PIPS[rank as usize - 1]
        .iter()
        .enumerate()
        .map(|(i, &(c, r))| (i, at(c, r)))
}

fn circles(rank: u32) -> String {
    let big = rank == 1;
    let (ring, dot, stroke) = if big { (12.0, 5.0, 3) } else { (4.6, 1.8, 2) };
    let mut out = String::new();
    for (i, (x, y)) in pips(rank) {
        let color = PIP_COLORS[(rank as usize + i) % 3];
        let (cx, cy) = (x + 2.0, y + 2.0);
        let _ = write!(
            out,
            r#"<circle cx="{cx}" cy="{cy}" r="{ring}" fill="none" stroke="{color}" stroke-width="{stroke}"/><circle cx="{cx}" cy="{cy}" r="{dot}" fill="{color}"/>"#
        );
    }
    out
}

fn bamboo(rank: u32) -> String {
    if rank == 1 {
        return format!(
            r#"<rect x="17" y="8" width="6" height="36" rx="3" fill="{GREEN}"/><rect x="15" y="18" width="10" height="3" fill="{RED}"/><rect x="15" y="32" width="10" height="3" fill="{RED}"/>"#
        );
    }
    let mut out = String::new();
    for (i, (x, y)) in pips(rank) {
        let color = if i % 4 == 3 { RED } else { GREEN };
        let _ = write!(
            out,
            r##"<rect x="{x}" y="{}" width="4" height="13" rx="2" fill="{color}"/><rect x="{}" y="{}" width="5" height="1.4" fill="#0b4d2a"/>"##,
            y - 5.0,
            x - 0.5,
            y + 1.0
        );
    }
    out
}

/// Centred text on the face.
fn text(t: &str, size: u32, color: &str, y: u32) -> String {
    format!(
        r#"<text x="20" y="{y}" font-size="{size}" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" fill="{color}" text-anchor="middle">{t}</text>"#
    )
}

fn characters(rank: u32) -> String {
    // The rank in black over the red "ten thousand" stroke pattern.
    text(&rank.to_string(), 22, "#1b1b1b", 25)
        + &format!(
            r#"<path d="M10 33 h20 M12 38 h16 M20 30 v16 M13 44 q7 -4 14 0" stroke="{RED}" stroke-width="2.2" fill="none" stroke-linecap="round"/>"#
        )
}

/// Points around (cx, cy) at `radius`, every `step` degrees from the top.
fn around(step: u32, radius: f64, cx: f64, cy: f64) -> impl Iterator<Item = (f64, f64)> {
    (0..360).step_by(step as usize).map(move |a| {
        let r = f64::from(a).to_radians();
        // Rounded to 1/1000 of a unit: shorter text, the same picture.
        let round = |v: f64| (v * 1000.0).round() / 1000.0;
        (round(cx + radius * r.sin()), round(cy - radius * r.cos()))
    })
}

fn flower(n: u32) -> String {
    let mut out = String::new();
    for (x, y) in around(72, 7.0, 20.0, 24.0) {
        let _ = write!(out, r##"<circle cx="{x}" cy="{y}" r="5" fill="#d35d9b"/>"##);
    }
    out + r##"<circle cx="20" cy="24" r="3.5" fill="#f4d03f"/>"##
        + &text(&n.to_string(), 11, "#7d3c98", 47)
}

fn season(n: u32) -> String {
    let mut out = String::new();
    for ((x1, y1), (x2, y2)) in around(45, 9.0, 20.0, 23.0).zip(around(45, 13.0, 20.0, 23.0)) {
        let _ = write!(
            out,
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#e67e22" stroke-width="2" stroke-linecap="round"/>"##
        );
    }
    out + r##"<circle cx="20" cy="23" r="7" fill="#f39c12"/>"##
        + &text(&n.to_string(), 11, "#a04000", 47)
}

fn dragon(kind: char) -> String {
    match kind {
        // 中: a box crossed by a long vertical stroke.
        'R' => format!(
            r#"<rect x="10" y="17" width="20" height="14" fill="none" stroke="{RED}" stroke-width="3"/><line x1="20" y1="9" x2="20" y2="44" stroke="{RED}" stroke-width="3.4" stroke-linecap="round"/>"#
        ),
        'G' => format!(
            r##"<path d="M20 8 C30 16 30 30 20 44 C10 30 10 16 20 8 Z" fill="{GREEN}"/><line x1="20" y1="12" x2="20" y2="42" stroke="#d5f5e3" stroke-width="1.6"/>"##
        ),
        _ => format!(
            r#"<rect x="9" y="9" width="22" height="34" rx="2" fill="none" stroke="{BLUE}" stroke-width="3"/><rect x="13" y="13" width="14" height="26" rx="1" fill="none" stroke="{BLUE}" stroke-width="1.4"/>"#
        ),
    }
}

/// The rank of `kind` counted from `first` (1-based).
fn rank(kind: char, first: char) -> u32 {
    kind as u32 - first as u32 + 1
}

/// The drawing of a face, in its own 40 × 52 coordinates, without the
/// `<svg>` around it.
pub fn body(kind: char) -> String {
    match kind {
        '1'..='9' => circles(rank(kind, '1')),
        'a'..='i' => bamboo(rank(kind, 'a')),
        'j'..='r' => characters(rank(kind, 'j')),
        'E' | 'S' | 'W' | 'N' => text(&kind.to_string(), 26, "#1b2a49", 36),
        'R' | 'G' | 'H' => dragon(kind),
        's'..='v' => flower(rank(kind, 's')),
        'w'..='z' => season(rank(kind, 'w')),
        other => text(&escape(&other.to_string()), 22, "#333", 34),
    }
}

/// A face as a standalone SVG element that fills its box.
pub fn face(kind: char) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" aria-hidden="true">{}</svg>"#,
        body(kind)
    )
}

/// The JavaScript module the web page draws its tiles with: every face of
/// [`SYMBOLS`], and the face of any other character as a template whose
/// `\u{0}` the page replaces with the character (escaped).
pub fn faces_module() -> String {
    let mut faces = serde_json::Map::new();
    for kind in SYMBOLS.chars() {
        faces.insert(kind.to_string(), face(kind).into());
    }
    let other = face('\u{0}');
    format!(
        "// Written by the server from crates/tessera/src/picture/faces.rs: the\n\
         // same faces as `tessera shisen render`.\n\
         export const FACES = {};\n\
         export const OTHER = {};\n",
        serde_json::Value::Object(faces),
        serde_json::Value::String(other)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_parses_and_symbols_differ() {
        let mut seen = std::collections::HashSet::new();
        for kind in SYMBOLS.chars().chain(['?', '<', '&', 'é']) {
            let svg = face(kind);
            roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert!(seen.insert(body(kind)), "{kind} looks like another face");
        }
    }

    #[test]
    fn pips_count_the_rank() {
        for rank in 2..=9 {
            let kind = char::from(b'0' + rank as u8);
            // Two circles (ring and dot) per pip.
            assert_eq!(face(kind).matches("<circle").count(), 2 * rank);
            let kind = char::from(b'a' + rank as u8 - 1);
            assert_eq!(face(kind).matches("height=\"13\"").count(), rank);
        }
    }

    #[test]
    fn the_module_has_every_symbol_and_a_template() {
        let module = faces_module();
        for kind in SYMBOLS.chars() {
            assert!(module.contains(&format!("\"{kind}\":\"<svg")), "{kind}");
        }
        assert!(module.contains("export const OTHER = \"<svg"));
        assert!(module.contains("\\u0000"));
    }
}
