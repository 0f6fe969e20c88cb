//! The values a request carries, each read into a type that checks it and
//! describes it to the OpenAPI document in one place: the schema beside
//! each type states exactly what its `TryFrom` accepts, so a value the
//! document allows is one the server takes, and a value it forbids is
//! refused (`tests/it/openapi.rs` holds them to it on named cases).
//!
//! Only the canonical spelling of each value is taken (`4x4`, not `4X4`
//! or `4`): the engines' parsers are lenient for the command line, the API
//! is as strict as its schema.

use std::fmt;

use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};

mod ids;
mod people;
mod shisen_sho;
mod sliding;

pub use ids::*;
pub use people::*;
pub use shisen_sho::*;
pub use sliding::*;

/// A value refused at the edge; serde reports it with the JSON pointer of
/// the value (422).
#[derive(Debug)]
pub struct Invalid(String);

impl Invalid {
    pub fn new(message: String) -> Invalid {
        Invalid(message)
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn string(pattern: &str, description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(SchemaType::Type(Type::String))
        .pattern(Some(pattern))
        .description(Some(description))
}

/// The JSON Schema of a body in which `field` holding `when` excludes
/// `other` (any value but null): one case of a request schema's `not`.
pub fn excludes(field: &str, when: serde_json::Value, other: &str) -> serde_json::Value {
    serde_json::json!({
        "required": [field, other],
        "properties": { field: when, other: { "not": { "type": "null" } } },
    })
}
