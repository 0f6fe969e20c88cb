//! Quick match's queue: the accounts waiting for a rated race
//! (`play::pairing` decides who plays whom). One seek an account, so
//! nobody waits in two queues; a seek is paired by a conditional update,
//! so that instances pairing the same queue at once never put a player in
//! two rooms.

use play::pairing::Seeker;
use sqlx::any::AnyRow;

use play::rating::Pool;

use super::{column, parsed, Error, Store};

/// An account's seek as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seek {
    /// The rating pool it waits in.
    pub pool: Pool,
    /// Since when it waits (Unix milliseconds).
    pub since: i64,
    /// The race room it was paired into, once it was.
    pub room: Option<String>,
}

/// Why a seek was not taken.
#[derive(Debug, thiserror::Error)]
pub enum SeekError {
    /// The account already waits, in this pool or another.
    #[error("already waiting for a race in {}: cancel that first", .0.name())]
    Waiting(Pool),
    #[error(transparent)]
    /// The database failed.
    Database(#[from] Error),
}

impl From<sqlx::Error> for SeekError {
    fn from(error: sqlx::Error) -> SeekError {
        SeekError::Database(error.into())
    }
}

fn seek(r: &AnyRow) -> Result<Seek, sqlx::Error> {
    Ok(Seek {
        pool: parsed(r, "pool", "rating pool")?,
        since: column(r, "since")?,
        room: column(r, "room")?,
    })
}

impl Store {
    /// Puts the account in `pool`'s queue at `rating`. A seek already
    /// paired (its player told, or gone) is replaced; one still waiting is
    /// refused, whichever its pool.
    pub async fn seek(
        &self,
        account_id: &str,
        pool: Pool,
        rating: f64,
        now: i64,
    ) -> Result<(), SeekError> {
        let written = async {
            let mut tx = self.begin().await?;
            sqlx::query("DELETE FROM seeks WHERE account_id = $1 AND room IS NOT NULL")
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            let added = sqlx::query(
                "INSERT INTO seeks (account_id, pool, rating, since, seen, room) \
                 VALUES ($1, $2, $3, $4, $4, NULL) ON CONFLICT (account_id) DO NOTHING",
            )
            .bind(account_id)
            .bind(pool.name())
            .bind(rating.round() as i64)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(added.rows_affected())
        };
        if self.noted(written.await)? == 1 {
            return Ok(());
        }
        match self.seek_of(account_id).await? {
            Some(held) => Err(SeekError::Waiting(held.pool)),
            // Paired or cancelled in between: the seek is free again.
            None => Box::pin(self.seek(account_id, pool, rating, now)).await,
        }
    }

    /// The account's seek, noting that its player still asks about it.
    pub async fn seek_seen(&self, account_id: &str, now: i64) -> Result<Option<Seek>, Error> {
        let seen = sqlx::query("UPDATE seeks SET seen = $1 WHERE account_id = $2")
            .bind(now)
            .bind(account_id)
            .execute(&self.pool)
            .await;
        self.noted(seen)?;
        self.seek_of(account_id).await
    }

    async fn seek_of(&self, account_id: &str) -> Result<Option<Seek>, Error> {
        let row = sqlx::query("SELECT pool, since, room FROM seeks WHERE account_id = $1")
            .bind(account_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(seek).transpose()?)
    }

    /// Takes the account out of the queue; false when it was not in one
    /// (or was paired already: the room is theirs to join or leave).
    pub async fn unseek(&self, account_id: &str) -> Result<bool, Error> {
        let gone = sqlx::query("DELETE FROM seeks WHERE account_id = $1 AND room IS NULL")
            .bind(account_id)
            .execute(&self.pool)
            .await;
        Ok(self.noted(gone)?.rows_affected() == 1)
    }

