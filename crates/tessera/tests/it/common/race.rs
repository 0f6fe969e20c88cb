//! A player's WebSocket to a race room, for the tests that race: the
//! protocol of `docs/race-protocol.md` over blocking tungstenite.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// How long a test waits for a message it expects.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// A player's connection to a room.
pub struct Socket {
    pub ws: WebSocket<MaybeTlsStream<TcpStream>>,
    /// The `tessera_player` cookie the server set (or was sent).
    pub cookie: String,
}

impl Socket {
    /// Connects to `room`, as the player of `cookie` if given.
    pub fn open(base: &str, room: &str, cookie: Option<&str>) -> Socket {
        let url = format!(
            "{}/api/races/{room}/ws",
            base.replacen("http://", "ws://", 1)
        );
        let mut request = url.into_client_request().unwrap();
        if let Some(cookie) = cookie {
            request
                .headers_mut()
                .insert("cookie", cookie.parse().unwrap());
        }
        let (ws, response) = tungstenite::connect(request).unwrap();
        let set = response
            .headers()
            .get("set-cookie")
            .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_string());
        let cookie = cookie.map(str::to_string).or(set).expect("a player cookie");
        if let MaybeTlsStream::Plain(stream) = ws.get_ref() {
            stream.set_read_timeout(Some(PATIENCE)).unwrap();
        }
        Socket { ws, cookie }
    }

    /// Connects and joins as `name`; returns the seat.
    pub fn join(base: &str, room: &str, name: &str) -> (Socket, u64) {
        let mut socket = Socket::open(base, room, None);
        socket.send(json!({"type": "join", "name": name}));
        let seat = socket.expect("welcome")["player"].as_u64().unwrap();
        (socket, seat)
    }

    pub fn send(&mut self, message: Value) {
        self.ws.send(Message::text(message.to_string())).unwrap();
    }

    /// The next message, whatever its type.
    pub fn next(&mut self) -> Value {
        loop {
            match self.read().expect("a message in time") {
                Message::Text(text) => return serde_json::from_str(&text).unwrap(),
                Message::Close(frame) => panic!("closed: {frame:?}"),
                _ => continue,
            }
        }
    }

    /// One frame, read again when a signal interrupts the wait: tests
    /// that kill instances deliver SIGCHLD to this process, and a read
    /// cut short by it has lost nothing (tungstenite keeps partial frames).
    fn read(&mut self) -> tungstenite::Result<Message> {
        loop {
            match self.ws.read() {
                Err(tungstenite::Error::Io(e)) if e.kind() == std::io::ErrorKind::Interrupted => {}
                other => return other,
            }
        }
    }

    /// The next message of `kind`, skipping others.
    pub fn expect(&mut self, kind: &str) -> Value {
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            let message = self.next();
            if message["type"] == kind {
                return message;
            }
        }
        panic!("no {kind} message in time")
    }

    /// The next `progress` of `player`, skipping other messages.
    pub fn progress_of(&mut self, player: u64) -> Value {
        loop {
            let progress = self.expect("progress");
            if progress["player"] == player {
                return progress;
            }
        }
    }

    /// The next `room` message in `state`, skipping others.
    pub fn room_in(&mut self, state: &str) -> Value {
        loop {
            let room = self.expect("room");
            if room["state"] == state {
                return room;
            }
        }
    }

    /// Reads until the server closes: the close code, and whether an
    /// `error` came first.
    pub fn closed(&mut self) -> (u16, bool) {
        let mut told = false;
        loop {
            match self.read() {
                Ok(Message::Text(text)) => {
                    let message: Value = serde_json::from_str(&text).unwrap();
                    told |= message["type"] == "error";
                }
                Ok(Message::Close(Some(frame))) => return (u16::from(frame.code), told),
                Ok(Message::Close(None)) => return (1005, told),
                Ok(_) => {}
                Err(e) => panic!("no close frame: {e}"),
            }
        }
    }
}
