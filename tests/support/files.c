#define _XOPEN_SOURCE 700 /* nftw */
#include "support/files.h"

#include <dirent.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "support/run.h"

char *tmp_dir_new(void)
{
    const char *base = getenv("TMPDIR");
    char templ[4096];
    snprintf(templ, sizeof templ, "%s/coinrow-test-XXXXXX", base && *base ? base : "/tmp");
    char *dir = mkdtemp(templ);
    return dir ? strdup(dir) : NULL;
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

void tmp_dir_free(char *dir)
{
    if (!dir)
        return;
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    free(dir);
}

int tmp_db_setup(void **state)
{
    tmp_db *f = calloc(1, sizeof *f);
    if (!f || !(f->dir = tmp_dir_new()))
        return -1;
    snprintf(f->db, sizeof f->db, "%s", tmp_path(f->dir, "t.db"));
    *state = f;
    return 0;
}

int tmp_db_teardown(void **state)
{
    tmp_db *f = *state;
    tmp_dir_free(f->dir);
    free(f);
    return 0;
}

const char *path_in(char out[4400], const char *dir, const char *name)
{
    snprintf(out, 4400, "%s/%s", dir, name);
    return out;
}

const char *tmp_path(const char *dir, const char *name)
{
    static char paths[4][4096];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t len = strlen(text);
    int ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok ? 0 : -1;
}

int write_big_csv(const char *path, int rows, int coins, uint64_t seed)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    uint64_t x = seed;
    fputs("id,values\n", f);
    for (int i = 0; i < rows; i++) {
        fprintf(f, "r%d,", i);
        for (int k = 0; k < coins; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            fprintf(f, "%s%llu", k ? " " : "", (unsigned long long)(x % 1000000));
        }
        fputc('\n', f);
    }
    return fclose(f);
}

char *read_bytes(const char *path, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *bytes = NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (bytes = malloc((size_t)size + 1)) != NULL) {
        *out_len = fread(bytes, 1, (size_t)size, f);
        bytes[*out_len] = '\0';
    }
    fclose(f);
    return bytes;
}

int copy_file(const char *from, const char *to)
{
    size_t len = 0;
    char *bytes = read_bytes(from, &len);
    FILE *f = bytes ? fopen(to, "wb") : NULL;
    int ok = f && fwrite(bytes, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    free(bytes);
    return ok ? 0 : -1;
}

char *read_text(const char *path)
{
    size_t len;
    return read_bytes(path, &len);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The lines of dir_snapshot for dir, each name after prefix; folders
 * are followed into. */
static void snapshot_into(FILE *f, const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    char *names[256];
    size_t count = 0;
    struct dirent *e;
    while (d && count < 256 && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            names[count++] = strdup(e->d_name);
    if (d)
        closedir(d);
    qsort(names, count, sizeof *names, by_name);
    for (size_t i = 0; i < count; i++) {
        char path[4096], name[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(name, sizeof name, "%s%s", prefix, names[i]);
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            fprintf(f, "%s/\n", name);
            strncat(name, "/", sizeof name - strlen(name) - 1);
            snapshot_into(f, path, name);
            free(names[i]);
            continue;
        }
        size_t size = 0;
        char *bytes = read_bytes(path, &size);
        uint64_t hash = 1469598103934665603u; /* FNV-1a */
        for (size_t k = 0; bytes && k < size; k++)
            hash = (hash ^ (unsigned char)bytes[k]) * 1099511628211u;
        fprintf(f, "%s %zu %016llx\n", name, size, (unsigned long long)hash);
        free(bytes);
        free(names[i]);
    }
}

char *dir_snapshot(const char *dir)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    snapshot_into(f, dir, "");
    fclose(f);
    return out;
}

/* Runs "chattr FLAG path" quietly; 0 on success. */
static int chattr(const char *flag, const char *path)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "chattr %s '%s' 2>/dev/null", flag, path);
    return system(cmd) == 0 ? 0 : -1;
}

int make_read_only(const char *path)
{
    if (geteuid() != 0)
        return chmod(path, 0444);
    return chattr("+i", path); /* root writes to 0444 files */
}

void make_writable(const char *path)
{
    if (geteuid() == 0)
        chattr("-i", path);
    chmod(path, 0644);
}

const char *fixture(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "tests/fixtures/%s", name);
    return path;
}

char *db_text(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char *v = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = strdup(sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

int64_t db_int(const char *path, const char *sql)
{
    char *text = db_text(path, sql);
    int64_t v = text ? strtoll(text, NULL, 10) : INT64_MIN;
    free(text);
    return v;
}

int64_t db_wait_for(const char *path, const char *sql, pid_t pid)
{
    const struct timespec pause = {0, 2000000};
    for (;;) {
        int64_t v = db_int(path, sql);
        if (v > 0)
            return v;
        if (run_ended(pid))
            return (v = db_int(path, sql)) > 0 ? v : 0;
        nanosleep(&pause, NULL); /* only how soon the event is seen, not whether */
    }
}

int db_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open(path, &db) == SQLITE_OK && sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
    sqlite3_close(db);
    return rc;
}
