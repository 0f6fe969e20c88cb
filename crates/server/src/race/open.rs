//! Opening a room: `POST /api/races` reads the game to race, checks it
//! (a Shisen-Sho deal is dealt once within the engine's budget), and
//! opens a room for it; a rematch draws the seed of the room's next
//! round.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use play::race::{Deal, Phase, RaceSpec, RacerName, ShisenDeal};
use play::seed::random_seed;
use play::slide_game::{GoalChoice, SlideSpec};
use serde::{Deserialize, Serialize};
use slide::Goal;
use utoipa::ToSchema;

use super::rooms::{Paired, Room, Step, StepError};
use crate::edge::{GoalName, Preset, RaceSize, RoomId};
use crate::error::{Always, ApiError, Body, BodyErrors, Limited};
use crate::shisen_api::deal_error;
use crate::App;
use play::shisen_game::DealError;

/// A race to open: `{"game": "slide", "size", "goal"}` or
/// `{"game": "shisen", "preset" or "size", "gravity", "chinese",
/// "solvable"}`.
#[derive(Deserialize, ToSchema)]
#[schema(as = RaceNewRequest)]
#[serde(deny_unknown_fields)]
pub struct NewRequest {
    game: RaceGameName,
    /// A sliding puzzle's size (required); for Shisen-Sho, a custom size
    /// instead of a preset.
    #[serde(default)]
    size: Option<RaceSize>,
    /// Sliding puzzle: `row-major` when absent.
    #[serde(default)]
    goal: Option<GoalName>,
    /// Shisen-Sho: a kshisen size; 18x8 when neither this nor `size` is
    /// given, and not both.
    #[serde(default)]
    preset: Option<Preset>,
    /// Shisen-Sho: tiles fall down when the tiles below them go.
    #[serde(default)]
    gravity: bool,
    /// Shisen-Sho: Chinese tiles.
    #[serde(default)]
    chinese: bool,
    /// Shisen-Sho: deal only boards that can be cleared (the default).
    #[serde(default)]
    solvable: Option<bool>,
    /// A rated race: only signed-in players may join, and every racer's
    /// rating in the game's pool moves when it ends. Only a pool's game is
    /// rated: `slide` 3x3, 4x4 or 5x5 to `row-major`, or `shisen` 18x8
    /// (the default deal, no gravity, standard tiles, solvable).
    #[serde(default)]
    #[schema(example = true)]
    rated: bool,
}

