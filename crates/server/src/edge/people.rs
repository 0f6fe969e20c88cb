//! What a player says of themselves: a display name and a country.

use play::limits::NAME_CHARS;
use serde::Deserialize;
use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::{string, Invalid};

/// A player's display name: at most 24 characters, none of them control
/// characters; blanks around it are dropped, and an empty name is
/// anonymous.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "String")]
pub struct DisplayName(String);

impl DisplayName {
    const PATTERN: &'static str = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$";

    /// The name to show, `None` for anonymous.
    pub fn shown(&self) -> Option<&str> {
        let name = self.0.trim();
        (!name.is_empty()).then_some(name)
    }
}

impl TryFrom<String> for DisplayName {
    type Error = Invalid;

    fn try_from(text: String) -> Result<DisplayName, Invalid> {
        if text.chars().count() > NAME_CHARS {
            return Err(Invalid(format!(
                "name too long: at most {NAME_CHARS} characters"
            )));
        }
        if text.chars().any(char::is_control) {
            return Err(Invalid("name must not contain control characters".into()));
        }
        Ok(DisplayName(text))
    }
}

impl PartialSchema for DisplayName {
    fn schema() -> RefOr<Schema> {
        string(
            Self::PATTERN,
            "At most 24 characters, no control characters; blanks around it are \
             dropped; empty for anonymous.",
        )
        .max_length(Some(NAME_CHARS))
        .examples([serde_json::json!("Ada")])
        .into()
    }
}

impl ToSchema for DisplayName {}

/// The officially assigned ISO 3166-1 alpha-2 codes, one a line, in the
/// file that names their source (an operator updates it there).
const COUNTRY_CODES: &str = include_str!("../../data/iso-3166-1-alpha-2.txt");

/// The codes of [`COUNTRY_CODES`], in its order.
fn country_codes() -> impl Iterator<Item = &'static str> {
    COUNTRY_CODES
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
}

/// A country: an officially assigned ISO 3166-1 alpha-2 code (`NL`).
#[derive(Clone, Copy, Debug)]
pub struct Country(&'static str);

impl Country {
    /// `text` as a country; an error saying what is accepted otherwise.
    pub fn parse(text: &str) -> Result<Country, Invalid> {
        country_codes()
            .find(|code| *code == text)
            .map(Country)
            .ok_or_else(|| {
                Invalid(format!(
                    "country must be an assigned ISO 3166-1 alpha-2 code, two capital letters \
                 (NL, JP, BR, …), or null for none; {text:?} is not one"
                ))
            })
    }

    pub fn code(self) -> &'static str {
        self.0
    }
}

impl PartialSchema for Country {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::String))
            .enum_values(Some(country_codes()))
            .description(Some(
                "An officially assigned ISO 3166-1 alpha-2 country code, in capitals.",
            ))
            .examples([serde_json::json!("NL")])
            .into()
    }
}

impl ToSchema for Country {}
