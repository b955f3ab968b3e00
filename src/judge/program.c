/* The judge programs' sources: settings as #defines, then the embedded
 * amalgamation (build/gen/judge_sources.c, made by the Makefile). */
#include "judge/program.h"

#include <ctype.h>
#include <inttypes.h>

#include "util/errorf.h"

extern const char cr_judge__checker_source[];
extern const char cr_judge__validator_source[];

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

int cr_judge_program_write(FILE *f, cr_judge_program program, const cr_judge_settings *settings, cr_error *err)
{
    const char *convention = cr_judge_convention_name(settings->convention);
    const char *what = program == CR_JUDGE_CHECKER ? "checker" : "validator";
    if (!convention || (program == CR_JUDGE_VALIDATOR && settings->convention == CR_CMS))
        return cr_errorf(err, CR_EINVAL, "no %s for the %s convention", what, convention ? convention : "unknown");
    fprintf(f, "/* The %s of the \"coins in a row\" problem (%s convention), written by coinrow.\n"
               " * It builds alone with gcc or clang (64-bit): cc -O2 -o %s %s.c */\n",
            what, convention, what, what);
    define_enumerator(f, "CR_JUDGE_CONVENTION", "CR_", convention);
    if (program == CR_JUDGE_CHECKER) {
        const char *variant = cr_variant_name(settings->variant), *moves = cr_check_moves_name(settings->moves);
        if (!variant || !moves)
            return cr_errorf(err, CR_EINVAL, "checker: bad variant or moves setting");
        define_enumerator(f, "CR_JUDGE_VARIANT", "CR_", variant);
        define_enumerator(f, "CR_JUDGE_MOVES", "CR_CHECK_MOVES_", moves);
    } else {
        const cr_constraints *l = &settings->limits;
        fprintf(f, "#define CR_JUDGE_N_MIN %zu\n#define CR_JUDGE_N_MAX %zu\n", l->n_min, l->n_max);
        define_int64(f, "CR_JUDGE_VALUE_MIN", l->value_min);
        define_int64(f, "CR_JUDGE_VALUE_MAX", l->value_max);
        fprintf(f, "#define CR_JUDGE_EVEN_N %d\n#define CR_JUDGE_ODD_SUM %d\n", !!l->even_n, !!l->odd_sum);
    }
    fputs(program == CR_JUDGE_CHECKER ? cr_judge__checker_source : cr_judge__validator_source, f);
    if (ferror(f))
        return cr_errorf(err, CR_EIO, "cannot write the %s source", what);
    return 0;
}
