//! The store's behaviour, on SQLite and — when `TESSERA_TEST_POSTGRES`
//! names a PostgreSQL server, as `scripts/test` arranges — on PostgreSQL,
//! with the same assertions: one store API, one set of behaviours.

use super::*;
use play::display::Display;
use play::format::{Control, Format};
use play::judge::Unranked;
use play::result::{Finished, Reason, Replay};
use play::GameKind;
use slide::Moves;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

mod clock;

/// Single solves, any control: the records there always were.
const SINGLE: Category = Category::SINGLE;

/// A fresh, empty database of the kind under test.
pub(super) async fn fresh() -> Store {
    let database = fresh_database();
    Store::open(&database, 8).await.unwrap()
}

pub(super) fn fresh_database() -> Database {
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

/// A new account named `handle`: its id.
pub(super) async fn account(store: &Store, handle: &str) -> String {
    let handle = ::accounts::Handle::parse(handle).unwrap();
    let hash = ::accounts::StoredHash::from_stored("hash".into());
    let created = store.create_account(&handle, &hash, PasswordKind::Own, 0);
    created.await.unwrap().unwrap().id
}

pub(super) fn runtime() -> tokio::runtime::Runtime {
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
        variant: "3x3-row-major".into(),
        seed: 9_007_199_254_740_991,
        dealt: Dealt::Slide {
            start: "1 2 3/4 5 6/7 0 8".parse().unwrap(),
            goal: "1 2 3/4 5 6/7 8 0".parse().unwrap(),
            chosen: "row-major".parse().unwrap(),
        },
        format: Format::Single,
        issued_at,
    }
}

/// A solved single of `moves` left moves, ranked.
pub(super) fn result(moves: i64, millis: i64) -> Finished {
    let n = moves as usize;
    Finished {
        moves: n,
        stm: n,
        mtm: n,
        millis,
        reading_ms: Some(300),
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
        let row = store
            .game("g1", "p1", GameKind::Slide)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.issued.seed, issued.seed, "seeds up to 2^53 survive");
        assert_eq!(
            row.issued.dealt, issued.dealt,
            "the deal reads back as dealt"
        );
        assert_eq!((row.hints, row.assisted, row.finished_at), (0, false, None));
        assert!(store
            .game("g1", "p2", GameKind::Slide)
            .await
            .unwrap()
            .is_none());
        assert!(store
            .game("g1", "p1", GameKind::Shisen)
            .await
            .unwrap()
            .is_none());
        store.count_help("g1", "p1", 1, false).await.unwrap();
        let row = store
            .game("g1", "p1", GameKind::Slide)
            .await
            .unwrap()
            .unwrap();
        assert_eq!((row.hints, row.assisted), (1, false));
        store.count_help("g1", "p1", 0, true).await.unwrap();
        store.count_help("g1", "p1", 1, false).await.unwrap();
        let row = store
            .game("g1", "p1", GameKind::Slide)
            .await
            .unwrap()
            .unwrap();
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
        let error = store.game("g1", "p1", GameKind::Slide).await.unwrap_err();
        let text = error.to_string();
        assert!(
            matches!(error.into_sqlx(), sqlx::Error::ColumnDecode { ref index, .. } if index == "g_seed"),
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
            (
                "f3",
                "setup = '1 2 3/4 5 6/7 8 8'",
                "g_setup",
                "position \"1 2 3/4 5 6/7 8 8\"",
            ),
            ("f4", "rules = 'diagonal'", "g_rules", "goal \"diagonal\""),
        ] {
            store.issue(&game(id, "p1", 1_000)).await.unwrap();
            sqlx::query(&format!("UPDATE games SET {damage} WHERE id = $1"))
                .bind(id)
                .execute(&store.pool)
                .await
                .unwrap();
            let error = store.game(id, "p1", GameKind::Slide).await.unwrap_err();
            let text = error.to_string();
            assert!(
                matches!(error.into_sqlx(), sqlx::Error::ColumnDecode { ref index, .. } if index == column),
                "{text}"
            );
            assert!(text.contains(value), "{text}");
        }
    });
}

