//! The store's behaviour, on SQLite and — when `TESSERA_TEST_POSTGRES`
//! names a PostgreSQL server, as `scripts/test` arranges — on PostgreSQL,
//! with the same assertions: one store API, one set of behaviours.

use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Single solves, any control: the records there always were.
const SINGLE: Category<'static> = Category {
    format: "single",
    control: None,
};

/// A fresh, empty database of the kind under test.
async fn fresh() -> Store {
    let database = fresh_database();
    Store::open(&database, 8).await.unwrap()
}

fn fresh_database() -> Database {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let name = format!(
        "tessera_store_{}_{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::SeqCst)
    );
    let database = match std::env::var("TESSERA_TEST_POSTGRES") {
        Ok(base) if !base.is_empty() => {
            Database::Postgres(format!("{}/{name}", base.trim_end_matches('/')))
        }
        _ => {
            let dir = std::env::temp_dir().join(&name);
            std::fs::create_dir_all(&dir).unwrap();
            Database::Sqlite(dir.join("records.db"))
        }
    };
    database
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap()
}

fn game(id: &str, player: &str, issued_at: i64) -> IssuedGame {
    IssuedGame {
        id: id.into(),
        player_id: player.into(),
        game: "slide".into(),
        variant: "3x3-row-major".into(),
        seed: 9_007_199_254_740_991,
        setup: "1 2 3/4 5 6/7 0 8".into(),
        goal: "1 2 3/4 5 6/7 8 0".into(),
        rules: "row-major".into(),
        format: "single".into(),
        issued_at,
    }
}

fn result(moves: i64, millis: i64, finished_at: i64) -> NewResult {
    NewResult {
        moves,
        stm: moves,
        mtm: moves,
        millis,
        score: 0,
        hints: 0,
        replay: "L".repeat(moves as usize),
        times: (1..=moves).map(|i| i * 300).collect(),
        reason: None,
        finished_at,
        account_id: None,
        format: "single".into(),
        control: None,
    }
}

#[test]
fn an_issued_game_reads_back_whole_and_only_for_its_player() {
    runtime().block_on(async {
        let store = fresh().await;
        let issued = game("g1", "p1", 1_000);
        store.issue(&issued).await.unwrap();
        let row = store.game("g1", "p1", "slide").await.unwrap().unwrap();
        assert_eq!(row.issued.seed, issued.seed, "seeds up to 2^53 survive");
        assert_eq!(row.issued.setup, issued.setup);
        assert_eq!(row.issued.rules, "row-major");
        assert_eq!((row.hints, row.assisted, row.finished_at), (0, false, None));
        assert!(store.game("g1", "p2", "slide").await.unwrap().is_none());
        assert!(store.game("g1", "p1", "shisen").await.unwrap().is_none());
        store.count_help("g1", "p1", 1, false).await.unwrap();
        let row = store.game("g1", "p1", "slide").await.unwrap().unwrap();
        assert_eq!((row.hints, row.assisted), (1, false));
        store.count_help("g1", "p1", 0, true).await.unwrap();
        store.count_help("g1", "p1", 1, false).await.unwrap();
        let row = store.game("g1", "p1", "slide").await.unwrap().unwrap();
        assert_eq!((row.hints, row.assisted), (2, true), "assisted stays");
    });
}

#[test]
fn a_game_finishes_exactly_once_however_many_race() {
    runtime().block_on(async {
        let store = fresh().await;
        for round in 0..5 {
            let id = format!("race{round}");
            let issued = game(&id, "p1", 1_000);
            store.issue(&issued).await.unwrap();
            let racers: Vec<_> = (0..8)
                .map(|i| {
                    let store = store.clone();
                    let issued = issued.clone();
                    tokio::spawn(async move {
                        store.finish(&issued, &result(4 + i, 5_000, 9_000)).await
                    })
                })
                .collect();
            let mut won = 0;
            for racer in racers {
                match racer.await.unwrap() {
                    Ok(()) => won += 1,
                    Err(FinishError::AlreadyFinished) => {}
                    Err(other) => panic!("a racer failed: {other}"),
                }
            }
            assert_eq!(won, 1, "round {round}: exactly one submission wins");
        }
        let records = store
            .records("slide", "3x3-row-major", SINGLE, Ranking::Time, 100, None)
            .await
            .unwrap();
        assert_eq!(records.len(), 5, "one result per game");
    });
}

