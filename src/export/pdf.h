/* A PDF of plain text: what converters and CMS carry over as a statement.
 * ASCII in a fixed-width font (the PDF standard's Courier, which every
 * reader has), so that no font is embedded and lines wrap by counting. */
#ifndef CR_EXPORT_PDF_H
#define CR_EXPORT_PDF_H

#include <stdio.h>

#include "coinrow/error.h"

/* Writes title (larger, bold) and text (lines of at most 80 characters,
 * split at '\n'; bytes outside printable ASCII become '?') as an A4 PDF to
 * f, as many pages as it takes.  The same text gives the same bytes.
 * CR_ENOMEM, CR_EIO. */
int cr_pdf_write(FILE *f, const char *title, const char *text, cr_error *err);

#endif
