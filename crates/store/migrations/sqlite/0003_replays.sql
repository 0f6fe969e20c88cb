-- Every result keeps its replay (the moves and the time of each) and how
-- it was judged; sliding results count their moves in both metrics.
ALTER TABLE results ADD COLUMN stm INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN mtm INTEGER NOT NULL DEFAULT 0;
-- Sliding puzzle: the moves as letters; Shisen-Sho: the turns as text
-- (`x1,y1-x2,y2`, `shuffle`, `undo`, `redo`, separated by spaces).
ALTER TABLE results ADD COLUMN replay TEXT NOT NULL DEFAULT '';
-- Milliseconds since the puzzle was shown, one per move, space-separated.
ALTER TABLE results ADD COLUMN times TEXT NOT NULL DEFAULT '';
-- Why the result is not ranked (NULL when it is).
ALTER TABLE results ADD COLUMN reason TEXT;
UPDATE results SET stm = moves WHERE game = 'slide';

-- The positions (sliding) and boards (Shisen-Sho) each player asked the
-- solver about: a game is assisted when one of its own positions was
-- asked about, whether the request named the game or not.
CREATE TABLE help (
    player_id TEXT NOT NULL,
    game      TEXT NOT NULL,
    state     TEXT NOT NULL,
    at        BIGINT NOT NULL
);
CREATE INDEX help_by_player ON help (player_id, game, at);

-- Every pause of a game, so that a move made while the board was hidden
-- can be told.
CREATE TABLE pauses (
    game_id    TEXT NOT NULL REFERENCES games (id),
    started_at BIGINT NOT NULL,
    ended_at   BIGINT
);
CREATE INDEX pauses_by_game ON pauses (game_id);

-- A paused Shisen-Sho game's turns so far (the client drops its board
-- while paused and gets it back from these).
ALTER TABLE games ADD COLUMN progress TEXT;
