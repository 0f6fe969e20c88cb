//! The picture of a picture puzzle: an image file the user names, checked
//! at the edge and carried into the SVG as a data URI, so the drawing is
//! one self-contained file.

use std::sync::Arc;

use base64::Engine as _;

/// The largest image accepted: a photo from a phone is a few megabytes.
pub const MAX_BYTES: usize = 20 << 20;

/// A picture to cut into tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// `data:<type>;base64,…`
    href: Arc<str>,
}

/// Why a file is not a usable picture.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ImageError {
    /// No bytes at all.
    #[error("the picture is empty")]
    Empty,
    /// More bytes than a picture may have.
    #[error("the picture is {0} bytes; at most {MAX_BYTES} are accepted")]
    TooLarge(usize),
    /// Bytes of no kind of picture that is read.
    #[error("the picture is not a PNG, JPEG, GIF, WebP or SVG file")]
    UnknownKind,
}

impl Image {
    /// The picture in `bytes`, recognised by its first bytes rather than
    /// its name.
    pub fn from_bytes(bytes: &[u8]) -> Result<Image, ImageError> {
        if bytes.is_empty() {
            return Err(ImageError::Empty);
        }
        if bytes.len() > MAX_BYTES {
            return Err(ImageError::TooLarge(bytes.len()));
        }
        let kind = kind_of(bytes).ok_or(ImageError::UnknownKind)?;
        let data = base64::engine::general_purpose::STANDARD.encode(bytes);
        Ok(Image {
            href: format!("data:{kind};base64,{data}").into(),
        })
    }

    /// The data URI.
    pub fn href(&self) -> &str {
        &self.href
    }
}

/// The media type of an image file, by its signature.
fn kind_of(bytes: &[u8]) -> Option<&'static str> {
    const SIGNATURES: [(&[u8], &str); 5] = [
        (b"\x89PNG\r\n\x1a\n", "image/png"),
        (b"\xff\xd8\xff", "image/jpeg"),
        (b"GIF87a", "image/gif"),
        (b"GIF89a", "image/gif"),
        (b"RIFF", "image/webp"),
    ];
    if let Some((_, kind)) = SIGNATURES.iter().find(|(s, _)| bytes.starts_with(s)) {
        return Some(kind);
    }
    // SVG is text: an <svg element near the start, after any prolog.
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
    head.contains("<svg").then_some("image/svg+xml")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_known_by_their_signature() {
        let png = Image::from_bytes(b"\x89PNG\r\n\x1a\n....").unwrap();
        assert!(png.href().starts_with("data:image/png;base64,iVBORw0KGgo"));
        let svg = Image::from_bytes(
            b"<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
        )
        .unwrap();
        assert!(svg.href().starts_with("data:image/svg+xml;base64,"));
        assert_eq!(Image::from_bytes(b""), Err(ImageError::Empty));
        assert_eq!(Image::from_bytes(b"hello"), Err(ImageError::UnknownKind));
        let huge = vec![0xffu8; MAX_BYTES + 1];
        assert_eq!(
            Image::from_bytes(&huge),
            Err(ImageError::TooLarge(MAX_BYTES + 1))
        );
    }
}
