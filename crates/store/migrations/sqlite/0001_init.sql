-- Portable SQL (SQLite and Postgres): TEXT ids made by the server, times as
-- BIGINT milliseconds since the Unix epoch, no engine-specific types.

CREATE TABLE players (
    id         TEXT PRIMARY KEY,
    name       TEXT,
    created_at BIGINT NOT NULL
);

-- Every puzzle the server issued. A result can only refer to one of these.
CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    player_id     TEXT NOT NULL REFERENCES players (id),
    game          TEXT NOT NULL,
    variant       TEXT NOT NULL,
    seed          TEXT NOT NULL,
    setup         TEXT NOT NULL,
    goal          TEXT NOT NULL,
    rules         TEXT NOT NULL,
    issued_at     BIGINT NOT NULL,
    paused_at     BIGINT,
    paused_millis BIGINT NOT NULL DEFAULT 0,
    hints         INTEGER NOT NULL DEFAULT 0,
    assisted      INTEGER NOT NULL DEFAULT 0,
    finished_at   BIGINT
);

CREATE INDEX games_player ON games (player_id, issued_at);

-- A solved game, replayed by the engine and timed by the server.
CREATE TABLE results (
    game_id     TEXT PRIMARY KEY REFERENCES games (id),
    player_id   TEXT NOT NULL REFERENCES players (id),
    game        TEXT NOT NULL,
    variant     TEXT NOT NULL,
    moves       INTEGER NOT NULL,
    millis      BIGINT NOT NULL,
    score       BIGINT NOT NULL,
    hints       INTEGER NOT NULL,
    counted     INTEGER NOT NULL,
    finished_at BIGINT NOT NULL
);

CREATE INDEX results_by_time ON results (game, variant, counted, millis);
CREATE INDEX results_by_player ON results (player_id, game, variant, finished_at);
