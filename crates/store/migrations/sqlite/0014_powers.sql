-- Power (play::power): each account's standing over the core categories,
-- kept as its bests change, so the rankings page reads one index in order
-- rather than every account's bests. `bests` holds the account's best time
-- in each core category (milliseconds, '-' for none, comma-separated, in
-- the order of the tier tables' categories) and `tables` the digest of the
-- tables it was computed with: powers from other tables are computed again
-- when the server starts with new ones. `reached_at` is when the power last
-- changed: of two equal powers, the one reached first ranks first.
CREATE TABLE powers (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id),
    power      BIGINT NOT NULL,
    tier       BIGINT NOT NULL,
    bests      TEXT NOT NULL,
    tables     TEXT NOT NULL,
    reached_at BIGINT NOT NULL
);
CREATE INDEX powers_by_rank ON powers (tier DESC, power DESC, reached_at);

-- Accounts with results from before powers were kept get theirs on the
-- next start.
INSERT INTO store_chores (name) VALUES ('powers');
