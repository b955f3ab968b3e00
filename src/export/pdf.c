/* A text-only PDF (PDF 1.4): a catalog, a page tree, the two standard
 * Courier fonts, and per page its content stream; the cross-reference table
 * needs every object's byte offset, so the file is built in memory. */
#include "export/pdf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* A4 in points, the text block within it, Courier's advance (0.6 em). */
enum { PAGE_W = 595, PAGE_H = 842, LEFT = 56, TOP = 786, BOTTOM = 56, SIZE = 10, LEADING = 12 };
enum { LINES_PER_PAGE = (TOP - BOTTOM) / LEADING, TITLE_LINES = 3 };

typedef struct pdf {
    char *bytes;
    size_t len, cap;
    size_t *offsets; /* of objects 1..count */
    int failed;
} pdf;

static void put(pdf *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(pdf *d, const char *fmt, ...)
{
    va_list ap;
    if (!d->bytes && !d->failed && cr_grow((void **)&d->bytes, &d->cap, 1, 1, 4096))
        d->failed = 1;
    for (; !d->failed;) {
        va_start(ap, fmt);
        int n = vsnprintf(d->bytes + d->len, d->cap - d->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            d->failed = 1;
            return;
        }
        if (d->len + (size_t)n < d->cap) {
            d->len += (size_t)n;
            return;
        }
        if (cr_grow((void **)&d->bytes, &d->cap, d->len + (size_t)n + 1, 1, 4096)) {
            d->failed = 1;
            return;
        }
    }
}

/* line[0..len), UTF-8, as a PDF string in the fonts' WinAnsiEncoding: ( )
 * and \ escaped, the Latin-1 letters (U+00A0 to U+00FF, the same bytes in
 * WinAnsi: "Pièces été") as octal escapes, and any other character a
 * control or outside the standard fonts, one '?' each. */
static void put_string(pdf *d, const char *line, size_t len)
{
    put(d, "(");
    for (size_t i = 0, n; i < len; i += n) {
        unsigned char c = (unsigned char)line[i];
        n = 1;
        if (c == '(' || c == ')' || c == '\\') {
            put(d, "\\%c", c);
        } else if (c < 0x80) {
            put(d, "%c", c >= 0x20 && c < 0x7f ? c : '?');
        } else {
            cr_text_kind kind = cr_text_char(&n, line + i, len - i);
            unsigned code = n == 2 ? (c & 0x1fu) << 6 | ((unsigned char)line[i + 1] & 0x3fu) : 0;
            if (kind == CR_TEXT_PLAIN && code >= 0xa0 && code <= 0xff)
                put(d, "\\%03o", code);
            else
                put(d, "?");
        }
    }
    put(d, ")");
}

static void begin_object(pdf *d, size_t number) { d->offsets[number] = d->len, put(d, "%zu 0 obj\n", number); }

/* The lines of text, as offsets into it. */
typedef struct lines {
    const char **at;
    size_t *len, count;
} lines;

static int split(lines *out, const char *text)
{
    size_t count = 1;
    for (const char *p = text; *p; p++)
        count += *p == '\n';
    out->at = malloc(count * sizeof *out->at);
    out->len = malloc(count * sizeof *out->len);
    out->count = 0;
    if (!out->at || !out->len)
        return -1;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        out->at[out->count] = p;
        out->len[out->count++] = len;
        p += len + (end != NULL);
    }
    return 0;
}

/* Page k's content: the title on the first, then its share of the lines. */
static void page_content(pdf *d, const char *title, const lines *l, size_t first, size_t last, int with_title)
{
    put(d, "BT\n");
    if (with_title) {
        put(d, "/F2 14 Tf 1 0 0 1 %d %d Tm ", LEFT, TOP);
        put_string(d, title, strlen(title));
        put(d, " Tj\n");
    }
    put(d, "/F1 %d Tf %d TL 1 0 0 1 %d %d Tm\n", SIZE, LEADING, LEFT,
        TOP - (with_title ? TITLE_LINES * LEADING : 0));
    for (size_t i = first; i < last; i++) {
        put_string(d, l->at[i], l->len[i]);
        put(d, " Tj T*\n");
    }
    put(d, "ET\n");
}

int cr_pdf_write(FILE *f, const char *title, const char *text, cr_error *err)
{
    lines l = {0};
    pdf d = {0};
    int rc = 0;
    if (split(&l, text) != 0) {
        rc = cr_errorf(err, CR_ENOMEM, "no memory for a PDF of %zu bytes", strlen(text));
        goto done;
    }
    size_t first_page = LINES_PER_PAGE - TITLE_LINES, pages = 1;
    if (l.count > first_page)
        pages += (l.count - first_page + LINES_PER_PAGE - 1) / LINES_PER_PAGE;
    /* 1 catalog, 2 page tree, 3 and 4 fonts, then a page and its content each */
    size_t objects = 4 + 2 * pages;
    if (!(d.offsets = calloc(objects + 1, sizeof *d.offsets))) {
        rc = cr_errorf(err, CR_ENOMEM, "no memory for a PDF of %zu pages", pages);
        goto done;
    }
    put(&d, "%%PDF-1.4\n%%\xe2\xe3\xcf\xd3\n");
    begin_object(&d, 1);
    put(&d, "<< /Type /Catalog /Pages 2 0 R >>\nendobj\n");
    begin_object(&d, 2);
    put(&d, "<< /Type /Pages /Count %zu /Kids [", pages);
    for (size_t k = 0; k < pages; k++)
        put(&d, "%s%zu 0 R", k ? " " : "", 5 + 2 * k);
    put(&d, "] >>\nendobj\n");
    begin_object(&d, 3);
    put(&d, "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>\nendobj\n");
    begin_object(&d, 4);
    put(&d, "<< /Type /Font /Subtype /Type1 /BaseFont /Courier-Bold /Encoding /WinAnsiEncoding >>\nendobj\n");
    for (size_t k = 0, line = 0; k < pages; k++) {
        size_t take = k == 0 ? first_page : LINES_PER_PAGE, last = line + take < l.count ? line + take : l.count;
        begin_object(&d, 5 + 2 * k);
        put(&d,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> "
            "/Contents %zu 0 R >>\nendobj\n",
            PAGE_W, PAGE_H, 6 + 2 * k);
        /* the content is written first, then its object around it with the length */
        pdf content = {0};
        page_content(&content, title, &l, line, last, k == 0);
        begin_object(&d, 6 + 2 * k);
        put(&d, "<< /Length %zu >>\nstream\n", content.len);
        if (!content.failed && content.len)
            put(&d, "%.*s", (int)content.len, content.bytes);
        put(&d, "endstream\nendobj\n");
        d.failed |= content.failed;
        free(content.bytes);
        line = last;
    }
    size_t xref = d.len;
    put(&d, "xref\n0 %zu\n0000000000 65535 f \n", objects + 1);
    for (size_t i = 1; i <= objects; i++)
        put(&d, "%010zu 00000 n \n", d.offsets[i]);
    put(&d, "trailer\n<< /Size %zu /Root 1 0 R >>\nstartxref\n%zu\n%%%%EOF\n", objects + 1, xref);
    if (d.failed)
        rc = cr_errorf(err, CR_ENOMEM, "no memory for a PDF of %zu pages", pages);
    else if (fwrite(d.bytes, 1, d.len, f) != d.len)
        rc = cr_errorf(err, CR_EIO, "cannot write the PDF");
done:
    free(l.at);
    free(l.len);
    free(d.offsets);
    free(d.bytes);
    return rc;
}
