//! The store's behaviour, on SQLite and — when `TESSERA_TEST_POSTGRES`
//! names a PostgreSQL server, as `scripts/test` arranges — on PostgreSQL,
//! with the same assertions: one store API, one set of behaviours.

use super::*;
use play::display::Display;
use play::format::{Control, Format};
use play::judge::Unranked;
use play::result::{Finished, Reason, Replay};
use slide::Moves;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Single solves, any control: the records there always were.
const SINGLE: Category<'static> = Category {
    display: "standard",
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
        format: Format::Single,
        issued_at,
    }
}

/// A solved single of `moves` left moves, ranked.
fn result(moves: i64, millis: i64) -> Finished {
    let n = moves as usize;
    Finished {
        moves: n,
        stm: n,
        mtm: n,
        millis,
        score: 0,
        hints: 0,
        replay: Replay::Moves(Moves(vec![slide::Direction::Left; n])),
        times: (1..=moves).map(|i| i * 300).collect(),
        control: None,
        format: Format::Single,
        display: Display::Standard,
        verdict: Ok(()),
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
fn a_damaged_seed_is_an_error_naming_its_column_not_seed_zero() {
    runtime().block_on(async {
        let store = fresh().await;
        store.issue(&game("g1", "p1", 1_000)).await.unwrap();
        sqlx::query("UPDATE games SET seed = 'twelve' WHERE id = 'g1'")
            .execute(&store.pool)
            .await
            .unwrap();
        let error = store.game("g1", "p1", "slide").await.unwrap_err();
        let text = error.to_string();
        assert!(
            matches!(error, sqlx::Error::ColumnDecode { ref index, .. } if index == "g_seed"),
            "{text}"
        );
        assert!(text.contains("seed \"twelve\""), "{text}");
    });
}

#[test]
fn a_damaged_format_or_flag_is_an_error_naming_its_column_not_a_default() {
    runtime().block_on(async {
        let store = fresh().await;
        for (id, damage, column, value) in [
            (
                "f1",
                "format = 'sprint-5'",
                "g_format",
                "format \"sprint-5\"",
            ),
            ("f2", "assisted = 7", "assisted", "flag 7"),
        ] {
            store.issue(&game(id, "p1", 1_000)).await.unwrap();
            sqlx::query(&format!("UPDATE games SET {damage} WHERE id = $1"))
                .bind(id)
                .execute(&store.pool)
                .await
                .unwrap();
            let error = store.game(id, "p1", "slide").await.unwrap_err();
            let text = error.to_string();
            assert!(
                matches!(error, sqlx::Error::ColumnDecode { ref index, .. } if index == column),
                "{text}"
            );
            assert!(text.contains(value), "{text}");
        }
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
                        store
                            .finish(&issued, &result(4 + i, 5_000), None, 9_000)
                            .await
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
            ("c", "bot", 10, 100, Some(Unranked::TooFast("x".into()))),
        ];
        for (id, player, moves, millis, reason) in cases {
            store.issue(&game(id, player, 1_000)).await.unwrap();
            let mut done = result(moves, millis);
            done.mtm = (100 - moves) as usize;
            done.verdict = reason.map_or(Ok(()), |why| Err(Reason::Game(why)));
            let issued = game(id, player, 1_000);
            store.finish(&issued, &done, None, 50_000).await.unwrap();
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
        assert_eq!(mine[0].1.reason.as_deref(), Some("too fast: x"));
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

/// A small deterministic stream of numbers for the averages tests.
fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *state >> 33
}

/// An attempt of a history: when, the time (`None`: DNF), the control
/// (a DNF's is empty: it counts under every control).
type Attempted<'a> = (i64, Option<i64>, &'a str);

/// Every best average the store keeps for `account`'s single 3×3 attempts,
/// against the best window of its whole history computed here.
async fn check_best_averages(store: &Store, handle: &str, history: &[Attempted<'_>]) {
    use play::average::Attempt;
    for control in [None, Some("keyboard"), Some("mouse")] {
        // Newest first, as averages read them.
        let mut solves: Vec<&Attempted<'_>> = history
            .iter()
            .filter(|(_, millis, c)| millis.is_none() || control.is_none_or(|want| *c == want))
            .collect();
        solves.sort_by_key(|(at, _, _)| std::cmp::Reverse(*at));
        let attempts: Vec<Attempt> = solves
            .iter()
            .map(|(_, m, _)| m.map_or(Attempt::Dnf, Attempt::Finished))
            .collect();
        let category = Category {
            format: "single",
            control,
            display: "standard",
        };
        for n in play::average::AVERAGES {
            let kept = store
                .best_averages("slide", "3x3-row-major", category, n, 10, None)
                .await
                .unwrap();
            let expected = play::average::best_window(&attempts, n);
            match expected {
                None => assert!(kept.is_empty(), "{control:?} ao{n}: {kept:?}"),
                Some((at, mean)) => {
                    assert_eq!(kept.len(), 1, "{control:?} ao{n}");
                    assert_eq!(kept[0].handle, handle);
                    assert!((kept[0].millis - mean).abs() < 1e-9, "{control:?} ao{n}");
                    assert_eq!(kept[0].finished_at, solves[at].0, "{control:?} ao{n}");
                    assert_eq!(kept[0].game_ids.len(), n);
                }
            }
        }
    }
}

#[test]
fn best_averages_kept_as_results_arrive_equal_the_best_of_the_whole_history() {
    runtime().block_on(async {
        let store = fresh().await;
        let handle = ::accounts::Handle::parse("steady").unwrap();
        let account = store
            .create_account(
                &handle,
                &::accounts::StoredHash::from_stored("hash".into()),
                PasswordKind::Own,
                0,
            )
            .await
            .unwrap()
            .unwrap();
        let mut state = 7;
        let mut history = Vec::new();
        // 130 games dealt to the account, a third solved by mouse and
        // every seventh left for the next: DNFs, in every control's
        // averages. Some averages of 100 in every control's category, none
        // of 100 by mouse alone.
        for i in 0..130 {
            let id = format!("a{i}");
            let (dealt, finished) = (10_000 + i * 1_000, 10_600 + i * 1_000);
            let millis = 3_000 + (lcg(&mut state) % 5_000) as i64;
            let control = if i % 3 == 0 { "mouse" } else { "keyboard" };
            let issued = game(&id, "browser", dealt);
            store.issue_to(&issued, Some(&account.id)).await.unwrap();
            if i % 7 == 3 {
                history.push((dealt, None, ""));
                continue;
            }
            let mut done = result(10, millis);
            done.control = Some(control.parse().unwrap());
            let account = Some(account.id.as_str());
            store
                .finish(&issued, &done, account, finished)
                .await
                .unwrap();
            history.push((finished, Some(millis), control));
        }
        // A game left for a later one, then finished after all: a DNF
        // until then, a result after.
        let (left, later) = (
            game("left", "browser", 150_000),
            game("later", "browser", 151_000),
        );
        store.issue_to(&left, Some(&account.id)).await.unwrap();
        store.issue_to(&later, Some(&account.id)).await.unwrap();
        for (issued, finished, millis) in [(&later, 152_000, 2_500), (&left, 153_000, 2_600)] {
            let mut done = result(10, millis);
            done.control = Some(Control::Keyboard);
            let account = Some(account.id.as_str());
            store
                .finish(issued, &done, account, finished)
                .await
                .unwrap();
            history.push((finished, Some(millis), "keyboard"));
        }
        // The last game dealt and not yet finished is no DNF: it may still
        // be played.
        store
            .issue_to(&game("last", "browser", 200_000), Some(&account.id))
            .await
            .unwrap();
        check_best_averages(&store, "steady", &history).await;

        // A guest's results from before, moved in at sign-in, fall among
        // the account's own: the windows are new.
        for i in 0..40 {
            let id = format!("g{i}");
            let finished = 10_500 + i * 3_000;
            let millis = 1_000 + (lcg(&mut state) % 9_000) as i64;
            store.issue(&game(&id, "guest", 1_000)).await.unwrap();
            let mut done = result(10, millis);
            done.verdict = Err(Reason::Game(Unranked::Guest));
            done.control = Some(Control::Keyboard);
            store
                .finish(&game(&id, "guest", 1_000), &done, None, finished)
                .await
                .unwrap();
            history.push((finished, Some(millis), "keyboard"));
        }
        assert_eq!(
            store
                .claim_guest_results("guest", &account.id)
                .await
                .unwrap(),
            40
        );
        check_best_averages(&store, "steady", &history).await;

        // A disabled account's averages leave the records, and come back.
        store.set_disabled(&account.id, true).await.unwrap();
        let category = SINGLE;
        let kept = store.best_averages("slide", "3x3-row-major", category, 5, 10, None);
        assert!(kept.await.unwrap().is_empty());
        store.set_disabled(&account.id, false).await.unwrap();
        check_best_averages(&store, "steady", &history).await;
    });
}

#[test]
fn results_stored_before_averages_were_kept_get_theirs_on_the_next_start() {
    runtime().block_on(async {
        let database = fresh_database();
        let store = Store::open(&database, 2).await.unwrap();
        let handle = ::accounts::Handle::parse("early").unwrap();
        let account = store
            .create_account(
                &handle,
                &::accounts::StoredHash::from_stored("hash".into()),
                PasswordKind::Own,
                0,
            )
            .await
            .unwrap()
            .unwrap();
        let mut history = Vec::new();
        for i in 0..14 {
            let id = format!("e{i}");
            let millis = 2_000 + (i * 7_919) % 3_000;
            store.issue(&game(&id, "p", 1_000)).await.unwrap();
            let mut done = result(10, millis);
            done.control = Some(Control::Mouse);
            let account = Some(account.id.as_str());
            store
                .finish(&game(&id, "p", 1_000), &done, account, 5_000 + i)
                .await
                .unwrap();
            history.push((5_000 + i, Some(millis), "mouse"));
        }
        // As a database migrated from before: results, no best averages,
        // and the chore the migration leaves.
        sqlx::query("DELETE FROM best_averages")
            .execute(&store.pool)
            .await
            .unwrap();
        sqlx::query("INSERT INTO store_chores (name) VALUES ('best_averages')")
            .execute(&store.pool)
            .await
            .unwrap();
        store.close().await;
        let again = Store::open(&database, 2).await.unwrap();
        check_best_averages(&again, "early", &history).await;
        let chores = sqlx::query("SELECT name FROM store_chores").fetch_all(&again.pool);
        assert!(chores.await.unwrap().is_empty(), "done once");
    });
}

#[test]
fn a_filled_database_keeps_every_accounts_best_average_and_is_filled_once() {
    runtime().block_on(async {
        let store = fresh().await;
        let filled = store.fill(4_000, 3).await.unwrap();
        assert_eq!((filled.accounts, filled.guests), (20, 40));
        let again = store.fill(10, 3).await;
        assert!(matches!(again, Err(FillError::NotEmpty(4_000))));
        // One account's history in the busiest category, against the best
        // averages the fill kept.
        let category = Category {
            format: "single",
            control: Some("keyboard"),
            display: "standard",
        };
        let rows = sqlx::query(
            "SELECT millis FROM results WHERE account_id = 'ba7' AND variant = '4x4-row-major' \
             AND format = 'single' AND control = 'keyboard' AND counted = 1 \
             ORDER BY finished_at DESC",
        )
        .fetch_all(&store.pool)
        .await
        .unwrap();
        let millis: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
        assert!(millis.len() >= 12, "{} results", millis.len());
        for n in [5, 12] {
            let attempts: Vec<play::average::Attempt> = millis
                .iter()
                .map(|&m| play::average::Attempt::Finished(m))
                .collect();
            let (_, mean) = play::average::best_window(&attempts, n).unwrap();
            let kept = store
                .best_averages("slide", "4x4-row-major", category, n, 100, None)
                .await
                .unwrap();
            let mine = kept.iter().find(|b| b.handle == "bench7").unwrap();
            assert!((mine.millis - mean).abs() < 1e-9, "ao{n}");
        }
    });
}
