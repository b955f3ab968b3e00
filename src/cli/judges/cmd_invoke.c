/* coinrow invoke: a program, or a built-in strategy, judged on every
 * instance of a set (invoke/invoke.h), its verdicts stored in the invocation;
 * the summary, and an exit status that says whether every verdict was the
 * one expected. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/job.h"
#include "cli/progress.h"
#include "cli/signals.h"
#include "invoke/invoke.h"
#include "util/util.h"

/* A number macro's value as text, for the help. */
#define MIB_TEXT(n) MIB_TEXT_(n)
#define MIB_TEXT_(n) #n

/* The command line's choices. */
typedef struct args {
    const char *db, *set, *variant, *moves, *time_limit, *memory_limit, *output_limit, *jobs, *label, *expect,
        *builtin;
    int resume, quiet, progress, sandbox, interactive;
} args;

/* cli_print_command into a message: a string for the caller to free (NULL when
 * there is no memory). */
static char *command_text(char *const *argv)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        cli_print_command(f, argv);
        fclose(f);
    }
    return text;
}

static void print_program(FILE *f, const cr_invocation *inv)
{
    if (inv->argv)
        cli_print_command(f, inv->argv);
    else
        fprintf(f, "--builtin %s", cr_strategy_name(inv->strategy));
}

/* ---- checking the command line ---- */

/* Fills inv from a new invocation's arguments: -1 to go on, or the exit
 * status of a usage error. */
static int check_new(cr_invocation *inv, const cli_command *self, const args *a, int npos, char **pos)
{
    cr_error err = {0};
    if (!a->set || !a->variant)
        return cli_usage_error(self, "--set and --variant are required");
    if (!a->builtin == !npos)
        return cli_usage_error(self, "give the program after '--' (-- COMMAND [ARG...]), or --builtin NAME");
    if (a->builtin && (a->time_limit || a->memory_limit || a->output_limit || a->sandbox))
        return cli_usage_error(self, "--builtin runs inside coinrow: time, memory and output limits and --sandbox "
                                     "do not apply");
    if (a->interactive && (a->output_limit || strcmp(a->moves, "required") != 0))
        return cli_usage_error(self, "--interactive: the protocol bounds what the program writes, and it writes the "
                                     "line move by move: --output-limit and --moves do not apply");
    if (cr_variant_parse(&inv->variant, a->variant, &err) || cr_check_moves_parse(&inv->moves, a->moves, &err) ||
        (a->builtin && cr_strategy_parse(&inv->strategy, a->builtin, &err)))
        return cli_usage_error(self, "%s", err.msg);
    char *end = NULL;
    inv->limits.cpu_seconds = a->time_limit ? strtod(a->time_limit, &end) : 1;
    if (a->time_limit && (end == a->time_limit || *end || !(inv->limits.cpu_seconds > 0) ||
                          inv->limits.cpu_seconds > CR_INVOCATION_SECONDS_MAX))
        return cli_usage_error(self, "--time-limit takes seconds (more than 0, at most %d), not '%s'",
                               CR_INVOCATION_SECONDS_MAX, a->time_limit);
    int64_t memory = 256, output = 64, jobs = 1;
    if (a->memory_limit && cli_int_parse(&memory, a->memory_limit, 1, CR_INVOCATION_MEMORY_MIB_MAX))
        return cli_usage_error(self, "--memory-limit takes MiB from 1 to %d, not '%s'", CR_INVOCATION_MEMORY_MIB_MAX,
                               a->memory_limit);
    if (a->output_limit && cli_int_parse(&output, a->output_limit, 1, CR_INVOCATION_OUTPUT_MIB_MAX))
        return cli_usage_error(self, "--output-limit takes MiB from 1 to %d, not '%s'", CR_INVOCATION_OUTPUT_MIB_MAX,
                               a->output_limit);
    if (a->jobs && cli_int_parse(&jobs, a->jobs, 1, CR_INVOCATION_JOBS_MAX))
        return cli_usage_error(self, "--jobs takes a number from 1 to %d, not '%s'", CR_INVOCATION_JOBS_MAX, a->jobs);
    inv->limits.memory_bytes = (uint64_t)memory << 20;
    inv->limits.output_bytes = (uint64_t)output << 20;
    inv->jobs = (int)jobs;
    inv->sandbox = a->sandbox;
    inv->interactive = a->interactive;
    snprintf(inv->label, sizeof inv->label, "%s", a->label ? a->label : "");
    if (npos) {
        pos[npos] = NULL; /* cli_parse moved the command to the front of argv */
        inv->argv = pos;  /* borrowed until the invocation is stored */
        if (!getcwd(inv->directory, sizeof inv->directory))
            return cli_usage_error(self, "cannot tell the current folder");
    }
    return -1;
}

