-- The same schema as migrations/sqlite (0001 to 0003 there), for PostgreSQL:
-- TEXT ids made by the server, times as BIGINT milliseconds since the Unix
-- epoch, and every integer BIGINT so both databases read back as i64.

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
    -- Shisen-Sho: `shisen::Rules` as text; sliding puzzle: the goal.
    rules         TEXT NOT NULL,
    issued_at     BIGINT NOT NULL,
    paused_at     BIGINT,
    paused_millis BIGINT NOT NULL DEFAULT 0,
    hints         BIGINT NOT NULL DEFAULT 0,
    assisted      BIGINT NOT NULL DEFAULT 0,
    finished_at   BIGINT,
    -- A paused Shisen-Sho game's turns so far.
    progress      TEXT
);

CREATE INDEX games_player ON games (player_id, issued_at);

-- A solved game, replayed by the engine, timed by the server and judged.
CREATE TABLE results (
    game_id     TEXT PRIMARY KEY REFERENCES games (id),
    player_id   TEXT NOT NULL REFERENCES players (id),
    game        TEXT NOT NULL,
    variant     TEXT NOT NULL,
    moves       BIGINT NOT NULL,
    millis      BIGINT NOT NULL,
    score       BIGINT NOT NULL,
    hints       BIGINT NOT NULL,
    counted     BIGINT NOT NULL,
    finished_at BIGINT NOT NULL,
    stm         BIGINT NOT NULL DEFAULT 0,
    mtm         BIGINT NOT NULL DEFAULT 0,
    replay      TEXT NOT NULL DEFAULT '',
    times       TEXT NOT NULL DEFAULT '',
    reason      TEXT
);

CREATE INDEX results_by_time ON results (game, variant, counted, millis);
CREATE INDEX results_by_player ON results (player_id, game, variant, finished_at);

-- The positions and boards each player asked the solver about.
CREATE TABLE help (
    player_id TEXT NOT NULL,
    game      TEXT NOT NULL,
    state     TEXT NOT NULL,
    at        BIGINT NOT NULL
);
CREATE INDEX help_by_player ON help (player_id, game, at);

-- Every pause of a game.
CREATE TABLE pauses (
    game_id    TEXT NOT NULL REFERENCES games (id),
    started_at BIGINT NOT NULL,
    ended_at   BIGINT
);
CREATE INDEX pauses_by_game ON pauses (game_id);
