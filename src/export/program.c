/* The judge programs' sources: settings as #defines, then the embedded
 * pieces (build/gen/judge_sources.c, made by the Makefile). */
#include "export/program.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "util/util.h"

extern const char cr_judge__core_c[], cr_judge__util_c[], cr_judge__judge_c[], cr_judge__dialogue_c[];
extern const char cr_judge__main_checker_c[], cr_judge__main_validator_c[], cr_judge__main_solution_c[],
    cr_judge__main_greedy_c[], cr_judge__main_brute_force_c[], cr_judge__main_check_cpp[], cr_judge__main_val_cpp[],
    cr_judge__main_validator_groups_c[], cr_judge__main_val_groups_cpp[], cr_judge__main_interactor_c[],
    cr_judge__main_manager_c[],
    cr_judge__main_play_reference_c[], cr_judge__main_play_greedy_c[], cr_judge__main_play_line_c[],
    cr_judge__main_play_unflushed_c[], cr_judge__main_play_crash_c[], cr_judge__main_interactor_cpp[],
    cr_judge__main_check_game_cpp[];

/* Which settings a program takes. */
enum { CONVENTION = 1, MOVES = 2, LIMITS = 4, TESTLIB = 8 };

/* The most pieces a program is made of. */
enum { PIECES_MAX = 5 };

static const struct {
    const char *file;
    unsigned takes;
    const char *pieces[PIECES_MAX]; /* in order, after the settings */
} programs[CR_JUDGE_PROGRAM_COUNT] = {
    [CR_JUDGE_CHECKER] = {"checker.c", CONVENTION | MOVES,
                          {cr_judge__core_c, cr_judge__util_c, cr_judge__judge_c, cr_judge__main_checker_c}},
    [CR_JUDGE_VALIDATOR] = {"validator.c", CONVENTION | LIMITS,
                            {cr_judge__core_c, cr_judge__util_c, cr_judge__judge_c, cr_judge__main_validator_c}},
    [CR_JUDGE_SOLUTION] = {"solution.c", MOVES, {cr_judge__core_c, cr_judge__util_c, cr_judge__main_solution_c}},
    [CR_JUDGE_GREEDY] = {"greedy.c", MOVES, {cr_judge__core_c, cr_judge__util_c, cr_judge__main_greedy_c}},
    [CR_JUDGE_BRUTE_FORCE] = {"brute_force.c", MOVES,
                              {cr_judge__core_c, cr_judge__util_c, cr_judge__main_brute_force_c}},
    [CR_JUDGE_TESTLIB_CHECKER] = {"check.cpp", MOVES | TESTLIB, {cr_judge__core_c, cr_judge__main_check_cpp}},
    [CR_JUDGE_TESTLIB_VALIDATOR] = {"val.cpp", LIMITS | TESTLIB, {cr_judge__core_c, cr_judge__main_val_cpp}},
    [CR_JUDGE_INTERACTOR] = {"interactor.c", 0,
                             {cr_judge__core_c, cr_judge__util_c, cr_judge__dialogue_c, cr_judge__main_interactor_c}},
    [CR_JUDGE_MANAGER] = {"manager.c", 0,
                          {cr_judge__core_c, cr_judge__util_c, cr_judge__judge_c, cr_judge__dialogue_c,
                           cr_judge__main_manager_c}},
    [CR_JUDGE_PLAY_REFERENCE] = {"reference.c", 0,
                                 {cr_judge__core_c, cr_judge__util_c, cr_judge__main_play_reference_c}},
    [CR_JUDGE_PLAY_GREEDY] = {"greedy.c", 0, {cr_judge__core_c, cr_judge__util_c, cr_judge__main_play_greedy_c}},
    [CR_JUDGE_PLAY_LINE] = {"precomputed.c", 0, {cr_judge__core_c, cr_judge__util_c, cr_judge__main_play_line_c}},
    [CR_JUDGE_PLAY_UNFLUSHED] = {"unflushed.c", 0, {cr_judge__main_play_unflushed_c}},
    [CR_JUDGE_PLAY_CRASH] = {"crash.c", 0, {cr_judge__main_play_crash_c}},
    [CR_JUDGE_TESTLIB_INTERACTOR] = {"interactor.cpp", TESTLIB,
                                     {cr_judge__core_c, cr_judge__util_c, cr_judge__dialogue_c,
                                      cr_judge__main_interactor_cpp}},
    [CR_JUDGE_TESTLIB_GAME_CHECKER] = {"check.cpp", TESTLIB, {cr_judge__core_c, cr_judge__main_check_game_cpp}},
};

const char *cr_judge_program_file(cr_judge_program program)
{
    return (unsigned)program < CR_JUDGE_PROGRAM_COUNT ? programs[program].file : NULL;
}

/* "#define MACRO PREFIX_NAME" with the name in upper case: the enumerator
 * whose lower-case name the core's *_name functions give (CR_DIFF for "diff"). */
static void define_enumerator(FILE *f, const char *macro, const char *prefix, const char *name)
{
    fprintf(f, "#define %s %s", macro, prefix);
    for (const char *p = name; *p; p++)
        fputc(toupper((unsigned char)*p), f);
    fputc('\n', f);
}