/* Reads --resume [ID] [-- COMMAND...]: the id into *out_id (0: the latest),
 * the command given (NULL-terminated, borrowed from argv; NULL for none)
 * into *out_command. */
static int check_resume(int64_t *out_id, char ***out_command, const cli_command *self, const args *a, int npos,
                        int ncommand, char **pos)
{
    *out_id = 0;
    *out_command = NULL;
    int nid = npos - ncommand;
    if (nid > 1 || (nid == 1 && cli_int_parse(out_id, pos[0], 1, INT64_MAX)))
        return cli_usage_error(self, "--resume takes one invocation id (a positive number), or none for the latest; "
                                     "the program's command goes after '--'");
    if (a->set || a->variant || a->time_limit || a->memory_limit || a->output_limit || a->jobs || a->label ||
        a->builtin || a->interactive || strcmp(a->moves, "required") != 0)
        return cli_usage_error(self, "--resume goes on with the invocation's own set and options");
    if (ncommand) {
        pos[npos] = NULL; /* cli_parse moved the command to the front of argv, after the id */
        *out_command = pos + nid;
    }
    return -1;
}

/* The program, a source or a file the command's first word names (a
 * script or a program, not one found on PATH), changed since the
 * invocation started (edited, rebuilt): its verdicts so far are of what
 * it was then, and the rest would be of another program.  0, or CR_EINVAL
 * naming it. */
static int check_unchanged(const cr_invocation *inv, cr_error *err)
{
    const char *program = inv->argv[0];
    struct stat sb;
    if (!inv->started || (cr_submission_language(inv->argv) == CR_LANG_NONE && !strchr(program, '/')) ||
        stat(program, &sb) != 0 || (int64_t)sb.st_mtime <= inv->started)
        return 0;
    char started[CR_TIME_TEXT_MAX], changed[CR_TIME_TEXT_MAX];
    return cr_errorf(err, CR_EINVAL, "invocation %lld started at %s, and %s has changed since (at %s): its verdicts "
                                     "so far are of what it was then; judge it in a new invocation",
                     (long long)inv->id, cr_time_text(started, inv->started), program,
                     cr_time_text(changed, (int64_t)sb.st_mtime));
}

/* Whether the stored invocation may go on as the command line asks: the
 * database says which command ran, in which folder and whether in the
 * sandbox, but only what the person at the keyboard typed runs (a database
 * from elsewhere could name any command, docs/trust.md).  A program goes
 * on only when its command is given again after '--', word for word, from
 * the folder it ran in, and in the sandbox when it ran there (--sandbox
 * turns it on, never off), its files unchanged; a built-in runs no
 * command.  0, or CR_EINVAL saying what to give. */
