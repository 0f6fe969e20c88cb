//! Accounts against a real server: sign-up, sign-in and sessions, and the
//! attacks the issue names — each test performs one and fails if the
//! server gives way.

use crate::common;

use common::person::{deal_3x3, solve_like_a_person};
use common::server::{database_for, temp_dir, Client, Reply, Server};
use serde_json::{json, Value};

const SESSION: &str = "tessera_session";

/// Runs `sql` on the server's database (the test reading behind the
/// server's back, as an operator could): every row, each column as text.
pub(crate) fn query(server: &Server, sql: &str) -> Vec<Vec<Option<String>>> {
    use sqlx::{Connection, Row};
    sqlx::any::install_default_drivers();
    let db = database_for(server.dir());
    let url = if db.starts_with("postgres") {
        db
    } else {
        format!("sqlite://{db}?mode=rw")
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut connection = sqlx::AnyConnection::connect(&url).await.unwrap();
        let rows = sqlx::query(sql).fetch_all(&mut connection).await.unwrap();
        rows.iter()
            .map(|r| {
                (0..r.len())
                    .map(|i| {
                        r.try_get::<Option<String>, _>(i)
                            .or_else(|_| {
                                r.try_get::<Option<i64>, _>(i)
                                    .map(|v| v.map(|v| v.to_string()))
                            })
                            .unwrap()
                    })
                    .collect()
            })
            .collect()
    })
}

fn credentials(handle: &str, password: &str) -> Value {
    json!({"handle": handle, "password": password})
}

fn account(c: &mut Client) -> Reply {
    c.get("/api/account")
}

/// The `Set-Cookie` of the session in a reply.
fn session_set_cookie(reply: &Reply) -> String {
    reply
        .headers
        .iter()
        .find(|(n, v)| n == "set-cookie" && v.starts_with(SESSION))
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| panic!("no session cookie in {:?}", reply.headers))
}

#[test]
fn sign_up_signs_in_and_keeps_only_an_argon2id_hash() {
    let server = Server::start();
    let mut c = server.client();
    assert_eq!(account(&mut c).status, 401);
    // The page's question answers a guest without an error.
    let guest = c.get("/api/session");
    assert_eq!(guest.status, 200, "{}", guest.text);
    assert_eq!(guest.json()["account"], Value::Null);
    let password = "violet tractor umbrella lagoon";
    let reply = c.post("/api/account/signup", credentials("Ada_L", password));
    assert_eq!(reply.status, 201, "{}", reply.text);
    assert_eq!(reply.json()["handle"], "Ada_L");
    let me = account(&mut c);
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(me.json()["handle"], "Ada_L");
    assert_eq!(c.get("/api/session").json()["account"]["handle"], "Ada_L");
    let rows = query(&server, "SELECT handle, password_hash FROM accounts");
    assert_eq!(rows.len(), 1);
    let hash = rows[0][1].clone().unwrap();
    assert!(
        hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
        "{hash}"
    );
    assert!(!hash.contains(password) && !hash.contains("violet"));
    // The session row holds a digest, not the token the cookie carries.
    let token = c.cookie_value(SESSION).unwrap();
    assert_eq!(token.len(), 64);
    let sessions = query(&server, "SELECT token_hash FROM sessions");
    assert_eq!(sessions.len(), 1);
    assert_ne!(sessions[0][0].as_deref(), Some(token.as_str()));
    // Signing in again from another browser works with the same password.
    let mut other = server.client();
    let reply = other.post("/api/account/login", credentials("ada_l", password));
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.json()["handle"], "Ada_L");
}

#[test]
fn handles_and_passwords_are_checked_at_the_edge() {
    let server = Server::start();
    let mut c = server.client();
    let strong = "violet tractor umbrella lagoon";
    let cases = [
        (credentials("ab", strong), "/handle", "3 to 20 characters"),
        (credentials("<b>x</b>", strong), "/handle", "not allowed"),
        (credentials("\u{430}dmin", strong), "/handle", "not allowed"),
        (credentials("Admin", strong), "/handle", "reserved"),
        (credentials("ada", "short"), "/password", "at least 10"),
        (
            credentials("ada", "password1234"),
            "/password",
            "too easy to guess",
        ),
    ];
    for (body, pointer, says) in cases {
        let reply = c.post("/api/account/signup", body.clone());
        assert_eq!(reply.status, 400, "{body}: {}", reply.text);
        assert_eq!(reply.json()["pointer"], pointer, "{body}");
        assert!(reply.error().contains(says), "{body}: {}", reply.error());
    }
    let reply = c.post("/api/account/signup", json!({"handle": "ada"}));
    assert_eq!(reply.status, 422);
    assert_eq!(
        c.post("/api/account/signup", credentials("Ada", strong))
            .status,
        201
    );
    // The same handle in another case is the same account.
    let mut other = server.client();
    let taken = other.post("/api/account/signup", credentials("ADA", strong));
    assert_eq!(taken.status, 409, "{}", taken.text);
    assert!(taken.error().contains("taken"));
    assert_eq!(query(&server, "SELECT id FROM accounts").len(), 1);
}