#[test]
fn every_kind_of_deal_reads_back_as_dealt() {
    runtime().block_on(async {
        let store = fresh().await;
        let rules: shisen::Rules = "gravity-chinese".parse().unwrap();
        let board = shisen::parse_board("AB..\nBA..\n", rules.matching).unwrap();
        let slide = |start: &str, chosen: &str| Dealt::Slide {
            start: start.parse().unwrap(),
            goal: "1 2 3/4 5 6/7 8 0".parse().unwrap(),
            chosen: chosen.parse().unwrap(),
        };
        let deals = [
            slide("1 2 3/4 5 6/7 0 8", "row-major"),
            slide("1 2 3/4 5 6/0 7 8", "missing"),
            slide("1 2 3/4 5 6/0 7 8", "missing:7"),
            slide("1 2 3/4 5 6/7 0 8", "8 7 6/5 4 3/2 1 0"),
            Dealt::Shisen { board, rules },
        ];
        for (i, dealt) in deals.into_iter().enumerate() {
            let id = format!("d{i}");
            let issued = IssuedGame {
                dealt,
                ..game(&id, "p1", 1_000)
            };
            store.issue(&issued).await.unwrap();
            let row = store.game(&id, "p1", issued.game()).await.unwrap();
            assert_eq!(row.unwrap().issued.dealt, issued.dealt);
        }
    });
}

#[test]
fn a_damaged_personal_best_is_an_error_naming_its_column_not_a_panic() {
    runtime().block_on(async {
        let store = fresh().await;
        let ann = account(&store, "ann").await;
        let issued = game("b1", "browser", 1_000);
        store.issue_to(&issued, Some(&ann)).await.unwrap();
        let solved = result(10, 9_000);
        let finished = store.finish(&issued, &solved, Some(&ann), 2_000);
        finished.await.unwrap();
        // Text where a number is kept (PostgreSQL's column must take text
        // first; SQLite's takes it as it is).
        let mut damage = vec!["UPDATE personal_bests SET moves = 'many'"];
        if !store.backend.is_sqlite() {
            damage.insert(0, "ALTER TABLE personal_bests ALTER COLUMN moves TYPE TEXT");
        }
        for sql in damage {
            sqlx::query(sql).execute(&store.pool).await.unwrap();
        }
        let bests = store.personal_bests(GameKind::Slide, "3x3-row-major", SINGLE, 10, None);
        let error = bests.await.unwrap_err();
        let text = error.to_string();
        assert!(
            matches!(error.into_sqlx(), sqlx::Error::ColumnDecode { ref index, .. } if index == "\"moves\""),
            "{text}"
        );
        assert!(text.contains("moves"), "{text}");
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
                        let answer = Answer {
                            digest: format!("racer {i}"),
                            body: format!("{{\"moves\": {}}}", 4 + i),
                        };
                        let done = result(4 + i, 5_000);
                        let finished =
                            store.finish_answered(&issued, &done, None, 9_000, Some(&answer));
                        (finished.await, answer)
                    })
                })
                .collect();
            let mut won = Vec::new();
            for racer in racers {
                match racer.await.unwrap() {
                    (Ok(()), answer) => won.push(answer),
                    (Err(FinishError::AlreadyFinished), _) => {}
                    (Err(other), _) => panic!("a racer failed: {other}"),
                }
            }
            assert_eq!(won.len(), 1, "round {round}: exactly one submission wins");
            // The answer kept is the winner's.
            let kept = store.answer(Answered::Game, &id).await.unwrap();
            assert_eq!(kept.as_ref(), won.first());
        }
        let records = store
            .records(
                GameKind::Slide,
                "3x3-row-major",
                SINGLE,
                Ranking::Time,
                100,
                None,
            )
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
        let by = |ranking| {
            store.records(
                GameKind::Slide,
                "3x3-row-major",
                SINGLE,
                ranking,
                10,
                Some(fast),
            )
        };
        assert_eq!(order(by(Ranking::Time).await.unwrap()), ["a", "b"]);
        assert_eq!(order(by(Ranking::Moves).await.unwrap()), ["b", "a"]);
        assert_eq!(order(by(Ranking::Mtm).await.unwrap()), ["a", "b"]);
        let top = by(Ranking::Time).await.unwrap();
        assert_eq!(top[0].name.as_deref(), Some("Fast"));
        assert!(top[0].mine && !top[1].mine);
        assert_eq!(
            store.variants(GameKind::Slide).await.unwrap(),
            ["3x3-row-major"]
        );
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
        let Dealt::Slide { goal, .. } = &replay.issued.dealt else {
            panic!("a sliding puzzle's replay");
        };
        assert_eq!(goal.to_string(), "1 2 3/4 5 6/7 8 0");
    });
}

