//! Race rooms shared over the live-play bus (`serve --bus redis://…`):
//! two instances behind nginx, PostgreSQL keeping what lasts and Redis
//! carrying the moves.
//!
//! The ones that need Redis, PostgreSQL and nginx are ignored by default:
//! `scripts/test` starts all three and runs them by name with
//! `TESSERA_TEST_REDIS` and `TESSERA_TEST_POSTGRES` set (a missing one
//! fails them: they never pass without running).

use crate::common;
use crate::scale_out::{puzzle_position, race_across, rated_race_settled_once, Cluster};

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::race::Socket;
use common::server::Client;
use serde_json::{json, Value};

fn redis() -> String {
    std::env::var("TESSERA_TEST_REDIS")
        .expect("TESSERA_TEST_REDIS: a Redis server's URL (scripts/test starts one)")
}

/// Two instances over one fresh database, sharing rooms over Redis: a
/// Redis database of their own, so that the instances of other tests
/// (killed when each test ends) are not theirs to disconnect.
fn cluster() -> Cluster {
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    let db = NEXT.fetch_add(1, Ordering::SeqCst);
    assert!(
        db < 15,
        "Redis has 16 databases (the last for the cut-off test)"
    );
    let bus = format!("{}/{db}", redis().trim_end_matches('/'));
    Cluster::start_with(&["--bus", &bus])
}

#[test]
#[ignore = "needs Redis, PostgreSQL and nginx: scripts/test runs it"]
fn a_race_is_shared_by_players_on_different_instances_over_the_bus() {
    race_across(&cluster());
}

#[test]
#[ignore = "needs Redis, PostgreSQL and nginx: scripts/test runs it"]
fn a_rated_race_over_the_bus_is_settled_once_in_the_database() {
    rated_race_settled_once(&cluster());
}

#[test]
#[ignore = "needs Redis, PostgreSQL and nginx: scripts/test runs it"]
fn an_arena_is_raced_by_entrants_on_different_instances_over_the_bus() {
    crate::arenas::arena_raced(cluster().urls());
}

/// A 3x3 slide race room opened on the instance at `url`.
fn open_room(url: &str) -> String {
    let opened = Client::new(url).ok("/api/races", json!({"game": "slide", "size": "3x3"}));
    opened["room"].as_str().unwrap().to_string()
}

/// A race under way: Ada's socket and seat, Ben's, the dealt position
/// and its goal.
type Started = (Socket, u64, Socket, u64, slide::Position, slide::Position);

/// The race in `room` started: Ada joined through instance `a`, Ben
/// through `b`, both ready and told the start.
fn started(a: &str, b: &str, room: &str) -> Started {
    let (mut ada, one) = Socket::join(a, room, "Ada");
    let (mut ben, two) = Socket::join(b, room, "Ben");
    ada.send(json!({"type": "ready"}));
    ben.send(json!({"type": "ready"}));
    let puzzle = ada.expect("start")["puzzle"].clone();
    ben.expect("start");
    let start = puzzle_position(&puzzle, "position");
    (
        ada,
        one,
        ben,
        two,
        start,
        puzzle_position(&puzzle, "goal_position"),
    )
}

/// The messages of the race itself a watcher hears, in order: what every
/// socket of the room must hear alike wherever it is connected.
fn race_messages(socket: &mut Socket) -> Vec<Value> {
    let mut heard = Vec::new();
    loop {
        let message = socket.next();
        let kind = message["type"].as_str().unwrap_or_default().to_string();
        if ["countdown", "start", "progress", "finish", "results"].contains(&kind.as_str()) {
            heard.push(message);
        }
        if kind == "results" {
            return heard;
        }
    }
}

