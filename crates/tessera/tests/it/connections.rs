//! Clients that hold connections: slow senders are cut off after the
//! header time-out, idle kept-alive connections too, and beyond the
//! connection caps new connections are refused at once while established
//! clients keep being served.

use crate::common;

use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use common::server::{temp_dir, Client, Server};
use serde_json::json;

/// Lets this process open `files` descriptors (the hard limit permitting).
fn allow_open_files(files: u64) {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let limit = getrlimit(Resource::Nofile);
    let wanted = limit.maximum.map_or(files, |max| max.min(files));
    let raised = Rlimit {
        current: Some(wanted),
        maximum: limit.maximum,
    };
    setrlimit(Resource::Nofile, raised).unwrap();
    assert!(
        wanted >= files,
        "this test needs {files} open files; the hard limit is {wanted}"
    );
}

fn address(server: &Server) -> SocketAddr {
    server.url.trim_start_matches("http://").parse().unwrap()
}

/// A connection from `source` (any 127.0.0.0/8 address on Linux) to
/// `server`: clients of different addresses from one machine.
fn connect_from(source: IpAddr, server: SocketAddr) -> TcpStream {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(source, 0)).unwrap();
        let stream = socket.connect(server).await.unwrap();
        stream.into_std().unwrap()
    })
}

/// A request's headers, cut short: what a slow client sends.
fn half_request(stream: &mut TcpStream) {
    let _ = stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: tessera\r\nX-Slow: ");
}

/// How `stream` ends by `deadline`: `Ok` with what the server sent if it
/// closed the connection (or reset it), `Err` if it is still open.
fn closed_by(stream: &mut TcpStream, deadline: Instant) -> Result<String, String> {
    let mut got = Vec::new();
    let mut buffer = [0u8; 1024];
    stream.set_nonblocking(true).unwrap();
    loop {
        // Past the deadline one read still says whether it was closed.
        match stream.read(&mut buffer) {
            Ok(0) => return Ok(String::from_utf8_lossy(&got).into_owned()),
            Ok(n) => got.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    let got = String::from_utf8_lossy(&got);
                    return Err(format!("still open, sent {got:?}"));
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(_) => return Ok(String::from_utf8_lossy(&got).into_owned()),
        }
    }
}