#[test]
fn pauses_keep_their_progress_and_are_subtracted_from_play() {
    runtime().block_on(async {
        let store = fresh().await;
        store.issue(&game("g", "p", 1_000)).await.unwrap();
        store.pause("g", "p", 3_000, Some("0,0-1,0")).await.unwrap();
        let row = store
            .game("g", "p", GameKind::Slide)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.paused_at, Some(3_000));
        assert_eq!(
            row.progress.as_deref(),
            Some("0,0-1,0"),
            "progress lives in the database"
        );
        store.resume("g", "p", 10_000).await.unwrap();
        let row = store
            .game("g", "p", GameKind::Slide)
            .await
            .unwrap()
            .unwrap();
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
                .record_help("p", GameKind::Slide, "1 2 3/4 5 6/7 0 8", at)
                .await
                .unwrap();
        }
        store
            .record_help("p", GameKind::Slide, "1 2 3/4 5 6/0 7 8", 40)
            .await
            .unwrap();
        let mut help = store.help_since("p", GameKind::Slide, 20).await.unwrap();
        help.sort();
        assert_eq!(
            help,
            [
                ("1 2 3/4 5 6/0 7 8".to_string(), 1),
                ("1 2 3/4 5 6/7 0 8".to_string(), 2)
            ]
        );
        assert!(store
            .help_since("p", GameKind::Shisen, 0)
            .await
            .unwrap()
            .is_empty());
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
        assert!(again
            .game("kept", "p", GameKind::Slide)
            .await
            .unwrap()
            .is_some());
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
    for control in [None, Some(Control::Keyboard), Some(Control::Mouse)] {
        // Newest first, as averages read them.
        let mut solves: Vec<&Attempted<'_>> = history
            .iter()
            .filter(|(_, millis, c)| {
                millis.is_none() || control.is_none_or(|want| *c == want.name())
            })
            .collect();
        solves.sort_by_key(|(at, _, _)| std::cmp::Reverse(*at));
        let attempts: Vec<Attempt> = solves
            .iter()
            .map(|(_, m, _)| m.map_or(Attempt::Dnf, Attempt::Finished))
            .collect();
        let category = Category { control, ..SINGLE };
        for n in play::average::AVERAGES {
            let kept = store
                .best_averages(GameKind::Slide, "3x3-row-major", category, n, 10, None)
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
        let account = account(&store, "steady").await;
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
            store.issue_to(&issued, Some(&account)).await.unwrap();
            if i % 7 == 3 {
                history.push((dealt, None, ""));
                continue;
            }
            let mut done = result(10, millis);
            done.control = Some(control.parse().unwrap());
            let account = Some(account.as_str());
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
        store.issue_to(&left, Some(&account)).await.unwrap();
        store.issue_to(&later, Some(&account)).await.unwrap();
        for (issued, finished, millis) in [(&later, 152_000, 2_500), (&left, 153_000, 2_600)] {
            let mut done = result(10, millis);
            done.control = Some(Control::Keyboard);
            let account = Some(account.as_str());
            store
                .finish(issued, &done, account, finished)
                .await
                .unwrap();
            history.push((finished, Some(millis), "keyboard"));
        }
        // The last game dealt and not yet finished is no DNF: it may still
        // be played.
        store
            .issue_to(&game("last", "browser", 200_000), Some(&account))
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
            store.claim_guest_results("guest", &account).await.unwrap(),
            40
        );
        check_best_averages(&store, "steady", &history).await;

        // A disabled account's averages leave the records, and come back.
        store.set_disabled(&account, true).await.unwrap();
        let category = SINGLE;
        let kept = store.best_averages(GameKind::Slide, "3x3-row-major", category, 5, 10, None);
        assert!(kept.await.unwrap().is_empty());
        store.set_disabled(&account, false).await.unwrap();
        check_best_averages(&store, "steady", &history).await;
    });
}

