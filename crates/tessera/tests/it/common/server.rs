//! A real `tessera serve` on an ephemeral port with a fresh database, and a
//! client that keeps its cookie: what the API tests drive.
//!
//! The database is a SQLite file in a temporary directory, or, when
//! `TESSERA_TEST_POSTGRES` holds a PostgreSQL server's URL without a
//! database name (`scripts/test` starts one and runs the API suites again
//! with it), a fresh database of its own on that server.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// A running server; killed (and its database removed) on drop.
pub struct Server {
    child: Child,
    /// The base URL, e.g. `http://127.0.0.1:41234`.
    pub url: String,
    dir: PathBuf,
    keep_dir: bool,
}

pub fn temp_dir() -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tessera-web-api-{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl Server {
    /// A server on a fresh SQLite file.
    pub fn start() -> Server {
        Server::start_in(temp_dir())
    }

    /// A server on the database in `dir` (made if missing).
    pub fn start_in(dir: PathBuf) -> Server {
        Server::start_with(&["serve"], dir)
    }

    /// `tessera ARGS --addr 127.0.0.1:0 --db DB` on the test database for
    /// `dir`, with the solver rate limit out of the way (one test checks it)
    /// and a patient database (see [`PATIENT`]).
    pub fn start_with(args: &[&str], dir: PathBuf) -> Server {
        let db = database_for(&dir);
        let mut full = args.to_vec();
        full.extend(["--solver-rate", "100000", "--db", &db]);
        full.extend(PATIENT);
        Server::start_args(&full, dir)
    }

    /// A server on the database in `dir` whose clock reads `shift_millis`
    /// milliseconds off the system's (a debug build's seam for the tests
    /// that need a day to pass: `TESSERA_TEST_CLOCK_SHIFT_MS`).
    pub fn start_shifted(dir: PathBuf, shift_millis: i64) -> Server {
        let db = database_for(&dir);
        let mut command = Command::new(env!("CARGO_BIN_EXE_tessera"));
        command.env("TESSERA_TEST_CLOCK_SHIFT_MS", shift_millis.to_string());
        let mut args = vec!["serve", "--solver-rate", "100000", "--db", &db];
        args.extend(PATIENT);
        Server::spawn(command, &args, dir)
    }

    /// `tessera ARGS --addr 127.0.0.1:0`, the arguments naming the database.
    pub fn start_args(args: &[&str], dir: PathBuf) -> Server {
        Server::spawn(Command::new(env!("CARGO_BIN_EXE_tessera")), args, dir)
    }

    /// [`Server::start_with`] in a process allowed `open_files` file
    /// descriptors at most (`ulimit -n`: soft and hard limit alike).
    pub fn start_limited(args: &[&str], dir: PathBuf, open_files: u64) -> Server {
        let db = database_for(&dir);
        let mut full = args.to_vec();
        full.extend(["--solver-rate", "100000", "--db", &db]);
        full.extend(PATIENT);
        let mut shell = Command::new("sh");
        shell.args([
            "-c",
            &format!("ulimit -n {open_files} && exec \"$0\" \"$@\""),
            env!("CARGO_BIN_EXE_tessera"),
        ]);
        Server::spawn(shell, &full, dir)
    }

    fn spawn(mut command: Command, args: &[&str], dir: PathBuf) -> Server {
        let mut child = command
            .args(args)
            .args(["--addr", "127.0.0.1:0"])
            // Not the 7-8 tables in the background: minutes of both cores
            // per fresh cache (tests/it/ops.rs checks that path).
            .env("TESSERA_TABLES", "small")
            .env(
                "RUST_LOG",
                std::env::var("RUST_LOG").unwrap_or("warn".into()),
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let url = read_url(&mut child);
        Server {
            child,
            url,
            dir,
            keep_dir: false,
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the process to end (after a signal): its exit status.
    pub fn wait(mut self) -> std::process::ExitStatus {
        self.child.wait().unwrap()
    }

    /// The directory of its database.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// Stops the server but keeps its database directory.
    pub fn stop(mut self) -> PathBuf {
        self.keep_dir = true;
        self.dir.clone()
    }

    pub fn client(&self) -> Client {
        Client::new(&self.url)
    }
}

/// The database wait of the tests' servers: the default second is for a
/// stuck database in production, but the tests share two cores with
/// builds and other servers, where a write may wait that long for the
/// lock or the pool on a healthy database and be answered 503. The tests of
/// an unreachable database start their servers with their own arguments.
pub const PATIENT: [&str; 2] = ["--db-timeout", "10"];

/// The base URL a starting server prints on its first line of output,
/// without the trailing slash.
pub fn read_url(child: &mut Child) -> String {
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let start = line.find("http://").expect("the server prints its URL");
    line[start..]
        .split_whitespace()
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_string()
}

/// The `--db` of a test server whose files live in `dir`: see the module
/// docs. The PostgreSQL database is named after the directory, so a server
/// restarted on the same directory finds its records.
pub fn database_for(dir: &std::path::Path) -> String {
    match std::env::var("TESSERA_TEST_POSTGRES") {
        Ok(base) if !base.is_empty() => {
            let name: String = dir
                .file_name()
                .unwrap()
                .to_string_lossy()
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            format!("{}/{name}", base.trim_end_matches('/'))
        }
        _ => dir.join("records.db").to_string_lossy().into_owned(),
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !self.keep_dir {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// A browser stand-in: keeps the cookies the server hands out, and sends
/// its own `Origin` with every POST as a browser does.
pub struct Client {
    base: String,
    /// The `Cookie` header: every cookie the server set (`a=1; b=2`), the
    /// player cookie first.
    pub cookie: Option<String>,
    /// The `Origin` sent with POSTs and DELETEs (the server's own unless
    /// changed; `None` sends none).
    pub origin: Option<String>,
    agent: ureq::Agent,
}

pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub text: String,
    pub headers: Vec<(String, String)>,
}

impl Reply {
    /// A response header's value (names are lower case).
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    /// The error message of a 4xx reply.
    pub fn error(&self) -> String {
        assert!(
            (400..500).contains(&self.status),
            "expected a 4xx, got {}: {}",
            self.status,
            self.text
        );
        self.json()["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error message in {}", self.text))
            .to_string()
    }
}

impl Client {
    /// A client with no cookie yet, for the server at `base`.
    pub fn new(base: &str) -> Client {
        Client {
            base: base.to_string(),
            cookie: None,
            origin: Some(base.to_string()),
            agent: ureq::Agent::config_builder()
                .http_status_as_error(false)
                // The server closes a kept-alive connection idle for its
                // header timeout (2 s at the least in these tests). A
                // request sent on one just as it closes fails with "peer
                // disconnected", so a connection idle for a second is
                // not reused.
                .max_idle_age(std::time::Duration::from_secs(1))
                .build()
                .into(),
        }
    }

    fn finish(
        &mut self,
        path: &str,
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Reply {
        let mut response =
            response.unwrap_or_else(|e| panic!("no reply to {} {path}: {e}", self.base));
        for set in response.headers().get_all("set-cookie") {
            self.keep_cookie(set.to_str().unwrap());
        }
        let content_type = response
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        let status = response.status().as_u16();
        let headers = response
            .headers()
            .iter()
            .map(|(n, v)| (n.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
            .collect();
        let text = response.body_mut().read_to_string().unwrap_or_default();
        Reply {
            status,
            content_type,
            text,
            headers,
        }
    }

    /// Stores (or, with `Max-Age=0`, drops) the cookie of a `Set-Cookie`.
    fn keep_cookie(&mut self, set: &str) {
        let pair = set.split(';').next().unwrap().trim();
        let (name, _) = pair.split_once('=').unwrap();
        let gone = set.split(';').any(|a| a.trim() == "Max-Age=0");
        let mut jar: Vec<String> = self
            .cookie
            .iter()
            .flat_map(|c| c.split("; "))
            .filter(|c| !c.starts_with(&format!("{name}=")))
            .map(str::to_string)
            .collect();
        if !gone {
            jar.push(pair.to_string());
        }
        self.cookie = (!jar.is_empty()).then(|| jar.join("; "));
    }

    /// The value of the cookie `name`, if kept.
    pub fn cookie_value(&self, name: &str) -> Option<String> {
        self.cookie
            .iter()
            .flat_map(|c| c.split("; "))
            .find_map(|c| c.strip_prefix(&format!("{name}=")))
            .map(str::to_string)
    }

    pub fn get(&mut self, path: &str) -> Reply {
        let mut request = self.agent.get(format!("{}{path}", self.base));
        if let Some(cookie) = &self.cookie {
            request = request.header("Cookie", cookie);
        }
        let response = request.call();
        self.finish(path, response)
    }

    pub fn post_raw(&mut self, path: &str, content_type: &str, body: &str) -> Reply {
        let mut request = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("Content-Type", content_type);
        if let Some(cookie) = &self.cookie {
            request = request.header("Cookie", cookie);
        }
        if let Some(origin) = &self.origin {
            request = request.header("Origin", origin);
        }
        let response = request.send(body);
        self.finish(path, response)
    }

    pub fn delete(&mut self, path: &str) -> Reply {
        let mut request = self.agent.delete(format!("{}{path}", self.base));
        if let Some(cookie) = &self.cookie {
            request = request.header("Cookie", cookie);
        }
        if let Some(origin) = &self.origin {
            request = request.header("Origin", origin);
        }
        let response = request.call();
        self.finish(path, response)
    }

    /// A DELETE with a JSON body (as deleting an account takes).
    pub fn delete_json(&mut self, path: &str, body: Value) -> Reply {
        let mut request = self
            .agent
            .delete(format!("{}{path}", self.base))
            .header("Content-Type", "application/json");
        if let Some(cookie) = &self.cookie {
            request = request.header("Cookie", cookie);
        }
        if let Some(origin) = &self.origin {
            request = request.header("Origin", origin);
        }
        let response = request.force_send_body().send(body.to_string());
        self.finish(path, response)
    }

    /// Signs up a fresh account (a unique handle with `prefix`, a strong
    /// password) and stays signed in: the handle and the password.
    pub fn sign_up(&mut self, prefix: &str) -> (String, String) {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::SeqCst);
        let handle = format!("{prefix}{}x{n}", std::process::id() % 100_000);
        let password = format!("violet tractor {n} umbrella lagoon");
        let reply = self.post(
            "/api/account/signup",
            serde_json::json!({"handle": handle, "password": password}),
        );
        assert_eq!(reply.status, 201, "sign-up: {}", reply.text);
        (handle, password)
    }

    pub fn post(&mut self, path: &str, body: Value) -> Reply {
        self.post_raw(path, "application/json", &body.to_string())
    }

    /// A POST that must succeed; its JSON.
    pub fn ok(&mut self, path: &str, body: Value) -> Value {
        let reply = self.post(path, body);
        assert_eq!(reply.status, 200, "{path}: {}", reply.text);
        reply.json()
    }
}
