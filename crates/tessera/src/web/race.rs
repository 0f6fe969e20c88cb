//! Live races: `POST /api/races` opens a room, and each player holds one
//! WebSocket at `/api/races/{room}/ws` (the protocol is
//! `docs/race-protocol.md`).
//!
//! The rules are `play::race`; this module translates. Every frame is
//! checked at the edge (size, rate, JSON, type) before it reaches the
//! rules, and what the rules answer goes out as JSON: events to everyone
//! in the room over the room's broadcast channel, refusals as `error` to
//! the sender alone. Where rooms live, and how instances share them, is
//! `race_rooms`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use play::format::{Format, Played};
use play::race::{
    AnyRace, Deal, Event, Finish, Phase, Placing, RaceError, RaceSpec, RacerName, RoomView, Seat,
    Solve, Standing,
};
use play::result::{self, Facts};
use play::seed::random_seed;
use play::slide_game::{GoalChoice, Puzzle, SlideSpec};
use serde::{Deserialize, Serialize};
use slide::{Goal, Moves};
use tokio::sync::{broadcast, watch};
use utoipa::ToSchema;

use super::account::{same_origin, Visitor};
use super::clock::now_millis;
use super::edge::{GoalName, Preset, RaceSize, RoomId};
use super::error::{Always, ApiError, Body, BodyErrors, ErrorBody, Limited};
use super::games::finish;
use super::player::Player;
use super::race_rooms::{Games, Replica, Room, Rooms, Step, StepError};
use super::shisen_api::TurnJson;
use super::App;
use crate::store::{Account, GameRow, IssuedGame};

/// The largest frame a client may send: a move message is a few bytes, a
/// whole solution of a 10×10 a few kilobytes.
pub const FRAME_BYTES: usize = 64 * 1024;
/// What the WebSocket layer reads at most before giving up on a frame
/// without a word: between [`FRAME_BYTES`] and this, the client is told
/// and closed with 1009.
const READ_BYTES: usize = 1024 * 1024;
/// Messages a client may send in one second: a fast player makes some
/// fifteen moves a second, and may send each on its own.
pub const MESSAGES_PER_SECOND: u32 = 50;
/// Malformed messages a client may send before it is closed: a few are a
/// buggy client that deserves to hear what is wrong, many are abuse.
const BAD_MESSAGES: u32 = 10;
/// The race rooms of a server on `store`: shared through it when it is
/// PostgreSQL, held by this instance alone when it is SQLite.
pub(super) fn rooms(store: &crate::store::Store, config: &super::Config) -> Rooms {
    Rooms::new(
        config.limits.max_connections,
        config.race_ping,
        super::race_log::of(store),
        encode_event,
    )
}

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
}

impl NewRequest {
    /// The game the request names, checked. A Shisen-Sho deal is dealt
    /// here once within the engine's budget: a deal too hard to find is a
    /// 503 now, not a room that cannot start.
    async fn game(&self, app: &App, seed: u64) -> Result<RaceSpec, ApiError> {
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
                let spec = super::shisen_api::deal_spec(
                    self.preset,
                    size,
                    self.gravity,
                    self.chinese,
                    self.solvable,
                )?;
                app.budget
                    .run(move |mut deadline| spec.deal(seed, &mut deadline))
                    .await?
                    .map_err(super::shisen_api::deal_error)?;
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
            super::edge::excludes("preset", given.clone(), "size"),
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
    let seed = random_seed();
    let game = request.game(&app, seed).await?;
    let room = app.races.open(game, seed).await?.ok_or_else(|| {
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

/// A race room's WebSocket: JSON messages with a `type`, as
/// `docs/race-protocol.md` describes them.
#[utoipa::path(get, path = "/api/races/{room}/ws", operation_id = "race_socket", tag = "races",
    params(("room" = RoomId, Path, description = "The room's id, as `POST /api/races` gave it")),
    responses(
        (status = 101, description = "Switching to the race's WebSocket protocol (`docs/race-protocol.md`)"),
        (status = 400, description = "Not a room id", body = ErrorBody),
        (status = 403, description = "A WebSocket opened from another site", body = ErrorBody),
        (status = 404, description = "No open room with this id", body = ErrorBody),
        (status = 426, description = "Not a WebSocket handshake", body = ErrorBody),
        Always))]
pub async fn socket(
    State(app): State<App>,
    Path(room): Path<String>,
    player: Player,
    visitor: Visitor,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let id = RoomId::try_from(room).map_err(ApiError::bad)?;
    // A page elsewhere must not race under this player's cookie.
    if headers.contains_key("origin") && !same_origin(&headers, app.accounts.trust_proxy) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "a race's WebSocket must be opened from this site",
        ));
    }
    let room = app
        .races
        .find(id.as_str())
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no open race {:?}", id.as_str())))?;
    let upgrade = upgrade.map_err(|e| {
        ApiError::new(
            StatusCode::UPGRADE_REQUIRED,
            format!("not a WebSocket handshake: {e}"),
        )
    })?;
    let ticket = app.races.admit(&room)?;
    let racer = Racer {
        key: player.0,
        account: visitor.account().cloned(),
        room,
        stopping: app.races.stopping.subscribe(),
        ping: app.races.ping,
        app,
    };
    Ok(upgrade
        .max_message_size(READ_BYTES)
        .max_frame_size(READ_BYTES)
        .on_upgrade(move |socket| async move {
            racer.serve(socket).await;
            drop(ticket);
        }))
}

