//! Settlements on both databases: the ratings written equal what
//! `play::rating` computes from the ratings before, a race applies once,
//! a fault between the race's rows and the ratings leaves neither, and a
//! deleted account's ratings are gone.

use super::super::tests::{fresh, runtime};
use super::*;
use crate::PasswordKind;
use sqlx::{Executor, Row};

async fn account(store: &Store, handle: &str) -> String {
    let handle = ::accounts::Handle::parse(handle).unwrap();
    let hash = ::accounts::StoredHash::from_stored("hash".into());
    let created = store.create_account(&handle, &hash, PasswordKind::Own, 0);
    created.await.unwrap().unwrap().id
}

fn racer(account_id: &str, outcome: Outcome) -> RatedRacer {
    RatedRacer {
        account_id: account_id.into(),
        outcome,
    }
}

async fn count(store: &Store, sql: &str) -> i64 {
    let row = sqlx::query(sql).fetch_one(&store.pool).await.unwrap();
    row.try_get::<i64, _>(0).unwrap()
}

/// How a race's racers are stored, read back by race.
async fn outcomes(store: &Store, race: &str) -> Vec<(String, String, Option<i64>)> {
    let rows = sqlx::query(
        "SELECT account_id, outcome, millis FROM rated_racers WHERE race_id = $1 ORDER BY account_id",
    )
    .bind(race)
    .fetch_all(&store.pool)
    .await
    .unwrap();
    rows.iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect()
}

/// Makes every insert into `rating_history` fail: a fault between the
/// race's rows and its rating changes.
async fn break_history(store: &Store) {
    let sql = if store.backend.is_sqlite() {
        "CREATE TRIGGER fail_history BEFORE INSERT ON rating_history \
         BEGIN SELECT RAISE(ABORT, 'injected fault'); END"
    } else {
        "CREATE FUNCTION fail_history() RETURNS trigger AS $$ \
         BEGIN RAISE EXCEPTION 'injected fault'; END $$ LANGUAGE plpgsql; \
         CREATE TRIGGER fail_history BEFORE INSERT ON rating_history \
         FOR EACH ROW EXECUTE FUNCTION fail_history()"
    };
    store.pool.execute(sql).await.unwrap();
}

async fn mend_history(store: &Store) {
    let sql = if store.backend.is_sqlite() {
        "DROP TRIGGER fail_history"
    } else {
        "DROP TRIGGER fail_history ON rating_history"
    };
    store.pool.execute(sql).await.unwrap();
}