    /// Who waits in `pool`, longest first. Seeks not asked about since
    /// `stale` are dropped first: their players left the page.
    pub async fn waiting(&self, pool: Pool, stale: i64) -> Result<Vec<Seeker>, Error> {
        let dropped =
            sqlx::query("DELETE FROM seeks WHERE pool = $1 AND room IS NULL AND seen < $2")
                .bind(pool.name())
                .bind(stale)
                .execute(&self.pool)
                .await;
        self.noted(dropped)?;
        let rows = sqlx::query(
            "SELECT account_id, rating, since FROM seeks WHERE pool = $1 AND room IS NULL \
             ORDER BY since, account_id",
        )
        .bind(pool.name())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let rating: i64 = column(r, "rating")?;
                Ok(Seeker {
                    who: column(r, "account_id")?,
                    rating: rating as f64,
                    since: column(r, "since")?,
                })
            })
            .collect()
    }

    /// Pairs `accounts` into `room`: all of them, or (when any was taken
    /// meanwhile, by another instance or a cancel) none.
    pub async fn pair_seeks(&self, accounts: &[String], room: &str) -> Result<bool, Error> {
        let written = async {
            let mut tx = self.begin().await?;
            for account in accounts {
                let taken = sqlx::query(
                    "UPDATE seeks SET room = $1 WHERE account_id = $2 AND room IS NULL",
                )
                .bind(room)
                .bind(account)
                .execute(&mut *tx)
                .await?;
                if taken.rows_affected() != 1 {
                    tx.rollback().await?;
                    return Ok(false);
                }
            }
            tx.commit().await?;
            Ok(true)
        };
        self.noted(written.await)
    }
}

/// Forgets a deleted account's seek, in its deletion's transaction.
pub(super) async fn forget(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    account_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM seeks WHERE account_id = $1")
        .bind(account_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{account, fresh, runtime};

    #[test]
    fn a_seek_waits_once_and_is_paired_once() {
        runtime().block_on(async {
            let store = fresh().await;
            let a = account(&store, "ada").await;
            let b = account(&store, "bob").await;
            store.seek(&a, Pool::Slide3x3, 1500.0, 1_000).await.unwrap();
            // Nobody waits in two queues.
            let again = store.seek(&a, Pool::Slide4x4, 1500.0, 1_100).await;
            assert!(matches!(again, Err(SeekError::Waiting(Pool::Slide3x3))));
            store.seek(&b, Pool::Slide3x3, 1620.4, 1_200).await.unwrap();
            let waiting = store.waiting(Pool::Slide3x3, 0).await.unwrap();
            let who: Vec<_> = waiting
                .iter()
                .map(|s| (s.who.clone(), s.rating, s.since))
                .collect();
            assert_eq!(
                who,
                vec![(a.clone(), 1500.0, 1_000), (b.clone(), 1620.0, 1_200)]
            );
            assert!(store.waiting(Pool::Slide4x4, 0).await.unwrap().is_empty());

            let both = [a.clone(), b.clone()];
            assert!(store.pair_seeks(&both, "room1").await.unwrap());
            // A second pairing of the same players (another instance) takes
            // nobody.
            assert!(!store.pair_seeks(&both, "room2").await.unwrap());
            let seen = store.seek_seen(&a, 2_000).await.unwrap().unwrap();
            assert_eq!(seen.room.as_deref(), Some("room1"));
            assert!(store.waiting(Pool::Slide3x3, 0).await.unwrap().is_empty());
            // A paired seek is replaced by the next one.
            store.seek(&a, Pool::Slide4x4, 1500.0, 3_000).await.unwrap();
            let next = store.seek_seen(&a, 3_000).await.unwrap().unwrap();
            assert_eq!((next.pool, next.room), (Pool::Slide4x4, None));
        });
    }

    #[test]
    fn a_partly_taken_group_is_not_paired_and_stale_seeks_go() {
        runtime().block_on(async {
            let store = fresh().await;
            let a = account(&store, "ada").await;
            let b = account(&store, "bob").await;
            store
                .seek(&a, Pool::Shisen18x8, 1500.0, 1_000)
                .await
                .unwrap();
            store
                .seek(&b, Pool::Shisen18x8, 1500.0, 1_000)
                .await
                .unwrap();
            assert!(store.unseek(&b).await.unwrap());
            assert!(!store.unseek(&b).await.unwrap());
            assert!(!store
                .pair_seeks(&[a.clone(), b.clone()], "room")
                .await
                .unwrap());
            // a is still waiting: the failed pairing wrote nothing.
            assert_eq!(
                store.seek_seen(&a, 5_000).await.unwrap().unwrap().room,
                None
            );
            // Not asked about since 5 s: dropped when the queue is read
            // with a later cut-off.
            assert_eq!(
                store.waiting(Pool::Shisen18x8, 5_000).await.unwrap().len(),
                1
            );
            assert!(store
                .waiting(Pool::Shisen18x8, 5_001)
                .await
                .unwrap()
                .is_empty());
            assert!(store.seek_seen(&a, 6_000).await.unwrap().is_none());
        });
    }
}
