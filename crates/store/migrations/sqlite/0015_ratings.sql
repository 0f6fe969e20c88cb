-- Ratings (play::rating): one Glicko-2 rating per account and pool, the
-- rated races settled (one row each: a race settled twice, by two
-- instances or a retry, applies once), how each racer's race ended, and
-- every rating change. A race's rows and its rating changes are written
-- in one transaction.
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    pool       TEXT NOT NULL,
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    games      BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, pool)
);
CREATE INDEX ratings_by_pool ON ratings (pool, rating DESC);

CREATE TABLE rated_races (
    id         TEXT PRIMARY KEY,
    pool       TEXT NOT NULL,
    settled_at BIGINT NOT NULL
);

-- `outcome` is solved, unranked, unfinished or left; `millis` the ranked
-- solve's time.
CREATE TABLE rated_racers (
    race_id    TEXT NOT NULL REFERENCES rated_races (id),
    account_id TEXT NOT NULL REFERENCES accounts (id),
    outcome    TEXT NOT NULL,
    millis     BIGINT,
    PRIMARY KEY (race_id, account_id)
);

CREATE TABLE rating_history (
    race_id       TEXT NOT NULL REFERENCES rated_races (id),
    account_id    TEXT NOT NULL REFERENCES accounts (id),
    pool          TEXT NOT NULL,
    rating_before REAL NOT NULL,
    rating        REAL NOT NULL,
    rd            REAL NOT NULL,
    volatility    REAL NOT NULL,
    at            BIGINT NOT NULL,
    PRIMARY KEY (race_id, account_id)
);
CREATE INDEX rating_history_by_account ON rating_history (account_id, pool, at);
