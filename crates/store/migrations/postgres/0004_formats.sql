-- Formats: a game deals one puzzle (`single`) or several on one clock
-- (`marathon-10`, `relay-5`, `bld`). A result keeps its format, and the
-- control its moves were made with (`keyboard`, `mouse`, `touch`,
-- `mixed`; NULL when the client did not say). Records rank within a
-- format and, when asked, a control.
ALTER TABLE games ADD COLUMN format TEXT NOT NULL DEFAULT 'single';
ALTER TABLE results ADD COLUMN format TEXT NOT NULL DEFAULT 'single';
ALTER TABLE results ADD COLUMN control TEXT;
CREATE INDEX results_by_format ON results (game, variant, format, counted, millis);
