-- What a submission was answered: a submission sent again (its answer
-- lost on the way) is answered the same, and recorded once. Keyed by
-- what was submitted (`game`, `time-attack`) and its id, with a digest
-- of the submission as the server read it; written in the transaction
-- that records the submission.
CREATE TABLE answers (
    kind   TEXT NOT NULL,
    id     TEXT NOT NULL,
    digest TEXT NOT NULL,
    body   TEXT NOT NULL,
    PRIMARY KEY (kind, id)
);
