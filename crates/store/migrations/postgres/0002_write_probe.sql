-- One row the readiness check rewrites while writes are failing (a full
-- disk): when the write succeeds, the instance is ready again.
CREATE TABLE write_probe (
    id         BIGINT PRIMARY KEY,
    checked_at BIGINT NOT NULL
);
