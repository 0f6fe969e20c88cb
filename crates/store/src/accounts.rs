//! Accounts, their sessions, and failed sign-ins: the rules are
//! the `accounts` crate's; this keeps them. Sessions live in the database so
//! that every instance behind a load balancer knows them.

use accounts::{Handle, StoredHash, FAILURE_WINDOW_MS, SESSION_MILLIS};
use sqlx::any::AnyRow;

use super::columns::kept_at;
use super::{
    column, read_rows, record, times_at, Error, Record, Shown, Store, RECORD_COLUMNS, RECORD_FROM,
};

/// One of an account's results with its moves, for the profile and the
/// export.
#[derive(Clone, Debug)]
pub struct AccountResult {
    /// The game.
    pub game: play::GameKind,
    /// The result, as the records show it.
    pub record: Record,
    /// The moves (sliding) or turns (Shisen-Sho) as text.
    pub replay: String,
    /// Milliseconds since the puzzle was shown, one per move.
    pub times: Vec<i64>,
}

/// An account as the server shows it.
#[derive(Clone, Debug)]
pub struct Account {
    /// Its id.
    pub id: String,
    /// As its owner typed it.
    pub handle: String,
    /// When it was made (Unix milliseconds).
    pub created_at: i64,
    /// Whether an operator disabled it: it cannot sign in.
    pub disabled: bool,
    /// Its password is an operator's one-time password, which must be
    /// replaced before the account does anything else.
    pub must_change_password: bool,
    /// Its country, an ISO 3166-1 alpha-2 code, if its owner gave one.
    pub country: Option<String>,
}

/// Who chose a password: its owner, or an operator handing out a
/// one-time password (which the owner must replace at once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PasswordKind {
    /// The owner's own.
    Own,
    /// An operator's one-time password.
    OneTime,
}

impl PasswordKind {
    fn column(self) -> i64 {
        i64::from(self == PasswordKind::OneTime)
    }
}

const ACCOUNT_COLUMNS: &str = "a.id, a.handle, a.created_at, a.disabled, a.must_change_password, \
     a.country";

/// An account from the columns [`ACCOUNT_COLUMNS`] names.
fn account(r: &AnyRow) -> Result<Account, sqlx::Error> {
    Ok(Account {
        id: column(r, "id")?,
        handle: column(r, "handle")?,
        created_at: column(r, "created_at")?,
        disabled: column::<i64>(r, "disabled")? != 0,
        must_change_password: column::<i64>(r, "must_change_password")? != 0,
        country: column(r, "country")?,
    })
}

impl Store {
    /// Creates an account; `None` when the handle (in any case) is taken.
    pub async fn create_account(
        &self,
        handle: &Handle,
        password_hash: &StoredHash,
        kind: PasswordKind,
        now: i64,
    ) -> Result<Option<Account>, Error> {
        let id = play::seed::random_id();
        let written = sqlx::query(
            "INSERT INTO accounts \
             (id, handle, handle_key, password_hash, created_at, must_change_password) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (handle_key) DO NOTHING",
        )
        .bind(&id)
        .bind(handle.as_str())
        .bind(handle.key())
        .bind(password_hash.as_str())
        .bind(now)
        .bind(kind.column())
        .execute(&self.pool)
        .await;
        let created = self.noted(written)?.rows_affected() == 1;
        Ok(created.then(|| Account {
            id,
            handle: handle.as_str().to_string(),
            created_at: now,
            disabled: false,
            must_change_password: kind == PasswordKind::OneTime,
            country: None,
        }))
    }

