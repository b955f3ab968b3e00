/* The judge programs' common body: files in, verdict and exit status out. */
#include "judge/judge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static const char *const convention_names[CR_CONVENTION_COUNT] = {"testlib", "kattis", "cms"};

const char *cr_judge_convention_name(cr_convention conv)
{
    return (unsigned)conv < CR_CONVENTION_COUNT ? convention_names[conv] : NULL;
}

/* text as one line of printable ASCII, whatever bytes the files or their
 * paths held: CMS refuses text it cannot decode, judges show it to people. */
static const char *safe_text(char out[CR_JUDGE_MESSAGE_MAX], const char *text)
{
    cr_contest_escape(out, CR_JUDGE_MESSAGE_MAX, text, strlen(text), CR_JUDGE_TEXT_MAX);
    return out;
}

int cr_judge_input_check(const cr_constraints *limits, int all_equal, int seeded, unsigned answered, const char *path,
                         cr_error *err)
{
    uint64_t seed;
    char *text = NULL;
    size_t len = 0;
    cr_contest_input in = {0};
    int rc = cr_read_path(&text, &len, path, err);
    if (rc == 0)
        rc = seeded ? cr_contest_game_parse(&in, &seed, text, len, limits, err)
                    : cr_contest_input_parse(&in, text, len, limits, err);
    if (rc == 0 && all_equal)
        rc = cr_contest_all_equal(&in, err);
    if (rc == 0 && answered)
        rc = cr_contest_answerable(&in, answered, err);
    cr_contest_input_free(&in);
    free(text);
    return rc;
}

int cr_judge_validate(cr_convention conv, const cr_constraints *limits, int all_equal, int seeded, unsigned answered,
                      const char *path)
{
    cr_error err = {0};
    int rc = cr_judge_input_check(limits, all_equal, seeded, answered, path, &err);
    if (rc) {
        char line[CR_JUDGE_TEXT_MAX], message[CR_JUDGE_MESSAGE_MAX];
        snprintf(line, sizeof line, "%s: %s", path ? path : "standard input", err.msg);
        fprintf(stderr, "%s\n", safe_text(message, line));
    }
    if (rc == CR_EIO || rc == CR_ENOMEM)
        return CR_JUDGE_ERROR;
    if (conv == CR_KATTIS)
        return rc ? CR_JUDGE_KATTIS_WRONG : CR_JUDGE_KATTIS_OK;
    return rc ? CR_JUDGE_TESTLIB_FAIL : 0;
}

/* Where each file comes from under a convention. */
typedef struct check_files {
    const char *input, *answer, *output; /* output NULL: standard input */
    const char *feedback_dir;            /* Kattis only */
} check_files;

static int locate_files(check_files *out, cr_convention conv, int nargs, char *const *args, cr_error *err)
{
    memset(out, 0, sizeof *out);
    static const char *const usage[CR_CONVENTION_COUNT] = {
        "INPUT CONTESTANT_OUTPUT JURY_ANSWER", "INPUT JURY_ANSWER FEEDBACK_DIR < CONTESTANT_OUTPUT",
        "INPUT JURY_ANSWER CONTESTANT_OUTPUT"};
    /* Polygon may pass a result file and Kattis flags after the three: ignored */
    if (nargs < 3 || (nargs > 3 && conv == CR_CMS))
        return cr_errorf(err, CR_EINVAL, "expected the arguments %s, got %d arguments", usage[conv], nargs);
    out->input = args[0];
    out->answer = conv == CR_TESTLIB ? args[2] : args[1];
    out->output = conv == CR_TESTLIB ? args[1] : conv == CR_CMS ? args[2] : NULL;
    out->feedback_dir = conv == CR_KATTIS ? args[2] : NULL;
    return 0;
}