/// What a client sends.
#[derive(Deserialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum Incoming {
    Join {
        name: String,
    },
    Ready {
        #[serde(default = "yes")]
        ready: bool,
    },
    Start,
    Move {
        moves: String,
        t: i64,
    },
    /// A Shisen-Sho turn: `[x1, y1, x2, y2]` or `"shuffle"`.
    Turn {
        turn: TurnJson,
        t: i64,
    },
    Rematch,
    Leave,
}

fn yes() -> bool {
    true
}

/// What the server sends.
#[derive(Serialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Outgoing {
    Room {
        state: &'static str,
        players: Vec<PlayerView>,
        spectators: usize,
    },
    Welcome {
        player: Seat,
        moves: String,
    },
    Countdown {
        ms: i64,
    },
    Start {
        puzzle: PuzzleView,
        elapsed: i64,
    },
    Progress {
        player: Seat,
        moves: usize,
        #[serde(flatten)]
        standing: StandingView,
        t: i64,
    },
    Finish {
        player: Seat,
        result: FinishView,
    },
    Results {
        results: Vec<PlacingView>,
    },
    Error {
        message: String,
    },
}

#[derive(Serialize, Debug)]
struct PlayerView {
    player: Seat,
    name: String,
    account: Option<String>,
    ready: bool,
    host: bool,
    connected: bool,
    done: bool,
}

/// How far a racer is, as `progress` carries it.
#[derive(Serialize, Debug)]
#[serde(untagged)]
enum StandingView {
    Slide {
        solved_tiles: usize,
        /// The racer's board now, for the others' live view of it.
        position: Option<String>,
    },
    Shisen {
        tiles_left: usize,
        score: u64,
        /// No pair connects: the racer may shuffle.
        stuck: bool,
        /// The racer's board now (after gravity and shuffles).
        board: Option<String>,
    },
}

#[derive(Serialize, Debug)]
#[serde(tag = "game", rename_all = "lowercase")]
enum PuzzleView {
    Slide {
        seed: u64,
        size: String,
        position: String,
        goal: String,
        goal_position: String,
    },
    Shisen {
        seed: u64,
        size: String,
        /// One character per cell, rows split by newlines, `.` empty.
        board: String,
        gravity: bool,
        chinese: bool,
        /// The records table a clearing counts for.
        variant: String,
    },
}

#[derive(Serialize, Debug)]
struct FinishView {
    place: usize,
    millis: i64,
    #[serde(flatten)]
    solve: SolveView,
    /// The stored game, for its replay at `/replay/{game}`.
    game: Option<String>,
}

/// What a solve took, as `finish` carries it; in `results`, a sliding
/// puzzle's moves (null for a racer who did not finish), while a
/// Shisen-Sho racer's score is their standing's.
#[derive(Serialize, Debug)]
#[serde(untagged)]
enum SolveView {
    Slide {
        stm: Option<usize>,
        mtm: Option<usize>,
    },
    Shisen {
        score: u64,
    },
}

