/* The statement helpers of every store file (sql.h): errors in words,
 * one-off and kept statements, multi-row inserts, paged reading.  They call
 * nothing else of the store, so that every other file can call them. */
#include "store/sql.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Whether the file at path is a SQLite database in WAL mode (its header's
 * read and write versions 2), which a reader opens only beside a -shm file
 * it can make. */
static int in_wal_at_rest(const char *path)
{
    unsigned char header[20];
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(header, 1, sizeof header, f) : 0;
    if (f)
        fclose(f);
    return got == sizeof header && memcmp(header, "SQLite format 3", 16) == 0 && header[18] == 2 && header[19] == 2;
}

int cr_store__fail(cr_store *store, const char *doing, cr_error *err)
{
    int code = CR_EDB;
    const char *what;
    if (sqlite3_extended_errcode(store->db) == SQLITE_READONLY_ROLLBACK)
        return cr_errorf(err, CR_EIO, "%s: a writer stopped in the middle of a transaction and left its journal "
                                      "(%s-journal) to roll back, which a reader cannot do: any coinrow command "
                                      "that writes to it does (coinrow upgrade --db %s), then read it again",
                         store->path, store->path, store->path);
    switch (sqlite3_extended_errcode(store->db) & 0xff) {
    case SQLITE_FULL:
        what = "the disk is full", code = CR_EIO;
        break;
    case SQLITE_READONLY:
        what = "the database is read-only", code = CR_EIO;
        break;
    case SQLITE_PERM:
    case SQLITE_AUTH:
        what = "permission denied", code = CR_EIO;
        break;
    case SQLITE_CANTOPEN: /* the database, its journal, its WAL or its shared memory */
        switch (sqlite3_system_errno(store->db)) {
        case EMFILE:
        case ENFILE:
            what = "too many open files (the limit, ulimit -n, is reached)";
            break;
        case ENOSPC:
            what = "the disk is full";
            break;
        default: /* a WAL-mode file's -shm, which SQLite could not make, is missing */
            what = in_wal_at_rest(store->path)
                       ? "the file is in WAL mode, and a reader of it must make its -shm file beside it, which this "
                         "folder does not let it (copy the file to a folder it can write to)"
                       : "the file cannot be opened (missing, or no permission for it or its folder)";
            break;
        }
        code = CR_EIO;
        break;
    case SQLITE_IOERR: /* a full disk too, when SQLite was growing its WAL's shared memory */
        switch (sqlite3_system_errno(store->db)) {
        case ENOSPC:
            what = "the disk is full";
            break;
        case EDQUOT:
            what = "the disk quota is used up";
            break;
        default:
            what = "an I/O error";
            break;
        }
        code = CR_EIO;
        break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        /* in rollback mode a reader's open transaction holds a commit off too
         * (a database browser left open on the file) */
        what = "the database is locked by another connection (another coinrow writing to it, or a program "
               "reading it in a transaction?)";
        break;
    case SQLITE_NOTADB:
        what = "the file is not a SQLite database";
        break;
    case SQLITE_CORRUPT:
        what = "the database is damaged";
        break;
    case SQLITE_NOMEM:
        what = "out of memory", code = CR_ENOMEM;
        break;
    default:
        what = sqlite3_errmsg(store->db);
        break;
    }
    return cr_errorf(err, code, "%s: %s while %s", store->path, what, doing);
}

int cr_store_keep_upgrade(cr_store *s, cr_error *err)
{
    if (!s->upgrade_open)
        return 0;
    s->upgrade_open = 0;
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        int rc = cr_store__fail(s, "upgrading the schema", err);
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    s->wrote = 1;
    return 0;
}

int cr_store__exec(cr_store *s, const char *sql, const char *doing, cr_error *err)
{
    int rc = cr_store_keep_upgrade(s, err);
    if (rc)
        return rc;
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : cr_store__fail(s, doing, err);
}

int cr_store__kept(sqlite3_stmt **out, cr_store *s, int which, const char *sql, cr_error *err)
{
    if (!s->kept[which] && sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->kept[which], NULL))
        return cr_store__fail(s, "preparing a statement", err);
    *out = s->kept[which];
    return sqlite3_stmt_readonly(*out) ? 0 : cr_store_keep_upgrade(s, err);
}

int cr_store__step_done(cr_store *s, sqlite3_stmt *st, const char *doing, cr_error *err)
{
    int rc = sqlite3_step(st);
    int failed = rc != SQLITE_DONE && rc != SQLITE_ROW ? cr_store__fail(s, doing, err) : 0;
    sqlite3_reset(st);
    return failed;
}

int cr_store__prepare(sqlite3_stmt **out, cr_store *s, const char *sql, const char *doing, cr_error *err)
{
    if (sqlite3_prepare_v2(s->db, sql, -1, out, NULL) != SQLITE_OK)
        return cr_store__fail(s, doing, err);
    int rc = sqlite3_stmt_readonly(*out) ? 0 : cr_store_keep_upgrade(s, err);
    if (rc) {
        sqlite3_finalize(*out);
        *out = NULL;
    }
    return rc;
}

