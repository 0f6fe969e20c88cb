//! A player's connection: the WebSocket handshake, and the loop that
//! reads the client's frames into steps of the room and writes the room's
//! events back, until either side closes.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use futures_util::SinkExt;
use play::race::{RaceError, RaceSpec, RacerName, Seat, Turn};
use play::result;
use play::shisen_game;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio::sync::{broadcast, watch};

use super::finish::Solver;
use super::gate::{Gate, Reply, Verdict, READ_AT_ONCE, READ_BYTES, WRITE_AT_ONCE};
use super::rooms::{Replica, Room, Step, StepError};
use super::wire::{encode, error, snapshot, Incoming, Outgoing};
use crate::account::{same_origin, Visitor};
use crate::clock::now_millis;
use crate::edge::RoomId;
use crate::error::{Always, ApiError, ErrorBody};
use crate::player::Player;
use crate::shisen_api::{read_turns, TurnJson};
use crate::App;
use store::Account;

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
    let account = visitor.account().cloned();
    let rated = room.replica().await.rated.is_some();
    let key = match &account {
        Some(account) if rated => super::account_key(&account.id),
        _ => player.0.clone(),
    };
    let racer = Racer {
        key,
        player: player.0,
        account,
        room,
        stopping: app.races.stopping.subscribe(),
        cut: app.races.cut.subscribe(),
        ping: app.races.ping,
        app,
    };
    Ok(upgrade
        .max_message_size(READ_BYTES)
        .max_frame_size(READ_BYTES)
        .read_buffer_size(READ_AT_ONCE)
        .on_upgrade(move |socket| async move {
            racer.serve(socket).await;
            drop(ticket);
        }))
}

