/* Export: a set's tests and a run's answers as a judging system's package,
 * written into a temporary folder beside DIR and renamed into place. */
#define _XOPEN_SOURCE 700 /* nftw, realpath */
#include "export/export.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coinrow/contest.h"
#include "coinrow/gen.h"
#include "util/util.h"
#include "export/format.h"
#include "export/package.h"
#include "invoke/invoke.h"
#include "export/findings.h"
#include "export/zip.h"
#include "export/program.h"
/* The memory limit written into the metadata; the setter edits it for the
 * problem. */
#define MEMORY_LIMIT_MIB 256
/* A test from this size on keeps the brute-force solution (2^n lines of
 * play) far beyond any time limit. */
#define BRUTE_FORCE_N 40
/* A test up to this size the brute-force solution answers at once (2^20
 * lines): a group of such tests is one it passes. */
#define BRUTE_FORCE_FAST_N 20

/* Whether the code point c is blank as Python's str.strip() takes it:
 * problemtools refuses a name made of them alone. */
static int is_blank(unsigned long c)
{
    return c == ' ' || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

/* How many continuation bytes follow a UTF-8 sequence's first byte; 4 for
 * a byte no sequence starts with (a continuation byte, an overlong lead,
 * one past U+10FFFF). */
static size_t utf8_more(unsigned lead)
{
    return lead < 0x80 ? 0 : lead < 0xC2 ? 4 : lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : lead < 0xF5 ? 3 : 4;
}

/* text as a problem's name or rights owner: UTF-8 as Python decodes it (no
 * overlong form, no surrogate, nothing past U+10FFFF), no control character
 * (C0, DEL, C1), not blanks alone; what names it in the message. */
static int check_text(const char *what, const char *text, cr_error *err)
{
    static const unsigned long least[] = {0, 0x80, 0x800, 0x10000}; /* below: an overlong form */
    const unsigned char *s = (const unsigned char *)text;
    int blank = 1;
    while (*s) {
        size_t more = utf8_more(*s);
        unsigned long c = more == 0 ? *s : *s & (0x3Fu >> more);
        for (size_t k = 1; k <= more && more < 4; k++) {
            if ((s[k] & 0xC0) != 0x80) /* a NUL too: the loop stops there */
                more = 4;
            else
                c = c << 6 | (s[k] & 0x3Fu);
        }
        if (more == 4 || c < least[more] || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF)
            return cr_errorf(err, CR_EINVAL, "%s is not UTF-8 text (byte %zu): the package's text files are UTF-8",
                             what, (size_t)(s - (const unsigned char *)text) + 1);
        /* LaTeX stops at a control character, and a blank line ends \problemname */
        if (c < 0x20 || (c >= 0x7F && c < 0xA0))
            return cr_errorf(err, CR_EINVAL, "%s holds a control character (byte %zu): it must be one line of "
                                             "printable text",
                             what, (size_t)(s - (const unsigned char *)text) + 1);
        blank &= is_blank(c);
        s += more + 1;
    }
    if (blank)
        return cr_errorf(err, CR_EINVAL, "%s is blanks alone: it must hold some text", what);
    return 0;
}

/* An option opts give that means nothing to their format: CR_EINVAL naming
 * the option, the format and the formats it is for. */
static int check_features(const cr_export_opts *opts, cr_error *err)
{
    const struct {
        int given;
        const char *option;
        unsigned feature;
        const char *what; /* what a package of a format without the feature lacks */
    } uses[] = {
        {opts->samples > 0, "--samples", CR_EXPORT_SAMPLES, "samples"},
        {opts->title != NULL, "--title", CR_EXPORT_METADATA, "problem name"},
        {opts->time_limit_ms > 0, "--time-limit", CR_EXPORT_METADATA, "time limit"},
        {opts->license != NULL, "--license", CR_EXPORT_LICENSE, "licence"},
        {opts->rights_owner != NULL, "--rights-owner", CR_EXPORT_LICENSE, "licence"},
        {opts->no_build, "--no-build", CR_EXPORT_BUILD, "program to build"},
        {opts->submissions, "--submissions", CR_EXPORT_SUBMISSIONS, "solutions"},
        {opts->interactive, "--interactive", CR_EXPORT_INTERACTION, "interactive problem"},
    };
    for (size_t i = 0; i < sizeof uses / sizeof uses[0]; i++) {
        if (!uses[i].given || cr_export_format_supports(opts->format, uses[i].feature))
            continue;
        char takers[256];
        cr_export__formats_with(takers, sizeof takers, uses[i].feature);
        return cr_errorf(err, CR_EINVAL, "%s has no meaning for --format %s, whose packages hold no %s (it is for "
                                         "--format %s)",
                         uses[i].option, opts->format->name, uses[i].what, takers);
    }
    return 0;
}

/* What an interactive package cannot hold: answers with lines (the
 * contestant plays the line), the labelled invocations' sources (batch
 * programs, which read the row and answer once). */
static int check_interactive(const cr_export_opts *opts, cr_error *err)
{
    if (opts->interactive && opts->lines)
        return cr_errorf(err, CR_EINVAL, "--moves canonical has no meaning with --interactive: the contestant plays "
                                         "the line against the jury");
    if (opts->interactive && opts->submissions)
        return cr_errorf(err, CR_EINVAL, "--submissions has no meaning with --interactive: the labelled "
                                         "invocations are batch programs, which do not play the game");
    return 0;
}

int cr_export_opts_check(const cr_export_opts *opts, cr_error *err)
{
    int rc = check_features(opts, err);
    if (rc == 0)
        rc = check_interactive(opts, err);
    if (rc == 0 && opts->title)
        rc = check_text("--title", opts->title, err);
    if (rc == 0 && opts->rights_owner)
        rc = check_text("--rights-owner", opts->rights_owner, err);
    if (rc == 0 && opts->format->check_opts)
        rc = opts->format->check_opts(opts, err);
    return rc;
}

/* ---- the destination ---- */

/* dir without its trailing slashes, split into the folder it lies in and
 * its name; NULL parts when out of memory. */
typedef struct dest {
    char *dir, *parent, *base, *zip; /* zip: DIR.zip, for --zip */
} dest;

static void dest_free(dest *d)
{
    free(d->dir);
    free(d->parent);
    free(d->base);
    free(d->zip);
}

static int dest_split(dest *d, const char *dir, cr_error *err)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    const char *slash = NULL;
    for (size_t i = 0; i < len; i++)
        if (dir[i] == '/')
            slash = dir + i;
    size_t base_at = slash ? (size_t)(slash - dir) + 1 : 0;
    d->dir = strndup(dir, len);
    d->base = strndup(dir + base_at, len - base_at);
    d->parent = slash == dir ? strdup("/") : slash ? strndup(dir, (size_t)(slash - dir)) : strdup(".");
    d->zip = malloc(len + sizeof ".zip");
    if (!d->dir || !d->base || !d->parent || !d->zip)
        return cr_errorf(err, CR_ENOMEM, "no memory for the path %s", dir);
    snprintf(d->zip, len + sizeof ".zip", "%s.zip", d->dir);
    return 0;
}

