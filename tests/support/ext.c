#include "support/ext.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/run.h"

const char *ext_path(void)
{
    static char path[4096];
    const char *bin = run_bin(), *slash = strrchr(bin, '/');
    snprintf(path, sizeof path, "%.*s%scoinrow.so", slash ? (int)(slash - bin) : 0, bin, slash ? "/" : "");
    return path;
}

sqlite3 *ext_open(void)
{
    sqlite3 *db = NULL;
    char *error = NULL;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_enable_load_extension(db, 1), SQLITE_OK);
    if (sqlite3_load_extension(db, ext_path(), NULL, &error) != SQLITE_OK)
        fail_msg("cannot load %s: %s", ext_path(), error ? error : "?");
    return db;
}

void ext_host_env(void)
{
#if defined(__SANITIZE_ADDRESS__)
    /* the runtime this test runs with, as mapped into it */
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4096];
    while (maps && fgets(line, sizeof line, maps)) {
        char *path = strchr(line, '/');
        if (path && strstr(path, "/libasan.so")) {
            path[strcspn(path, "\n")] = '\0';
            setenv("LD_PRELOAD", path, 1);
            setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
            break;
        }
    }
    if (maps)
        fclose(maps);
#endif
}