static int check_resumed(const cr_invocation *inv, char *const *command, int sandbox, cr_error *err)
{
    long long id = (long long)inv->id;
    if (!inv->argv) {
        if (sandbox)
            return cr_errorf(err, CR_EINVAL, "invocation %lld judges the built-in %s, inside coinrow: --sandbox does "
                                             "not apply", id, cr_strategy_name(inv->strategy));
        if (command)
            return cr_errorf(err, CR_EINVAL, "invocation %lld judges the built-in %s, which runs no command: leave "
                                             "out the command after '--'", id, cr_strategy_name(inv->strategy));
        return 0;
    }
    size_t k = 0;
    while (command && inv->argv[k] && command[k] && strcmp(inv->argv[k], command[k]) == 0)
        k++;
    if (!command || inv->argv[k] || command[k]) {
        char *stored = command_text(inv->argv), *given = command ? command_text(command) : NULL;
        int rc = !command ? cr_errorf(err, CR_EINVAL, "invocation %lld ran the command %s: give it again after '--' "
                                                      "to go on (coinrow runs only a command you type)",
                                      id, stored ? stored : "")
                          : cr_errorf(err, CR_EINVAL, "invocation %lld ran the command %s, not %s: give the same "
                                                      "command after '--' to go on",
                                      id, stored ? stored : "", given ? given : "");
        free(stored);
        free(given);
        return rc;
    }
    char here[sizeof inv->directory];
    if (!getcwd(here, sizeof here))
        return cr_errorf(err, CR_EINVAL, "cannot tell the current folder");
    if (strcmp(here, inv->directory) != 0)
        return cr_errorf(err, CR_EINVAL, "invocation %lld ran its command in %s, not here (%s): go on from there, "
                                         "where the command means what it meant",
                         id, inv->directory, here);
    if (inv->sandbox && !sandbox)
        return cr_errorf(err, CR_EINVAL, "invocation %lld runs its program in the sandbox: give --sandbox to go on "
                                         "(a resumed invocation cannot turn it off)", id);
    return check_unchanged(inv, err);
}

/* ---- the report ---- */

typedef struct watch {
    cli_progress progress;
    uint64_t before; /* judged in earlier sessions */
} watch;

static void show_progress(void *ctx, const cr_invoke_stats *s)
{
    watch *w = ctx;
    char tail[160];
    size_t len = 0;
    tail[0] = '\0';
    for (int v = 0; v < CR_INVOKE_VERDICT_COUNT && len < sizeof tail; v++)
        if (s->counts[v])
            len += (size_t)snprintf(tail + len, sizeof tail - len, "%s%s %llu", len ? ", " : "",
                                    cr_invoke_verdict_name((cr_invoke_verdict)v), (unsigned long long)s->counts[v]);
    cli_progress_bar(&w->progress, w->before + s->judged, w->before + s->judged + s->left, tail);
}

/* The points of a set with groups, group by group, as one line. */
typedef struct points_line {
    FILE *f;
    int64_t points, scored;
    size_t groups;
} points_line;

static int add_group(void *ctx, const cr_group_points *g)
{
    points_line *p = ctx;
    fputs(p->groups++ ? ", " : "", p->f);
    cr_text_put(p->f, g->name);
    fprintf(p->f, " %lld of %lld", (long long)g->scored, (long long)g->points);
    if (g->accepted < g->tests)
        fprintf(p->f, " (AC %llu of %llu%s)", (unsigned long long)g->accepted, (unsigned long long)g->tests,
                g->judged < g->tests ? ", not all judged" : "");
    else if (!g->passed)
        fputs(g->tests ? " (a group it depends on is not passed)" : " (it has no tests)", p->f);
    p->points += g->points;
    p->scored += g->scored;
    return 0;
}

/* "points: S of P: GROUP S of P, ..." for invocation id, into *out (for
 * the caller to free); NULL for a set without groups. */
