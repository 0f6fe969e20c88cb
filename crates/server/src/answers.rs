//! Submissions answered once. A page that loses a submission's answer
//! (the network gone, the server restarting) sends the same submission
//! again: it gets the answer it would have read, and nothing is recorded
//! twice. A submission's body is read with its digest ([`Signed`]); the
//! answer is kept with the digest in the transaction that records the
//! submission (`store::Answer`); a later submission for the same thing
//! with the same digest is answered from there ([`Reply::Before`]),
//! another one is refused as before (409).

use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest as _, Sha256};
use store::{Answer, Answered};

use super::error::{json_document, read_document, ApiError};
use super::App;

/// A JSON body read into `T` (refused as `Body` refuses), with the
/// digest of what it says.
pub struct Signed<T>(pub T, pub Digest);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Signed<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let document = json_document(req, state).await?;
        let digest = Digest::of(&document);
        read_document(document).map(|body| Signed(body, digest))
    }
}

/// What a submission says, as a hash: the same for the same document
/// whatever the order of its members, their spacing, or members sent as
/// `null` (absent to the server).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digest(String);

impl Digest {
    /// The digest of `document`.
    pub fn of(document: &Value) -> Digest {
        let mut hasher = Sha256::new();
        canonical(document, &mut hasher);
        let hash = hasher.finalize();
        Digest(hash.iter().map(|b| format!("{b:02x}")).collect())
    }
}

/// Feeds `value` to `hasher` as canonical JSON: members sorted by name,
/// nulls left out, no spaces.
fn canonical(value: &Value, hasher: &mut Sha256) {
    match value {
        Value::Object(members) => {
            let mut members: Vec<_> = members.iter().filter(|(_, v)| !v.is_null()).collect();
            members.sort_by(|a, b| a.0.cmp(b.0));
            hasher.update(b"{");
            for (i, (name, member)) in members.into_iter().enumerate() {
                if i > 0 {
                    hasher.update(b",");
                }
                hasher.update(Value::String(name.clone()).to_string().as_bytes());
                hasher.update(b":");
                canonical(member, hasher);
            }
            hasher.update(b"}");
        }
        Value::Array(items) => {
            hasher.update(b"[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    hasher.update(b",");
                }
                canonical(item, hasher);
            }
            hasher.update(b"]");
        }
        other => hasher.update(other.to_string().as_bytes()),
    }
}

/// An answer to a submission: given now, or kept from when the same
/// submission was first answered (its JSON, as sent then).
pub enum Reply<T> {
    Now(T),
    Before(String),
}

impl<T> Reply<T> {
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Reply<U> {
        match self {
            Reply::Now(answer) => Reply::Now(f(answer)),
            Reply::Before(body) => Reply::Before(body),
        }
    }
}

impl<T: Serialize> IntoResponse for Reply<T> {
    fn into_response(self) -> Response {
        match self {
            Reply::Now(answer) => Json(answer).into_response(),
            Reply::Before(body) => {
                let json = HeaderValue::from_static("application/json");
                (StatusCode::OK, [(CONTENT_TYPE, json)], body).into_response()
            }
        }
    }
}

/// `answer` as kept for a submission with `digest`.
pub fn kept<T: Serialize>(answer: &T, digest: &Digest) -> Result<Answer, ApiError> {
    let body = serde_json::to_string(answer).map_err(|e| {
        tracing::error!(error = %e, "answer not written");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "answer not written")
    })?;
    Ok(Answer {
        digest: digest.0.clone(),
        body,
    })
}

/// The answer kept for `what` `id` if the submission with `digest` was
/// the one it answered; `refusal` if another submission was.
pub async fn answered_before(
    app: &App,
    what: Answered,
    id: &str,
    digest: &Digest,
    refusal: impl FnOnce() -> ApiError,
) -> Result<String, ApiError> {
    match app.store.answer(what, id).await? {
        Some(answer) if answer.digest == digest.0 => Ok(answer.body),
        _ => Err(refusal()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_digest_reads_what_a_document_says() {
        let one = json!({"game": "g", "moves": "R3U", "times": [1, 2, 3, 4], "inputs": null});
        let same =
            serde_json::from_str::<Value>(r#"{ "times": [1,2,3,4], "moves": "R3U", "game": "g" }"#)
                .unwrap();
        assert_eq!(Digest::of(&one), Digest::of(&same));
        let other = json!({"game": "g", "moves": "R3U", "times": [1, 2, 3, 5]});
        assert_ne!(Digest::of(&one), Digest::of(&other));
        let nested = json!({"puzzles": [{"moves": "R", "times": [1]}]});
        let reordered = json!({"puzzles": [{"times": [1], "moves": "R"}]});
        assert_eq!(Digest::of(&nested), Digest::of(&reordered));
        assert_ne!(Digest::of(&json!({"a": "1"})), Digest::of(&json!({"a": 1})));
        assert_eq!(Digest::of(&one).0.len(), 64);
    }
}
