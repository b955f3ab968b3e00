/* What the layers above the core share and the core cannot have: error
 * messages through printf, reading a stream whole, the machine's memory,
 * names of enumerations read from text, a hash, times as text, reading
 * a row of coins from text, text from files made safe to show, and opening
 * an SQLite database.  The exported judge programs are built with the
 * first three (the Makefile's JUDGE_UTIL_SRC). */
#ifndef CR_UTIL_H
#define CR_UTIL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "coinrow/error.h"
#include "coinrow/number.h"

/* --- error messages (errorf.c) --- */

/* The error setter of every layer above the core: cr_error_set with the
 * whole of printf, through vsnprintf.  (The core's cr_error_set formats
 * without stdio and knows only the conversions the core uses.)  Fills err
 * (when not NULL) with code and the message fmt formats as printf does, cut
 * to fit (between UTF-8 characters); returns code, so that callers can
 * write `return cr_errorf(err, CR_EINVAL, ...)`. */
int cr_errorf(cr_error *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* --- streams, files and the machine (read_all.c, beside.c, memory.c) --- */

/* Reads f to its end into a NUL-terminated buffer *out (length in *out_len);
 * the caller frees *out.  `name` names the stream in errors. */
int cr_read_all(char **out, size_t *out_len, FILE *f, const char *name, cr_error *err);

/* cr_read_all of the file at path, or of standard input when path is NULL;
 * CR_EIO naming the file when it cannot be opened. */
int cr_read_path(char **out, size_t *out_len, const char *path, cr_error *err);

/* A new file beside the file path names, ".BASE.coinrow-XXXXXX" in its
 * folder, with the permissions a new file gets (mkstemp makes private
 * ones), or those, the group and (where allowed) the owner of the file it
 * replaces, which the user must be allowed to write, for writing a file
 * whole or not at all: renamed over *out_target
 * once complete, removed otherwise, so that a failure (a full disk) leaves
 * it as it was.  *out_target is path, or the regular file a symbolic link
 * at path names (the link stays); anything else at path (a folder, a FIFO,
 * a device), which the rename would replace, is refused (CR_EINVAL).  The
 * names in *out_tmp ("" when nothing was made) and *out_target, which the
 * caller frees (NULL when refused); NULL with err (CR_EINVAL, CR_ENOMEM,
 * CR_EIO naming the trouble). */
FILE *cr_file_beside(char **out_tmp, char **out_target, const char *path, cr_error *err);

/* What a file of this mode is, in words: "a FIFO", "a folder", ... */
const char *cr_file_kind(mode_t mode);

/* 1 when the paths a and b name one file that exists (by device and
 * inode: through links and any spelling), else 0. */
int cr_file_same(const char *a, const char *b);

/* The machine's physical memory in bytes, for the budgets the layers above
 * the core set; 0 when the system does not say. */
size_t cr_physical_memory(void);

/* Makes the array *buf (of *cap elements of `size` bytes) hold at least
 * `need`: *cap doubled (from `first` when 0) until it does, then the array
 * reallocated.  Every array or buffer above the core grows through it.
 * Returns 0, or CR_ENOMEM (*buf and *cap as they were) when there is no
 * memory or when the size in bytes would not fit in a size_t, where a
 * product unchecked would wrap and make it smaller than asked. */
int cr_grow(void **buf, size_t *cap, size_t need, size_t size, size_t first);

/* Whether this process may open `count` more file descriptors now (they
 * are opened and closed again to find out): a command that needs several
 * at once asks before it creates or writes anything, so that a limit
 * (ulimit -n) too low for it refuses it whole rather than midway. */
int cr_files_spare(int count);

/* --- names and hashes (names.c, hash.c) --- */

/* Finds text (may be NULL) in names[0..count): 0 with its index in *out, or
 * CR_EINVAL "unknown WHAT 'TEXT' (A, B or C)", listing the names. */
int cr_name_parse(int *out, const char *const names[], int count, const char *what, const char *text,
                  cr_error *err);

/* FNV-1a, 64 bits: h (CR_FNV1A_BASIS to begin with) extended by
 * bytes[0..len).  Sets' fingerprints are made of it: it never
 * changes. */
#define CR_FNV1A_BASIS 0xcbf29ce484222325u
uint64_t cr_fnv1a(uint64_t h, const void *bytes, size_t len);

/* An instance's part of its set's fingerprint: FNV-1a-64 of its external
 * id, a zero byte and its coins as JSON.  A set's digest is the sum (mod
 * 2^64) of its instances', so that the order of rows does not matter. */
uint64_t cr_instance_digest(const char *ext_id, size_t ext_id_len, const char *coins_json, size_t coins_json_len);

/* --- times: as people read them, and on the monotonic clock (seconds.c) --- */

/* t in seconds, milliseconds or microseconds, whichever reads best
 * ("1.25 s", "3.4 ms", "12 us"), into out; returns out. */
const char *cr_seconds_text(char out[32], double t);

/* Seconds on the monotonic clock, which no change of the wall clock (NTP,
 * an administrator) moves: for durations and deadlines. */
double cr_seconds_now(void);

/* A condition variable whose timed waits (pthread_cond_timedwait) count on
 * the monotonic clock: a wall clock set back would stretch a wait on
 * CLOCK_REALTIME by as much.  Returns pthread_cond_init's code. */
int cr_cond_init_monotonic(pthread_cond_t *cond);

/* The monotonic time ns nanoseconds from now, into *out: the deadline of a
 * timed wait on a condition variable cr_cond_init_monotonic made. */
void cr_deadline_in(struct timespec *out, long long ns);

/* --- a row of coins as text (coins.c): "4 6 2 3", "4,6,2,3", "4;6;2;3" or
 * a JSON array "[4, 6, 2, 3]" --- */

/* How much of a rejected row's text is kept (the readers hand on at least
 * one byte more, the store keeps ingest_error.raw to this). */
#define CR_RAW_MAX 200

/* A growable array of coins, kept with the same coins as a JSON array
 * (the text the store keeps): readers make it while they read, where a
 * value's text is at hand.  Zero-initialise, empty by setting n to 0,
 * release with cr_coins_free. */
typedef struct cr_coins {
    int64_t *v;
    size_t n, cap;
    size_t failed_at; /* after cr_coins_parse refused the text: the offset of what it refused */
    char *json; /* "[4,6,2,3]" (no spaces) and a NUL once a value is in */
    size_t json_len, json_cap;
} cr_coins;

void cr_coins_free(cr_coins *coins);

/* Appends one value; CR_ENOMEM on failure. */
int cr_coins_push(cr_coins *coins, int64_t value, cr_error *err);

/* Parses text[0..len) into out (replacing what it held).  Values are decimal
 * integers with an optional sign, separated by white space, commas or
 * semicolons; the whole may be wrapped in [ ].  Errors (CR_EINVAL) name the
 * value by its 1-based position and quote it: not an integer, out of the
 * int64 range, or no values at all; a NUL byte anywhere is refused, naming
 * its 1-based character.  The JSON has each value in plain
 * decimal ("+7" and "007" as 7, "-0" as 0). */
int cr_coins_parse(cr_coins *out, const char *text, size_t len, cr_error *err);

/* Parses the coin at 1-based `position` of a row from text[0..len), white
 * space around it allowed.  CR_EINVAL naming the position and quoting the
 * text: empty, not an integer, or out of the int64 range (the messages of
 * cr_coins_parse); a NUL byte is refused, naming its character. */
int cr_coin_parse(int64_t *out, const char *text, size_t len, size_t position, cr_error *err);

/* The sum of coins[0..n) into *out; returns 1, or 0 when it leaves int64
 * (*out is then meaningless). */
int cr_coins_total(int64_t *out, const int64_t *coins, size_t n);

/* --- text from a file or a database, shown to people (text.c) --- */

/* What a character of text is, to a terminal or a page. */
typedef enum cr_text_kind {
    CR_TEXT_PLAIN,   /* printable: ASCII from space to '~', or a well-formed UTF-8 character of another kind */
    CR_TEXT_CONTROL, /* C0 (tab and newline too), DEL, or C1 (U+0080..U+009F) */
    CR_TEXT_BIDI,    /* a bidirectional embedding, override or isolate: U+202A..U+202E, U+2066..U+2069 */
    CR_TEXT_INVALID  /* a byte that begins no well-formed UTF-8 character (overlong, surrogate, cut short) */
} cr_text_kind;

/* The kind of the character that begins text[0..len) (len > 0), its length
 * in bytes into *out_len (1 for an invalid byte). */
cr_text_kind cr_text_char(size_t *out_len, const char *text, size_t len);

/* The room cr_text_shown needs to show text of len bytes whole. */
#define CR_TEXT_SHOWN_CAP(len) (4 * (len) + 1)

/* text (NUL-terminated; NULL reads as "") as a terminal may show it, into
 * out (cap bytes): plain characters as they are, each byte of any other
 * character as \xNN (lower-case hex), so that nothing reaches a terminal
 * that it would obey or that reorders the line; cut between characters,
 * ending in "...", when it does not fit.  Returns out.  Every text from a
 * file or a database goes through it (or cr_text_put) before a terminal. */
const char *cr_text_shown(char *out, size_t cap, const char *text);

/* text[0..len), which may hold NUL bytes, as cr_text_shown shows it: a
 * message quoting a field of a file cuts and escapes it with this, so that
 * it stays UTF-8 (a database reader in Python refuses text that is not)
 * and keeps the bytes that made the field wrong. */
const char *cr_text_shown_len(char *out, size_t cap, const char *text, size_t len);

/* The room cr_text_column needs for a column of width characters. */
#define CR_TEXT_COLUMN_CAP(width) (4 * (width) + 1)

/* text (NULL reads as "") as cr_text_shown shows it, in a column of a table
 * `width` characters wide, into out (cap bytes): cut between characters,
 * ending in "...", when it has more, padded with spaces when it has fewer.
 * A character is one column, as a terminal shows most (an escaped byte,
 * \xNN, is four); printf's %-20s counts bytes, and misaligns UTF-8. */
const char *cr_text_column(char *out, size_t cap, const char *text, size_t width);

/* The room cr_time_text needs. */
#define CR_TIME_TEXT_MAX 32

/* seconds since the epoch as coinrow's tables keep a time (started_at),
 * UTC: 2026-12-07T16:44:32Z (the number itself should gmtime refuse it).
 * Returns out. */
const char *cr_time_text(char out[CR_TIME_TEXT_MAX], int64_t seconds);

/* The length of the UTF-8 byte order mark text[0..len) starts with: 3, or
 * 0 when it has none.  Every reader of text people save skips it. */
size_t cr_utf8_bom(const char *text, size_t len);

/* text (NULL reads as "") written to f as cr_text_shown shows it, whole;
 * and the same of text[0..len). */
void cr_text_put(FILE *f, const char *text);
void cr_text_put_len(FILE *f, const char *text, size_t len);

/* word written to f so that a shell reads it back as it is, and a terminal
 * shows it safely, for a command people copy and run: as it is when it is
 * made only of letters, digits and _-./=:,+@% (and does not begin with =,
 * which zsh expands); else in single quotes ('\''
 * for a quote), with the characters cr_text_shown escapes as $'\xNN'
 * between them, as ls quotes a file name ('a'$'\x1b''[2J'). */
void cr_text_put_word(FILE *f, const char *word);

/* Whether text (NULL: no) is a coinrow command as cr_text_put_word writes
 * one, "coinrow" and words apart by one space, with nothing a shell would
 * run or expand: bare characters, '...', \' and $'...' alone (no ;, |, &,
 * $(, `, <, >, *, ? or newline outside quotes).  A command that a file
 * holds is shown to be copied only then. */
int cr_text_command_literal(const char *text);

/* The end of the word that starts at `word` in a command that
 * cr_text_command_literal takes: where the space after it, or the end, is
 * (NULL at a byte a shell would take as more than text). */
const char *cr_text_command_word_end(const char *word);

/* --- opening an SQLite database (db.c) --- */

struct sqlite3;

/* sqlite3_open_v2(path, out, flags), then the connection hardened against
 * what the file holds (docs/trust.md): SQLITE_DBCONFIG_DEFENSIVE (no
 * writable_schema, no journal_mode=OFF, no writing to sqlite_dbpage or a
 * virtual table's shadow tables), PRAGMA trusted_schema = OFF (the
 * schema's views, triggers and defaults may call only functions marked
 * innocuous) and PRAGMA cell_size_check = ON (a damaged page is refused
 * rather than read past), and extended result codes.  Every connection
 * coinrow opens is opened here.  Returns SQLite's code; as with
 * sqlite3_open_v2, *out may be set even on failure, and the caller closes
 * it. */
int cr_db_open(struct sqlite3 **out, const char *path, int flags);

#endif
