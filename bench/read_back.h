/* Reading a run back (bench/read_back.c), for bench_pipeline: queries
 * through coinrow's views `result` and `result_view` against the same rows
 * in plain tables. */
#ifndef CR_BENCH_READ_BACK_H
#define CR_BENCH_READ_BACK_H

/* On the database at path, which holds two runs (1 and 2) of one set of
 * `rows` instances with every variant and ids i0000001, ... in file order:
 * copies the rows
 * of result_view and of result into plain tables with indexes (in the order
 * a run writes rows, by instance then variant), then runs each query
 * through the views and on the plain tables, alternately, reps times, and
 * prints their medians and ratios as a Markdown table, then the largest
 * ratio through each view.  Exits when a query
 * does not give the same rows both ways.  The database is left with the
 * plain tables in it. */
void bench_read_back(const char *path, long rows, int reps);

#endif