impl SolveView {
    fn of(solve: &Solve) -> SolveView {
        match *solve {
            Solve::Slide { stm, mtm } => SolveView::Slide {
                stm: Some(stm),
                mtm: Some(mtm),
            },
            Solve::Shisen { score, .. } => SolveView::Shisen { score },
        }
    }

    /// A results line's: a sliding puzzle's moves, or nothing more.
    fn placing(finish: Option<&Finish>, deal: Option<&Deal>) -> Option<SolveView> {
        match (finish, deal) {
            (_, Some(Deal::Shisen(_))) => None,
            (Some(finish), _) => Some(SolveView::of(&finish.solve)),
            (None, _) => Some(SolveView::Slide {
                stm: None,
                mtm: None,
            }),
        }
    }
}

#[derive(Serialize, Debug)]
struct PlacingView {
    player: Seat,
    name: String,
    /// Null for a racer who did not finish.
    place: Option<usize>,
    millis: Option<i64>,
    #[serde(flatten)]
    solve: Option<SolveView>,
    moves: usize,
    #[serde(flatten)]
    standing: StandingView,
    /// A solver's stored game, for its replay at `/replay/{game}`.
    game: Option<String>,
}

impl From<&RoomView> for Outgoing {
    fn from(view: &RoomView) -> Outgoing {
        Outgoing::Room {
            state: view.phase.name(),
            players: view
                .players
                .iter()
                .map(|p| PlayerView {
                    player: p.seat,
                    name: p.name.clone(),
                    account: p.account.clone(),
                    ready: p.ready,
                    host: p.host,
                    connected: p.connected,
                    done: p.done,
                })
                .collect(),
            spectators: view.spectators,
        }
    }
}

/// The message of `event` in `race`, linked to its games.
fn outgoing(event: &Event, race: &AnyRace, games: &Games) -> Outgoing {
    let seed = race.round_seed();
    match event {
        Event::Room(view) => Outgoing::from(view),
        Event::Countdown { ms } => Outgoing::Countdown { ms: *ms },
        Event::Start(deal) => Outgoing::Start {
            puzzle: puzzle(deal),
            elapsed: 0,
        },
        Event::Progress(p) => Outgoing::Progress {
            player: p.seat,
            moves: p.moves,
            standing: standing(race, p.seat, &p.standing),
            t: p.t,
        },
        Event::Finish(f) => Outgoing::Finish {
            player: f.seat,
            result: FinishView {
                place: f.place,
                millis: f.millis,
                solve: SolveView::of(&f.solve),
                game: games.of(seed, f.seat).map(str::to_string),
            },
        },
        Event::Results(placings) => results(placings, race, games),
    }
}

/// A racer's standing, with their board now for the others to draw.
fn standing(race: &AnyRace, seat: Seat, standing: &Standing) -> StandingView {
    match *standing {
        Standing::Slide { solved_tiles } => StandingView::Slide {
            solved_tiles,
            position: race.position_of(seat).map(ToString::to_string),
        },
        Standing::Shisen {
            tiles_left,
            score,
            stuck,
        } => StandingView::Shisen {
            tiles_left,
            score,
            stuck,
            board: race
                .shisen_of(seat)
                .map(|(session, _, _)| session.game().board().to_string()),
        },
    }
}

fn puzzle(deal: &Deal) -> PuzzleView {
    match deal {
        Deal::Slide(puzzle) => PuzzleView::Slide {
            seed: puzzle.seed,
            size: puzzle.start.size().to_string(),
            position: puzzle.start.to_string(),
            goal: puzzle.goal.to_string(),
            goal_position: puzzle.goal_position.to_string(),
        },
        Deal::Shisen(deal) => PuzzleView::Shisen {
            seed: deal.seed,
            size: deal.spec.size.to_string(),
            board: deal.board.to_string(),
            gravity: deal.spec.gravity,
            chinese: deal.spec.tiles == shisen::TileSet::Chinese,
            variant: deal.spec.variant(),
        },
    }
}

fn results(placings: &[Placing], race: &AnyRace, games: &Games) -> Outgoing {
    let seed = race.round_seed();
    let deal = race.deal();
    Outgoing::Results {
        results: placings
            .iter()
            .map(|p| PlacingView {
                player: p.seat,
                name: p.name.clone(),
                place: p.finish.as_ref().map(|f| f.place),
                millis: p.finish.as_ref().map(|f| f.millis),
                solve: SolveView::placing(p.finish.as_ref(), deal.as_ref()),
                moves: p.progress.moves,
                standing: standing(race, p.seat, &p.progress.standing),
                game: p
                    .finish
                    .as_ref()
                    .and_then(|_| games.of(seed, p.seat))
                    .map(str::to_string),
            })
            .collect(),
    }
}