#[test]
fn a_settled_race_writes_its_outcomes_and_the_ratings_play_computes() {
    runtime().block_on(async {
        let store = fresh().await;
        let ann = account(&store, "ann").await;
        let bob = account(&store, "bob").await;
        let cy = account(&store, "cyd").await;
        let params = Params::LICHESS;
        let new = Rating::new(&params);

        let first = [
            racer(&ann, Outcome::Solved { millis: 4_000 }),
            racer(&bob, Outcome::Solved { millis: 6_500 }),
        ];
        let changes = store
            .settle_race("room-1:1", Pool::Slide3x3, &first, 10)
            .await
            .unwrap()
            .unwrap();
        let expected = rating::settle(
            &[
                (new, Outcome::Solved { millis: 4_000 }),
                (new, Outcome::Solved { millis: 6_500 }),
            ],
            &params,
        );
        assert_eq!(changes.len(), 2);
        assert_eq!(changes[0].account_id, ann);
        assert_eq!((changes[0].before, changes[0].after), (new, expected[0]));
        assert_eq!((changes[1].before, changes[1].after), (new, expected[1]));
        assert!(expected[0].rating > 1500.0 && expected[1].rating < 1500.0);

        // The second race, a day later, starts from the first's ratings
        // widened by the day away (`Rating::idle`); cy is new, and bob
        // left.
        const DAY: i64 = 86_400_000;
        let second = [
            racer(&bob, Outcome::Left),
            racer(&cy, Outcome::Unranked),
            racer(&ann, Outcome::Unfinished),
        ];
        let changes = store
            .settle_race("room-1:2", Pool::Slide3x3, &second, 10 + DAY)
            .await
            .unwrap()
            .unwrap();
        let after = rating::settle(
            &[
                (expected[1].idle(DAY, &params), Outcome::Left),
                (new, Outcome::Unranked),
                (expected[0].idle(DAY, &params), Outcome::Unfinished),
            ],
            &params,
        );
        let got: Vec<_> = changes
            .iter()
            .map(|c| (c.account_id.clone(), c.after))
            .collect();
        assert_eq!(
            got,
            [
                (bob.clone(), after[0]),
                (cy.clone(), after[1]),
                (ann.clone(), after[2])
            ]
        );

        assert!(expected[0].idle(DAY, &params).rd > expected[0].rd);
        let ratings = store.ratings_of(&ann, 10 + DAY).await.unwrap();
        assert_eq!(
            ratings,
            [PoolRating {
                pool: Pool::Slide3x3,
                rating: after[2],
                games: 2,
                provisional: true,
            }]
        );
        let history = store.rating_history(&ann, Pool::Slide3x3).await.unwrap();
        let points: Vec<_> = history
            .iter()
            .map(|p| (p.race_id.as_str(), p.at, p.before, p.rating))
            .collect();
        assert_eq!(
            points,
            [
                ("room-1:1", 10, 1500.0, expected[0].rating),
                ("room-1:2", 10 + DAY, expected[0].rating, after[2].rating)
            ]
        );
        assert!(store
            .rating_history(&ann, Pool::Slide4x4)
            .await
            .unwrap()
            .is_empty());
        let mut stored = outcomes(&store, "room-1:2").await;
        stored.sort();
        let mut wanted = vec![
            (bob.clone(), "left".to_string(), None),
            (cy.clone(), "unranked".to_string(), None),
            (ann.clone(), "unfinished".to_string(), None),
        ];
        wanted.sort();
        assert_eq!(stored, wanted);
        assert_eq!(
            outcomes(&store, "room-1:1")
                .await
                .iter()
                .find(|o| o.0 == ann)
                .unwrap()
                .2,
            Some(4_000)
        );
        // Other pools are untouched.
        assert!(store
            .ratings_of(&cy, 10 + DAY)
            .await
            .unwrap()
            .iter()
            .all(|r| r.pool == Pool::Slide3x3));
    });
}

#[test]
fn a_race_settled_twice_applies_once() {
    runtime().block_on(async {
        let store = fresh().await;
        let ann = account(&store, "ann").await;
        let bob = account(&store, "bob").await;
        let racers = [
            racer(&ann, Outcome::Solved { millis: 1_000 }),
            racer(&bob, Outcome::Unfinished),
        ];
        let once = store
            .settle_race("r:1", Pool::Shisen18x8, &racers, 5)
            .await
            .unwrap();
        assert!(once.is_some());
        let before = store.ratings_of(&ann, 6).await.unwrap();
        // Settled again, at once by two callers and then once more.
        let (a, b) = tokio::join!(
            store.settle_race("r:1", Pool::Shisen18x8, &racers, 6),
            store.settle_race("r:1", Pool::Shisen18x8, &racers, 6)
        );
        assert_eq!((a.unwrap(), b.unwrap()), (None, None));
        assert_eq!(store.ratings_of(&ann, 6).await.unwrap(), before);
        assert_eq!(before[0].games, 1);
        assert_eq!(
            count(&store, "SELECT COUNT(*) FROM rating_history").await,
            2
        );
        assert_eq!(count(&store, "SELECT COUNT(*) FROM rated_racers").await, 2);
        assert!(store.race_settled("r:1").await.unwrap());
        assert!(!store.race_settled("r:2").await.unwrap());
    });
}

#[test]
fn a_fault_between_the_race_and_the_ratings_leaves_neither() {
    runtime().block_on(async {
        let store = fresh().await;
        let ann = account(&store, "ann").await;
        let bob = account(&store, "bob").await;
        let racers = [
            racer(&ann, Outcome::Solved { millis: 1_000 }),
            racer(&bob, Outcome::Left),
        ];
        break_history(&store).await;
        let failed = store.settle_race("r:1", Pool::Slide4x4, &racers, 5).await;
        let error = failed.unwrap_err().to_string();
        assert!(error.contains("injected fault"), "{error}");
        for table in ["rated_races", "rated_racers", "ratings", "rating_history"] {
            let n = count(&store, &format!("SELECT COUNT(*) FROM {table}")).await;
            assert_eq!(n, 0, "{table} has rows after the fault");
        }
        assert!(!store.race_settled("r:1").await.unwrap());
        // Once mended, the same race settles, once.
        mend_history(&store).await;
        let settled = store
            .settle_race("r:1", Pool::Slide4x4, &racers, 7)
            .await
            .unwrap();
        assert_eq!(settled.unwrap().len(), 2);
        assert_eq!(store.ratings_of(&bob, 7).await.unwrap()[0].games, 1);
    });
}