/// One connection to a room: whose it is.
struct Racer {
    /// Who the player is in the room: their id (their cookie), or in a
    /// rated room their account; the same player reconnecting is the same
    /// racer.
    key: String,
    /// The player's id (their cookie), whose games their solves are.
    player: String,
    /// The signed-in account, whose record a solve counts for.
    account: Option<Account>,
    room: Arc<Room>,
    app: App,
    /// Changes when the server stops.
    stopping: watch::Receiver<bool>,
    /// Changes when the other instances took this one for dead.
    cut: watch::Receiver<u64>,
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
                // Counted as connected here, for the log to disconnect
                // should this instance die.
                self.app.races.present(self.room.id(), &self.key, true);
                if send_all(&mut socket, catch_up).await {
                    self.converse(&mut socket, &mut events).await
                } else {
                    End::Dropped
                }
            }
            Err(refused) => {
                // A full room is final; a log that cannot be reached (the
                // live-play bus away) is to be tried again shortly.
                let code = match refused {
                    StepError::Rules(_) => close_code::POLICY,
                    StepError::Store(_) => close_code::AGAIN,
                };
                close(&mut socket, code, refused.to_string()).await;
                return metrics::gauge!("tessera_race_sockets").decrement(1.0);
            }
        };
        if let End::Dropped = end {
            let key = self.key.clone();
            let _ = self
                .room
                .execute(Step::Disconnect { key }, |_, _, _| ())
                .await;
        }
        self.app.races.present(self.room.id(), &self.key, false);
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
                let account = self.account.as_ref().map(|a| a.handle.clone());
                let mut catch_up = vec![encode(&Outgoing::You { account })];
                catch_up.extend(snapshot(replica, at));
                // A racer a pairing seated is in from their first
                // connection: welcomed without joining.
                if replica.race.paired() {
                    catch_up.extend(
                        welcome(replica, &self.key)
                            .map(|(player, moves)| encode(&Outgoing::Welcome { player, moves })),
                    );
                }
                (catch_up, events)
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
        let mut cut = self.cut.clone();
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
                _ = cut.changed() => {
                    let again = "this server lost touch with the others: connect again to carry on";
                    return close(socket, close_code::RESTART, again.into()).await;
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
                        Ok(text) => self.forward(socket, text, events).await,
                        Err(RecvError::Lagged(_)) => self.afresh(socket).await,
                        Err(RecvError::Closed) => false,
                    };
                    if !sent {
                        return End::Dropped;
                    }
                }
            }
        }
    }

    /// Writes an event and those already waiting behind it, flushed once.
    /// Under load a socket's events queue up while its task waits its
    /// turn, and one write for them all is one send for the kernel (and,
    /// on the way, one wake-up of the client) instead of one each.
    async fn forward(
        &self,
        socket: &mut WebSocket,
        first: Utf8Bytes,
        events: &mut broadcast::Receiver<Utf8Bytes>,
    ) -> bool {
        if socket.feed(Message::Text(first)).await.is_err() {
            return false;
        }
        for _ in 0..WRITE_AT_ONCE {
            match events.try_recv() {
                Ok(text) => {
                    if socket.feed(Message::Text(text)).await.is_err() {
                        return false;
                    }
                }
                Err(TryRecvError::Lagged(_)) => return self.afresh(socket).await,
                // Closed is heard by the next `recv`.
                Err(TryRecvError::Empty | TryRecvError::Closed) => break,
            }
        }
        socket.flush().await.is_ok()
    }

    /// Too far behind: the room afresh instead of what was missed.
    async fn afresh(&self, socket: &mut WebSocket) -> bool {
        let fresh = snapshot(&*self.room.replica().await, now_millis());
        send_all(socket, fresh).await
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
                let seed = match super::open::deal_rematch(&self.app, room).await {
                    Ok(seed) => seed,
                    Err(e) => return Reply::Send(vec![error(e)]),
                };
                room.execute(Step::Rematch { key, seed }, |_, _, _| ())
                    .await
            }
            Incoming::Move { moves, t } => {
                let moves = crate::slide_api::parse_moves(&moves);
                return self
                    .play(moves.map(Turn::Slide).map_err(|e| e.message), t)
                    .await;
            }
            Incoming::Turn { turn, t } => {
                let turn = self.read_turn(turn).await;
                return self.play(turn.map(Turn::Shisen), t).await;
            }
            Incoming::Leave => {
                let _ = room.execute(Step::Leave { key }, |_, _, _| ()).await;
                return Reply::Left;
            }
        };
        Reply::Send(done.err().map(error).into_iter().collect())
    }

    /// Plays a racer's turn, read at the edge (or why it does not read),
    /// and stores their solve if it is one.
    async fn play(&self, turn: Result<Turn, String>, t: i64) -> Reply {
        let turn = match turn {
            Ok(turn) => turn,
            Err(e) => return Reply::Send(vec![error(e)]),
        };
        let solver = Solver {
            app: &self.app,
            key: &self.key,
            player: &self.player,
            account: self.account.as_ref(),
        };
        let step = Step::play(self.key.clone(), turn, t);
        let played = self
            .room
            .execute(step, |replica, events, at| {
                solver.record(replica, events, at);
            })
            .await;
        Reply::Send(played.err().map(error).into_iter().collect())
    }

    /// A Shisen-Sho turn as the client sent it, read: its points inside
    /// the room's board. Refused in a sliding-puzzle room.
    async fn read_turn(&self, turn: TurnJson) -> Result<shisen_game::Turn, String> {
        let size = match self.room.replica().await.race.game() {
            RaceSpec::Shisen(spec) => spec.size,
            RaceSpec::Slide(_) => return Err(RaceError::WrongGame("a sliding puzzle").to_string()),
        };
        let turns = read_turns(&[turn], size).map_err(|e| e.message)?;
        Ok(turns[0])
    }

    /// Takes a seat as `name` (checked here, at the edge; a signed-in
    /// player's handle when left out), or takes back one's own: the
    /// welcome, or why not.
    async fn join(&self, name: Option<String>) -> Utf8Bytes {
        let name = match (name, &self.account) {
            (Some(name), _) => name,
            (None, Some(account)) => account.handle.clone(),
            (None, None) => {
                return error(
                    "bad name: a guest joins under a name, {\"type\": \"join\", \"name\": …}",
                )
            }
        };
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
            .execute(step, |replica, _, _| welcome(replica, &self.key))
            .await;
        match joined {
            Ok(Some((player, moves))) => encode(&Outgoing::Welcome { player, moves }),
            Ok(None) => error(RaceError::NotAPlayer),
            Err(e) => error(e),
        }
    }
}

/// The seat of the racer `key` and the moves they have made (for a page
/// that comes back mid-race), if they are in the room.
fn welcome(replica: &Replica, key: &str) -> Option<(Seat, String)> {
    let seat = replica.race.seat_of(key)?;
    let moves = match replica.race.shisen_of(seat) {
        Some((_, turns, _)) => result::turns_text(turns),
        None => replica
            .race
            .moves_of(seat)
            .map(|(moves, _)| moves.to_string())
            .unwrap_or_default(),
    };
    Some((seat, moves))
}

/// Sends `messages` in order; false once the connection is gone.
async fn send_all(socket: &mut WebSocket, messages: Vec<Utf8Bytes>) -> bool {
    for message in messages {
        if socket.feed(Message::Text(message)).await.is_err() {
            return false;
        }
    }
    socket.flush().await.is_ok()
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

    #[test]
    fn close_reasons_fit_a_frame() {
        assert_eq!(truncate("é".repeat(100).as_str(), 121).len(), 120);
        assert_eq!(truncate("short", 120), "short");
    }
}
