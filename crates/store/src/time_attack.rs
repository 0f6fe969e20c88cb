//! Time attack (`play::time_attack`): each run from its start to its one
//! submission, each player's daily and all-time best, and the leaderboard
//! of ranked runs.

use sqlx::any::AnyRow;

use super::answers::{self, Answer, Answered};
use super::{column, Error, Store};

/// A run as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeAttackRun {
    /// The run's id.
    pub id: String,
    /// The player (browser) who started it.
    pub player_id: String,
    /// The account signed in then, if any.
    pub account_id: Option<String>,
    /// The seed its puzzles are dealt from.
    pub seed: u64,
    /// The UTC day it started, `YYYY-MM-DD`.
    pub day: String,
    /// Unix milliseconds, on the server's clock.
    pub started_at: i64,
    /// Unix milliseconds; `None` until submitted.
    pub submitted_at: Option<i64>,
    /// Puzzles solved in time; `None` until submitted.
    pub score: Option<i64>,
    /// `Some(Ok(()))` ranked, `Some(Err(why))` not; `None` until submitted.
    pub ranked: Option<Result<(), String>>,
}

/// A place on the leaderboard: an account's best ranked score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeAttackBest {
    /// The account's handle.
    pub handle: String,
    /// Its best ranked score: puzzles solved in time.
    pub score: i64,
    /// When the account first reached that score (Unix milliseconds).
    pub submitted_at: i64,
}

fn run(r: &AnyRow) -> Result<TimeAttackRun, sqlx::Error> {
    let seed: i64 = column(r, "seed")?;
    let ranked: Option<i64> = column(r, "ranked")?;
    let unranked: Option<String> = column(r, "unranked")?;
    Ok(TimeAttackRun {
        id: column(r, "id")?,
        player_id: column(r, "player_id")?,
        account_id: column(r, "account_id")?,
        seed: seed as u64,
        day: column(r, "day")?,
        started_at: column(r, "started_at")?,
        submitted_at: column(r, "submitted_at")?,
        score: column(r, "score")?,
        ranked: ranked.map(|flag| match flag {
            1 => Ok(()),
            _ => Err(unranked.unwrap_or_default()),
        }),
    })
}

