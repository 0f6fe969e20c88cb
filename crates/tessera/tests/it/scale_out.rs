//! Several stateless instances over one PostgreSQL database behind nginx,
//! configured by the repository's `deploy/nginx.conf`: games are played
//! through the balancer with requests landing on both instances, a
//! submission raced across both is recorded once, and play goes on when
//! one instance is killed mid-load with nothing answered 200 lost.
//!
//! These need PostgreSQL and nginx, which `scripts/test` installs and
//! starts: it runs them with `--ignored` and `TESSERA_TEST_POSTGRES` set.

use crate::common;

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use common::race::Socket;
use common::server::{Client, Server};
use serde_json::{json, Value};

fn postgres() -> String {
    std::env::var("TESSERA_TEST_POSTGRES")
        .expect("TESSERA_TEST_POSTGRES: a PostgreSQL server's URL (scripts/test starts one)")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn port_of(server: &Server) -> u16 {
    server.url.rsplit(':').next().unwrap().parse().unwrap()
}

/// nginx in the foreground with `deploy/nginx.conf`, its ports and paths
/// replaced; stopped on drop.
pub(crate) struct Balancer {
    child: Child,
    pub(crate) url: String,
}

impl Balancer {
    fn start(dir: &std::path::Path, upstreams: [u16; 2]) -> Balancer {
        let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/nginx.conf");
        let mut conf = std::fs::read_to_string(shipped).unwrap();
        let port = free_port();
        let dir_text = dir.to_string_lossy();
        let replacements = [
            (
                "listen 80;".to_string(),
                format!("listen 127.0.0.1:{port};"),
            ),
            (
                "127.0.0.1:8080".to_string(),
                format!("127.0.0.1:{}", upstreams[0]),
            ),
            (
                "127.0.0.1:8081".to_string(),
                format!("127.0.0.1:{}", upstreams[1]),
            ),
            (
                "/run/nginx-tessera.pid".to_string(),
                format!("{dir_text}/nginx.pid"),
            ),
            ("/var/log/nginx/".to_string(), format!("{dir_text}/")),
        ];
        for (from, to) in replacements {
            assert!(
                conf.contains(&from),
                "deploy/nginx.conf no longer has {from:?}"
            );
            conf = conf.replace(&from, &to);
        }
        let path = dir.join("nginx.conf");
        std::fs::write(&path, conf).unwrap();
        // Workers may run as another user: let them write their temp files.
        let _ = Command::new("chmod").arg("777").arg(dir).status();
        let nginx = ["/usr/sbin/nginx", "nginx"]
            .into_iter()
            .find(|n| {
                Command::new(n)
                    .arg("-v")
                    .stderr(Stdio::null())
                    .status()
                    .is_ok()
            })
            .expect("nginx is installed (scripts/test installs it)");
        let child = Command::new(nginx)
            .arg("-c")
            .arg(&path)
            .arg("-p")
            .arg(dir)
            .args(["-g", "daemon off;"])
            .spawn()
            .unwrap();
        let url = format!("http://127.0.0.1:{port}");
        let mut probe = Client::new(&url);
        let start = Instant::now();
        loop {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
                && probe.get("/healthz").status == 200
            {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "nginx did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Balancer { child, url }
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        // SIGTERM, not SIGKILL: the master then takes its workers down too.
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let _ = self.child.wait();
    }
}

/// Two instances over one fresh database, and nginx in front.
pub(crate) struct Cluster {
    pub(crate) balancer: Balancer,
    pub(crate) instances: [Server; 2],
    database: String,
    /// The `--bus` the instances share, if any.
    pub(crate) bus: Option<String>,
}

impl Cluster {
    fn start() -> Cluster {
        Cluster::start_with(&[])
    }

    /// Two instances started with `extra` arguments as well (`--bus URL`).
    pub(crate) fn start_with(extra: &[&str]) -> Cluster {
        Cluster::start_each([extra, extra])
    }

    /// Two instances, each started with its own `extra` arguments.
    pub(crate) fn start_each(extras: [&[&str]; 2]) -> Cluster {
        let dir = common::server::temp_dir();
        let name = format!(
            "scale_{}",
            dir.file_name().unwrap().to_string_lossy().replace('-', "_")
        );
        let database = format!("{}/{name}", postgres().trim_end_matches('/'));
        let [a, b] = extras.map(|extra| {
            let mut args = vec![
                "serve",
                "--trust-proxy",
                "--solver-rate",
                "100000",
                "--db",
                database.as_str(),
            ];
            args.extend_from_slice(extra);
            Server::start_args(&args, common::server::temp_dir())
        });
        let balancer = Balancer::start(&dir, [port_of(&a), port_of(&b)]);
        let bus = extras[0]
            .iter()
            .position(|arg| *arg == "--bus")
            .map(|i| extras[0][i + 1].to_string());
        Cluster {
            balancer,
            instances: [a, b],
            database,
            bus,
        }
    }

    fn client(&self) -> Client {
        Client::new(&self.balancer.url)
    }

    /// The two instances' own addresses.
    pub(crate) fn urls(&self) -> [&str; 2] {
        [&self.instances[0].url, &self.instances[1].url]
    }

    /// How many requests to `route` instance `i` has answered, by its own
    /// metrics.
    fn served(&self, i: usize, route: &str) -> f64 {
        let page = Client::new(&self.instances[i].url).get("/metrics").text;
        page.lines()
            .filter(|l| {
                l.starts_with("tessera_http_requests_total{")
                    && l.contains(&format!("route=\"{route}\""))
            })
            .map(|l| l.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
            .sum()
    }
}

/// A fresh 3×3 through `c` and its solution from the server's solver.
fn slide_game(c: &mut Client) -> (Value, String) {
    let game = c.ok("/api/slide/new", json!({"size": "3x3"}));
    let solution = c.ok(
        "/api/slide/solve",
        json!({"position": game["position"], "goal": game["goal_position"]}),
    );
    (game, solution["moves"].as_str().unwrap().to_string())
}

fn submission(game: &Value, moves: &str) -> Value {
    let times: Vec<i64> = (0..moves.len() as i64).map(|i| 1 + i).collect();
    json!({"game": game["game"], "moves": moves, "times": times})
}

#[test]
#[ignore = "needs PostgreSQL and nginx: scripts/test runs it"]
fn games_are_played_through_the_balancer_on_both_instances() {
    let cluster = Cluster::start();
    let mut c = cluster.client();
    // Sliding puzzles: each game's requests alternate between instances.
    for _ in 0..4 {
        let (game, moves) = slide_game(&mut c);
        let done = c.ok("/api/slide/submit", submission(&game, &moves));
        assert_eq!(done["solved"], true, "{done}");
    }
    for i in 0..2 {
        assert!(
            cluster.served(i, "/api/slide/new") >= 1.0,
            "instance {i} issued no puzzle"
        );
        assert!(
            cluster.served(i, "/api/slide/submit") >= 1.0,
            "instance {i} judged no game"
        );
    }
    // Shisen-Sho by hints, with a pause on one instance and the resume on
    // the other: the paused turns live in the database.
    let game = c.ok("/api/shisen/new", json!({"size": "6x4", "seed": 3}));
    let mut board = game["board"].as_str().unwrap().to_string();
    let mut turns = Vec::new();
    while board.chars().any(|ch| ch != '.' && ch != '\n') {
        let hint = c.ok(
            "/api/shisen/hint",
            json!({"board": board, "game": game["game"]}),
        );
        let m = hint["move"].clone();
        assert!(!m.is_null(), "a solvable deal always has a safe hint");
        let path = c.ok(
            "/api/shisen/path",
            json!({"board": board, "from": [m[0], m[1]], "to": [m[2], m[3]]}),
        );
        board = path["board"].as_str().unwrap().to_string();
        turns.push(m);
        if turns.len() == 3 {
            let mut on_a = Client::new(&cluster.instances[0].url);
            on_a.cookie = c.cookie.clone();
            let times: Vec<i64> = (1..=3).map(|i| i * 10).collect();
            let paused = on_a.ok(
                "/api/shisen/pause",
                json!({"game": game["game"], "turns": &turns, "times": times}),
            );
            assert_eq!(paused["paused"], true);
            let mut on_b = Client::new(&cluster.instances[1].url);
            on_b.cookie = c.cookie.clone();
            let resumed = on_b.ok("/api/shisen/resume", json!({"game": game["game"]}));
            assert_eq!(resumed["at"], 3);
            assert_eq!(
                resumed["boards"][3].as_str(),
                Some(board.as_str()),
                "instance B knows A's turns"
            );
        }
    }
    let times: Vec<i64> = (1..=turns.len() as i64).map(|i| i * 10).collect();
    let done = c.ok(
        "/api/shisen/submit",
        json!({"game": game["game"], "turns": turns, "times": times}),
    );
    assert_eq!(done["solved"], true, "{done}");
    for i in 0..2 {
        // Hints and paths alternate, and so do the instances.
        let shisen = cluster.served(i, "/api/shisen/path") + cluster.served(i, "/api/shisen/hint");
        assert!(
            shisen >= 4.0,
            "instance {i} served only {shisen} of the Shisen-Sho game"
        );
    }
    let replay = c.get(&format!("/api/replays/{}", game["game"].as_str().unwrap()));
    assert_eq!(replay.status, 200, "{}", replay.text);
}

#[test]
#[ignore = "needs PostgreSQL and nginx: scripts/test runs it"]
fn a_submission_raced_across_both_instances_is_recorded_once() {
    let cluster = Cluster::start();
    let mut c = cluster.client();
    // Ten games dealt first, then each one's submission raced.
    let games: Vec<(Value, String)> = (0..10).map(|_| slide_game(&mut c)).collect();
    for (round, (game, moves)) in games.iter().enumerate() {
        let body = submission(game, moves);
        let barrier = Arc::new(Barrier::new(2));
        let racers: Vec<_> = cluster
            .instances
            .iter()
            .map(|instance| {
                let (url, cookie, body, barrier) = (
                    instance.url.clone(),
                    c.cookie.clone(),
                    body.clone(),
                    barrier.clone(),
                );
                std::thread::spawn(move || {
                    let mut client = Client::new(&url);
                    client.cookie = cookie;
                    barrier.wait();
                    let reply = client.post("/api/slide/submit", body);
                    (reply.status, reply.text)
                })
            })
            .collect();
        let replies: Vec<(u16, String)> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        // One instance records it; the other, finding it recorded, answers
        // the same submission as it was answered.
        assert_eq!(replies[0].0, 200, "round {round}: {}", replies[0].1);
        assert_eq!(replies[0], replies[1], "round {round}: one answer");
    }
    let mine = c.get("/api/me/stats?game=slide&variant=3x3-row-major");
    assert_eq!(mine.status, 200, "{}", mine.text);
    assert_eq!(
        mine.json()["count"],
        10,
        "ten games, ten results: {}",
        mine.text
    );
}

#[test]
#[ignore = "needs PostgreSQL and nginx: scripts/test runs it"]
fn play_goes_on_when_an_instance_is_killed_and_nothing_answered_is_lost() {
    let cluster = Cluster::start();
    let stop = Arc::new(AtomicBool::new(false));
    let killed = Arc::new(AtomicBool::new(false));
    // (game id, answered after the kill) for every submission answered 200.
    let answered = Arc::new(Mutex::new(Vec::<(String, bool)>::new()));
    let failures = Arc::new(Mutex::new(Vec::<u16>::new()));
    let players: Vec<_> = (0..4)
        .map(|_| {
            let (url, stop, killed, answered, failures) = (
                cluster.balancer.url.clone(),
                stop.clone(),
                killed.clone(),
                answered.clone(),
                failures.clone(),
            );
            std::thread::spawn(move || {
                let mut c = Client::new(&url);
                while !stop.load(Ordering::SeqCst) {
                    let game = c.post("/api/slide/new", json!({"size": "3x3"}));
                    if game.status != 200 {
                        failures.lock().unwrap().push(game.status);
                        continue;
                    }
                    let game = game.json();
                    let solution = c.post(
                        "/api/slide/solve",
                        json!({"position": game["position"], "goal": game["goal_position"]}),
                    );
                    if solution.status != 200 {
                        failures.lock().unwrap().push(solution.status);
                        continue;
                    }
                    let moves = solution.json()["moves"].as_str().unwrap().to_string();
                    let done = c.post("/api/slide/submit", submission(&game, &moves));
                    match done.status {
                        200 => answered.lock().unwrap().push((
                            game["game"].as_str().unwrap().to_string(),
                            killed.load(Ordering::SeqCst),
                        )),
                        other => failures.lock().unwrap().push(other),
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1_500));
    let victim = cluster.instances[1].pid().to_string();
    assert!(Command::new("kill")
        .args(["-KILL", &victim])
        .status()
        .unwrap()
        .success());
    killed.store(true, Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(2_500));
    stop.store(true, Ordering::SeqCst);
    for player in players {
        player.join().unwrap();
    }
    let answered = answered.lock().unwrap().clone();
    let after = answered.iter().filter(|(_, after)| *after).count();
    assert!(
        answered.len() - after >= 4,
        "play before the kill: {answered:?}"
    );
    assert!(after >= 4, "play goes on after the kill: {after} games");
    let failures = failures.lock().unwrap().clone();
    assert!(
        failures.len() <= 8,
        "only requests in flight at the kill may fail: {failures:?}"
    );
    // Every submission answered 200 is in the database.
    let mut c = cluster.client();
    for (game, _) in &answered {
        let replay = c.get(&format!("/api/replays/{game}"));
        assert_eq!(replay.status, 200, "result of {game} lost: {}", replay.text);
    }
    let _ = &cluster.database;
}

#[test]
#[ignore = "needs PostgreSQL and nginx: scripts/test runs it"]
fn readiness_fails_when_the_database_is_gone_and_liveness_does_not() {
    let cluster = Cluster::start();
    let mut a = Client::new(&cluster.instances[0].url);
    assert_eq!(a.get("/readyz").status, 200);
    let (base, name) = cluster.database.rsplit_once('/').unwrap();
    let dropped = Command::new("psql")
        .arg(format!("{base}/postgres"))
        .args([
            "-v",
            "ON_ERROR_STOP=1",
            "-qc",
            &format!("DROP DATABASE {name} WITH (FORCE)"),
        ])
        .status()
        .expect("psql (PostgreSQL's client)");
    assert!(dropped.success());
    let ready = a.get("/readyz");
    assert_eq!(ready.status, 503, "{}", ready.text);
    assert!(ready.json()["error"].as_str().unwrap().contains("database"));
    assert_eq!(a.get("/healthz").status, 200, "the process itself is alive");
    let new = a.post("/api/slide/new", json!({"size": "3x3"}));
    assert!(
        new.status >= 500 && new.json()["error"].is_string(),
        "{} {}",
        new.status,
        new.text
    );
}

#[test]
#[ignore = "needs PostgreSQL and nginx: scripts/test runs it"]
fn a_session_made_on_one_instance_is_recognised_on_the_other() {
    let cluster = Cluster::start();
    let mut a = Client::new(&cluster.instances[0].url);
    let (handle, _) = a.sign_up("both");
    // The same browser's cookie, sent to the other instance.
    let mut b = Client::new(&cluster.instances[1].url);
    b.cookie = a.cookie.clone();
    let me = b.get("/api/account");
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(me.json()["handle"], handle.as_str());
    // Signing out everywhere on the second ends the session on the first.
    let out = b.post("/api/account/logout-all", json!({}));
    assert_eq!(out.status, 204, "{}", out.text);
    assert_eq!(a.get("/api/account").status, 401);
}

/// The `start` message's puzzle field, as a position.
pub(crate) fn puzzle_position(puzzle: &Value, field: &str) -> slide::Position {
    puzzle[field].as_str().unwrap().parse().unwrap()
}

#[test]
#[ignore = "needs PostgreSQL and nginx: scripts/test runs it"]
fn a_race_is_shared_by_players_on_different_instances() {
    race_across(&Cluster::start());
}

/// A race opened on one instance of `cluster` and raced on both: one
/// order of seats, moves heard across within half a second, a step too
/// long to carry read from the log, one set of results and one replay.
pub(crate) fn race_across(cluster: &Cluster) {
    let [a, b] = [&cluster.instances[0].url, &cluster.instances[1].url];
    // Opened on one instance, joined on both.
    let opened = Client::new(a).ok("/api/races", json!({"game": "slide", "size": "3x3"}));
    let room = opened["room"].as_str().unwrap().to_string();
    let (mut ada, one) = Socket::join(a, &room, "Ada");
    let (mut ben, two) = Socket::join(b, &room, "Ben");
    assert_eq!((one, two), (1, 2), "seats are drawn from one log");
    let lobby = loop {
        let lobby = ada.room_in("lobby");
        if lobby["players"].as_array().unwrap().len() == 2 {
            break lobby;
        }
    };
    assert_eq!(lobby["players"][1]["name"], "Ben", "Ada hears Ben join");

    ada.send(json!({"type": "start"}));
    assert_eq!(ben.expect("countdown")["ms"], 3000);
    let puzzle = ada.expect("start")["puzzle"].clone();
    assert_eq!(ben.expect("start")["puzzle"], puzzle, "one deal for both");
    let start = puzzle_position(&puzzle, "position");
    let goal = puzzle_position(&puzzle, "goal_position");

    // Ben's move, made on instance b, reaches Ada on instance a.
    let step = start.legal_moves().next().unwrap();
    let moved = Instant::now();
    ben.send(json!({"type": "move", "moves": step.to_string(), "t": 400}));
    let seen = ada.progress_of(two);
    let latency = moved.elapsed();
    let mut after = start.clone();
    after.apply(step).unwrap();
    assert_eq!(seen["moves"], 1);
    assert_eq!(seen["position"], after.to_string(), "Ada draws Ben's board");
    eprintln!("a move on one instance reached the other's racer in {latency:?}");
    assert!(latency < Duration::from_millis(500), "{latency:?}");

    // A step too long for a notification to carry (8,000 moves back and
    // forth) is read from the log by the other instance.
    let there = after.legal_moves().next().unwrap();
    let long = format!("{there}{}", there.inverse()).repeat(4000);
    ben.send(json!({"type": "move", "moves": long, "t": 450}));
    let seen = ada.progress_of(two);
    assert_eq!(seen["moves"], 8001);
    assert_eq!(seen["position"], after.to_string());

    // An illegal move on b is refused there and never reaches a: three
    // the same way, which the blank cannot make on a 3x3 wherever it is.
    let overrun = there.letter().to_string().repeat(3);
    ben.send(json!({"type": "move", "moves": overrun, "t": 500}));
    assert!(ben.expect("error")["message"].is_string());

    // Ada solves on a; Ben gives up on b: both hear the same results.
    let solution = slide::solve_fast(&start, &goal).unwrap();
    ada.send(json!({"type": "move", "moves": solution.to_string(), "t": 9000}));
    let finish = ben.expect("finish");
    assert_eq!(finish["player"], one);
    ben.send(json!({"type": "leave"}));
    let results = ada.expect("results");
    assert_eq!(results["results"][0]["player"], one);
    let game = results["results"][0]["game"].as_str().unwrap().to_string();
    assert_eq!(
        finish["result"]["game"], game,
        "every instance names the same game"
    );

    // A spectator through nginx (the WebSocket upgrade) sees the results,
    // and the solve's replay is served by either instance.
    let mut watcher = Socket::open(&cluster.balancer.url, &room, None);
    let seen = watcher.expect("results");
    assert_eq!(seen["results"], results["results"]);
    let deadline = Instant::now() + Duration::from_secs(5);
    for url in [a, b] {
        loop {
            let replay = Client::new(url).get(&format!("/api/replays/{game}"));
            if replay.status == 200 {
                assert_eq!(replay.json()["stm"], solution.len());
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the race's replay was not stored"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    // A rematch asked on a is dealt alike on b (which deals the seed it
    // hears of): Ben, back through b, is dealt Ada's new puzzle.
    ada.send(json!({"type": "rematch"}));
    ada.room_in("lobby");
    let (mut ben, _) = Socket::join(b, &room, "Ben");
    ada.send(json!({"type": "start"}));
    let again = ada.expect("start")["puzzle"].clone();
    assert_eq!(ben.expect("start")["puzzle"], again, "one rematch deal");
    assert_ne!(again, puzzle, "a new puzzle");
}

#[test]
#[ignore = "needs PostgreSQL and nginx: scripts/test runs it"]
fn an_arena_is_raced_by_entrants_on_different_instances() {
    let cluster = Cluster::start();
    crate::arenas::arena_raced(cluster.urls());
}

#[test]
#[ignore = "needs PostgreSQL and nginx: scripts/test runs it"]
fn a_rated_race_seen_ending_by_both_instances_is_settled_once() {
    rated_race_settled_once(&Cluster::start());
}

/// A rated race raced across both instances of `cluster`, which both see
/// it end: settled once, each racer's rating as Glicko-2 makes of it.
pub(crate) fn rated_race_settled_once(cluster: &Cluster) {
    use crate::ratings::{assert_rating, glicko2, ratings_of_at, NEW};
    let [a, b] = [&cluster.instances[0].url, &cluster.instances[1].url];
    let opened = Client::new(a).ok(
        "/api/races",
        json!({"game": "slide", "size": "3x3", "rated": true}),
    );
    let room = opened["room"].as_str().unwrap().to_string();
    // Ada on one instance, Ben on the other: both hold the room.
    let mut ada_client = Client::new(a);
    let (ada, _) = ada_client.sign_up("ada");
    let mut ben_client = Client::new(b);
    let (ben, _) = ben_client.sign_up("ben");
    let mut ada_socket = Socket::open(a, &room, ada_client.cookie.as_deref());
    ada_socket.send(json!({"type": "join", "name": "Ada"}));
    ada_socket.expect("welcome");
    let mut ben_socket = Socket::open(b, &room, ben_client.cookie.as_deref());
    ben_socket.send(json!({"type": "join", "name": "Ben"}));
    ben_socket.expect("welcome");
    ada_socket.send(json!({"type": "ready"}));
    ben_socket.send(json!({"type": "ready"}));
    let puzzle = ada_socket.expect("start")["puzzle"].clone();
    ben_socket.expect("start");
    // Ben leaves on b; Ada solves on a. Both instances see the race end.
    ben_socket.send(json!({"type": "leave"}));
    let start = puzzle_position(&puzzle, "position");
    let goal = puzzle_position(&puzzle, "goal_position");
    let solution = slide::solve_fast(&start, &goal).unwrap();
    ada_socket.send(json!({"type": "move", "moves": solution.to_string(), "t": 1}));
    ada_socket.expect("results");
    // Each instance tried to settle it once; one of them applied it.
    let tried = |how: &str| -> f64 {
        cluster
            .instances
            .iter()
            .map(|server| {
                let page = Client::new(&server.url).get("/metrics").text;
                page.lines()
                    .filter(|l| {
                        l.starts_with("tessera_rated_races_total{")
                            && l.contains(&format!("settlement=\"{how}\""))
                    })
                    .map(|l| l.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
                    .sum::<f64>()
            })
            .sum()
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    while tried("settled") + tried("already") < 2.0 {
        assert!(Instant::now() < deadline, "both instances did not settle");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!((tried("settled"), tried("already")), (1.0, 1.0));
    // Once: one game each, as Glicko-2 makes of it.
    assert_rating(
        &ratings_of_at(a, &ada)[0],
        glicko2(NEW, &[(NEW.0, NEW.1, 1.0)]),
        1,
    );
    assert_rating(
        &ratings_of_at(b, &ben)[0],
        glicko2(NEW, &[(NEW.0, NEW.1, 0.0)]),
        1,
    );
}
