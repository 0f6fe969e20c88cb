//! What a submission was answered, kept with what it recorded: the same
//! submission sent again (its answer lost on the way, or the server gone
//! before it could answer) is answered the same from here and records
//! nothing more.

use sqlx::{Any, Transaction};

use super::{column, Error, Store};

/// A submission's answer as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The submission's digest, as the server computed it.
    pub digest: String,
    /// The answer's body (JSON), as first sent.
    pub body: String,
}

/// What a submission was for: a game's result, a time-attack run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answered {
    /// A game (`games.id`): a sliding puzzle or a Shisen-Sho deal.
    Game,
    /// A time-attack run (`time_attack_runs.id`).
    TimeAttack,
}

impl Answered {
    fn name(self) -> &'static str {
        match self {
            Answered::Game => "game",
            Answered::TimeAttack => "time-attack",
        }
    }
}

/// Keeps `answer` to the submission for `what` `id`, in the transaction
/// that records the submission.
pub(crate) async fn keep(
    tx: &mut Transaction<'static, Any>,
    what: Answered,
    id: &str,
    answer: &Answer,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO answers (kind, id, digest, body) VALUES ($1, $2, $3, $4)")
        .bind(what.name())
        .bind(id)
        .bind(&answer.digest)
        .bind(&answer.body)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

impl Store {
    /// The answer kept for the submission for `what` `id`, if one was.
    pub async fn answer(&self, what: Answered, id: &str) -> Result<Option<Answer>, Error> {
        let row = sqlx::query("SELECT digest, body FROM answers WHERE kind = $1 AND id = $2")
            .bind(what.name())
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| -> Result<Answer, Error> {
            Ok(Answer {
                digest: column(&r, "digest")?,
                body: column(&r, "body")?,
            })
        })
        .transpose()
    }
}