impl Store {
    /// Keeps a run just started.
    pub async fn start_time_attack(&self, run: &TimeAttackRun) -> Result<(), Error> {
        let written = sqlx::query(
            "INSERT INTO time_attack_runs (id, player_id, account_id, seed, day, started_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&run.id)
        .bind(&run.player_id)
        .bind(run.account_id.as_deref())
        .bind(run.seed as i64)
        .bind(&run.day)
        .bind(run.started_at)
        .execute(&self.pool)
        .await;
        self.noted(written)?;
        Ok(())
    }

    /// The run `id`, if there is one.
    pub async fn time_attack_run(&self, id: &str) -> Result<Option<TimeAttackRun>, Error> {
        let row = sqlx::query(
            "SELECT id, player_id, account_id, seed, day, started_at, submitted_at, score, \
             ranked, unranked FROM time_attack_runs WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(run).transpose()?)
    }

    /// Writes run `id`'s score and judgement, with the `answer` its
    /// submission was given ([`Store::answer`]); false (and nothing
    /// written) if it was submitted already, on any instance.
    pub async fn submit_time_attack(
        &self,
        id: &str,
        score: i64,
        ranked: Result<(), String>,
        now: i64,
        answer: &Answer,
    ) -> Result<bool, Error> {
        let written = async {
            let mut tx = self.begin().await?;
            let scored = sqlx::query(
                "UPDATE time_attack_runs SET submitted_at = $2, score = $3, ranked = $4, \
                 unranked = $5 WHERE id = $1 AND submitted_at IS NULL",
            )
            .bind(id)
            .bind(now)
            .bind(score)
            .bind(i64::from(ranked.is_ok()))
            .bind(ranked.err())
            .execute(&mut *tx)
            .await?;
            if scored.rows_affected() != 1 {
                return Ok(false);
            }
            answers::keep(&mut tx, Answered::TimeAttack, id, answer).await?;
            tx.commit().await?;
            Ok(true)
        };
        self.noted(written.await)
    }

    /// The best score of the runs submitted by the account (when given),
    /// else by the player, on `day` or (`None`) ever; ranked or not.
    pub async fn time_attack_best(
        &self,
        player_id: &str,
        account_id: Option<&str>,
        day: Option<&str>,
    ) -> Result<Option<i64>, Error> {
        let (who, id) = match account_id {
            Some(account) => ("account_id", account),
            None => ("player_id", player_id),
        };
        let on_day = if day.is_some() { "AND day = $2" } else { "" };
        let sql = format!(
            "SELECT MAX(score) FROM time_attack_runs WHERE {who} = $1 \
             AND submitted_at IS NOT NULL {on_day}"
        );
        let mut query = sqlx::query_scalar(&sql).bind(id);
        if let Some(day) = day {
            query = query.bind(day);
        }
        Ok(query.fetch_one(&self.pool).await?)
    }

    /// The best ranked score of each account not disabled, on `day` or
    /// (`None`) ever: the highest first, the earlier of a tie first; at
    /// most `limit`.
    pub async fn time_attack_leaderboard(
        &self,
        day: Option<&str>,
        limit: i64,
    ) -> Result<Vec<TimeAttackBest>, Error> {
        // The day's condition only when there is a day, so that each query
        // reads its own index (by day, or by account).
        let (on_day, on_same_day) = if day.is_some() {
            ("AND r.day = $2", "AND s.day = $2")
        } else {
            ("", "")
        };
        let sql = format!(
            "SELECT a.handle, r.score, MIN(r.submitted_at) AS submitted_at \
             FROM time_attack_runs r JOIN accounts a ON a.id = r.account_id \
             WHERE r.ranked = 1 AND a.disabled = 0 {on_day} \
             AND r.score = (SELECT MAX(s.score) FROM time_attack_runs s \
                 WHERE s.account_id = r.account_id AND s.ranked = 1 {on_same_day}) \
             GROUP BY a.handle, r.score \
             ORDER BY r.score DESC, submitted_at, a.handle LIMIT $1"
        );
        let mut query = sqlx::query(&sql).bind(limit);
        if let Some(day) = day {
            query = query.bind(day);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| {
                Ok(TimeAttackBest {
                    handle: column(r, "handle")?,
                    score: column(r, "score")?,
                    submitted_at: column(r, "submitted_at")?,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{fresh, runtime};
    use super::*;
    use crate::PasswordKind;

    async fn account(store: &Store, name: &str) -> String {
        let handle = ::accounts::Handle::parse(name).unwrap();
        let hash = ::accounts::StoredHash::from_stored("hash".into());
        let created = store.create_account(&handle, &hash, PasswordKind::Own, 0);
        created.await.unwrap().unwrap().id
    }

    /// A run: its id, player, account, day, score and judgement.
    type Submitted<'a> = (
        &'a str,
        &'a str,
        Option<&'a str>,
        &'a str,
        i64,
        Result<(), String>,
    );

    fn started(id: &str, player: &str, account: Option<&str>, day: &str) -> TimeAttackRun {
        TimeAttackRun {
            id: id.into(),
            player_id: player.into(),
            account_id: account.map(str::to_string),
            seed: play::seed::MAX_SEED,
            day: day.into(),
            started_at: 1_000,
            submitted_at: None,
            score: None,
            ranked: None,
        }
    }

    #[test]
    fn a_run_is_submitted_once_and_the_bests_and_leaderboard_follow_the_ranked_runs() {
        runtime().block_on(async {
            let store = fresh().await;
            let ann = account(&store, "ann").await;
            let bob = account(&store, "bob").await;
            let (d1, d2) = ("2026-11-27", "2026-11-28");
            let runs: [Submitted; 7] = [
                ("a1", "pa", Some(&ann), d1, 12, Ok(())),
                (
                    "a2",
                    "pa",
                    Some(&ann),
                    d1,
                    30,
                    Err("too fast: a bot".into()),
                ),
                ("a3", "pa", Some(&ann), d2, 9, Ok(())),
                ("b1", "pb", Some(&bob), d1, 12, Ok(())),
                ("b2", "pb", Some(&bob), d2, 15, Ok(())),
                ("g1", "pg", None, d1, 40, Err("guest".into())),
                ("open", "pa", Some(&ann), d2, 0, Ok(())),
            ];
            for (i, (id, player, account, day, score, ranked)) in runs.iter().enumerate() {
                let run = started(id, player, *account, day);
                store.start_time_attack(&run).await.unwrap();
                assert_eq!(store.time_attack_run(id).await.unwrap(), Some(run));
                if *id != "open" {
                    let now = 2_000 + i as i64;
                    let answer = Answer {
                        digest: format!("digest of {id}"),
                        body: format!("{{\"score\": {score}}}"),
                    };
                    assert!(store
                        .submit_time_attack(id, *score, ranked.clone(), now, &answer)
                        .await
                        .unwrap());
                    // Once only: the second write is refused and changes
                    // nothing, the answer kept included.
                    let other = Answer {
                        digest: "another".into(),
                        body: "{}".into(),
                    };
                    let again = store.submit_time_attack(id, 99, Ok(()), now, &other);
                    assert!(!again.await.unwrap());
                    let kept = store.answer(Answered::TimeAttack, id).await.unwrap();
                    assert_eq!(kept, Some(answer));
                    assert_eq!(store.answer(Answered::Game, id).await.unwrap(), None);
                    let kept = store.time_attack_run(id).await.unwrap().unwrap();
                    assert_eq!(kept.score, Some(*score));
                    assert_eq!(kept.ranked.as_ref(), Some(ranked));
                    assert_eq!(kept.submitted_at, Some(now));
                    assert_eq!(kept.seed, play::seed::MAX_SEED);
                }
            }
            assert_eq!(store.time_attack_run("none").await.unwrap(), None);
            let open = store.time_attack_run("open").await.unwrap().unwrap();
            assert_eq!((open.score, open.ranked), (None, None));
            // Bests: the account's runs, ranked or not; a guest's by player.
            let best = |player, account, day| store.time_attack_best(player, account, day);
            assert_eq!(
                best("pa", Some(ann.as_str()), None).await.unwrap(),
                Some(30)
            );
            assert_eq!(
                best("pa", Some(ann.as_str()), Some(d2)).await.unwrap(),
                Some(9)
            );
            assert_eq!(
                best("pb", Some(bob.as_str()), Some(d1)).await.unwrap(),
                Some(12)
            );
            assert_eq!(best("pg", None, None).await.unwrap(), Some(40));
            assert_eq!(best("pg", None, Some(d2)).await.unwrap(), None);
            // The leaderboard: ranked runs only, each account's best once,
            // the earlier of a tie first.
            let board = |day| store.time_attack_leaderboard(day, 10);
            let shown = |rows: Vec<TimeAttackBest>| -> Vec<(String, i64)> {
                rows.into_iter().map(|r| (r.handle, r.score)).collect()
            };
            let row = |h: &str, s| (h.to_string(), s);
            assert_eq!(
                shown(board(None).await.unwrap()),
                [row("bob", 15), row("ann", 12)]
            );
            assert_eq!(
                shown(board(Some(d1)).await.unwrap()),
                [row("ann", 12), row("bob", 12)]
            );
            assert_eq!(
                shown(board(Some(d2)).await.unwrap()),
                [row("bob", 15), row("ann", 9)]
            );
            assert_eq!(
                store.time_attack_leaderboard(None, 1).await.unwrap().len(),
                1
            );
            // The guest signs up on that browser: its runs move to the
            // account, the one unranked as a guest's ranked now.
            let gus = account(&store, "gus").await;
            let before = store.time_attack_run("g1").await.unwrap().unwrap();
            assert_eq!(before.ranked, Some(Err("guest".into())));
            store.claim_guest_results("pg", &gus).await.unwrap();
            let after = store.time_attack_run("g1").await.unwrap().unwrap();
            assert_eq!(
                (after.account_id.as_deref(), after.ranked),
                (Some(gus.as_str()), Some(Ok(())))
            );
            assert_eq!(
                shown(board(Some(d1)).await.unwrap()),
                [row("gus", 40), row("ann", 12), row("bob", 12)]
            );
            // Other players' runs and reasons stay as they were.
            let bot = store.time_attack_run("a2").await.unwrap().unwrap();
            assert_eq!(bot.ranked, Some(Err("too fast: a bot".into())));
        });
    }
}
