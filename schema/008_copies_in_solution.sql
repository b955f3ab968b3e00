-- Schema version 8 (the file after 007_*.sql): result_view reads no
-- instance, and a GROUP BY winner sorts one column, not six.
--
-- Every row of result_view joined `instance` for its set, ext_id and n, and
-- an instance row is a few hundred bytes (it holds the coins): a query over
-- a whole run read each of them, and SQLite 3.40 never drops a join from an
-- aggregate query.  So `solution` now keeps copies of its instance's set_id,
-- ext_id and n, with an index on ext_id; the views read them there.  And
-- the winner a view shows is stored, two bits per variant, in `outcome`: a
-- GROUP BY or ORDER BY on winner sorts rows of every column the winner
-- reads, which were six.  The copies are coinrow's to keep true: every
-- writer of solution writes them (src/store/runs.c), check-db holds each to
-- what it copies (src/store/check.c), and the triggers of result keep
-- `outcome` when a user edits results.

DROP VIEW result_view;
DROP VIEW result;
PRAGMA legacy_alter_table = ON;
ALTER TABLE solution RENAME TO solution_v7;
PRAGMA legacy_alter_table = OFF;

-- One row per instance solved in a run, committed with the rest of the
-- instance's results: an instance is solved in a run exactly when it has a
-- row here.  A game's columns are NULL when no variant of the row reads it.
CREATE TABLE solution (
    run_id                 INTEGER NOT NULL REFERENCES run (id),
    instance_id            INTEGER NOT NULL REFERENCES instance (id),
    set_id                 INTEGER NOT NULL, -- copies of its instance's set_id, ext_id and n
    ext_id                 TEXT NOT NULL,
    n                      INTEGER NOT NULL,
    variants               INTEGER NOT NULL, -- the variants solved: bits 1 << variant.code
    extra                  INTEGER NOT NULL, -- those of them kept whole in result_extra
    outcome                INTEGER NOT NULL, -- each variant's winner, as `result` shows it, in bits
                                             -- 2 * code and up: 1 first, 2 second, 3 draw, 0 anything
                                             -- else (NULL, or a text of the user's in result_extra)
    first_score            INTEGER,          -- the standard game (total, diff, winner):
    second_score           INTEGER,          -- each player's coin total along its line
    moves                  TEXT,             -- the line, 'L'/'R' per turn; NULL with --moves none
    remaining_first_score  INTEGER,          -- the remaining-sum game (remaining):
    remaining_second_score INTEGER,          -- each player's score along its line
    remaining_moves        TEXT,
    PRIMARY KEY (run_id, instance_id)
) WITHOUT ROWID;

-- A solution row's instance must be there to be copied: a database whose
-- results lost their instance is not upgraded, rather than losing those
-- results.  The message says what to do: check-db reads only the current
-- schema.
CREATE TEMP TABLE upgrade_check (
    rows_without_instance INTEGER NOT NULL
        CONSTRAINT "solution rows without their instance: restore those instances, or delete the rows (DELETE FROM solution WHERE instance_id NOT IN (SELECT id FROM instance)), and upgrade again"
        CHECK (rows_without_instance = 0)
);
INSERT INTO upgrade_check
SELECT count(*) FROM solution_v7 AS s WHERE NOT EXISTS (SELECT 1 FROM instance AS i WHERE i.id = s.instance_id);
DROP TABLE upgrade_check;

-- Every row as it was, with its copies and its outcome (a winner kept whole
-- in result_extra counts as it reads there).  In key order, so that the
-- new table is written from its start to its end.
INSERT INTO solution (run_id, instance_id, set_id, ext_id, n, variants, extra, outcome, first_score, second_score,
                      moves, remaining_first_score, remaining_second_score, remaining_moves)
SELECT s.run_id, s.instance_id, i.set_id, i.ext_id, i.n, s.variants, s.extra,
       (SELECT coalesce(sum(CASE WHEN s.extra >> v.code & 1
                                 THEN (SELECT CASE x.winner WHEN 'first' THEN 1 WHEN 'second' THEN 2
                                                            WHEN 'draw' THEN 3 ELSE 0 END
                                       FROM result_extra AS x WHERE x.run_id = s.run_id
                                        AND x.instance_id = s.instance_id AND x.variant = v.name)
                                 WHEN v.code = 2 THEN CASE WHEN s.remaining_first_score > s.remaining_second_score
                                                           THEN 1
                                                           WHEN s.remaining_first_score < s.remaining_second_score
                                                           THEN 2 ELSE 3 END
                                 WHEN s.first_score > s.second_score THEN 1
                                 WHEN s.first_score < s.second_score THEN 2 ELSE 3 END << 2 * v.code), 0)
        FROM variant AS v WHERE s.variants >> v.code & 1),
       s.first_score, s.second_score, s.moves, s.remaining_first_score, s.remaining_second_score, s.remaining_moves
FROM solution_v7 AS s JOIN instance AS i ON i.id = s.instance_id
ORDER BY s.run_id, s.instance_id;

-- Its pages hold what the new table holds: zeroing them as they are freed
-- (Debian's SQLite has secure_delete on) would write them once more.
PRAGMA secure_delete = FAST;
DROP TABLE solution_v7;

-- One instance by its ext_id, in every run, without reading `instance`.
CREATE INDEX solution_ext_id ON solution (ext_id);

-- result's rows with their instance's copies: result and result_view are
-- each a choice of its columns, so that the two give the same rows from
-- one text, and a query on either reads `solution` alone.
--
-- One row per instance and variant, as the table of version 3 had them.
-- A variant's value is its game's first score (total), the difference of
-- the scores (diff, remaining) or its sign (winner); its winner is who
-- scores more.  One SELECT, not a UNION, so that SQLite can push a query's
-- conditions into it: run_id and variant use the keys, and joins need no
-- temporary table.  coinrow reads the two tables itself and derives the same
-- rows in C (src/store/runs.c); a test holds the two to each other.
--
-- It is written for what SQLite does with each row: a row kept whole (its
-- bit in s.extra, rarely set) is looked up in result_extra only then, not
-- joined to every row; the CROSS JOIN has SQLite read a solution row once
-- and give its variants from it, not read the run once per variant; each
-- column reads the fewest columns it can, since a GROUP BY or ORDER BY
-- sorts rows of every column its terms read (winner reads outcome alone,
-- but for a text of the user's).
CREATE VIEW result_full AS
SELECT s.run_id, s.instance_id, v.name AS variant,
       CASE WHEN s.extra AND s.extra & (1 << v.code)
            THEN (SELECT x.value FROM result_extra AS x
                  WHERE x.run_id = s.run_id AND x.instance_id = s.instance_id AND x.variant = v.name)
            WHEN v.code = 0 THEN s.first_score
            WHEN v.code = 1 THEN s.first_score - s.second_score
            WHEN v.code = 2 THEN s.remaining_first_score - s.remaining_second_score
            ELSE (s.first_score > s.second_score) - (s.first_score < s.second_score) END AS value,
       CASE WHEN s.extra AND s.extra & (1 << v.code)
            THEN (SELECT x.first_score FROM result_extra AS x
                  WHERE x.run_id = s.run_id AND x.instance_id = s.instance_id AND x.variant = v.name)
            WHEN v.code = 2 THEN s.remaining_first_score ELSE s.first_score END AS first_score,
       CASE WHEN s.extra AND s.extra & (1 << v.code)
            THEN (SELECT x.second_score FROM result_extra AS x
                  WHERE x.run_id = s.run_id AND x.instance_id = s.instance_id AND x.variant = v.name)
            WHEN v.code = 2 THEN s.remaining_second_score ELSE s.second_score END AS second_score,
       CASE s.outcome >> 2 * v.code & 3 WHEN 1 THEN 'first' WHEN 2 THEN 'second' WHEN 3 THEN 'draw'
            ELSE (SELECT x.winner FROM result_extra AS x
                  WHERE x.run_id = s.run_id AND x.instance_id = s.instance_id AND x.variant = v.name) END AS winner,
       CASE WHEN s.extra AND s.extra & (1 << v.code)
            THEN (SELECT x.moves FROM result_extra AS x
                  WHERE x.run_id = s.run_id AND x.instance_id = s.instance_id AND x.variant = v.name)
            WHEN v.code = 2 THEN s.remaining_moves ELSE s.moves END AS moves,
       CASE WHEN s.extra AND s.extra & (1 << v.code)
            THEN (SELECT x.error FROM result_extra AS x
                  WHERE x.run_id = s.run_id AND x.instance_id = s.instance_id AND x.variant = v.name) END AS error,
       s.set_id, s.ext_id, s.n
FROM solution AS s CROSS JOIN variant AS v
WHERE s.variants & (1 << v.code);

CREATE VIEW result AS
SELECT run_id, instance_id, variant, value, first_score, second_score, winner, moves, error FROM result_full;

CREATE VIEW result_view AS
SELECT r.run_id, t.name AS set_name, r.ext_id, r.n, r.variant, r.value, r.first_score, r.second_score,
       r.winner, r.moves, r.error, u.algo, u.moves_policy, u.solver_version, r.instance_id, u.label
FROM result_full AS r
JOIN run AS u ON u.id = r.run_id
JOIN instance_set AS t ON t.id = r.set_id;

-- Editing result edits the tables under it: an updated row is kept whole in
-- result_extra, and its winner counted in outcome; a deleted one leaves its
-- solution row, which goes with the instance's last variant.
CREATE TRIGGER result_update INSTEAD OF UPDATE ON result
BEGIN
    SELECT raise(ABORT, 'a result keeps its run_id, instance_id and variant')
    WHERE (NEW.run_id, NEW.instance_id, NEW.variant) IS NOT (OLD.run_id, OLD.instance_id, OLD.variant);
    INSERT OR REPLACE INTO result_extra (run_id, instance_id, variant, value, first_score, second_score, winner,
                                         moves, error)
    VALUES (NEW.run_id, NEW.instance_id, NEW.variant, NEW.value, NEW.first_score, NEW.second_score, NEW.winner,
            NEW.moves, NEW.error);
    UPDATE solution SET extra = extra | (1 << v.code),
                        outcome = outcome & ~(3 << 2 * v.code)
                                  | (coalesce(CASE NEW.winner WHEN 'first' THEN 1 WHEN 'second' THEN 2
                                                              WHEN 'draw' THEN 3 END, 0) << 2 * v.code)
    FROM variant AS v
    WHERE v.name = NEW.variant AND run_id = NEW.run_id AND instance_id = NEW.instance_id;
END;

CREATE TRIGGER result_delete INSTEAD OF DELETE ON result
BEGIN
    DELETE FROM result_extra WHERE run_id = OLD.run_id AND instance_id = OLD.instance_id AND variant = OLD.variant;
    UPDATE solution SET variants = variants & ~(1 << v.code), extra = extra & ~(1 << v.code),
                        outcome = outcome & ~(3 << 2 * v.code)
    FROM variant AS v
    WHERE v.name = OLD.variant AND run_id = OLD.run_id AND instance_id = OLD.instance_id;
    DELETE FROM solution WHERE run_id = OLD.run_id AND instance_id = OLD.instance_id AND variants = 0;
END;

-- What the planner knows of the new index's shape (schema/007_lines_as_text.sql
-- says why it needs figures): an ext_id is in a few runs, once in each.
-- ANALYZE replaces them with the database's own.
INSERT INTO sqlite_stat1 (tbl, idx, stat)
SELECT 'solution', 'solution_ext_id', '1000000 2 1 1'
WHERE NOT EXISTS (SELECT 1 FROM sqlite_stat1 WHERE idx = 'solution_ext_id');