/* The folder's name is the problem's short name, of the bytes the format
 * allows (any, for a format without one). */
static int check_name(const dest *d, const cr_export_format *format, cr_error *err)
{
    if (strcmp(d->base, ".") == 0 || strcmp(d->base, "..") == 0 || strcmp(d->base, "/") == 0 || !*d->base)
        return cr_errorf(err, CR_EINVAL, "--out '%s' must name the package's own folder", d->dir);
    const char *allowed = format->short_name_chars;
    if (!allowed || strspn(d->base, allowed) == strlen(d->base))
        return 0;
    return cr_errorf(err, CR_EINVAL, "the folder name '%s' is the problem's short name, so it may hold only %s",
                     d->base, format->short_name_rule);
}

/* 1 when the folder at path has entries, 0 when it is empty. */
static int has_entries(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d)) != NULL)
        found = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return found;
}

static int check_dest(const dest *d, cr_store *store, const cr_export_opts *opts, cr_error *err)
{
    struct stat st;
    int rc = check_name(d, opts->format, err);
    if (rc)
        return rc;
    if (stat(d->parent, &st) || !S_ISDIR(st.st_mode))
        return cr_errorf(err, CR_EINVAL, "cannot write %s: its folder %s does not exist", d->dir, d->parent);
    if (stat(d->dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return cr_errorf(err, CR_EINVAL, "%s exists and is not a folder", d->dir);
        if (!opts->force && has_entries(d->dir))
            return cr_errorf(err, CR_EINVAL, "%s is not empty (--force replaces it)", d->dir);
        if (cr_export__lies_in(cr_store_path(store), d->dir))
            return cr_errorf(err, CR_EINVAL, "%s holds the database %s: it cannot be replaced", d->dir,
                             cr_store_path(store));
        if (cr_export__lies_in(".", d->dir))
            return cr_errorf(err, CR_EINVAL, "%s holds the current folder: it cannot be replaced", d->dir);
    }
    if (opts->zip && !opts->force && stat(d->zip, &st) == 0)
        rc = cr_errorf(err, CR_EINVAL, "%s exists (--force replaces it)", d->zip);
    return rc;
}

/* ---- the package ---- */

/* One file's contents, built in memory. */
typedef struct buffer {
    char *text;
    size_t len, cap;
} buffer;

static int append(buffer *b, const char *s, size_t len)
{
    if (cr_grow((void **)&b->text, &b->cap, b->len + len, 1, 4096))
        return -1;
    memcpy(b->text + b->len, s, len);
    b->len += len;
    return 0;
}

static int append_int(buffer *b, int64_t v, char end)
{
    char digits[CR_INT64_CHARS + 1];
    size_t len = cr_int64_format(digits, v);
    digits[len++] = end;
    return append(b, digits, len);
}

/* A package being written: where (files), from what, and what its tests
 * showed so far. */
typedef struct package {
    cr_package files;      /* the folder being filled (files.c) */
    cr_store *store;
    const cr_export_opts *opts;
    int64_t run_id;
    const dest *dest;
    char set_name[128];
    uint64_t count;        /* instances, tests */
    cr_constraints limits; /* the generator's, or what the data spans */
    int generated;
    buffer input, answer;  /* one test's files */
    cr_findings findings;    /* what the tests show */
    cr_submission_list sources; /* --submissions */
    cr_problem_group *groups;   /* the set's groups, their names and dependencies owned (none: 0) */
    size_t group_count, group_cap;
    struct grouped {            /* the groups' tests in instance id order: */
        int64_t id;             /* the instance's id */
        size_t group;           /* its group, an index into groups */
    } *grouped;
    size_t grouped_count, grouped_cap, grouped_at;
    size_t *test_group;         /* test k's group, */
    char **test_inputs;         /* and its input file in the package */
    char **sample_interaction;  /* each sample's interaction (NULL: too long to show), interactive */
    struct group_seen {         /* what each group's tests show of coinrow's own wrong solutions: */
        int greedy_caught;      /* a secret test catches the greedy one */
        int sampled;            /* it has a sample */
        size_t n_largest;       /* how long its longest test is (the brute force's time) */
    } *seen;
} package;

/* Widens the constraints an ingested set's data spans to take `in`. */
static void span(cr_constraints *l, const cr_instance *in)
{
    l->n_min = in->n < l->n_min ? in->n : l->n_min;
    l->n_max = in->n > l->n_max ? in->n : l->n_max;
    for (size_t i = 0; i < in->n; i++) {
        l->value_min = in->coins[i] < l->value_min ? in->coins[i] : l->value_min;
        l->value_max = in->coins[i] > l->value_max ? in->coins[i] : l->value_max;
    }
}

/* Whether the n coins are all equal. */
static int all_equal(const int64_t *coins, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (coins[i] != coins[0])
            return 0;
    return 1;
}

/* The input file of test k, `in`; a generated set's must pass the very
 * check its validator makes, and a group's test that of its group's
 * validator (`--group NAME`).  In an interactive package its third line is
 * the jury's seed (cr_contest_game_parse), which the interactor reads. */
static int write_input(package *p, const char *rel, uint64_t k, const cr_instance *in, const cr_problem_group *group,
                       cr_error *err)
{
    buffer *b = &p->input;
    int rc = cr_contest_text(&b->len, &b->text, &b->cap, in->coins, in->n, err);
    if (rc)
        return rc;
    if (!p->generated)
        span(&p->limits, in);
    const cr_constraints *promised = group ? &group->limits : p->generated ? &p->limits : NULL;
    if (promised) {
        cr_contest_input parsed = {0};
        cr_error why = {0};
        rc = cr_contest_input_parse(&parsed, b->text, b->len, promised, &why);
        cr_contest_input_free(&parsed);
        if (rc && group)
            return cr_errorf(err, rc, "set '%s': instance '%s' breaks the constraints of its group '%s': %s",
                             p->set_name, in->ext_id, group->name, why.msg);
        if (rc)
            return cr_errorf(err, rc, "set '%s': instance '%s' breaks the constraints of its generator: %s",
                             p->set_name, in->ext_id, why.msg);
    }
    if (group && group->all_equal && !all_equal(in->coins, in->n))
        return cr_errorf(err, CR_EINVAL, "set '%s': instance '%s' breaks the constraints of its group '%s': its "
                                         "coins are not all equal",
                         p->set_name, in->ext_id, group->name);
    if (p->opts->interactive) {
        char seed[CR_INT64_CHARS + 2];
        int len = snprintf(seed, sizeof seed, "%" PRIu64 "\n", cr_export__seed(k, p->opts->samples));
        if (append(b, seed, (size_t)len))
            return cr_errorf(err, CR_ENOMEM, "no memory for an input of %zu coins", in->n);
    }
    return cr_export__bytes(&p->files, rel, b->text, b->len, err);
}

/* The answer of test k: the value (and the line).  An interactive
 * package's has no answer to give: the judges want the file, and it says
 * where the seed is, for whoever opens it. */
static int write_answer(package *p, const char *rel, const cr_instance *in, const cr_stored_result *r, cr_error *err)
{
    buffer *b = &p->answer;
    b->len = 0;
    if (p->opts->interactive) {
        static const char note[] = "interactive: the jury plays the seed on the input's third line\n";
        if (append(b, note, sizeof note - 1))
            return cr_errorf(err, CR_ENOMEM, "no memory for an answer");
        return cr_export__bytes(&p->files, rel, b->text, b->len, err);
    }
    if (p->opts->lines && (!r->moves || strlen(r->moves) != in->n))
        return cr_errorf(err, CR_EINVAL, "set '%s': instance '%s' has no line of play in run %lld", p->set_name,
                         in->ext_id, (long long)p->run_id);
    int failed = append_int(b, r->value, '\n');
    if (p->opts->lines)
        failed |= append(b, r->moves, in->n) || append(b, "\n", 1);
    if (failed)
        return cr_errorf(err, CR_ENOMEM, "no memory for an answer of %zu moves", in->n);
    return cr_export__bytes(&p->files, rel, b->text, b->len, err);
}

/* Sample k's interaction: the game the reference plays against the jury
 * of its seed, each line the contestant reads after '<', each one it
 * writes after '>'.  The statement shows it (when it is short enough), and
 * it goes beside the input when the format has a file for it (its
 * interaction_ext in place of the input's extension). */
static int write_interaction(package *p, const char *in_rel, uint64_t k, const cr_instance *in, cr_error *err)
{
    char rel[CR_EXPORT_TEST_PATH_MAX + 32], *line = NULL;
    const char *dot = strrchr(in_rel, '.'), *ext = p->opts->format->interaction_ext;
    int accepted = 0;
    int rc = cr_export__play(&accepted, &line, in->coins, in->n, p->opts->variant,
                             cr_export__seed(k, p->opts->samples), CR_PLAYER_REFERENCE, err);
    if (rc == 0 && !accepted)
        rc = cr_errorf(err, CR_EINVAL, "set '%s': instance '%s': the jury does not accept the reference's game "
                                       "(a fault of coinrow's)",
                       p->set_name, in->ext_id);
    buffer *b = &p->answer;
    b->len = 0;
    int failed = rc != 0;
    for (size_t at = 0, lines = 0; !failed && lines < 2; lines++) { /* the input's two lines, read (not the seed) */
        size_t len = strcspn(p->input.text + at, "\n") + 1;
        failed = append(b, "<", 1) || append(b, p->input.text + at, len);
        at += len;
    }
    for (size_t turn = 0; !failed && turn < in->n; turn++) {
        char move[3] = {turn % 2 == 0 ? '>' : '<', line[turn], '\n'};
        failed = append(b, move, 3);
    }
    free(line);
    if (!failed && !p->sample_interaction)
        failed = !(p->sample_interaction = calloc(p->opts->samples, sizeof *p->sample_interaction));
    if (!failed && b->len <= CR_FINDINGS_SAMPLE_MAX)
        failed = !(p->sample_interaction[k] = strndup(b->text, b->len));
    if (rc == 0 && failed)
        rc = cr_errorf(err, CR_ENOMEM, "no memory for an interaction of %zu moves", in->n);
    if (rc || !ext)
        return rc;
    snprintf(rel, sizeof rel, "%.*s%s", (int)(dot ? dot - in_rel : (ptrdiff_t)strlen(in_rel)), in_rel, ext);
    return cr_export__bytes(&p->files, rel, b->text, b->len, err);
}

/* The run's result for instance `in`, from the run's results read beside
 * the instances in id order. */
static int answer_of(const cr_stored_result **out, cr_store_results *answers, package *p, const cr_instance *in,
                     cr_error *err)
{
    int rc = cr_store_results_seek(out, answers, in->id, p->opts->variant, err);
    if (rc != 0)
        return rc < 0 ? rc : 0;
    return cr_errorf(err, CR_EINVAL, "%s: run %lld has no %s answer for instance '%s' of set '%s'",
                     cr_store_path(p->store), (long long)p->run_id, cr_variant_name(p->opts->variant), in->ext_id,
                     p->set_name);
}

/* The group of instance `in` (NULL in a set without groups), the
 * instances coming in id order; CR_EINVAL for a set of groups' instance
 * that is in none. */
static int group_of(const cr_problem_group **out, size_t *out_index, package *p, const cr_instance *in,
                    cr_error *err)
{
    *out = NULL;
    if (p->group_count == 0)
        return 0;
    while (p->grouped_at < p->grouped_count && p->grouped[p->grouped_at].id < in->id)
        p->grouped_at++;
    if (p->grouped_at == p->grouped_count || p->grouped[p->grouped_at].id != in->id)
        return cr_errorf(err, CR_EINVAL, "set '%s': instance '%s' is in none of the set's groups (an interrupted "
                                         "generate --group, which the same command again finishes, or rows an "
                                         "older coinrow ingested without --group)",
                         p->set_name, in->ext_id);
    *out_index = p->grouped[p->grouped_at].group;
    *out = &p->groups[*out_index];
    return 0;
}

/* Refuses a group whose tests would all be samples: it would have no
 * secret test to score. */
static int check_secret_tests(const package *p, cr_error *err)
{
    for (size_t g = 0; g < p->group_count; g++)
        if (p->groups[g].samples == p->groups[g].tests)
            return cr_errorf(err, CR_EINVAL, "set '%s': the %llu test%s of group '%s' would all be samples "
                                             "(--samples %llu): it would have no secret test",
                             p->set_name, (unsigned long long)p->groups[g].tests,
                             p->groups[g].tests == 1 ? "" : "s", p->groups[g].name,
                             (unsigned long long)p->opts->samples);
    return 0;
}

/* CR_EINTERRUPTED once a stop is asked for, else 0. */
static int stopped(const package *p, cr_error *err)
{
    if (!p->opts->stop || !atomic_load(p->opts->stop))
        return 0;
    return cr_errorf(err, CR_EINTERRUPTED, "interrupted: nothing was written to %s", p->dest->dir);
}

static int write_tests(package *p, cr_export_stats *stats, cr_error *err)
{
    cr_store_instances *instances = NULL;
    cr_store_results *answers = NULL;
    const cr_stored_result *answer = NULL;
    int rc = cr_store_instances_new(&instances, p->store, p->opts->set_id, 0, err);
    if (rc == 0)
        rc = cr_store_results_new(&answers, p->store, p->run_id, CR_BY_INSTANCE, err);
    const cr_instance *in;
    for (uint64_t k = 0; rc == 0; k++) {
        if ((rc = stopped(p, err)) != 0 || (rc = cr_store_instances_next(&in, instances, err)) <= 0)
            break;
        char in_path[CR_EXPORT_TEST_PATH_MAX], ans_path[CR_EXPORT_TEST_PATH_MAX];
        int sample = cr_export_format_supports(p->opts->format, CR_EXPORT_SAMPLES) && k < p->opts->samples;
        cr_export_test test = {k, p->count, p->opts->samples, in, p->set_name, NULL};
        size_t g = 0;
        rc = group_of(&test.group, &g, p, in, err);
        if (rc == 0)
            rc = answer_of(&answer, answers, p, in, err);
        if (rc == 0)
            rc = p->opts->format->test_paths(in_path, ans_path, &p->files, &test, err);
        if (rc == 0 && test.group && k < p->count) {
            p->test_group[k] = g;
            p->groups[g].samples += (uint64_t)sample;
            if (!(p->test_inputs[k] = strdup(in_path)))
                rc = cr_errorf(err, CR_ENOMEM, "no memory for the groups' tests");
        }
        if (rc == 0)
            rc = write_input(p, in_path, k, in, test.group, err);
        if (rc == 0 && sample && p->opts->interactive)
            rc = write_interaction(p, in_path, k, in, err);
        if (rc == 0)
            rc = write_answer(p, ans_path, in, answer, err);
        if (rc == 0 && p->opts->format->write) /* what the format's other files tell of the tests */
            rc = cr_findings_add(&p->findings, in->ext_id, p->input.text, p->input.len, p->answer.text, p->answer.len,
                               err);
        if (rc == 0 && test.group) {
            struct group_seen *seen = &p->seen[g];
            seen->greedy_caught |= !sample && p->findings.greedy_caught_last;
            seen->sampled |= sample;
            seen->n_largest = in->n > seen->n_largest ? in->n : seen->n_largest;
        }
        stats->tests++;
        stats->samples += (uint64_t)sample;
    }
    cr_store_results_free(answers);
    cr_store_instances_free(instances);
    return rc == 0 ? check_secret_tests(p, err) : rc;
}

/* ---- metadata, statement and programs ---- */

/* The format's folders for the tests. */
static int make_folders(package *p, cr_error *err)
{
    const cr_export_format *format = p->opts->format;
    size_t count = sizeof format->folders / sizeof format->folders[0];
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < count && format->folders[i]; i++)
        rc = cr_export__mkdir(&p->files, format->folders[i], err);
    return rc;
}