#[test]
#[ignore = "needs Redis, PostgreSQL and nginx: scripts/test runs it"]
fn every_instance_takes_the_moves_of_both_in_one_order() {
    let cluster = cluster();
    let [a, b] = [&cluster.instances[0].url, &cluster.instances[1].url];
    let room = open_room(b);
    // A watcher on each instance, there before anything is raced.
    let mut watchers = [Socket::open(a, &room, None), Socket::open(b, &room, None)];
    for watcher in &mut watchers {
        watcher.expect("room");
    }
    let (mut ada, one, mut ben, two, start, goal) = started(a, b, &room);

    // Both race at once, each through their own instance: twenty moves
    // back and forth each, then Ada solves.
    let there = start.legal_moves().next().unwrap();
    let back_and_forth = |socket: &mut Socket| {
        for i in 0..20 {
            let step = if i % 2 == 0 { there } else { there.inverse() };
            socket.send(json!({"type": "move", "moves": step.to_string(), "t": 100 + i}));
        }
    };
    std::thread::scope(|s| {
        s.spawn(|| back_and_forth(&mut ada));
        s.spawn(|| back_and_forth(&mut ben));
    });
    let solution = slide::solve_fast(&start, &goal).unwrap();
    ada.send(json!({"type": "move", "moves": solution.to_string(), "t": 9000}));
    ben.send(json!({"type": "leave"}));

    let [on_a, on_b] = [0, 1].map(|i| race_messages(&mut watchers[i]));
    assert_eq!(on_a, on_b, "both instances take the same steps in order");
    let moves_of = |seat: u64| {
        on_a.iter()
            .filter(|m| m["type"] == "progress" && m["player"] == seat)
            .count()
    };
    // Every move of both was taken (one progress each), and Ada's solve.
    assert_eq!((moves_of(one), moves_of(two)), (21, 20));
    let results = on_a.last().unwrap();
    assert_eq!(results["results"][0]["player"], one);
    assert_eq!(
        results["results"][0]["moves"],
        json!(20 + solution.len()),
        "{results}"
    );

    // The bus's metrics: the steps each instance published add up to the
    // room's last number in Redis (the cluster's only room), and each
    // instance heard them all, with the lag of each.
    // (Read until the two agree: a clock's tick may come between.)
    let bus = cluster.bus.clone().unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let (pages, last) = loop {
        let last: f64 = redis_cli(&bus, &["GET", &format!("tessera:race:{{{room}}}:seq")])
            .parse()
            .unwrap();
        let pages = [a, b].map(|url| Client::new(url).get("/metrics").text);
        let sent: f64 = pages
            .iter()
            .map(|page| metric(page, "tessera_bus_messages_total{direction=\"sent\"}"))
            .sum();
        if sent == last {
            break (pages, last);
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{sent} messages sent for {last} steps"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    for page in &pages {
        // Other tests' instances publish on the same server: at least.
        assert!(metric(page, "tessera_bus_messages_total{direction=\"received\"}") >= last);
        assert!(metric(page, "tessera_bus_lag_seconds_count") >= last);
        assert!(metric(page, "tessera_bus_bytes_total{direction=\"received\"}") > 0.0);
        assert_eq!(metric(page, "tessera_race_rooms"), 1.0, "held by each");
        // Steps are taken from the messages: the log is read when an
        // instance first holds the room (twice: the replay, and what was
        // logged meanwhile), not for each step (nor for its own, announced
        // back to it): 2 measured, against 13 when each step appended
        // after another instance's not yet heard was read back.
        let reads = metric(page, "tessera_race_log_reads_total");
        eprintln!("{reads} reads of the log for {last} steps");
        assert!(reads <= 6.0, "{reads} reads of the log for {last} steps");
    }
    let bytes_sent: f64 = pages
        .iter()
        .map(|page| metric(page, "tessera_bus_bytes_total{direction=\"sent\"}"))
        .sum();
    // Each message carries its step: at least the solve's moves.
    assert!(
        bytes_sent > (solution.len() + 40 * 10) as f64,
        "{bytes_sent}"
    );
}

/// An instance hears the steps of the rooms it holds and of no other: a
/// race played through one instance costs the other nothing until it
/// holds the room too (a watcher there), and then it hears it.
#[test]
#[ignore = "needs Redis, PostgreSQL and nginx: scripts/test runs it"]
fn an_instance_hears_only_the_rooms_it_holds() {
    let cluster = cluster();
    let [a, b] = cluster.urls();
    let heard = |url: &str| {
        let page = Client::new(url).get("/metrics").text;
        metric(&page, "tessera_bus_messages_total{direction=\"received\"}")
    };
    let room = open_room(a);
    let (mut ada, _, mut ben, two, start, _) = started(a, a, &room);
    let mut step = start.legal_moves().next().unwrap();
    for i in 1..=10 {
        ben.send(json!({"type": "move", "moves": step.to_string(), "t": 100 * i}));
        assert_eq!(ada.progress_of(two)["moves"], i);
        step = step.inverse();
    }
    assert!(heard(a) >= 10.0, "a heard {} steps", heard(a));
    assert_eq!(heard(b), 0.0, "b holds no room and heard of one");

    // A watcher through b: b holds the room, and hears Ben's next move.
    let mut watcher = Socket::open(b, &room, None);
    watcher.expect("room");
    ben.send(json!({"type": "move", "moves": step.to_string(), "t": 2_000}));
    // (The snapshot it was sent on joining shows Ben's ten.)
    let mut seen = watcher.progress_of(two);
    if seen["moves"] == 10 {
        seen = watcher.progress_of(two);
    }
    assert_eq!(seen["moves"], 11);
    assert!(heard(b) >= 1.0);
}

/// The value of the metric line starting `name ` on a `/metrics` page
/// (0 when absent).
fn metric(page: &str, name: &str) -> f64 {
    page.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .map_or(0.0, |v| v.parse().unwrap())
}

/// `redis-cli -u URL ARGS`: its output, trimmed.
fn redis_cli(url: &str, args: &[&str]) -> String {
    let out = std::process::Command::new("redis-cli")
        .args(["-u", url])
        .args(args)
        .output()
        .expect("redis-cli is installed with redis-server");
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A bus named at start-up that does not answer stops the server there:
/// exit 1, saying so (without the URL's password), and it never serves
/// (no half-working instance).
#[test]
fn serve_exits_when_the_bus_cannot_be_reached() {
    let nothing = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = common::server::temp_dir();
    let db = dir.join("records.db");
    let bus = format!("redis://:s3cret@127.0.0.1:{nothing}");
    let output = assert_cmd::Command::cargo_bin("tessera")
        .unwrap()
        .args(["serve", "--addr", "127.0.0.1:0", "--bus", &bus])
        .arg("--db")
        .arg(&db)
        .env("TESSERA_TABLES", "small")
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "cannot reach the live-play bus at redis://@127.0.0.1:{nothing}"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("s3cret"), "the password is never shown");
    assert!(
        !String::from_utf8_lossy(&output.stdout).contains("playing at"),
        "it never served"
    );
    // Not a Redis URL at all: refused as bad input before anything starts.
    let output = assert_cmd::Command::cargo_bin("tessera")
        .unwrap()
        .args(["serve", "--bus", "http://example.invalid"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--bus"));
}

/// The `connected` of seat `player` in a `room` message.
fn connected(room: &Value, player: u64) -> Option<bool> {
    room["players"]
        .as_array()?
        .iter()
        .find(|p| p["player"] == player)?["connected"]
        .as_bool()
}

#[test]
#[ignore = "needs Redis, PostgreSQL and nginx: scripts/test runs it"]
fn a_killed_instances_racer_is_shown_disconnected_and_races_on_through_the_other() {
    let cluster = cluster();
    let [a, b] = [&cluster.instances[0].url, &cluster.instances[1].url];
    let room = open_room(a);
    let (mut ada, _, mut ben, two, start, goal) = started(a, b, &room);
    // Ben moves three times on b: there, back, there.
    let there = start.legal_moves().next().unwrap();
    let moves = [there, there.inverse(), there];
    for (i, step) in moves.iter().enumerate() {
        ben.send(json!({"type": "move", "moves": step.to_string(), "t": 100 + i}));
        assert_eq!(ada.progress_of(two)["moves"], i + 1);
    }

    // b dies without a word: its beats stop.
    let victim = cluster.instances[1].pid().to_string();
    let killed = std::time::Instant::now();
    assert!(std::process::Command::new("kill")
        .args(["-KILL", &victim])
        .status()
        .unwrap()
        .success());
    let shown = loop {
        let room = ada.expect("room");
        if connected(&room, two) == Some(false) {
            break killed.elapsed();
        }
    };
    eprintln!("a killed instance's racer was shown disconnected after {shown:?}");
    assert!(shown < Duration::from_secs(5), "{shown:?}");

    // Ben comes back through a, his moves kept, and solves from there.
    let mut ben_again = Socket::open(a, &room, Some(&ben.cookie));
    ben_again.send(json!({"type": "join", "name": "Ben"}));
    let welcome = ben_again.expect("welcome");
    assert_eq!(welcome["player"], two);
    let made: String = moves.iter().map(ToString::to_string).collect();
    assert_eq!(welcome["moves"], made.as_str(), "{welcome}");
    let mut position = start.clone();
    for step in moves {
        position.apply(step).unwrap();
    }
    let solution = slide::solve_fast(&position, &goal).unwrap();
    ben_again.send(json!({"type": "move", "moves": solution.to_string(), "t": 5000}));
    ada.send(json!({"type": "leave"}));
    let results = ben_again.expect("results");
    assert_eq!(results["results"][0]["player"], two, "{results}");
    assert_eq!(results["results"][0]["place"], 1);
    assert_eq!(
        results["results"][0]["moves"],
        json!(moves.len() + solution.len())
    );
}

/// A Redis server of a test's own, which it may kill and start again: on
/// a free port, in a directory of its own, appending every write to its
/// AOF and syncing it before answering, as `scripts/lib/services.sh`
/// starts one (and `deploy/` advises).
struct OwnRedis {
    child: std::process::Child,
    port: u16,
    dir: std::path::PathBuf,
}

impl OwnRedis {
    fn start() -> OwnRedis {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        OwnRedis::start_at(port, common::server::temp_dir())
    }

    fn start_at(port: u16, dir: std::path::PathBuf) -> OwnRedis {
        let child = std::process::Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .arg("--dir")
            .arg(&dir)
            .args([
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server is installed (scripts/test installs it)");
        let started = std::time::Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(10), "no redis");
            std::thread::sleep(Duration::from_millis(20));
        }
        OwnRedis { child, port, dir }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Killed as in a crash (SIGKILL: nothing flushed on the way out).
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Started again on the same port and files.
    fn restart(&mut self) {
        let again = OwnRedis::start_at(self.port, self.dir.clone());
        *self = again;
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
#[ignore = "needs Redis, PostgreSQL and nginx: scripts/test runs it"]
fn redis_killed_and_restarted_mid_race_loses_no_acknowledged_move() {
    // Named by scripts/test like the others, though this one runs its own.
    redis();
    let mut bus = OwnRedis::start();
    let url = bus.url();
    let cluster = Cluster::start_with(&["--bus", &url]);
    let [a, b] = [&cluster.instances[0].url, &cluster.instances[1].url];
    let room = open_room(a);
    let (mut ada, _, mut ben, two, start, goal) = started(a, b, &room);
    let there = start.legal_moves().next().unwrap();
    // Three moves acknowledged (Ada heard each) before Redis dies.
    for i in 0..3 {
        let step = if i % 2 == 0 { there } else { there.inverse() };
        ben.send(json!({"type": "move", "moves": step.to_string(), "t": 100 + i}));
        assert_eq!(ada.progress_of(two)["moves"], i + 1);
    }

    bus.kill();
    // Both racers are told, each by their own instance.
    for socket in [&mut ada, &mut ben] {
        let told = socket.expect("bus");
        assert_eq!(told["away"], true, "{told}");
    }
    // A move meanwhile is refused to its sender, not lost silently.
    ben.send(json!({"type": "move", "moves": there.inverse().to_string(), "t": 200}));
    let refused = ben.expect("error");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("could not be saved"),
        "{refused}"
    );

    // A page connecting meanwhile is told to try again shortly (1013),
    // not refused for good (1008): the race page connects again by itself.
    let mut late = Socket::open(a, &room, None);
    assert_eq!(late.closed().0, 1013);

    bus.restart();
    let back = std::time::Instant::now();
    for socket in [&mut ada, &mut ben] {
        let told = socket.expect("bus");
        assert_eq!(told["away"], false, "{told}");
    }
    // Moves go through again: the fourth is the fourth.
    ben.send(json!({"type": "move", "moves": there.inverse().to_string(), "t": 300}));
    assert_eq!(ada.progress_of(two)["moves"], 4);
    let resumed = back.elapsed();
    eprintln!("rooms resumed {resumed:?} after Redis was back");
    assert!(resumed < Duration::from_secs(5), "{resumed:?}");

    // A third instance replays the room from Redis alone: every
    // acknowledged move is there.
    let c = common::server::Server::start_args(
        &[
            "serve",
            "--solver-rate",
            "100000",
            "--db",
            &common::server::database_for(&common::server::temp_dir()),
            "--bus",
            &url,
        ],
        common::server::temp_dir(),
    );
    let mut watcher = Socket::open(&c.url, &room, None);
    assert_eq!(watcher.progress_of(two)["moves"], 4);

    // And the race ends with the right results.
    let solution = slide::solve_fast(&start, &goal).unwrap();
    ben.send(json!({"type": "move", "moves": solution.to_string(), "t": 9000}));
    ada.send(json!({"type": "leave"}));
    let results = watcher.expect("results");
    assert_eq!(results["results"][0]["player"], two, "{results}");
    assert_eq!(results["results"][0]["moves"], json!(4 + solution.len()));
}

/// A TCP relay to Redis that can be cut (every connection through it
/// closed, new ones refused) and healed: one instance's link to the bus
/// lost while the others keep theirs.
struct Relay {
    port: u16,
    cut: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<std::net::TcpStream>>>,
}

impl Relay {
    fn to(target: u16) -> Relay {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let cut = Arc::new(AtomicBool::new(false));
        let open: Arc<Mutex<Vec<std::net::TcpStream>>> = Arc::default();
        let (is_cut, streams) = (cut.clone(), open.clone());
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                if is_cut.load(Ordering::SeqCst) {
                    continue; // dropped: refused
                }
                let Ok(server) = std::net::TcpStream::connect(("127.0.0.1", target)) else {
                    continue;
                };
                let mut kept = streams.lock().unwrap();
                kept.push(client.try_clone().unwrap());
                kept.push(server.try_clone().unwrap());
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(std::net::Shutdown::Both);
                    });
                }
            }
        });
        Relay { port, cut, open }
    }

    fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for stream in self.open.lock().unwrap().drain(..) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }

    fn heal(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

#[test]
#[ignore = "needs Redis, PostgreSQL and nginx: scripts/test runs it"]
fn an_instance_cut_off_from_the_bus_has_its_racers_connect_again_when_it_is_back() {
    static DB: &str = "15";
    let direct = format!("{}/{DB}", redis().trim_end_matches('/'));
    let port: u16 = direct
        .rsplit(':')
        .next()
        .and_then(|p| p.split('/').next())
        .unwrap()
        .parse()
        .unwrap();
    let relay = Relay::to(port);
    let through = format!("redis://127.0.0.1:{}/{DB}", relay.port);
    let cluster = Cluster::start_each([&["--bus", &direct], &["--bus", &through]]);
    let [a, b] = [&cluster.instances[0].url, &cluster.instances[1].url];
    let room = open_room(a);
    let (mut ada, _, mut ben, two, start, goal) = started(a, b, &room);
    let there = start.legal_moves().next().unwrap();
    ben.send(json!({"type": "move", "moves": there.to_string(), "t": 100}));
    assert_eq!(ada.progress_of(two)["moves"], 1);

    // b loses Redis, a does not: Ben is told, and a takes b for dead.
    relay.cut();
    assert_eq!(ben.expect("bus")["away"], true);
    loop {
        if connected(&ada.expect("room"), two) == Some(false) {
            break;
        }
    }
    // Back: b finds itself struck off, and closes Ben's socket so that
    // his page connects again (1012), to be seen connected anew.
    relay.heal();
    let (code, told) = ben.closed();
    assert_eq!((code, told), (1012, true));
    let mut ben_again = Socket::open(b, &room, Some(&ben.cookie));
    ben_again.send(json!({"type": "join", "name": "Ben"}));
    assert_eq!(ben_again.expect("welcome")["moves"], there.to_string());
    loop {
        if connected(&ada.expect("room"), two) == Some(true) {
            break;
        }
    }
    let mut position = start.clone();
    position.apply(there).unwrap();
    let solution = slide::solve_fast(&position, &goal).unwrap();
    ben_again.send(json!({"type": "move", "moves": solution.to_string(), "t": 5000}));
    ada.send(json!({"type": "leave"}));
    let results = ben_again.expect("results");
    assert_eq!(results["results"][0]["player"], two, "{results}");
}
