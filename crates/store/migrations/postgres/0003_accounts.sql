-- Accounts: a handle (unique without regard to case through `handle_key`)
-- and an argon2id hash of the password in PHC form; never the password.
CREATE TABLE accounts (
    id            TEXT PRIMARY KEY,
    handle        TEXT NOT NULL,
    handle_key    TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    -- Set by an operator: the account cannot sign in, its sessions end.
    disabled      BIGINT NOT NULL DEFAULT 0
);

-- Signed-in sessions: only the SHA-256 of each token is kept, so a copy
-- of the database signs no one in.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);

-- Failed sign-ins, by subject (`handle:KEY` or `client:ADDRESS`), for the
-- throttle; rows older than its window are pruned.
CREATE TABLE login_failures (
    subject TEXT NOT NULL,
    at      BIGINT NOT NULL
);
CREATE INDEX login_failures_by_subject ON login_failures (subject, at);
CREATE INDEX login_failures_by_time ON login_failures (at);

-- The account a result belongs to (NULL: a guest's).
ALTER TABLE results ADD COLUMN account_id TEXT REFERENCES accounts (id);
CREATE INDEX results_by_account ON results (account_id, game, variant, finished_at);

-- Ranked records need an account: results ranked before accounts existed
-- had no owner who could prove it, so they wait as guests' results until
-- their browser signs up or in (then they move to the account, ranked).
UPDATE results SET counted = 0, reason = 'guest' WHERE counted = 1;
