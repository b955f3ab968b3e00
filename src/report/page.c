/* The page (docs/report.md): its head and stylesheets, then a section for
 * the set, the run, the comparison and the invocations, each written from
 * the model; every text from the database goes through cr_report__text. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/model.h"
#include "util/util.h"

/* Nothing but what is in the file: no script, no fetch, no frame. */
static const char head_meta[] =
    "<meta charset=\"utf-8\">\n"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<meta name=\"generator\" content=\"coinrow report\">\n";

static const char style[] =
    "<style>\n"
    ":root{--ink:#1d232a;--muted:#5d6773;--line:#d8dde3;--paper:#fff;--band:#f4f6f8;--accent:#2f5f9e}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0 auto;max-width:1100px;padding:1.5rem;font:15px/1.45 system-ui,-apple-system,'Segoe UI',"
    "Roboto,'DejaVu Sans',sans-serif;color:var(--ink);background:var(--paper)}\n"
    "h1{font-size:1.6rem;margin:0 0 .2rem}h2{font-size:1.3rem;margin:2rem 0 .6rem;padding-bottom:.2rem;"
    "border-bottom:2px solid var(--accent)}h3{font-size:1.05rem;margin:1.2rem 0 .4rem}\n"
    "p.meta,.note,figcaption{color:var(--muted);font-size:.9rem}\n"
    "nav{margin:.6rem 0 0}nav a{margin-right:1rem;color:var(--accent);text-decoration:none}\n"
    "dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.4rem 0}\n"
    "dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}\n"
    "table{border-collapse:collapse;margin:.4rem 0;font-size:.88rem}\n"
    "th,td{border:1px solid var(--line);padding:.2rem .45rem;text-align:left;vertical-align:top}\n"
    "th{background:var(--band);font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}\n"
    "code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.85em;overflow-wrap:anywhere}\n"
    ".variants{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:0 1.5rem}\n"
    "figure{margin:.4rem 0 1rem}svg.chart{width:100%;max-width:640px;height:auto;display:block}\n"
    "svg text{font-size:11px;fill:var(--muted)}svg text.y{text-anchor:end}svg text.x{text-anchor:middle}\n"
    "svg text.start{text-anchor:start}svg text.end{text-anchor:end}svg text.what{text-anchor:middle;fill:var(--ink)}\n"
    "svg .grid{stroke:var(--line)}svg .axis{stroke:var(--muted);fill:none}svg .bar{fill:var(--accent)}\n"
    "svg polyline{fill:none;stroke-width:2}\n"
    ".s0{--c:#2f5f9e}.s1{--c:#c8553d}.s2{--c:#2a9d5c}.s3{--c:#8e5ab5}.s4{--c:#d4a017}.s5{--c:#1b998b}"
    ".s6{--c:#7a7a7a}.s7{--c:#b5477a}\n"
    "svg rect[class*=\" s\"]{fill:var(--c)}svg g polyline{stroke:var(--c)}svg g circle{fill:var(--c)}"
    ".legend i[class^=s]{background:var(--c)}\n"
    ".w-first{fill:#2f5f9e;background:#2f5f9e}.w-second{fill:#c8553d;background:#c8553d}"
    ".w-draw{fill:#9aa3ad;background:#9aa3ad}\n"
    ".legend{list-style:none;padding:0;margin:.2rem 0;display:flex;flex-wrap:wrap;gap:.2rem 1.2rem;font-size:.88rem}\n"
    ".legend i{display:inline-block;width:.8em;height:.8em;margin-right:.35em;vertical-align:-.05em}\n"
    "table.matrix td.cell,table.matrix td.num{text-align:center;white-space:nowrap;"
    "font-variant-numeric:tabular-nums}\n"
    "table.matrix td.cell b{font-weight:700;letter-spacing:.02em}table.matrix td.cell small{display:block;opacity:.8}\n"
    "table.matrix tfoot td{background:var(--band);font-size:.82rem}\n"
    "th.inv{overflow-wrap:anywhere;min-width:5rem}.legend li{overflow-wrap:anywhere;min-width:0}\n"
    ".v-AC{background:#cdebd3;color:#0b4d1e}.v-WA{background:#f6c9c6;color:#7a1510}"
    ".v-PE{background:#fbe0b8;color:#6b3d00}.v-TLE{background:#cfd8f6;color:#1a2e75}"
    ".v-MLE{background:#e3d0f2;color:#4b1f6e}.v-RE{background:#f2c0dc;color:#6d0f43}"
    ".v-OLE{background:#e8dcc8;color:#5a4210}.v-none{background:#f1f1f1;color:#8a8a8a}\n"
    ".same{color:#0b4d1e}.different{color:#7a1510}\n"
    "footer{margin-top:2.5rem;color:var(--muted);font-size:.82rem;border-top:1px solid var(--line);padding-top:.5rem}\n"
    "@media print{\n"
    "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}\n"
    "body{max-width:none;padding:0;font-size:10pt}nav{display:none}\n"
    "h2{break-after:avoid}figure,table,dl.facts,.variant{break-inside:avoid}\n"
    "section{break-before:auto}a{color:inherit;text-decoration:none}\n"
    "@page{margin:14mm}\n"
    "}\n"
    "</style>\n";

