/* The statement, composed once and written in three styles: the two LaTeX
 * dialects the judges' tools render and plain text for the PDF. */
#include "export/statement.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export/pdf.h"
#include "util/util.h"

/* A statement being written: LaTeX goes straight to f; plain text gathers a
 * paragraph and wraps it at its end. */
typedef struct out {
    FILE *f;
    cr_statement_style style;
    char para[4096]; /* text style: the paragraph so far */
    size_t len;
    int item;        /* text style: the paragraph is a list item */
} out;

static int tex(const out *o) { return o->style != CR_STATEMENT_TEXT; }

/* Plain words; LaTeX's special characters are escaped. */
static void words(out *o, const char *s)
{
    if (!tex(o)) {
        size_t len = strlen(s);
        if (o->len + len < sizeof o->para) {
            memcpy(o->para + o->len, s, len);
            o->len += len;
        }
        return;
    }
    for (; *s; s++) {
        switch (*s) {
        case '\\': fputs("\\textbackslash{}", o->f); break;
        case '^': fputs("\\^{}", o->f); break;
        case '~': fputs("\\~{}", o->f); break;
        case '&': case '%': case '$': case '#': case '_': case '{': case '}':
            fputc('\\', o->f);
            fputc(*s, o->f);
            break;
        default: fputc(*s, o->f);
        }
    }
}

static void math(out *o, const char *latex, const char *plain)
{
    if (tex(o))
        fprintf(o->f, "$%s$", latex);
    else
        words(o, plain);
}

/* A number for math, the int64 limits and large powers of ten as powers:
 * -2^63, 2^63 - 1, 10^9; in LaTeX and in plain text. */
static void number(char latex[32], char plain[32], int64_t v)
{
    int power = 0;
    if (v != INT64_MIN) {
        int64_t m = v < 0 ? -v : v;
        for (; m >= 10 && m % 10 == 0; m /= 10)
            power++;
        power = m == 1 ? power : 0;
    }
    const char *sign = v < 0 ? "-" : "";
    if (v == INT64_MIN || v == INT64_MAX) {
        snprintf(latex, 32, "%s", v < 0 ? "-2^{63}" : "2^{63}-1");
        snprintf(plain, 32, "%s", v < 0 ? "-2^63" : "2^63 - 1");
    } else if (power >= 4) {
        snprintf(latex, 32, "%s10^{%d}", sign, power);
        snprintf(plain, 32, "%s10^%d", sign, power);
    } else {
        snprintf(latex, 32, "%" PRId64, v);
        snprintf(plain, 32, "%" PRId64, v);
    }
}

/* "lo <= name <= hi" in math, or "name = lo" when they are equal. */
static void bounds(out *o, int64_t lo, const char *name, int64_t hi)
{
    char lo_tex[32], lo_text[32], hi_tex[32], hi_text[32], latex[128], plain[128];
    number(lo_tex, lo_text, lo);
    number(hi_tex, hi_text, hi);
    if (lo == hi) {
        snprintf(latex, sizeof latex, "%s = %s", name, lo_tex);
        snprintf(plain, sizeof plain, "%s = %s", name, lo_text);
    } else {
        snprintf(latex, sizeof latex, "%s \\le %s \\le %s", lo_tex, name, hi_tex);
        snprintf(plain, sizeof plain, "%s <= %s <= %s", lo_text, name, hi_text);
    }
    math(o, latex, plain);
}

/* Ends a paragraph (or a list item); plain text is wrapped here. */
static void end(out *o)
{
    if (tex(o)) {
        fputs(o->item ? "\n" : "\n\n", o->f);
        return;
    }
    const char *first = o->item ? "  - " : "", *next = o->item ? "    " : "";
    size_t at = 0, column = 0;
    o->para[o->len] = '\0';
    fputs(first, o->f);
    column = strlen(first);
    while (at < o->len) {
        while (o->para[at] == ' ')
            at++;
        size_t word = strcspn(o->para + at, " ");
        if (!word)
            break;
        if (column > strlen(first) && column + 1 + word > CR_STATEMENT_COLUMNS) {
            fprintf(o->f, "\n%s", next);
            column = strlen(next);
        } else if (column > strlen(first)) {
            fputc(' ', o->f);
            column++;
        }
        fwrite(o->para + at, 1, word, o->f);
        column += word;
        at += word;
    }
    fputs(o->item ? "\n" : "\n\n", o->f);
    o->len = 0;
}

