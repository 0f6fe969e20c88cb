-- A paired race (quick match, an arena) called off because a racer made
-- no first move in time: unrated, and in an arena worth no points. When
-- it was aborted, once the room said so; its racers are free again at
-- once rather than when the race would have been void.
ALTER TABLE arena_races ADD COLUMN aborted_at BIGINT;
-- An abort names its room alone.
CREATE INDEX arena_races_by_room ON arena_races (room);
CREATE INDEX arena_entrants_by_room ON arena_entrants (room);
