//! Live races over real WebSockets: a `tessera serve` process, players as
//! blocking WebSocket clients, the protocol of `docs/race-protocol.md`.

use crate::common;

use std::time::{Duration, Instant};

use common::race::{Socket, PATIENCE};
use common::server::Server;
use serde_json::{json, Value};
use slide::{Direction, Moves, Position};
use tungstenite::client::IntoClientRequest;
use tungstenite::Message;

fn open_room(server: &Server) -> String {
    let reply = server
        .client()
        .ok("/api/races", json!({"game": "slide", "size": "3x3"}));
    assert_eq!(
        reply["url"],
        format!("/race/{}", reply["room"].as_str().unwrap())
    );
    reply["room"].as_str().unwrap().to_string()
}

/// Two players in a new room, the race started by the host: their sockets,
/// the puzzle both got, and the room.
fn race_of_two(server: &Server) -> (Socket, Socket, Value, String) {
    let room = open_room(server);
    let (mut ada, one) = Socket::join(&server.url, &room, "Ada");
    let (mut ben, two) = Socket::join(&server.url, &room, "Ben");
    assert_eq!((one, two), (1, 2));
    ada.send(json!({"type": "start"}));
    assert_eq!(ada.expect("countdown")["ms"], 3000);
    let puzzle = ada.expect("start")["puzzle"].clone();
    assert_eq!(ben.expect("start")["puzzle"], puzzle, "the same puzzle");
    (ada, ben, puzzle, room)
}

pub(crate) fn position(puzzle: &Value, field: &str) -> Position {
    puzzle[field].as_str().unwrap().parse().unwrap()
}

pub(crate) fn solution_from(start: &Position, puzzle: &Value) -> Moves {
    slide::solve_fast(start, &position(puzzle, "goal_position")).unwrap()
}

/// A legal move from `start`.
fn legal(start: &Position) -> Direction {
    start.legal_moves().next().unwrap()
}

fn moved(start: &Position, direction: Direction) -> Position {
    let mut position = start.clone();
    position.apply(direction).unwrap();
    position
}