static void list(out *o, int begin)
{
    o->item = begin;
    if (tex(o))
        fputs(begin ? "\\begin{itemize}\n" : "\\end{itemize}\n\n", o->f);
    else if (!begin)
        fputc('\n', o->f);
}

static void item(out *o)
{
    if (tex(o))
        fputs("\\item ", o->f);
}

enum heading { INPUT, OUTPUT, EXAMPLES, INTERACTION };

static void heading(out *o, enum heading h)
{
    static const char *const names[] = {"Input", "Output", "Examples", "Interaction"};
    static const char *const polygon[] = {"\\InputFile", "\\OutputFile", "\\Examples", "\\Interaction"};
    if (o->style == CR_STATEMENT_KATTIS)
        fprintf(o->f, "\\section*{%s}\n\n", names[h]);
    else if (o->style == CR_STATEMENT_POLYGON)
        fprintf(o->f, "%s\n\n", polygon[h]);
    else
        fprintf(o->f, "%s\n\n", names[h]);
}

/* Each line of a sample file, indented (plain text). */
static void put_indented(FILE *f, const char *text)
{
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        fprintf(f, "    %.*s\n", (int)len, p);
        p += len + (p[len] == '\n');
    }
}

/* In place of a sample too long to show: a line of text, or an example
 * that says so (Polygon's statement had an empty example, where the PDF
 * said it). */
static void too_long(out *o)
{
    if (tex(o))
        fputs("\\exmp{(too long to show: see the package's test files)}{}%\n", o->f);
    else
        fputs("    (too long to show: see the package's test files)\n", o->f);
}

/* A sample's interaction (cr_problem's sample_interaction) in two
 * columns, the jury's lines on the left and the contestant's on the right,
 * each line of one beside an empty line of the other: olymp.sty's \exmp,
 * as Polygon shows an interactive problem's examples ('~': \obeylines drops
 * an empty line), or indented text. */
static void interaction_sample(out *o, uint64_t k, const char *game)
{
    if (o->style == CR_STATEMENT_TEXT)
        fprintf(o->f, "Sample interaction %" PRIu64 " (left: the jury, right: your program)\n", k + 1);
    if (!game)
        too_long(o);
    for (int side = 0; game && side < (tex(o) ? 2 : 1); side++) {
        if (tex(o))
            fputs(side ? "}{" : "\\exmp{", o->f);
        for (const char *p = game; *p;) {
            size_t len = strcspn(p, "\n");
            int left = *p == '<';
            if (!tex(o))
                fprintf(o->f, "    %s%.*s\n", left ? "" : "          ", (int)len - 1, p + 1);
            else if (left == (side == 0))
                fprintf(o->f, "%.*s\n", (int)len - 1, p + 1);
            else
                fputs("~\n", o->f);
            p += len + (p[len] == '\n');
        }
    }
    if (tex(o) && game)
        fputs("}%\n", o->f);
    else if (!tex(o))
        fputc('\n', o->f);
}

/* The samples: olymp.sty's \exmp, or indented text; problemtools shows a
 * Kattis package's data/sample, and the samples' interactions, itself. */
static void samples(out *o, const cr_problem *pb)
{
    if (o->style == CR_STATEMENT_KATTIS || pb->samples == 0)
        return;
    heading(o, EXAMPLES);
    if (o->style == CR_STATEMENT_POLYGON)
        fputs("\\begin{example}\n", o->f);
    for (uint64_t k = 0; k < pb->samples; k++) {
        const char *in = pb->sample_in ? pb->sample_in[k] : NULL, *ans = pb->sample_ans ? pb->sample_ans[k] : NULL;
        if (pb->interactive) {
            interaction_sample(o, k, pb->sample_interaction ? pb->sample_interaction[k] : NULL);
        } else if (o->style == CR_STATEMENT_POLYGON && in && ans) {
            fprintf(o->f, "\\exmp{%s}{%s}%%\n", in, ans);
        } else if (o->style == CR_STATEMENT_POLYGON) {
            too_long(o);
        } else if (o->style == CR_STATEMENT_TEXT) {
            fprintf(o->f, "Sample input %" PRIu64 "\n", k + 1);
            if (in)
                put_indented(o->f, in);
            else
                too_long(o);
            fprintf(o->f, "Sample output %" PRIu64 "\n", k + 1);
            if (ans)
                put_indented(o->f, ans);
            fputc('\n', o->f);
        }
    }
    if (o->style == CR_STATEMENT_POLYGON)
        fputs("\\end{example}\n", o->f);
    if (tex(o))
        fputc('\n', o->f);
}

/* Whether the constraints alone keep every answer within int64: else the
 * statement promises it (the validator checks it). */
