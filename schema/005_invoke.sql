-- Schema version 5 (the file after 004_*.sql): judging programs against a
-- set (coinrow invoke), built-in strategies among them, and comparing two
-- such judgements (coinrow compare --invocations).

-- One judgement of a program (or a built-in strategy) on every instance of a
-- set.  Like a run it resumes after a stop (invoke --resume): an instance is
-- judged exactly when it has a row in verdict.
CREATE TABLE invocation (
    id              INTEGER PRIMARY KEY,
    set_id          INTEGER NOT NULL REFERENCES instance_set (id),
    variant         TEXT NOT NULL,      -- total, diff, remaining or winner: what the answers hold
    command         TEXT,               -- the program and its arguments as given, a JSON array of
                                        -- strings; NULL for a built-in
    builtin         TEXT,               -- greedy, left, parity or lookahead2; NULL for a program
    directory       TEXT,               -- the folder the command ran in
    label           TEXT,               -- e.g. accepted, wrong_answer, time_limit_exceeded (export)
    moves_policy    TEXT NOT NULL,      -- required or ignored: whether an answer carries the line
    time_limit      REAL,               -- CPU seconds (the wall clock gets twice that); NULL for a built-in
    memory_limit    INTEGER,            -- MiB of address space; NULL for a built-in
    output_limit    INTEGER,            -- MiB of standard output; NULL for a built-in
    jobs            INTEGER NOT NULL,   -- programs run at once
    answers_run     INTEGER NOT NULL REFERENCES run (id),
    coinrow_version TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted', 'failed')),
    started_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    finished_at     TEXT,
    message         TEXT,               -- why it failed
    seconds         REAL,               -- time spent judging, summed over resumes
    -- the solver's side, over the verdicts so far
    cpu_seconds     REAL NOT NULL DEFAULT 0,  -- summed
    wall_seconds    REAL NOT NULL DEFAULT 0,  -- summed
    peak_rss_kib    INTEGER,                  -- the largest; NULL for a built-in
    -- wait4 counts in a program's peak memory the process before exec:
    -- coinrow's own resident size then, at most this much.  A verdict's
    -- peak_rss_kib at or below it says "no more than this".
    rss_floor_kib   INTEGER
);

-- One row per instance judged.
CREATE TABLE verdict (
    invocation_id INTEGER NOT NULL REFERENCES invocation (id),
    instance_id   INTEGER NOT NULL REFERENCES instance (id),
    verdict       TEXT NOT NULL,        -- AC, WA, PE, TLE, MLE, RE or OLE
    cpu_seconds   REAL NOT NULL,        -- user + system, from wait4
    wall_seconds  REAL NOT NULL,
    peak_rss_kib  INTEGER,              -- from wait4; NULL for a built-in
    exit_code     INTEGER,              -- NULL when a signal ended it (and for a built-in)
    signal        TEXT,                 -- SIGSEGV, SIGABRT, SIGKILL, ...; NULL for none
    message       TEXT NOT NULL,        -- what ended it, and the checker's message (safe text)
    stderr        TEXT,                 -- its first bytes of standard error (safe text)
    PRIMARY KEY (invocation_id, instance_id)
) WITHOUT ROWID;

CREATE VIEW verdict_view AS
SELECT v.invocation_id, s.name AS set_name, i.ext_id, i.n, v.verdict, v.cpu_seconds, v.wall_seconds,
       v.peak_rss_kib, v.exit_code, v.signal, v.message, v.stderr, u.variant, u.label,
       coalesce(u.builtin, u.command) AS program, v.instance_id
FROM verdict AS v
JOIN invocation AS u ON u.id = v.invocation_id
JOIN instance AS i ON i.id = v.instance_id
JOIN instance_set AS s ON s.id = i.set_id;

-- compare --invocations --record keeps its history in comparison too: kind
-- says which, and run_a and run_b are then invocation ids.  For invocations
-- same counts equal verdicts, regression AC turned into another verdict,
-- improved another verdict turned into AC, changed one failing verdict into
-- another, missing instances judged on one side only; equivalent is 0.
ALTER TABLE comparison ADD COLUMN kind TEXT NOT NULL DEFAULT 'runs';   -- runs or invocations
ALTER TABLE comparison ADD COLUMN improved INTEGER;                    -- NULL for runs
