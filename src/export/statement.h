/* The problem statement a package holds, written from the problem the tests
 * show (export/package.h): the rules, the variant's question, the input and
 * output formats, the constraints the set really has, and the samples. */
#ifndef CR_EXPORT_STATEMENT_H
#define CR_EXPORT_STATEMENT_H

#include <stdio.h>

#include "export/package.h"

typedef enum cr_statement_style {
    CR_STATEMENT_KATTIS,  /* problemtools' LaTeX: \problemname, sections; samples come from data/sample */
    CR_STATEMENT_POLYGON, /* Polygon's olymp.sty: \begin{problem}, \InputFile, \OutputFile, \exmp */
    CR_STATEMENT_TEXT     /* plain ASCII text, lines of at most CR_STATEMENT_COLUMNS, for the PDF */
} cr_statement_style;

#define CR_STATEMENT_COLUMNS 78

/* Writes the statement of pb in the style to f. */
void cr_statement_write(FILE *f, const cr_problem *pb, cr_statement_style style);

/* Writes the statement as a PDF to f (cr_statement_write's text, pdf.h). */
int cr_statement_write_pdf(FILE *f, const cr_problem *pb, cr_error *err);

/* Writes the statement of pb in the style to the new file rel of the
 * package: 0, or the write's error. */
int cr_statement_file(cr_package *p, const char *rel, cr_statement_style style, const cr_problem *pb, cr_error *err);

#endif
