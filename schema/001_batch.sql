-- Schema version 1: instance sets, their instances, solver runs and their
-- results, and every input row that was rejected.  Times are UTC, ISO 8601.
-- Foreign keys are declared for readers; coinrow itself keeps them true.

CREATE TABLE instance_set (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    source     TEXT,                   -- the inputs of the ingest that created it
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE instance (
    id     INTEGER PRIMARY KEY,
    set_id INTEGER NOT NULL REFERENCES instance_set (id),
    ext_id TEXT NOT NULL,              -- the input's id, or its 1-based data row number
    n      INTEGER NOT NULL,           -- how many coins
    coins  TEXT NOT NULL,              -- a JSON array of integers: [4,6,2,3]
    total  INTEGER,                    -- their sum; NULL when it leaves int64
    UNIQUE (set_id, ext_id)
);

CREATE TABLE run (
    id             INTEGER PRIMARY KEY,
    set_id         INTEGER NOT NULL REFERENCES instance_set (id),
    variants       TEXT NOT NULL,      -- comma list: total,diff,remaining,winner
    algo           TEXT NOT NULL,      -- auto, linear, dp or naive
    moves_policy   TEXT NOT NULL,      -- fast, canonical or none
    solver_version TEXT NOT NULL,      -- coinrow --version of the program that started it
    label          TEXT,
    status         TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted', 'failed')),
    started_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    finished_at    TEXT,               -- when it last stopped (done, interrupted or failed)
    message        TEXT                -- why it failed
);

-- One row per instance and variant (no CHECK constraints here: they would
-- cost the writer a third of its time, and coinrow writes only the values
-- named in the comments).  Every variant of an instance is written
-- in the same transaction, so an instance is solved in a run exactly when it
-- has a row here.  value, first_score, second_score and winner are NULL when
-- error says why the instance could not be solved.
CREATE TABLE result (
    run_id       INTEGER NOT NULL REFERENCES run (id),
    instance_id  INTEGER NOT NULL REFERENCES instance (id),
    variant      TEXT NOT NULL,        -- total, diff, remaining or winner
    value        INTEGER,
    first_score  INTEGER,
    second_score INTEGER,
    winner       TEXT,                 -- first, second or draw
    moves        TEXT,                 -- 'L'/'R' per turn; NULL with --moves none
    error        TEXT,
    PRIMARY KEY (run_id, instance_id, variant)
) WITHOUT ROWID;

CREATE TABLE ingest_error (
    id     INTEGER PRIMARY KEY,
    set_id INTEGER NOT NULL REFERENCES instance_set (id),
    source TEXT NOT NULL,              -- the input: a file, 'stdin', or FILE:TABLE
    line   INTEGER NOT NULL,           -- where the row starts (a table's row number)
    ext_id TEXT,                       -- the row's id when it could be read
    reason TEXT NOT NULL,
    raw    TEXT,                       -- the row as read, cut to 200 bytes
    UNIQUE (set_id, source, line, reason, raw)  -- re-ingesting a file records nothing twice
);

CREATE VIEW result_view AS
SELECT r.run_id, s.name AS set_name, i.ext_id, i.n, r.variant, r.value, r.first_score, r.second_score,
       r.winner, r.moves, r.error, u.algo, u.moves_policy, u.solver_version, r.instance_id, u.label
FROM result AS r
JOIN run AS u ON u.id = r.run_id
JOIN instance AS i ON i.id = r.instance_id
JOIN instance_set AS s ON s.id = i.set_id;
