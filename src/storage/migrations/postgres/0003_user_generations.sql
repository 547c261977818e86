-- Users remember the generation of their last write, so that a replica
-- reads only the users written since its snapshot. Users are never
-- deleted; rows written before this migration keep 0.
ALTER TABLE users ADD COLUMN generation BIGINT NOT NULL DEFAULT 0;
CREATE INDEX users_by_generation ON users (generation);