/// The message an event of the room is sent as.
pub(super) fn encode_event(event: &Event, replica: &Replica) -> Utf8Bytes {
    encode(&outgoing(event, &replica.race, &replica.games))
}

fn encode(message: &Outgoing) -> Utf8Bytes {
    serde_json::to_string(message)
        .expect("race messages serialize")
        .into()
}

fn error(message: impl std::fmt::Display) -> Utf8Bytes {
    encode(&Outgoing::Error {
        message: message.to_string(),
    })
}

/// What to do with a frame from the client.
enum Verdict {
    /// A message to act on.
    Text(Utf8Bytes),
    /// A binary frame: not a message.
    Binary,
    /// Nothing to do (a ping or pong, answered by the WebSocket layer).
    Skip,
    /// Answer `error` with this message and close with this code.
    Close(u16, String),
    /// The client closed.
    Closed,
}

/// The checks every frame meets before it is read: its size and the rate
/// of frames.
struct Gate {
    window: Instant,
    count: u32,
    bad: u32,
}

impl Gate {
    fn new() -> Gate {
        Gate {
            window: Instant::now(),
            count: 0,
            bad: 0,
        }
    }

    fn check(&mut self, message: Message) -> Verdict {
        if let Message::Close(_) = message {
            return Verdict::Closed;
        }
        if self.window.elapsed() >= Duration::from_secs(1) {
            self.window = Instant::now();
            self.count = 0;
        }
        self.count += 1;
        if self.count > MESSAGES_PER_SECOND {
            return Verdict::Close(
                close_code::POLICY,
                format!("too many messages: at most {MESSAGES_PER_SECOND} a second"),
            );
        }
        match message {
            Message::Text(text) if text.len() > FRAME_BYTES => Verdict::Close(
                close_code::SIZE,
                format!("message too large: at most {FRAME_BYTES} bytes"),
            ),
            Message::Text(text) => Verdict::Text(text),
            Message::Binary(_) => Verdict::Binary,
            Message::Ping(_) | Message::Pong(_) | Message::Close(_) => Verdict::Skip,
        }
    }

    /// Counts a malformed message: the client hears what is wrong, and is
    /// closed once there have been too many.
    fn bad(&mut self, message: String) -> Reply {
        self.bad += 1;
        if self.bad > BAD_MESSAGES {
            return Reply::Close(
                close_code::POLICY,
                format!("too many malformed messages; the last: {message}"),
            );
        }
        Reply::Send(vec![error(message)])
    }
}

/// One connection to a room: whose it is.
struct Racer {
    /// The player's id (their cookie): the same player reconnecting is
    /// the same racer.
    key: String,
    /// The signed-in account, whose record a solve counts for.
    account: Option<Account>,
    room: Arc<Room>,
    app: App,
    /// Changes when the server stops.
    stopping: watch::Receiver<bool>,
    /// How often the client is pinged.
    ping: Duration,
}

/// How a connection ended.
enum End {
    /// Lost or closed: a racer keeps their place for a while.
    Dropped,
    /// Closed by the server, or the player left.
    Closed,
}

impl Racer {
    /// Serves the connection until either side closes it.
    async fn serve(self, mut socket: WebSocket) {
        metrics::gauge!("tessera_race_sockets").increment(1.0);
        let end = match self.watch().await {
            Ok((catch_up, mut events)) => {
                if send_all(&mut socket, catch_up).await {
                    self.converse(&mut socket, &mut events).await
                } else {
                    End::Dropped
                }
            }
            Err(full) => {
                close(&mut socket, close_code::POLICY, full.to_string()).await;
                End::Closed
            }
        };
        if let End::Dropped = end {
            let key = self.key.clone();
            let _ = self
                .room
                .execute(Step::Disconnect { key }, |_, _, _| ())
                .await;
        }
        metrics::gauge!("tessera_race_sockets").decrement(1.0);
    }

