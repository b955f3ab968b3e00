-- Schema version 2: a generated set keeps the arguments of the generate that
-- made it, so that it can be made again and audited, and so that export can
-- tell the judges what its inputs promise.

-- A JSON object written by coinrow generate:
--   {"count":12,"n_min":4,"n_max":9,"value_min":-5,"value_max":20,
--    "even_n":false,"odd_sum":false,"profile":"random","seed":7}
-- NULL for a set made by ingest or run.  The set's source holds the same
-- arguments as the command line that makes the set again.
ALTER TABLE instance_set ADD COLUMN generator TEXT;
