-- Schema version 6 (the file after 005_*.sql): whether an invocation runs
-- its program inside the sandbox (coinrow invoke --sandbox), so that
-- --resume runs it there too.  Invocations from before it ran without.
ALTER TABLE invocation ADD COLUMN sandbox INTEGER NOT NULL DEFAULT 0;  -- 1: inside bubblewrap
