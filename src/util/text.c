/* Text from a file or a database on its way to people: a terminal must not
 * take it for commands (an id holding ESC [ 2 J clears the screen, ESC ] ...
 * BEL retitles the window), a page must not show it reordered (a
 * bidirectional override makes "abc" read "cba"), and a command printed
 * for pasting must run what it says.  One reading of the bytes for all of
 * them, as ls and git escape file names. */
#include "util/util.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

cr_text_kind cr_text_char(size_t *out_len, const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    unsigned c = s[0], lo = 0x80, hi = 0xBF;
    size_t more;
    *out_len = 1;
    if (c < 0x80)
        return c < 0x20 || c == 0x7f ? CR_TEXT_CONTROL : CR_TEXT_PLAIN;
    if (c >= 0xC2 && c <= 0xDF) {
        more = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
        more = 2;
        lo = c == 0xE0 ? 0xA0 : lo; /* not overlong */
        hi = c == 0xED ? 0x9F : hi; /* not a surrogate */
    } else if (c >= 0xF0 && c <= 0xF4) {
        more = 3;
        lo = c == 0xF0 ? 0x90 : lo;
        hi = c == 0xF4 ? 0x8F : hi; /* not past U+10FFFF */
    } else {
        return CR_TEXT_INVALID;
    }
    if (len <= more)
        return CR_TEXT_INVALID;
    for (size_t k = 1; k <= more; k++, lo = 0x80, hi = 0xBF)
        if (s[k] < lo || s[k] > hi)
            return CR_TEXT_INVALID;
    *out_len = more + 1;
    if (c == 0xC2 && s[1] <= 0x9F)
        return CR_TEXT_CONTROL; /* C1: U+0080..U+009F (0x9B is a CSI to some terminals) */
    if (c == 0xE2 && ((s[1] == 0x80 && s[2] >= 0xAA && s[2] <= 0xAE) || (s[1] == 0x81 && s[2] >= 0xA6 && s[2] <= 0xA9)))
        return CR_TEXT_BIDI; /* U+202A..U+202E, U+2066..U+2069 */
    return CR_TEXT_PLAIN;
}

static const char hex[] = "0123456789abcdef";

/* The bytes b[0..len) as \xNN each into out (4 * len bytes). */
static void put_hex(char *out, const unsigned char *b, size_t len)
{
    for (size_t k = 0; k < len; k++, out += 4) {
        out[0] = '\\';
        out[1] = 'x';
        out[2] = hex[b[k] >> 4];
        out[3] = hex[b[k] & 15u];
    }
}

/* text[0..len) as cr_text_shown_len shows it into out (cap bytes), in at
 * most `most` characters (an escaped byte is 4); their count into *out_chars. */
static void show(char *out, size_t cap, const char *text, size_t len, size_t most, size_t *out_chars)
{
    size_t k = 0, i = 0, chars = 0, cut = 0, cut_chars = 0;
    while (i < len) {
        size_t n;
        int plain = cr_text_char(&n, text + i, len - i) == CR_TEXT_PLAIN;
        size_t need = plain ? n : 4 * n, wide = plain ? 1 : 4 * n;
        if (k + need >= cap || chars + wide > most)
            break;
        if (plain)
            memcpy(out + k, text + i, n);
        else
            put_hex(out + k, (const unsigned char *)text + i, n);
        /* where "..." would fit, should the rest not */
        if (k + need + 3 < cap && chars + wide + 3 <= most)
            cut = k + need, cut_chars = chars + wide;
        k += need;
        chars += wide;
        i += n;
    }
    if (i < len) {
        if (cut + 3 >= cap || cut_chars + 3 > most)
            cut = cut_chars = 0; /* room for nothing but the dots, or not even them */
        if (cut + 3 < cap && cut_chars + 3 <= most) {
            memcpy(out + cut, "...", 3);
            cut += 3;
            cut_chars += 3;
        }
        k = cut;
        chars = cut_chars;
    }
    if (cap)
        out[k] = '\0';
    *out_chars = chars;
}

const char *cr_text_shown(char *out, size_t cap, const char *text)
{
    return cr_text_shown_len(out, cap, text ? text : "", text ? strlen(text) : 0);
}

const char *cr_text_shown_len(char *out, size_t cap, const char *text, size_t len)
{
    size_t chars;
    show(out, cap, text, len, SIZE_MAX, &chars);
    return out;
}