static int points_text(char **out, cr_store *store, int64_t id, cr_error *err)
{
    char *groups = NULL;
    size_t len = 0, count = 0;
    points_line p = {open_memstream(&groups, &len), 0, 0, 0};
    *out = NULL;
    if (!p.f)
        return cr_errorf(err, CR_ENOMEM, "no memory for the points");
    int rc = cr_store_invocation_points_each(&count, store, id, add_group, &p, err);
    if (fclose(p.f) != 0 && rc == 0)
        rc = cr_errorf(err, CR_ENOMEM, "no memory for the points");
    if (rc == 0 && count) {
        size_t cap = len + 64;
        if ((*out = malloc(cap)))
            snprintf(*out, cap, "points: %lld of %lld: %s", (long long)p.scored, (long long)p.points, groups);
        else
            rc = cr_errorf(err, CR_ENOMEM, "no memory for the points");
    }
    free(groups);
    return rc;
}

/* The summary; every name and message in it comes from the database (or a
 * file before it), escaped on its way out.  points: its points line, NULL
 * for a set without groups. */
static void print_summary(const cr_invocation *inv, const cr_invocation_summary *s, uint64_t left,
                          const char *set_name, cr_invoke_verdict expect, const char *points)
{
    printf("invocation %lld of set '", (long long)inv->id);
    cr_text_put(stdout, set_name);
    printf("': ");
    print_program(stdout, inv);
    if (inv->interactive)
        printf(" (%s, interactive", cr_variant_name(inv->variant));
    else
        printf(" (%s, moves %s", cr_variant_name(inv->variant), cr_check_moves_name(inv->moves));
    if (inv->argv)
        printf("; %g s, %llu MiB", inv->limits.cpu_seconds, (unsigned long long)(inv->limits.memory_bytes >> 20));
    if (inv->argv && !inv->interactive)
        printf(", %llu MiB of output", (unsigned long long)(inv->limits.output_bytes >> 20));
    printf("%s%s", inv->sandbox ? "; sandboxed" : "", inv->label[0] ? "; label " : "");
    cr_text_put(stdout, inv->label);
    printf(")\n");
    printf("judged %llu of %llu", (unsigned long long)s->judged, (unsigned long long)(s->judged + left));
    const char *sep = ": ";
    for (int v = 0; v < CR_INVOKE_VERDICT_COUNT; v++)
        if (s->counts[v]) {
            printf("%s%s %llu", sep, cr_invoke_verdict_name((cr_invoke_verdict)v), (unsigned long long)s->counts[v]);
            sep = ", ";
        }
    printf("\n");
    if (points)
        printf("%s\n", points); /* the names in it escaped by add_group */
    if (s->slowest_count) {
        char t[32];
        printf("slowest (CPU):");
        for (int k = 0; k < s->slowest_count; k++) {
            printf("%s ", k ? "," : "");
            cr_text_put(stdout, s->slowest[k].ext_id);
            printf(" %s (%s)", cr_seconds_text(t, s->slowest[k].cpu_seconds),
                   cr_invoke_verdict_name(s->slowest[k].verdict));
        }
        printf("; %s in all\n", cr_seconds_text(t, s->cpu_seconds));
    }
    if (s->peak_rss_kib > s->rss_floor_kib) {
        printf("peak memory: %.1f MiB (", (double)s->peak_rss_kib / 1024);
        cr_text_put(stdout, s->peak_ext_id);
        printf(")\n");
    } else if (s->peak_rss_kib >= 0) /* invoke/invoke.h: wait4 counts coinrow's own size */
        printf("peak memory: at most %.1f MiB, coinrow's own size, which wait4 counts in every program's\n",
               (double)s->rss_floor_kib / 1024);
    if (s->has_failure) {
        printf("first test not %s: ", cr_invoke_verdict_name(expect));
        cr_text_put(stdout, s->failure_ext_id);
        printf(": %s: ", cr_invoke_verdict_name(s->failure_verdict));
        cr_text_put(stdout, s->failure_message);
        putchar('\n');
        if (s->failure_stderr[0]) {
            printf("  its stderr: ");
            cr_text_put(stdout, s->failure_stderr);
            putchar('\n');
        }
    }
}