static void define_int64(FILE *f, const char *macro, int64_t v)
{
    if (v == INT64_MIN)
        fprintf(f, "#define %s INT64_MIN\n", macro);
    else
        fprintf(f, v < 0 ? "#define %s (%" PRId64 ")\n" : "#define %s %" PRId64 "\n", macro, v);
}

/* The constraints as a C initializer: {n_min, n_max, value_min, value_max,
 * even_n, odd_sum}. */
static void put_limits(FILE *f, const cr_constraints *l)
{
    fprintf(f, "{%zu, %zu, ", l->n_min, l->n_max);
    fprintf(f, l->value_min == INT64_MIN ? "INT64_MIN, " : "%" PRId64 ", ", l->value_min);
    fprintf(f, "%" PRId64 ", %d, %d}", l->value_max, l->even_n != 0, l->odd_sum != 0);
}

/* The groups a validator takes: their count and {name, constraints,
 * all_equal} each (a name is letters, digits and '_': no quoting needed). */
static void define_groups(FILE *f, const cr_problem_group *groups, size_t count)
{
    fprintf(f, "#define CR_JUDGE_GROUP_COUNT %zu\n#define CR_JUDGE_GROUPS {", count);
    for (size_t k = 0; k < count; k++) {
        fprintf(f, "%s{\"%s\", ", k ? ", " : "", groups[k].name);
        put_limits(f, &groups[k].limits);
        fprintf(f, ", %d}", !!groups[k].all_equal);
    }
    fputs("}\n", f);
}

int cr_judge_program_write(FILE *f, cr_judge_program program, const cr_judge_settings *settings, cr_error *err)
{
    return cr_judge_program_write_grouped(f, program, settings, NULL, 0, err);
}

int cr_judge_program_write_grouped(FILE *f, cr_judge_program program, const cr_judge_settings *settings,
                                   const cr_problem_group *groups, size_t count, cr_error *err)
{
    if ((unsigned)program >= CR_JUDGE_PROGRAM_COUNT)
        return cr_errorf(err, CR_EINVAL, "no such judge program (%d)", (int)program);
    const char *file = programs[program].file, *convention = cr_judge_convention_name(settings->convention);
    const char *variant = cr_variant_name(settings->variant), *moves = cr_check_moves_name(settings->moves);
    unsigned takes = programs[program].takes;
    if (!variant || !moves)
        return cr_errorf(err, CR_EINVAL, "%s: bad variant or moves setting", file);
    if ((takes & CONVENTION) && (!convention || (program == CR_JUDGE_VALIDATOR && settings->convention == CR_CMS)))
        return cr_errorf(err, CR_EINVAL, "no %s for the %s convention", file, convention ? convention : "unknown");

    if (takes & TESTLIB)
        fprintf(f, "// %s of the \"coins in a row\" problem (testlib), written by coinrow.\n"
                   "// It builds with testlib.h beside it: g++ -O2 -o %.*s %s\n",
                file, (int)(strchr(file, '.') - file), file, file);
    else
        fprintf(f, "/* %s of the \"coins in a row\" problem, written by coinrow.\n"
                   " * It builds alone with gcc or clang (64-bit): cc -O2 -o %.*s %s */\n",
                file, (int)(strchr(file, '.') - file), file, file);
    if (takes & CONVENTION)
        define_enumerator(f, "CR_JUDGE_CONVENTION", "CR_", convention);
    define_enumerator(f, "CR_JUDGE_VARIANT", "CR_", variant);
    if (takes & MOVES)
        define_enumerator(f, "CR_JUDGE_MOVES", "CR_CHECK_MOVES_", moves);
    if (takes & LIMITS) {
        const cr_constraints *l = &settings->limits;
        fprintf(f, "#define CR_JUDGE_N_MIN %zu\n#define CR_JUDGE_N_MAX %zu\n", l->n_min, l->n_max);
        define_int64(f, "CR_JUDGE_VALUE_MIN", l->value_min);
        define_int64(f, "CR_JUDGE_VALUE_MAX", l->value_max);
        fprintf(f, "#define CR_JUDGE_EVEN_N %d\n#define CR_JUDGE_ODD_SUM %d\n#define CR_JUDGE_INTERACTIVE %d\n",
                !!l->even_n, !!l->odd_sum, !!settings->interactive);
    }
    /* a validator of groups: their table, and the main that takes --group */
    const char *const *pieces = programs[program].pieces;
    const char *grouped[PIECES_MAX];
    memcpy(grouped, pieces, sizeof grouped);
    if ((takes & LIMITS) && count > 0) {
        define_groups(f, groups, count);
        grouped[program == CR_JUDGE_VALIDATOR ? 3 : 1] =
            program == CR_JUDGE_VALIDATOR ? cr_judge__main_validator_groups_c : cr_judge__main_val_groups_cpp;
    }
    /* testlib wants to come before any other header */
    if (takes & TESTLIB)
        fputs("#include \"testlib.h\"\n", f);
    /* Judges build with warnings on (DOMjudge: gcc -Wall) and without
     * -fopenmp, which would flag every '#pragma omp simd' hint of the core. */
    fputs("#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"\n", f);
    for (int i = 0; i < PIECES_MAX && grouped[i]; i++)
        fputs(grouped[i], f);
    if (ferror(f))
        return cr_errorf(err, CR_EIO, "cannot write %s", file);
    return 0;
}
