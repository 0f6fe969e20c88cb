//! Errors as the client sees them: a status and `{"error": "…"}`.
//!
//! Every bad input becomes a 4xx with a message that says what to fix and,
//! for a request body, a JSON pointer to the value at fault; database
//! trouble is a 500, or a 503 that names the cause (a full disk, a database
//! unreachable or busy) with `Retry-After`; the details go to the server's
//! log only.

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header::{CONTENT_TYPE, RETRY_AFTER};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;
use utoipa::{IntoResponses, ToSchema};

/// A failed request.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// The JSON pointer (RFC 6901) of the request body's value at fault.
    pub pointer: Option<String>,
    /// Seconds after which the client may try again (`Retry-After`).
    pub retry_after: Option<u64>,
}

/// What every error response carries.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong and how to fix it.
    error: String,
    /// Where in the request body, as a JSON pointer (`/turns/3`); `""` is
    /// the whole body. Absent when the fault is not in one value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer: Option<String>,
}

impl ApiError {
    /// The client's input is wrong (400).
    pub fn bad(message: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(message: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    pub fn conflict(message: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    pub fn new(status: StatusCode, message: impl std::fmt::Display) -> ApiError {
        ApiError {
            status,
            message: message.to_string(),
            pointer: None,
            retry_after: None,
        }
    }

    /// The server cannot serve this now (503): worth trying again after
    /// `retry_after` seconds.
    pub fn unavailable(message: impl std::fmt::Display, retry_after: u64) -> ApiError {
        let mut error = ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message);
        error.retry_after = Some(retry_after);
        error
    }

    /// The same error, pointing at the body's value at `pointer`.
    pub fn at(mut self, pointer: impl Into<String>) -> ApiError {
        self.pointer = Some(pointer.into());
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.message,
            pointer: self.pointer,
        };
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            let value = axum::http::HeaderValue::from(seconds);
            response.headers_mut().insert(RETRY_AFTER, value);
        }
        response
    }
}

impl From<store::Error> for ApiError {
    /// A fault of the server's state (a full disk, a database that cannot
    /// be reached or is busy) is a 503 naming the cause, with when to try
    /// again; a fault of the query is a 500. The details go to the log.
    fn from(error: store::Error) -> ApiError {
        use store::Fault;
        let fault = error.fault();
        metrics::counter!("tessera_db_errors_total", "kind" => fault.label()).increment(1);
        tracing::error!(error = %error, kind = fault.label(), "database error");
        match fault {
            Fault::DiskFull => ApiError::unavailable(
                "the database's disk is full: nothing was recorded; try again later",
                30,
            ),
            Fault::Storage => ApiError::unavailable(
                "the database's storage fails to write: nothing was recorded; try again later",
                30,
            ),
            Fault::Unavailable => {
                ApiError::unavailable("the database is unavailable: try again", 2)
            }
            Fault::Busy => ApiError::unavailable("the database is busy: try again", 1),
            Fault::Query => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "database error"),
        }
    }
}

impl From<store::FinishError> for ApiError {
    fn from(error: store::FinishError) -> ApiError {
        match error {
            store::FinishError::AlreadyFinished => {
                ApiError::conflict("this game was already submitted")
            }
            store::FinishError::Db(e) => e.into(),
        }
    }
}

// The error responses, in sets for the OpenAPI document (`openapi`).

/// The errors of a JSON request body.
#[derive(IntoResponses)]
#[allow(dead_code)] // Documentation only: `ApiError` builds the responses.
pub enum BodyErrors {
    /// A value is wrong, or the body is not JSON (the message says where:
    /// line and column).
    #[response(status = 400)]
    BadRequest(ErrorBody),
    /// The body is larger than the server takes.
    #[response(status = 413)]
    TooLarge(ErrorBody),
    /// The body is not sent as `application/json`.
    #[response(status = 415)]
    NotJson(ErrorBody),
    /// The body is JSON of the wrong shape: a missing, unknown or mistyped
    /// field, or a value its schema does not allow (`pointer` says which).
    #[response(status = 422)]
    WrongShape(ErrorBody),
}

/// The errors of query parameters.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum QueryErrors {
    /// A parameter is missing, unknown or wrong.
    #[response(status = 400)]
    BadRequest(ErrorBody),
}

/// The errors of a request about a game issued earlier.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum GameErrors {
    /// No open game of this kind with this id for this player.
    #[response(status = 404)]
    NoSuchGame(ErrorBody),
    /// The game was already submitted.
    #[response(status = 409)]
    Finished(ErrorBody),
}

/// A solver that declines the work.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum Refused {
    /// The board is too large for a solution within the server's budget.
    #[response(status = 422)]
    TooLarge(ErrorBody),
}

/// The per-client limit of the solver endpoints.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum Limited {
    /// Too many solver requests: `Retry-After` says when to try again.
    #[response(status = 429)]
    TooMany(ErrorBody),
}

/// What any request can meet on the server's side.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum Always {
    /// The server's own fault; the details are in its log.
    #[response(status = 500)]
    Internal(ErrorBody),
    /// The database or an engine did not answer in time: try again.
    #[response(status = 503)]
    Unavailable(ErrorBody),
}

/// A JSON body, read into `T`. Its rejection is an [`ApiError`]: 415
/// without a JSON content type, 413 over the size limit, 400 for bad
/// syntax (with line and column), 422 for a value of the wrong shape (with
/// the JSON pointer of the value).
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let document = json_document(req, state).await?;
        read_document(document).map(Body)
    }
}