#[test]
fn the_token_rotates_at_sign_in_and_sign_out_ends_sessions() {
    let server = Server::start();
    let mut c = server.client();
    let (handle, password) = c.sign_up("rot");
    let first = c.cookie_value(SESSION).unwrap();
    let reply = c.post("/api/account/login", credentials(&handle, &password));
    assert_eq!(reply.status, 200, "{}", reply.text);
    let second = c.cookie_value(SESSION).unwrap();
    assert_ne!(first, second, "the token must change at sign-in");
    // The old token no longer signs anyone in.
    let mut stale = server.client();
    stale.cookie = Some(format!("{SESSION}={first}"));
    assert_eq!(account(&mut stale).status, 401);
    assert_eq!(account(&mut c).status, 200);
    // A fixed token planted before sign-in is not the one signed in.
    let mut planted = server.client();
    let fixed = "ab".repeat(32);
    planted.cookie = Some(format!("{SESSION}={fixed}"));
    let reply = planted.post("/api/account/login", credentials(&handle, &password));
    assert_eq!(reply.status, 200);
    assert_ne!(planted.cookie_value(SESSION).unwrap(), fixed);
    // Sign out here: this browser only.
    let reply = c.post("/api/account/logout", json!({}));
    assert_eq!(reply.status, 204, "{}", reply.text);
    assert!(session_set_cookie(&reply).contains("Max-Age=0"));
    assert_eq!(account(&mut c).status, 401);
    let mut on_phone = server.client();
    on_phone.cookie = Some(format!("{SESSION}={second}"));
    assert_eq!(account(&mut on_phone).status, 401);
    assert_eq!(account(&mut planted).status, 200);
    // Sign out everywhere: every other browser too.
    let mut laptop = server.client();
    laptop.post("/api/account/login", credentials(&handle, &password));
    assert_eq!(
        planted.post("/api/account/logout-all", json!({})).status,
        204
    );
    assert_eq!(account(&mut planted).status, 401);
    assert_eq!(account(&mut laptop).status, 401);
    assert_eq!(
        laptop.post("/api/account/logout-all", json!({})).status,
        401
    );
}

/// A POST with extra headers, cookies as `c` keeps them.
fn post_with(c: &Client, url: &str, body: &Value, headers: &[(&str, &str)]) -> (u16, Vec<String>) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut request = agent.post(url).header("Content-Type", "application/json");
    if let Some(cookie) = &c.cookie {
        request = request.header("Cookie", cookie);
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send(body.to_string()).unwrap();
    let cookies = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    (response.status().as_u16(), cookies)
}

fn session_flags(cookies: &[String]) -> Vec<String> {
    let cookie = cookies
        .iter()
        .find(|c| c.starts_with(SESSION))
        .unwrap_or_else(|| panic!("no session cookie in {cookies:?}"));
    cookie
        .split(';')
        .skip(1)
        .map(|a| a.trim().to_string())
        .collect()
}

#[test]
fn the_cookie_carries_its_flags() {
    let strong = "violet tractor umbrella lagoon";
    let server = Server::start();
    let c = server.client();
    let url = format!("{}/api/account/signup", server.url);
    let origin = [("Origin", server.url.as_str())];
    let (status, cookies) = post_with(&c, &url, &credentials("plain", strong), &origin);
    assert_eq!(status, 201);
    let flags = session_flags(&cookies);
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(flags.iter().any(|f| f == flag), "{flag} missing: {flags:?}");
    }
    assert!(!flags.iter().any(|f| f == "Secure"), "{flags:?}");
    // Served over TLS (told by the flag): Secure.
    let secure = Server::start_with(&["serve", "--secure-cookies"], temp_dir());
    let url = format!("{}/api/account/signup", secure.url);
    let origin = [("Origin", secure.url.as_str())];
    let (_, cookies) = post_with(&c, &url, &credentials("tls", strong), &origin);
    assert!(session_flags(&cookies).iter().any(|f| f == "Secure"));
    // Behind a trusted balancer that says the client came over HTTPS.
    let proxied = Server::start_with(&["serve", "--trust-proxy"], temp_dir());
    let url = format!("{}/api/account/signup", proxied.url);
    let https = [
        ("Origin", proxied.url.as_str()),
        ("X-Forwarded-For", "203.0.113.7"),
        ("X-Forwarded-Proto", "https"),
    ];
    let (status, cookies) = post_with(&c, &url, &credentials("proxied", strong), &https);
    assert_eq!(status, 201);
    assert!(session_flags(&cookies).iter().any(|f| f == "Secure"));
    let http = [
        ("Origin", proxied.url.as_str()),
        ("X-Forwarded-For", "203.0.113.7"),
        ("X-Forwarded-Proto", "http"),
    ];
    let (_, cookies) = post_with(&c, &url, &credentials("plainer", strong), &http);
    assert!(!session_flags(&cookies).iter().any(|f| f == "Secure"));
}

