-- Records that stay fast with millions of results.
--
-- Each ranking reads its category's index in order and stops after a
-- table's worth of rows: one index per order, ties broken in the index
-- too (the same number of moves is shared by thousands of results, and
-- sorting them all by time would read them all). Time has
-- `results_by_format`; its ties are few.
CREATE INDEX results_by_moves ON results (game, variant, format, counted, moves, millis, finished_at DESC);
CREATE INDEX results_by_mtm ON results (game, variant, format, counted, mtm, millis, finished_at DESC);
CREATE INDEX results_by_score ON results (game, variant, format, counted, score DESC, millis, finished_at DESC);
-- An account's latest results in a category: what a new result's
-- averages are taken over.
CREATE INDEX results_by_account_format ON results (account_id, game, variant, format, finished_at);

-- The account a game was dealt to (NULL: a guest's, or a race's): a game
-- it dealt and left unfinished for a later one of the same category is a
-- DNF in its averages.
ALTER TABLE games ADD COLUMN account_id TEXT REFERENCES accounts (id);
CREATE INDEX games_by_account ON games (account_id, game, variant, format, issued_at);

-- Each account's best average of `n` consecutive counted results in a
-- category (`control` is '' for every control), kept as results arrive so
-- the records page reads ten rows rather than every result of the
-- category. `game_ids` lists the results averaged, newest first.
CREATE TABLE best_averages (
    account_id  TEXT NOT NULL REFERENCES accounts (id),
    game        TEXT NOT NULL,
    variant     TEXT NOT NULL,
    format      TEXT NOT NULL,
    control     TEXT NOT NULL,
    n           BIGINT NOT NULL,
    millis      DOUBLE PRECISION NOT NULL,
    game_ids    TEXT NOT NULL,
    finished_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, game, variant, format, control, n)
);
CREATE INDEX best_averages_by_time ON best_averages (game, variant, format, control, n, millis);

-- Work the server does once, on its next start, after a migration: here,
-- the best averages of the results already stored.
CREATE TABLE store_chores (
    name TEXT PRIMARY KEY
);
INSERT INTO store_chores (name) VALUES ('best_averages');
