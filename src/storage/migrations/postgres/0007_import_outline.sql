-- The outline of the file imported last (`dataset::outline`: a digest of
-- each event's submissions and one of everything else), with its import
-- digest and the organisers who speak in each event (`storage::edits`).
-- Valid only while every event still carries that digest: a file that
-- then differs in a few submissions' texts is imported by those alone.
CREATE TABLE import_outline (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    digest TEXT NOT NULL,
    outline BYTEA NOT NULL,
    witnesses TEXT NOT NULL
);
