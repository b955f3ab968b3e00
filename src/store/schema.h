/* The SQL of the files in schema/, embedded at build time by
 * scripts/embed-schema.sh, and the current schema flattened from them.
 * Script k (0-based) brings a database from schema version k to k + 1;
 * PRAGMA user_version holds the version. */
#ifndef CR_STORE_SCHEMA_H
#define CR_STORE_SCHEMA_H

extern const char *const cr_schema_scripts[];
extern const int cr_schema_count;
/* What the chain makes of an empty database, as one script that makes it
 * in one go (src/store/flatten/main.c): a new database's schema. */
extern const char cr_schema_current[];

#endif
