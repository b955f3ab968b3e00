/* Inputs: files by format, folders, standard input, each file handed to
 * its reader. */
#include "source/source.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "source/readers.h"
#include "util/util.h"

static const char *const format_names[] = {"auto", "csv", "tsv", "wide", "contest"};

int cr_source_format_parse(cr_format *out, const char *name, cr_error *err)
{
    int k, rc = cr_name_parse(&k, format_names, sizeof format_names / sizeof format_names[0], "format", name, err);
    if (rc == 0)
        *out = (cr_format)k;
    return rc;
}

/* The extension of a path's last component, with its dot ("" when none). */
static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path, *dot = strrchr(base, '.');
    return dot && dot != base ? dot : "";
}

static cr_format format_of(const char *path, cr_format forced)
{
    if (forced != CR_FORMAT_AUTO)
        return forced;
    const char *ext = extension(path);
    if (strcasecmp(ext, ".in") == 0)
        return CR_FORMAT_CONTEST;
    if (strcasecmp(ext, ".tsv") == 0 || strcasecmp(ext, ".tab") == 0)
        return CR_FORMAT_TSV;
    return CR_FORMAT_CSV;
}

/* Whether a folder's file is read for the format asked for. */
static int folder_takes(const char *name, cr_format forced)
{
    const char *ext = extension(name);
    int contest = strcasecmp(ext, ".in") == 0, tsv = strcasecmp(ext, ".tsv") == 0 || strcasecmp(ext, ".tab") == 0,
        csv = strcasecmp(ext, ".csv") == 0;
    switch (forced) {
    case CR_FORMAT_CONTEST:
        return contest;
    case CR_FORMAT_TSV:
        return tsv;
    case CR_FORMAT_CSV:
    case CR_FORMAT_WIDE:
        return csv;
    default:
        return contest || tsv || csv;
    }
}

void cr_source_set_name(char *out, size_t cap, const char *input)
{
    if (strcmp(input, "-") == 0) {
        snprintf(out, cap, "stdin");
        return;
    }
    size_t len = strlen(input);
    while (len > 1 && input[len - 1] == '/')
        len--;
    size_t start = len;
    while (start > 0 && input[start - 1] != '/')
        start--;
    size_t end = len;
    for (size_t i = len; i > start + 1; i--)
        if (input[i - 1] == '.') {
            end = i - 1;
            break;
        }
    snprintf(out, cap, "%.*s", (int)(end - start), input + start);
}

/* A folder's files to read, sorted by name: paths to free with free_list. */
typedef struct file_list {
    char **paths;
    size_t count;
} file_list;