impl NewRequest {
    /// The game the request names, checked.
    fn game(&self) -> Result<RaceSpec, ApiError> {
        let refused = |message: String, pointer: &str| {
            ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message).at(pointer)
        };
        match self.game {
            RaceGameName::Slide => {
                let shisen = [
                    ("preset", self.preset.is_some()),
                    ("gravity", self.gravity),
                    ("chinese", self.chinese),
                    ("solvable", self.solvable.is_some()),
                ];
                if let Some((field, _)) = shisen.iter().find(|(_, given)| *given) {
                    let why = format!(
                        "{field} is Shisen-Sho's: a sliding-puzzle race takes a size and a goal"
                    );
                    return Err(refused(why, &format!("/{field}")));
                }
                let size = self.size.as_ref().ok_or_else(|| {
                    refused(
                        "missing field `size`: a sliding-puzzle race needs one".into(),
                        "",
                    )
                })?;
                let size = size.slide().map_err(|e| refused(e.to_string(), "/size"))?;
                let goal = self
                    .goal
                    .clone()
                    .map_or(GoalChoice::Goal(Goal::RowMajor), |name| name.0);
                let spec = SlideSpec::new(size.0, goal)
                    .map_err(|e| ApiError::bad(format!("bad goal: {e}")).at("/goal"))?;
                Ok(RaceSpec::Slide(spec))
            }
            RaceGameName::Shisen => {
                if self.goal.is_some() {
                    let why = "goal is a sliding puzzle's: a Shisen-Sho race takes a preset or a size, gravity, chinese and solvable";
                    return Err(refused(why.into(), "/goal"));
                }
                let size = self.size.as_ref().map(RaceSize::shisen).transpose();
                let size = size.map_err(|e| refused(e.to_string(), "/size"))?;
                let spec = crate::shisen_api::deal_spec(
                    self.preset,
                    size,
                    self.gravity,
                    self.chinese,
                    self.solvable,
                )?;
                Ok(RaceSpec::Shisen(spec))
            }
        }
    }

    /// The bodies refused whatever their fields hold: each game's fields
    /// with the other game, a sliding puzzle without a size or with a
    /// size only Shisen-Sho takes (and the other way round), a preset with
    /// a size.
    pub fn excluded() -> Vec<serde_json::Value> {
        use serde_json::json;
        let game = |name: &str| json!({ "game": { "const": name } });
        let given = json!({ "not": { "type": "null" } });
        let mut cases = vec![
            json!({ "required": ["game"], "properties": game("slide"), "not": { "required": ["size"] } }),
            crate::edge::excludes("preset", given.clone(), "size"),
        ];
        // A field of the other game is refused when it says something: a
        // value (null is absent), or `true` for a flag (false is the
        // default either way).
        let yes = json!({ "const": true });
        for (field, refused) in [
            ("preset", &given),
            ("gravity", &yes),
            ("chinese", &yes),
            ("solvable", &given),
        ] {
            let mut properties = game("slide");
            properties[field] = refused.clone();
            cases.push(json!({ "required": ["game", field], "properties": properties }));
        }
        let mut properties = game("shisen");
        properties["goal"] = given.clone();
        cases.push(json!({ "required": ["game", "goal"], "properties": properties }));
        for (name, pattern) in [
            ("slide", RaceSize::SLIDE_PATTERN),
            ("shisen", RaceSize::SHISEN_PATTERN),
        ] {
            let mut properties = game(name);
            properties["size"] = json!({ "type": "string", "not": { "pattern": pattern } });
            cases.push(json!({ "required": ["game", "size"], "properties": properties }));
        }
        cases
    }
}

/// The games a room races.
#[derive(Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RaceGameName {
    /// The sliding puzzle.
    Slide,
    /// Shisen-Sho.
    Shisen,
}

/// An open room.
#[derive(Serialize, ToSchema)]
pub struct Opened {
    /// The room's id, for its WebSocket.
    #[schema(value_type = RoomId)]
    room: String,
    /// The page to share with the other players.
    url: String,
    /// The WebSocket to connect to.
    socket: String,
}

/// Opens a race room: the players join over its WebSocket.
#[utoipa::path(post, path = "/api/races", operation_id = "race_new", tag = "races", request_body = NewRequest,
    responses((status = 200, body = Opened, links(
        ("socket" = (operation_id = "race_socket", description = "Join the race",
            parameters(("room" = "$response.body#/room")))),
    )), BodyErrors, Limited, Always))]
pub async fn new(
    State(app): State<App>,
    Body(request): Body<NewRequest>,
) -> Result<Json<Opened>, ApiError> {
    let game = request.game()?;
    let deal = fresh_deal(&app, &game).await?;
    let room = app
        .races
        .open(game, deal, request.rated)
        .await?
        .ok_or_else(|| {
            ApiError::unavailable(
                "the server holds as many races as it can: try again later",
                60,
            )
        })?;
    Ok(Json(Opened {
        url: format!("/race/{room}"),
        socket: format!("/api/races/{room}/ws"),
        room,
    }))
}