    /// The account of `handle` (in any case) and its password hash.
    pub async fn credentials(
        &self,
        handle: &Handle,
    ) -> Result<Option<(Account, StoredHash)>, Error> {
        let row = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS}, a.password_hash FROM accounts a WHERE a.handle_key = $1"
        ))
        .bind(handle.key())
        .fetch_optional(&self.pool)
        .await?;
        let read = |r: AnyRow| -> Result<_, sqlx::Error> {
            let hash = StoredHash::from_stored(column(&r, "password_hash")?);
            Ok((account(&r)?, hash))
        };
        Ok(row.map(read).transpose()?)
    }

    /// Starts a session for the token whose SHA-256 is `digest`.
    pub async fn start_session(
        &self,
        digest: &str,
        account_id: &str,
        now: i64,
    ) -> Result<(), Error> {
        let written = sqlx::query(
            "INSERT INTO sessions (token_hash, account_id, created_at, expires_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(digest)
        .bind(account_id)
        .bind(now)
        .bind(now + SESSION_MILLIS)
        .execute(&self.pool)
        .await;
        self.noted(written).map(|_| ())
    }

    /// The account signed in by the token whose SHA-256 is `digest`, with
    /// when the session expires: `None` when the session is unknown, ended,
    /// expired, or its account disabled.
    pub async fn session_account(
        &self,
        digest: &str,
        now: i64,
    ) -> Result<Option<(Account, i64)>, Error> {
        let row = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS}, s.expires_at FROM sessions s \
             JOIN accounts a ON a.id = s.account_id \
             WHERE s.token_hash = $1 AND s.expires_at > $2 AND a.disabled = 0"
        ))
        .bind(digest)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        let read =
            |r: AnyRow| -> Result<_, sqlx::Error> { Ok((account(&r)?, column(&r, "expires_at")?)) };
        Ok(row.map(read).transpose()?)
    }

    /// Pushes a session's expiry to [`SESSION_MILLIS`] from `now`.
    pub async fn renew_session(&self, digest: &str, now: i64) -> Result<(), Error> {
        let written = sqlx::query("UPDATE sessions SET expires_at = $1 WHERE token_hash = $2")
            .bind(now + SESSION_MILLIS)
            .bind(digest)
            .execute(&self.pool)
            .await;
        self.noted(written).map(|_| ())
    }

    /// Ends one session.
    pub async fn end_session(&self, digest: &str) -> Result<(), Error> {
        let written = sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(digest)
            .execute(&self.pool)
            .await;
        self.noted(written).map(|_| ())
    }

    /// Ends every session of an account but the one of `keep`, if given.
    pub async fn end_sessions(&self, account_id: &str, keep: Option<&str>) -> Result<u64, Error> {
        let written =
            sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2")
                .bind(account_id)
                .bind(keep.unwrap_or(""))
                .execute(&self.pool)
                .await;
        Ok(self.noted(written)?.rows_affected())
    }

    /// The times of `subject`'s failed sign-ins inside the throttle's
    /// window ending at `now`.
    pub async fn login_failures(&self, subject: &str, now: i64) -> Result<Vec<i64>, Error> {
        let rows = sqlx::query(
            "SELECT at FROM login_failures WHERE subject = $1 AND at > $2 ORDER BY at DESC LIMIT 100",
        )
        .bind(subject)
        .bind(now - FAILURE_WINDOW_MS)
        .fetch_all(&self.pool)
        .await?;
        read_rows(&rows, |r| column(r, "at"))
    }

    /// Notes a failed sign-in against each subject, and forgets failures
    /// older than the window.
    pub async fn note_login_failure(&self, subjects: &[&str], now: i64) -> Result<(), Error> {
        let written = async {
            let mut tx = self.begin().await?;
            for subject in subjects {
                sqlx::query("INSERT INTO login_failures (subject, at) VALUES ($1, $2)")
                    .bind(*subject)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
            }
            sqlx::query("DELETE FROM login_failures WHERE at <= $1")
                .bind(now - FAILURE_WINDOW_MS)
                .execute(&mut *tx)
                .await?;
            tx.commit().await
        };
        self.noted(written.await)
    }

    /// Forgets `subject`'s failures (its owner signed in).
    pub async fn clear_login_failures(&self, subject: &str) -> Result<(), Error> {
        let written = sqlx::query("DELETE FROM login_failures WHERE subject = $1")
            .bind(subject)
            .execute(&self.pool)
            .await;
        self.noted(written).map(|_| ())
    }

    /// The account of `handle` (in any case), disabled or not.
    pub async fn account_by_handle(&self, handle: &Handle) -> Result<Option<Account>, Error> {
        Ok(self.credentials(handle).await?.map(|(account, _)| account))
    }

    /// The handle of account `id`, if there is one.
    pub async fn handle_of(&self, id: &str) -> Result<Option<String>, Error> {
        let row = sqlx::query("SELECT handle FROM accounts WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(|r| column(r, "handle")).transpose()?)
    }

    /// The results of an account with their moves, newest first: of one
    /// control and one display, or of every one (`shown`).
    pub async fn account_results(
        &self,
        account_id: &str,
        shown: Shown,
    ) -> Result<Vec<AccountResult>, Error> {
        let rows = sqlx::query(&format!(
            "SELECT {RECORD_COLUMNS}, r.game, r.replay, r.times FROM {RECORD_FROM} \
             WHERE r.account_id = $1 AND ($2 = '' OR r.control = $2) \
             AND ($3 = '' OR r.display = $3) ORDER BY r.finished_at DESC"
        ))
        .bind(account_id)
        .bind(shown.control_bind())
        .bind(shown.display_bind())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(AccountResult {
                    game: kept_at(r, "game")?,
                    record: record(r, None)?,
                    replay: column(r, "replay")?,
                    times: times_at(r, "times")?,
                })
            })
            .collect()
    }

    /// Replaces an account's password hash: a one-time password must be
    /// changed before the account does anything else, the owner's own
    /// clears that.
    pub async fn set_password(
        &self,
        account_id: &str,
        hash: &StoredHash,
        kind: PasswordKind,
    ) -> Result<bool, Error> {
        let written = sqlx::query(
            "UPDATE accounts SET password_hash = $1, must_change_password = $2 WHERE id = $3",
        )
        .bind(hash.as_str())
        .bind(kind.column())
        .bind(account_id)
        .execute(&self.pool)
        .await;
        Ok(self.noted(written)?.rows_affected() == 1)
    }

    /// Disables or enables an account; a disabled account's sessions end.
    pub async fn set_disabled(&self, account_id: &str, disabled: bool) -> Result<(), Error> {
        let written = async {
            let mut tx = self.begin().await?;
            sqlx::query("UPDATE accounts SET disabled = $1 WHERE id = $2")
                .bind(i64::from(disabled))
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            if disabled {
                sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                    .bind(account_id)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await
        };
        self.noted(written.await)
    }

    /// Every account, by handle.
    pub async fn accounts(&self) -> Result<Vec<Account>, Error> {
        let rows = sqlx::query(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a ORDER BY a.handle_key"
        ))
        .fetch_all(&self.pool)
        .await?;
        read_rows(&rows, account)
    }

    /// Deletes an account and its sessions. Its results stay as anonymous
    /// guests' results: unranked with the reason `guest`, owned by a new
    /// player no browser holds (so no later sign-in can claim them, and no
    /// display name shows on them), their replays still served.
    pub async fn delete_account(&self, account_id: &str, now: i64) -> Result<(), Error> {
        let orphan = play::seed::random_id();
        let written = async {
            let mut tx = self.begin().await?;
            sqlx::query("INSERT INTO players (id, name, created_at) VALUES ($1, NULL, $2)")
                .bind(&orphan)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "UPDATE results SET account_id = NULL, player_id = $1, counted = 0, reason = $2 \
                 WHERE account_id = $3",
            )
            .bind(&orphan)
            .bind(play::judge::Unranked::Guest.to_string())
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
            sqlx::query("DELETE FROM best_averages WHERE account_id = $1")
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            super::bests::forget(&mut tx, account_id).await?;
            super::powers::forget(&mut tx, account_id).await?;
            super::ratings::forget(&mut tx, account_id).await?;
            super::seeks::forget(&mut tx, account_id).await?;
            super::arenas::forget(&mut tx, account_id).await?;
            // Its games stay, a guest's: unfinished ones are no DNF of
            // anybody's.
            sqlx::query("UPDATE games SET account_id = NULL WHERE account_id = $1")
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM accounts WHERE id = $1")
                .bind(account_id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await
        };
        self.noted(written.await)
    }
}
