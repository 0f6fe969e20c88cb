//! A page of a long list (`offset`, `limit`), read at the edge like the
//! values in `edge`: a number out of range is refused with what is
//! accepted, never clamped silently.

// utoipa's `IntoParams` expands to paths the lint calls redundant.
#![allow(unused_qualifications)]

use serde::Deserialize;
use utoipa::openapi::schema::{ObjectBuilder, SchemaFormat, SchemaType, Type};
use utoipa::openapi::{KnownFormat, RefOr, Schema};
use utoipa::IntoParams;
use utoipa::{PartialSchema, ToSchema};

use super::edge::Invalid;

/// The most rows one page lists.
pub const MOST_ROWS: u32 = 100;
/// The furthest a page may start: deep pages are for search, not paging.
pub const FURTHEST: u32 = 100_000;

/// Which part of a ranked list: the players from `offset`, `limit` of
/// them (the rankings, a rating leaderboard).
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// How many players to skip from the top (0 when absent).
    #[param(inline)]
    #[serde(default)]
    pub offset: Option<PageOffset>,
    /// How many players to list (50 when absent).
    #[param(inline)]
    #[serde(default)]
    pub limit: Option<PageLimit>,
}

/// How many rows to skip: 0 to [`FURTHEST`].
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "u32")]
pub struct PageOffset(pub u32);

impl TryFrom<u32> for PageOffset {
    type Error = Invalid;

    fn try_from(n: u32) -> Result<PageOffset, Invalid> {
        if n <= FURTHEST {
            Ok(PageOffset(n))
        } else {
            Err(Invalid::new(format!("offset {n}: 0 to {FURTHEST}")))
        }
    }
}

/// How many rows to list: 1 to [`MOST_ROWS`].
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "u32")]
pub struct PageLimit(pub u32);

impl TryFrom<u32> for PageLimit {
    type Error = Invalid;

    fn try_from(n: u32) -> Result<PageLimit, Invalid> {
        if (1..=MOST_ROWS).contains(&n) {
            Ok(PageLimit(n))
        } else {
            Err(Invalid::new(format!("limit {n}: 1 to {MOST_ROWS}")))
        }
    }
}

fn integer(minimum: u32, maximum: u32, description: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::Type(Type::Integer))
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
        .minimum(Some(f64::from(minimum)))
        .maximum(Some(f64::from(maximum)))
        .description(Some(description))
        .into()
}

impl PartialSchema for PageOffset {
    fn schema() -> RefOr<Schema> {
        integer(0, FURTHEST, "How many rows to skip from the top.")
    }
}

impl ToSchema for PageOffset {}

impl PartialSchema for PageLimit {
    fn schema() -> RefOr<Schema> {
        integer(1, MOST_ROWS, "How many rows to list.")
    }
}

impl ToSchema for PageLimit {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_out_of_range_are_refused_with_what_is_accepted() {
        assert_eq!(PageLimit::try_from(100).unwrap().0, 100);
        let refused = PageLimit::try_from(0).unwrap_err().to_string();
        assert!(refused.contains("1 to 100"), "{refused}");
        assert!(PageLimit::try_from(101).is_err());
        assert_eq!(PageOffset::try_from(0).unwrap().0, 0);
        let refused = PageOffset::try_from(100_001).unwrap_err().to_string();
        assert!(refused.contains("0 to 100000"), "{refused}");
    }
}
