/* CSV, TSV and wide CSV input, parsed by libcsv.
 *
 * The input is fed to libcsv one physical line at a time, so that each
 * record's first line number and raw text are known when it ends (a quoted
 * field may span lines).  A line fed ends at an LF, a CR or a CRLF,
 * whichever comes first: libcsv ends a record at any of them, so a record
 * never ends inside a line fed, and one is open after it unless its own
 * end ended it (a file of LF ends with a stray CR in it was read as fed
 * lines that ended records inside them, and its next quoted line break
 * went to the plain splitter, which stored the wrong coins).  Lines are
 * numbered by the file's own line end (line_end) as an editor counts them.
 * libcsv runs strict, so a stray quote is an error for its record only:
 * the parser is reset and the next line read.  A line without quotes is
 * split here instead, exactly as libcsv would split it, for a fraction of
 * its time (cr_source__csv_plain_line). */
#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <strings.h>
#include <unistd.h>

#include "util/util.h"
#include "source/readers.h"

#define NONE ((size_t)-1)
#define BLOCK (1u << 20)
/* How long a read waits for input before it calls opts->idle. */
#define IDLE_MS 1000

typedef struct reader {
    const char *name;
    cr_format format;
    char delim; /* the field delimiter, libcsv's and the plain lines' */
    const cr_source_opts *opts;
    cr_row_fn fn;
    void *ctx;
    cr_error *err;
    int stop; /* non-zero: a fatal error (in err) or fn's return; ignore the rest */

    /* the header */
    int have_header;
    size_t columns, id_col, values_col, n_col;
    size_t id_twin, values_twin, n_twin; /* a second column of the role: which one is meant? */
    size_t id_and_values;                /* the column --id-col and --values-col both name */
    char names[CR_ERROR_MSG_MAX]; /* the header's first column names, whole, each NUL-ended: for messages */
    size_t names_len, names_kept;

    /* the record at hand */
    uint64_t line;        /* the physical line being fed */
    uint64_t last_line;   /* the line of the last byte fed */
    uint64_t record_line; /* where the record at hand started */
    int record_open;      /* the record goes on past the line fed last */
    char eol;             /* what ends a line for its number: '\n' (LF or CRLF), '\r' (CR alone); 0 until known */
    int ended;            /* a record (or a blank line) ended in the line fed last */
    size_t field;         /* fields seen in the record */
    uint64_t data_rows;   /* data records so far */
    char raw[CR_RAW_MAX + 1];
    size_t raw_len;
    uint64_t offset;
    char *id;
    size_t id_len, id_cap;
    int have_id;
    cr_coins coins;
    size_t empty_cells;   /* wide: empty cells since the last value */
    const char *declared; /* CSV: the n column's text (in n_text) */
    char n_text[32];
    size_t n_len;
    cr_error bad; /* the record's first problem, when bad.code != 0 */
} reader;

static int stopped(const reader *r) { return r->opts->stop && atomic_load(r->opts->stop); }

