//! Errors as the client sees them: a status and `{"error": "…"}`.
//!
//! Every bad input becomes a 4xx with a message that says what to fix;
//! database trouble is a 500 whose details go to the server's log only.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::json;

/// A failed request.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
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
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<sqlx::Error> for ApiError {
    /// A database that cannot be reached (pool exhausted or closed, the
    /// connection lost) is 503, worth retrying; anything else is 500.
    fn from(error: sqlx::Error) -> ApiError {
        let (kind, status) = match &error {
            sqlx::Error::PoolTimedOut => ("pool_timed_out", StatusCode::SERVICE_UNAVAILABLE),
            sqlx::Error::PoolClosed => ("pool_closed", StatusCode::SERVICE_UNAVAILABLE),
            sqlx::Error::Io(_) | sqlx::Error::Tls(_) => {
                ("connection", StatusCode::SERVICE_UNAVAILABLE)
            }
            _ => ("query", StatusCode::INTERNAL_SERVER_ERROR),
        };
        metrics::counter!("tessera_db_errors_total", "kind" => kind).increment(1);
        tracing::error!(error = %error, kind, "database error");
        let message = if status == StatusCode::SERVICE_UNAVAILABLE {
            "the database is unavailable: try again"
        } else {
            "database error"
        };
        ApiError::new(status, message)
    }
}

impl From<crate::store::FinishError> for ApiError {
    fn from(error: crate::store::FinishError) -> ApiError {
        match error {
            crate::store::FinishError::AlreadyFinished => {
                ApiError::conflict("this game was already submitted")
            }
            crate::store::FinishError::Db(e) => e.into(),
        }
    }
}

/// A JSON body whose rejection (bad syntax, wrong fields, too large) is an
/// [`ApiError`] with serde's message.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    let status = rejection.status();
    let message = match rejection {
        JsonRejection::JsonDataError(e) => format!("invalid request: {}", detail(&e.body_text())),
        JsonRejection::JsonSyntaxError(e) => format!("malformed JSON: {}", detail(&e.body_text())),
        JsonRejection::MissingJsonContentType(_) => {
            "expected a JSON body with Content-Type: application/json".to_string()
        }
        other => other.body_text(),
    };
    ApiError::new(status, message)
}

/// serde's message without axum's preamble.
fn detail(text: &str) -> &str {
    text.rsplit_once("body: ")
        .or_else(|| text.split_once("type: "))
        .map_or(text, |(_, rest)| rest)
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
