-- Analyses of sliding-puzzle replays, kept once computed: the distance to
-- the goal after every move costs up to a second of search on a 4x4, and
-- a replay is opened many times. Only complete analyses are kept (every
-- distance proven, or a board too large for proofs).
CREATE TABLE analyses (
    game_id TEXT NOT NULL,
    metric TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, metric)
);