#[test]
fn an_unknown_handle_and_a_wrong_password_answer_alike() {
    let server = Server::start();
    let mut c = server.client();
    let (handle, _) = c.sign_up("alike");
    let mut a = server.client();
    let wrong = a.post(
        "/api/account/login",
        credentials(&handle, "not the password at all"),
    );
    let mut b = server.client();
    let unknown = b.post(
        "/api/account/login",
        credentials("nobody_here", "not the password at all"),
    );
    assert_eq!(wrong.status, 401);
    assert_eq!(wrong.status, unknown.status);
    assert_eq!(wrong.text, unknown.text);
    // Both did the same hashing work: neither answers in a fraction of
    // the other's time (an unknown handle without a dummy hash would).
    let time = |c: &mut Client, handle: &str| {
        let start = std::time::Instant::now();
        c.post(
            "/api/account/login",
            credentials(handle, "not the password at all"),
        );
        start.elapsed()
    };
    let known = (0..3).map(|_| time(&mut a, &handle)).min().unwrap();
    let nobody = (0..3).map(|_| time(&mut b, "nobody_else")).min().unwrap();
    assert!(
        nobody * 3 > known,
        "unknown {nobody:?} vs wrong password {known:?}"
    );
}

#[test]
fn ten_bad_passwords_make_even_the_right_one_wait() {
    let server = Server::start();
    let mut owner = server.client();
    let (handle, password) = owner.sign_up("target");
    let mut attacker = server.client();
    for _ in 0..10 {
        let reply = attacker.post(
            "/api/account/login",
            credentials(&handle, "guess guess guess"),
        );
        assert_eq!(reply.status, 401, "{}", reply.text);
    }
    let reply = attacker.post("/api/account/login", credentials(&handle, &password));
    assert_eq!(
        reply.status, 429,
        "the right password got in: {}",
        reply.text
    );
    let wait: u64 = reply.header("retry-after").unwrap().parse().unwrap();
    assert!((800..=900).contains(&wait), "Retry-After {wait}");
    assert!(attacker.cookie_value(SESSION).is_none());
    let metrics = attacker.get("/metrics").text;
    let failures = metrics
        .lines()
        .find(|l| l.starts_with("tessera_login_failures_total"))
        .unwrap_or_else(|| panic!("no failure count in /metrics"));
    let count: f64 = failures.split_whitespace().last().unwrap().parse().unwrap();
    assert!(count >= 10.0, "{failures}");
}

#[test]
fn one_client_guessing_many_handles_is_throttled() {
    // Clients behind a trusted balancer, told apart by X-Forwarded-For.
    let proxied = Server::start_with(&["serve", "--trust-proxy"], temp_dir());
    let mut victim = proxied.client();
    let (handle2, password2) = victim.sign_up("many");
    let url = format!("{}/api/account/login", proxied.url);
    let c = Client::new(&proxied.url);
    let from = |ip: &'static str| {
        [
            ("Origin", proxied.url.clone()),
            ("X-Forwarded-For", ip.to_string()),
        ]
    };
    for i in 0..10 {
        let headers = from("198.51.100.9");
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let body = credentials(&format!("someone{i}"), "guess guess guess");
        assert_eq!(post_with(&c, &url, &body, &headers).0, 401);
    }
    let headers = from("198.51.100.9");
    let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let (status, _) = post_with(&c, &url, &credentials(&handle2, &password2), &headers);
    assert_eq!(status, 429, "the guessing client got in");
    // Another client is not held up by it.
    let headers = from("198.51.100.10");
    let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let (status, _) = post_with(&c, &url, &credentials(&handle2, &password2), &headers);
    assert_eq!(status, 200);
}

