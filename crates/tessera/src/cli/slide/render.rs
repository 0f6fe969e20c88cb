//! Text pictures of boards for people.

use slide::{Position, BLANK};

/// A position as an aligned grid, the blank shown as `·`.
pub fn grid(position: &Position) -> String {
    let size = position.size();
    let width = position
        .tiles()
        .iter()
        .max()
        .map_or(1, |t| t.to_string().len());
    let mut out = String::new();
    for y in 0..size.height() {
        out.push_str("  ");
        for x in 0..size.width() {
            let tile = position.tile_at(x, y);
            let text = if tile == BLANK {
                "·".to_string()
            } else {
                tile.to_string()
            };
            out.push_str(&format!("{text:>width$} "));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}