#[test]
fn results_stored_before_averages_were_kept_get_theirs_on_the_next_start() {
    runtime().block_on(async {
        let database = fresh_database();
        let store = Store::open(&database, 2).await.unwrap();
        let account = account(&store, "early").await;
        let mut history = Vec::new();
        for i in 0..14 {
            let id = format!("e{i}");
            let millis = 2_000 + (i * 7_919) % 3_000;
            store.issue(&game(&id, "p", 1_000)).await.unwrap();
            let mut done = result(10, millis);
            done.control = Some(Control::Mouse);
            let account = Some(account.as_str());
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
            control: Some(Control::Keyboard),
            ..SINGLE
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
                .best_averages(GameKind::Slide, "4x4-row-major", category, n, 100, None)
                .await
                .unwrap();
            let mine = kept.iter().find(|b| b.handle == "bench7").unwrap();
            assert!((mine.millis - mean).abs() < 1e-9, "ao{n}");
        }
    });
}

/// A result of the bests tests: its account's handle, when it finished,
/// its time and game.
type Timed = (String, i64, i64, String);

/// The bests, record history and histories of personal bests the store
/// keeps for single 3×3 results, against the same computed here from
/// every result in the order they finished.
async fn check_bests(store: &Store, results: &[Timed]) {
    let mut ordered: Vec<&Timed> = results.iter().collect();
    ordered.sort_by_key(|(handle, at, _, _)| (*at, handle.clone()));
    let mut best: BTreeMap<&str, i64> = BTreeMap::new();
    let mut pb_history: BTreeMap<&str, Vec<(i64, f64, bool)>> = BTreeMap::new();
    let mut falls: Vec<(String, i64, f64, Option<f64>)> = Vec::new();
    let mut record: Option<i64> = None;
    for (handle, at, millis, _) in &ordered {
        if best.get(handle.as_str()).is_some_and(|b| b <= millis) {
            continue;
        }
        best.insert(handle, *millis);
        let world = record.is_none_or(|r| *millis < r);
        pb_history
            .entry(handle)
            .or_default()
            .push((*at, *millis as f64, world));
        if world {
            falls.push((
                handle.clone(),
                *at,
                *millis as f64,
                record.map(|r| r as f64),
            ));
            record = Some(*millis);
        }
    }
    let mut expected: Vec<(&str, i64)> = best.iter().map(|(h, m)| (*h, *m)).collect();
    expected.sort_by_key(|(_, m)| *m);
    let kept = store
        .personal_bests(GameKind::Slide, "3x3-row-major", SINGLE, 100, None)
        .await
        .unwrap();
    let got: Vec<(&str, i64)> = kept.iter().map(|b| (b.handle.as_str(), b.millis)).collect();
    assert_eq!(got, expected, "one best per account, fastest first");
    for b in &kept {
        let game_id = &ordered
            .iter()
            .find(|(h, _, m, _)| *h == b.handle && *m == b.millis)
            .unwrap()
            .3;
        assert_eq!(&b.game_id, game_id);
    }
    let history = store
        .record_history(GameKind::Slide, "3x3-row-major", SINGLE, 1)
        .await
        .unwrap();
    let got: Vec<(String, i64, f64, Option<f64>)> = history
        .iter()
        .map(|f| (f.handle.clone(), f.finished_at, f.millis, f.beat))
        .collect();
    assert_eq!(got, falls, "each fall of the record, oldest first");
    for (handle, points) in &pb_history {
        let account = store
            .account_by_handle(&::accounts::Handle::parse(handle).unwrap())
            .await
            .unwrap()
            .unwrap();
        let bests = store
            .account_bests(&account.id, Shown::default())
            .await
            .unwrap();
        let single = bests
            .iter()
            .find(|b| b.n == 1 && b.control.is_none() && b.format == Format::Single)
            .unwrap();
        let got: Vec<(i64, f64, bool)> = single
            .improvements
            .iter()
            .map(|i| (i.finished_at, i.millis, i.world_record))
            .collect();
        assert_eq!(&got, points, "{handle}'s PB history");
        // The averages' history ends at the best average kept.
        for n in play::average::AVERAGES {
            let kept = store
                .best_averages(GameKind::Slide, "3x3-row-major", SINGLE, n, 100, None)
                .await
                .unwrap();
            let mine = kept.iter().find(|b| &b.handle == handle);
            let last = bests
                .iter()
                .find(|b| b.n == n && b.control.is_none())
                .and_then(|b| b.improvements.last());
            assert_eq!(
                mine.map(|b| (b.millis, b.finished_at)),
                last.map(|l| (l.millis, l.finished_at)),
                "{handle} ao{n}"
            );
        }
    }
}