/* The time limit: the one given, else the reference solution's time on the
 * slowest test times the factor, rounded up to whole seconds (judges and
 * Kattis count whole seconds), at least one. */
static unsigned time_limit_ms(const package *p)
{
    if (p->opts->time_limit_ms)
        return p->opts->time_limit_ms;
    double seconds = p->findings.slowest * CR_EXPORT_TIME_FACTOR;
    unsigned whole = 1;
    while (whole < seconds && whole < 3600)
        whole++;
    return whole * 1000;
}

/* The folders of coinrow's greedy and brute-force solutions in a problem
 * of groups (NULL: left out): the greedy one is wrong when a secret test
 * of every group catches it; the brute force times out when every group
 * has a test long enough, and is partially accepted when each group has
 * either such a test or only short ones (and the samples are short: a
 * judge runs them first), its points those of the short groups, when they
 * are some of the points and not all (a judge calls 0 points, or all of
 * them, accepted in full). */
static void group_folders(const char **greedy, const char **brute_force, const package *p)
{
    size_t caught = 0, slow = 0, fast = 0, sampled_slow = 0;
    int64_t slow_points = 0, fast_points = 0;
    for (size_t g = 0; g < p->group_count; g++) {
        int is_slow = p->seen[g].n_largest >= BRUTE_FORCE_N, is_fast = p->seen[g].n_largest <= BRUTE_FORCE_FAST_N;
        caught += (size_t)p->seen[g].greedy_caught;
        slow += (size_t)is_slow;
        fast += (size_t)is_fast;
        slow_points += is_slow ? p->groups[g].points : 0;
        fast_points += is_fast ? p->groups[g].points : 0;
        sampled_slow += p->seen[g].sampled && p->seen[g].n_largest > BRUTE_FORCE_FAST_N;
    }
    int partial = slow > 0 && slow + fast == p->group_count && !sampled_slow && slow_points > 0 && fast_points > 0;
    *greedy = caught == p->group_count ? "wrong_answer" : NULL;
    *brute_force = slow == p->group_count ? "time_limit_exceeded" : partial ? "partially_accepted" : NULL;
}