/// A request's JSON body as a document (an object), refused as [`Body`]
/// says.
pub async fn json_document<S: Send + Sync>(
    req: Request,
    state: &S,
) -> Result<serde_json::Value, ApiError> {
    if !is_json(&req) {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "expected a JSON body with Content-Type: application/json",
        ));
    }
    let bytes = Bytes::from_request(req, state)
        .await
        .map_err(|rejection| ApiError::new(rejection.status(), rejection.body_text()))?;
    parse_document(&bytes)
}

/// Whether the request says its body is JSON (`application/json` or a
/// `+json` type).
fn is_json(req: &Request) -> bool {
    let Some(Ok(kind)) = req.headers().get(CONTENT_TYPE).map(|v| v.to_str()) else {
        return false;
    };
    let essence = kind.split(';').next().unwrap_or("").trim();
    let Some((top, sub)) = essence.split_once('/') else {
        return false;
    };
    top.eq_ignore_ascii_case("application")
        && (sub.eq_ignore_ascii_case("json") || sub.to_ascii_lowercase().ends_with("+json"))
}

/// Parses a request's JSON document. Every request body is an object:
/// serde would also read a struct from an array of its fields, which no
/// schema of the API allows.
fn parse_document(bytes: &[u8]) -> Result<serde_json::Value, ApiError> {
    let mut document: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| malformed(&e))?;
    if !document.is_object() {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid request: expected a JSON object",
        )
        .at(""));
    }
    whole_numbers(&mut document);
    Ok(document)
}

/// Reads a parsed document into `T`, saying where it went wrong.
pub fn read_document<T: DeserializeOwned>(document: serde_json::Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(&document).map_err(|error| {
        let pointer = pointer(error.path());
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("invalid request: {}", error.into_inner()),
        )
        .at(pointer)
    })
}

/// Numbers written with a zero fraction (`7.0`) as the integers they are:
/// JSON Schema's `integer`, which the document gives every number a
/// request carries, counts them as integers, so the server does too.
fn whole_numbers(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Number(number) if number.is_f64() => {
            let float = number.as_f64().unwrap_or(f64::NAN);
            let two_63 = 9_223_372_036_854_775_808.0;
            if float.fract() != 0.0 {
                return;
            }
            if (-two_63..two_63).contains(&float) {
                *number = (float as i64).into();
            } else if (two_63..2.0 * two_63).contains(&float) {
                *number = (float as u64).into();
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers),
        Value::Object(fields) => fields.values_mut().for_each(whole_numbers),
        _ => {}
    }
}

fn malformed(error: &serde_json::Error) -> ApiError {
    ApiError::bad(format!("malformed JSON: {error}"))
}

/// A serde path as an RFC 6901 JSON pointer: `/turns/3`, `""` for the root.
fn pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        pointer.push('/');
        match segment {
            Segment::Seq { index } => pointer.push_str(&index.to_string()),
            Segment::Map { key } => pointer.push_str(&key.replace('~', "~0").replace('/', "~1")),
            Segment::Enum { variant } => {
                pointer.push_str(&variant.replace('~', "~0").replace('/', "~1"));
            }
            Segment::Unknown => pointer.push('-'),
        }
    }
    pointer
}

/// Query parameters whose rejection is an [`ApiError`].
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(Params(value)),
            Err(rejection) => Err(query_rejection(rejection)),
        }
    }
}

fn query_rejection(rejection: QueryRejection) -> ApiError {
    let text = rejection.body_text();
    let text = text
        .split_once("string: ")
        .map_or(text.as_str(), |(_, rest)| rest);
    ApiError::bad(format!("invalid query: {text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body read as `Body` reads it.
    fn read_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
        read_document(parse_document(bytes)?)
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Shape {
        name: String,
        #[serde(default)]
        times: Vec<u32>,
        #[serde(default)]
        inner: Option<Inner>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Inner {
        #[serde(rename = "a/b")]
        odd: bool,
    }

    fn fault(text: &str) -> ApiError {
        read_json::<Shape>(text.as_bytes()).unwrap_err()
    }

    #[test]
    fn wrong_values_are_pointed_at() {
        let e = fault(r#"{"name": "x", "times": [1, 2, -3]}"#);
        assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(e.pointer.as_deref(), Some("/times/2"));
        assert!(
            e.message.contains("invalid value: integer `-3`"),
            "{}",
            e.message
        );
        let e = fault(r#"{"name": "x", "inner": {"a/b": 1}}"#);
        assert_eq!(e.pointer.as_deref(), Some("/inner/a~1b"));
        let e = fault(r#"{"times": []}"#);
        assert_eq!(e.pointer.as_deref(), Some(""));
        assert!(e.message.contains("missing field `name`"), "{}", e.message);
        let e = fault(r#"{"name": "x", "colour": 1}"#);
        assert!(
            e.message.contains("unknown field `colour`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn bad_syntax_says_line_and_column() {
        let e = fault("{\n  \"name\": \"x\",\n  oops\n}");
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert!(e.message.contains("line 3 column 3"), "{}", e.message);
        assert_eq!(e.pointer, None);
        let e = fault(r#"{"name": "x"} trailing"#);
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        // Whole numbers may be written with a zero fraction, as JSON Schema
        // counts them; other fractions are not integers.
        let shape: Shape = read_json(br#"{"name": "x", "times": [1.0, 2, 3e2]}"#).unwrap();
        assert_eq!(shape.times, [1, 2, 300]);
        let e = fault(r#"{"name": "x", "times": [1.5]}"#);
        assert_eq!(e.pointer.as_deref(), Some("/times/0"));
        assert!(e.message.contains("floating point"), "{}", e.message);
        let e = fault(r#"["x", [1]]"#);
        assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(e.pointer.as_deref(), Some(""));
        assert_eq!(fault("[1, oops").status, StatusCode::BAD_REQUEST);
    }
}