static const char *const verdict_css[CR_INVOKE_VERDICT_COUNT] = {"v-AC",  "v-WA", "v-PE", "v-TLE",
                                                                 "v-MLE", "v-RE", "v-OLE"};

/* ---- small pieces ---- */

static void fact(FILE *f, const char *name, const char *value)
{
    fprintf(f, "<dt>%s</dt><dd>", name);
    cr_report__text(f, value);
    fputs("</dd>\n", f);
}

static void cell_text(FILE *f, const char *tag, const char *value)
{
    fprintf(f, "<%s>", tag);
    cr_report__text(f, value);
    fprintf(f, "</%s>", tag);
}

static void num_cell(FILE *f, uint64_t v)
{
    char n[32];
    fprintf(f, "<td class=\"num\">%s</td>", cr_report__count(n, v));
}

/* A run's facts, as the run section lists them and the comparison sets
 * side by side. */
enum { RUN_FACTS = 12 };
static const char *const run_fact_names[RUN_FACTS] = {
    "run",   "status",  "algorithm", "lines",     "variants",         "coinrow version",
    "label", "started", "finished",  "wall time", "instances solved", "instances per second"};

static void run_facts(char values[RUN_FACTS][256], const cr_report_run *r)
{
    char variants[CR_VARIANTS_TEXT_MAX], t[32], n[32];
    cr_variants_format(variants, r->run.opts.variants);
    snprintf(values[0], 256, "%" PRId64, r->run.id);
    snprintf(values[1], 256, "%s%s%.200s", cr_store_run_status_name(r->run.status), r->notes.message[0] ? ": " : "",
             r->notes.message);
    snprintf(values[2], 256, "%s", cr_algo_name(r->run.opts.algo));
    snprintf(values[3], 256, "%s", cr_moves_name(r->run.opts.moves));
    snprintf(values[4], 256, "%s", variants);
    snprintf(values[5], 256, "%s", r->run.solver_version);
    snprintf(values[6], 256, "%s", r->notes.label[0] ? r->notes.label : "-");
    snprintf(values[7], 256, "%s", r->notes.started_at);
    snprintf(values[8], 256, "%s", r->notes.finished_at[0] ? r->notes.finished_at : "-");
    if (r->run.seconds > 0) {
        snprintf(values[9], 256, "%s", cr_seconds_text(t, r->run.seconds));
        snprintf(values[11], 256, "%s", cr_report__count(n, (uint64_t)((double)r->notes.solved / r->run.seconds)));
    } else {
        snprintf(values[9], 256, "not recorded");
        snprintf(values[11], 256, "-");
    }
    snprintf(values[10], 256, "%s", cr_report__count(n, r->notes.solved));
}

/* The answer of one side: its value, winner and error. */
static void answer_cell(FILE *f, const cr_answer *a)
{
    char v[32];
    fputs("<td>", f);
    if (!a->given)
        fputs("<i>no result</i>", f);
    else if (a->has_value)
        fprintf(f, "<b>%s</b>", cr_report__int(v, a->value));
    if (a->given && a->winner[0]) {
        fputs(" (", f);
        cr_report__text(f, a->winner);
        fputs(")", f);
    }
    if (a->error[0]) {
        fputs(" error: ", f);
        cr_report__text(f, a->error);
    }
    fputs("</td>", f);
}

/* ---- the set ---- */