/* The solutions the package holds: coinrow's reference one, its greedy one
 * when a test catches it, its brute-force one when a test is long enough to
 * time it out (in a problem of groups, as group_folders says), then the
 * labelled invocations' sources (--submissions).  The caller frees *out. */
static int solutions_of(cr_problem_solution **out, size_t *out_count, const package *p, cr_error *err)
{
    cr_problem_solution *v = malloc((5 + p->sources.count) * sizeof *v);
    size_t count = 0;
    *out = v;
    if (!v)
        return cr_errorf(err, CR_ENOMEM, "no memory for the solutions");
    if (p->opts->interactive) { /* the players: each wrong one when a test's jury catches it */
        v[count++] = (cr_problem_solution){"accepted", "reference.c", CR_JUDGE_PLAY_REFERENCE, NULL, CR_LANG_C};
        if (p->findings.greedy_caught)
            v[count++] = (cr_problem_solution){"wrong_answer", "greedy.c", CR_JUDGE_PLAY_GREEDY, NULL, CR_LANG_C};
        if (p->findings.line_caught)
            v[count++] = (cr_problem_solution){"wrong_answer", "precomputed.c", CR_JUDGE_PLAY_LINE, NULL, CR_LANG_C};
        v[count++] = (cr_problem_solution){"time_limit_exceeded", "unflushed.c", CR_JUDGE_PLAY_UNFLUSHED, NULL,
                                           CR_LANG_C};
        v[count++] = (cr_problem_solution){"run_time_error", "crash.c", CR_JUDGE_PLAY_CRASH, NULL, CR_LANG_C};
        *out_count = count;
        return 0;
    }
    const char *greedy = p->findings.greedy_caught ? "wrong_answer" : NULL;
    const char *brute_force = p->findings.n_largest >= BRUTE_FORCE_N ? "time_limit_exceeded" : NULL;
    if (p->group_count > 0)
        group_folders(&greedy, &brute_force, p);
    v[count++] = (cr_problem_solution){"accepted", "reference.c", CR_JUDGE_SOLUTION, NULL, CR_LANG_C};
    if (greedy)
        v[count++] = (cr_problem_solution){greedy, "greedy.c", CR_JUDGE_GREEDY, NULL, CR_LANG_C};
    if (brute_force)
        v[count++] = (cr_problem_solution){brute_force, "brute_force.c", CR_JUDGE_BRUTE_FORCE, NULL, CR_LANG_C};
    for (size_t k = 0; k < p->sources.count; k++) {
        const cr_submission_source *s = &p->sources.v[k];
        v[count++] = (cr_problem_solution){s->folder, s->name, CR_JUDGE_SOLUTION, s->path, s->lang};
    }
    *out_count = count;
    return 0;
}

