//! Faults of the machine under load, performed for real: the database's
//! disk fills up while players submit games, and a backup is taken while
//! they write and restored into a fresh server. Nothing the server
//! acknowledged may be lost, and clients are told what happened.
//!
//! The full disk is a small tmpfs: mounting it needs root (CI runs as
//! root); without it the test fails rather than skipping.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::load::{all_replay, wait_for, Answer, Load};
use common::server::{temp_dir, Server};

/// A tmpfs of `megabytes` mounted on a fresh directory, unmounted on drop.
struct Tmpfs {
    dir: PathBuf,
}

impl Tmpfs {
    fn mount(megabytes: u32) -> Tmpfs {
        let dir = temp_dir();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m"), "tmpfs"])
            .arg(&dir)
            .status()
            .expect("mount runs");
        assert!(
            status.success(),
            "cannot mount a tmpfs on {} (this test needs root to fill a disk)",
            dir.display()
        );
        Tmpfs { dir }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.dir).status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Writes `path` until the file system is full; returns the bytes written.
fn fill(path: &Path) -> u64 {
    use std::io::Write;
    let mut file = std::fs::File::create(path).unwrap();
    let block = vec![0u8; 4096];
    let mut written = 0;
    loop {
        match file.write(&block) {
            Ok(0) => break,
            Ok(n) => written += n as u64,
            Err(e) if e.raw_os_error() == Some(28) => break, // ENOSPC
            Err(e) => panic!("filling {}: {e}", path.display()),
        }
    }
    let _ = file.sync_all();
    written
}

fn sqlite_server(dir: &Path, db: &Path) -> Server {
    let db = db.to_string_lossy().into_owned();
    let args = ["serve", "--solver-rate", "100000", "--db", &db];
    Server::start_args(&args, dir.to_path_buf())
}

/// `PRAGMA integrity_check` of a SQLite file.
fn integrity(db: &Path) -> String {
    use sqlx::Connection;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let url = format!("sqlite://{}?mode=ro", db.display());
        let mut connection = sqlx::SqliteConnection::connect(&url).await.unwrap();
        let (answer,): (String,) = sqlx::query_as("PRAGMA integrity_check")
            .fetch_one(&mut connection)
            .await
            .unwrap();
        answer
    })
}