#[test]
fn personal_bests_and_world_records_kept_as_results_arrive_equal_the_whole_history() {
    runtime().block_on(async {
        let database = fresh_database();
        let store = Store::open(&database, 4).await.unwrap();
        let mut ids = BTreeMap::new();
        for handle in ["ann", "bob", "cid", "dee"] {
            let account = account(&store, handle).await;
            ids.insert(handle, account);
        }
        let finish = |id: String, handle: &'static str, at: i64, millis: i64| {
            let store = store.clone();
            let account = ids[handle].clone();
            async move {
                let issued = game(&id, "browser", at - 100);
                store.issue_to(&issued, Some(&account)).await.unwrap();
                let mut done = result(10, millis);
                done.control = Some(Control::Keyboard);
                store
                    .finish(&issued, &done, Some(&account), at)
                    .await
                    .unwrap();
                (handle.to_string(), at, millis, id)
            }
        };
        // Three accounts beat the record in turn; a slower result adds
        // nothing; a personal best that is no record adds to its owner's
        // history alone.
        let mut results = vec![
            finish("r0".into(), "ann", 1_000, 9_000).await,
            finish("r1".into(), "bob", 2_000, 8_000).await,
            finish("r2".into(), "cid", 3_000, 6_500).await,
            finish("r3".into(), "bob", 4_000, 8_500).await,
            finish("r4".into(), "ann", 5_000, 7_000).await,
        ];
        let history = store.record_history(GameKind::Slide, "3x3-row-major", SINGLE, 1);
        let falls: Vec<(String, Option<f64>)> = history
            .await
            .unwrap()
            .into_iter()
            .map(|f| (f.handle, f.beat.map(|b| b - f.millis)))
            .collect();
        let by = |s: &str, d: Option<f64>| (s.to_string(), d);
        assert_eq!(
            falls,
            [
                by("ann", None),
                by("bob", Some(1_000.0)),
                by("cid", Some(1_500.0))
            ]
        );
        check_bests(&store, &results).await;
        // Many more, at random, in every account.
        let mut state = 3;
        for i in 0..160 {
            let handle = ["ann", "bob", "cid", "dee"][(lcg(&mut state) % 4) as usize];
            let millis = 2_000 + (lcg(&mut state) % 6_000) as i64;
            results.push(finish(format!("m{i}"), handle, 10_000 + i * 1_000, millis).await);
        }
        check_bests(&store, &results).await;

        // A guest's results moved into an account fall among its own, and
        // the records of the past are marked again.
        for i in 0..12 {
            let id = format!("g{i}");
            let at = 1_500 + i * 20_000;
            let millis = 1_500 + (lcg(&mut state) % 6_000) as i64;
            let issued = game(&id, "guest", at - 100);
            store.issue(&issued).await.unwrap();
            let mut done = result(10, millis);
            done.verdict = Err(Reason::Game(Unranked::Guest));
            store.finish(&issued, &done, None, at).await.unwrap();
            results.push(("dee".into(), at, millis, id));
        }
        let claimed = store.claim_guest_results("guest", &ids["dee"]).await;
        assert_eq!(claimed.unwrap(), 12);
        check_bests(&store, &results).await;

        // A deleted account's results leave the records: the records it
        // held pass to the others' bests.
        store.delete_account(&ids["cid"], 0).await.unwrap();
        results.retain(|(handle, _, _, _)| handle != "cid");
        check_bests(&store, &results).await;

        // A database from before bests were kept takes them in on its next
        // start.
        for sql in [
            "DELETE FROM personal_bests",
            "DELETE FROM pb_history",
            "INSERT INTO store_chores (name) VALUES ('personal_bests')",
        ] {
            sqlx::query(sql).execute(&store.pool).await.unwrap();
        }
        store.close().await;
        let again = Store::open(&database, 4).await.unwrap();
        check_bests(&again, &results).await;
    });
}