/* ---- carrying it out ---- */

/* The invocation's program made runnable, in its sandbox when it has one. */
typedef struct runnable {
    cr_submission *program;
    cr_sandbox *sandbox;
} runnable;

static int runnable_make(runnable *out, const cr_invocation *inv, cr_error *err)
{
    /* coinrow itself is the sandbox's init */
    const char *init = inv->sandbox ? "/proc/self/exe" : NULL;
    int rc = cr_submission_new(&out->program, inv->argv, inv->directory, init, err);
    cr_sandbox_opts o = {.argv = rc == 0 ? cr_submission_argv(out->program) : NULL,
                         .script = rc == 0 ? cr_submission_script(out->program) : NULL,
                         .path = rc == 0 ? cr_submission_path(out->program) : NULL,
                         .dir = inv->directory, .init = init, .limits = &inv->limits};
    if (rc == 0 && init)
        rc = cr_sandbox_new(&out->sandbox, &o, err);
    if (rc == 0)
        rc = cr_submission_unlink(out->program, err);
    return rc;
}

static void runnable_free(runnable *r)
{
    cr_sandbox_free(r->sandbox);
    cr_submission_free(r->program);
}

/* Finds or starts the invocation: -1 to go on with it in *inv, or the exit
 * status.  A resumed one goes on with `command` (check_resumed). */
static int open_invocation(cr_invocation *inv, runnable *program, const cli_command *self, cr_store *store,
                           const args *a, int64_t resume_id, char *const *command, char *set_name, size_t cap)
{
    cr_error err = {0};
    int rc;
    if (a->resume) {
        if ((rc = cr_store_invocation_find(inv, store, resume_id, CR_PICK_UNFINISHED, &err)) == 0)
            rc = check_resumed(inv, command, a->sandbox, &err);
        if (rc == 0 && strcmp(inv->coinrow_version, cli_version()) != 0)
            cli_fail("note: invocation %lld was started by coinrow %s; this is %s", (long long)inv->id,
                     inv->coinrow_version, cli_version());
    } else {
        rc = cr_store_set_find(&inv->set_id, store, a->set, 0, NULL, &err);
    }
    if (rc == 0)
        rc = cr_store_set_name(set_name, cap, store, inv->set_id, &err);
    if (rc == 0) /* its summary gives their points: refused before the judging, not after */
        rc = cr_store_groups_refuse_broken(store, inv->set_id, &err);
    if (rc)
        return cli_report_trouble(&err);
    if (!a->resume) {
        cr_run run;
        int status = cli_answers_run(&run, self, store, a->db, set_name, inv->set_id, inv->variant, 0);
        if (status >= 0)
            return status == CR_EXIT_INTERRUPTED ? status : CR_EXIT_TROUBLE;
        inv->answers_run = run.id;
    }
    rc = cr_store_run_refuse_unanswered(store, inv->answers_run, inv->variant, set_name, "judged", &err);
    int sandbox_on = a->resume && a->sandbox && !inv->sandbox; /* on from here, and for every resume after */
    inv->sandbox |= sandbox_on;
    if (rc == 0 && a->resume && inv->argv)
        rc = runnable_make(program, inv, &err);
    /* a limit too low for the run refuses it before it is recorded, rather
     * than leave a failed invocation per attempt */
    int files = CR_INVOKE_FILES(inv->jobs, inv->argv != NULL);
    if (rc == 0 && !cr_files_spare(files))
        rc = cr_errorf(&err, CR_EIO, "%s: too many open files: the invocation needs %d more at once (raise the limit, "
                                     "ulimit -n)", a->db, files);
    if (rc == 0 && sandbox_on) /* once its sandbox could be made */
        rc = cr_store_invocation_sandbox_on(store, inv->id, &err);
    if (rc == 0)
        rc = a->resume ? cr_store_invocation_set_status(store, inv->id, CR_RUN_RUNNING, NULL, &err)
                       : cr_store_invocation_new(inv, store, cli_version(), &err);
    if (rc)
        return cli_report_trouble(&err);
    return -1;
}