static void section_set(FILE *f, const cr_report_model *m)
{
    const cr_set_outline *s = &m->set;
    char a[32], b[32], line[160];
    fputs("<section id=\"set\">\n<h2>The set</h2>\n<dl class=\"facts\">\n", f);
    fact(f, "name", m->set_name);
    fact(f, "instances", cr_report__count(a, s->instances));
    if (s->instances) {
        snprintf(line, sizeof line, "%s to %s", cr_report__int(a, s->n_min), cr_report__int(b, s->n_max));
        fact(f, "n", line);
    }
    if (m->has_coins) {
        snprintf(line, sizeof line, "%s to %s", cr_report__int(a, m->coin_min), cr_report__int(b, m->coin_max));
        fact(f, "coin values", line);
    }
    fact(f, "source", s->source[0] ? s->source : "-");
    fact(f, "stored", s->created_at);
    fact(f, "rows rejected at ingest", cr_report__count(a, s->rejected));
    fputs("</dl>\n", f);
    if (m->n.count) {
        fputs("<figure id=\"n-histogram\"><figcaption>Instances by n</figcaption>\n", f);
        cr_report__histogram(f, &m->n, "n");
        fputs("</figure>\n", f);
    }
    fputs("<h3>Rows rejected at ingest</h3>\n", f);
    if (!s->rejected) {
        fputs("<p class=\"note\">None.</p>\n", f);
    } else {
        fprintf(f, "<p class=\"note\">The first %zu of %s (all in the table <code>ingest_error</code>).</p>\n",
                m->rejected_count, cr_report__count(a, s->rejected));
        fputs("<table id=\"rejected\"><tr><th>input</th><th class=\"num\">line</th><th>id</th><th>reason</th>"
              "<th>the row as read</th></tr>\n",
              f);
        for (size_t k = 0; k < m->rejected_count; k++) {
            const cr_rejected_row *r = &m->rejected[k];
            fputs("<tr>", f);
            cell_text(f, "td", r->source);
            num_cell(f, r->line);
            cell_text(f, "td", r->ext_id[0] ? r->ext_id : "-");
            cell_text(f, "td", r->reason);
            fputs("<td class=\"mono\">", f);
            cr_report__text(f, r->raw);
            fputs("</td></tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    fputs("</section>\n", f);
}

/* ---- the run ---- */

static const char *const winner_css[3] = {"w-first", "w-second", "w-draw"};
static const char *const winner_labels[3] = {"first player wins", "second player wins", "draw"};

static void variant_block(FILE *f, const cr_report_model *m, int v)
{
    const cr_variant_stats *s = &m->variants[v];
    const char *name = cr_variant_name((cr_variant)v);
    char a[32], b[32], c[32], pct[16];
    fprintf(f, "<div class=\"variant\" id=\"variant-%s\">\n<h3>%s</h3>\n", name, name);
    fprintf(f, "<p>%s results, %s with an error", cr_report__count(a, s->results), cr_report__count(b, s->errors));
    if (s->values.count)
        fprintf(f, "; values %s to %s", cr_report__int(a, s->values.min), cr_report__int(c, s->values.max));
    fputs(".</p>\n", f);
    if (s->values.count) {
        fprintf(f, "<figure><figcaption>Values of %s</figcaption>\n", name);
        char what[64];
        snprintf(what, sizeof what, "value (%s)", name);
        cr_report__histogram(f, &s->values, what);
        fputs("</figure>\n", f);
    }
    uint64_t decided = s->winners[0] + s->winners[1] + s->winners[2];
    if (decided) {
        fputs("<figure class=\"winners\"><figcaption>Who wins</figcaption>\n", f);
        cr_report__split(f, s->winners, winner_css, winner_labels, 3);
        fputs("<ul class=\"legend\">", f);
        for (int k = 0; k < 3; k++)
            fprintf(f, "<li><i class=\"%s\"></i>%s: %s (%s)</li>", winner_css[k], winner_labels[k],
                    cr_report__count(a, s->winners[k]), cr_report__percent(pct, s->winners[k], decided));
        fputs("</ul>\n</figure>\n", f);
    }
    if (m->error_count[v]) {
        fprintf(f,
                "<table class=\"errors\"><tr><th>instance</th><th class=\"num\">n</th><th>error (the first %zu)</th>"
                "</tr>\n",
                m->error_count[v]);
        for (size_t k = 0; k < m->error_count[v]; k++) {
            fputs("<tr>", f);
            cell_text(f, "td", m->errors[v][k].ext_id);
            num_cell(f, m->errors[v][k].n);
            cell_text(f, "td", m->errors[v][k].error);
            fputs("</tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    fputs("</div>\n", f);
}

static void runs_table(FILE *f, const cr_report_model *m)
{
    char a[32];
    fprintf(f, "<h3>Runs of the set</h3>\n<p class=\"note\">The latest %zu of %s.</p>\n", m->run_count,
            cr_report__count(a, m->runs_total));
    fputs("<table id=\"runs\"><tr>", f);
    for (int k = 0; k < RUN_FACTS; k++)
        if (k != 8 && k != 11)
            fprintf(f, "<th>%s</th>", run_fact_names[k]);
    fputs("</tr>\n", f);
    for (size_t r = 0; r < m->run_count; r++) {
        char values[RUN_FACTS][256];
        run_facts(values, &m->runs[r]);
        fputs("<tr>", f);
        for (int k = 0; k < RUN_FACTS; k++)
            if (k != 8 && k != 11)
                cell_text(f, "td", values[k]);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void section_run(FILE *f, const cr_report_model *m)
{
    fputs("<section id=\"run\">\n", f);
    if (!m->has_run) {
        fputs("<h2>The run</h2>\n<p class=\"note\">The set has no done run: solve it with <code>coinrow solve "
              "--set NAME</code>, or name a run with <code>--run ID</code>.</p>\n",
              f);
    } else {
        char values[RUN_FACTS][256];
        run_facts(values, &m->run);
        fprintf(f, "<h2>Run %" PRId64 "</h2>\n<dl class=\"facts\">\n", m->run.run.id);
        for (int k = 1; k < RUN_FACTS; k++)
            fact(f, run_fact_names[k], values[k]);
        fputs("</dl>\n<div class=\"variants\">\n", f);
        for (int v = 0; v < CR_VARIANT_COUNT; v++)
            if (m->run.run.opts.variants & CR_VARIANT_BIT(v))
                variant_block(f, m, v);
        fputs("</div>\n", f);
    }
    if (m->run_count)
        runs_table(f, m);
    fputs("</section>\n", f);
}

/* ---- the comparison ---- */

static void differences_table(FILE *f, const cr_report_model *m, const cr_answer_difference *d, size_t count,
                              const char *id, const char *what)
{
    fprintf(f,
            "<h3>%s</h3>\n<table id=\"%s\"><tr><th>instance</th><th class=\"num\">n</th><th>variant</th>"
            "<th>run %" PRId64 "</th><th>run %" PRId64 "</th></tr>\n",
            what, id, m->against.run.id, m->run.run.id);
    for (size_t k = 0; k < count; k++) {
        fputs("<tr>", f);
        cell_text(f, "td", d[k].ext_id);
        num_cell(f, d[k].n);
        fprintf(f, "<td>%s</td>", d[k].variant < CR_VARIANT_COUNT ? cr_variant_name(d[k].variant) : "all");
        answer_cell(f, &d[k].a);
        answer_cell(f, &d[k].b);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void section_comparison(FILE *f, const cr_report_model *m)
{
    fputs("<section id=\"comparison\">\n<h2>Comparison</h2>\n", f);
    if (!m->has_against) {
        fputs("<p class=\"note\">Nothing to compare: the set has no other done run before this one "
              "(<code>--against ID</code> names one).</p>\n</section>\n",
              f);
        return;
    }
    const cr_answers_comparison *c = &m->comparison;
    char values[2][RUN_FACTS][256];
    run_facts(values[0], &m->against);
    run_facts(values[1], &m->run);
    fprintf(f,
            "<p>Run %" PRId64 " against run %" PRId64 ", instance by instance: an answer is a variant's value, "
            "winner and error (<code>coinrow compare</code> also checks that lines that differ are both "
            "optimal).</p>\n<table id=\"sides\"><tr><th></th><th>run %" PRId64 "</th><th>run %" PRId64 "</th></tr>\n",
            m->run.run.id, m->against.run.id, m->against.run.id, m->run.run.id);
    for (int k = 1; k < RUN_FACTS; k++) {
        fprintf(f, "<tr><th>%s</th>", run_fact_names[k]);
        cell_text(f, "td", values[0][k]);
        cell_text(f, "td", values[1][k]);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    if (!c->variants) {
        fputs("<p class=\"note\">The two runs have no variant in common.</p>\n", f);
    } else {
        fputs("<table id=\"counts\"><tr><th>instances</th><th class=\"num\">count</th></tr>\n", f);
        fprintf(f, "<tr><td>solved by both</td>");
        num_cell(f, c->common);
        fprintf(f, "</tr>\n<tr><td class=\"same\">the same answers</td>");
        num_cell(f, c->common - c->differing);
        fprintf(f, "</tr>\n<tr><td class=\"different\">different answers</td>");
        num_cell(f, c->differing);
        fprintf(f, "</tr>\n<tr><td>missing: solved by run %" PRId64 " only</td>", m->against.run.id);
        num_cell(f, c->solved_a - c->common);
        fprintf(f, "</tr>\n<tr><td>missing: solved by run %" PRId64 " only</td>", m->run.run.id);
        num_cell(f, c->solved_b - c->common);
        fputs("</tr>\n", f);
        for (int v = 0; v < CR_VARIANT_COUNT; v++)
            if (c->variants & CR_VARIANT_BIT(v)) {
                fprintf(f, "<tr><td>of them, different in %s</td>", cr_variant_name((cr_variant)v));
                num_cell(f, c->differing_by[v]);
                fputs("</tr>\n", f);
            }
        fputs("</table>\n", f);
    }
    if (m->difference_count)
        differences_table(f, m, m->differences, m->difference_count, "differences",
                          "The first instances whose answers differ");
    if (m->missing_count)
        differences_table(f, m, m->missing, m->missing_count, "missing", "The first instances one run did not solve");
    /* runs keep the time of the whole run, not of each instance */
    char label_a[32], label_b[32];
    snprintf(label_a, sizeof label_a, "run %" PRId64, m->against.run.id);
    snprintf(label_b, sizeof label_b, "run %" PRId64, m->run.run.id);
    const char *labels[2] = {label_a, label_b};
    const double times[2] = {m->against.run.seconds, m->run.run.seconds};
    fputs("<figure id=\"run-times\"><figcaption>Wall time of each run. A run keeps its time as a whole, not per "
          "instance: the time by n is drawn for the invocations, whose verdicts keep each test's CPU "
          "time.</figcaption>\n",
          f);
    cr_report__bars(f, labels, times, 2);
    fprintf(f, "<p class=\"note\">Instances per second: %s for run %" PRId64 ", %s for run %" PRId64 ".</p>\n",
            values[0][11], m->against.run.id, values[1][11], m->run.run.id);
    fputs("</figure>\n</section>\n", f);
}

/* ---- the invocations ---- */

/* The column's name: its label, else the built-in's or the program's. */
static void column_name(FILE *f, const cr_invocation *inv)
{
    if (inv->label[0])
        cr_report__text(f, inv->label);
    else if (!inv->argv)
        cr_report__text(f, cr_strategy_name(inv->strategy));
    else
        cr_report__text(f, inv->argv[0]);
}

/* What ran: the command's words, or the built-in's option. */
static void column_command(FILE *f, const cr_invocation *inv)
{
    if (!inv->argv) {
        fputs("--builtin ", f);
        cr_report__text(f, cr_strategy_name(inv->strategy));
        return;
    }
    for (char *const *w = inv->argv; *w; w++) {
        if (w != inv->argv)
            fputc(' ', f);
        cr_report__text(f, *w);
    }
}

/* A group of tests: its verdicts as letters and counts, coloured by the
 * most frequent verdict that is not AC (AC when all are), and the slowest
 * CPU time. */
static void matrix_cell(FILE *f, const cr_verdict_cell *c)
{
    uint64_t all = 0;
    int worst = -1;
    for (int v = 0; v < CR_INVOKE_VERDICT_COUNT; v++) {
        all += c->counts[v];
        if (v != CR_INVOKE_AC && c->counts[v] && (worst < 0 || c->counts[v] > c->counts[worst]))
            worst = v;
    }
    if (!all) {
        fputs("<td class=\"cell v-none\">-</td>", f);
        return;
    }
    char t[32], n[32];
    fprintf(f, "<td class=\"cell %s\">", verdict_css[worst < 0 ? CR_INVOKE_AC : worst]);
    const char *sep = "";
    for (int v = 0; v < CR_INVOKE_VERDICT_COUNT; v++)
        if (c->counts[v]) {
            if (all == 1)
                fprintf(f, "<b>%s</b>", cr_invoke_verdict_name((cr_invoke_verdict)v));
            else
                fprintf(f, "%s<b>%s</b> %s", sep, cr_invoke_verdict_name((cr_invoke_verdict)v),
                        cr_report__count(n, c->counts[v]));
            sep = " ";
        }
    fprintf(f, "<small>%s%s</small></td>", all == 1 ? "" : "max ", cr_seconds_text(t, c->cpu_max));
}

static void matrix_foot(FILE *f, const cr_report_model *m)
{
    static const char *const rows[] = {"status", "verdicts", "slowest (CPU)", "largest memory", "first not AC"};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        fprintf(f, "<tr><td colspan=\"2\">%s</td>", rows[r]);
        for (size_t k = 0; k < m->column_count; k++) {
            const cr_report_column *col = &m->columns[k];
            const cr_invocation_summary *s = &col->summary;
            char a[32], t[32];
            fputs("<td>", f);
            if (r == 0) {
                fprintf(f, "%s, %s judged", cr_store_run_status_name(col->inv.status), cr_report__count(a, s->judged));
            } else if (r == 1) {
                for (int v = 0; v < CR_INVOKE_VERDICT_COUNT; v++)
                    if (s->counts[v])
                        fprintf(f, "<span class=\"%s\">%s&nbsp;%s</span> ", verdict_css[v],
                                cr_invoke_verdict_name((cr_invoke_verdict)v), cr_report__count(a, s->counts[v]));
            } else if (r == 2 && s->slowest_count) {
                fprintf(f, "%s (", cr_seconds_text(t, s->slowest[0].cpu_seconds));
                cr_report__text(f, s->slowest[0].ext_id);
                fputs(")", f);
            } else if (r == 3 && s->peak_rss_kib > s->rss_floor_kib) {
                fprintf(f, "%.1f MiB (", (double)s->peak_rss_kib / 1024);
                cr_report__text(f, s->peak_ext_id);
                fputs(")", f);
            } else if (r == 3 && s->peak_rss_kib >= 0) {
                fprintf(f, "at most %.1f MiB (coinrow's own size, which wait4 counts)",
                        (double)s->rss_floor_kib / 1024);
            } else if (r == 4 && s->has_failure) {
                cr_report__text(f, s->failure_ext_id);
                fprintf(f, ": %s: ", cr_invoke_verdict_name(s->failure_verdict));
                cr_report__text(f, s->failure_message);
                if (s->failure_stderr[0]) {
                    fputs("<br><span class=\"mono\">stderr: ", f);
                    cr_report__text(f, s->failure_stderr);
                    fputs("</span>", f);
                }
            } else {
                fputs("-", f);
            }
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
}

/* The matrix's head: a column per invocation, after the first cells. */
static void column_heads(FILE *f, const cr_report_model *m)
{
    for (size_t k = 0; k < m->column_count; k++) {
        const cr_invocation *inv = &m->columns[k].inv;
        fputs("<th class=\"inv\" title=\"", f);
        column_command(f, inv);
        fputs("\">", f);
        column_name(f, inv);
        fprintf(f, "<br><small>#%" PRId64 ", %s</small></th>", inv->id, cr_variant_name(inv->variant));
    }
}

/* A set with groups of tests: each invocation's points on each group and
 * in all, as Polygon's invocation matrix gives them. */
static void points_table(FILE *f, const cr_report_model *m)
{
    char a[32], b[32], tests_text[32];
    fputs("<h3>Points by group</h3>\n<p class=\"note\">A group scores its points when every test of it is AC and "
          "every group it depends on scores too (the view <code>invocation_group_points</code>).",
          f);
    if (m->test_groups_total > m->test_group_count)
        fprintf(f, " The first %zu of %zu groups.", m->test_group_count, m->test_groups_total);
    fputs("</p>\n<table class=\"matrix\" id=\"points\"><thead><tr><th>group</th><th class=\"num\">points</th>", f);
    column_heads(f, m);
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t g = 0; g < m->test_group_count; g++) {
        const cr_report_test_group *t = &m->test_groups[g];
        fputs("<tr><td>", f);
        cr_report__text(f, t->name);
        fprintf(f, " <small>(%s test%s", cr_report__int(a, t->tests), t->tests == 1 ? "" : "s");
        if (t->depends[0]) {
            fputs("; needs ", f);
            cr_report__text(f, t->depends);
        }
        fprintf(f, ")</small></td><td class=\"num\">%s</td>", cr_report__int(a, t->points));
        for (size_t k = 0; k < m->column_count; k++) {
            const cr_report_column *c = &m->columns[k];
            if (!c->judged[g]) {
                fputs("<td class=\"cell v-none\">-</td>", f);
                continue;
            }
            fprintf(f, "<td class=\"cell %s\"><b>%s</b><small>AC %s of %s%s</small></td>",
                    verdict_css[c->passed[g] ? CR_INVOKE_AC : CR_INVOKE_WA], cr_report__int(a, c->scored[g]),
                    cr_report__count(b, c->accepted[g]), cr_report__int(tests_text, t->tests),
                    c->passed[g] || c->accepted[g] < (uint64_t)t->tests ? "" : "; a group it needs fails");
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n<tfoot>\n<tr><td colspan=\"2\">points in all</td>", f);
    for (size_t k = 0; k < m->column_count; k++)
        fprintf(f, "<td><b>%s</b> of %s</td>", cr_report__int(a, m->columns[k].scored_total),
                cr_report__int(b, m->columns[k].points_total));
    fputs("</tr>\n</tfoot></table>\n", f);
}

static void matrix(FILE *f, const cr_report_model *m)
{
    char a[32], b[32];
    int folded = m->group_width > 1;
    fputs("<h3>Verdicts by test</h3>\n", f);
    if (folded)
        fprintf(f,
                "<p class=\"note\">%s tests, folded into at most %d rows of consecutive tests: each cell counts "
                "its verdicts, coloured by the most frequent one that is not AC, with the slowest CPU time.</p>\n",
                cr_report__count(a, m->set.instances), CR_REPORT_ROWS);
    fputs("<table class=\"matrix\" id=\"matrix\"><thead><tr><th>test</th><th class=\"num\">n</th>", f);
    column_heads(f, m);
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t g = 0; g < m->groups; g++) {
        const cr_test_fold *fold = &m->folds[g];
        if (!fold->tests)
            continue;
        fputs("<tr><td>", f);
        cr_report__text(f, fold->first);
        if (fold->tests > 1) {
            fputs(" &hellip; ", f);
            cr_report__text(f, fold->last);
            fprintf(f, " <small>(%s tests)</small>", cr_report__count(a, fold->tests));
        }
        if (fold->n_min == fold->n_max)
            fprintf(f, "</td><td class=\"num\">%s</td>", cr_report__int(a, fold->n_min));
        else
            fprintf(f, "</td><td class=\"num\">%s&ndash;%s</td>", cr_report__int(a, fold->n_min),
                    cr_report__int(b, fold->n_max));
        for (size_t k = 0; k < m->column_count; k++)
            matrix_cell(f, &m->columns[k].cells[g]);
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n<tfoot>\n", f);
    matrix_foot(f, m);
    fputs("</tfoot></table>\n", f);
}

static void times_chart(FILE *f, const cr_report_model *m)
{
    cr_report_series series[CR_REPORT_COLUMNS];
    static const char *const css[8] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"};
    if (!m->n.count)
        return;
    char labels[CR_REPORT_COLUMNS][300];
    for (size_t k = 0; k < m->column_count; k++) {
        const cr_report_column *c = &m->columns[k];
        cr_report_series *s = &series[k];
        memset(s, 0, sizeof *s);
        snprintf(labels[k], sizeof labels[k], "#%" PRId64 " %s", c->inv.id,
                 c->inv.label[0] ? c->inv.label
                 : c->inv.argv   ? c->inv.argv[0]
                                 : cr_strategy_name(c->inv.strategy));
        s->label = labels[k];
        s->css = css[k % 8];
        for (int b = 0; b < m->n.bins; b++)
            if ((s->has[b] = c->times.count[b] > 0))
                s->y[b] = c->times.cpu_sum[b] / (double)c->times.count[b];
    }
    fputs("<figure id=\"times-by-n\"><figcaption>Mean CPU time per test, by n</figcaption>\n", f);
    cr_report__lines(f, &m->n, series, m->column_count);
    fputs("<ul class=\"legend\">", f);
    for (size_t k = 0; k < m->column_count; k++) {
        fprintf(f, "<li><i class=\"%s\"></i>", css[k % 8]);
        cr_report__text(f, labels[k]);
        fputs("</li>", f);
    }
    fputs("</ul>\n</figure>\n", f);
}

static void strength(FILE *f, const cr_report_model *m)
{
    char a[32], b[32], pct[16];
    fputs("<h3 id=\"strength\">Strength of the tests against the built-in strategies</h3>\n", f);
    if (!m->builtin_count) {
        fputs("<p class=\"note\">No built-in strategy has been judged on this set: <code>coinrow invoke --builtin "
              "NAME</code> stores one (<code>coinrow strength</code> prints them all and stores nothing).</p>\n",
              f);
        return;
    }
    const cr_invocation *first = &m->columns[m->builtins[0]].inv;
    fprintf(f,
            "<p class=\"note\">The latest done invocation of each built-in strategy, variant %s: a strong set "
            "breaks every one.</p>\n",
            cr_variant_name(first->variant));
    fputs("<table id=\"builtins\"><tr><th>strategy</th><th>invocation</th><th class=\"num\">broken by</th>"
          "<th>the first test that breaks it</th></tr>\n",
          f);
    uint64_t tests = 0;
    for (size_t k = 0; k < m->builtin_count; k++) {
        const cr_report_column *c = &m->columns[m->builtins[k]];
        const cr_invocation_summary *s = &c->summary;
        uint64_t broken = s->judged - s->counts[CR_INVOKE_AC];
        tests = s->judged > tests ? s->judged : tests;
        fprintf(f, "<tr><td>%s</td><td>#%" PRId64 "</td><td class=\"num\">%s of %s (%s)</td><td>",
                cr_strategy_name(c->inv.strategy), c->inv.id, cr_report__count(a, broken),
                cr_report__count(b, s->judged), cr_report__percent(pct, broken, s->judged));
        if (s->has_failure) {
            cr_report__text(f, s->failure_ext_id);
            fprintf(f, ": <span class=\"%s\">%s</span>: ", verdict_css[s->failure_verdict],
                    cr_invoke_verdict_name(s->failure_verdict));
            cr_report__text(f, s->failure_message);
        } else {
            fputs("none: it survives every test", f);
        }
        fputs("</td></tr>\n", f);
    }
    fprintf(f, "</table>\n<p>Weak tests (every strategy above gets them right): <b>%s</b> of %s.</p>\n",
            cr_report__count(a, m->weak), cr_report__count(b, tests));
}

static void section_invocations(FILE *f, const cr_report_model *m)
{
    char a[32];
    fputs("<section id=\"invocations\">\n<h2>Invocations</h2>\n", f);
    if (!m->column_count) {
        fputs("<p class=\"note\">No program has been judged on this set: <code>coinrow invoke</code>.</p>\n", f);
    } else {
        fprintf(f, "<p class=\"note\">The latest %zu of %s invocations of the set, oldest first: a column each.</p>\n",
                m->column_count, cr_report__count(a, m->invocations_total));
        if (m->test_group_count)
            points_table(f, m);
        if (m->groups)
            matrix(f, m);
        times_chart(f, m);
    }
    strength(f, m);
    fputs("</section>\n", f);
}

void cr_report__page(FILE *f, const cr_report_model *m)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n", f);
    fputs(head_meta, f);
    fputs("<title>coinrow report: ", f);
    cr_report__text(f, m->set_name);
    fprintf(f, "</title>\n%s</head>\n<body>\n<header>\n<h1>coinrow report: set <q>", style);
    cr_report__text(f, m->set_name);
    fputs("</q></h1>\n<p class=\"meta\">", f);
    cr_report__text(f, m->opts->db_shown);
    fputs(", written ", f);
    cr_report__text(f, m->written_at);
    fputs(" by coinrow ", f);
    cr_report__text(f, m->opts->version);
    fputs("</p>\n<nav><a href=\"#set\">Set</a><a href=\"#run\">Run</a><a href=\"#comparison\">Comparison</a>"
          "<a href=\"#invocations\">Invocations</a></nav>\n</header>\n<main>\n",
          f);
    section_set(f, m);
    section_run(f, m);
    section_comparison(f, m);
    section_invocations(f, m);
    fputs("</main>\n<footer>Every figure on this page is an aggregate SQLite computed over the database's views "
          "(<code>result</code>, <code>result_view</code>, <code>verdict_view</code>); query them for anything "
          "more.</footer>\n</body>\n</html>\n",
          f);
}