/// Opens a rated room racing `pool`'s game for the accounts a pairing
/// (quick match, an arena) put together, `(id, handle)` each, and seats
/// them: its id. The room starts on its own once they are all connected.
pub(crate) async fn open_rated(
    app: &App,
    pool: play::rating::Pool,
    accounts: &[(String, String)],
) -> Result<String, ApiError> {
    let game = pool.spec();
    let deal = fresh_deal(app, &game).await?;
    let full = || {
        ApiError::unavailable(
            "the server holds as many races as it can: try again later",
            60,
        )
    };
    let id = app.races.open(game, deal, true).await?.ok_or_else(full)?;
    let room = app.races.find(&id).await?.ok_or_else(full)?;
    let racers = accounts
        .iter()
        .map(|(account, handle)| {
            let name = handle.parse::<RacerName>().map_err(|e| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("{handle:?}: {e}"),
                )
            })?;
            Ok(Paired {
                key: super::account_key(account),
                name,
                account: handle.clone(),
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    room.execute(Step::Pair { racers }, |_, _, _| ())
        .await
        .map_err(|e| match e {
            StepError::Store(message) => ApiError::unavailable(message, 5),
            StepError::Rules(e) => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        })?;
    Ok(id)
}

/// How many seeds a Shisen-Sho room tries for its deal before giving up.
const DRAWS: usize = 3;

/// How long one seed's deal may take. Most deals take milliseconds, but
/// the solver that makes them solvable has a long tail (one 18x8 seed in a
/// few hundred takes seconds): a room does better to draw another seed
/// than to keep its players waiting, and three draws stay well within the
/// engine's budget.
const DRAW_LIMIT: std::time::Duration = std::time::Duration::from_millis(1500);

/// The seed of a rematch, its deal made here, within the engine's budget
/// and before the room is locked, and kept by the room for the step
/// ([`Room::prepare`]). Only once the race is over: a rematch before is
/// refused by the rules, with no deal made for it.
pub(super) async fn deal_rematch(app: &App, room: &Room) -> Result<u64, String> {
    let (game, phase) = {
        let replica = room.replica().await;
        (replica.race.game(), replica.race.phase())
    };
    if phase != Phase::Finished {
        return Ok(random_seed());
    }
    let deal = fresh_deal(app, &game)
        .await
        .map_err(|e| format!("no new deal for the rematch: {}", e.message))?;
    let seed = deal.seed();
    room.prepare(deal);
    Ok(seed)
}

/// A new puzzle of `game` from a fresh seed, dealt within the engine's
/// budget and off the async threads: a new room's, or a rematch's. A
/// Shisen-Sho seed is one whose deal is quick to find ([`quick_deal`]): a
/// deal too hard to find is a 503 now, not a room that cannot start.
async fn fresh_deal(app: &App, game: &RaceSpec) -> Result<Deal, ApiError> {
    match *game {
        RaceSpec::Shisen(spec) => {
            let (seed, board) = quick_deal(app, spec).await?;
            Ok(Deal::Shisen(ShisenDeal { seed, spec, board }))
        }
        RaceSpec::Slide(_) => {
            let (game, seed) = (game.clone(), random_seed());
            let dealt = app.budget.run(move |_| game.deal(seed)).await?;
            dealt.map_err(|e| ApiError::bad(e).at("/goal"))
        }
    }
}

/// A seed whose Shisen-Sho deal is found quickly, within the engine's
/// budget and off the async threads, and its board: a seed whose deal the
/// solver is slow to find would keep the players waiting. Other instances
/// deal the seed without a deadline (so that they all deal the same
/// board).
async fn quick_deal(
    app: &App,
    spec: play::shisen_game::ShisenSpec,
) -> Result<(u64, shisen::Board), ApiError> {
    for _ in 0..DRAWS {
        let seed = random_seed();
        let dealt = app
            .budget
            .run(move |deadline| spec.deal(seed, &mut deadline.within(DRAW_LIMIT)))
            .await?;
        match dealt {
            Ok(board) => return Ok((seed, board)),
            Err(DealError::OutOfTime) => {}
            Err(e) => return Err(deal_error(e)),
        }
    }
    Err(deal_error(DealError::OutOfTime))
}
