/* Exporting a stored set as a package a judging system takes as it is
 * (docs/judges.md, "Export"): the inputs in the format's layout, the answers
 * of a done run, and, as the format has them, the metadata, a statement, and
 * the judge programs as sources that build alone (judge/program.h).
 *
 * Each format is a backend that describes itself (docs/design.md, "Export
 * formats"): its name, what its packages hold (cr_export_feature) and its
 * layout; callers find one by its name and ask what it supports, never
 * which one it is.  Its file (kattis.c, polygon.c, ...) says what its
 * package holds. */
#ifndef CR_EXPORT_H
#define CR_EXPORT_H

#include <stdatomic.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/game.h"
#include "store/store.h"

/* A format export writes: opaque, one of the table format.c lists. */
typedef struct cr_export_format cr_export_format;

/* What a format's packages can hold besides the tests and answers, each the
 * meaning of options: a feature a format lacks makes its options refused.  A
 * later feature takes a new bit, set in the descriptors of the formats that
 * have it. */
typedef enum cr_export_feature {
    CR_EXPORT_SAMPLES = 1u << 0,     /* the first tests shown as samples (samples) */
    CR_EXPORT_METADATA = 1u << 1,    /* the problem's name and time limit (title, time_limit_ms) */
    CR_EXPORT_LICENSE = 1u << 2,     /* a licence and who holds the rights (license, rights_owner) */
    CR_EXPORT_SUBMISSIONS = 1u << 3, /* solutions with their verdicts: coinrow's own and the labelled
                                        invocations' (submissions) */
    CR_EXPORT_BUILD = 1u << 4,       /* a program built at export (no_build leaves it out) */
    CR_EXPORT_GROUPS = 1u << 5,      /* tests scored by groups: a set of groups exports only to a format
                                        that has them */
    CR_EXPORT_INTERACTION = 1u << 6  /* the interactive game: an interactor plays the jury, the tests hold
                                        its seeds (interactive) */
} cr_export_feature;

/* The k-th format (from 0), in the order --help lists them; NULL past the
 * last. */
const cr_export_format *cr_export_format_at(size_t k);

/* The format called name; CR_EINVAL naming the text and the formats. */
int cr_export_format_parse(const cr_export_format **out, const char *name, cr_error *err);

/* Its name ("kattis"), and one line on the system and what its package
 * holds, for --help. */
const char *cr_export_format_name(const cr_export_format *format);
const char *cr_export_format_summary(const cr_export_format *format);

/* 1 when the format has every feature of `features` (cr_export_feature
 * bits), else 0. */
int cr_export_format_supports(const cr_export_format *format, unsigned features);

typedef struct cr_export_opts {
    const cr_export_format *format;
    int64_t set_id;
    cr_variant variant; /* the value the answers hold */
    int lines;          /* answers carry the canonical line of play too */
    uint64_t samples;   /* the first instances are samples (CR_EXPORT_SAMPLES) */
    int zip;            /* also write DIR.zip of the folder */
    int force;          /* replace an existing DIR (and DIR.zip) */
    const char *title;  /* the problem's name (NULL: the set's name; CR_EXPORT_METADATA) */
    const char *license, *rights_owner; /* CR_EXPORT_LICENSE (NULL: unknown, none) */
    unsigned time_limit_ms; /* 0: the reference solution's time on the slowest test (coinrow's
                               solver reading and solving it), times CR_EXPORT_TIME_FACTOR, rounded
                               up to whole seconds, at least one */
    int no_build;       /* CR_EXPORT_BUILD: write the program's source only, without building it */
    int submissions;    /* CR_EXPORT_SUBMISSIONS: the sources of the set's labelled invocations too */
    int interactive;    /* CR_EXPORT_INTERACTION: the contestant plays the first player against the jury
                           (docs/judges.md, "Interactive problems"); each test's judge answer holds the
                           jury's seed */
    const atomic_int *stop; /* may be NULL; once set, the export stops with CR_EINTERRUPTED, leaving
                               nothing of the package behind */
} cr_export_opts;

#define CR_EXPORT_TIME_FACTOR 3

/* 0 when opts can go into a package the judges' tools take: every option
 * given means something to the format (a sample count above 0 needs
 * CR_EXPORT_SAMPLES, and so on for each feature); the title and the
 * rights owner are one line of UTF-8 text (no control
 * character, not blanks alone), and the format takes the license with the
 * rights owner (kattis.c: one problem.yaml knows, with the rights owner
 * problemtools asks for); an interactive package has no lines in its
 * answers and no labelled invocations' sources (batch programs).  Else
 * CR_EINVAL naming the option. */
int cr_export_opts_check(const cr_export_opts *opts, cr_error *err);

/* Checks, before anything is computed, that a package of the set can go
 * to dir: opts pass cr_export_opts_check, and without a title the set's
 * name can be the problem's (for a format with CR_EXPORT_METADATA); the set
 * has instances, and more than opts->samples of them (for a format with
 * CR_EXPORT_SAMPLES), and with zip no more than a zip holds
 * (CR_ZIP_MAX_ENTRIES files and folders); dir's name suits the format (the
 * problem's short name, of the characters the format allows), its parent
 * exists, and dir is missing or an empty folder (with force: any folder
 * that holds neither the database nor the current folder); likewise
 * DIR.zip with zip; with submissions, the sources of the labelled
 * invocations can be read; the format's tools are there (a compiler for a
 * program it builds, without no_build).  CR_EINVAL saying what and where. */
int cr_export_check(cr_store *store, const char *dir, const cr_export_opts *opts, cr_error *err);

/* Counts of what a package holds. */
typedef struct cr_export_stats {
    uint64_t tests, samples;
    size_t groups;             /* the groups the tests are scored by (0: none) */
    unsigned time_limit_ms;    /* the package's time limit (0 without CR_EXPORT_METADATA) */
    uint64_t submissions;      /* invocations' sources put in the package (--submissions) */
    uint64_t skipped;          /* labelled invocations left out (cr_submission_list_new) */
    char skipped_why[256];     /* why the first one was */
    uint64_t refused;          /* sources not copied: not in their invocation's folder */
    char refused_why[512];     /* which the first one was */
    const char *advice;        /* what the format advises of the package (kattis: give a licence), or NULL */
} cr_export_stats;

/* Checks as cr_export_check does, then writes the package of the set with
 * the answers of run run_id (one that cr_store_run_with_answers gives) into a new
 * folder beside dir, which then replaces dir (and, with zip, dir.zip is
 * written from it): on failure nothing is left.  The validator and the
 * statement take the constraints the set's generator kept, or for an
 * ingested set the n and value ranges of its data.  Refuses (CR_EINVAL,
 * naming them) instances the run could not answer (a value beyond int64), an
 * instance that breaks the constraints its generator promised, and what the
 * format refuses (plain: ids that become the same file name; cms, without
 * no_build: a checker that cannot be built, the compiler being $CC, else
 * cc).  Fills *out with the counts. */
int cr_export_write(cr_export_stats *out, cr_store *store, const char *dir, int64_t run_id,
                    const cr_export_opts *opts, cr_error *err);

#endif