#[test]
fn records_rank_by_each_order_and_hide_unranked_results() {
    runtime().block_on(async {
        let store = fresh().await;
        store.set_name("fast", Some("Fast"), 1).await.unwrap();
        let cases = [
            ("a", "fast", 30, 9_000, None),
            ("b", "slow", 20, 20_000, None),
            ("c", "bot", 10, 100, Some("too fast")),
        ];
        for (id, player, moves, millis, reason) in cases {
            store.issue(&game(id, player, 1_000)).await.unwrap();
            let mut done = result(moves, millis, 50_000);
            done.mtm = 100 - moves;
            done.reason = reason.map(String::from);
            store.finish(&game(id, player, 1_000), &done).await.unwrap();
        }
        let order = |records: Vec<Record>| {
            records
                .iter()
                .map(|r| r.game_id.clone())
                .collect::<Vec<_>>()
        };
        let fast = Viewer {
            player: "fast",
            account: None,
        };
        let by = |ranking| store.records("slide", "3x3-row-major", SINGLE, ranking, 10, Some(fast));
        assert_eq!(order(by(Ranking::Time).await.unwrap()), ["a", "b"]);
        assert_eq!(order(by(Ranking::Moves).await.unwrap()), ["b", "a"]);
        assert_eq!(order(by(Ranking::Mtm).await.unwrap()), ["a", "b"]);
        let top = by(Ranking::Time).await.unwrap();
        assert_eq!(top[0].name.as_deref(), Some("Fast"));
        assert!(top[0].mine && !top[1].mine);
        assert_eq!(store.variants("slide").await.unwrap(), ["3x3-row-major"]);
        let mine = store
            .player_results(
                Viewer {
                    player: "bot",
                    account: None,
                },
                None,
            )
            .await
            .unwrap();
        assert_eq!(mine.len(), 1, "an unranked result is still the player's");
        assert_eq!(mine[0].1.reason.as_deref(), Some("too fast"));
        let replay = store.replay("c").await.unwrap().unwrap();
        assert_eq!(
            replay.times,
            [300, 600, 900, 1_200, 1_500, 1_800, 2_100, 2_400, 2_700, 3_000]
        );
        assert_eq!(replay.issued.goal, "1 2 3/4 5 6/7 8 0");
    });
}

#[test]
fn pauses_keep_their_progress_and_are_subtracted_from_play() {
    runtime().block_on(async {
        let store = fresh().await;
        store.issue(&game("g", "p", 1_000)).await.unwrap();
        store.pause("g", "p", 3_000, Some("0,0-1,0")).await.unwrap();
        let row = store.game("g", "p", "slide").await.unwrap().unwrap();
        assert_eq!(row.paused_at, Some(3_000));
        assert_eq!(
            row.progress.as_deref(),
            Some("0,0-1,0"),
            "progress lives in the database"
        );
        store.resume("g", "p", 10_000).await.unwrap();
        let row = store.game("g", "p", "slide").await.unwrap().unwrap();
        assert_eq!((row.paused_at, row.paused_millis), (None, 7_000));
        assert_eq!(row.played_millis(12_000), 4_000);
        let pauses = store.pauses(&row.issued, 12_000).await.unwrap();
        assert_eq!(pauses, [(2_000, 9_000)]);
    });
}

#[test]
fn help_is_counted_per_state_since_a_time() {
    runtime().block_on(async {
        let store = fresh().await;
        store.ensure_player("p", 0).await.unwrap();
        for at in [10, 20, 30] {
            store
                .record_help("p", "slide", "1 2 3/4 5 6/7 0 8", at)
                .await
                .unwrap();
        }
        store
            .record_help("p", "slide", "1 2 3/4 5 6/0 7 8", 40)
            .await
            .unwrap();
        let mut help = store.help_since("p", "slide", 20).await.unwrap();
        help.sort();
        assert_eq!(
            help,
            [
                ("1 2 3/4 5 6/0 7 8".to_string(), 1),
                ("1 2 3/4 5 6/7 0 8".to_string(), 2)
            ]
        );
        assert!(store.help_since("p", "shisen", 0).await.unwrap().is_empty());
    });
}

#[test]
fn reopening_migrates_nothing_twice_and_keeps_the_records() {
    runtime().block_on(async {
        let database = fresh_database();
        let store = Store::open(&database, 2).await.unwrap();
        store.ping().await.unwrap();
        store.issue(&game("kept", "p", 1)).await.unwrap();
        let (open, _idle) = store.pool_use();
        assert!(open >= 1);
        store.close().await;
        assert!(
            store.ping().await.is_err(),
            "a closed store answers nothing"
        );
        let again = Store::open(&database, 2).await.unwrap();
        assert!(again.game("kept", "p", "slide").await.unwrap().is_some());
    });
}
