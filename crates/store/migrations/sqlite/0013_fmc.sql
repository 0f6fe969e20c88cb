-- The daily fewest-moves challenge (`play::fmc`): each account's one
-- entry per day and board (`size` is `4x4` or `5x5`), and each closed
-- day's optimum, found once when first asked after the day is over and
-- kept (every instance reads the first row written).
CREATE TABLE fmc_entries (
    day          TEXT NOT NULL,
    size         TEXT NOT NULL,
    account_id   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    moves        TEXT NOT NULL,
    stm          BIGINT NOT NULL,
    mtm          BIGINT NOT NULL,
    submitted_at BIGINT NOT NULL,
    PRIMARY KEY (day, size, account_id)
);
CREATE INDEX fmc_entries_by_day ON fmc_entries (day, size, submitted_at);

CREATE TABLE fmc_optima (
    day    TEXT NOT NULL,
    size   TEXT NOT NULL,
    moves  TEXT NOT NULL,
    stm    BIGINT NOT NULL,
    mtm    BIGINT NOT NULL,
    -- 1: proven shortest; 0: the best known.
    proven BIGINT NOT NULL,
    PRIMARY KEY (day, size)
);