#[test]
fn a_cross_site_post_with_a_valid_cookie_is_refused() {
    let server = Server::start();
    let mut c = server.client();
    c.sign_up("csrf");
    let url = format!("{}/api/account/logout-all", server.url);
    let evil = [("Origin", "https://evil.example")];
    let (status, _) = post_with(&c, &url, &json!({}), &evil);
    assert_eq!(status, 403);
    let evil_referer = [("Referer", "https://evil.example/page")];
    assert_eq!(post_with(&c, &url, &json!({}), &evil_referer).0, 403);
    // No Origin and no Referer: not known to be the site's own.
    assert_eq!(post_with(&c, &url, &json!({}), &[]).0, 403);
    // Every state-changing endpoint, not only the account's.
    let new = format!("{}/api/slide/new", server.url);
    assert_eq!(post_with(&c, &new, &json!({"size": "3x3"}), &evil).0, 403);
    // The session survived every attempt.
    assert_eq!(account(&mut c).status, 200);
    // The site's own page (its Referer) may.
    let own = format!("{}/", server.url);
    let (status, _) = post_with(&c, &url, &json!({}), &[("Referer", own.as_str())]);
    assert_eq!(status, 204);
    // A guest (no session cookie) has nothing to steal: not refused.
    let guest = server.client();
    assert_eq!(
        post_with(&guest, &new, &json!({"size": "3x3"}), &evil).0,
        200
    );
}

#[test]
fn a_disabled_accounts_sessions_stop_at_once() {
    let server = Server::start();
    let mut c = server.client();
    let (handle, password) = c.sign_up("dis");
    assert_eq!(account(&mut c).status, 200);
    let key = handle.to_ascii_lowercase();
    query(
        &server,
        &format!("UPDATE accounts SET disabled = 1 WHERE handle_key = '{key}'"),
    );
    assert_eq!(
        account(&mut c).status,
        401,
        "a disabled account's cookie still works"
    );
    let mut again = server.client();
    let reply = again.post("/api/account/login", credentials(&handle, &password));
    assert_eq!(reply.status, 403, "{}", reply.text);
    assert!(reply.error().contains("disabled"));
    assert!(again.cookie_value(SESSION).is_none());
}

fn records(c: &mut Client) -> Vec<Value> {
    let tables = c
        .get("/api/records?game=slide&variant=3x3-row-major")
        .json();
    tables["by_time"].as_array().unwrap().clone()
}

#[test]
fn a_guests_result_is_unranked_until_the_guest_signs_up() {
    let server = Server::start();
    let mut c = server.client();
    c.ok("/api/me/name", json!({"name": "TopPlayer"}));
    let done = solve_like_a_person(&mut c, 7).2;
    assert_eq!(done["ranked"], false, "{done}");
    assert_eq!(done["reason"], "guest");
    assert!(records(&mut c).is_empty(), "a guest's result was ranked");
    // The replay is kept as any other.
    let id = done["game"].as_str().unwrap();
    assert_eq!(
        c.get(&format!("/api/replays/{id}")).json()["reason"],
        "guest"
    );
    // Sign-up on that browser moves it to the account, ranked.
    let (handle, password) = c.sign_up("owner");
    let ranked = records(&mut c);
    assert_eq!(ranked.len(), 1);
    assert_eq!(ranked[0]["game_id"], id);
    assert_eq!(ranked[0]["handle"], handle.as_str());
    assert_eq!(ranked[0]["name"], handle.as_str());
    assert_eq!(ranked[0]["mine"], true);
    // Signed in, a new result is ranked at once under the handle.
    let done = solve_like_a_person(&mut c, 8).2;
    assert_eq!(done["ranked"], true, "{done}");
    assert_eq!(records(&mut c).len(), 2);
    // Another browser signed in to the account sees the same history.
    let mut phone = server.client();
    assert_eq!(
        phone
            .post("/api/account/login", credentials(&handle, &password))
            .status,
        200
    );
    let stats = phone
        .get("/api/me/stats?game=slide&variant=3x3-row-major")
        .json();
    assert_eq!(stats["count"], 2, "{stats}");
    assert!(records(&mut phone).iter().all(|r| r["mine"] == true));
    // Moved once: someone else signing in on the first browser later
    // takes none of the account's results.
    c.post("/api/account/logout", json!({}));
    let (other, _) = c.sign_up("later");
    assert!(records(&mut c)
        .iter()
        .all(|r| r["handle"] == handle.as_str() && r["mine"] == false));
    let theirs = c
        .get("/api/me/stats?game=slide&variant=3x3-row-major")
        .json();
    assert_eq!(theirs["count"], 0, "{other} took results: {theirs}");
}

