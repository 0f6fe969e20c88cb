-- Race rooms shared by every instance over one PostgreSQL database. A room
-- is its opening (what it races, the first seed, when) and the log of what
-- its racers and its clock did, in order: each instance that serves the
-- room replays the same log into the same race (the rules are a pure
-- function of it), and hears of new entries by NOTIFY on `tessera_races`.
-- `last_seq` is bumped under the row's lock, so a room's entries commit in
-- the order of their numbers and a reader never sees a gap that later
-- fills.
CREATE TABLE race_rooms (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    seed BIGINT NOT NULL,
    opened_at BIGINT NOT NULL,
    last_seq BIGINT NOT NULL DEFAULT 0,
    touched_at BIGINT NOT NULL
);
CREATE INDEX race_rooms_touched ON race_rooms (touched_at);

CREATE TABLE race_steps (
    room TEXT NOT NULL REFERENCES race_rooms (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    step TEXT NOT NULL,
    PRIMARY KEY (room, seq)
);
