//! Shisen-Sho's values, and the sizes a race takes.

use play::limits::RACE_SLIDE_SIDES;
use serde::Deserialize;
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::sliding::SlideSize;
use super::{string, Invalid};

/// A Shisen-Sho board size by kshisen's name.
#[derive(Clone, Copy, Debug, Deserialize, ToSchema)]
pub enum Preset {
    #[serde(rename = "14x6")]
    P14x6,
    #[serde(rename = "16x9")]
    P16x9,
    #[serde(rename = "18x8")]
    P18x8,
    #[serde(rename = "24x12")]
    P24x12,
    #[serde(rename = "26x14")]
    P26x14,
    #[serde(rename = "30x16")]
    P30x16,
    /// 14x6.
    #[serde(rename = "small")]
    Small,
    /// 18x8.
    #[serde(rename = "medium")]
    Medium,
    /// 24x12.
    #[serde(rename = "large")]
    Large,
    /// 18x8.
    #[serde(rename = "default")]
    Default,
}

impl Preset {
    pub fn size(self) -> shisen::Size {
        let (w, h) = match self {
            Preset::P14x6 | Preset::Small => (14, 6),
            Preset::P16x9 => (16, 9),
            Preset::P18x8 | Preset::Medium | Preset::Default => (18, 8),
            Preset::P24x12 | Preset::Large => (24, 12),
            Preset::P26x14 => (26, 14),
            Preset::P30x16 => (30, 16),
        };
        shisen::Size::new(w, h).expect("presets are sizes")
    }
}

/// A custom Shisen-Sho size: `WxH`, at most 40x24, with an even number of
/// cells (tiles go in pairs).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct ShisenSize(pub shisen::Size);

impl ShisenSize {
    /// An even width with any height, or any width with an even height.
    const PATTERN: &'static str = "^(([2468]|[1-3][02468]|40)x([1-9]|1[0-9]|2[0-4])|([1-9]|[1-3][0-9]|40)x([2468]|1[02468]|2[024]))$";
}

impl TryFrom<String> for ShisenSize {
    type Error = Invalid;

    fn try_from(text: String) -> Result<ShisenSize, Invalid> {
        use play::limits::{WEB_SHISEN_HEIGHT, WEB_SHISEN_WIDTH};
        let refused = || Invalid(format!("bad size {text:?}: WxH, e.g. 18x8"));
        let size: shisen::Size = text.parse().map_err(|_| refused())?;
        if size.to_string() != text {
            return Err(refused());
        }
        if size.width() > WEB_SHISEN_WIDTH || size.height() > WEB_SHISEN_HEIGHT {
            return Err(Invalid(format!(
                "board {size} is too large: at most {WEB_SHISEN_WIDTH}x{WEB_SHISEN_HEIGHT}"
            )));
        }
        if size.cells() % 2 == 1 {
            return Err(Invalid(format!(
                "board {size} has an odd number of cells: tiles go in pairs"
            )));
        }
        Ok(ShisenSize(size))
    }
}

impl PartialSchema for ShisenSize {
    fn schema() -> RefOr<Schema> {
        string(
            Self::PATTERN,
            "A custom size `WxH`, at most 40x24, with an even number of cells.",
        )
        .examples([serde_json::json!("8x4")])
        .into()
    }
}

impl ToSchema for ShisenSize {}

/// A race's size, read by its game: a sliding puzzle's [`SlideSize`], or
/// a Shisen-Sho custom [`ShisenSize`]. The schema allows either; which one
/// holds is the request's to say.
#[derive(Clone, Debug, Deserialize)]
#[serde(transparent)]
pub struct RaceSize(String);

impl RaceSize {
    /// As a sliding puzzle's size (a race's: sides 3 to 10).
    pub fn slide(&self) -> Result<SlideSize, Invalid> {
        SlideSize::within(&self.0, &RACE_SLIDE_SIDES)
    }

    /// As a Shisen-Sho custom size.
    pub fn shisen(&self) -> Result<ShisenSize, Invalid> {
        ShisenSize::try_from(self.0.clone())
    }

    /// The pattern of a sliding puzzle's size in a race.
    pub const SLIDE_PATTERN: &'static str = "^([3-9]|10)x([3-9]|10)$";
    /// The pattern of a Shisen-Sho custom size.
    pub const SHISEN_PATTERN: &'static str = ShisenSize::PATTERN;
}

impl PartialSchema for RaceSize {
    fn schema() -> RefOr<Schema> {
        let either = format!("{}|{}", Self::SLIDE_PATTERN, ShisenSize::PATTERN);
        string(
            &either,
            "`WxH`: for a sliding puzzle each side from 3 to 10 cells; for Shisen-Sho a custom size, at most 40x24, with an even number of cells.",
        )
        .examples([serde_json::json!("3x3")])
        .into()
    }
}

impl ToSchema for RaceSize {}