static const cli_option options[] = {
    CLI_TEXT(args, set, "set", "NAME", "the instance set (required)"),
    CLI_TEXT(args, variant, "variant", "V", "total, diff, remaining or winner: what the program answers (required)"),
    CLI_TEXT(args, db, "db", "PATH", "the database (default coinrow.db)"),
    CLI_TEXT(args, moves, "moves", "POLICY", "required (default): the line follows the value; ignored"),
    CLI_TEXT(args, time_limit, "time-limit", "SEC",
             "CPU seconds per instance (default 1); the wall clock gets twice that"),
    CLI_TEXT(args, memory_limit, "memory-limit", "MIB", "address space per run, RLIMIT_AS (default 256)"),
    CLI_TEXT(args, output_limit, "output-limit", "MIB", "standard output per run (default 64)"),
    CLI_TEXT(args, jobs, "jobs", "N", "programs run at once (default 1: see below)"),
    CLI_TEXT(args, label, "label", "TEXT", "a note kept with it; accepted, wrong_answer, ... name export's folders"),
    CLI_TEXT(args, expect, "expect", "VERDICT", "the verdict every instance should get (default AC)"),
    CLI_TEXT(args, builtin, "builtin", "NAME", "judge a built-in strategy instead: greedy, left, parity or lookahead2"),
    CLI_FLAG(args, interactive, "interactive", "COMMAND plays the game move by move, coinrow the jury (below)"),
    CLI_FLAG(args, sandbox, "sandbox", "run each program inside bubblewrap: no network, nothing of yours in reach"),
    CLI_FLAG(args, resume, "resume", "finish an interrupted invocation (ID, or the latest) with its COMMAND"),
    CLI_FLAG(args, quiet, "quiet", "no progress and no summary"),
    CLI_FLAG(args, progress, "progress", "the progress bar even when stderr is not a terminal"),
    {0},
};

/* Judges what is left of the open invocation, closes it with its status
 * and prints its summary: the exit status (CR_EXIT_INTERRUPTED said by the
 * caller, once the database is closed). */
static int judge(cr_store *store, const cr_invocation *inv, const runnable *program, const args *a,
                 const char *set_name, cr_invoke_verdict expect)
{
    cr_error err = {0};
    watch w = {0};
    uint64_t left = 0;
    if (cr_store_invocation_progress(&w.before, &left, store, inv, &err))
        return cli_report_trouble(&err);
    cli_progress_start(&w.progress, !a->quiet && (a->progress || isatty(STDERR_FILENO)), 0, 1, 0);
    cr_invoke_opts o = {program->program ? cr_submission_path(program->program) : NULL,
                        program->program ? cr_submission_argv(program->program) : NULL, program->sandbox,
                        cli_signals_catch(), show_progress, &w};
    cr_invoke_stats stats;
    int rc = cr_invoke_run(&stats, store, inv, &o, &err);
    cli_progress_clear(&w.progress);

    int interrupted = rc == CR_EINTERRUPTED || (rc == 0 && cli_signals_caught());
    cr_run_status final = interrupted ? CR_RUN_INTERRUPTED : rc ? CR_RUN_FAILED : CR_RUN_DONE;
    cr_error late = {0};
    int closed = cr_store_invocation_finish(store, inv->id, final, final == CR_RUN_FAILED ? err.msg : NULL,
                                            cli_progress_seconds(&w.progress), &late);
    cr_invocation_summary summary;
    char *points = NULL;
    if (closed == 0)
        closed = cr_store_invocation_summary(&summary, store, inv->id, expect, &late);
    if (closed == 0)
        closed = points_text(&points, store, inv->id, &late);
    if (closed == 0 && !a->quiet) {
        if (stats.unanswered)
            cli_fail("%llu instance%s added to the set after run %lld %s no answer: not judged",
                     (unsigned long long)stats.unanswered, stats.unanswered == 1 ? "" : "s",
                     (long long)inv->answers_run, stats.unanswered == 1 ? "has" : "have");
        print_summary(inv, &summary, stats.left, set_name, expect, points);
    }
    free(points);
    if (interrupted)
        return CR_EXIT_INTERRUPTED;
    if (rc || closed)
        return cli_report_trouble(rc ? &err : &late);
    return summary.counts[expect] == summary.judged ? CR_EXIT_SAME : CR_EXIT_DIFFERENT;
}

