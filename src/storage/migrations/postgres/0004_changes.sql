-- The change feed (domain::feed): for each event (by lower-case slug) and
-- generation, the objects that changed for anyone (audience `*`), and for
-- each audience (`public`, `organisers`, `user:CODE`) what changed of them
-- for it, both deflated (`domain::feed::encode`). Written by the import
-- that makes the generation, in its transaction.
CREATE TABLE changes (
    event TEXT NOT NULL,
    audience TEXT NOT NULL,
    generation BIGINT NOT NULL,
    -- When the import committed, RFC 3339 in UTC (fixed width, so that
    -- text order is time order).
    at TEXT NOT NULL,
    body BYTEA NOT NULL,
    PRIMARY KEY (event, audience, generation)
);
CREATE INDEX changes_by_generation ON changes (generation);

-- The feed is complete for every generation after this one: those before
-- were written before the feed existed, or have been pruned.
ALTER TABLE store ADD COLUMN feed_from BIGINT NOT NULL DEFAULT 0;
UPDATE store SET feed_from = generation;
