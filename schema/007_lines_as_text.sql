-- Schema version 7 (the file after 006_*.sql): results that SQLite reads
-- as fast as a plain table.
--
-- A line of play is kept as text again, one 'L' or 'R' per turn, the text
-- the views show: version 4 packed it a bit per turn, and the views turned
-- it back with hex() and sixteen replace()s, about 4 µs a line, which made
-- a query that reads lines several times slower than the same rows in a
-- table.  `solution` keeps its one row per instance solved in a run, and
-- result_extra its rows kept whole; the views `result` and `result_view`
-- keep their names, columns and meaning (result_view, made of result, is
-- left as it is).

-- The old table makes way for the new one under its name.  A legacy rename
-- leaves what refers to `solution` (a view of the user's own, say) referring
-- to the table of that name, the new one, which has the same columns.  The
-- view result is made again below; its triggers go with it.
DROP VIEW result;
PRAGMA legacy_alter_table = ON;
ALTER TABLE solution RENAME TO solution_v5;
PRAGMA legacy_alter_table = OFF;

-- One row per instance solved in a run, committed with the rest of the
-- instance's results: an instance is solved in a run exactly when it has a
-- row here.  A game's columns are NULL when no variant of the row reads it.
CREATE TABLE solution (
    run_id                 INTEGER NOT NULL REFERENCES run (id),
    instance_id            INTEGER NOT NULL REFERENCES instance (id),
    variants               INTEGER NOT NULL, -- the variants solved: bits 1 << variant.code
    extra                  INTEGER NOT NULL, -- those of them kept whole in result_extra
    first_score            INTEGER,          -- the standard game (total, diff, winner):
    second_score           INTEGER,          -- each player's coin total along its line
    moves                  TEXT,             -- the line, 'L'/'R' per turn; NULL with --moves none
    remaining_first_score  INTEGER,          -- the remaining-sum game (remaining):
    remaining_second_score INTEGER,          -- each player's score along its line
    remaining_moves        TEXT,
    PRIMARY KEY (run_id, instance_id)
) WITHOUT ROWID;

-- Every row as it was, each line as the views of versions 4 to 6 showed it
-- (coinrow_line_text is coinrow's own, registered while it upgrades, and
-- gives what their hex() and replace()s gave, for any blob).  In key order,
-- so that the new table is written from its start to its end.
INSERT INTO solution (run_id, instance_id, variants, extra, first_score, second_score, moves,
                      remaining_first_score, remaining_second_score, remaining_moves)
SELECT run_id, instance_id, variants, extra, first_score, second_score, coinrow_line_text(moves),
       remaining_first_score, remaining_second_score, coinrow_line_text(remaining_moves)
FROM solution_v5 ORDER BY run_id, instance_id;

-- Its pages hold what the new table holds: zeroing them as they are freed
-- (Debian's SQLite has secure_delete on) would write them once more.
PRAGMA secure_delete = FAST;
DROP TABLE solution_v5;

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
-- sorts rows of every column its terms read.
CREATE VIEW result AS
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
       CASE WHEN s.extra AND s.extra & (1 << v.code)
            THEN (SELECT x.winner FROM result_extra AS x
                  WHERE x.run_id = s.run_id AND x.instance_id = s.instance_id AND x.variant = v.name)
            WHEN v.code = 2 THEN CASE WHEN s.remaining_first_score > s.remaining_second_score THEN 'first'
                                      WHEN s.remaining_first_score < s.remaining_second_score THEN 'second'
                                      ELSE 'draw' END
            WHEN s.first_score > s.second_score THEN 'first'
            WHEN s.first_score < s.second_score THEN 'second' ELSE 'draw' END AS winner,
       CASE WHEN s.extra AND s.extra & (1 << v.code)
            THEN (SELECT x.moves FROM result_extra AS x
                  WHERE x.run_id = s.run_id AND x.instance_id = s.instance_id AND x.variant = v.name)
            WHEN v.code = 2 THEN s.remaining_moves ELSE s.moves END AS moves,
       CASE WHEN s.extra AND s.extra & (1 << v.code)
            THEN (SELECT x.error FROM result_extra AS x
                  WHERE x.run_id = s.run_id AND x.instance_id = s.instance_id AND x.variant = v.name) END AS error
FROM solution AS s CROSS JOIN variant AS v
WHERE s.variants & (1 << v.code);

-- Editing result edits the tables under it: an updated row is kept whole in
-- result_extra; a deleted one leaves its solution row, which goes with the
-- instance's last variant.
CREATE TRIGGER result_update INSTEAD OF UPDATE ON result
BEGIN
    SELECT raise(ABORT, 'a result keeps its run_id, instance_id and variant')
    WHERE (NEW.run_id, NEW.instance_id, NEW.variant) IS NOT (OLD.run_id, OLD.instance_id, OLD.variant);
    INSERT OR REPLACE INTO result_extra (run_id, instance_id, variant, value, first_score, second_score, winner,
                                         moves, error)
    VALUES (NEW.run_id, NEW.instance_id, NEW.variant, NEW.value, NEW.first_score, NEW.second_score, NEW.winner,
            NEW.moves, NEW.error);
    UPDATE solution SET extra = extra | (SELECT 1 << code FROM variant WHERE name = NEW.variant)
    WHERE run_id = NEW.run_id AND instance_id = NEW.instance_id;
END;

CREATE TRIGGER result_delete INSTEAD OF DELETE ON result
BEGIN
    DELETE FROM result_extra WHERE run_id = OLD.run_id AND instance_id = OLD.instance_id AND variant = OLD.variant;
    UPDATE solution SET variants = variants & ~(SELECT 1 << code FROM variant WHERE name = OLD.variant),
                        extra = extra & ~(SELECT 1 << code FROM variant WHERE name = OLD.variant)
    WHERE run_id = OLD.run_id AND instance_id = OLD.instance_id;
    DELETE FROM solution WHERE run_id = OLD.run_id AND instance_id = OLD.instance_id AND variants = 0;
END;

-- What SQLite's query planner knows of the tables' shapes (sqlite_stat1,
-- which ANALYZE writes and reads from then on).  Without it, it takes
-- every table for a million rows: to find one instance by ext_id it then
-- scans a whole run, when looking in each of a few sets and runs takes
-- microseconds.  So: `variant` as it is (four rows); a database holds a few
-- sets, runs and invocations, and many instances, solutions and verdicts,
-- whose keys' first columns (set, run, invocation) are then worth skipping
-- through (a lookup of one instance in every run); and few results kept
-- whole.  Figures of shape, not counts: ANALYZE replaces them with the
-- database's own, which are as good, and any row already there is kept.
ANALYZE variant;
INSERT INTO sqlite_stat1 (tbl, idx, stat)
SELECT column1, column2, column3
FROM (VALUES ('instance_set', 'sqlite_autoindex_instance_set_1', '10 1'),
             ('run', NULL, '10'),
             ('invocation', NULL, '10'),
             ('instance', 'sqlite_autoindex_instance_1', '1000000 100000 1'),
             ('solution', 'solution', '1000000 100000 1'),
             ('verdict', 'verdict', '1000000 100000 1'),
             ('result_extra', 'result_extra', '1000 100 2 1'))
WHERE NOT EXISTS (SELECT 1 FROM sqlite_stat1 WHERE tbl = column1);