#[test]
fn two_players_race_a_3x3_and_both_get_the_same_results() {
    let server = Server::start();
    let (mut ada, mut ben, puzzle, _) = race_of_two(&server);
    let start = position(&puzzle, "position");
    // Ben moves: Ada sees it at once.
    let legal = legal(&start);
    let sent = Instant::now();
    ben.send(json!({"type": "move", "moves": legal.letter().to_string(), "t": 400}));
    let seen = ada.progress_of(2);
    assert!(sent.elapsed() < Duration::from_millis(500));
    assert_eq!(seen["moves"], 1);
    assert!(seen["solved_tiles"].as_u64().unwrap() <= 8);
    // The others draw Ben's board from it.
    assert_eq!(seen["position"], moved(&start, legal).to_string());
    // Ada solves it first: each progress is Ben's to see.
    let solution = solution_from(&start, &puzzle);
    ada.send(json!({"type": "move", "moves": solution.to_string(), "t": 2000}));
    let ada_done = ben.progress_of(1);
    assert_eq!(ada_done["moves"], solution.len());
    assert_eq!(ada_done["solved_tiles"], 8);
    assert_eq!(ada_done["position"], puzzle["goal_position"]);
    let finish = ben.expect("finish");
    assert_eq!(finish["player"], 1);
    assert_eq!(finish["result"]["place"], 1);
    assert_eq!(finish["result"]["stm"], solution.len());
    assert_eq!(finish["result"]["mtm"], solution.mtm_len());
    // Then Ben, from where he was.
    let rest = solution_from(&moved(&start, legal), &puzzle);
    ben.send(json!({"type": "move", "moves": rest.to_string(), "t": 5000}));
    let results = ada.expect("results");
    assert_eq!(ben.expect("results"), results);
    let lines = results["results"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (lines[0]["player"].as_u64(), lines[0]["place"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        (lines[1]["player"].as_u64(), lines[1]["place"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(lines[0]["name"], "Ada");
    assert!(lines[0]["millis"].as_i64() <= lines[1]["millis"].as_i64());
    assert_eq!(lines[1]["stm"], rest.len() + 1);
    assert_eq!(ada.expect("room")["state"], "finished");
    // Each solve is an ordinary result with its replay, as announced.
    assert_eq!(lines[0]["game"], finish["result"]["game"]);
    for (line, stm) in lines.iter().zip([solution.len(), rest.len() + 1]) {
        let replay = replay_of(&server, line["game"].as_str().expect("a stored game"));
        assert_eq!(replay["stm"], stm);
        assert_eq!(replay["position"], puzzle["position"]);
        assert_eq!(replay["variant"], "3x3-row-major");
        // The standings run on the race's clock, from the start; the
        // stored result is timed as any single, from the first move to the
        // last (play::stopwatch).
        let times: Vec<i64> = serde_json::from_value(replay["times"].clone()).unwrap();
        assert_eq!(replay["millis"], times[times.len() - 1] - times[0]);
        // Judged like any submission: the players claimed more time than
        // the server saw pass.
        assert_eq!(replay["ranked"], false);
        let reason = replay["reason"].as_str().unwrap();
        assert!(reason.starts_with("times inconsistent"), "{reason}");
    }
}

/// The replay of `game`, once stored (it is, just after the solve).
pub(crate) fn replay_of(server: &Server, game: &str) -> Value {
    let mut client = server.client();
    let deadline = Instant::now() + PATIENCE;
    loop {
        let reply = client.get(&format!("/api/replays/{game}"));
        if reply.status == 200 {
            return reply.json();
        }
        assert!(
            Instant::now() < deadline,
            "no replay of {game}: {}",
            reply.text
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_signed_in_racer_at_a_persons_pace_is_ranked() {
    let server = Server::start();
    let mut account = server.client();
    let (handle, _) = account.sign_up("racer");
    let room = open_room(&server);
    let mut ada = Socket::open(&server.url, &room, account.cookie.as_deref());
    ada.send(json!({"type": "join", "name": "Ada"}));
    ada.expect("welcome");
    let (mut ben, _) = Socket::join(&server.url, &room, "Ben");
    let seen = ben.expect("room");
    assert_eq!(seen["players"][0]["account"], handle.as_str(), "{seen}");
    ada.send(json!({"type": "ready"}));
    ben.send(json!({"type": "ready"}));
    let puzzle = ada.expect("start")["puzzle"].clone();
    let started = Instant::now();
    let solution = solution_from(&position(&puzzle, "position"), &puzzle);
    // A person's reaction first, then one move a message, some fifteen a
    // second, each timed.
    std::thread::sleep(Duration::from_millis(250));
    for direction in solution.iter() {
        std::thread::sleep(Duration::from_millis(65));
        let t = started.elapsed().as_millis() as u64;
        ada.send(json!({"type": "move", "moves": direction.letter().to_string(), "t": t}));
    }
    let game = ada.expect("finish")["result"]["game"].clone();
    ben.send(json!({"type": "leave"}));
    let results = ada.expect("results");
    assert_eq!(results["results"][0]["game"], game);
    assert_eq!(
        results["results"][1]["game"],
        Value::Null,
        "Ben did not finish"
    );
    let replay = replay_of(&server, game.as_str().unwrap());
    assert_eq!(replay["handle"], handle.as_str());
    assert_eq!(replay["ranked"], true, "{replay}");
    assert_eq!(replay["stm"], solution.len());
}

#[test]
fn a_spectator_sees_every_board() {
    let server = Server::start();
    let (mut ada, mut ben, puzzle, room) = race_of_two(&server);
    let start = position(&puzzle, "position");
    let legal = legal(&start);
    ada.send(json!({"type": "move", "moves": legal.letter().to_string(), "t": 300}));
    ben.progress_of(1);
    // Coming in mid-race: the room, the puzzle, and where everyone is.
    let mut watcher = Socket::open(&server.url, &room, None);
    let seen = watcher.expect("room");
    assert_eq!(seen["state"], "racing");
    assert_eq!(seen["spectators"], 1);
    assert_eq!(watcher.expect("start")["puzzle"], puzzle);
    assert_eq!(watcher.expect("progress")["moves"], 1);
    assert_eq!(watcher.expect("progress")["moves"], 0);
    // Then every move as it is made.
    ben.send(json!({"type": "move", "moves": legal.letter().to_string(), "t": 900}));
    assert_eq!(watcher.progress_of(2)["moves"], 1);
    // A spectator cannot join a race under way, nor move in it.
    watcher.send(json!({"type": "join", "name": "Cy"}));
    assert!(watcher.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("watch"));
    watcher.send(json!({"type": "move", "moves": "U", "t": 1000}));
    assert!(watcher.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("not joined"));
}

/// The next `progress` of `player` past the catch-up's (which shows no
/// moves yet).
fn next_move_of(socket: &mut Socket, player: u64) -> Value {
    loop {
        let progress = socket.progress_of(player);
        if progress["moves"] != 0 {
            return progress;
        }
    }
}

#[test]
fn a_burst_of_moves_reaches_every_other_socket_whole_and_in_order() {
    // Sent at once, the moves' events queue up behind each other on the
    // other sockets, which write what is queued in one go: none may be
    // lost, doubled or reordered on the way.
    let server = Server::start();
    let (mut ada, mut ben, puzzle, room) = race_of_two(&server);
    let mut watcher = Socket::open(&server.url, &room, None);
    watcher.expect("start");
    let start = position(&puzzle, "position");
    let goal = position(&puzzle, "goal_position");
    // Back and forth on a move that does not solve it: the race runs on.
    let there = start
        .legal_moves()
        .find(|&d| moved(&start, d) != goal)
        .unwrap();
    let burst = 40; // within the 50 messages a second a client may send
    let mut expected = Vec::new();
    let mut board = start.clone();
    for k in 0..burst {
        let direction = if k % 2 == 0 { there } else { there.inverse() };
        board.apply(direction).unwrap();
        expected.push(board.clone());
        let t = 300 + 10 * k;
        ada.send(json!({"type": "move", "moves": direction.letter().to_string(), "t": t}));
    }
    for socket in [&mut ben, &mut watcher] {
        for (k, board) in expected.iter().enumerate() {
            let progress = next_move_of(socket, 1);
            assert_eq!(progress["moves"], k + 1, "every move, in order");
            let seen: Position = progress["position"].as_str().unwrap().parse().unwrap();
            assert_eq!(&seen, board, "move {}", k + 1);
        }
    }
}

#[test]
fn an_illegal_move_is_refused_and_never_forwarded() {
    let server = Server::start();
    let (mut ada, mut ben, puzzle, _) = race_of_two(&server);
    let start = position(&puzzle, "position");
    let legal = legal(&start);
    // A legal move and two more the same way: the blank cannot cross a
    // 3x3 in one direction, so one is illegal, and none of it is played.
    let overrun = legal.letter().to_string().repeat(3);
    let mut refused = vec![(overrun, "illegal move"), ("X".into(), "bad move list")];
    if let Some(wall) = Direction::ALL.into_iter().find(|d| !start.can_move(*d)) {
        refused.push((wall.letter().to_string(), "illegal move"));
    }
    for (moves, why) in refused {
        ben.send(json!({"type": "move", "moves": moves, "t": 100}));
        let error = ben.expect("error");
        assert!(
            error["message"].as_str().unwrap().starts_with(why),
            "{error}"
        );
    }
    // The next legal move is Ben's first: nothing refused was forwarded.
    ben.send(json!({"type": "move", "moves": legal.letter().to_string(), "t": 200}));
    assert_eq!(ada.progress_of(2)["moves"], 1);
    // Ada cannot start a race under way, and hears why.
    ada.send(json!({"type": "start"}));
    assert!(ada.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("lobby"));
}

#[test]
fn bad_json_and_unknown_types_get_an_error_and_the_socket_stays_open() {
    let server = Server::start();
    let room = open_room(&server);
    let mut socket = Socket::open(&server.url, &room, None);
    assert_eq!(socket.expect("room")["state"], "lobby");
    socket.ws.send(Message::text("{not json")).unwrap();
    assert!(socket.expect("error")["message"]
        .as_str()
        .unwrap()
        .starts_with("bad message"));
    socket.send(json!({"type": "dance"}));
    assert!(socket.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("unknown variant"));
    socket.send(json!({"type": "join", "name": ""}));
    assert!(socket.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("name"));
    socket.send(json!({"type": "join", "name": "Ada"}));
    assert_eq!(socket.expect("welcome")["player"], 1);
}

#[test]
fn abuse_closes_with_a_policy_code_while_another_room_races_on() {
    let server = Server::start();
    let (mut ada, mut ben, puzzle, _) = race_of_two(&server);
    let start = position(&puzzle, "position");
    let other = open_room(&server);
    // A frame over 64 KiB: an error, then 1009.
    let mut big = Socket::open(&server.url, &other, None);
    big.expect("room");
    let padding = "x".repeat(70 * 1024);
    big.ws
        .send(Message::text(
            json!({"type": "join", "name": padding}).to_string(),
        ))
        .unwrap();
    assert_eq!(big.closed(), (1009, true));
    // A flood: an error, then 1008.
    let mut flood = Socket::open(&server.url, &other, None);
    flood.expect("room");
    for _ in 0..80 {
        if flood.ws.send(Message::text(r#"{"type":"ready"}"#)).is_err() {
            break;
        }
    }
    assert_eq!(flood.closed(), (1008, true));
    // Malformed over and over: 1008 too.
    let mut babble = Socket::open(&server.url, &other, None);
    babble.expect("room");
    for _ in 0..11 {
        babble.ws.send(Message::text("?")).unwrap();
    }
    assert_eq!(babble.closed(), (1008, true));
    // The race in the first room goes on.
    let legal = legal(&start);
    ben.send(json!({"type": "move", "moves": legal.letter().to_string(), "t": 10}));
    assert_eq!(ada.progress_of(2)["moves"], 1);
    // And the server still opens rooms.
    let mut later = Socket::open(&server.url, &open_room(&server), None);
    assert_eq!(later.expect("room")["state"], "lobby");
}

#[test]
fn a_player_who_reconnects_keeps_their_moves() {
    let server = Server::start();
    let (mut ada, mut ben, puzzle, room) = race_of_two(&server);
    let start = position(&puzzle, "position");
    let first = start.legal_moves().next().unwrap();
    let after_one = moved(&start, first);
    let second = after_one
        .legal_moves()
        .find(|d| *d != first.inverse())
        .unwrap();
    let moves = format!("{}{}", first.letter(), second.letter());
    ben.send(json!({"type": "move", "moves": moves, "t": 300}));
    assert_eq!(ada.progress_of(2)["moves"], 2);
    // Ben's connection drops.
    let cookie = ben.cookie.clone();
    drop(ben);
    let away = ada.expect("room");
    assert_eq!(away["players"][1]["connected"], false, "{away}");
    // Back within 30 s, as the same player.
    let mut ben = Socket::open(&server.url, &room, Some(&cookie));
    assert_eq!(ben.expect("room")["state"], "racing");
    let dealt = ben.expect("start");
    assert_eq!(dealt["puzzle"], puzzle);
    assert!(dealt["elapsed"].as_i64().unwrap() > 0);
    ben.send(json!({"type": "join", "name": "Ben"}));
    let welcome = ben.expect("welcome");
    assert_eq!(welcome["player"], 2);
    assert_eq!(welcome["moves"], moves);
    assert_eq!(ada.expect("room")["players"][1]["connected"], true);
    // And he plays on from where he was.
    let position = moved(&after_one, second);
    let third = position.legal_moves().next().unwrap();
    ben.send(json!({"type": "move", "moves": third.letter().to_string(), "t": 900}));
    assert_eq!(ada.progress_of(2)["moves"], 3);
}

#[test]
fn a_rematch_deals_a_new_puzzle_in_the_same_room() {
    let server = Server::start();
    let (mut ada, mut ben, puzzle, _) = race_of_two(&server);
    let start = position(&puzzle, "position");
    let solution = solution_from(&start, &puzzle);
    ada.send(json!({"type": "move", "moves": solution.to_string(), "t": 1000}));
    ben.send(json!({"type": "move", "moves": solution.to_string(), "t": 1000}));
    ada.expect("results");
    ben.expect("results");
    ben.send(json!({"type": "rematch"}));
    let lobby = ada.room_in("lobby");
    assert_eq!(lobby["players"].as_array().unwrap().len(), 2);
    ada.send(json!({"type": "ready"}));
    ben.send(json!({"type": "ready"}));
    ada.expect("countdown");
    let again = ada.expect("start")["puzzle"].clone();
    assert_eq!(ben.expect("start")["puzzle"], again);
    assert_ne!(again["seed"], puzzle["seed"], "a new puzzle");
    assert_eq!(again["size"], "3x3");
}

#[test]
fn unknown_rooms_and_plain_requests_are_json_errors() {
    let server = Server::start();
    let mut client = server.client();
    let reply = client.get("/api/races/0123456789abcdef0123456789abcdef/ws");
    assert_eq!(reply.status, 404);
    let reply = client.get("/api/races/nope/ws");
    assert_eq!(reply.status, 400);
    let room = open_room(&server);
    let reply = client.get(&format!("/api/races/{room}/ws"));
    assert_eq!(reply.status, 426, "{}", reply.text);
    assert!(reply.error().contains("WebSocket"));
    // A page on another site cannot open a socket with the player's cookie.
    let url = format!(
        "{}/api/races/{room}/ws",
        server.url.replacen("http://", "ws://", 1)
    );
    let mut request = url.into_client_request().unwrap();
    let origin = "http://elsewhere.example".parse().unwrap();
    request.headers_mut().insert("origin", origin);
    match tungstenite::connect(request) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
        other => panic!(
            "a cross-site socket was not refused: {:?}",
            other.map(|_| ())
        ),
    }
    let reply = client.post("/api/races", json!({"game": "chess", "size": "3x3"}));
    assert_eq!(reply.status, 422);
    let reply = client.post("/api/races", json!({"game": "slide", "size": "2x2"}));
    assert_eq!(reply.status, 422);
}

#[test]
fn sigterm_closes_race_sockets_as_going_away_and_exits_0() {
    let server = Server::start();
    let room = open_room(&server);
    let (mut ada, _) = Socket::join(&server.url, &room, "Ada");
    let (mut ben, _) = Socket::join(&server.url, &room, "Ben");
    let term = std::process::Command::new("kill")
        .args(["-TERM", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    assert_eq!(ada.closed(), (1001, true));
    assert_eq!(ben.closed(), (1001, true));
    let status = server.wait();
    assert_eq!(status.code(), Some(0), "a stopped server exits 0");
}

#[test]
fn opening_races_is_rate_limited_per_client() {
    let server = Server::start_with(&["serve", "--race-rate", "3"], common::server::temp_dir());
    let mut client = server.client();
    let body = json!({"game": "slide", "size": "3x3"});
    let rooms: Vec<String> = (0..3)
        .map(|_| {
            client.ok("/api/races", body.clone())["room"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let refused = client.post("/api/races", body.clone());
    assert_eq!(refused.status, 429, "{}", refused.text);
    let wait = refused.header("retry-after").expect("Retry-After");
    let message = refused.json()["error"].as_str().unwrap().to_string();
    assert!(message.starts_with("too many races opened"), "{message}");
    assert!(
        message.contains(&format!("try again in {wait} s")),
        "{message} / {wait}"
    );
    // Joining the rooms already open is not limited.
    let (_ada, seat) = Socket::join(&server.url, &rooms[0], "Ada");
    assert_eq!(seat, 1);
}

#[test]
fn a_silent_connection_is_let_go_and_a_live_one_is_kept() {
    let server = Server::start_with(
        &["serve", "--race-ping", "200ms"],
        common::server::temp_dir(),
    );
    let room = open_room(&server);
    let (mut ada, _) = Socket::join(&server.url, &room, "Ada");
    let (ben, two) = Socket::join(&server.url, &room, "Ben");
    // Ben's client stops reading: it answers no ping. Ada reads on (and so
    // answers hers) and hears that Ben is gone after three silent pings.
    let quiet = Instant::now();
    let away = loop {
        let room = ada.expect("room");
        if room["players"][1]["connected"] == false {
            break room;
        }
    };
    let waited = quiet.elapsed();
    assert_eq!(away["players"][1]["player"], two);
    assert!(waited >= Duration::from_millis(500), "{waited:?}");
    assert!(waited < Duration::from_secs(5), "{waited:?}");
    // Ada, who answered every ping, is still served.
    ada.send(json!({"type": "ready"}));
    let lobby = ada.room_in("lobby");
    assert_eq!(lobby["players"][0]["ready"], true);
    assert_eq!(lobby["players"][0]["connected"], true);
    drop(ben);
}

/// Rooms with nobody in them expire a minute after the last one went (a
/// slow test: it waits for that minute), and a room with a player in it
/// does not.
#[test]
fn an_empty_room_expires_and_an_occupied_one_stays() {
    // Pings out of the way: the occupied room's player reads nothing.
    let server = Server::start_with(
        &["serve", "--race-ping", "300s"],
        common::server::temp_dir(),
    );
    let mut client = server.client();
    let empty = open_room(&server);
    let occupied = open_room(&server);
    let (mut ada, _) = Socket::join(&server.url, &empty, "Ada");
    let (_ben, _) = Socket::join(&server.url, &occupied, "Ben");
    ada.send(json!({"type": "leave"}));
    let left = Instant::now();
    // Open (a plain request is no handshake: 426) until it expires (404).
    let status = |client: &mut common::server::Client, room: &str| {
        client.get(&format!("/api/races/{room}/ws")).status
    };
    let expired = loop {
        match status(&mut client, &empty) {
            426 => {}
            404 => break left.elapsed(),
            other => panic!("unexpected {other}"),
        }
        assert!(
            left.elapsed() < Duration::from_secs(75),
            "the empty room never expired"
        );
        std::thread::sleep(Duration::from_millis(250));
    };
    assert!(
        expired >= Duration::from_secs(59),
        "expired after {expired:?}"
    );
    assert_eq!(
        status(&mut client, &occupied),
        426,
        "an occupied room stays"
    );
    let metrics = client.get("/metrics").text;
    assert!(
        metrics.lines().any(|l| l == "tessera_race_rooms 1"),
        "one room left: {}",
        metrics
            .lines()
            .filter(|l| l.contains("race_rooms"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Two players in a new Shisen-Sho room of `body`, the race started by the
/// host: their sockets and the deal both got.
fn shisen_race_of_two(server: &Server, body: Value) -> (Socket, Socket, Value) {
    let room = server.client().ok("/api/races", body)["room"]
        .as_str()
        .unwrap()
        .to_string();
    let (mut ada, _) = Socket::join(&server.url, &room, "Ada");
    let (mut ben, _) = Socket::join(&server.url, &room, "Ben");
    ada.send(json!({"type": "start"}));
    let puzzle = ada.expect("start")["puzzle"].clone();
    assert_eq!(ben.expect("start")["puzzle"], puzzle, "the same deal");
    (ada, ben, puzzle)
}

/// The deal's board and rules, as the puzzle names them.
fn shisen_deal(puzzle: &Value) -> (shisen::Board, shisen::Rules) {
    let chinese = puzzle["chinese"].as_bool().unwrap();
    let matching = shisen::Matching::from_chinese(chinese);
    let board = shisen::parse_board(puzzle["board"].as_str().unwrap(), matching).unwrap();
    let rules = shisen::Rules::new(matching, puzzle["gravity"].as_bool().unwrap());
    (board, rules)
}

/// The engine's solver's clearing of the deal, as `turn` messages' pairs.
fn clearing(puzzle: &Value) -> Vec<[i32; 4]> {
    let (board, rules) = shisen_deal(puzzle);
    let verdict = shisen::solve(&board, rules, &mut shisen::Nodes(u64::MAX)).verdict;
    let shisen::Verdict::Solvable(moves) = verdict else {
        panic!("a solvable deal: {verdict:?}")
    };
    moves.iter().map(|m| [m.a.x, m.a.y, m.b.x, m.b.y]).collect()
}

/// Two tiles on the deal that do not match.
fn mismatched(puzzle: &Value) -> [i32; 4] {
    let (board, _) = shisen_deal(puzzle);
    let (p, kind) = board.tiles().next().unwrap();
    let (q, _) = board
        .tiles()
        .find(|(_, k)| !board.matching().matches(*k, kind))
        .unwrap();
    [p.x, p.y, q.x, q.y]
}

#[test]
fn two_players_race_a_shisen_sho_deal_and_both_get_the_same_results() {
    let server = Server::start();
    let body = json!({"game": "shisen", "size": "6x4", "gravity": true});
    let (mut ada, mut ben, puzzle) = shisen_race_of_two(&server, body);
    assert_eq!(puzzle["game"], "shisen");
    assert_eq!(puzzle["size"], "6x4");
    assert_eq!(puzzle["gravity"], true);
    assert_eq!(puzzle["variant"], "6x4-gravity");
    let (board, rules) = shisen_deal(&puzzle);
    let tiles = board.tiles_left();
    assert_eq!(tiles, 24);
    let clearing = clearing(&puzzle);
    // A wrong pair, a point off the board, a sliding move, an undo: each
    // refused to Ben alone.
    let refused = [
        (json!(mismatched(&puzzle)), "illegal turn"),
        (
            json!([0, 0, 6, 0]),
            "turn 1: point [6, 0] is off the 6x4 board",
        ),
        (json!("undo"), "illegal turn: a race has no undo"),
    ];
    for (turn, why) in refused {
        ben.send(json!({"type": "turn", "turn": turn, "t": 50}));
        let error = ben.expect("error");
        assert!(
            error["message"].as_str().unwrap().starts_with(why),
            "{error}"
        );
    }
    ben.send(json!({"type": "move", "moves": "U", "t": 60}));
    assert!(ben.expect("error")["message"]
        .as_str()
        .unwrap()
        .contains("Shisen-Sho"));
    // Ben's first pair: Ada hears it as his first progress, tiles left
    // and score, with his board.
    let sent = Instant::now();
    ben.send(json!({"type": "turn", "turn": clearing[0], "t": 400}));
    let seen = ada.progress_of(2);
    assert!(sent.elapsed() < Duration::from_millis(500));
    assert_eq!(seen["moves"], 1, "nothing refused was forwarded");
    assert_eq!(seen["tiles_left"], tiles - 2);
    assert!(seen["score"].as_u64().unwrap() > 0);
    assert_eq!(seen["stuck"], false);
    let mut after = shisen::Game::new(board.clone(), rules);
    let [x1, y1, x2, y2] = clearing[0];
    after
        .remove(shisen::Point::new(x1, y1), shisen::Point::new(x2, y2))
        .unwrap();
    assert_eq!(seen["board"], after.board().to_string());
    assert_eq!(seen.get("solved_tiles"), None);
    // Ada clears the board, one pair a message.
    for (i, pair) in clearing.iter().enumerate() {
        ada.send(json!({"type": "turn", "turn": pair, "t": 1000 + i}));
    }
    let finish = ben.expect("finish");
    assert_eq!(finish["player"], 1);
    assert_eq!(finish["result"]["place"], 1);
    assert!(finish["result"]["score"].as_u64().unwrap() > 0);
    // Then Ben, from where he was.
    for (i, pair) in clearing[1..].iter().enumerate() {
        ben.send(json!({"type": "turn", "turn": pair, "t": 2000 + i}));
    }
    let results = ada.expect("results");
    assert_eq!(ben.expect("results"), results);
    let lines = results["results"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    for (line, (player, place)) in lines.iter().zip([(1, 1), (2, 2)]) {
        assert_eq!(line["player"], player);
        assert_eq!(line["place"], place);
        assert_eq!(line["tiles_left"], 0);
        assert_eq!(line["moves"], clearing.len());
        assert_eq!(line.get("stm"), None, "{line}");
    }
    assert_eq!(lines[0]["game"], finish["result"]["game"]);
    assert_eq!(lines[0]["score"], finish["result"]["score"]);
    // Each clearing is an ordinary Shisen-Sho result, judged like a
    // submission, with its replay.
    for line in lines {
        let replay = replay_of(&server, line["game"].as_str().expect("a stored game"));
        assert_eq!(replay["kind"], "shisen", "{replay}");
        assert_eq!(replay["variant"], "6x4-gravity");
        assert_eq!(replay["removals"], clearing.len());
        assert_eq!(replay["millis"], line["millis"]);
        assert_eq!(replay["position"], puzzle["board"]);
        // Twelve pairs in the first second of the server's clock: faster
        // than a person, or more time claimed than passed.
        assert_eq!(replay["ranked"], false);
        assert!(replay["reason"].as_str().is_some());
    }
    // A rematch deals a new board of the same kind to both.
    ben.send(json!({"type": "rematch"}));
    ada.room_in("lobby");
    ada.send(json!({"type": "start"}));
    let again = ada.expect("start")["puzzle"].clone();
    assert_eq!(ben.expect("start")["puzzle"], again);
    assert_ne!(again["seed"], puzzle["seed"]);
    assert_eq!(again["variant"], "6x4-gravity");
    assert_eq!(shisen_deal(&again).0.tiles_left(), 24);
}

#[test]
fn a_shisen_sho_racer_who_reconnects_keeps_their_turns() {
    let server = Server::start();
    let body = json!({"game": "shisen", "size": "6x4"});
    let room = server.client().ok("/api/races", body)["room"]
        .as_str()
        .unwrap()
        .to_string();
    let (mut ada, _) = Socket::join(&server.url, &room, "Ada");
    let (mut ben, _) = Socket::join(&server.url, &room, "Ben");
    ada.send(json!({"type": "start"}));
    let puzzle = ada.expect("start")["puzzle"].clone();
    ben.expect("start");
    let clearing = clearing(&puzzle);
    ben.send(json!({"type": "turn", "turn": clearing[0], "t": 300}));
    ben.send(json!({"type": "turn", "turn": "shuffle", "t": 400}));
    assert_eq!(ada.progress_of(2)["moves"], 1);
    let shuffled = ada.progress_of(2);
    assert_eq!(shuffled["moves"], 2);
    let cookie = ben.cookie.clone();
    drop(ben);
    let mut back = Socket::open(&server.url, &room, Some(&cookie));
    // Coming back: the room as it stands, Ben's board with it.
    let mine = back.progress_of(2);
    assert_eq!(mine["board"], shuffled["board"]);
    back.send(json!({"type": "join", "name": "Ben"}));
    let welcome = back.expect("welcome");
    let [x1, y1, x2, y2] = clearing[0];
    assert_eq!(
        welcome["moves"],
        format!("{x1},{y1}-{x2},{y2} shuffle"),
        "{welcome}"
    );
    // And plays on from there.
    let (board, _) =
        shisen_deal(&json!({"board": mine["board"], "chinese": false, "gravity": false}));
    let pair = board.moves()[0];
    back.send(json!({"type": "turn", "turn": [pair.a.x, pair.a.y, pair.b.x, pair.b.y], "t": 500}));
    assert_eq!(ada.progress_of(2)["moves"], 3);
}

#[test]
fn race_requests_name_each_games_fields() {
    let server = Server::start();
    let mut client = server.client();
    let cases = [
        (json!({"game": "shisen", "goal": "snake"}), 422, "/goal"),
        (
            json!({"game": "slide", "size": "3x3", "gravity": true}),
            422,
            "/gravity",
        ),
        (json!({"game": "slide"}), 422, ""),
        (json!({"game": "shisen", "size": "5x5"}), 422, "/size"),
        (
            json!({"game": "shisen", "preset": "14x6", "size": "6x4"}),
            400,
            "",
        ),
        (json!({"game": "shisen", "preset": "99x99"}), 422, "/preset"),
    ];
    for (body, status, pointer) in cases {
        let reply = client.post("/api/races", body.clone());
        assert_eq!(reply.status, status, "{body}: {}", reply.text);
        if !pointer.is_empty() {
            assert_eq!(reply.json()["pointer"], pointer, "{body}");
        }
    }
    let opened = client.ok(
        "/api/races",
        json!({"game": "shisen", "preset": "14x6", "chinese": true}),
    );
    assert!(opened["room"].is_string());
}
