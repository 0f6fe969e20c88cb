//! Scripted racers for `scripts/bench-race`: four players a room, each
//! making ten moves a second on its 5×5 (a random walk that never solves
//! it), measured in a window the script gives.
//!
//! The script starts the servers, opens the rooms and reads the servers'
//! CPU; this program only plays. It is Rust, not the script's Python,
//! because the players share the machine with the servers they measure:
//! Python players took 93 µs of CPU a move, these about 40, and at a few
//! hundred rooms the Python ones took a whole core of the two, so the
//! servers ran short of CPU the players had taken (BENCHMARKS.md, "Live
//! races").
//!
//! ```text
//! race_load --ports 8001,8002 --begin-in 5.2 --seconds 6 ROOM...
//! ```
//!
//! Room `r` is played through the instances in turn: its player `i` on
//! `ports[i % ports.len()]`. Prints one JSON object: every latency in
//! seconds from a move sent to another racer receiving its `progress`
//! (moves sent in the window), the moves sent in the window, the `error`
//! messages received, this process's CPU seconds over the window, and the
//! rooms that never started.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::net::TcpStream;
use tokio::sync::Mutex as AsyncMutex;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

const PLAYERS: usize = 4;
/// Between one player's moves: ten a second.
const PACE: Duration = Duration::from_millis(100);

#[derive(Parser)]
struct Args {
    /// The instances' ports, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    ports: Vec<u16>,
    /// Seconds from now to the window's start.
    #[arg(long)]
    begin_in: f64,
    /// The window's length in seconds.
    #[arg(long)]
    seconds: f64,
    /// The rooms' ids, as `POST /api/races` gave them.
    rooms: Vec<String>,
}

/// The measurement window, and what every player adds to it.
struct Level {
    from: Instant,
    to: Instant,
    moves: AtomicU64,
    errors: AtomicU64,
}

impl Level {
    fn measuring(&self, at: Instant) -> bool {
        self.from <= at && at < self.to
    }
}

/// A room as its players share it: when each move was sent, by seat and
/// count, for the others to time its `progress`.
#[derive(Default)]
struct Room {
    sent: Mutex<HashMap<(u64, u64), Instant>>,
    started: AtomicBool,
}

/// The fields of a server message the players read.
#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    player: Option<u64>,
    moves: Option<serde_json::Value>,
    state: Option<&'a str>,
    players: Option<Vec<serde::de::IgnoredAny>>,
    puzzle: Option<Puzzle>,
}

#[derive(Deserialize)]
struct Puzzle {
    position: String,
}

/// The board as a player walks it.
struct Board {
    tiles: Vec<u32>,
    width: usize,
    height: usize,
}

impl Board {
    fn parse(position: &str) -> Board {
        let rows: Vec<Vec<u32>> = position
            .split('/')
            .map(|row| row.split(' ').map(|t| t.parse().expect("a tile")).collect())
            .collect();
        Board {
            width: rows[0].len(),
            height: rows.len(),
            tiles: rows.concat(),
        }
    }

    /// A random move other than undoing `last`, made: its letter.
    fn walk(&mut self, last: Option<char>, rng: &mut fastrand::Rng) -> char {
        let blank = self.tiles.iter().position(|&t| t == 0).expect("a blank");
        let (bx, by) = ((blank % self.width) as isize, (blank / self.width) as isize);
        // The tile that moves U comes from below the blank.
        let options: Vec<(char, usize)> = [
            ('U', 0, 1, 'D'),
            ('D', 0, -1, 'U'),
            ('L', 1, 0, 'R'),
            ('R', -1, 0, 'L'),
        ]
        .into_iter()
        .filter(|&(_, _, _, inverse)| Some(inverse) != last)
        .filter_map(|(letter, dx, dy, _)| {
            let (x, y) = (bx + dx, by + dy);
            let inside =
                (0..self.width as isize).contains(&x) && (0..self.height as isize).contains(&y);
            inside.then(|| (letter, y as usize * self.width + x as usize))
        })
        .collect();
        let (letter, source) = options[rng.usize(..options.len())];
        self.tiles.swap(blank, source);
        letter
    }
}

type Sink = Arc<AsyncMutex<SplitSink<WebSocketStream<MaybeTlsStream<TcpStream>>, Message>>>;

async fn send(sink: &Sink, text: String) {
    // A send that fails is a connection gone: the listener sees it end.
    let _ = sink.lock().await.send(Message::text(text)).await;
}