#[test]
fn a_bot_on_an_account_stays_unranked() {
    let server = Server::start();
    let mut c = server.client();
    let (handle, password) = c.sign_up("bot");
    let (game, moves) = deal_3x3(&mut c, 9);
    let times = vec![0; moves.len()];
    let done = c.ok(
        "/api/slide/submit",
        json!({"game": game["game"], "moves": moves, "times": times}),
    );
    assert_eq!(done["ranked"], false, "{done}");
    assert!(
        done["reason"].as_str().unwrap().starts_with("too fast"),
        "{done}"
    );
    // Signing in again (which moves guest results) does not rank it.
    c.post("/api/account/logout", json!({}));
    let login = c.post("/api/account/login", credentials(&handle, &password));
    assert_eq!(login.status, 200, "{}", login.text);
    assert!(records(&mut c).is_empty(), "a bot's result was ranked");
}

#[test]
fn a_disabled_accounts_records_leave_the_table() {
    let server = Server::start();
    let mut c = server.client();
    let (handle, _) = c.sign_up("gone");
    assert_eq!(solve_like_a_person(&mut c, 10).2["ranked"], true);
    assert_eq!(records(&mut c).len(), 1);
    let key = handle.to_ascii_lowercase();
    query(
        &server,
        &format!("UPDATE accounts SET disabled = 1 WHERE handle_key = '{key}'"),
    );
    assert!(records(&mut c).is_empty());
}