    /// Joins the room as a spectator: what to send to catch up, and the
    /// events from then on; refused when the room has all the spectators
    /// it takes.
    async fn watch(&self) -> Result<(Vec<Utf8Bytes>, broadcast::Receiver<Utf8Bytes>), StepError> {
        let key = self.key.clone();
        // Subscribed right after the step, before any other: no event
        // falls between the snapshot and the channel.
        self.room
            .execute(Step::Watch { key }, |replica, _, at| {
                let events = self.room.events.subscribe();
                (snapshot(replica, at), events)
            })
            .await
    }

    /// Reads the client's messages and writes the room's events until the
    /// connection ends.
    async fn converse(
        &self,
        socket: &mut WebSocket,
        events: &mut broadcast::Receiver<Utf8Bytes>,
    ) -> End {
        let mut gate = Gate::new();
        let mut stopping = self.stopping.clone();
        // A connection can die without a word (a phone out of range, a
        // sleeping laptop): a ping makes a live client answer, and one
        // that says nothing for three pings is let go.
        let mut ping = tokio::time::interval(self.ping);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ping.tick().await;
        let mut heard = Instant::now();
        let going = "the server is restarting: connect again to carry on";
        if *stopping.borrow_and_update() {
            return close(socket, close_code::AWAY, going.into()).await;
        }
        loop {
            tokio::select! {
                // Set once, when the server stops.
                _ = stopping.changed() => {
                    return close(socket, close_code::AWAY, going.into()).await;
                }
                _ = ping.tick() => {
                    if heard.elapsed() >= 3 * self.ping {
                        metrics::counter!("tessera_race_sockets_silent_total").increment(1);
                        return End::Dropped;
                    }
                    if socket.send(Message::Ping(Default::default())).await.is_err() {
                        return End::Dropped;
                    }
                }
                frame = socket.recv() => {
                    let Some(Ok(frame)) = frame else { return End::Dropped };
                    heard = Instant::now();
                    match self.read(&mut gate, frame).await {
                        Reply::Send(replies) => {
                            if !send_all(socket, replies).await {
                                return End::Dropped;
                            }
                        }
                        Reply::Left => {
                            let _ = socket.send(Message::Close(None)).await;
                            return End::Closed;
                        }
                        Reply::Close(code, reason) => return close(socket, code, reason).await,
                        Reply::Gone => return End::Dropped,
                    }
                }
                event = events.recv() => {
                    let sent = match event {
                        Ok(text) => socket.send(Message::Text(text)).await.is_ok(),
                        // Too far behind: the room afresh instead of what was missed.
                        Err(broadcast::error::RecvError::Lagged(_)) => {
                            let fresh = snapshot(&*self.room.replica().await, now_millis());
                            send_all(socket, fresh).await
                        }
                        Err(broadcast::error::RecvError::Closed) => false,
                    };
                    if !sent {
                        return End::Dropped;
                    }
                }
            }
        }
    }

    /// What a frame from the client comes to, once through the gate.
    async fn read(&self, gate: &mut Gate, frame: Message) -> Reply {
        match gate.check(frame) {
            Verdict::Text(text) => match serde_json::from_str::<Incoming>(&text) {
                Ok(message) => self.act(message).await,
                Err(e) => gate.bad(format!("bad message: {e}")),
            },
            Verdict::Binary => {
                gate.bad("bad message: send JSON in text frames, not binary ones".into())
            }
            Verdict::Skip => Reply::Send(Vec::new()),
            Verdict::Close(code, reason) => Reply::Close(code, reason),
            Verdict::Closed => Reply::Gone,
        }
    }

