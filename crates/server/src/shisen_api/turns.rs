//! Turns as the client sends them, read and checked against the board.

use play::limits::{SUBMITTED_TURNS, WEB_SHISEN_HEIGHT, WEB_SHISEN_WIDTH};
use play::shisen_game::Turn;
use serde::{Deserialize, Serialize};
use shisen::{Point, Size};

use crate::error::ApiError;
use utoipa::ToSchema;

/// The turns of a request, each point checked against the board's size.
pub(crate) fn read_turns(turns: &[TurnJson], size: Size) -> Result<Vec<Turn>, ApiError> {
    if turns.len() > SUBMITTED_TURNS {
        return Err(ApiError::bad(format!(
            "too many turns: at most {SUBMITTED_TURNS}"
        )));
    }
    let inside = |i: usize, x: i64, y: i64| {
        let ok = (0..size.width() as i64).contains(&x) && (0..size.height() as i64).contains(&y);
        ok.then(|| Point::new(x as i32, y as i32)).ok_or_else(|| {
            ApiError::bad(format!(
                "turn {}: point [{x}, {y}] is off the {size} board",
                i + 1
            ))
            .at(format!("/turns/{i}"))
        })
    };
    turns
        .iter()
        .enumerate()
        .map(|(i, turn)| match *turn {
            TurnJson::Remove([x1, y1, x2, y2]) => {
                Ok(Turn::Remove(inside(i, x1, y1)?, inside(i, x2, y2)?))
            }
            TurnJson::Word(Word::Shuffle) => Ok(Turn::Shuffle),
            TurnJson::Word(Word::Undo) => Ok(Turn::Undo),
            TurnJson::Word(Word::Redo) => Ok(Turn::Redo),
        })
        .collect()
}

/// A turn of the request that cannot be played: 400, pointing at it.
pub(crate) fn illegal_turn(e: play::shisen_game::ReplayError) -> ApiError {
    ApiError::bad(format!("illegal turn {}: {}", e.turn, e.reason))
        .at(format!("/turns/{}", e.turn.saturating_sub(1)))
}

/// One turn as the client sends it: a removal `[x1, y1, x2, y2]`, or a
/// word.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(untagged)]
pub enum TurnJson {
    Remove([i64; 4]),
    Word(Word),
}

/// Written by hand: a removal is exactly four coordinates, each on the
/// largest board the web deals, which the derived schema does not say.
impl utoipa::PartialSchema for TurnJson {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
        use utoipa::openapi::{KnownFormat, SchemaFormat};
        let coordinate = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(0))
            .maximum(Some(WEB_SHISEN_WIDTH.max(WEB_SHISEN_HEIGHT) - 1));
        let removal = ArrayBuilder::new()
            .items(coordinate)
            .min_items(Some(4))
            .max_items(Some(4))
            .description(Some("A removal: the two tiles' points, x1, y1, x2, y2."));
        OneOfBuilder::new()
            .item(removal)
            .item(utoipa::openapi::Ref::from_schema_name("Word"))
            .description(Some(
                "One turn as the client sends it: a removal `[x1, y1, x2, y2]`, or a word.",
            ))
            .into()
    }
}

impl ToSchema for TurnJson {
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>) {
        schemas.push((
            Word::name().into(),
            <Word as utoipa::PartialSchema>::schema(),
        ));
        <Word as ToSchema>::schemas(schemas);
    }
}

/// Read by hand: serde's untagged enums refuse a bad turn with
/// "data did not match any variant of untagged enum TurnJson", which
/// names an internal type and not what a turn may be.
impl<'de> Deserialize<'de> for TurnJson {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TurnVisitor)
    }
}

struct TurnVisitor;

const TURN_FORMS: &str = r#"a turn is [x1, y1, x2, y2], "shuffle", "undo" or "redo""#;

impl<'de> serde::de::Visitor<'de> for TurnVisitor {
    type Value = TurnJson;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(TURN_FORMS)
    }

    fn visit_str<E: serde::de::Error>(self, word: &str) -> Result<TurnJson, E> {
        match word {
            "shuffle" => Ok(TurnJson::Word(Word::Shuffle)),
            "undo" => Ok(TurnJson::Word(Word::Undo)),
            "redo" => Ok(TurnJson::Word(Word::Redo)),
            _ => Err(E::custom(format!("unknown turn {word:?}: {TURN_FORMS}"))),
        }
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<TurnJson, A::Error> {
        use serde::de::Error;
        let mut cells = [0i64; 4];
        for (i, cell) in cells.iter_mut().enumerate() {
            *cell = seq
                .next_element()?
                .ok_or_else(|| A::Error::invalid_length(i, &self))?;
        }
        if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            return Err(A::Error::invalid_length(5, &self));
        }
        Ok(TurnJson::Remove(cells))
    }
}

/// A turn that removes nothing.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Word {
    Shuffle,
    Undo,
    Redo,
}