#[test]
fn a_profile_shows_bests_solves_and_the_latest_results() {
    let server = Server::start();
    let mut c = server.client();
    let (handle, _) = c.sign_up("prof");
    let first = solve_like_a_person(&mut c, 11).2;
    let second = solve_like_a_person(&mut c, 12).2;
    // A bot's solve counts as a solve, never as a best.
    let (game, moves) = deal_3x3(&mut c, 13);
    let bot = c.ok(
        "/api/slide/submit",
        json!({"game": game["game"], "moves": moves, "times": vec![0; moves.len()]}),
    );
    assert_eq!(bot["ranked"], false, "{bot}");
    let mut stranger = server.client();
    let reply = stranger.get(&format!("/api/users/{}", handle.to_lowercase()));
    assert_eq!(reply.status, 200, "{}", reply.text);
    let profile = reply.json();
    assert_eq!(profile["handle"], handle.as_str());
    assert_eq!(profile["solves"], 3);
    let variants = profile["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 1, "{profile}");
    let v = &variants[0];
    assert_eq!(
        (v["game"].clone(), v["variant"].clone()),
        (json!("slide"), json!("3x3-row-major"))
    );
    assert_eq!(
        (v["solves"].clone(), v["ranked"].clone()),
        (json!(3), json!(2))
    );
    let best = first["millis"]
        .as_i64()
        .unwrap()
        .min(second["millis"].as_i64().unwrap());
    assert_eq!(v["best_millis"], best, "{v}");
    let fewest = first["moves"]
        .as_i64()
        .unwrap()
        .min(second["moves"].as_i64().unwrap());
    assert_eq!(v["best_moves"], fewest, "{v}");
    assert_eq!(v["ao5"], Value::Null);
    // The plot's times: every solve, oldest first, the bot's last.
    let latest = v["latest"].as_array().unwrap();
    assert_eq!(latest.len(), 3, "{v}");
    assert_eq!(latest[0]["millis"], first["millis"]);
    assert_eq!(latest[2]["ranked"], false);
    // The page that shows it.
    let page = stranger.get(&format!("/u/{handle}"));
    assert_eq!(page.status, 200);
    assert!(page.text.contains("/static/profile.js"));
    let recent: Vec<&str> = profile["recent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(recent.len(), 3);
    assert_eq!(recent[0], bot["game"].as_str().unwrap(), "newest first");
    assert!(recent.contains(&first["game"].as_str().unwrap()));
    for id in recent {
        assert_eq!(stranger.get(&format!("/api/replays/{id}")).status, 200);
    }
    // Unknown, malformed and disabled handles are all 404 with an error.
    for path in [
        "/api/users/nobody_here",
        "/api/users/%3Cb%3E",
        "/api/users/ab",
    ] {
        let reply = stranger.get(path);
        assert_eq!(reply.status, 404, "{path}: {}", reply.text);
        assert!(!reply.error().is_empty());
    }
    let key = handle.to_ascii_lowercase();
    query(
        &server,
        &format!("UPDATE accounts SET disabled = 1 WHERE handle_key = '{key}'"),
    );
    assert_eq!(stranger.get(&format!("/api/users/{handle}")).status, 404);
}

#[test]
fn changing_the_password_checks_the_current_one_and_ends_other_sessions() {
    let server = Server::start();
    let mut c = server.client();
    let (handle, password) = c.sign_up("pw");
    let mut phone = server.client();
    assert_eq!(
        phone
            .post("/api/account/login", credentials(&handle, &password))
            .status,
        200
    );
    let renewed = "orchid kettle meadow 42 saxophone";
    let wrong = c.post(
        "/api/account/password",
        json!({"current": "not the password at all", "new": renewed}),
    );
    assert_eq!(wrong.status, 403, "{}", wrong.text);
    let weak = c.post(
        "/api/account/password",
        json!({"current": password, "new": "password1234"}),
    );
    assert_eq!(weak.status, 400, "{}", weak.text);
    assert_eq!(weak.json()["pointer"], "/new");
    assert_eq!(
        account(&mut phone).status,
        200,
        "a refused change ended a session"
    );
    let guest = server.client().post(
        "/api/account/password",
        json!({"current": password, "new": renewed}),
    );
    assert_eq!(guest.status, 401);
    let reply = c.post(
        "/api/account/password",
        json!({"current": password, "new": renewed}),
    );
    assert_eq!(reply.status, 204, "{}", reply.text);
    assert_eq!(account(&mut c).status, 200, "the current session stays");
    assert_eq!(account(&mut phone).status, 401, "another session survived");
    let mut again = server.client();
    let old = again.post("/api/account/login", credentials(&handle, &password));
    assert_eq!(old.status, 401);
    let new = again.post("/api/account/login", credentials(&handle, renewed));
    assert_eq!(new.status, 200, "{}", new.text);
    let key = handle.to_ascii_lowercase();
    let rows = query(
        &server,
        &format!("SELECT password_hash FROM accounts WHERE handle_key = '{key}'"),
    );
    let hash = rows[0][0].clone().unwrap();
    assert!(hash.starts_with("$argon2id$") && !hash.contains("orchid"));
}

#[test]
fn guessing_the_current_password_is_throttled_like_a_sign_in() {
    let server = Server::start();
    let mut c = server.client();
    let (_, password) = c.sign_up("guess");
    let renewed = "orchid kettle meadow 42 saxophone";
    for i in 0..10 {
        let reply = c.post(
            "/api/account/password",
            json!({"current": format!("wrong guess number {i}"), "new": renewed}),
        );
        assert_eq!(reply.status, 403, "{}", reply.text);
    }
    let right = c.post(
        "/api/account/password",
        json!({"current": password, "new": renewed}),
    );
    assert_eq!(right.status, 429, "{}", right.text);
    assert!(right.header("retry-after").is_some());
    let delete = c.delete_json("/api/account", json!({"password": password}));
    assert_eq!(delete.status, 429, "{}", delete.text);
    assert_eq!(account(&mut c).status, 200);
}

#[test]
fn the_export_holds_the_account_and_every_result_with_its_moves() {
    let server = Server::start();
    let mut c = server.client();
    assert_eq!(c.get("/api/account/export").status, 401);
    let guest_result = solve_like_a_person(&mut c, 14).2;
    let (handle, _) = c.sign_up("exp");
    let own = solve_like_a_person(&mut c, 15).2;
    let reply = c.get("/api/account/export");
    assert_eq!(reply.status, 200, "{}", reply.text);
    let export = reply.json();
    assert_eq!(export["handle"], handle.as_str());
    assert!(export["created_at"].as_i64().unwrap() > 0);
    let results = export["results"].as_array().unwrap();
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            own["game"].as_str().unwrap(),
            guest_result["game"].as_str().unwrap()
        ]
    );
    for r in results {
        let moves = r["replay"].as_str().unwrap();
        assert!(!moves.is_empty(), "{r}");
        assert_eq!(r["times"].as_array().unwrap().len(), moves.len(), "{r}");
        assert_eq!(r["moves"].as_i64().unwrap() as usize, moves.len());
        assert_eq!(r["ranked"], true);
    }
    assert!(!reply.text.contains("argon2"), "the export leaks the hash");
}