static int cmd_invoke(const cli_command *self, int argc, char **argv)
{
    args a = {.db = "coinrow.db", .moves = "required", .expect = "AC"};
    int npos, ncommand, status = cli_parse_command(&npos, &ncommand, self, &a, argc, argv);
    if (status >= 0)
        return status;
    cr_invocation inv = {0};
    cr_invoke_verdict expect;
    int64_t resume_id = 0;
    char **command = NULL;
    cr_error err = {0};
    if (cr_invoke_verdict_parse(&expect, a.expect, &err))
        return cli_usage_error(self, "--expect: %s", err.msg);
    if ((status = a.resume ? check_resume(&resume_id, &command, self, &a, npos, ncommand, argv)
                           : check_new(&inv, self, &a, npos, argv)) >= 0)
        return status;

    /* a program that closes its standard input early is not our error */
    signal(SIGPIPE, SIG_IGN);
    cr_store *store = NULL;
    runnable program = {0};
    char set_name[256] = "";
    /* a new program is made ready first (its sandbox checked): one that
     * cannot run leaves the database as it was.  A stop while a source
     * builds (the compiler ends, or is let finish) stops there, its build
     * folder removed: the signal used to kill coinrow and leave it. */
    cli_signals_catch();
    int made = !inv.argv || runnable_make(&program, &inv, &err) == 0;
    if (cli_signals_caught()) {
        runnable_free(&program);
        cli_fail("interrupted: nothing was judged");
        return CR_EXIT_INTERRUPTED;
    }
    if (!made || cr_store_new(&store, a.db, CR_STORE_WRITE_EXISTING, &err)) {
        runnable_free(&program);
        return cli_report_trouble(&err);
    }
    status = open_invocation(&inv, &program, self, store, &a, resume_id, command, set_name, sizeof set_name);
    if (!a.resume)
        inv.argv = NULL; /* borrowed from argv; the stored copy is read back below */
    if (status < 0)
        status = !a.resume && cr_store_invocation_find(&inv, store, inv.id, CR_PICK_ANY, &err)
                     ? cli_report_trouble(&err)
                     : judge(store, &inv, &program, &a, set_name, expect);
    runnable_free(&program);
    cr_store_free(store);
    if (status == CR_EXIT_INTERRUPTED && inv.id) {
        /* the command as it ran, which is the one given here */
        cli_fail("interrupted; finish the invocation with:");
        fprintf(stderr, "  coinrow invoke --resume %lld --db ", (long long)inv.id);
        cr_text_put_word(stderr, a.db);
        fputs(inv.sandbox ? " --sandbox" : "", stderr);
        if (inv.argv) {
            fputs(" -- ", stderr);
            cli_print_command(stderr, inv.argv);
        }
        fputc('\n', stderr);
    }
    cr_invocation_clear(&inv);
    return status;
}

