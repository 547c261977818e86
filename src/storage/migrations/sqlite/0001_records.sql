-- Events stored as records: one row per user, per event, and per item of an
-- event's lists, each body the item's JSON in the dataset format.

-- One row: which database this is (made once, never changed, so that a
-- replaced database is noticed) and its generation (increased by every
-- import that changes something).
CREATE TABLE store (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    identity TEXT NOT NULL,
    generation INTEGER NOT NULL
);
INSERT INTO store (id, identity, generation) VALUES (1, lower(hex(randomblob(16))), 0);

CREATE TABLE users (
    code TEXT PRIMARY KEY,
    email_lower TEXT NOT NULL UNIQUE,
    hash INTEGER NOT NULL,
    body TEXT NOT NULL
);

CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    slug TEXT NOT NULL,
    -- One event per slug, whatever its letter case.
    slug_lower TEXT NOT NULL UNIQUE,
    -- The generation this event was last written in: replicas reload only
    -- the events whose generation changed.
    generation INTEGER NOT NULL,
    hash INTEGER NOT NULL,
    body TEXT NOT NULL
);

-- `event` is an events.id. No foreign key: records are written only by an
-- import, in the transaction that writes their event, and a per-row key
-- check made bulk imports markedly slower (PostgreSQL: 9 s to 16 s for a
-- million records). Whoever deletes an event deletes its records.
CREATE TABLE records (
    event INTEGER NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    position INTEGER NOT NULL,
    hash INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (event, kind, key)
);
