//! The speedsolver's clock taken to results stored before it: migration
//! 0019 times every stored sliding result again from its moves' times,
//! and the bests, averages and histories follow on the next start.

use super::*;

/// A 3×3 single of 10 moves 200 ms apart after `reading` ms of looking,
/// as the old clock timed it: from the deal to the submission (`server`
/// ms), the reading included.
fn under_the_old_clock(reading: i64, server: i64, format: Format) -> Finished {
    let mut done = result(10, server);
    done.times = (0..10).map(|k| reading + k * 200).collect();
    done.reading_ms = None;
    done.format = format;
    done.control = Some(Control::Keyboard);
    done
}

/// Every stored result's (game id, millis, reading) by id.
async fn timed(store: &Store) -> BTreeMap<String, (i64, Option<i64>)> {
    let rows = sqlx::query("SELECT game_id, millis, reading_ms FROM results")
        .fetch_all(&store.pool)
        .await
        .unwrap();
    rows.iter()
        .map(|r| {
            let id: String = column(r, "game_id").unwrap();
            (
                id,
                (
                    column(r, "millis").unwrap(),
                    column(r, "reading_ms").unwrap(),
                ),
            )
        })
        .collect()
}

#[test]
fn results_stored_under_the_old_clock_are_timed_from_their_first_move() {
    runtime().block_on(async {
        let database = fresh_database();
        let store = Store::open(&database, 2).await.unwrap();
        let account = account(&store, "reader").await;
        // Seven singles read for longer and longer (the old clock made the
        // longest read the slowest), a blindfold solve, and a Shisen-Sho
        // game, whose clock does not change.
        let readings = [9_000, 500, 7_000, 2_000, 4_000, 3_000, 1_000];
        let mut at = 10_000;
        for (i, &reading) in readings.iter().enumerate() {
            let id = format!("s{i}");
            store.issue(&game(&id, "p", at)).await.unwrap();
            let done = under_the_old_clock(reading, reading + 1_800 + 300, Format::Single);
            let owner = Some(account.as_str());
            store
                .finish(&game(&id, "p", at), &done, owner, at + 20_000)
                .await
                .unwrap();
            at += 60_000;
        }
        let mut blind = game("b", "p", at);
        blind.format = Format::Blindfold;
        store.issue(&blind).await.unwrap();
        let done = under_the_old_clock(6_000, 8_100, Format::Blindfold);
        store
            .finish(&blind, &done, Some(&account), at + 9_000)
            .await
            .unwrap();
        let shisen = IssuedGame {
            dealt: Dealt::Shisen {
                board: shisen::parse_board("AB\nAB\n", shisen::Matching::Standard).unwrap(),
                rules: shisen::Rules::STANDARD,
            },
            variant: "2x2-standard".into(),
            ..game("k", "p", at)
        };
        store.issue(&shisen).await.unwrap();
        let mut played = result(2, 4_000);
        (played.stm, played.mtm, played.reading_ms) = (0, 0, None);
        played.times = vec![1_500, 3_000];
        store
            .finish(&shisen, &played, Some(&account), at + 5_000)
            .await
            .unwrap();

        // As a database written before the migration: the old times, no
        // reading column, bests kept by the old times.
        for sql in [
            "DELETE FROM _sqlx_migrations WHERE version = 19",
            "ALTER TABLE results DROP COLUMN reading_ms",
        ] {
            sqlx::query(sql).execute(&store.pool).await.unwrap();
        }
        let old = timed_old(&store).await;
        assert_eq!(old["s0"], 9_000 + 2_100, "stored the old way");
        store.close().await;

        let again = Store::open(&database, 2).await.unwrap();
        let now = timed(&again).await;
        for (i, &reading) in readings.iter().enumerate() {
            // 10 moves 200 ms apart: 1.8 s from the first to the last.
            assert_eq!(now[&format!("s{i}")], (1_800, Some(reading)), "s{i}");
        }
        assert_eq!(now["b"], (6_000 + 1_800, Some(6_000)), "memorising counts");
        assert_eq!(
            now["k"],
            (4_000, None),
            "Shisen-Sho keeps the server's clock"
        );

        // The bests and averages follow: every single is now 1.8 s, so the
        // personal best is the first of them, and the ao5 is 1.8 s.
        let category = Category::SINGLE;
        let bests = again.personal_bests(GameKind::Slide, "3x3-row-major", category, 10, None);
        let bests = bests.await.unwrap();
        assert_eq!(bests.len(), 1);
        assert_eq!((bests[0].millis, bests[0].game_id.as_str()), (1_800, "s0"));
        let averages = again.best_averages(GameKind::Slide, "3x3-row-major", category, 5, 10, None);
        let averages = averages.await.unwrap();
        assert_eq!(averages.len(), 1);
        assert!((averages[0].millis - 1_800.0).abs() < 1e-9, "{averages:?}");
        let history = again.record_history(GameKind::Slide, "3x3-row-major", category, 1);
        let history = history.await.unwrap();
        assert_eq!(
            history.len(),
            1,
            "one best: later equal times improve nothing"
        );
        let chores = sqlx::query("SELECT name FROM store_chores").fetch_all(&again.pool);
        assert!(chores.await.unwrap().is_empty(), "every chore done");
    });
}

/// Every stored result's millis by id, before the migration.
async fn timed_old(store: &Store) -> BTreeMap<String, i64> {
    let rows = sqlx::query("SELECT game_id, millis FROM results")
        .fetch_all(&store.pool)
        .await
        .unwrap();
    rows.iter()
        .map(|r| (column(r, "game_id").unwrap(), column(r, "millis").unwrap()))
        .collect()
}
