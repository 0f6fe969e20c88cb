//! Players: an anonymous id kept in a cookie. The first request without one
//! gets a fresh id (set on the response); nothing else identifies a player.

use axum::extract::{FromRequestParts, Request};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;

use super::error::ApiError;

const COOKIE_NAME: &str = "tessera_player";

/// The player making the request.
#[derive(Clone, Debug)]
pub struct Player(pub String);

/// Middleware: finds the player's cookie or issues one.
pub async fn identify(mut request: Request, next: Next) -> Response {
    let known = request
        .headers()
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(cookie_id);
    let fresh = known.is_none();
    let id = known.unwrap_or_else(play::seed::random_id);
    request.extensions_mut().insert(Player(id.clone()));
    let mut response = next.run(request).await;
    if fresh {
        let cookie =
            format!("{COOKIE_NAME}={id}; Path=/; Max-Age=315360000; HttpOnly; SameSite=Lax");
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, value);
        }
    }
    response
}

/// The player id in a `Cookie` header, if well-formed (32 hex digits).
fn cookie_id(header: &str) -> Option<String> {
    header
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE_NAME)
        .map(|(_, value)| value)
        .filter(|v| v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_ascii_lowercase)
}

impl<S: Send + Sync> FromRequestParts<S> for Player {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<Player>()
            .cloned()
            .ok_or_else(|| ApiError::bad("no player"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_only_well_formed_ids() {
        let id = "0123456789abcdef0123456789ABCDEF";
        assert_eq!(
            cookie_id(&format!("a=b; {COOKIE_NAME}={id}")),
            Some(id.to_ascii_lowercase())
        );
        assert_eq!(cookie_id(&format!("{COOKIE_NAME}=xyz")), None);
        assert_eq!(cookie_id("other=1"), None);
        // Fresh ids are always accepted back.
        let fresh = play::seed::random_id();
        assert_eq!(cookie_id(&format!("{COOKIE_NAME}={fresh}")), Some(fresh));
    }
}