const char *cr_text_column(char *out, size_t cap, const char *text, size_t width)
{
    size_t chars, k;
    show(out, cap, text ? text : "", text ? strlen(text) : 0, width, &chars);
    for (k = strlen(out); chars < width && k + 1 < cap; chars++)
        out[k++] = ' ';
    if (cap)
        out[k] = '\0';
    return out;
}

const char *cr_time_text(char out[CR_TIME_TEXT_MAX], int64_t seconds)
{
    time_t t = (time_t)seconds;
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(out, CR_TIME_TEXT_MAX, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(out, CR_TIME_TEXT_MAX, "%lld", (long long)seconds);
    return out;
}

size_t cr_utf8_bom(const char *text, size_t len)
{
    return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* text[0..len) as cr_text_put writes it. */
static void put_text(FILE *f, const char *text, size_t len)
{
    for (size_t i = 0, n; i < len; i += n) {
        if (cr_text_char(&n, text + i, len - i) == CR_TEXT_PLAIN) {
            fwrite(text + i, 1, n, f);
        } else {
            char escaped[16];
            put_hex(escaped, (const unsigned char *)text + i, n);
            fwrite(escaped, 1, 4 * n, f);
        }
    }
}

void cr_text_put(FILE *f, const char *text) { put_text(f, text ? text : "", text ? strlen(text) : 0); }

void cr_text_put_len(FILE *f, const char *text, size_t len) { put_text(f, text, len); }

/* Bytes a shell takes as part of a word, anywhere in it. */
static int bare(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("_-./=:,+@%", c);
}

void cr_text_put_word(FILE *f, const char *word)
{
    size_t len = strlen(word), i = 0, n;
    while (i < len && bare(word[i]))
        i++;
    if (len > 0 && i == len && word[0] != '=') { /* zsh expands =NAME to NAME's path */
        fputs(word, f);
        return;
    }
    /* 'quoted' runs of characters, \' for a quote and $'\xNN' for what a
     * terminal must not get: 'a'\''b'$'\x1b''[2J' */
    int quoted = 0, dollar = 0;
    if (len == 0)
        fputs("''", f);
    for (i = 0; i < len; i += n) {
        int plain = cr_text_char(&n, word + i, len - i) == CR_TEXT_PLAIN;
        int want = !plain ? 2 : word[i] == '\'' ? 0 : 1; /* $'...', nothing, '...' */
        if (quoted && want != 1)
            fputc('\'', f), quoted = 0;
        if (dollar && want != 2)
            fputc('\'', f), dollar = 0;
        if (want == 1 && !quoted)
            fputc('\'', f), quoted = 1;
        if (want == 2 && !dollar)
            fputs("$'", f), dollar = 1;
        if (want == 0)
            fputs("\\'", f);
        else if (want == 1)
            fwrite(word + i, 1, n, f);
        else
            put_text(f, word + i, n);
    }
    if (quoted || dollar)
        fputc('\'', f);
}

/* The end of the quoted part that starts at c ('...' or $'...'), past its
 * closing quote; NULL when it has none, or '...' holds what
 * cr_text_put_word would have put in $'...'. */
static const char *quote_end(const char *c)
{
    int dollar = *c == '$';
    size_t n = 1;
    for (c += dollar ? 2 : 1; *c && *c != '\''; c += n) {
        if (dollar) /* $'\'' is a quote within */
            n = *c == '\\' && c[1] ? 2 : 1;
        else if (cr_text_char(&n, c, strnlen(c, 4)) != CR_TEXT_PLAIN) /* a character is at most 4 bytes */
            return NULL;
    }
    return *c ? c + 1 : NULL;
}

const char *cr_text_command_word_end(const char *c)
{
    while (c && *c && *c != ' ') {
        if (bare(*c))
            c++;
        else if (*c == '\\' && c[1] == '\'')
            c += 2;
        else if (*c == '\'' || (*c == '$' && c[1] == '\''))
            c = quote_end(c);
        else
            return NULL;
    }
    return c;
}

int cr_text_command_literal(const char *text)
{
    if (!text || strncmp(text, "coinrow", 7) != 0 || (text[7] != ' ' && text[7] != '\0'))
        return 0;
    for (const char *c = text + 7; *c;) {
        if (*c != ' ' || c[1] == ' ' || c[1] == '\0') /* one space before each word */
            return 0;
        if (!(c = cr_text_command_word_end(c + 1)))
            return 0;
    }
    return 1;
}
