-- The daily challenge: the games dealt as a day's puzzle (the day's seed,
-- `play::daily`), and each player's first attempt at a day's puzzle of a
-- game, variant and format. Only a first attempt is ranked on the day's
-- board. `who` is `player:ID` (the browser) or `account:ID`: a deal claims
-- the first attempt for both, so a second browser of the same account, or
-- a guest who then signs in, has no second first attempt.
CREATE TABLE daily_games (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    day     TEXT NOT NULL,
    game    TEXT NOT NULL,
    variant TEXT NOT NULL,
    format  TEXT NOT NULL
);
CREATE INDEX daily_games_by_day ON daily_games (day, game, variant, format);

CREATE TABLE daily_attempts (
    day     TEXT NOT NULL,
    game    TEXT NOT NULL,
    variant TEXT NOT NULL,
    format  TEXT NOT NULL,
    who     TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games (id),
    PRIMARY KEY (day, game, variant, format, who)
);
