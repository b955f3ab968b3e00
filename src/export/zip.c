/* A stored (uncompressed) zip writer (PKWARE APPNOTE 6.3, sections 4.3 and
 * 4.4): for each entry a local header and the data, then the central
 * directory and its end record.  Sizes and CRCs are patched into each local
 * header once the data is written, so that no data descriptor is needed. */
#include "export/zip.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

#define ZIP_MAX_OFFSET 0xFFFFFFFFu
#define DOS_DATE_1980_01_01 ((1u << 5) | 1u) /* (year - 1980) << 9 | month << 5 | day */
#define VERSION_NEEDED 20                    /* 2.0: folders */
#define MADE_BY_UNIX (3u << 8 | 20u)

typedef struct entry {
    char *name;        /* relative path; folders end in '/' */
    uint32_t crc, size, offset, mode;
} entry;

typedef struct zip_writer {
    FILE *f;
    const char *path;
    entry *entries;
    size_t count, cap;
    uint32_t crc_table[256]; /* each writer its own: no state shared between threads */
    unsigned char buf[1 << 16];
} zip_writer;

static void crc32_table(uint32_t table[256])
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
}

static uint32_t crc32_update(const uint32_t table[256], uint32_t crc, const unsigned char *p, size_t len)
{
    crc = ~crc;
    while (len--)
        crc = table[(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

/* Little-endian fields into a header buffer. */
static unsigned char *put16(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
    return p + 2;
}

static unsigned char *put32(unsigned char *p, uint32_t v)
{
    return put16(put16(p, v & 0xFFFF), v >> 16);
}

/* The fields local and central headers share, from "version needed" to
 * the extra field's length. */
static unsigned char *put_common(unsigned char *p, const entry *e)
{
    p = put16(p, VERSION_NEEDED);
    p = put16(p, 0);                   /* flags */
    p = put16(p, 0);                   /* method: stored */
    p = put16(p, 0);                   /* time 00:00 */
    p = put16(p, DOS_DATE_1980_01_01);
    p = put32(p, e->crc);
    p = put32(p, e->size);             /* compressed */
    p = put32(p, e->size);             /* uncompressed */
    p = put16(p, (uint32_t)strlen(e->name));
    return put16(p, 0);                /* extra field */
}

static int write_local_header(zip_writer *z, const entry *e)
{
    unsigned char h[30], *p = put32(h, 0x04034b50);
    put_common(p, e);
    size_t len = strlen(e->name);
    return fwrite(h, 1, sizeof h, z->f) == sizeof h && fwrite(e->name, 1, len, z->f) == len ? 0 : -1;
}

static int io_error(cr_error *err, const char *doing, const char *path)
{
    return cr_errorf(err, CR_EIO, "cannot %s %s: %s", doing, path, strerror(errno));
}

/* Adds an entry for path (relative name `name`), copying a file's data. */
static int add(zip_writer *z, const char *path, const char *name, const struct stat *st, cr_error *err)
{
    long offset = ftell(z->f);
    if (z->count == CR_ZIP_MAX_ENTRIES || offset < 0 || (uint64_t)offset > ZIP_MAX_OFFSET)
        return cr_errorf(err, CR_EINVAL, "%s: more than a zip without ZIP64 holds (%u entries, 4 GiB)", z->path,
                         CR_ZIP_MAX_ENTRIES);
    if (cr_grow((void **)&z->entries, &z->cap, z->count + 1, sizeof *z->entries, 64))
        return cr_errorf(err, CR_ENOMEM, "no memory for the entries of %s", z->path);
    int is_dir = S_ISDIR(st->st_mode);
    size_t len = strlen(name);
    entry *e = &z->entries[z->count];
    *e = (entry){malloc(len + 2), 0, 0, (uint32_t)offset, (uint32_t)st->st_mode};
    if (!e->name)
        return cr_errorf(err, CR_ENOMEM, "no memory for the entries of %s", z->path);
    snprintf(e->name, len + 2, "%s%s", name, is_dir ? "/" : "");
    z->count++;
    if (write_local_header(z, e))
        return io_error(err, "write", z->path);
    if (is_dir)
        return 0;
    FILE *in = fopen(path, "rb");
    if (!in)
        return io_error(err, "read", path);
    uint64_t size = 0;
    size_t got;
    while ((got = fread(z->buf, 1, sizeof z->buf, in)) > 0) {
        e->crc = crc32_update(z->crc_table, e->crc, z->buf, got);
        size += got;
        if (fwrite(z->buf, 1, got, z->f) != got)
            break;
    }
    int read_failed = ferror(in), write_failed = ferror(z->f);
    fclose(in);
    if (read_failed)
        return io_error(err, "read", path);
    if (write_failed)
        return io_error(err, "write", z->path);
    if (size > ZIP_MAX_OFFSET)
        return cr_errorf(err, CR_EINVAL, "%s: larger than a zip without ZIP64 holds (4 GiB)", path);
    e->size = (uint32_t)size;
    long end = ftell(z->f);
    if (end < 0 || fseek(z->f, offset, SEEK_SET) || write_local_header(z, e) || fseek(z->f, end, SEEK_SET))
        return io_error(err, "write", z->path);
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

/* Adds what the folder at path holds (relative name prefix `name`, "" at
 * the top), each folder followed by its contents. */
static int add_tree(zip_writer *z, const char *path, const char *name, cr_error *err)
{
    struct dirent **list = NULL;
    int count = scandir(path, &list, NULL, by_name), rc = 0;
    if (count < 0)
        return io_error(err, "read", path);
    for (int i = 0; i < count; i++) {
        const char *d = list[i]->d_name;
        if (rc || strcmp(d, ".") == 0 || strcmp(d, "..") == 0)
            continue;
        size_t sub_len = strlen(path) + strlen(d) + 2, rel_len = strlen(name) + strlen(d) + 2;
        char *sub = malloc(sub_len), *rel = malloc(rel_len);
        struct stat st;
        if (!sub || !rel) {
            rc = cr_errorf(err, CR_ENOMEM, "no memory for the paths of %s", path);
        } else {
            snprintf(sub, sub_len, "%s/%s", path, d);
            snprintf(rel, rel_len, "%s%s%s", name, *name ? "/" : "", d);
            if (lstat(sub, &st))
                rc = io_error(err, "read", sub);
            else if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))
                rc = add(z, sub, rel, &st, err);
            if (rc == 0 && S_ISDIR(st.st_mode))
                rc = add_tree(z, sub, rel, err);
        }
        free(sub);
        free(rel);
    }
    for (int i = 0; i < count; i++)
        free(list[i]);
    free(list);
    return rc;
}

static int write_central_directory(zip_writer *z, cr_error *err)
{
    long start = ftell(z->f);
    if (start < 0 || (uint64_t)start > ZIP_MAX_OFFSET)
        return cr_errorf(err, CR_EINVAL, "%s: larger than a zip without ZIP64 holds (4 GiB)", z->path);
    for (size_t i = 0; i < z->count; i++) {
        const entry *e = &z->entries[i];
        unsigned char h[46], *p = put32(h, 0x02014b50);
        p = put_common(put16(p, MADE_BY_UNIX), e);
        p = put16(p, 0); /* comment */
        p = put16(p, 0); /* disk */
        p = put16(p, 0); /* internal attributes */
        p = put32(p, e->mode << 16 | (S_ISDIR(e->mode) ? 0x10u : 0u)); /* Unix mode; MS-DOS folder bit */
        put32(p, e->offset);
        size_t len = strlen(e->name);
        if (fwrite(h, 1, sizeof h, z->f) != sizeof h || fwrite(e->name, 1, len, z->f) != len)
            return io_error(err, "write", z->path);
    }
    long end = ftell(z->f);
    if (end < 0 || (uint64_t)end > ZIP_MAX_OFFSET)
        return cr_errorf(err, CR_EINVAL, "%s: larger than a zip without ZIP64 holds (4 GiB)", z->path);
    unsigned char h[22], *p = put32(h, 0x06054b50);
    p = put16(p, 0); /* this disk */
    p = put16(p, 0); /* the directory's disk */
    p = put16(p, (uint32_t)z->count);
    p = put16(p, (uint32_t)z->count);
    p = put32(p, (uint32_t)(end - start));
    p = put32(p, (uint32_t)start);
    put16(p, 0); /* comment */
    return fwrite(h, 1, sizeof h, z->f) == sizeof h ? 0 : io_error(err, "write", z->path);
}

int cr_zip_dir(const char *zip_path, const char *dir, cr_error *err)
{
    zip_writer *z = calloc(1, sizeof *z);
    if (!z)
        return cr_errorf(err, CR_ENOMEM, "no memory to write %s", zip_path);
    z->path = zip_path;
    crc32_table(z->crc_table);
    z->f = fopen(zip_path, "wb");
    int rc = z->f ? 0 : io_error(err, "write", zip_path);
    if (rc == 0)
        rc = add_tree(z, dir, "", err);
    if (rc == 0)
        rc = write_central_directory(z, err);
    if (z->f && fclose(z->f) != 0 && rc == 0)
        rc = io_error(err, "write", zip_path);
    if (rc && z->f)
        remove(zip_path);
    for (size_t i = 0; i < z->count; i++)
        free(z->entries[i].name);
    free(z->entries);
    free(z);
    return rc;
}
