-- The digest of the file(s) whose import last left this event as it is
-- (`storage::import_digest`: their bytes and the import's options), with
-- how many events that import held: `<hex>/<count>`. When every one of
-- those events still carries it, importing the same bytes again changes
-- nothing and need not even be parsed. Every import writes it on the
-- events it holds (NULL when it has no file: sync, the library), and an
-- import that changes users clears it on every other event, so that a
-- stale digest never hides a change.
ALTER TABLE events ADD COLUMN import_digest TEXT;
