//! Players under load for the fault tests: each plays 3×3 sliding puzzles
//! (new, solve, submit) until stopped, and every answer is kept with when
//! it was asked and how long it took, so a test can say what clients saw
//! during a fault and check that nothing acknowledged was lost.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::server::Client;

/// One request a player made during the load.
#[derive(Clone, Debug)]
pub struct Answer {
    pub path: &'static str,
    pub started: Instant,
    pub took: Duration,
    pub status: u16,
    pub text: String,
    pub retry_after: Option<String>,
}

/// Players playing 3×3 sliding puzzles against a server until stopped:
/// every answer they get, and the games whose submission was acknowledged.
pub struct Load {
    stop: Arc<AtomicBool>,
    answers: Arc<Mutex<Vec<Answer>>>,
    /// (game id, when acknowledged).
    acknowledged: Arc<Mutex<Vec<(String, Instant)>>>,
    threads: Vec<JoinHandle<()>>,
}

impl Load {
    pub fn start(url: &str, players: usize) -> Load {
        let load = Load {
            stop: Arc::default(),
            answers: Arc::default(),
            acknowledged: Arc::default(),
            threads: Vec::new(),
        };
        let threads = (0..players)
            .map(|_| {
                let (url, stop) = (url.to_string(), load.stop.clone());
                let (answers, acknowledged) = (load.answers.clone(), load.acknowledged.clone());
                std::thread::spawn(move || {
                    let mut c = Client::new(&url);
                    while !stop.load(Ordering::SeqCst) {
                        if let Some(id) = play_one(&mut c, &answers) {
                            acknowledged.lock().unwrap().push((id, Instant::now()));
                        }
                    }
                })
            })
            .collect();
        Load { threads, ..load }
    }

    pub fn answers(&self) -> Vec<Answer> {
        self.answers.lock().unwrap().clone()
    }

    pub fn acknowledged(&self) -> Vec<(String, Instant)> {
        self.acknowledged.lock().unwrap().clone()
    }

    pub fn finish(mut self) -> Self {
        self.stop.store(true, Ordering::SeqCst);
        for thread in self.threads.drain(..) {
            thread.join().unwrap();
        }
        self
    }
}

/// One game: new, solve, submit. The id of the game if the submission was
/// acknowledged.
fn play_one(c: &mut Client, answers: &Mutex<Vec<Answer>>) -> Option<String> {
    let mut ask = |path: &'static str, body: Value| {
        let started = Instant::now();
        let reply = c.post(path, body);
        let answer = Answer {
            path,
            started,
            took: started.elapsed(),
            status: reply.status,
            text: reply.text.clone(),
            retry_after: reply.header("retry-after"),
        };
        answers.lock().unwrap().push(answer);
        (reply.status == 200).then(|| reply.json())
    };
    let Some(game) = ask("/api/slide/new", json!({"size": "3x3"})) else {
        std::thread::sleep(Duration::from_millis(50));
        return None;
    };
    let solve = json!({"position": game["position"], "goal": game["goal_position"]});
    let moves = ask("/api/slide/solve", solve)?["moves"]
        .as_str()
        .unwrap()
        .to_string();
    let times: Vec<i64> = (0..moves.len() as i64).map(|i| 1 + i).collect();
    let submission = json!({"game": game["game"], "moves": moves, "times": times});
    ask("/api/slide/submit", submission)?;
    Some(game["game"].as_str().unwrap().to_string())
}

/// Every game of `ids` replays on the server at `url`.
pub fn all_replay(url: &str, ids: &[String]) {
    let mut c = Client::new(url);
    for id in ids {
        let replay = c.get(&format!("/api/replays/{id}"));
        assert_eq!(
            replay.status, 200,
            "acknowledged game {id} lost: {}",
            replay.text
        );
    }
}

pub fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return Some(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}