static int answer_may_overflow(const cr_problem *pb)
{
    __extension__ typedef unsigned __int128 u128;
    const cr_constraints *l = &pb->limits;
    u128 lo = l->value_min < 0 ? (u128)(-(l->value_min + 1)) + 1 : (u128)l->value_min;
    u128 hi = l->value_max < 0 ? (u128)(-(l->value_max + 1)) + 1 : (u128)l->value_max;
    u128 largest = lo > hi ? lo : hi, bound = largest * (u128)l->n_max; /* |a total| or |a lead| */
    if (pb->variant == CR_REMAINING)
        bound *= (u128)l->n_max; /* every removal scores at most n_max coins */
    return pb->variant != CR_WINNER && bound > (u128)INT64_MAX;
}

/* The game, the variant's question and, when asked, the line of play. */
static void legend(out *o, const cr_problem *pb)
{
    static const char *const question[CR_VARIANT_COUNT] = {
        [CR_TOTAL] = ("Each player scores the values of the coins they take. What is the largest total the first "
                      "player can be sure to score?"),
        [CR_DIFF] = ("Each player scores the values of the coins they take, and each wants to end as far ahead of "
                     "the other as possible. What is the first player's total minus the second player's total?"),
        [CR_REMAINING] = ("When a player takes a coin, they score the sum of the values of the coins still in the "
                          "row after it, and each player wants to end as far ahead of the other as possible. What is "
                          "the first player's score minus the second player's score?"),
        [CR_WINNER] = ("Each player scores the values of the coins they take, and each wants to end as far ahead of "
                       "the other as possible. Who ends with the larger total?"),
    };
    words(o, "Coins lie in a row, each with an integer value. Two players take turns, the first player first: in "
             "a turn, a player takes one coin, from the left end or from the right end of the row, until the row "
             "is empty. Both players play optimally.");
    end(o);
    words(o, question[pb->variant]);
    end(o);
    if (pb->lines) {
        words(o, "Give also an optimal line of play: for every turn in order, L when the coin is taken from the "
                 "left end and R when it is taken from the right end. Every move must be optimal: from its "
                 "position, no other move lets the player to move end further ahead of the other (with the "
                 "scoring above). When both moves are optimal, either may be given.");
        end(o);
    }
}

/* The game the contestant plays against the jury (an interactive
 * problem): the scoring and what makes a move of its right. */
static void interactive_legend(out *o, const cr_problem *pb)
{
    words(o, "Coins lie in a row, each with an integer value. Two players take turns, the first player first: in "
             "a turn, a player takes one coin, from the left end or from the right end of the row, until the row "
             "is empty. Your program plays the first player against the jury, which plays the second.");
    end(o);
    words(o, pb->variant == CR_REMAINING ? "When a player takes a coin, they score the sum of the values of the "
                                           "coins still in the row after it."
                                         : "Each player scores the values of the coins they take.");
    if (pb->variant == CR_WINNER)
        words(o, " Every move you make must keep the best outcome you can still reach, whatever the jury plays "
                 "after it: a larger total than the jury's when you can make sure of one, else equal totals when "
                 "you can make sure of those.");
    else
        words(o, " Every move you make must be optimal: from its position, no other move lets you make sure of "
                 "ending further ahead of the jury, whatever the jury plays after it.");
    words(o, " The jury does not always play optimally: each of your moves is judged in the position the jury "
             "left.");
    end(o);
}

/* The protocol of the interactive game: a contract (docs/judges.md,
 * "Interactive problems"). */
static void interaction_section(out *o)
{
    heading(o, INTERACTION);
    words(o, "The jury first writes a line with the number of coins ");
    math(o, "n", "n");
    words(o, ", then a line with the ");
    math(o, "n", "n");
    words(o, " values ");
    math(o, "a_1, \\ldots, a_n", "a_1, ..., a_n");
    words(o, " of the coins from left to right, separated by single spaces. Then the players move in turn, you "
             "first: the player to move writes one line, L when it takes the coin at the left end of the row and R "
             "when it takes the one at the right end. You read the jury's lines on standard input and write yours "
             "on standard output. After the last coin nothing more is written, and your program exits.");
    end(o);
    words(o, "Flush standard output after every line you write (fflush(stdout) in C, cout.flush() in C++, "
             "sys.stdout.flush() in Python, System.out.flush() in Java): else the jury waits for your move while "
             "your program waits for the jury's, and your program runs out of time.");
    end(o);
}