/* The format's files besides the tests, for the problem the tests showed. */
static int write_others(package *p, cr_export_stats *stats, cr_error *err)
{
    if (!p->opts->format->write)
        return 0;
    cr_problem pb = {.name = p->dest->base,
                     .title = p->opts->title ? p->opts->title : p->set_name,
                     .set_name = p->set_name,
                     .run_id = p->run_id,
                     .variant = p->opts->variant,
                     .lines = p->opts->lines,
                     .interactive = p->opts->interactive,
                     .limits = p->limits,
                     .tests = p->count,
                     .samples = p->opts->samples,
                     .groups = p->groups,
                     .group_count = p->group_count,
                     .test_group = p->test_group,
                     .test_inputs = (const char *const *)p->test_inputs,
                     .sample_in = (const char *const *)p->findings.sample_in,
                     .sample_ans = (const char *const *)p->findings.sample_ans,
                     .sample_interaction = (const char *const *)p->sample_interaction,
                     .time_limit_ms = time_limit_ms(p),
                     .memory_mib = MEMORY_LIMIT_MIB,
                     .license = p->opts->license,
                     .rights_owner = p->opts->rights_owner};
    cr_problem_solution *solutions = NULL;
    int rc = solutions_of(&solutions, &pb.solution_count, p, err);
    pb.solutions = solutions;
    cr_findings_uuid(pb.uuid, &p->findings);
    stats->time_limit_ms = cr_export_format_supports(p->opts->format, CR_EXPORT_METADATA) ? pb.time_limit_ms : 0;
    if (rc == 0)
        rc = p->opts->format->write(&p->files, &pb, err);
    free(solutions);
    return rc;
}