int cr_store__query_int(int64_t *out, cr_store *s, const char *sql, int64_t a, int64_t b, const char *doing,
                        cr_error *err)
{
    sqlite3_stmt *st = NULL;
    int rc = cr_store__prepare(&st, s, sql, doing, err);
    if (rc)
        return rc;
    if (sqlite3_bind_parameter_count(st) >= 1)
        sqlite3_bind_int64(st, 1, a);
    if (sqlite3_bind_parameter_count(st) >= 2)
        sqlite3_bind_int64(st, 2, b);
    if (sqlite3_step(st) == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    else
        rc = cr_store__fail(s, doing, err);
    sqlite3_finalize(st);
    return rc;
}

int cr_store__query_text(char *out, size_t cap, cr_store *s, const char *sql, int64_t a, const char *doing,
                         cr_error *err)
{
    sqlite3_stmt *st = NULL;
    out[0] = '\0';
    int rc = cr_store__prepare(&st, s, sql, doing, err);
    if (rc)
        return rc;
    sqlite3_bind_int64(st, 1, a);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        cr_store__column_text(out, cap, st, 0);
    else if (step != SQLITE_DONE)
        rc = cr_store__fail(s, doing, err);
    sqlite3_finalize(st);
    return rc;
}

/* ---- multi-row inserts ---- */

/* "INSERT OR IGNORE INTO table (cols) VALUES (row),(row),..." with `rows`
 * copies of row, then tail; NULL when out of memory.  Free with
 * sqlite3_free.
 *
 * OR IGNORE rather than ON CONFLICT DO NOTHING: a statement that cannot
 * abort half-way (its NOT NULL checks ignore too) needs no statement
 * journal, and copying the pages each chunk touches into one cost the
 * writer over a tenth of its time.  The rows bound are never NULL where
 * the schema says NOT NULL, so only the unique keys ever ignore a row. */
static char *multi_insert(const char *head, const char *row, int rows, const char *tail)
{
    sqlite3_str *sql = sqlite3_str_new(NULL);
    sqlite3_str_appendf(sql, "INSERT OR IGNORE INTO %s", head);
    for (int i = 0; i < rows; i++)
        sqlite3_str_appendf(sql, "%s%s", i ? "," : " VALUES ", row);
    sqlite3_str_appendall(sql, tail);
    return sqlite3_str_finish(sql);
}

int cr_store__kept_insert(sqlite3_stmt **out, cr_store *s, int which, const char *head, const char *row,
                          size_t rows, const char *tail, cr_error *err)
{
    if (rows != CR_STORE__CHUNK)
        which++;
    if (s->kept[which])
        return cr_store__kept(out, s, which, NULL, err);
    char *sql = multi_insert(head, row, (int)rows, tail);
    if (!sql)
        return cr_errorf(err, CR_ENOMEM, "no memory for a statement");
    int rc = cr_store__kept(out, s, which, sql, err);
    sqlite3_free(sql);
    return rc;
}

/* ---- paged reading ---- */

int cr_store__pager_open(cr_store__pager *p, cr_store *store, const char *sql, const char *doing, cr_error *err)
{
    *p = (cr_store__pager){store, NULL, -1, 0};
    return cr_store__prepare(&p->st, store, sql, doing, err);
}

int cr_store__pager_step(cr_store__pager *p, void (*bind)(void *ctx, sqlite3_stmt *st), void *ctx, cr_error *err)
{
    for (;;) {
        if (p->ended)
            return 0;
        if (p->rows == CR_STORE__PAGE || p->rows == -1) {
            sqlite3_reset(p->st);
            bind(ctx, p->st);
            p->rows = 0;
        }
        int rc = sqlite3_step(p->st);
        if (rc == SQLITE_ROW) {
            p->rows++;
            return 1;
        }
        if (rc != SQLITE_DONE)
            return cr_store__fail(p->store, "reading", err);
        sqlite3_reset(p->st);
        /* the end is a page with no rows: rows committed meanwhile are seen */
        if (p->rows == 0)
            p->ended = 1;
        else
            p->rows = -1;
    }
}

int cr_store__keep_ext_id(char **buf, size_t *cap, cr_store *s, sqlite3_stmt *st, int col, int64_t id,
                          cr_error *err)
{
    static const char *const types[] = {"", "integer", "real", "text", "blob", "NULL"};
    int type = sqlite3_column_type(st, col);
    if (type != SQLITE_TEXT)
        return cr_errorf(err, CR_EINVAL, "%s: instance %lld has an ext_id stored as %s, not text: the file was changed "
                                      "outside coinrow (coinrow check-db --db %s)",
                         s->path, (long long)id, type >= 1 && type <= 5 ? types[type] : "something else", s->path);
    const char *text = (const char *)sqlite3_column_text(st, col);
    size_t len = (size_t)sqlite3_column_bytes(st, col);
    if (len + 1 > *cap) {
        char *bigger = realloc(*buf, len + 1);
        if (!bigger)
            return cr_errorf(err, CR_ENOMEM, "no memory to read a row of %zu bytes", len);
        *buf = bigger;
        *cap = len + 1;
    }
    memcpy(*buf, text ? text : "", len + 1);
    return 0;
}

void cr_store__column_text(char *out, size_t cap, sqlite3_stmt *st, int col)
{
    const unsigned char *text = sqlite3_column_text(st, col);
    snprintf(out, cap, "%s", text ? (const char *)text : "");
}
