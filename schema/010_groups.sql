-- Schema version 10 (the file after 009_*.sql): a set's tests in named
-- groups, the subtasks of olympiads and of the judges' scoring formats.
--
-- A group of a set has its points, its constraints (what every test of it
-- meets: an n range, a value range and properties), the groups it depends
-- on (a judge scores it only when they pass) and its tests.  A test is in
-- one group at most, and every test of a set with groups is in one of them
-- once `generate --group` has finished with it.  A set without groups has
-- no rows here and is what it was before.  What the tables cannot enforce
-- (a test breaking its group's constraints, a dependency on a group of
-- another set, a cycle of dependencies) check-db does.

CREATE TABLE test_group (
    id        INTEGER PRIMARY KEY,
    set_id    INTEGER NOT NULL REFERENCES instance_set (id),
    name      TEXT NOT NULL CHECK (name <> '' AND name NOT GLOB '*[^A-Za-z0-9_]*'),
    position  INTEGER NOT NULL,      -- its place in the set's order: 1, 2, ... as made
    points    INTEGER NOT NULL CHECK (points >= 0),
    n_min     INTEGER NOT NULL,      -- every test has n_min <= n <= n_max
    n_max     INTEGER NOT NULL,
    value_min INTEGER NOT NULL,      -- and its coins in value_min..value_max
    value_max INTEGER NOT NULL,
    all_equal INTEGER NOT NULL DEFAULT 0 CHECK (all_equal IN (0, 1)), -- its coins are all equal
    even_n    INTEGER NOT NULL DEFAULT 0 CHECK (even_n IN (0, 1)),    -- n is even
    odd_sum   INTEGER NOT NULL DEFAULT 0 CHECK (odd_sum IN (0, 1)),   -- its coins add up to an odd number
    CHECK (1 <= n_min AND n_min <= n_max AND value_min <= value_max),
    UNIQUE (set_id, name),
    UNIQUE (set_id, position)
);

-- Group group_id depends on group depends_on, of the same set.
CREATE TABLE test_group_dependency (
    group_id   INTEGER NOT NULL REFERENCES test_group (id),
    depends_on INTEGER NOT NULL REFERENCES test_group (id) CHECK (depends_on <> group_id),
    PRIMARY KEY (group_id, depends_on)
) WITHOUT ROWID;

-- The tests of each group: an instance of its set, in one group at most.
CREATE TABLE test_group_instance (
    instance_id INTEGER PRIMARY KEY REFERENCES instance (id),
    group_id    INTEGER NOT NULL REFERENCES test_group (id)
);
CREATE INDEX test_group_instance_by_group ON test_group_instance (group_id, instance_id);

-- The calls of `generate --group` that made a group's tests, in order: the
-- generator's arguments as instance_set.generator keeps a set's.  Call k
-- names its tests GROUP-01, GROUP-02 ... for k = 1 and GROUP-k-01 ... after
-- it, so that the same call again finds its tests and adds none.
CREATE TABLE test_group_generator (
    group_id  INTEGER NOT NULL REFERENCES test_group (id),
    call      INTEGER NOT NULL CHECK (call >= 1),
    generator TEXT NOT NULL,
    PRIMARY KEY (group_id, call),
    UNIQUE (group_id, generator)
) WITHOUT ROWID;

-- Each group as a setter reads it: its set, place, points, constraints,
-- the groups it depends on (a comma list in their order) and its tests.
CREATE VIEW test_group_view AS
SELECT s.name AS set_name, g.name AS group_name, g.position, g.points, g.n_min, g.n_max, g.value_min, g.value_max,
       g.all_equal, g.even_n, g.odd_sum,
       (SELECT group_concat(name, ',') FROM (SELECT d.name FROM test_group_dependency AS e
                                             JOIN test_group AS d ON d.id = e.depends_on
                                             WHERE e.group_id = g.id ORDER BY d.position)) AS depends,
       (SELECT count(*) FROM test_group_instance AS t WHERE t.group_id = g.id) AS tests,
       g.set_id, g.id AS group_id
FROM test_group AS g JOIN instance_set AS s ON s.id = g.set_id;

-- The points of each invocation of a set with groups, group by group, as
-- Polygon's complete-group policy gives them: a group is passed when it
-- has tests, every one of them is judged AC, and every group it depends on
-- (and theirs, through the chain) is passed too; a passed group scores its
-- points, another 0.  An invocation still running, or stopped, scores only
-- what it has judged.  tests: the group's; judged: those of them with a
-- verdict; accepted: those AC.
CREATE VIEW invocation_group_points AS
SELECT invocation_id, set_name, group_name, position, points, tests, judged, accepted, passed,
       CASE WHEN passed THEN points ELSE 0 END AS scored, set_id, group_id
FROM (
    SELECT u.id AS invocation_id, s.name AS set_name, g.name AS group_name, g.position, g.points,
           (SELECT count(*) FROM test_group_instance AS t WHERE t.group_id = g.id) AS tests,
           (SELECT count(*) FROM test_group_instance AS t JOIN verdict AS v ON v.invocation_id = u.id
            AND v.instance_id = t.instance_id WHERE t.group_id = g.id) AS judged,
           (SELECT count(*) FROM test_group_instance AS t JOIN verdict AS v ON v.invocation_id = u.id
            AND v.instance_id = t.instance_id WHERE t.group_id = g.id AND v.verdict = 'AC') AS accepted,
           -- no group in its chain of dependencies (itself first) is empty or has a test not AC
           NOT EXISTS (
               WITH RECURSIVE needs (id) AS (
                   SELECT g.id UNION SELECT d.depends_on FROM needs AS n JOIN test_group_dependency AS d
                                     ON d.group_id = n.id)
               SELECT 1 FROM needs AS n
               WHERE NOT EXISTS (SELECT 1 FROM test_group_instance AS t WHERE t.group_id = n.id)
                  OR EXISTS (SELECT 1 FROM test_group_instance AS t LEFT JOIN verdict AS v
                             ON v.invocation_id = u.id AND v.instance_id = t.instance_id
                             WHERE t.group_id = n.id AND v.verdict IS NOT 'AC')) AS passed,
           g.set_id, g.id AS group_id
    FROM invocation AS u JOIN test_group AS g ON g.set_id = u.set_id JOIN instance_set AS s ON s.id = g.set_id);

-- Each invocation's points in all, over its set's groups (no row for a set
-- without groups): the points there are, those scored, the groups and
-- those passed.
CREATE VIEW invocation_points AS
SELECT invocation_id, set_name, sum(points) AS points, sum(scored) AS scored, count(*) AS groups,
       sum(passed) AS groups_passed, set_id
FROM invocation_group_points GROUP BY invocation_id, set_id, set_name;
