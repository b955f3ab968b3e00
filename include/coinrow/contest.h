/* coinrow — contest files: the input format, the problem's constraints, and
 * checking a contestant's answer against the jury's.
 *
 * Input file: n on the first line; the n coins on the second, separated by
 * single spaces; every line ends in LF; nothing else.  Numbers are written
 * in canonical decimal: no '+', no leading zeros, no "-0".
 *
 * Answer file: the variant's value and, when the problem asks for it, the
 * line of play (n letters L/R, see game.h) after it.  Answers are read as
 * testlib reads a contestant's output, one grammar in every checker:
 *   - blanks are space, tab, CR and LF, any number of them, anywhere (none
 *     is required at the end); every other byte belongs to a token;
 *   - a UTF-8 BOM (EF BB BF) at the very start is skipped;
 *   - the value is plain decimal: an optional '-', then digits, with no '+',
 *     no leading zero and no "-0", within int64; anything else is a
 *     presentation error;
 *   - the line is the next token; a token after the answer is a
 *     presentation error. */
#ifndef CR_CONTEST_H
#define CR_CONTEST_H

#include <stddef.h>
#include <stdint.h>

#include "coinrow/error.h"
#include "coinrow/game.h"

/* What a problem promises about its inputs. */
typedef struct cr_constraints {
    size_t n_min, n_max;          /* 1 <= n_min <= n_max <= CR_N_MAX */
    int64_t value_min, value_max; /* every coin lies in [value_min, value_max] */
    int even_n;                   /* n is even */
    int odd_sum;                  /* the coins add up to an odd number */
} cr_constraints;

/* One instance read from an input file. */
typedef struct cr_contest_input {
    int64_t *coins;
    size_t n;
} cr_contest_input;

/* Reads text[0..len) as an input file, strictly: exact format, and the
 * constraints when `limits` is not NULL (NULL: only n >= 1 and int64 coins).
 * Fills *out (release with cr_contest_input_free) and returns 0, or CR_EINVAL
 * with err saying what is wrong and where: "line L, column C: ..." quoting the
 * token; CR_ENOMEM. */
int cr_contest_input_parse(cr_contest_input *out, const char *text, size_t len, const cr_constraints *limits,
                           cr_error *err);

/* Reads text[0..len) as a test of the interactive game: the input file's
 * two lines (the row the jury sends the contestant), then a third, the
 * jury's seed (cr_jury_policy), canonical decimal from 0 to 2^64 - 1, which
 * the contestant never sees.  As cr_contest_input_parse, the seed into
 * *out_seed; errors on the third line name line 3. */
int cr_contest_game_parse(cr_contest_input *out, uint64_t *out_seed, const char *text, size_t len,
                          const cr_constraints *limits, cr_error *err);

/* Whether an answer can be given for `in` under every variant of the mask
 * (CR_VARIANT_BIT()s): 0 when each value fits in int64 (a player's total
 * need not), else CR_EOVERFLOW with err naming the variant and the figure;
 * CR_ENOMEM.  O(n). */
int cr_contest_answerable(const cr_contest_input *in, unsigned variants, cr_error *err);

/* Whether the coins of `in` are all equal, as a group with that property
 * wants them: 0, or CR_EINVAL with err naming the first coin that differs
 * from the first.  O(n). */
int cr_contest_all_equal(const cr_contest_input *in, cr_error *err);

/* Whether coins[0..n) meet limits and, when all_equal, are all equal: as
 * cr_contest_input_parse and cr_contest_all_equal check an input file, for
 * coins read otherwise (a row of a table).  0, or CR_EINVAL with err
 * naming the first constraint they break ("n = 12 is out of range 1..10").
 * O(n). */
int cr_contest_meets(const int64_t *coins, size_t n, const cr_constraints *limits, int all_equal, cr_error *err);

/* Writes into out (at least in->n + 48 bytes) the answer file of a greedy
 * player (cr_moves_greedy): the variant's value along its line, in decimal
 * (128 bits: it may leave int64), and the line after it when `lines`.
 * Returns out. */
char *cr_contest_greedy_answer(char *out, const cr_contest_input *in, cr_variant variant, int lines);

/* Frees what cr_contest_input_parse allocated; accepts NULL and an input
 * that was never filled (zero-initialised). */
void cr_contest_input_free(cr_contest_input *in);

/* coins[0..n) as an input file of the contest format: n on the first line,
 * the coins separated by single spaces on the second, each line ending in
 * LF.  Written into *buf (grown as needed; *cap bytes), its length into
 * *out.  CR_ENOMEM on failure. */
int cr_contest_text(size_t *out, char **buf, size_t *cap, const int64_t *coins, size_t n, cr_error *err);

/* Writes text[0..len) for a message into out (cap > 0 bytes): printable
 * ASCII (0x20..0x7e) as it is, every other byte as \xNN (lower-case hex),
 * at most `shown` bytes of text, then "..." when some are left out.  The
 * result is ASCII, so valid UTF-8 whatever the text holds. */
void cr_contest_escape(char *out, size_t cap, const char *text, size_t len, size_t shown);

/* Whether an answer must carry the line of play. */
typedef enum cr_check_moves {
    CR_CHECK_MOVES_REQUIRED, /* value, then a line that must be legal and optimal at every move */
    CR_CHECK_MOVES_IGNORED,  /* value; one more token (a line) may follow and is not looked at */
    CR_CHECK_MOVES_COUNT
} cr_check_moves;

/* "required" or "ignored"; NULL when out of range. */
const char *cr_check_moves_name(cr_check_moves m);

/* Parses "required" or "ignored"; CR_EINVAL naming the text otherwise. */
int cr_check_moves_parse(cr_check_moves *out, const char *name, cr_error *err);

typedef enum cr_outcome {
    CR_ACCEPTED,
    CR_WRONG_ANSWER,       /* wrong value, or a line that is illegal or not optimal */
    CR_PRESENTATION_ERROR, /* no value, a value that is not a plain int64 (see
                              "Answer file"), no line when one is required, or more
                              tokens than the answer has */
    CR_OUTCOME_COUNT
} cr_outcome;

typedef struct cr_judgement {
    cr_outcome outcome;
    char why[CR_ERROR_MSG_MAX]; /* what is wrong and where (the token's line, the
                                   first bad turn); "" when accepted */
} cr_judgement;

/* "accepted", "wrong answer" or "presentation error"; NULL when out of range. */
const char *cr_outcome_name(cr_outcome o);

/* Judges a contestant's output[0..output_len) for the instance `in` and the
 * variant, against the jury's answer jury[0..jury_len).  The value is
 * computed here and must equal the jury's; a jury line, when given, must be
 * legal and optimal; a contestant's line must be legal and every one of its
 * moves optimal (cr_moves_verify), not merely reach the right score.
 *
 * Returns 0 with the judgement in *out.  Otherwise the check itself failed
 * and nothing is judged: CR_EINVAL when the jury answer is unreadable or
 * wrong, CR_EOVERFLOW when the value does not fit in int64, CR_ENOMEM; err
 * says which.  O(n log n) time for each line checked, O(n) memory. */
int cr_contest_check(cr_judgement *out, const cr_contest_input *in, cr_variant variant, cr_check_moves moves,
                     const char *jury, size_t jury_len, const char *output, size_t output_len, cr_error *err);

#endif
