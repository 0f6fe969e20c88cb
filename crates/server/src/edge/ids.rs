//! The names of things the server made: games, rooms, seeds, variants
//! and days.

use play::seed::MAX_SEED;
use play::GameKind;
use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{ObjectBuilder, SchemaFormat, SchemaType, Type};
use utoipa::openapi::{KnownFormat, RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::{string, Invalid};

/// A game's id: 32 lowercase hex digits, as `new` hands them out.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(try_from = "String", into = "String")]
pub struct GameId(String);

impl GameId {
    pub const PATTERN: &'static str = "^[0-9a-f]{32}$";

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for GameId {
    type Error = Invalid;

    fn try_from(text: String) -> Result<GameId, Invalid> {
        let hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        if text.len() == 32 && text.bytes().all(hex) {
            Ok(GameId(text))
        } else {
            Err(Invalid(format!(
                "bad game id {text:?}: 32 lowercase hex digits"
            )))
        }
    }
}

impl From<GameId> for String {
    fn from(id: GameId) -> String {
        id.0
    }
}

impl PartialSchema for GameId {
    fn schema() -> RefOr<Schema> {
        string(Self::PATTERN, "A game's id, as `new` gave it.")
            .min_length(Some(32))
            .max_length(Some(32))
            .examples([serde_json::json!("0123456789abcdef0123456789abcdef")])
            .into()
    }
}

impl ToSchema for GameId {}

/// A race room's id: 32 lowercase hex digits, as `POST /api/races` hands
/// them out.
#[derive(Clone, Debug)]
pub struct RoomId(String);

impl RoomId {
    pub const PATTERN: &'static str = "^[0-9a-f]{32}$";

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for RoomId {
    type Error = Invalid;

    fn try_from(text: String) -> Result<RoomId, Invalid> {
        let hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        if text.len() == 32 && text.bytes().all(hex) {
            Ok(RoomId(text))
        } else {
            Err(Invalid(format!(
                "bad room id {text:?}: 32 lowercase hex digits"
            )))
        }
    }
}

impl PartialSchema for RoomId {
    fn schema() -> RefOr<Schema> {
        string(
            Self::PATTERN,
            "A race room's id, as `POST /api/races` gave it.",
        )
        .min_length(Some(32))
        .max_length(Some(32))
        .examples([serde_json::json!("0123456789abcdef0123456789abcdef")])
        .into()
    }
}

impl ToSchema for RoomId {}

/// The seed that deals a puzzle: at most 2^53 - 1, so that a JavaScript
/// number holds it exactly (the same range the server draws from). As in
/// JSON Schema's `integer`, a number with a zero fraction (`7.0`) is one.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "serde_json::Number")]
pub struct Seed(pub u64);

impl TryFrom<serde_json::Number> for Seed {
    type Error = Invalid;

    fn try_from(number: serde_json::Number) -> Result<Seed, Invalid> {
        let whole = number.as_u64().or_else(|| {
            let float = number.as_f64()?;
            // Every whole number up to 2^53 is exact as a float.
            (float.fract() == 0.0 && (0.0..=MAX_SEED as f64).contains(&float))
                .then_some(float as u64)
        });
        match whole {
            Some(seed) if seed <= MAX_SEED => Ok(Seed(seed)),
            _ => Err(Invalid(format!(
                "seed {number} is not a whole number from 0 to {MAX_SEED} (2^53 - 1)"
            ))),
        }
    }
}

impl PartialSchema for Seed {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::Integer))
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(0))
            .maximum(Some(MAX_SEED as f64))
            .description(Some(
                "The same seed deals the same puzzle everywhere; 0 to 2^53 - 1.",
            ))
            .into()
    }
}

impl ToSchema for Seed {}

/// A game the server plays (`play::GameKind`), by its name: `slide` or
/// `shisen`. The OpenAPI document calls it `GameKind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(transparent)]
pub struct GameName(pub GameKind);

impl PartialSchema for GameName {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::String))
            .enum_values(Some(GameKind::ALL.map(GameKind::name)))
            .description(Some(
                "A game: `slide` (the sliding puzzle) or `shisen` (Shisen-Sho).",
            ))
            .into()
    }
}

impl ToSchema for GameName {
    fn name() -> std::borrow::Cow<'static, str> {
        "GameKind".into()
    }
}

/// A records table's name: size, goal and rules in letters, digits and
/// dashes (`4x4-row-major`, `18x8-gravity`).
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct Variant(String);

impl Variant {
    const PATTERN: &'static str = "^[A-Za-z0-9-]{1,64}$";

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Variant {
    type Error = Invalid;

    fn try_from(text: String) -> Result<Variant, Invalid> {
        let ok = (1..=64).contains(&text.len())
            && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if ok {
            Ok(Variant(text))
        } else {
            Err(Invalid(format!(
                "bad variant {text:?}: e.g. 4x4-row-major or 18x8-gravity"
            )))
        }
    }
}

impl PartialSchema for Variant {
    fn schema() -> RefOr<Schema> {
        string(Self::PATTERN, "Size, goal and rules, e.g. `4x4-row-major`.")
            .min_length(Some(1))
            .max_length(Some(64))
            .examples([serde_json::json!("4x4-row-major")])
            .into()
    }
}

impl ToSchema for Variant {}

/// A UTC date of the daily challenge, `YYYY-MM-DD`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct DailyDate(pub play::daily::Day);

impl DailyDate {
    const PATTERN: &'static str = "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$";
}

impl TryFrom<String> for DailyDate {
    type Error = Invalid;

    fn try_from(text: String) -> Result<DailyDate, Invalid> {
        text.parse()
            .map(DailyDate)
            .map_err(|e: play::daily::DayError| Invalid(e.to_string()))
    }
}

impl PartialSchema for DailyDate {
    fn schema() -> RefOr<Schema> {
        string(
            Self::PATTERN,
            "A UTC date, `YYYY-MM-DD`, from 1970-01-01 to today: a day of the daily \
             challenge. A date the calendar lacks (`2026-02-30`), or a day still to come, is \
             refused with 400.",
        )
        .examples([serde_json::json!("2026-11-25")])
        .into()
    }
}

impl ToSchema for DailyDate {}