#[test]
fn a_full_disk_answers_503_and_writing_resumes_when_space_returns() {
    let disk = Tmpfs::mount(32);
    let db = disk.dir.join("records.db");
    let server = sqlite_server(&disk.dir, &db);
    let load = Load::start(&server.url, 4);
    std::thread::sleep(Duration::from_millis(1500));
    let filler = disk.dir.join("filler");
    let filled = fill(&filler);
    let full_at = Instant::now();
    let mut c = server.client();
    // The disk is full: a write is soon refused, and then the instance
    // is not ready.
    let disk_full = |a: &Answer| a.status == 503 && a.started >= full_at;
    let refused = wait_for(Duration::from_secs(5), || {
        load.answers().iter().any(disk_full)
    });
    assert!(
        refused.is_some(),
        "no write refused with the disk full ({filled} bytes filled)"
    );
    let ready = c.get("/readyz");
    assert_eq!(
        ready.status, 503,
        "ready with the disk full: {}",
        ready.text
    );
    // Reads keep working.
    let acknowledged: Vec<String> = load.acknowledged().into_iter().map(|(id, _)| id).collect();
    assert!(
        acknowledged.len() >= 4,
        "games before the fill: {acknowledged:?}"
    );
    assert_eq!(c.get("/").status, 200);
    assert_eq!(
        c.get("/api/records?game=slide&variant=3x3-row-major")
            .status,
        200
    );
    assert_eq!(
        c.get(&format!("/api/replays/{}", acknowledged[0])).status,
        200
    );
    std::thread::sleep(Duration::from_secs(2));
    std::fs::remove_file(&filler).unwrap();
    let freed_at = Instant::now();
    let written_again = |a: &Answer| a.path == "/api/slide/submit" && a.status == 200;
    let resumed = wait_for(Duration::from_secs(5), || {
        load.answers()
            .iter()
            .any(|a| written_again(a) && a.started >= freed_at)
    });
    let ready_again = wait_for(Duration::from_secs(5), || c.get("/readyz").status == 200);
    let load = load.finish();
    let resumed = resumed.expect("writes resume when space returns");
    assert!(
        resumed < Duration::from_secs(2),
        "writes resumed after {resumed:?}"
    );
    let ready_again = ready_again.expect("ready again when space returns");
    // While the disk was full every request was answered within a second,
    // a refusal naming the cause with when to retry.
    let during: Vec<Answer> = load
        .answers()
        .into_iter()
        .filter(|a| a.started >= full_at && a.started < freed_at)
        .collect();
    let refusals = during.iter().filter(|a| a.status == 503).count();
    for a in &during {
        assert!(
            a.took < Duration::from_secs(1),
            "{} took {:?}",
            a.path,
            a.took
        );
        assert!(
            matches!(a.status, 200 | 503),
            "{} answered {}: {}",
            a.path,
            a.status,
            a.text
        );
        if a.status == 503 {
            assert!(a.text.contains("disk is full"), "{}", a.text);
            assert!(a.retry_after.is_some(), "503 without Retry-After");
        }
    }
    let page = c.get("/metrics").text;
    assert!(
        page.contains("kind=\"disk_full\""),
        "no disk_full in the metrics"
    );
    eprintln!(
        "full disk: {refusals} of {} requests refused; writes resumed {resumed:?} and ready {ready_again:?} after space returned",
        during.len()
    );
    // Nothing acknowledged is lost, through a kill and a restart.
    let acknowledged = load.acknowledged();
    let mut c = server.client();
    for (id, at) in &acknowledged {
        let replay = c.get(&format!("/api/replays/{id}"));
        let when = if *at < full_at {
            "before the fill"
        } else if *at < freed_at {
            "while full"
        } else {
            "after"
        };
        assert_eq!(
            replay.status, 200,
            "game {id} acknowledged {when} lost before any restart"
        );
    }
    let acknowledged: Vec<String> = acknowledged.into_iter().map(|(id, _)| id).collect();
    // `stop` kills the process but keeps the database: a plain drop
    // would remove the directory with it.
    server.stop();
    let restarted = sqlite_server(&disk.dir, &db);
    all_replay(&restarted.url, &acknowledged);
    restarted.stop();
    assert_eq!(integrity(&db), "ok");
}

#[test]
fn a_backup_under_load_restores_every_result_acknowledged_before_it() {
    let dir = temp_dir();
    let db = dir.join("records.db");
    let server = sqlite_server(&dir, &db);
    let load = Load::start(&server.url, 4);
    std::thread::sleep(Duration::from_millis(1500));
    let copy = dir.join("backup.db");
    let started = Instant::now();
    let backup = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["admin", "backup", "--db"])
        .arg(&db)
        .arg(&copy)
        .output()
        .unwrap();
    let took = started.elapsed();
    assert!(
        backup.status.success(),
        "backup failed: {}",
        String::from_utf8_lossy(&backup.stderr)
    );
    std::thread::sleep(Duration::from_millis(500));
    let load = load.finish();
    let before: Vec<String> = load
        .acknowledged()
        .into_iter()
        .filter(|(_, at)| *at < started)
        .map(|(id, _)| id)
        .collect();
    let after = load.acknowledged().len() - before.len();
    assert!(
        before.len() >= 8,
        "games before the backup: {}",
        before.len()
    );
    assert!(after >= 1, "the load went on during the backup");
    assert!(
        load.answers().iter().all(|a| a.status == 200),
        "the backup disturbed play"
    );
    assert_eq!(integrity(&copy), "ok");
    // A fresh server on the copy serves every result acknowledged before
    // the backup began, with the same replay.
    let restored_dir = temp_dir();
    let restored_db = restored_dir.join("records.db");
    std::fs::copy(&copy, &restored_db).unwrap();
    let restored = sqlite_server(&restored_dir, &restored_db);
    all_replay(&restored.url, &before);
    let (mut old, mut new) = (server.client(), restored.client());
    for id in before.iter().take(20) {
        let path = format!("/api/replays/{id}");
        assert_eq!(old.get(&path).json(), new.get(&path).json(), "{id}");
    }
    eprintln!(
        "backup under load: {} games before it, {after} during and after; took {took:?}",
        before.len()
    );
}