/* Refuses a package of the set's `count` instances that has no test, no
 * secret test, or more entries than a zip holds (two files a test, the
 * format's folders and other files, `sources` invocations' sources with
 * the folder they may add, and an interactive package's samples'
 * interaction files, in a format that has them). */
static int check_tests(const char *set_name, uint64_t count, size_t sources, const cr_export_opts *opts,
                       cr_error *err)
{
    uint64_t entries = 2 * count + opts->format->entries + (sources ? sources + 1 : 0) +
                       (opts->interactive && opts->format->interaction_ext ? opts->samples : 0);
    if (count == 0)
        return cr_errorf(err, CR_EINVAL, "set '%s' has no instances to export", set_name);
    if (cr_export_format_supports(opts->format, CR_EXPORT_SAMPLES) && opts->samples >= count)
        return cr_errorf(err, CR_EINVAL, "set '%s' has %llu instance%s: %llu sample%s would leave no secret test",
                         set_name, (unsigned long long)count, count == 1 ? "" : "s",
                         (unsigned long long)opts->samples, opts->samples == 1 ? "" : "s");
    if (opts->zip && entries > CR_ZIP_MAX_ENTRIES)
        return cr_errorf(err, CR_EINVAL, "--zip: a package of %llu tests holds %llu files and folders, more "
                                            "than the %u a zip without ZIP64 holds",
                         (unsigned long long)count, (unsigned long long)entries, CR_ZIP_MAX_ENTRIES);
    return 0;
}

/* What each group of a set needs: tests. */
typedef struct group_check {
    const char *set_name;
    const cr_export_opts *opts;
    cr_error *err;
} group_check;

static int check_group(void *ctx, const cr_store_group *g)
{
    const group_check *c = ctx;
    if (g->tests == 0)
        return cr_errorf(c->err, CR_EINVAL, "set '%s': group '%s' has no tests to export (generate --set %s "
                                            "--group %s ... adds some)",
                         c->set_name, g->name, c->set_name, g->name);
    return 0;
}

/* The labelled invocations' sources that fit the package (--submissions). */
static int submissions_of(cr_submission_list *out, cr_store *store, const cr_export_opts *opts, cr_error *err)
{
    cr_group_scoring scoring = {opts->format->groups_alone, opts->samples};
    return cr_submission_list_new(out, store, opts->set_id, opts->variant,
                                  opts->lines ? CR_CHECK_MOVES_REQUIRED : CR_CHECK_MOVES_IGNORED, &scoring, err);
}

int cr_export_check(cr_store *store, const char *dir, const cr_export_opts *opts, cr_error *err)
{
    dest d = {0};
    char set_name[128];
    uint64_t count = 0;
    cr_submission_list sources = {0};
    int rc = dest_split(&d, dir, err);
    if (rc == 0)
        rc = cr_store_set_name(set_name, sizeof set_name, store, opts->set_id, err);
    if (rc == 0)
        rc = cr_store_set_size(&count, store, opts->set_id, err);
    if (rc == 0 && opts->submissions)
        rc = submissions_of(&sources, store, opts, err);
    if (rc == 0)
        rc = cr_export_opts_check(opts, err);
    if (rc == 0 && !opts->title && cr_export_format_supports(opts->format, CR_EXPORT_METADATA))
        rc = check_text("the set's name (the problem's name without --title)", set_name, err);
    if (rc == 0)
        rc = check_tests(set_name, count, sources.count, opts, err);
    group_check groups = {set_name, opts, err};
    size_t group_count = 0;
    if (rc == 0)
        rc = cr_store_groups_each(&group_count, store, opts->set_id, check_group, &groups, err);
    if (rc == 0 && group_count > 0)
        rc = cr_store_groups_refuse_case_twins(store, opts->set_id, set_name, err);
    if (rc == 0 && group_count > 0 && opts->interactive)
        rc = cr_errorf(err, CR_EINVAL, "set '%s' is scored by %zu groups: an interactive package of groups is not "
                                       "written yet (export it without --interactive)",
                       set_name, group_count);
    if (rc == 0 && group_count > 0 && !cr_export_format_supports(opts->format, CR_EXPORT_GROUPS)) {
        char takers[256];
        cr_export__formats_with(takers, sizeof takers, CR_EXPORT_GROUPS);
        rc = cr_errorf(err, CR_EINVAL, "set '%s' is scored by %zu groups, which the packages of --format %s cannot "
                                       "hold%s%s%s",
                       set_name, group_count, opts->format->name, *takers ? " (it is for --format " : "", takers,
                       *takers ? ")" : "");
    }
    if (rc == 0)
        rc = check_dest(&d, store, opts, err);
    if (rc == 0 && opts->format->check_tools)
        rc = opts->format->check_tools(opts, d.dir, err);
    cr_submission_list_free(&sources);
    dest_free(&d);
    return rc;
}