#[test]
fn the_leaderboard_lists_settled_ratings_highest_first() {
    runtime().block_on(async {
        let store = fresh().await;
        let mut ids = Vec::new();
        for (handle, rating, rd) in [
            ("ann", 1700.0, 60.0),
            ("bob", 1900.0, 109.0),
            ("cyd", 2400.0, 110.0),
            ("dia", 1650.0, 80.0),
        ] {
            let id = account(&store, handle).await;
            sqlx::query(
                "INSERT INTO ratings (account_id, pool, rating, rd, volatility, games, updated_at) \
                 VALUES ($1, 'slide-4x4', $2, $3, 0.06, 30, 1)",
            )
            .bind(&id)
            .bind(rating)
            .bind(rd)
            .execute(&store.pool)
            .await
            .unwrap();
            ids.push(id);
        }
        let top = store.top_ratings(Pool::Slide4x4, 0, 10, 1).await.unwrap();
        let names: Vec<_> = top.iter().map(|p| (p.rank, p.handle.as_str())).collect();
        // cy's RD of 110 is still provisional.
        assert_eq!(names, [(1, "bob"), (2, "ann"), (3, "dia")]);
        assert_eq!(top[0].rating.rating, 1900.0);
        let page = store.top_ratings(Pool::Slide4x4, 1, 1, 1).await.unwrap();
        assert_eq!((page[0].rank, page[0].handle.as_str()), (2, "ann"));
        assert!(store
            .top_ratings(Pool::Slide3x3, 0, 10, 1)
            .await
            .unwrap()
            .is_empty());
        let cy = store.ratings_of(&ids[2], 1).await.unwrap();
        assert!(cy[0].provisional);
        assert!(!store.ratings_of(&ids[1], 1).await.unwrap()[0].provisional);
        // A hundred days on, without a race: bob (RD 109) is provisional
        // again, ann (60) and dia (80) are not, and each deviation is the
        // one `Rating::idle` gives.
        let later = 1 + 100 * 86_400_000;
        let top = store
            .top_ratings(Pool::Slide4x4, 0, 10, later)
            .await
            .unwrap();
        let names: Vec<_> = top.iter().map(|p| (p.rank, p.handle.as_str())).collect();
        assert_eq!(names, [(1, "ann"), (2, "dia")]);
        let stored = Rating {
            rating: 1700.0,
            rd: 60.0,
            volatility: 0.06,
        };
        let widened = stored.idle(later - 1, &Params::LICHESS);
        assert!((top[0].rating.rd - widened.rd).abs() < 1e-9, "{:?}", top[0]);
        assert!(widened.rd > 70.0 && widened.rd < 110.0, "{widened:?}");
        let bob = store.ratings_of(&ids[1], later).await.unwrap();
        assert!(bob[0].provisional && bob[0].rating.rating == 1900.0);
    });
}

#[test]
fn a_deleted_account_forgets_its_ratings() {
    runtime().block_on(async {
        let store = fresh().await;
        let ann = account(&store, "ann").await;
        let bob = account(&store, "bob").await;
        let racers = [
            racer(&ann, Outcome::Solved { millis: 1_000 }),
            racer(&bob, Outcome::Unfinished),
        ];
        store
            .settle_race("r:1", Pool::Slide3x3, &racers, 5)
            .await
            .unwrap();
        store.delete_account(&ann, 9).await.unwrap();
        assert!(store.ratings_of(&ann, 0).await.unwrap().is_empty());
        let left = |table: &str| format!("SELECT COUNT(*) FROM {table} WHERE account_id = '{ann}'");
        for table in ["ratings", "rated_racers", "rating_history"] {
            assert_eq!(count(&store, &left(table)).await, 0, "{table}");
        }
        // The other racer keeps theirs.
        assert_eq!(store.ratings_of(&bob, 7).await.unwrap()[0].games, 1);
    });
}
