-- Schema version 9 (the file after 008_*.sql): a shard reads only its own
-- instances, and a set knows its fingerprint.
--
-- Versions 3 to 7 put instance E in shard FNV-1a(set, E) mod N: every shard
-- task hashed the whole set to find its own, and summed the whole set's
-- fingerprint as well, so 1,000 shards read the set 1,000 times.  Now shard
-- K of N is a range of external ids: the instances at positions
-- floor(K * size / N) to floor((K + 1) * size / N) - 1 of the set in ext_id
-- order (SQLite's BINARY order), one range scan of the index on (set_id,
-- ext_id) that every version has.  It depends on the set's ids alone, not
-- on the order they came in.  An index keyed by a hash would do the same,
-- but inserting into it at random costs every commit of an ingest a write
-- of the whole index.

-- A set's size and fingerprint, kept up to date by whatever adds its
-- instances, in the same transaction: the sum mod 2^64 of every instance's
-- FNV-1a-64 of (ext_id, a zero byte, coins), as 16 hex digits.  A shard
-- records them, and merge compares them, without reading the set.
ALTER TABLE instance_set ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
ALTER TABLE instance_set ADD COLUMN digest TEXT NOT NULL DEFAULT '0000000000000000';
-- The digest the set had when its marks below were taken; when it is not
-- `digest` any more, the marks are stale and a shard finds its bounds by
-- counting from the start of the set instead.
ALTER TABLE instance_set ADD COLUMN marked TEXT;

-- Every 1024th external id of a set in ext_id order (positions 0, 1024,
-- 2048 ...), taken again by whatever adds instances, at its end: the place
-- of any position in the index is a lookup here and a step of at most 1023
-- entries there, so that a shard's bounds cost nothing, whatever the set's
-- size.
CREATE TABLE set_mark (
    set_id   INTEGER NOT NULL REFERENCES instance_set (id),
    position INTEGER NOT NULL,       -- 0-based, in ext_id order
    ext_id   TEXT NOT NULL,
    PRIMARY KEY (set_id, position)
) WITHOUT ROWID;

UPDATE instance_set SET (size, digest) =
    (SELECT count(*), coinrow_set_digest(ext_id, coins) FROM instance WHERE set_id = instance_set.id);
INSERT INTO set_mark (set_id, position, ext_id)
SELECT set_id, position, ext_id
FROM (SELECT set_id, ext_id, row_number() OVER (PARTITION BY set_id ORDER BY ext_id) - 1 AS position FROM instance)
WHERE position % 1024 = 0;
UPDATE instance_set SET marked = digest;

-- How a shard database's instances were chosen: 'modulus' (versions 3 to
-- 8, which merge refuses by name) or 'range': then the shard holds the ids
-- from lo (NULL: the set's first) up to, not including, hi (NULL: to the
-- end), and merge checks that the shards' ranges meet end to end.
ALTER TABLE shard ADD COLUMN split TEXT NOT NULL DEFAULT 'modulus';
ALTER TABLE shard ADD COLUMN lo TEXT;
ALTER TABLE shard ADD COLUMN hi TEXT;
