-- Schema version 3: what comparing, sharding and merging runs need.

-- Time a run spent solving, summed over its sessions (a resumed run adds each
-- one); for a merged run, summed over its shards.  Its speed is the number of
-- instances it solved divided by this.  NULL for runs of older versions.
ALTER TABLE run ADD COLUMN seconds REAL;

-- The job a run belongs to when its set was split into shards (solve
-- --run-tag, e.g. the Slurm array job id); the merged run keeps it.
ALTER TABLE run ADD COLUMN tag TEXT;

-- In a shard database (coinrow solve --shard K/N --out SHARD.db): the part of
-- the set its one run solves.  The shard's instances (with their coins) are in
-- its instance table, so the shard merges without the input database.
CREATE TABLE shard (
    run_id     INTEGER PRIMARY KEY REFERENCES run (id),
    k          INTEGER NOT NULL,    -- this shard, 0-based ...
    n          INTEGER NOT NULL,    -- ... of n
    set_size   INTEGER NOT NULL,    -- instances in the whole set when it was split
    set_digest TEXT NOT NULL,       -- of every (ext_id, coins) of the whole set
    input      TEXT NOT NULL        -- the input database, as it was given
);

-- coinrow compare --record: one row per comparison, in the database of run_a.
CREATE TABLE comparison (
    id           INTEGER PRIMARY KEY,
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    run_a        INTEGER NOT NULL,
    db_b         TEXT,              -- the database of run_b; NULL when it is this one
    run_b        INTEGER NOT NULL,
    strict_moves INTEGER NOT NULL,  -- 1: lines that differ count as regressions
    same         INTEGER NOT NULL,  -- counts of (instance, variant) pairs
    equivalent   INTEGER NOT NULL,
    regression   INTEGER NOT NULL,
    missing      INTEGER NOT NULL,
    changed      INTEGER NOT NULL,
    passed       INTEGER NOT NULL   -- 1: no regression, nothing missing or changed
);