/// One racer: joins, starts the room if it is the first seat and the
/// room is full, then moves at its pace until the window ends. Returns
/// the latencies it timed.
async fn player(
    level: Arc<Level>,
    port: u16,
    id: String,
    room: Arc<Room>,
    index: usize,
) -> Vec<f64> {
    let mut rng = fastrand::Rng::new();
    let mut request = format!("ws://127.0.0.1:{port}/api/races/{id}/ws")
        .into_client_request()
        .expect("a request");
    let cookie = format!("tessera_player={:032x}", rng.u128(..));
    request
        .headers_mut()
        .insert("Cookie", cookie.parse().expect("a header"));
    // The WebSocket layer zeroes its read buffer before every read: at its
    // default 128 KiB that was a third of these players' CPU, for
    // messages of a few hundred bytes.
    let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
    let (socket, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true)
        .await
        .expect("the race's socket");
    let (sink, mut stream) = socket.split();
    let sink: Sink = Arc::new(AsyncMutex::new(sink));
    send(
        &sink,
        format!(r#"{{"type":"join","name":"bot {}"}}"#, index + 1),
    )
    .await;

    let (begin, begun) = tokio::sync::oneshot::channel::<(u64, Board, Instant)>();
    // Kept outside the listener, which is stopped, not awaited.
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let listener = {
        let (level, room, sink) = (level.clone(), room.clone(), sink.clone());
        let latencies = latencies.clone();
        tokio::spawn(async move {
            let mut begin = Some(begin);
            let mut me = 0;
            while let Some(Ok(message)) = stream.next().await {
                let Message::Text(text) = message else {
                    continue;
                };
                let now = Instant::now();
                let message: Incoming = serde_json::from_str(&text).expect("a server message");
                match message.kind {
                    "welcome" => me = message.player.unwrap_or(0),
                    "room"
                        if me == 1
                            && message.state == Some("lobby")
                            && message.players.map_or(0, |p| p.len()) == PLAYERS =>
                    {
                        send(&sink, r#"{"type":"start"}"#.into()).await;
                    }
                    "start" => {
                        room.started.store(true, Ordering::Relaxed);
                        let board = Board::parse(&message.puzzle.expect("a puzzle").position);
                        if let Some(begin) = begin.take() {
                            let _ = begin.send((me, board, now));
                        }
                    }
                    "progress" if message.player != Some(me) => {
                        let seat = message.player.unwrap_or(0);
                        let moves = message.moves.and_then(|m| m.as_u64()).unwrap_or(0);
                        let sent = room.sent.lock().unwrap().get(&(seat, moves)).copied();
                        if let Some(sent) = sent.filter(|&s| level.measuring(s)) {
                            latencies.lock().unwrap().push((now - sent).as_secs_f64());
                        }
                    }
                    "error" => {
                        level.errors.fetch_add(1, Ordering::Relaxed);
                    }
                    _ => {}
                }
            }
        })
    };

    let until = tokio::time::Instant::from_std(level.to);
    let Ok(Ok((me, mut board, begun))) = tokio::time::timeout_at(until, begun).await else {
        // Never started: the room is counted late.
        listener.abort();
        return Vec::new();
    };
    // Each player on its own phase, then a move every PACE by the clock
    // (not by sleeping a fixed time, which would drift).
    let mut tick = begun + PACE.mul_f64(rng.f64());
    let (mut last, mut moves) = (None, 0);
    while Instant::now() < level.to {
        tokio::time::sleep_until(tick.into()).await;
        tick += PACE;
        let letter = board.walk(last, &mut rng);
        last = Some(letter);
        moves += 1;
        let now = Instant::now();
        room.sent.lock().unwrap().insert((me, moves), now);
        if level.measuring(now) {
            level.moves.fetch_add(1, Ordering::Relaxed);
        }
        let t = (now - begun).as_millis();
        send(
            &sink,
            format!(r#"{{"type":"move","moves":"{letter}","t":{t}}}"#),
        )
        .await;
    }
    // The last progress messages arrive.
    tokio::time::sleep(Duration::from_millis(500)).await;
    send(&sink, r#"{"type":"leave"}"#.into()).await;
    let _ = sink.lock().await.close().await;
    listener.abort();
    let timed = std::mem::take(&mut *latencies.lock().unwrap());
    timed
}

/// This process's CPU seconds (user and system), from /proc.
fn own_cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .expect("a stat line")
        .1
        .split_whitespace()
        .collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // The kernel's USER_HZ, 100 on Linux.
    ticks as f64 / 100.0
}

// One thread: the script runs as many processes as it wants cores, and a
// thread of its own each spares the players the wake-ups across threads.
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args = Args::parse();
    let from = Instant::now() + Duration::from_secs_f64(args.begin_in);
    let level = Arc::new(Level {
        from,
        to: from + Duration::from_secs_f64(args.seconds),
        moves: AtomicU64::new(0),
        errors: AtomicU64::new(0),
    });
    let rooms: Vec<Arc<Room>> = args.rooms.iter().map(|_| Arc::default()).collect();
    let mut players = Vec::new();
    for (r, id) in args.rooms.iter().enumerate() {
        for i in 0..PLAYERS {
            let port = args.ports[i % args.ports.len()];
            let task = player(level.clone(), port, id.clone(), rooms[r].clone(), i);
            players.push(tokio::spawn(task));
        }
    }
    tokio::time::sleep_until(level.from.into()).await;
    let cpu = own_cpu();
    tokio::time::sleep_until(level.to.into()).await;
    let client_cpu = own_cpu() - cpu;
    let late = rooms
        .iter()
        .filter(|r| !r.started.load(Ordering::Relaxed))
        .count();
    let mut latencies = Vec::new();
    for p in players {
        latencies.extend(p.await.expect("a player"));
    }
    let report = serde_json::json!({
        "latencies": latencies,
        "moves": level.moves.load(Ordering::Relaxed),
        "errors": level.errors.load(Ordering::Relaxed),
        "client_cpu": client_cpu,
        "late": late,
    });
    println!("{report}");
}
