-- Display types: what each tile showed while a sliding puzzle was solved
-- (`standard`, `manhattan`, `vectors`, …). A display is a category of its
-- own: records and averages rank within one, like a format.
ALTER TABLE results ADD COLUMN display TEXT NOT NULL DEFAULT 'standard';

-- Best averages are kept per display too: the table is made again with the
-- display in its key (SQLite cannot change a primary key in place), the
-- averages kept so far being of the standard display.
CREATE TABLE best_averages_by_display (
    account_id  TEXT NOT NULL REFERENCES accounts (id),
    game        TEXT NOT NULL,
    variant     TEXT NOT NULL,
    format      TEXT NOT NULL,
    display     TEXT NOT NULL,
    control     TEXT NOT NULL,
    n           BIGINT NOT NULL,
    millis      DOUBLE PRECISION NOT NULL,
    game_ids    TEXT NOT NULL,
    finished_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, game, variant, format, display, control, n)
);
INSERT INTO best_averages_by_display
    SELECT account_id, game, variant, format, 'standard', control, n, millis, game_ids, finished_at
    FROM best_averages;
DROP TABLE best_averages;
ALTER TABLE best_averages_by_display RENAME TO best_averages;
CREATE INDEX best_averages_by_time ON best_averages (game, variant, format, display, control, n, millis);