/* ---- putting it in place ---- */

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_tree(const char *path)
{
    if (path)
        nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* "PARENT/.BASE<what>.coinrow-XXXXXX", for mkdtemp or mkstemp: beside
 * DIR, so that a rename puts it in place. */
static char *temp_name(const dest *d, const char *what)
{
    size_t len = strlen(d->parent) + strlen(d->base) + strlen(what) + sizeof "/..coinrow-XXXXXX";
    char *name = malloc(len);
    if (name)
        snprintf(name, len, "%s/.%s%s.coinrow-XXXXXX", d->parent, d->base, what);
    return name;
}

/* Replaces d->dir by the folder at tmp, and d->dir.zip by the file at
 * tmp_zip when there is one (renamed over zip_target, DIR.zip or the file
 * its link names): both or neither.  The previous folder is moved
 * aside first and removed once both are in place; when either rename fails,
 * the new folder goes back to tmp (the caller removes it) and the previous
 * one back in place, and should that fail too the error says where the
 * previous one is kept, rather than leave it under a hidden name unsaid. */
static int put_in_place(const dest *d, const char *tmp, const char *tmp_zip, const char *zip_target, cr_error *err)
{
    size_t len = strlen(tmp) + sizeof ".old";
    char *old = malloc(len);
    int rc = 0, moved_aside = 0, placed = 0;
    if (!old) {
        rc = cr_errorf(err, CR_ENOMEM, "no memory to put %s in place", d->dir);
        goto done;
    }
    snprintf(old, len, "%s.old", tmp);
    if (rename(d->dir, old) == 0)
        moved_aside = 1;
    else if (errno != ENOENT) {
        rc = cr_errorf(err, CR_EIO, "cannot replace %s: %s", d->dir, strerror(errno));
        goto done;
    }
    if (rename(tmp, d->dir) == 0)
        placed = 1;
    else
        rc = cr_errorf(err, CR_EIO, "cannot create %s: %s", d->dir, strerror(errno));
    if (rc == 0 && tmp_zip && rename(tmp_zip, zip_target) != 0) {
        rc = cr_errorf(err, CR_EIO, "cannot create %s: %s", d->zip, strerror(errno));
        if (rename(d->dir, tmp) == 0)
            placed = 0;
    }
    if (rc && moved_aside && !placed && rename(old, d->dir) == 0)
        moved_aside = 0;
    if (rc && (moved_aside || placed)) {
        char first[sizeof err->msg];
        snprintf(first, sizeof first, "%s", err ? err->msg : "");
        if (moved_aside)
            cr_errorf(err, rc, "%s; the previous %s is kept as %s%s", first, d->dir, old,
                      placed ? ", the new one in its place" : "");
        else
            cr_errorf(err, rc, "%s; the new %s is in place without it", first, d->dir);
    }
    if (rc == 0 && moved_aside)
        remove_tree(old);
done:
    free(old);
    return rc;
}

/* cr_store_groups_each's callback: a copy of each group. */
static int keep_group(void *ctx, const cr_store_group *g)
{
    package *p = ctx;
    if (cr_grow((void **)&p->groups, &p->group_cap, p->group_count + 1, sizeof *p->groups, 8))
        return CR_ENOMEM;
    cr_problem_group *to = &p->groups[p->group_count++];
    *to = (cr_problem_group){strdup(g->name), g->points, g->limits, g->all_equal, strdup(g->depends), 0, 0};
    return to->name && to->depends ? 0 : CR_ENOMEM;
}

/* cr_store_group_tests_each's callback: each grouped test with its group. */
static int keep_grouped(void *ctx, int64_t instance_id, int64_t rank)
{
    package *p = ctx;
    if (rank < 1 || (uint64_t)rank > p->group_count)
        return CR_EINVAL; /* a group made while the package was read: not one the package holds */
    if (cr_grow((void **)&p->grouped, &p->grouped_cap, p->grouped_count + 1, sizeof *p->grouped, 256))
        return CR_ENOMEM;
    p->grouped[p->grouped_count++] = (struct grouped){instance_id, (size_t)rank - 1};
    p->groups[rank - 1].tests++;
    return 0;
}

/* The set's groups, each test's among them, and room for test k's. */
static int gather_groups(package *p, cr_error *err)
{
    size_t count = 0;
    int rc = cr_store_groups_each(&count, p->store, p->opts->set_id, keep_group, p, err);
    if (rc == 0 && count > 0)
        rc = cr_store_group_tests_each(p->store, p->opts->set_id, keep_grouped, p, err);
    if (rc == 0 && count > 0 && (!(p->test_group = calloc(p->count ? p->count : 1, sizeof *p->test_group)) ||
                                 !(p->test_inputs = calloc(p->count ? p->count : 1, sizeof *p->test_inputs)) ||
                                 !(p->seen = calloc(count, sizeof *p->seen))))
        rc = CR_ENOMEM;
    if (rc == CR_ENOMEM)
        return cr_errorf(err, CR_ENOMEM, "no memory for the groups of set '%s'", p->set_name);
    if (rc == CR_EINVAL)
        return cr_errorf(err, CR_EINVAL, "the groups of set '%s' changed while it was exported", p->set_name);
    return rc;
}

/* What the package needs before any of it is written: the set, what its
 * inputs promise, the answers, and the labelled sources. */
static int gather(package *p, cr_export_stats *out, cr_error *err)
{
    const cr_export_opts *opts = p->opts;
    int rc = cr_store_set_name(p->set_name, sizeof p->set_name, p->store, opts->set_id, err);
    if (rc == 0)
        rc = cr_store_set_size(&p->count, p->store, opts->set_id, err);
    cr_gen_spec spec;
    if (rc == 0)
        rc = cr_store_set_generator(&spec, &p->generated, p->store, opts->set_id, err);
    if (rc == 0 && p->generated)
        p->limits = spec.limits;
    if (rc == 0)
        rc = cr_store_run_refuse_unanswered(p->store, p->run_id, opts->variant, p->set_name, "exported", err);
    if (rc == 0 && opts->submissions)
        rc = submissions_of(&p->sources, p->store, opts, err);
    if (rc == 0)
        rc = gather_groups(p, err);
    if (rc)
        return rc;
    out->groups = p->group_count;
    out->submissions = p->sources.count;
    out->skipped = p->sources.skipped;
    memcpy(out->skipped_why, p->sources.skipped_why, sizeof out->skipped_why);
    out->refused = p->sources.refused;
    memcpy(out->refused_why, p->sources.refused_why, sizeof out->refused_why);
    if (!p->generated)
        p->limits = (cr_constraints){SIZE_MAX, 0, INT64_MAX, INT64_MIN, 0, 0};
    return 0;
}

/* The package's files, in a new temporary folder beside the destination
 * (p->files.root), and its zip beside that (*tmp_zip, to go over
 * *zip_target) when asked. */
static int fill(package *p, char **tmp_zip, char **zip_target, cr_export_stats *out, cr_error *err)
{
    const cr_export_opts *opts = p->opts;
    cr_package *files = &p->files;
    files->root = temp_name(p->dest, "");
    files->path_cap = (files->root ? strlen(files->root) : 0) + CR_EXPORT_TEST_PATH_MAX + 64;
    files->path = malloc(files->path_cap);
    if (!files->root || !files->path)
        return cr_errorf(err, CR_ENOMEM, "no memory for the paths of %s", p->dest->dir);
    /* mkdtemp and mkstemp make private files; the package gets the usual
     * permissions */
    mode_t mask = umask(0);
    umask(mask);
    if (!mkdtemp(files->root) || chmod(files->root, 0777 & ~mask) != 0)
        return cr_errorf(err, CR_EIO, "cannot create a folder beside %s: %s", p->dest->dir, strerror(errno));
    cr_findings_init(&p->findings, opts->variant, opts->lines, opts->samples);
    /* the time limit comes of the slowest test, and the greedy solution goes
     * with the others when a test catches it (every interactive package
     * holds the players) */
    p->findings.timed = cr_export_format_supports(opts->format, CR_EXPORT_METADATA) && !opts->time_limit_ms;
    p->findings.greedy = cr_export_format_supports(opts->format, CR_EXPORT_SUBMISSIONS) || opts->interactive;
    p->findings.every_test = p->group_count > 0; /* which groups catch it */
    p->findings.interactive = opts->interactive; /* the wrong players, which the jury's seeds catch */
    int rc = make_folders(p, err);
    if (rc == 0)
        rc = write_tests(p, out, err);
    if (rc == 0)
        rc = write_others(p, out, err);
    if (rc || !opts->zip)
        return rc;
    /* made beside DIR.zip (or the file its link names) with the usual
     * permissions, and written again whole */
    FILE *zip = cr_file_beside(tmp_zip, zip_target, p->dest->zip, err);
    if (!zip)
        return err->code;
    fclose(zip);
    return cr_zip_dir(*tmp_zip, files->root, err);
}

int cr_export_write(cr_export_stats *out, cr_store *store, const char *dir, int64_t run_id,
                    const cr_export_opts *opts, cr_error *err)
{
    dest d = {0};
    package p = {.files = {.opts = opts}, .store = store, .opts = opts, .run_id = run_id, .dest = &d};
    char *tmp_zip = NULL, *zip_target = NULL;
    memset(out, 0, sizeof *out);
    int rc = dest_split(&d, dir, err);
    p.files.shown = d.dir;
    if (rc == 0)
        rc = cr_export_check(store, dir, opts, err);
    if (rc == 0)
        rc = gather(&p, out, err);
    if (rc == 0)
        rc = fill(&p, &tmp_zip, &zip_target, out, err);
    /* a stop during a build (which the signal may have ended too) or the
     * zip is told as a stop */
    if (rc != CR_ENOMEM && stopped(&p, err))
        rc = CR_EINTERRUPTED;
    if (rc == 0)
        rc = put_in_place(&d, p.files.root, tmp_zip, zip_target, err);
    if (rc) {
        remove_tree(p.files.root);
        if (tmp_zip)
            remove(tmp_zip);
    }
    if (rc == 0 && !opts->license)
        out->advice = opts->format->unlicensed;
    free(tmp_zip);
    free(zip_target);
    cr_export__package_free(&p.files);
    free(p.input.text);
    free(p.answer.text);
    cr_findings_free(&p.findings);
    cr_submission_list_free(&p.sources);
    for (size_t g = 0; g < p.group_count; g++) {
        free((char *)p.groups[g].name);
        free((char *)p.groups[g].depends);
    }
    free(p.groups);
    free(p.grouped);
    free(p.test_group);
    for (size_t k = 0; p.test_inputs && k < p.count; k++)
        free(p.test_inputs[k]);
    free(p.test_inputs);
    free(p.seen);
    for (uint64_t k = 0; p.sample_interaction && k < opts->samples; k++)
        free(p.sample_interaction[k]);
    free(p.sample_interaction);
    dest_free(&d);
    return rc;
}
