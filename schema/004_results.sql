-- Schema version 4: one row per instance and run for all its variants.
--
-- total, diff and winner are read off one solution of the standard game, and
-- remaining off one of the remaining-sum game, so a run keeps each game's two
-- scores and line once, in a row of `solution`, and the view `result` gives
-- the rows the table `result` used to hold (same columns, same meaning).  A
-- row that the two games do not give as they stand (one with an error, a
-- figure that does not fit in int64; or, upgraded from version 3, one that
-- disagrees with its game's other variants) is kept whole in `result_extra`.
--
-- A line is kept packed, one bit per turn: the blob's bits, most significant
-- first, are zeros, a 1, then one bit per turn, 1 for R and 0 for L, in the
-- fewest bytes that hold them (n / 8 + 1).  So each hex digit of hex(moves)
-- after the leading 1 is four turns: LRRL is 0001 0110, x'16'.  The views
-- turn it back into text.

DROP VIEW result_view;
ALTER TABLE result RENAME TO result_v3;

-- The variants' codes: bit (1 << code) of solution.variants and .extra.
CREATE TABLE variant (
    code INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
INSERT INTO variant (code, name) VALUES (0, 'total'), (1, 'diff'), (2, 'remaining'), (3, 'winner');

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
    moves                  BLOB,             -- the line, packed; NULL with --moves none
    remaining_first_score  INTEGER,          -- the remaining-sum game (remaining):
    remaining_second_score INTEGER,          -- each player's score along its line
    remaining_moves        BLOB,
    PRIMARY KEY (run_id, instance_id)
) WITHOUT ROWID;

-- Result rows kept as they read, for the variants in solution.extra.
CREATE TABLE result_extra (
    run_id       INTEGER NOT NULL REFERENCES run (id),
    instance_id  INTEGER NOT NULL REFERENCES instance (id),
    variant      TEXT NOT NULL,        -- total, diff, remaining or winner
    value        INTEGER,
    first_score  INTEGER,
    second_score INTEGER,
    winner       TEXT,                 -- first, second or draw
    moves        TEXT,                 -- 'L'/'R' per turn
    error        TEXT,                 -- why a figure is missing (NULL)
    PRIMARY KEY (run_id, instance_id, variant)
) WITHOUT ROWID;

-- One row per instance and variant, as the table of version 3 had them.
-- A variant's value is its game's first score (total), the difference of
-- the scores (diff, remaining) or its sign (winner); its winner is who
-- scores more.  One SELECT, not a UNION, so that SQLite can push a query's
-- conditions into it: run_id and variant use the keys, and joins need no
-- temporary table.  coinrow reads the two tables itself and derives the same
-- rows in C (src/store/runs.c); a test holds the two to each other.
CREATE VIEW result AS
SELECT run_id, instance_id, variant,
       iif(kept, x_value, CASE variant WHEN 'total' THEN first
                                       WHEN 'winner' THEN (first > second) - (first < second)
                                       ELSE first - second END) AS value,
       iif(kept, x_first_score, first) AS first_score,
       iif(kept, x_second_score, second) AS second_score,
       iif(kept, x_winner, CASE WHEN first > second THEN 'first' WHEN first < second THEN 'second'
                                ELSE 'draw' END) AS winner,
       iif(kept, x_moves, substr(ltrim(
           replace(replace(replace(replace(replace(replace(replace(replace(
           replace(replace(replace(replace(replace(replace(replace(replace(nullif(hex(line), ''),
               '0', 'LLLL'), '1', 'LLLR'), '2', 'LLRL'), '3', 'LLRR'),
               '4', 'LRLL'), '5', 'LRLR'), '6', 'LRRL'), '7', 'LRRR'),
               '8', 'RLLL'), '9', 'RLLR'), 'A', 'RLRL'), 'B', 'RLRR'),
               'C', 'RRLL'), 'D', 'RRLR'), 'E', 'RRRL'), 'F', 'RRRR'),
           'L'), 2)) AS moves,
       x_error AS error
FROM (SELECT s.run_id, s.instance_id, v.name AS variant, s.extra & (1 << v.code) AS kept,
             iif(v.code = 2, s.remaining_first_score, s.first_score) AS first,
             iif(v.code = 2, s.remaining_second_score, s.second_score) AS second,
             iif(v.code = 2, s.remaining_moves, s.moves) AS line,
             x.value AS x_value, x.first_score AS x_first_score, x.second_score AS x_second_score,
             x.winner AS x_winner, x.moves AS x_moves, x.error AS x_error
      FROM solution AS s
      JOIN variant AS v ON s.variants & (1 << v.code)
      LEFT JOIN result_extra AS x ON s.extra & (1 << v.code) AND x.run_id = s.run_id
                                  AND x.instance_id = s.instance_id AND x.variant = v.name);

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

CREATE VIEW result_view AS
SELECT r.run_id, s.name AS set_name, i.ext_id, i.n, r.variant, r.value, r.first_score, r.second_score,
       r.winner, r.moves, r.error, u.algo, u.moves_policy, u.solver_version, r.instance_id, u.label
FROM result AS r
JOIN run AS u ON u.id = r.run_id
JOIN instance AS i ON i.id = r.instance_id
JOIN instance_set AS s ON s.id = i.set_id;

-- The rows of version 3: each game's figures from one of its rows without an
-- error (coinrow_pack_line is coinrow's own, registered while it upgrades) ...
INSERT INTO solution (run_id, instance_id, variants, extra, first_score, second_score, moves,
                      remaining_first_score, remaining_second_score, remaining_moves)
SELECT r.run_id, r.instance_id, sum(1 << v.code), 0,
       min(r.first_score) FILTER (WHERE v.code <> 2 AND r.error IS NULL),
       min(r.second_score) FILTER (WHERE v.code <> 2 AND r.error IS NULL),
       coinrow_pack_line(min(r.moves) FILTER (WHERE v.code <> 2 AND r.error IS NULL)),
       min(r.first_score) FILTER (WHERE v.code = 2 AND r.error IS NULL),
       min(r.second_score) FILTER (WHERE v.code = 2 AND r.error IS NULL),
       coinrow_pack_line(min(r.moves) FILTER (WHERE v.code = 2 AND r.error IS NULL))
FROM result_v3 AS r JOIN variant AS v ON v.name = r.variant
GROUP BY r.run_id, r.instance_id;

-- ... and, whole, every row that these do not give as it was ...
INSERT INTO result_extra
SELECT o.run_id, o.instance_id, o.variant, o.value, o.first_score, o.second_score, o.winner, o.moves, o.error
FROM result_v3 AS o JOIN result AS r USING (run_id, instance_id, variant)
WHERE (o.value, o.first_score, o.second_score, o.winner, o.moves, o.error)
      IS NOT (r.value, r.first_score, r.second_score, r.winner, r.moves, r.error);

UPDATE solution SET extra = x.bits
FROM (SELECT e.run_id, e.instance_id, sum(1 << v.code) AS bits
      FROM result_extra AS e JOIN variant AS v ON v.name = e.variant GROUP BY 1, 2) AS x
WHERE solution.run_id = x.run_id AND solution.instance_id = x.instance_id;

-- ... checked row by row before the old table goes: a row lost or gained
-- fails the upgrade, which then changes nothing.
CREATE TEMP TABLE upgrade_check (
    rows_differing INTEGER NOT NULL CONSTRAINT "the upgrade would change result rows" CHECK (rows_differing = 0)
);
INSERT INTO upgrade_check
SELECT (SELECT count(*) FROM result) - (SELECT count(*) FROM result_v3)
UNION ALL
SELECT count(*) FROM result_v3 AS o
WHERE NOT EXISTS (SELECT 1 FROM result AS r
                  WHERE r.run_id = o.run_id AND r.instance_id = o.instance_id AND r.variant = o.variant
                    AND (r.value, r.first_score, r.second_score, r.winner, r.moves, r.error)
                        IS (o.value, o.first_score, o.second_score, o.winner, o.moves, o.error));
DROP TABLE upgrade_check;
-- Its pages hold what the new tables hold: zeroing them as they are freed
-- (Debian's SQLite has secure_delete on) would write the table once more
-- and keep it in memory until the commit.
PRAGMA secure_delete = FAST;
DROP TABLE result_v3;
