-- Time attack (`play::time_attack`): a run is started (its seed, day and
-- start on the server's clock) and submitted once, when its score and
-- whether it is ranked are written (`submitted_at` NULL until then). A
-- guest's run has no account; only ranked runs, an account's, reach the
-- leaderboard.
CREATE TABLE time_attack_runs (
    id           TEXT PRIMARY KEY,
    player_id    TEXT NOT NULL,
    account_id   TEXT REFERENCES accounts (id) ON DELETE CASCADE,
    seed         BIGINT NOT NULL,
    day          TEXT NOT NULL,
    started_at   BIGINT NOT NULL,
    submitted_at BIGINT,
    score        BIGINT,
    -- 1: ranked; 0: not, `unranked` saying why.
    ranked       BIGINT,
    unranked     TEXT
);
CREATE INDEX time_attack_runs_by_player ON time_attack_runs (player_id, score);
CREATE INDEX time_attack_runs_by_account ON time_attack_runs (account_id, score);
CREATE INDEX time_attack_runs_by_day ON time_attack_runs (day, ranked, score);
