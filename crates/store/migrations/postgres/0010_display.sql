-- Display types: what each tile showed while a sliding puzzle was solved
-- (`standard`, `manhattan`, `vectors`, …). A display is a category of its
-- own: records and averages rank within one, like a format.
ALTER TABLE results ADD COLUMN display TEXT NOT NULL DEFAULT 'standard';

-- Best averages are kept per display too; those kept so far are of the
-- standard display.
ALTER TABLE best_averages ADD COLUMN display TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE best_averages DROP CONSTRAINT best_averages_pkey;
ALTER TABLE best_averages ADD PRIMARY KEY (account_id, game, variant, format, display, control, n);
DROP INDEX best_averages_by_time;
CREATE INDEX best_averages_by_time ON best_averages (game, variant, format, display, control, n, millis);