#[test]
fn fmc_entries_are_one_per_account_day_and_board_and_an_optimum_is_kept_once() {
    use play::fmc::{Entry, FmcSize, Optimum};
    runtime().block_on(async {
        let store = fresh().await;
        let mut accounts = Vec::new();
        for name in ["first", "second"] {
            let account = account(&store, name).await;
            accounts.push(account);
        }
        let entry = |text: &str| {
            let moves: Moves = text.parse().unwrap();
            Entry {
                stm: moves.len(),
                mtm: moves.mtm_len(),
                moves,
            }
        };
        let (day, four) = ("2026-11-27", FmcSize::Four);
        assert!(store
            .enter_fmc(day, four, &accounts[0], &entry("R3 D2"), 5)
            .await
            .unwrap());
        // A second entry of the same account, day and board is refused.
        assert!(!store
            .enter_fmc(day, four, &accounts[0], &entry("R"), 6)
            .await
            .unwrap());
        // Same STM, fewer MTM (ranked first by `play::fmc::ranking`).
        assert!(store
            .enter_fmc(day, four, &accounts[1], &entry("R5"), 7)
            .await
            .unwrap());
        assert!(store
            .enter_fmc(day, FmcSize::Five, &accounts[1], &entry("U"), 7)
            .await
            .unwrap());
        // In the order sent.
        let sent = store.fmc_entries(day, four).await.unwrap();
        let order: Vec<(&str, String, i64, i64)> = sent
            .iter()
            .map(|e| (e.handle.as_str(), e.moves.compact(), e.stm, e.mtm))
            .collect();
        assert_eq!(
            order,
            [
                ("first", "R3D2".into(), 5, 2),
                ("second", "R5".into(), 5, 1)
            ]
        );
        assert_eq!(store.fmc_count(day, four).await.unwrap(), 2);
        assert_eq!(store.fmc_count("2026-11-28", four).await.unwrap(), 0);
        let mine = store.fmc_entry(day, four, &accounts[0]).await.unwrap();
        assert_eq!(mine.unwrap().submitted_at, 5);
        // The first optimum written is the one every later writer reads.
        assert_eq!(store.fmc_optimum(day, four).await.unwrap(), None);
        let found = |text: &str, proven| {
            let moves: Moves = text.parse().unwrap();
            Optimum {
                stm: moves.len(),
                mtm: moves.mtm_len(),
                moves,
                proven,
            }
        };
        let kept = store
            .keep_fmc_optimum(day, four, &found("R2 D", true))
            .await
            .unwrap();
        assert_eq!(kept, found("R2D", true));
        let again = store
            .keep_fmc_optimum(day, four, &found("U D L", false))
            .await
            .unwrap();
        assert_eq!(again, kept);
        assert_eq!(store.fmc_optimum(day, four).await.unwrap(), Some(kept));
        // Two writers at once (two instances that found different
        // optima): both read the one row kept.
        let other = fresh_database();
        let (a, b) = (
            Store::open(&other, 4).await.unwrap(),
            Store::open(&other, 4).await.unwrap(),
        );
        let (first, second) = (found("R2 D", true), found("U D L", false));
        let (x, y) = tokio::join!(
            a.keep_fmc_optimum(day, four, &first),
            b.keep_fmc_optimum(day, four, &second)
        );
        let (x, y) = (x.unwrap(), y.unwrap());
        assert_eq!(x, y);
        assert!(x == first || x == second);
    });
}