/* The constraints the set has, as a list. */
static void constraints(out *o, const cr_problem *pb)
{
    const cr_constraints *l = &pb->limits;
    list(o, 1);
    item(o);
    bounds(o, (int64_t)l->n_min, "n", (int64_t)l->n_max);
    if (l->even_n) {
        words(o, ", and ");
        math(o, "n", "n");
        words(o, " is even");
    }
    end(o);
    item(o);
    bounds(o, l->value_min, "a_i", l->value_max);
    end(o);
    if (l->odd_sum) {
        item(o);
        words(o, "The values add up to an odd number.");
        end(o);
    }
    if (!pb->interactive && answer_may_overflow(pb)) {
        item(o);
        words(o, "The answer fits in a signed 64-bit integer.");
        end(o);
    }
    list(o, 0);
}

/* The input format and the constraints the set has. */
static void input_section(out *o, const cr_problem *pb)
{
    heading(o, INPUT);
    words(o, "The first line holds the number of coins ");
    math(o, "n", "n");
    words(o, ". The second line holds the ");
    math(o, "n", "n");
    words(o, " values ");
    math(o, "a_1, \\ldots, a_n", "a_1, ..., a_n");
    words(o, " of the coins from left to right, separated by single spaces.");
    end(o);
    constraints(o, pb);
}

static void output_section(out *o, const cr_problem *pb)
{
    static const char *const output[CR_VARIANT_COUNT] = {
        [CR_TOTAL] = "Print the largest total the first player can be sure to score.",
        [CR_DIFF] = "Print the first player's total minus the second player's total.",
        [CR_REMAINING] = "Print the first player's score minus the second player's score.",
        [CR_WINNER] = ("Print 1 when the first player ends with the larger total, -1 when the second player does, "
                        "and 0 when the totals are equal."),
    };
    heading(o, OUTPUT);
    words(o, output[pb->variant]);
    if (pb->lines) {
        words(o, " On the second line, print an optimal line of play: ");
        math(o, "n", "n");
        words(o, " letters, each L or R.");
    }
    end(o);
}

static void compose(out *o, const cr_problem *pb)
{
    if (pb->interactive) {
        interactive_legend(o, pb);
        interaction_section(o);
        constraints(o, pb);
        samples(o, pb);
        return;
    }
    legend(o, pb);
    input_section(o, pb);
    output_section(o, pb);
    samples(o, pb);
}

void cr_statement_write(FILE *f, const cr_problem *pb, cr_statement_style style)
{
    out o = {.f = f, .style = style};
    if (style == CR_STATEMENT_KATTIS) {
        /* problemtools takes the name from this line rather than from
         * \problemname, whose escapes it warns look like LaTeX */
        fprintf(f, "%%%% plainproblemname: %s\n", pb->title);
        fputs("\\problemname{", f);
        words(&o, pb->title);
        fputs("}\n\n", f);
    } else if (style == CR_STATEMENT_POLYGON) {
        fputs("\\begin{problem}{", f);
        words(&o, pb->title);
        unsigned ms = pb->time_limit_ms;
        if (ms % 1000)
            fprintf(f, "}{standard input}{standard output}{%u.%03u seconds}", ms / 1000, ms % 1000);
        else
            fprintf(f, "}{standard input}{standard output}{%u second%s}", ms / 1000, ms == 1000 ? "" : "s");
        fprintf(f, "{%u megabytes}\n\n", pb->memory_mib);
    }
    compose(&o, pb);
    if (style == CR_STATEMENT_POLYGON)
        fputs("\\end{problem}\n", f);
}

int cr_statement_write_pdf(FILE *f, const cr_problem *pb, cr_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return cr_errorf(err, CR_ENOMEM, "no memory for the statement");
    unsigned ms = pb->time_limit_ms;
    fprintf(mem, "Time limit: %u.%03u s. Memory limit: %u MiB.\n\n", ms / 1000, ms % 1000, pb->memory_mib);
    cr_statement_write(mem, pb, CR_STATEMENT_TEXT);
    int failed = fclose(mem) != 0 || !text;
    int rc = failed ? cr_errorf(err, CR_ENOMEM, "no memory for the statement") : cr_pdf_write(f, pb->title, text, err);
    free(text);
    return rc;
}

int cr_statement_file(cr_package *p, const char *rel, cr_statement_style style, const cr_problem *pb, cr_error *err)
{
    FILE *f = cr_export__create(p, rel, err);
    if (!f)
        return CR_EIO;
    cr_statement_write(f, pb, style);
    return cr_export__finish(p, f, rel, err);
}
