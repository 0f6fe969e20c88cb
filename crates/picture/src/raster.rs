//! SVG to pixels, through resvg.
//!
//! The fonts are DejaVu Sans, built into the binary (the `dejavu` crate),
//! not looked up on the system: a picture then comes out the same, pixel for
//! pixel, on every machine, which is what lets the tests compare it with a
//! committed image.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::Pixmap;
use resvg::usvg;

/// Why a picture could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum RasterError {
    /// The SVG document does not parse.
    #[error("the picture is not valid SVG: {0}")]
    Svg(#[from] usvg::Error),
    /// Width and height past what is drawn in memory.
    #[error("a {0}×{1} picture is too large to draw in memory")]
    TooLarge(u32, u32),
    /// The PNG encoder failed.
    #[error("cannot encode the picture: {0}")]
    Encode(String),
}

/// The largest picture drawn, in pixels (64 M: 256 MB of RGBA).
pub const MAX_PIXELS: u64 = 1 << 26;

/// The parsing options, with the built-in fonts; made once.
fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(dejavu::sans::regular().to_vec());
        db.load_font_data(dejavu::sans::bold().to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        usvg::Options {
            fontdb: Arc::new(db),
            font_family: "DejaVu Sans".into(),
            ..usvg::Options::default()
        }
    })
}

/// The parsed form of an SVG document, ready to draw many times.
pub fn tree(svg: &str) -> Result<usvg::Tree, RasterError> {
    Ok(usvg::Tree::from_str(svg, options())?)
}

/// `svg` drawn at its own size.
pub fn pixmap(svg: &str) -> Result<Pixmap, RasterError> {
    draw(&tree(svg)?)
}

/// A parsed picture drawn at its own size.
pub fn draw(tree: &usvg::Tree) -> Result<Pixmap, RasterError> {
    let size = tree.size().to_int_size();
    let (w, h) = (size.width(), size.height());
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(RasterError::TooLarge(w, h));
    }
    let mut pixmap = Pixmap::new(w, h).ok_or(RasterError::TooLarge(w, h))?;
    resvg::render(
        tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// `svg` as a PNG file.
pub fn png(svg: &str) -> Result<Vec<u8>, RasterError> {
    pixmap(svg)?
        .encode_png()
        .map_err(|e| RasterError::Encode(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_drawn_with_the_built_in_font() {
        // A white square with a black "8": some pixels must be dark, and
        // without a font none would be.
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#fff"/><text x="20" y="30" font-size="30" font-family="sans-serif" text-anchor="middle">8</text></svg>"##;
        let pixmap = pixmap(svg).unwrap();
        let dark = pixmap.pixels().iter().filter(|p| p.red() < 100).count();
        assert!(dark > 30, "{dark} dark pixels");
    }

    #[test]
    fn bad_svg_and_huge_pictures_are_errors() {
        assert!(matches!(pixmap("<svg"), Err(RasterError::Svg(_))));
        let huge = r#"<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="20000"></svg>"#;
        assert!(matches!(pixmap(huge), Err(RasterError::TooLarge(..))));
    }
}
