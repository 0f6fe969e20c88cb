//! No engine work outlives its request: with only the small tables, MTM
//! hints on the metric's antipode (which no search proves in a game's
//! thinking time) all answer within the server's budget, and a second
//! later no engine job runs and the process burns no CPU. A client that
//! hangs up takes its job with it.

use crate::common;

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::server::Server;
use serde_json::json;

/// The multi-tile metric's antipode on 4 × 4 (43 MTM moves).
const MTM_ANTIPODE: &str = "1 5 9 13/2 6 10 14/3 7 11 15/4 8 12 0";
/// The server's engine budget per request.
const BUDGET: Duration = Duration::from_secs(10);

/// A metric's value in the server's Prometheus text (0 when absent).
fn metric(server: &Server, name: &str) -> f64 {
    let text = server.client().get("/metrics").text;
    text.lines()
        .filter(|line| line.starts_with(name))
        .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// The CPU time (user + system) of the server's threads, from /proc,
/// but for the table builder's: an MTM hint asks for the colouring table,
/// which that thread builds in the background on a fresh cache (deliberate
/// work that outlives the request, unlike an engine job).
fn cpu_seconds(pid: u32) -> f64 {
    let mut ticks = 0.0;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap() {
        let task = task.unwrap().path();
        let Ok(stat) = std::fs::read_to_string(task.join("stat")) else {
            continue; // a thread that ended meanwhile
        };
        // The thread's name is in parentheses; the fields follow it.
        let name = &stat[stat.find('(').unwrap() + 1..stat.rfind(')').unwrap()];
        if name == play::slide_game::TABLE_BUILDER_THREAD {
            continue;
        }
        let rest = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        ticks += fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    }
    ticks / 100.0
}

fn hint_body() -> String {
    json!({"position": MTM_ANTIPODE, "metric": "mtm"}).to_string()
}

#[test]
fn concurrent_mtm_hints_answer_in_budget_and_leave_nothing_running() {
    let server = Server::start();
    let began = Instant::now();
    let clients: Vec<_> = (0..4)
        .map(|_| {
            let mut client = server.client();
            std::thread::spawn(move || {
                let reply = client.post_raw("/api/slide/hint", "application/json", &hint_body());
                (reply.status, reply.text, began.elapsed())
            })
        })
        .collect();
    for client in clients {
        let (status, text, took) = client.join().unwrap();
        assert!(took <= BUDGET + Duration::from_secs(1), "took {took:?}");
        // A hint (the best at hand), or the budget's 503: never a hang.
        assert!(status == 200 || status == 503, "{status}: {text}");
    }
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(metric(&server, "tessera_engine_jobs_running"), 0.0);
    let before = cpu_seconds(server.pid());
    std::thread::sleep(Duration::from_secs(1));
    let burnt = cpu_seconds(server.pid()) - before;
    assert!(burnt < 0.3, "the idle server burnt {burnt} s of CPU in 1 s");
}

#[test]
fn a_client_that_hangs_up_takes_its_engine_job_with_it() {
    let server = Server::start();
    let address = server.url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    let body = hint_body();
    write!(
        stream,
        "POST /api/slide/hint HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // The search has started (the game's thinking time is 3 s)...
    let deadline = Instant::now() + Duration::from_secs(2);
    while metric(&server, "tessera_engine_jobs_running") < 1.0 {
        assert!(Instant::now() < deadline, "the job never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    // ...and the client goes away.
    drop(stream);
    let hung_up = Instant::now();
    while metric(&server, "tessera_engine_jobs_running") > 0.0 {
        assert!(
            hung_up.elapsed() < Duration::from_secs(1),
            "the job outlived its client by a second"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let cancelled = metric(
        &server,
        "tessera_engine_jobs_cancelled_total{reason=\"client_gone\"}",
    );
    assert_eq!(cancelled, 1.0);
}
