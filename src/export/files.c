/* Writing a package's files (package.h): folders and files made new in the
 * temporary folder export fills, the judge programs built for the problem,
 * text quoted for the metadata's YAML and XML, the names claimed so far, and
 * whether a path lies in a folder.  Every format's writer and export.c
 * itself write through these. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "export/package.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "export/program.h"
#include "util/util.h"

const char *cr_export__path(cr_package *p, const char *rel)
{
    snprintf(p->path, p->path_cap, "%s/%s", p->root, rel);
    return p->path;
}

static int write_error(const cr_package *p, const char *rel, cr_error *err)
{
    return cr_errorf(err, CR_EIO, "cannot write %s/%s: %s", p->shown, rel, strerror(errno));
}

int cr_export__mkdir(cr_package *p, const char *rel, cr_error *err)
{
    return mkdir(cr_export__path(p, rel), 0777) == 0 ? 0 : write_error(p, rel, err);
}

FILE *cr_export__create(cr_package *p, const char *rel, cr_error *err)
{
    FILE *f = fopen(cr_export__path(p, rel), "wbx");
    if (!f)
        write_error(p, rel, err);
    return f;
}

int cr_export__finish(cr_package *p, FILE *f, const char *rel, cr_error *err)
{
    int failed = ferror(f);
    failed |= fclose(f) != 0;
    return failed ? write_error(p, rel, err) : 0;
}

int cr_export__bytes(cr_package *p, const char *rel, const char *text, size_t len, cr_error *err)
{
    FILE *f = cr_export__create(p, rel, err);
    if (!f)
        return CR_EIO;
    fwrite(text, 1, len, f);
    return cr_export__finish(p, f, rel, err);
}

int cr_export__file(cr_package *p, const char *rel, cr_export_fill *fill, const cr_problem *pb, cr_error *err)
{
    FILE *f = cr_export__create(p, rel, err);
    if (!f)
        return CR_EIO;
    int rc = fill(f, pb, err);
    int done = cr_export__finish(p, f, rel, err);
    return rc ? rc : done;
}

int cr_export__text(cr_package *p, const char *rel, const char *text, cr_error *err)
{
    return cr_export__bytes(p, rel, text, strlen(text), err);
}

int cr_export__program(cr_package *p, const char *rel, cr_judge_program program, cr_convention convention,
                       const cr_problem *pb, cr_error *err)
{
    cr_judge_settings settings = {convention, pb->variant, pb->lines ? CR_CHECK_MOVES_REQUIRED : CR_CHECK_MOVES_IGNORED,
                                  pb->limits, pb->interactive};
    FILE *f = cr_export__create(p, rel, err);
    if (!f)
        return CR_EIO;
    int rc = cr_judge_program_write_grouped(f, program, &settings, pb->groups, pb->group_count, err);
    int done = cr_export__finish(p, f, rel, err);
    return rc ? rc : done;
}

int cr_export__solution(cr_package *p, const char *rel, const cr_problem_solution *s, cr_convention convention,
                        const cr_problem *pb, cr_error *err)
{
    if (!s->source)
        return cr_export__program(p, rel, s->program, convention, pb, err);
    FILE *in = fopen(s->source, "rb");
    if (!in)
        return cr_errorf(err, CR_EIO, "cannot read the source %s: %s", s->source, strerror(errno));
    char *text = NULL;
    size_t len = 0;
    int rc = cr_read_all(&text, &len, in, s->source, err);
    fclose(in);
    if (rc == 0)
        rc = cr_export__bytes(p, rel, text, len, err);
    free(text);
    return rc;
}

void cr_export__put_yaml(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\x%02x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void cr_export__put_xml(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: /* XML 1.0 has no control characters but white space */
            fputc((unsigned char)*s >= 0x20 || *s == '\t' ? *s : ' ', f);
        }
    }
}

int cr_export__lies_in(const char *path, const char *dir)
{
    char *p = realpath(path, NULL), *d = realpath(dir, NULL);
    size_t len = d ? strlen(d) : 0;
    int inside = p && d && strncmp(p, d, len) == 0 && (p[len] == '/' || p[len] == '\0' || len == 1);
    free(p);
    free(d);
    return inside;
}

int cr_export__claim(cr_package *p, const char *name, const char *owner, const char **out_other)
{
    if (2 * (p->names_count + 1) > p->names_cap) {
        size_t cap = p->names_cap ? 2 * p->names_cap : 256, count = 0;
        char **bigger = calloc(cap, sizeof(char *));
        if (!bigger)
            return CR_ENOMEM;
        for (size_t i = 0; i < p->names_cap; i++) {
            if (!p->names[i])
                continue;
            size_t k = cr_fnv1a(CR_FNV1A_BASIS, p->names[i], strlen(p->names[i])) & (cap - 1);
            while (bigger[k])
                k = (k + 1) & (cap - 1);
            bigger[k] = p->names[i];
            count++;
        }
        free(p->names);
        p->names = bigger, p->names_cap = cap, p->names_count = count;
    }
    size_t k = cr_fnv1a(CR_FNV1A_BASIS, name, strlen(name)) & (p->names_cap - 1);
    for (; p->names[k]; k = (k + 1) & (p->names_cap - 1))
        if (strcmp(p->names[k], name) == 0) {
            *out_other = p->names[k] + strlen(name) + 1;
            return 1;
        }
    size_t name_len = strlen(name), owner_len = strlen(owner);
    if (!(p->names[k] = malloc(name_len + owner_len + 2)))
        return CR_ENOMEM;
    memcpy(p->names[k], name, name_len + 1);
    memcpy(p->names[k] + name_len + 1, owner, owner_len + 1);
    p->names_count++;
    return 0;
}

void cr_export__package_free(cr_package *p)
{
    for (size_t i = 0; i < p->names_cap; i++)
        free(p->names[i]);
    free(p->names);
    free(p->root);
    free(p->path);
}