static void free_list(file_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->paths[i]);
    free(list->paths);
    list->paths = NULL;
    list->count = 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int list_folder(file_list *out, const char *folder, cr_format forced, cr_error *err)
{
    DIR *dir = opendir(folder);
    if (!dir)
        return cr_errorf(err, CR_EIO, "cannot read the folder %s: %s", folder, strerror(errno));
    size_t cap = 0, flen = strlen(folder);
    int slash = flen > 0 && folder[flen - 1] == '/', rc = 0;
    struct dirent *e;
    out->paths = NULL;
    out->count = 0;
    while (rc == 0 && (e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.' || !folder_takes(e->d_name, forced))
            continue;
        size_t size = flen + 1 + strlen(e->d_name) + 1;
        char *path = malloc(size);
        struct stat sb;
        if (path) {
            /* An input the folder names but that cannot be read (a dangling
             * link, a FIFO, a folder) refuses the read: skipping it would
             * lose its rows without a word. */
            snprintf(path, size, "%s%s%s", folder, slash ? "" : "/", e->d_name);
            if (stat(path, &sb) != 0)
                rc = cr_errorf(err, CR_EIO, "cannot read %s: %s", path, strerror(errno));
            else if (!S_ISREG(sb.st_mode))
                rc = cr_errorf(err, CR_EINVAL, "%s is not a regular file (%s)", path, cr_file_kind(sb.st_mode));
            if (rc) {
                free(path);
                break;
            }
        }
        if (!path || cr_grow((void **)&out->paths, &cap, out->count + 1, sizeof *out->paths, 64)) {
            free(path);
            rc = cr_errorf(err, CR_ENOMEM, "no memory to list %s", folder);
            break;
        }
        out->paths[out->count++] = path;
    }
    closedir(dir);
    if (rc == 0 && out->count == 0)
        rc = cr_errorf(err, CR_EINVAL, "the folder %s has no %s files", folder,
                       forced == CR_FORMAT_CONTEST ? ".in"
                       : forced == CR_FORMAT_TSV   ? ".tsv"
                       : forced == CR_FORMAT_AUTO  ? ".csv, .tsv or .in"
                                                      : ".csv");
    if (rc)
        free_list(out);
    else
        qsort(out->paths, out->count, sizeof *out->paths, by_name);
    return rc;
}

/* Row offsets run over all the inputs of one call. */
typedef struct shifted {
    cr_row_fn fn;
    void *ctx;
    uint64_t base;
} shifted;

static int shift_row(void *ctx, const cr_row *row)
{
    shifted *s = ctx;
    cr_row moved = *row;
    moved.offset += s->base;
    return s->fn(s->ctx, &moved);
}

static int read_stream(FILE *f, const char *name, cr_format format, const cr_source_opts *opts, shifted *sink,
                       cr_error *err)
{
    if (format != CR_FORMAT_CONTEST)
        return cr_source__csv(f, name, format, opts, shift_row, sink, err);
    char ext_id[256];
    cr_source_set_name(ext_id, sizeof ext_id, name);
    return cr_source__contest(f, name, ext_id, opts, shift_row, sink, err);
}

static int read_file(const char *path, cr_format format, const cr_source_opts *opts, shifted *sink, cr_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cr_errorf(err, CR_EIO, "cannot open %s: %s", path, strerror(errno));
    int rc = read_stream(f, path, format, opts, sink, err);
    struct stat sb;
    sink->base += fstat(fileno(f), &sb) == 0 ? (uint64_t)sb.st_size : 0;
    fclose(f);
    return rc;
}

static int read_input(const char *input, const cr_source_opts *opts, shifted *sink, cr_error *err)
{
    if (strcmp(input, "-") == 0)
        return read_stream(stdin, "stdin", opts->format == CR_FORMAT_AUTO ? CR_FORMAT_CSV : opts->format, opts,
                           sink, err);
    struct stat sb;
    if (stat(input, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        file_list list;
        int rc = list_folder(&list, input, opts->format, err);
        for (size_t i = 0; rc == 0 && i < list.count; i++)
            rc = read_file(list.paths[i], format_of(list.paths[i], opts->format), opts, sink, err);
        free_list(&list);
        return rc;
    }
    return read_file(input, format_of(input, opts->format), opts, sink, err);
}

int cr_source_check(const char *const *inputs, size_t count, cr_error *err)
{
    struct stat sb;
    for (size_t i = 0; i < count; i++)
        if (strcmp(inputs[i], "-") != 0 && stat(inputs[i], &sb) != 0)
            return cr_errorf(err, CR_EIO, "cannot read %s: %s", inputs[i], strerror(errno));
    return 0;
}

/* A cr_row_fn that ends a read at its first row: the header was read, and
 * *ctx says whether its rows are numbered (no id column). */
static int header_read(void *ctx, const cr_row *row)
{
    *(int *)ctx = row->numbered;
    return 1;
}

/* The header of the file at path, read as cr_source_read would, when it is
 * a regular file of CSV, TSV or the wide format (a pipe is read once).  A
 * second file whose rows are numbered (no id column) is refused: both
 * number theirs from 1, and in one set the second one's ids would clash
 * with the first's (*numbered_first, the first such file's path, NULL
 * until there is one). */
static int check_header(char **numbered_first, const char *path, const cr_source_opts *opts, cr_error *err)
{
    struct stat sb;
    cr_format format = format_of(path, opts->format);
    if (format == CR_FORMAT_CONTEST || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cr_errorf(err, CR_EIO, "cannot open %s: %s", path, strerror(errno));
    int numbered = 0, rc = cr_source__csv(f, path, format, opts, header_read, &numbered, err);
    fclose(f);
    if (rc < 0 || !numbered)
        return rc < 0 ? rc : 0;
    if (*numbered_first)
        return cr_errorf(err, CR_EINVAL, "%s and %s have no id column: each numbers its rows from 1, so in one set "
                                         "their ids would clash; give them an id column, or read each into a set "
                                         "of its own",
                         *numbered_first, path);
    return (*numbered_first = strdup(path)) ? 0 : cr_errorf(err, CR_ENOMEM, "no memory for the path of %s", path);
}

/* Every file's header, before a row is passed on: a file with none, or
 * without its values column, refuses the whole read rather than stop it
 * halfway, the files before it stored and a command to finish that could
 * never work; and so do two files without an id column. */
static int check_headers(const char *const *inputs, size_t count, const cr_source_opts *opts, cr_error *err)
{
    char *numbered_first = NULL; /* the first file whose rows are numbered */
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < count; i++) {
        struct stat sb;
        if (strcmp(inputs[i], "-") == 0)
            continue;
        if (stat(inputs[i], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            rc = check_header(&numbered_first, inputs[i], opts, err);
            continue;
        }
        file_list list = {0};
        rc = list_folder(&list, inputs[i], opts->format, err);
        for (size_t k = 0; rc == 0 && k < list.count; k++)
            rc = check_header(&numbered_first, list.paths[k], opts, err);
        free_list(&list);
    }
    free(numbered_first);
    return rc;
}

int cr_source_read(const char *const *inputs, size_t count, const cr_source_opts *opts, cr_row_fn fn, void *ctx,
                   cr_error *err)
{
    shifted sink = {fn, ctx, 0};
    int rc = cr_source_check(inputs, count, err);
    if (rc == 0)
        rc = check_headers(inputs, count, opts, err);
    for (size_t i = 0; rc == 0 && i < count; i++)
        rc = read_input(inputs[i], opts, &sink, err);
    return rc;
}

uint64_t cr_source_size(const char *const *inputs, size_t count, const cr_source_opts *opts)
{
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++) {
        struct stat sb;
        if (strcmp(inputs[i], "-") == 0 || stat(inputs[i], &sb) != 0)
            return 0;
        if (!S_ISDIR(sb.st_mode)) {
            total += (uint64_t)sb.st_size;
            continue;
        }
        file_list list;
        cr_error ignored;
        if (list_folder(&list, inputs[i], opts->format, &ignored) != 0)
            return 0;
        for (size_t k = 0; k < list.count; k++)
            total += stat(list.paths[k], &sb) == 0 ? (uint64_t)sb.st_size : 0;
        free_list(&list);
    }
    return total;
}