    /// Plays a client's message on the race: the replies to the sender
    /// alone (everyone else hears the events).
    async fn act(&self, message: Incoming) -> Reply {
        let key = self.key.clone();
        let room = &self.room;
        let done = match message {
            Incoming::Join { name } => return Reply::Send(vec![self.join(name).await]),
            Incoming::Ready { ready } => {
                room.execute(Step::Ready { key, ready }, |_, _, _| ()).await
            }
            Incoming::Start => room.execute(Step::Start { key }, |_, _, _| ()).await,
            Incoming::Rematch => {
                let seed = match super::race_shisen::rematch_seed(&self.app, room).await {
                    Ok(seed) => seed,
                    Err(e) => return Reply::Send(vec![error(e)]),
                };
                room.execute(Step::Rematch { key, seed }, |_, _, _| ())
                    .await
            }
            Incoming::Move { moves, t } => match super::slide_api::parse_moves(&moves) {
                Ok(moves) => {
                    let step = Step::Play {
                        key: key.clone(),
                        moves,
                        t,
                    };
                    let played = room
                        .execute(step, |replica, events, at| {
                            solved(replica, &key, events, at)
                        })
                        .await;
                    played.map(|solved| solved.map_or((), |solved| self.record(solved)))
                }
                Err(e) => return Reply::Send(vec![error(e.message)]),
            },
            Incoming::Turn { turn, t } => {
                let turn = match super::race_shisen::read_turn(room, turn).await {
                    Ok(turn) => turn,
                    Err(e) => return Reply::Send(vec![error(e)]),
                };
                let step = Step::Turn {
                    key: key.clone(),
                    turn,
                    t,
                };
                let played = room
                    .execute(step, |replica, events, at| {
                        super::race_shisen::cleared(replica, &key, events, at)
                    })
                    .await;
                played.map(|cleared| cleared.map_or((), |cleared| self.record_clear(cleared)))
            }
            Incoming::Leave => {
                let _ = room.execute(Step::Leave { key }, |_, _, _| ()).await;
                return Reply::Left;
            }
        };
        Reply::Send(done.err().map(error).into_iter().collect())
    }

    /// Takes a seat as `name` (checked here, at the edge), or takes back
    /// one's own: the welcome, or why not.
    async fn join(&self, name: String) -> Utf8Bytes {
        let name = match name.parse::<RacerName>() {
            Ok(name) => name,
            Err(e) => return error(e),
        };
        let step = Step::Join {
            key: self.key.clone(),
            name,
            account: self.account.as_ref().map(|a| a.handle.clone()),
        };
        let joined = self
            .room
            .execute(step, |replica, _, _| {
                let seat = replica.race.seat_of(&self.key)?;
                let moves = match replica.race.shisen_of(seat) {
                    Some((_, turns, _)) => result::turns_text(turns),
                    None => replica
                        .race
                        .moves_of(seat)
                        .map(|(moves, _)| moves.to_string())
                        .unwrap_or_default(),
                };
                Some((seat, moves))
            })
            .await;
        match joined {
            Ok(Some((player, moves))) => encode(&Outgoing::Welcome { player, moves }),
            Ok(None) => error(RaceError::NotAPlayer),
            Err(e) => error(e),
        }
    }
}

impl Racer {
    /// Stores a solve as an ordinary result, judged like any other, under
    /// the game id its `finish` announced; in the background, so that the
    /// race goes on meanwhile.
    fn record(&self, solved: Solved) {
        let (app, player, account) = (self.app.clone(), self.key.clone(), self.account.clone());
        tokio::spawn(async move {
            if let Err(e) = store_solve(&app, player, solved, account.as_ref()).await {
                tracing::warn!(error = %e.message, "a race's result was not recorded");
            }
        });
    }

    /// Stores a cleared Shisen-Sho board as [`Racer::record`] stores a
    /// solve.
    fn record_clear(&self, cleared: super::race_shisen::Cleared) {
        let (app, player, account) = (self.app.clone(), self.key.clone(), self.account.clone());
        tokio::spawn(async move {
            let stored = super::race_shisen::store_clear(&app, player, cleared, account.as_ref());
            if let Err(e) = stored.await {
                tracing::warn!(error = %e.message, "a race's result was not recorded");
            }
        });
    }
}

/// A racer's solve, as the room saw it.
struct Solved {
    /// The stored game its `finish` announced.
    game: String,
    variant: String,
    puzzle: Puzzle,
    moves: Moves,
    /// The racer's own clock for each move.
    times: Vec<i64>,
    /// From the start to the solve, by the server's clock.
    millis: i64,
    finished_at: i64,
}

