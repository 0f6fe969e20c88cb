-- Arenas (play::arena): a pool, a start and an end. Entrants are paired
-- into rated races while it runs; `room` is the race an entrant is in now
-- (NULL when free), taken by a conditional update so that instances
-- pairing at once never put an entrant in two races; `seen` is when their
-- arena page last asked (an entrant not seen for a while is paused, not
-- removed). The points come from the rated races' settled outcomes
-- (`rated_racers`), so an arena keeps no score of its own.
CREATE TABLE arenas (
    id         TEXT PRIMARY KEY,
    pool       TEXT NOT NULL,
    starts     BIGINT NOT NULL,
    ends       BIGINT NOT NULL,
    created_by TEXT REFERENCES accounts (id),
    created_at BIGINT NOT NULL
);
CREATE INDEX arenas_by_start ON arenas (starts);

CREATE TABLE arena_entrants (
    arena_id   TEXT NOT NULL REFERENCES arenas (id),
    account_id TEXT NOT NULL REFERENCES accounts (id),
    joined_at  BIGINT NOT NULL,
    seen       BIGINT NOT NULL,
    free_since BIGINT NOT NULL,
    room       TEXT,
    PRIMARY KEY (arena_id, account_id)
);

-- The races an arena paired, with their racers (account ids, comma-
-- separated, in seat order) and when; once settled, the rated race that
-- settled it (`rated_races.id`, the room and the round's seed) and when,
-- noted the first time it is found so later reads join it by its key.
CREATE TABLE arena_races (
    arena_id   TEXT NOT NULL REFERENCES arenas (id),
    room       TEXT NOT NULL,
    racers     TEXT NOT NULL,
    paired_at  BIGINT NOT NULL,
    race_id    TEXT,
    settled_at BIGINT,
    PRIMARY KEY (arena_id, room)
);