#[test]
fn a_deleted_account_leaves_its_results_as_anonymous_guests() {
    let server = Server::start();
    let mut c = server.client();
    c.ok("/api/me/name", json!({"name": "BrowserName"}));
    let (handle, password) = c.sign_up("del");
    let done = solve_like_a_person(&mut c, 16).2;
    assert_eq!(done["ranked"], true);
    let id = done["game"].as_str().unwrap().to_string();
    let token = c.cookie_value(SESSION).unwrap();
    let mut phone = server.client();
    phone.post("/api/account/login", credentials(&handle, &password));
    let wrong = c.delete_json("/api/account", json!({"password": "certainly not it"}));
    assert_eq!(wrong.status, 403, "{}", wrong.text);
    assert_eq!(account(&mut c).status, 200);
    // Cross-site, even with the password: refused.
    let mut evil = server.client();
    evil.cookie = c.cookie.clone();
    evil.origin = Some("https://evil.example".into());
    assert_eq!(
        evil.delete_json("/api/account", json!({"password": password}))
            .status,
        403
    );
    let reply = c.delete_json("/api/account", json!({"password": password}));
    assert_eq!(reply.status, 204, "{}", reply.text);
    assert!(session_set_cookie(&reply).contains("Max-Age=0"));
    let mut stale = server.client();
    stale.cookie = Some(format!("{SESSION}={token}"));
    assert_eq!(account(&mut stale).status, 401);
    assert_eq!(account(&mut phone).status, 401);
    let login = server
        .client()
        .post("/api/account/login", credentials(&handle, &password));
    assert_eq!(login.status, 401);
    assert_eq!(c.get(&format!("/api/users/{handle}")).status, 404);
    let left = query(&server, "SELECT COUNT(*) FROM accounts");
    assert_eq!(left[0][0].as_deref(), Some("0"));
    let sessions = query(&server, "SELECT COUNT(*) FROM sessions");
    assert_eq!(sessions[0][0].as_deref(), Some("0"));
    // The result stays: unranked as a guest's, no handle, no name, its
    // replay still served.
    assert!(
        records(&mut c).is_empty(),
        "a deleted account's record stayed"
    );
    let replay = c.get(&format!("/api/replays/{id}"));
    assert_eq!(replay.status, 200, "{}", replay.text);
    let replay = replay.json();
    assert_eq!(replay["reason"], "guest", "{replay}");
    assert_eq!(replay["ranked"], false);
    assert_eq!(replay["handle"], Value::Null);
    assert_eq!(replay["name"], Value::Null, "{replay}");
    // No later sign-up, on that browser or any, takes it back.
    c.sign_up("heir");
    assert!(records(&mut c).is_empty());
    let stats = c
        .get("/api/me/stats?game=slide&variant=3x3-row-major")
        .json();
    assert_eq!(stats["count"], 0, "{stats}");
}

/// Runs `tessera admin users ARGS --db <the server's database>`: exit
/// code and output.
fn admin_users(server: &Server, args: &[&str]) -> (i32, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["admin", "users"])
        .args(args)
        .args(["--db", &database_for(server.dir())])
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The one-time password in an `admin users` line (four groups of five).
fn one_time_password(out: &str) -> String {
    out.split_whitespace()
        .find(|w| w.len() == 23 && w.split('-').count() == 4)
        .unwrap_or_else(|| panic!("no one-time password in {out}"))
        .to_string()
}

