/* Opening an SQLite database: one way, hardened, for the store, the
 * --from-db reader and whatever opens one next. */
#include "util/util.h"

#include <sqlite3.h>

int cr_db_open(struct sqlite3 **out, const char *path, int flags)
{
    int rc = sqlite3_open_v2(path, out, flags, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_extended_result_codes(*out, 1);
    /* a file's schema may hold triggers and views that run with every
     * statement: they may not call what is not innocuous, nor may any
     * statement corrupt the file on purpose */
    rc = sqlite3_db_config(*out, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_db_config(*out, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(*out, "PRAGMA cell_size_check = ON", NULL, NULL, NULL);
    return rc;
}
