-- Records remember the generation of their last write, so that a replica
-- holding an event at generation g reads only what changed since g instead
-- of the whole event: `generation` is the last write of any kind (a new
-- list position included), `body_generation` the last write of the body.
-- Rows written before this migration keep 0: replicas load those events in
-- full once, as they do after every restart.
ALTER TABLE records ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
ALTER TABLE records ADD COLUMN body_generation INTEGER NOT NULL DEFAULT 0;
CREATE INDEX records_by_generation ON records (event, generation);

-- A record removed from its event leaves its key here, with the generation
-- that removed it, for the same replicas.
CREATE TABLE deleted_records (
    event INTEGER NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    generation INTEGER NOT NULL,
    PRIMARY KEY (event, kind, key)
);