/// A metric's value on the server's `/metrics` page (0 when absent).
fn metric(client: &mut Client, name: &str, labels: &str) -> f64 {
    let page = client.get("/metrics").text;
    page.lines()
        .filter(|l| l.starts_with(name) && l.contains(labels))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

fn p99(mut millis: Vec<f64>) -> f64 {
    millis.sort_by(f64::total_cmp);
    millis[(millis.len() * 99 / 100).min(millis.len() - 1)]
}

#[test]
fn two_thousand_slow_clients_are_cut_off_and_others_are_served() {
    const SLOW: usize = 2000;
    const TIMEOUT: u64 = 2;
    allow_open_files(SLOW as u64 + 512);
    // The usual service limit of 1,024 files: the server cannot take all
    // of them at once, and must refuse the rest rather than fall over.
    let args = [
        "serve",
        "--header-timeout",
        "2",
        "--max-connections-per-client",
        "100000",
    ];
    let server = Server::start_limited(&args, temp_dir(), 1024);
    let target = address(&server);
    // A normal client, connected before the flood, keeps its connection.
    let mut player = server.client();
    assert_eq!(player.get("/healthz").status, 200);
    let flood = std::thread::spawn(move || {
        (0..SLOW)
            .map(|_| {
                let mut stream = TcpStream::connect(target).unwrap();
                half_request(&mut stream);
                (Instant::now(), stream)
            })
            .collect::<Vec<_>>()
    });
    let mut latencies = Vec::new();
    while !flood.is_finished() || latencies.len() < 200 {
        let start = Instant::now();
        let reply = if latencies.len() % 2 == 0 {
            player.get("/healthz")
        } else {
            player.post("/api/slide/new", json!({"size": "4x4"}))
        };
        assert_eq!(reply.status, 200, "{}", reply.text);
        latencies.push(start.elapsed().as_secs_f64() * 1000.0);
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut slow = flood.join().unwrap();
    let flood_took = slow[SLOW - 1].0 - slow[0].0;
    let limit = Duration::from_secs(TIMEOUT + 2);
    for (i, (opened, stream)) in slow.iter_mut().enumerate() {
        closed_by(stream, *opened + limit).unwrap_or_else(|e| {
            let page = player.get("/metrics").text;
            let connections: Vec<&str> = page.lines().filter(|l| l.contains("connections")).collect();
            let age = opened.elapsed();
            panic!("slow client {i} was not cut off within {limit:?} (age {age:?}, flood {flood_took:?}): {e}\n{connections:#?}");
        });
    }
    let latencies_len = latencies.len();
    let p99 = p99(latencies);
    assert!(p99 < 100.0, "p99 of a normal client: {p99:.1} ms");
    assert_eq!(player.get("/healthz").status, 200);
    let timed_out = metric(&mut player, "tessera_connections_timed_out_total", "");
    let at_cap = metric(&mut player, "tessera_connections_refused_total", "instance");
    let accept_errors = metric(
        &mut player,
        "tessera_connections_refused_total",
        "accept_error",
    );
    assert!(timed_out >= 500.0, "{timed_out} timed out");
    assert_eq!(accept_errors, 0.0, "the server ran out of file descriptors");
    eprintln!(
        "{SLOW} slow clients in {flood_took:?}: {timed_out} timed out, {at_cap} refused; \
         normal client p99 {p99:.1} ms over {} requests",
        latencies_len
    );
}

#[test]
fn an_idle_kept_alive_connection_is_closed_after_the_header_timeout() {
    let server = Server::start_with(&["serve", "--header-timeout", "1"], temp_dir());
    let mut stream = TcpStream::connect(address(&server)).unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: tessera\r\n\r\n")
        .unwrap();
    let start = Instant::now();
    let sent = closed_by(&mut stream, start + Duration::from_secs(3)).unwrap();
    assert!(sent.starts_with("HTTP/1.1 200"), "{sent}");
    let idle = start.elapsed();
    assert!(idle >= Duration::from_millis(900), "closed after {idle:?}");
}

#[test]
fn beyond_the_caps_new_connections_are_refused_at_once_and_others_served() {
    let args = [
        "serve",
        "--max-connections",
        "12",
        "--max-connections-per-client",
        "4",
    ];
    let server = Server::start_with(&args, temp_dir());
    let target = address(&server);
    let mut player = server.client();
    assert_eq!(player.get("/healthz").status, 200);
    let here: IpAddr = "127.0.0.1".parse().unwrap();
    // Three more from the player's address: its four are taken.
    let mut held: Vec<TcpStream> = (0..3).map(|_| connect_from(here, target)).collect();
    let refused_fast = |stream: &mut TcpStream| {
        let start = Instant::now();
        let sent = closed_by(stream, start + Duration::from_secs(1));
        let sent = sent.unwrap_or_else(|e| panic!("a connection over the cap hangs: {e}"));
        assert!(
            sent.is_empty() || sent.starts_with("HTTP/1.1 503"),
            "{sent}"
        );
        start.elapsed()
    };
    let took = refused_fast(&mut connect_from(here, target));
    assert!(took < Duration::from_millis(500), "refused after {took:?}");
    // Another address is served.
    let other: IpAddr = "127.0.0.2".parse().unwrap();
    let mut stream = connect_from(other, target);
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        .unwrap();
    let sent = closed_by(&mut stream, Instant::now() + Duration::from_secs(2)).unwrap();
    assert!(sent.starts_with("HTTP/1.1 200"), "{sent}");
    // Eight more from other addresses: the instance's twelve are taken.
    for i in 0..8u8 {
        let source = IpAddr::from([127, 0, 1, i / 4 + 1]);
        held.push(connect_from(source, target));
    }
    std::thread::sleep(Duration::from_millis(200));
    let took = refused_fast(&mut connect_from(IpAddr::from([127, 0, 2, 1]), target));
    assert!(took < Duration::from_millis(500), "refused after {took:?}");
    // The established client is still served.
    for _ in 0..5 {
        assert_eq!(player.get("/healthz").status, 200);
    }
    assert_eq!(metric(&mut player, "tessera_connections_open", ""), 12.0);
    assert!(
        metric(
            &mut player,
            "tessera_connections_refused_total",
            "\"client\""
        ) >= 1.0
    );
    assert!(
        metric(
            &mut player,
            "tessera_connections_refused_total",
            "\"instance\""
        ) >= 1.0
    );
    drop(held);
}