/// The solve of the racer `key`, if `events` announce one.
fn solved(replica: &Replica, key: &str, events: &[Event], now: i64) -> Option<Solved> {
    let race = &replica.race;
    let seat = race.seat_of(key)?;
    let finish = events.iter().find_map(|event| match event {
        Event::Finish(finish) if finish.seat == seat => Some(finish),
        _ => None,
    })?;
    let (RaceSpec::Slide(spec), Some(Deal::Slide(puzzle))) = (race.game(), race.deal()) else {
        return None;
    };
    let (moves, times) = race.moves_of(seat)?;
    Some(Solved {
        game: replica.games.of(Some(puzzle.seed), seat)?.to_string(),
        variant: spec.variant(),
        puzzle,
        moves,
        times: times.to_vec(),
        millis: finish.millis,
        finished_at: now,
    })
}

/// Stores a solve as a game issued at the race's start and finished with
/// its moves: judged as a submission is (help asked about its positions,
/// times a person could make), ranked only for an account.
async fn store_solve(
    app: &App,
    player: String,
    solved: Solved,
    account: Option<&Account>,
) -> Result<(), ApiError> {
    let Solved {
        game: id,
        variant,
        puzzle,
        moves,
        times,
        millis,
        finished_at,
        ..
    } = solved;
    let issued_at = finished_at - millis;
    let issued = IssuedGame {
        id,
        player_id: player,
        game: "slide".into(),
        variant,
        seed: puzzle.seed,
        setup: puzzle.start.to_string(),
        goal: puzzle.goal_position.to_string(),
        rules: puzzle.goal.to_string(),
        issued_at,
        // A race is one puzzle, raced as a single solve.
        format: Format::Single,
    };
    app.store.issue(&issued).await?;
    let asked = super::slide_api::helped_positions(app, &issued.player_id, issued_at).await?;
    let played = Played { moves, times };
    // How the moves were made is not sent over the race socket.
    let ending = result::slide_single(
        &puzzle.start,
        &puzzle.goal_position,
        Format::Single,
        played,
        None,
        &Facts::race(millis),
        &asked,
    )
    .map_err(|e| ApiError::bad(format!("illegal move list: {e}")))?;
    let result::Ending::Solved(result) = ending else {
        return Err(ApiError::bad("the race's moves do not solve its puzzle"));
    };
    let row = GameRow::fresh(issued);
    finish(app, &row, result, account, finished_at).await?;
    Ok(())
}

/// What a client's frame comes to for its own connection.
enum Reply {
    /// Messages for the sender (an error, a welcome), maybe none.
    Send(Vec<Utf8Bytes>),
    /// The player left: the connection closes.
    Left,
    /// Answer `error` with this message and close with this code.
    Close(u16, String),
    /// The client closed the connection.
    Gone,
}

/// The room as it stands, for a connection that comes in or fell behind:
/// who is in it, the countdown or the puzzle, everyone's progress, and the
/// results once there are.
fn snapshot(replica: &Replica, now: i64) -> Vec<Utf8Bytes> {
    let race = &replica.race;
    let mut messages = vec![encode(&Outgoing::from(&race.view()))];
    let elapsed = match race.phase() {
        Phase::Countdown { starts_at } => {
            messages.push(encode(&Outgoing::Countdown {
                ms: starts_at - now,
            }));
            None
        }
        Phase::Racing { started_at } => Some(now - started_at),
        Phase::Finished => Some(0),
        Phase::Lobby => None,
    };
    if let (Some(elapsed), Some(deal)) = (elapsed, race.deal()) {
        messages.push(encode(&Outgoing::Start {
            puzzle: puzzle(&deal),
            elapsed,
        }));
    }
    let games = &replica.games;
    for progress in race.standings(now) {
        let event = Event::Progress(progress);
        messages.push(encode(&outgoing(&event, race, games)));
    }
    if let Some(placings) = race.results() {
        messages.push(encode(&results(&placings, race, games)));
    }
    messages
}

/// Sends `messages` in order; false once the connection is gone.
async fn send_all(socket: &mut WebSocket, messages: Vec<Utf8Bytes>) -> bool {
    for message in messages {
        if socket.send(Message::Text(message)).await.is_err() {
            return false;
        }
    }
    true
}