static void trim(const char **s, size_t *len)
{
    while (*len > 0 && ((*s)[0] == ' ' || (*s)[0] == '\t'))
        (*s)++, (*len)--;
    while (*len > 0 && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t' || (*s)[*len - 1] == '\r'))
        (*len)--;
}

static int same_name(const char *a, size_t len, const char *b)
{
    return strlen(b) == len && strncasecmp(a, b, len) == 0;
}

/* Remembers a header field: its name for messages, and which role it has. */
static void header_field(reader *r, const char *s, size_t len)
{
    size_t k = r->columns++;
    trim(&s, &len);
    /* the first names for messages, as many whole ones as a message could
     * show (a NUL never reaches a header's name) */
    if (r->names_kept == k && len < sizeof r->names - r->names_len) {
        memcpy(r->names + r->names_len, s, len);
        r->names[r->names_len + len] = '\0';
        r->names_len += len + 1;
        r->names_kept++;
    }
    int values = r->format != CR_FORMAT_WIDE &&
                 (r->opts->values_col ? same_name(s, len, r->opts->values_col) : cr_source__is_values_name(s, len));
    int id = same_name(s, len, r->opts->id_col ? r->opts->id_col : "id");
    if (id && values && r->id_and_values == NONE)
        r->id_and_values = k;
    /* the first column of a role takes it; a second is its twin, refused */
    size_t *role = id ? &r->id_col : values ? &r->values_col
                                   : r->format != CR_FORMAT_WIDE && same_name(s, len, "n") ? &r->n_col
                                                                                            : NULL;
    size_t *twin = id ? &r->id_twin : values ? &r->values_twin : &r->n_twin;
    if (role && *role == NONE)
        *role = k;
    else if (role && *twin == NONE)
        *twin = k;
}

/* What comes after the header's names listed: nothing when all are, else
 * how many are left out ("... and 12 more columns"), or, when none is
 * listed, how many there are. */
static size_t names_rest(char *buf, size_t cap, size_t listed, size_t columns)
{
    size_t rest = columns - listed;
    if (rest == 0)
        return (size_t)snprintf(buf, cap, ")");
    if (listed == 0)
        return (size_t)snprintf(buf, cap, "%zu column%s)", rest, rest == 1 ? "" : "s");
    return (size_t)snprintf(buf, cap, ", ... and %zu more column%s)", rest, rest == 1 ? "" : "s");
}

/* Stops the read with what and where, and the header's names: as many
 * whole ones as the message has room for once the path is in, then the
 * count of the rest, so that a long path cuts neither a name nor the list's
 * end.  A path that leaves no room for that goes without the list. */
static int fatal(reader *r, int code, const char *what)
{
    char msg[CR_ERROR_MSG_MAX], rest[64];
    size_t len = (size_t)snprintf(msg, sizeof msg, "%s line %llu: %s (the header has: ", r->name,
                                  (unsigned long long)r->record_line, what);
    if (len + names_rest(rest, sizeof rest, 0, r->columns) >= sizeof msg) {
        r->stop = cr_errorf(r->err, code, "%s line %llu: %s", r->name, (unsigned long long)r->record_line, what);
        return r->stop;
    }
    size_t listed = 0;
    for (const char *name = r->names; listed < r->names_kept; name += strlen(name) + 1, listed++) {
        size_t grown = len + (listed ? 2 : 0) + strlen(name);
        if (grown + names_rest(rest, sizeof rest, listed + 1, r->columns) >= sizeof msg)
            break;
        snprintf(msg + len, sizeof msg - len, "%s%s", listed ? ", " : "", name);
        len = grown;
    }
    names_rest(msg + len, sizeof msg - len, listed, r->columns);
    r->stop = cr_errorf(r->err, code, "%s", msg);
    return r->stop;
}

static void check_header(reader *r)
{
    char what[128];
    r->have_header = 1;
    if (r->id_and_values != NONE) {
        snprintf(what, sizeof what, "column %zu is named by both --id-col and --values-col", r->id_and_values + 1);
        fatal(r, CR_EINVAL, what);
    } else if (r->id_twin != NONE || r->n_twin != NONE) { /* the first one was taken, the other dropped */
        int id = r->id_twin != NONE;
        snprintf(what, sizeof what, "columns %zu and %zu are both the %s column: rename one",
                 (id ? r->id_col : r->n_col) + 1, (id ? r->id_twin : r->n_twin) + 1, id ? "id" : "n");
        fatal(r, CR_EINVAL, what);
    } else if (r->opts->id_col && r->id_col == NONE) {
        snprintf(what, sizeof what, "no id column '%s'", r->opts->id_col);
        fatal(r, CR_EINVAL, what);
    } else if (r->format != CR_FORMAT_WIDE && r->values_col == NONE) {
        if (r->opts->values_col)
            snprintf(what, sizeof what, "no values column '%s'", r->opts->values_col);
        else
            snprintf(what, sizeof what, "no values column (values, coins, piles or stones)");
        fatal(r, CR_EINVAL, what);
    } else if (r->values_twin != NONE) { /* the first one was taken, the other's values dropped */
        snprintf(what, sizeof what, "columns %zu and %zu both name the values: %s", r->values_col + 1,
                 r->values_twin + 1, r->opts->values_col ? "rename one" : "give --values-col NAME");
        fatal(r, CR_EINVAL, what);
    }
}

static void mark_bad(reader *r, int code, const char *msg)
{
    if (r->bad.code == 0)
        cr_errorf(&r->bad, code, "%s", msg);
}

static void copy_id(reader *r, const char *s, size_t len)
{
    if (cr_grow((void **)&r->id, &r->id_cap, len + 1, 1, 64)) {
        mark_bad(r, CR_ENOMEM, "no memory for the id");
        return;
    }
    memcpy(r->id, s, len);
    r->id[len] = '\0';
    r->id_len = len;
    r->have_id = 1;
}

static void wide_cell(reader *r, const char *s, size_t len)
{
    const char *t = s;
    size_t tlen = len;
    trim(&t, &tlen);
    if (tlen == 0) {
        r->empty_cells++; /* only an error when a value follows */
        return;
    }
    if (r->empty_cells) {
        cr_errorf(&r->bad, CR_EINVAL, "value %zu is empty", r->coins.n + 1);
        return;
    }
    int64_t value;
    if (cr_coin_parse(&value, t, tlen, r->coins.n + 1, &r->bad) == 0)
        cr_coins_push(&r->coins, value, &r->bad);
}

/* libcsv: a field ended. */
static void on_field(void *data, size_t len, void *ctx)
{
    reader *r = ctx;
    const char *s = data ? data : "";
    if (r->stop)
        return;
    const char *nul = memchr(s, '\0', len);
    if (nul) {
        /* a NUL would end an id or a value early wherever it is shown */
        char why[96];
        snprintf(why, sizeof why, "field %zu has a NUL byte at character %zu",
                 (r->have_header ? r->field : r->columns) + 1, (size_t)(nul - s) + 1);
        if (!r->have_header) {
            fatal(r, CR_EINVAL, why);
            return;
        }
        mark_bad(r, CR_EINVAL, why);
    }
    if (!r->have_header) {
        header_field(r, s, len);
        return;
    }
    size_t k = r->field++;
    if (k == r->id_col)
        copy_id(r, s, len); /* even in a bad row: the rejection names it */
    else if (r->bad.code)
        return;
    else if (r->format == CR_FORMAT_WIDE)
        wide_cell(r, s, len);
    else if (k == r->values_col)
        cr_coins_parse(&r->coins, s, len, &r->bad);
    else if (k == r->n_col) {
        trim(&s, &len);
        r->n_len = len < sizeof r->n_text ? len : sizeof r->n_text - 1;
        memcpy(r->n_text, s, r->n_len);
        r->declared = r->n_text;
    }
}

static void reset_record(reader *r)
{
    r->field = 0;
    r->have_id = 0;
    r->coins.n = 0;
    r->empty_cells = 0;
    r->declared = NULL;
    cr_error_clear(&r->bad);
}

/* Hands the record at hand to fn, rejected with `reason` or accepted. */
static void emit(reader *r, const char *reason)
{
    char number[24];
    cr_row row = {
        .source = r->name,
        .line = r->record_line,
        .raw = r->raw,
        .raw_len = r->raw_len,
        .offset = r->offset,
        .reason = reason,
    };
    if (r->id_col == NONE) {
        row.numbered = 1;
        row.ext_id = number;
        row.ext_id_len = (size_t)snprintf(number, sizeof number, "%llu", (unsigned long long)r->data_rows);
    } else if (r->have_id && r->id_len > 0 && !memchr(r->id, '\0', r->id_len)) {
        row.ext_id = r->id;
        row.ext_id_len = r->id_len;
    }
    if (!reason) {
        row.coins = r->coins.v;
        row.n = r->coins.n;
        row.coins_json = r->coins.json;
        row.coins_json_len = r->coins.json_len;
    }
    int rc = r->fn(r->ctx, &row);
    if (rc)
        r->stop = rc;
}

static void data_record(reader *r)
{
    char why[160];
    const char *reason = NULL;
    r->data_rows++;
    /* memory running out is the reading's failure, not the row's fault */
    if (r->bad.code == CR_ENOMEM) {
        r->stop = cr_errorf(r->err, CR_ENOMEM, "%s line %llu: %s", r->name, (unsigned long long)r->record_line,
                            r->bad.msg);
        return;
    }
    if (r->format != CR_FORMAT_WIDE && r->field != r->columns) {
        snprintf(why, sizeof why, "the row has %zu field%s, the header %zu%s", r->field, r->field == 1 ? "" : "s",
                 r->columns,
                 r->field > r->columns ? (r->format == CR_FORMAT_TSV ? " (a value with a tab must be quoted)"
                                                                     : " (values with commas must be quoted)")
                                       : "");
        reason = why;
    } else if (r->id_col != NONE && !r->have_id) {
        /* a wide row may be shorter than the header, even short of its id */
        snprintf(why, sizeof why, "the row has no id (%zu field%s; the id is field %zu)", r->field,
                 r->field == 1 ? "" : "s", r->id_col + 1);
        reason = why;
    } else if (r->id_col != NONE && r->id_len == 0) {
        reason = "the id is empty";
    } else if (r->bad.code) {
        reason = r->bad.msg;
    } else if (r->coins.n == 0) {
        reason = "no values";
    } else if (r->declared && r->n_len > 0) {
        reason = cr_source__check_n(why, sizeof why, r->declared, r->n_len, r->coins.n);
    }
    emit(r, reason);
}

/* libcsv: a record (or a blank line) ended. */
static void on_record(int c, void *ctx)
{
    reader *r = ctx;
    (void)c;
    r->ended = 1;
    if (r->stop)
        return;
    if (r->field == 0 && r->have_header) {
        reset_record(r); /* a blank line */
        return;
    }
    if (!r->have_header) {
        if (r->columns > 0)
            check_header(r);
    } else {
        data_record(r);
    }
    reset_record(r);
}

/* libcsv's blanks, dropped around an unquoted field: spaces and tabs,
 * unless the tab is the delimiter. */
static int is_blank(char c, char delim) { return (c == ' ' || c == '\t') && c != delim; }

int cr_source__csv_plain_line(char *s, size_t len, char delim, void (*field)(void *, size_t, void *),
                              void (*record)(int, void *), void *ctx)
{
    char eol = len > 0 ? s[len - 1] : 0;
    if (eol != '\n' && eol != '\r')
        return -1; /* the end of the input: csv_fini ends the record */
    size_t end = len - 1;
    int crlf = eol == '\n' && end > 0 && s[end - 1] == '\r';
    end -= (size_t)crlf;
    if (memchr(s, '"', end) || memchr(s, '\r', end))
        return -1;
    size_t start = 0;
    while (start < end && is_blank(s[start], delim))
        start++;
    while (start < end) { /* else a blank line: a record of no fields */
        char *d = memchr(s + start, delim, end - start);
        size_t stop = d ? (size_t)(d - s) : end, from = start;
        while (from < stop && is_blank(s[from], delim))
            from++;
        while (stop > from && is_blank(s[stop - 1], delim))
            stop--;
        field(s + from, stop - from, ctx);
        if (!d)
            break;
        start = (size_t)(d - s) + 1;
        if (start == end) /* a delimiter last is followed by an empty field */
            field(s + end, 0, ctx);
    }
    if (crlf || eol == '\r')
        record('\r', ctx); /* libcsv ends a record at the CR, and a blank one at the LF */
    if (eol == '\n')
        record('\n', ctx);
    return 0;
}

/* Feeds one line (with its end, except maybe the last). */
static void feed(reader *r, struct csv_parser *p, char *s, size_t len)
{
    if (!r->record_open) {
        r->raw_len = 0;
        r->record_line = r->line;
    }
    size_t keep = sizeof r->raw - r->raw_len < len ? sizeof r->raw - r->raw_len : len;
    memcpy(r->raw + r->raw_len, s, keep);
    r->raw_len += keep;
    r->offset += len;
    r->ended = 0;
    /* libcsv walks a line byte by byte, which was a fifth of a run's time:
     * the plain lines most files are made of are split here instead */
    size_t parsed = !r->record_open && cr_source__csv_plain_line(s, len, r->delim, on_field, on_record, r) == 0
                        ? len
                        : csv_parse(p, s, len, on_field, on_record, r);
    if (parsed < len && !r->stop) {
        /* strict mode: a quote inside an unquoted field, or text after a
         * closing quote; the record is rejected and the line dropped */
        char why[96];
        int wrote = snprintf(why, sizeof why, "malformed quote at character %zu", parsed + 1);
        if (r->line != r->record_line)
            snprintf(why + wrote, sizeof why - (size_t)wrote, " of line %llu", (unsigned long long)r->line);
        if (!r->have_header) {
            fatal(r, CR_EINVAL, why);
        } else {
            r->data_rows++;
            emit(r, why);
        }
        csv_fini(p, NULL, NULL, NULL); /* resets the parser */
        reset_record(r);
        r->ended = 1;
    }
    r->record_open = !r->ended;
    r->last_line = r->line;
    if (len > 0 && s[len - 1] == r->eol)
        r->line++;
}

/* Reads more of f into buf[len..cap), waiting again after a signal unless
 * asked to stop.  0, or CR_EIO / CR_EINTERRUPTED.  What is there now, not
 * a whole buffer (fread waits for one): rows that come slowly through a
 * pipe are passed on, and committed, as they come. */
static int fill(size_t *got, char *buf, size_t room, FILE *f, reader *r)
{
    for (;;) {
        struct pollfd ready = {fileno(f), POLLIN, 0};
        int waited = r->opts->idle ? poll(&ready, 1, IDLE_MS) : 1;
        if (waited == 0) {
            r->opts->idle(r->opts->idle_ctx);
            continue;
        }
        ssize_t n = waited > 0 ? read(fileno(f), buf, room) : -1;
        if (n >= 0) {
            *got = (size_t)n;
            return 0;
        }
        if (errno != EINTR)
            return cr_errorf(r->err, CR_EIO, "cannot read %s: %s", r->name, strerror(errno));
        if (stopped(r))
            return cr_errorf(r->err, CR_EINTERRUPTED, "interrupted while reading %s", r->name);
    }
}

/* What ends the lines of a file, as an editor numbers them, from the first
 * text read of it, s[0..len): '\n' (an LF, or a CRLF) when it holds an LF,
 * '\r' when it holds a CR but no LF (as old Mac programs write lines); 0
 * while it cannot tell: no line end yet, or a CR last that an LF may
 * follow.  A file of CR ends that has an LF in a quoted field of its first
 * block is numbered as one of LF ends (its rows' data is read right). */
static char line_end(const char *s, size_t len, int at_eof)
{
    if (memchr(s, '\n', len))
        return '\n';
    const char *cr = memchr(s, '\r', len);
    return cr && (cr + 1 < s + len || at_eof) ? '\r' : at_eof ? '\n' : 0;
}

/* The offset of the first c in buf[from..len), or len when there is none. */
static size_t find(const char *buf, size_t from, size_t len, char c)
{
    const char *at = memchr(buf + from, c, len - from);
    return at ? (size_t)(at - buf) : len;
}

static int read_lines(reader *r, struct csv_parser *p, FILE *f)
{
    /* the next LF and the next CR at or after pos (len: none in buf[pos..len)),
     * each found once: a file of one kind of line end has none of the other */
    size_t cap = BLOCK, len = 0, pos = 0, lf = 0, cr = 0;
    char *buf = malloc(cap);
    int rc = 0, at_eof = 0, first = 1;
    if (!buf)
        return cr_errorf(r->err, CR_ENOMEM, "no memory to read %s", r->name);
    while (!r->stop) {
        if (!r->eol)
            r->eol = line_end(buf + pos, len - pos, at_eof);
        if (lf < pos)
            lf = find(buf, pos, len, '\n');
        if (cr < pos)
            cr = find(buf, pos, len, '\r');
        size_t end = lf < cr ? lf : cr;
        /* a CR last in the buffer may be the first half of a CRLF */
        if (end < len && (end == lf || cr + 1 < len || at_eof)) {
            size_t line_len = end - pos + 1 + (end == cr && cr + 1 < len && buf[cr + 1] == '\n');
            feed(r, p, buf + pos, line_len);
            pos += line_len;
            continue;
        }
        if (at_eof) {
            if (pos < len)
                feed(r, p, buf + pos, len - pos);
            break;
        }
        memmove(buf, buf + pos, len - pos);
        len -= pos;
        lf -= pos;
        cr -= pos;
        pos = 0;
        if (len == cap && cr_grow((void **)&buf, &cap, cap + 1, 1, 1)) { /* a line longer than the buffer */
            rc = cr_errorf(r->err, CR_ENOMEM, "no memory for line %llu of %s", (unsigned long long)r->line, r->name);
            break;
        }
        size_t got = 0;
        if ((rc = fill(&got, buf + len, cap - len, f, r)) != 0)
            break;
        at_eof = got == 0;
        const unsigned char *start = (const unsigned char *)buf;
        int utf16 = first && len + got >= 2 &&
                    ((start[0] == 0xFF && start[1] == 0xFE) || (start[0] == 0xFE && start[1] == 0xFF));
        if (utf16) {
            /* its NUL bytes would be the first row's trouble, and the header's names empty */
            rc = cr_errorf(r->err, CR_EINVAL, "%s is UTF-16 text (it starts with the byte order mark %02X %02X, as "
                                              "Excel's \"Unicode text\" saves it): save it as \"CSV UTF-8\"",
                           r->name, start[0], start[1]);
            break;
        }
        size_t bom = first ? cr_utf8_bom(buf, len + got) : 0;
        if (bom) {
            memmove(buf, buf + bom, len + got - bom);
            got -= bom;
            r->offset += bom;
        }
        first = first && len + got < 3;
        size_t from = bom ? 0 : len; /* none so far: look in what came (and what a BOM's removal moved) */
        if (lf == len)
            lf = find(buf, from, len + got, '\n');
        if (cr == len)
            cr = find(buf, from, len + got, '\r');
        len += got;
    }
    free(buf);
    return rc;
}

int cr_source__csv(FILE *f, const char *name, cr_format format, const cr_source_opts *opts, cr_row_fn fn, void *ctx,
                   cr_error *err)
{
    reader r = {
        .name = name,
        .format = format,
        .delim = format == CR_FORMAT_TSV ? CSV_TAB : CSV_COMMA,
        .opts = opts,
        .fn = fn,
        .ctx = ctx,
        .err = err,
        .id_col = NONE,
        .values_col = NONE,
        .id_twin = NONE,
        .values_twin = NONE,
        .n_twin = NONE,
        .id_and_values = NONE,
        .n_col = NONE,
        .line = 1,
    };
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL) != 0)
        return cr_errorf(err, CR_ENOMEM, "no memory to read %s", name);
    csv_set_delim(&p, (unsigned char)r.delim);
    int rc = read_lines(&r, &p, f);
    if (rc == 0 && !r.stop) {
        r.ended = 0;
        if (csv_fini(&p, on_field, on_record, &r) != 0 && !r.stop) {
            char why[128];
            int wrote = snprintf(why, sizeof why, "a quote opened in this row is never closed");
            if (r.last_line > r.record_line)
                snprintf(why + wrote, sizeof why - (size_t)wrote, " (lines %llu-%llu were read as one row)",
                         (unsigned long long)r.record_line, (unsigned long long)r.last_line);
            if (r.have_header) {
                r.data_rows++;
                emit(&r, why);
            } else {
                fatal(&r, CR_EINVAL, why);
            }
        }
    }
    if (rc == 0 && !r.stop && !r.have_header)
        rc = cr_errorf(err, CR_EINVAL, "%s: no header row (the file is empty)", name);
    csv_free(&p);
    free(r.id);
    cr_coins_free(&r.coins);
    return rc ? rc : r.stop;
}