const cli_command cli_cmd_invoke = {
    "invoke",
    cmd_invoke,
    "judge a program (or a built-in strategy) on every instance of a set",
    "invoke --set NAME --variant V [--db PATH] [--moves required|ignored]\n"
    "            [--time-limit SEC] [--memory-limit MIB] [--output-limit MIB] [--jobs N]\n"
    "            [--label TEXT] [--expect VERDICT] [--sandbox] [--interactive] -- COMMAND [ARG...]\n"
    "       coinrow invoke --set NAME --variant V --builtin greedy|left|parity|lookahead2 [--interactive] [OPTIONS]\n"
    "       coinrow invoke --resume [ID] [--db PATH] [--expect VERDICT] [--sandbox] [-- COMMAND [ARG...]]",
    "COMMAND runs once per instance, the instance in the contest format on its\n"
    "standard input, in its own process group; its standard output is judged by the\n"
    "checker of 'coinrow check' against the answers of a done run of the variant\n"
    "(else one solved first; stderr names it).  A COMMAND that is one source file\n"
    "(.c, .cc, .cpp, .cxx, .py) is built ($CC / $CXX, else cc / c++, -O2) or run with\n"
    "python3 first.\n"
    "--interactive: COMMAND plays the game instead, coinrow the jury: coinrow writes\n"
    "n, then the coins; COMMAND is the first player; the player to move writes one\n"
    "line, L or R; after the last coin nothing more is written, and COMMAND exits 0.\n"
    "It passes when every move it made was optimal where it was made.  On about two\n"
    "tests in three, chosen by the test's name, the jury deviates from optimal play.\n"
    "A line not L or R, or longer than 16 bytes, is PE; a move before it read the\n"
    "jury's, output after the game, or output that ends mid-game is WA; waiting for\n"
    "ever is TLE at the wall clock (the message says idle).  --builtin NAME\n"
    "--interactive plays the strategy move by move against the same jury.\n"
    "Verdicts: AC, WA, PE, TLE (CPU time over the limit, or the wall clock at twice\n"
    "it), MLE (a crash or a failure with at least 3/4 of the memory limit resident),\n"
    "RE (a non-zero exit or a signal, named), OLE.  They go to the tables invocation\n"
    "and verdict (and verdict_view) with CPU and wall time, peak memory, exit code,\n"
    "signal, the checker's message and the first bytes of stderr.  On a set with\n"
    "groups the summary gives the points, in all and group by group (the view\n"
    "invocation_group_points).\n"
    "--jobs: programs running at once share the cores' caches, memory bandwidth and\n"
    "clock boost with each other and with coinrow, so their CPU times grow and wall\n"
    "times scatter: keep the default 1 for timings you rely on, raise it to find\n"
    "wrong answers fast.\n"
    "--sandbox runs each program inside bubblewrap (bwrap): new user, pid, ipc, uts\n"
    "and network namespaces, as an unprivileged user; it sees the system folders\n"
    "read-only, its own executable, an empty working folder and /tmp of " MIB_TEXT(CR_SANDBOX_FILES_MIB) " MiB\n"
    "each, its own /proc, /dev/null, /dev/zero and /dev/urandom; not the database,\n"
    "the answers, this folder or any other process (docs/invoke.md, \"The sandbox\").\n"
    "Without it the program runs as you: only programs you trust.\n"
    "Ctrl-C stops cleanly; --resume judges only what is left, and runs only what you\n"
    "type: give the invocation's COMMAND again after '--' (a built-in takes none),\n"
    "from the folder it ran in, and --sandbox when it ran in the sandbox (--resume\n"
    "--sandbox turns it on; it cannot be turned off).  A database from elsewhere\n"
    "cannot make coinrow run a command (docs/trust.md).\n"
    "Exit status: 0 every verdict is --expect (default AC), 1 not, 2 usage or\n"
    "trouble (the program cannot be built or run, the database), 130 interrupted.",
    options,
};

int cli_sandbox_init(int argc, char **argv)
{
    cr_error err = {0};
    if (cr_sandbox_init(argc, argv, &err) == 0)
        return CR_EXIT_OK;
    cli_fail("%s", err.msg);
    return CR_EXIT_TROUBLE;
}