/// Tells the client why, then closes with `code`.
async fn close(socket: &mut WebSocket, code: u16, reason: String) -> End {
    metrics::counter!("tessera_race_sockets_closed_total", "code" => code.to_string()).increment(1);
    let _ = socket.send(Message::Text(error(&reason))).await;
    let frame = CloseFrame {
        code,
        reason: Utf8Bytes::from(truncate(&reason, 120)),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
    End::Dropped
}

/// At most `bytes` of `text`, cut at a character boundary (a close
/// frame's reason must fit in 123 bytes).
fn truncate(text: &str, bytes: usize) -> String {
    let mut end = text.len().min(bytes);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Incoming, serde_json::Error> {
        serde_json::from_str(text)
    }

    #[test]
    fn client_messages_parse_by_type_and_refuse_the_rest() {
        assert!(
            matches!(parse(r#"{"type":"join","name":"Ada"}"#), Ok(Incoming::Join { name }) if name == "Ada")
        );
        assert!(matches!(
            parse(r#"{"type":"ready"}"#),
            Ok(Incoming::Ready { ready: true })
        ));
        assert!(matches!(
            parse(r#"{"type":"ready","ready":false}"#),
            Ok(Incoming::Ready { ready: false })
        ));
        assert!(matches!(
            parse(r#"{"type":"move","moves":"R3U","t":1200}"#),
            Ok(Incoming::Move { t: 1200, .. })
        ));
        assert!(matches!(parse(r#"{"type":"leave"}"#), Ok(Incoming::Leave)));
        assert!(matches!(
            parse(r#"{"type":"turn","turn":[0,1,3,1],"t":800}"#),
            Ok(Incoming::Turn {
                turn: TurnJson::Remove([0, 1, 3, 1]),
                t: 800
            })
        ));
        assert!(matches!(
            parse(r#"{"type":"turn","turn":"shuffle","t":900}"#),
            Ok(Incoming::Turn {
                turn: TurnJson::Word(_),
                ..
            })
        ));
        for bad in [
            r#"{"type":"dance"}"#,
            r#"{"name":"Ada"}"#,
            r#"{"type":"join"}"#,
            r#"{"type":"move","moves":"R","t":"soon"}"#,
            r#"{"type":"join","name":"Ada","extra":1}"#,
            r#"{"type":"turn","turn":[0,1,3],"t":1}"#,
            r#"{"type":"turn","turn":"jump","t":1}"#,
            r#"{"type":"turn","turn":[0,1,3,1]}"#,
            r#"[1,2]"#,
            "not json",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn server_messages_carry_their_type() {
        let text = encode(&Outgoing::Progress {
            player: 2,
            moves: 5,
            standing: StandingView::Slide {
                solved_tiles: 3,
                position: Some("1 2 3/4 0 6/7 5 8".into()),
            },
            t: 1500,
        });
        let value: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"type": "progress", "player": 2, "moves": 5, "solved_tiles": 3, "t": 1500,
                "position": "1 2 3/4 0 6/7 5 8"})
        );
        let text = encode(&Outgoing::Progress {
            player: 1,
            moves: 2,
            standing: StandingView::Shisen {
                tiles_left: 20,
                score: 96,
                stuck: false,
                board: Some("AB\nBA".into()),
            },
            t: 900,
        });
        let value: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"type": "progress", "player": 1, "moves": 2, "tiles_left": 20, "score": 96,
                "stuck": false, "board": "AB\nBA", "t": 900})
        );
    }

    #[test]
    fn the_gate_closes_floods_and_oversized_frames() {
        let mut gate = Gate::new();
        for _ in 0..MESSAGES_PER_SECOND {
            assert!(matches!(
                gate.check(Message::Text("{}".into())),
                Verdict::Text(_)
            ));
        }
        assert!(matches!(
            gate.check(Message::Text("{}".into())),
            Verdict::Close(close_code::POLICY, _)
        ));
        let mut gate = Gate::new();
        let big = "x".repeat(FRAME_BYTES + 1);
        assert!(matches!(
            gate.check(Message::Text(big.into())),
            Verdict::Close(close_code::SIZE, _)
        ));
        for _ in 0..BAD_MESSAGES {
            assert!(matches!(gate.bad("bad".into()), Reply::Send(errors) if errors.len() == 1));
        }
        assert!(matches!(
            gate.bad("bad".into()),
            Reply::Close(close_code::POLICY, _)
        ));
    }

    #[test]
    fn close_reasons_fit_a_frame() {
        assert_eq!(truncate("é".repeat(100).as_str(), 121).len(), 120);
        assert_eq!(truncate("short", 120), "short");
    }
}