#[test]
fn operators_list_disable_enable_and_reset_accounts() {
    let server = Server::start();
    let mut c = server.client();
    let (handle, password) = c.sign_up("op");
    let (code, out, _) = admin_users(&server, &["list"]);
    assert_eq!(code, 0);
    let line = out.lines().find(|l| l.starts_with(&handle)).unwrap();
    assert!(line.ends_with("enabled"), "{out}");
    // Disable: the live session stops, sign-in is refused.
    let (code, out, err) = admin_users(&server, &["disable", &handle.to_lowercase()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(account(&mut c).status, 401);
    let refused = server
        .client()
        .post("/api/account/login", credentials(&handle, &password));
    assert_eq!(refused.status, 403);
    let (_, out, _) = admin_users(&server, &["list"]);
    assert!(out
        .lines()
        .any(|l| l.starts_with(&handle) && l.ends_with("disabled")));
    // Enable: the password works again.
    assert_eq!(admin_users(&server, &["enable", &handle]).0, 0);
    let mut c = server.client();
    let back = c.post("/api/account/login", credentials(&handle, &password));
    assert_eq!(back.status, 200, "{}", back.text);
    // Reset: a one-time password, the old one and every session gone.
    let (code, out, _) = admin_users(&server, &["reset-password", &handle]);
    assert_eq!(code, 0);
    let fresh = one_time_password(&out);
    assert_eq!(account(&mut c).status, 401, "a session survived the reset");
    let mut owner = server.client();
    let old = owner.post("/api/account/login", credentials(&handle, &password));
    assert_eq!(old.status, 401);
    let new = owner.post("/api/account/login", credentials(&handle, &fresh));
    assert_eq!(new.status, 200, "{}", new.text);
    // Create: an account signed in with its one-time password.
    let (code, out, _) = admin_users(&server, &["create", "Made_By_Op"]);
    assert_eq!(code, 0);
    let made = one_time_password(&out);
    let mut new_owner = server.client();
    let reply = new_owner.post("/api/account/login", credentials("made_by_op", &made));
    assert_eq!(reply.status, 200, "{}", reply.text);
    // An unknown handle, a taken one, or no handle at all: exit 2.
    let (code, _, err) = admin_users(&server, &["disable", "nobody_here"]);
    assert_eq!(code, 2);
    assert!(err.contains("no account"), "{err}");
    assert_eq!(admin_users(&server, &["create", "made_by_OP"]).0, 2);
    assert_eq!(admin_users(&server, &["reset-password", "<b>"]).0, 2);
}

#[test]
fn a_one_time_password_must_be_changed_before_anything_else() {
    let server = Server::start();
    let (handle, _) = server.client().sign_up("otp");
    let (code, out, err) = admin_users(&server, &["reset-password", &handle]);
    assert_eq!(code, 0, "{out}{err}");
    let one_time = one_time_password(&out);
    let mut c = server.client();
    let login = c.post("/api/account/login", credentials(&handle, &one_time));
    assert_eq!(login.status, 200, "{}", login.text);
    assert_eq!(login.json()["must_change_password"], true, "{}", login.text);
    let me = account(&mut c);
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(me.json()["must_change_password"], true);
    // Every other account action waits for the change, even with the
    // password.
    let first = "change your one-time password first";
    let export = c.get("/api/account/export");
    assert_eq!(export.status, 403, "{}", export.text);
    assert!(export.error().contains(first), "{}", export.error());
    let delete = c.delete_json("/api/account", json!({"password": one_time}));
    assert_eq!(delete.status, 403, "{}", delete.text);
    assert!(delete.error().contains(first), "{}", delete.error());
    assert_eq!(query(&server, "SELECT id FROM accounts").len(), 1);
    // A result meanwhile is a guest's, not ranked under the account.
    let done = solve_like_a_person(&mut c, 21).2;
    assert_eq!(done["ranked"], false, "{done}");
    assert_eq!(done["reason"], "guest");
    assert!(records(&mut c).is_empty(), "ranked before the change");
    // The change takes the one-time password as the current one.
    let chosen = "orchid kettle meadow 42 saxophone";
    let reply = c.post(
        "/api/account/password",
        json!({"current": one_time, "new": chosen}),
    );
    assert_eq!(reply.status, 204, "{}", reply.text);
    let me = account(&mut c);
    assert_eq!(me.status, 200, "the session ended at the change");
    assert_eq!(me.json()["must_change_password"], false, "{}", me.text);
    let export = c.get("/api/account/export");
    assert_eq!(export.status, 200, "{}", export.text);
    // The change completes the sign-in: the result moves to the account.
    let results = export.json()["results"].as_array().unwrap().clone();
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(results[0]["game_id"], done["game"]);
    assert_eq!(results[0]["ranked"], true);
    let ranked = records(&mut c);
    assert_eq!(ranked.len(), 1);
    assert_eq!(ranked[0]["handle"], handle.as_str());
    // The one-time password is spent; the chosen one signs in, unpending.
    let mut again = server.client();
    let old = again.post("/api/account/login", credentials(&handle, &one_time));
    assert_eq!(old.status, 401, "{}", old.text);
    let new = again.post("/api/account/login", credentials(&handle, chosen));
    assert_eq!(new.status, 200, "{}", new.text);
    assert_eq!(new.json()["must_change_password"], false);
    assert_eq!(again.get("/api/account/export").status, 200);
    // An account an operator makes starts pending too; signing up does not.
    let (code, out, _) = admin_users(&server, &["create", "Made_By_Op"]);
    assert_eq!(code, 0);
    let made = one_time_password(&out);
    let mut owner = server.client();
    let login = owner.post("/api/account/login", credentials("made_by_op", &made));
    assert_eq!(login.status, 200, "{}", login.text);
    assert_eq!(login.json()["must_change_password"], true);
    assert_eq!(owner.get("/api/account/export").status, 403);
    let signed_up = server.client().post(
        "/api/account/signup",
        credentials("Fresh_One", "violet tractor umbrella lagoon"),
    );
    assert_eq!(signed_up.json()["must_change_password"], false);
}
