/* The SQL of the files in schema/, embedded at build time by
 * scripts/embed-schema.sh.
 * Script k (0-based) brings a database from schema version k to k + 1;
 * PRAGMA user_version holds the version. */
#ifndef CR_STORE_SCHEMA_H
#define CR_STORE_SCHEMA_H

extern const char *const cr_schema_scripts[];
extern const int cr_schema_count;

#endif
