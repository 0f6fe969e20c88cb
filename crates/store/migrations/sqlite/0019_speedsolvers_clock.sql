-- The speedsolver's clock (play::stopwatch): a sliding result is timed
-- from its first move to its last, as slidysim times it, and the time
-- before the first move (reading the scramble) is kept apart; a blindfold
-- solve still counts its memorising. Every move's time was stored
-- (milliseconds since the puzzle, or the format, appeared, space-separated),
-- so every stored sliding result is timed again from them; results stored
-- before times were kept (empty) stay as they were.
ALTER TABLE results ADD COLUMN reading_ms BIGINT;

UPDATE results
SET reading_ms = CAST(substr(times, 1, instr(times || ' ', ' ') - 1) AS BIGINT),
    millis = CAST(substr(times, length(rtrim(times, '0123456789')) + 1) AS BIGINT) - CAST(substr(times, 1, instr(times || ' ', ' ') - 1) AS BIGINT)
WHERE game = 'slide' AND times <> '' AND format <> 'bld';

UPDATE results
SET reading_ms = CAST(substr(times, 1, instr(times || ' ', ' ') - 1) AS BIGINT),
    millis = CAST(substr(times, length(rtrim(times, '0123456789')) + 1) AS BIGINT)
WHERE game = 'slide' AND times <> '' AND format = 'bld';

-- What follows from the times, computed again on the next start: best
-- averages, personal bests and their history (world records with them),
-- and powers.
INSERT INTO store_chores (name) VALUES ('best_averages') ON CONFLICT (name) DO NOTHING;
INSERT INTO store_chores (name) VALUES ('personal_bests') ON CONFLICT (name) DO NOTHING;
INSERT INTO store_chores (name) VALUES ('powers') ON CONFLICT (name) DO NOTHING;