int cr_judge_answer(cr_judgement *out, const char *input, size_t input_len, const char *input_name, const char *jury,
                    size_t jury_len, const char *output, size_t output_len, cr_variant variant, cr_check_moves moves,
                    cr_error *err)
{
    cr_contest_input in = {0};
    int rc = cr_contest_input_parse(&in, input, input_len, NULL, err);
    if (rc) {
        char msg[CR_ERROR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", err->msg);
        rc = cr_errorf(err, rc, "the input file %s: %s", input_name, msg);
    } else {
        rc = cr_contest_check(out, &in, variant, moves, jury, jury_len, output, output_len, err);
    }
    cr_contest_input_free(&in);
    return rc;
}

/* Runs the check proper; 0 with the judgement, or why it could not be done. */
static int judge(cr_judgement *out, const check_files *files, cr_variant variant, cr_check_moves moves,
                 cr_error *err)
{
    char *input = NULL, *answer = NULL, *output = NULL;
    size_t input_len = 0, answer_len = 0, output_len = 0;
    int rc = cr_read_path(&input, &input_len, files->input, err);
    if (rc == 0)
        rc = cr_read_path(&answer, &answer_len, files->answer, err);
    if (rc == 0)
        rc = cr_read_path(&output, &output_len, files->output, err);
    if (rc == 0)
        rc = cr_judge_answer(out, input, input_len, files->input, answer, answer_len, output, output_len, variant,
                             moves, err);
    free(input);
    free(answer);
    free(output);
    return rc;
}

void cr_judge_message(char out[CR_JUDGE_MESSAGE_MAX], int rc, const cr_judgement *verdict, const cr_error *err)
{
    char line[CR_JUDGE_TEXT_MAX];
    if (rc)
        snprintf(line, sizeof line, "judge error: %s", err->msg);
    else if (verdict->outcome == CR_ACCEPTED)
        snprintf(line, sizeof line, "%s", cr_outcome_name(CR_ACCEPTED));
    else
        snprintf(line, sizeof line, "%s: %s", cr_outcome_name(verdict->outcome), verdict->why);
    safe_text(out, line);
}

int cr_judge_report_cms(int rc, const cr_judgement *verdict, const cr_error *err)
{
    char message[CR_JUDGE_MESSAGE_MAX];
    cr_judge_message(message, rc, verdict, err);
    if (rc == 0)
        printf("%s\n", verdict->outcome == CR_ACCEPTED ? "1.0" : "0.0");
    fprintf(stderr, "%s\n", rc == 0 && verdict->outcome == CR_ACCEPTED ? "translate:success" : message);
    return rc ? CR_JUDGE_ERROR : 0;
}

/* Writes FEEDBACK_DIR/judgemessage.txt; 0, or -1 when it cannot. */
static int write_judge_message(const char *dir, const char *message)
{
    size_t len = strlen(dir);
    char *path = malloc(len + sizeof "/judgemessage.txt");
    if (!path)
        return -1;
    snprintf(path, len + sizeof "/judgemessage.txt", "%s%sjudgemessage.txt", dir,
             len && dir[len - 1] == '/' ? "" : "/");
    FILE *f = fopen(path, "w");
    free(path);
    if (!f)
        return -1;
    int failed = fprintf(f, "%s\n", message) < 0;
    failed |= fclose(f) != 0;
    return failed ? -1 : 0;
}

int cr_judge_check(cr_convention conv, cr_variant variant, cr_check_moves moves, int nargs, char *const *args)
{
    cr_error err = {0};
    cr_judgement verdict;
    check_files files;
    int rc = locate_files(&files, conv, nargs, args, &err);
    if (rc == 0)
        rc = judge(&verdict, &files, variant, moves, &err);

    char message[CR_JUDGE_MESSAGE_MAX];
    cr_judge_message(message, rc, &verdict, &err);

    switch (conv) {
    case CR_KATTIS:
        if (files.feedback_dir && write_judge_message(files.feedback_dir, message) != 0) {
            char line[CR_JUDGE_TEXT_MAX];
            snprintf(line, sizeof line, "judge error: cannot write %s/judgemessage.txt", files.feedback_dir);
            fprintf(stderr, "%s\n", safe_text(message, line));
            return CR_JUDGE_ERROR;
        }
        fprintf(stderr, "%s\n", message);
        return rc ? CR_JUDGE_ERROR : verdict.outcome == CR_ACCEPTED ? CR_JUDGE_KATTIS_OK : CR_JUDGE_KATTIS_WRONG;
    case CR_CMS:
        return cr_judge_report_cms(rc, &verdict, &err);
    default: {
        static const int testlib_status[CR_OUTCOME_COUNT] = {[CR_ACCEPTED] = 0, [CR_WRONG_ANSWER] = 1,
                                                             [CR_PRESENTATION_ERROR] = 2};
        fprintf(stderr, "%s\n", message);
        return rc ? CR_JUDGE_TESTLIB_FAIL : testlib_status[verdict.outcome];
    }
    }
}
