-- Personal bests, their history, and world records.
--
-- Each account's best single in a category (`control` is '' for every
-- control), kept as results arrive like `best_averages`, so a leaderboard
-- of one row per player reads ten rows of an index. `moves` is the
-- single-tile count (STM).
CREATE TABLE personal_bests (
    account_id  TEXT NOT NULL REFERENCES accounts (id),
    game        TEXT NOT NULL,
    variant     TEXT NOT NULL,
    format      TEXT NOT NULL,
    display     TEXT NOT NULL,
    control     TEXT NOT NULL,
    millis      BIGINT NOT NULL,
    moves       BIGINT NOT NULL,
    mtm         BIGINT NOT NULL,
    game_id     TEXT NOT NULL,
    finished_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, game, variant, format, display, control)
);
CREATE INDEX personal_bests_by_time ON personal_bests (game, variant, format, display, control, millis, finished_at);

-- Every improvement of a personal best, single (`n` = 1) or average of
-- `n`, at the time it was set. `world_record` is 1 when it was better than
-- every best before it in the category, whoever set it; `beat` is then the
-- record it broke (NULL for the first).
CREATE TABLE pb_history (
    account_id   TEXT NOT NULL REFERENCES accounts (id),
    game         TEXT NOT NULL,
    variant      TEXT NOT NULL,
    format       TEXT NOT NULL,
    display      TEXT NOT NULL,
    control      TEXT NOT NULL,
    n            BIGINT NOT NULL,
    millis       DOUBLE PRECISION NOT NULL,
    moves        BIGINT,
    mtm          BIGINT,
    game_ids     TEXT NOT NULL,
    finished_at  BIGINT NOT NULL,
    world_record BIGINT NOT NULL DEFAULT 0,
    beat         DOUBLE PRECISION,
    PRIMARY KEY (account_id, game, variant, format, display, control, n, finished_at)
);
CREATE INDEX pb_history_records ON pb_history (game, variant, format, display, control, n, world_record, finished_at);
CREATE INDEX pb_history_by_time ON pb_history (game, variant, format, display, control, n, millis);

-- A player's country, an ISO 3166-1 alpha-2 code; NULL when not given.
ALTER TABLE accounts ADD COLUMN country TEXT;

-- The bests and histories of the results already stored.
INSERT INTO store_chores (name) VALUES ('personal_bests');
