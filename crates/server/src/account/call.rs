//! A handler's call: the app, who asks, and what the call sends, taken
//! by one extractor instead of a list of them in each handler.

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};

use super::Visitor;
use crate::error::ApiError;
use crate::player::Player;
use crate::App;

/// A call: the app; who asks, as the browser's player and as a visitor
/// (signed in or not); and the call's input `I`, read by the extractor
/// that reads it (a JSON [`Body`](crate::error::Body), the query's
/// [`Params`](crate::error::Params), an [`axum::extract::Path`]) and
/// refused as that extractor refuses it. A handler takes it as
/// `call: Call<Body<T>>` and names what it uses:
/// `let Call(app, player, _, Body(request)) = call;`.
pub struct Call<I>(pub App, pub Player, pub Visitor, pub I);

impl Call<()> {
    /// Who asks. The middleware in front of every route puts both the
    /// player and the visitor on the request, so neither is refused here.
    async fn asked(parts: &mut Parts, app: &App) -> Result<Self, ApiError> {
        let player = Player::from_request_parts(parts, app).await?;
        let visitor = Visitor::from_request_parts(parts, app).await?;
        Ok(Call(app.clone(), player, visitor, ()))
    }

    /// The same call, with its input.
    fn with<I>(self, input: I) -> Call<I> {
        let Call(app, player, visitor, ()) = self;
        Call(app, player, visitor, input)
    }
}

/// An input read from the request's body (the last extractor).
impl<I: FromRequest<App>> FromRequest<App> for Call<I> {
    type Rejection = Response;

    async fn from_request(request: Request, app: &App) -> Result<Self, Response> {
        let (mut parts, body) = request.into_parts();
        let call = Call::asked(&mut parts, app).await;
        let call = call.map_err(IntoResponse::into_response)?;
        let input = I::from_request(Request::from_parts(parts, body), app).await;
        Ok(call.with(input.map_err(IntoResponse::into_response)?))
    }
}

/// An input read from the request's head: its path or query.
impl<I: FromRequestParts<App>> FromRequestParts<App> for Call<I> {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Response> {
        let call = Call::asked(parts, app).await;
        let call = call.map_err(IntoResponse::into_response)?;
        let input = I::from_request_parts(parts, app).await;
        Ok(call.with(input.map_err(IntoResponse::into_response)?))
    }
}
