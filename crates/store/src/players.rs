//! Players: a browser's player id and its name, and the guest results a
//! player takes along on signing in.

use sqlx::{Any, Transaction};

use super::{averages, bests, column, powers, Error, Store};

impl Store {
    /// Records a player the first time it is seen.
    pub(crate) async fn ensure_player(&self, id: &str, now: i64) -> Result<(), Error> {
        let written = sqlx::query(
            "INSERT INTO players (id, name, created_at) VALUES ($1, NULL, $2) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(now)
        .execute(&self.pool)
        .await;
        self.noted(written).map(|_| ())
    }

    /// The name the player chose, if any.
    pub async fn player_name(&self, id: &str) -> Result<Option<String>, Error> {
        let row = sqlx::query("SELECT name FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let name = row.map(|r| column::<Option<String>>(&r, "name"));
        Ok(name.transpose()?.flatten())
    }

    /// Sets or clears (`None`) the name the player chose.
    pub async fn set_name(&self, id: &str, name: Option<&str>, now: i64) -> Result<(), Error> {
        self.ensure_player(id, now).await?;
        let written = sqlx::query("UPDATE players SET name = $1 WHERE id = $2")
            .bind(name)
            .bind(id)
            .execute(&self.pool)
            .await;
        self.noted(written).map(|_| ())
    }
}

/// A table of a guest's rows that an account claims: its name, the
/// column that says whether a row ranks (1 or 0), and the one that says
/// why not.
struct GuestRows {
    table: &'static str,
    ranked: &'static str,
    reason: &'static str,
}

/// Results: `counted`, and `reason`.
const RESULTS: GuestRows = GuestRows {
    table: "results",
    ranked: "counted",
    reason: "reason",
};

/// Time attack runs, moved in the transaction that moves the results; a
/// run not yet submitted is then judged as the account's.
const RUNS: GuestRows = GuestRows {
    table: "time_attack_runs",
    ranked: "ranked",
    reason: "unranked",
};

/// Moves the guest `player`'s rows of `rows` to the account (each row
/// moves once: it belongs to an account after), and ranks those that were
/// unranked only for want of an account (`play::judge::Unranked::Guest`).
/// The number moved.
async fn claim_guest_rows(
    tx: &mut Transaction<'static, Any>,
    rows: GuestRows,
    player: &str,
    account_id: &str,
) -> Result<u64, sqlx::Error> {
    let GuestRows {
        table,
        ranked,
        reason,
    } = rows;
    let sql = format!(
        "UPDATE {table} SET account_id = $1, \
         {ranked} = CASE WHEN {reason} = $3 THEN 1 ELSE {ranked} END, \
         {reason} = CASE WHEN {reason} = $3 THEN NULL ELSE {reason} END \
         WHERE player_id = $2 AND account_id IS NULL"
    );
    Ok(sqlx::query(&sql)
        .bind(account_id)
        .bind(player)
        .bind(play::judge::Unranked::Guest.to_string())
        .execute(&mut **tx)
        .await?
        .rows_affected())
}

impl Store {
    /// Moves this browser's guest results to the account just signed in
    /// to (each result moves once: it belongs to an account after), and
    /// ranks those that were unranked only for want of an account. The
    /// number moved.
    pub async fn claim_guest_results(&self, player: &str, account_id: &str) -> Result<u64, Error> {
        let written = async {
            let mut tx = self.begin().await?;
            let moved = claim_guest_rows(&mut tx, RESULTS, player, account_id).await?;
            // The moved results fall among the account's own: every
            // window of consecutive results may be new.
            if moved > 0 {
                averages::recompute(&mut tx, account_id).await?;
                bests::recompute(&mut tx, account_id).await?;
                powers::note(&mut tx, account_id, &self.tiers).await?;
            }
            claim_guest_rows(&mut tx, RUNS, player, account_id).await?;
            tx.commit().await?;
            Ok(moved)
        };
        self.noted(written.await)
    }
}
