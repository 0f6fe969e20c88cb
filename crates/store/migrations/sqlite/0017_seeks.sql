-- Quick match (play::pairing): the accounts waiting for a rated race, one
-- seek an account (so nobody waits in two queues). `rating` is (rounded) the
-- account's rating in the pool when it began to wait; `seen` when its
-- page last asked (a seek nobody asks about is dropped, its player gone);
-- `room` the race it was paired into, kept until its player is told.
-- Any instance may pair a queue: a seek is taken by a conditional update,
-- so no player is paired twice.
CREATE TABLE seeks (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id),
    pool       TEXT NOT NULL,
    rating     BIGINT NOT NULL,
    since      BIGINT NOT NULL,
    seen       BIGINT NOT NULL,
    room       TEXT
);
CREATE INDEX seeks_waiting ON seeks (pool, since);
