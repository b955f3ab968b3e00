/* The page's charts (model.h, "SVG charts"), drawn as inline SVG from the
 * aggregates the store computed: a bar per bin, never a mark per instance.
 * Sizes are in the viewBox's units; the page's CSS scales the chart to the
 * column and gives it its colours. */
#include <stdio.h>

#include "report/model.h"
#include "util/util.h"

/* The plot area inside a chart of CHART_W x CHART_H. */
enum { CHART_W = 640, CHART_H = 210, LEFT = 64, RIGHT = 630, TOP = 12, BOTTOM = 170 };

static void open_chart(FILE *f, int height, const char *label)
{
    fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", CHART_W, height);
    cr_report__text(f, label);
    fputs("\">\n", f);
}

/* The axes, a grid line at the top and the middle, and the y labels. */
static void axes(FILE *f, const char *y_top, const char *y_middle, const char *what)
{
    fprintf(f, "<path class=\"grid\" d=\"M%d %dH%dM%d %dH%d\"/>\n", LEFT, TOP, RIGHT, LEFT, (TOP + BOTTOM) / 2, RIGHT);
    fprintf(f, "<path class=\"axis\" d=\"M%d %dV%dH%d\"/>\n", LEFT, TOP, BOTTOM, RIGHT);
    fprintf(f, "<text class=\"y\" x=\"%d\" y=\"%d\">%s</text>\n", LEFT - 6, TOP + 4, y_top);
    fprintf(f, "<text class=\"y\" x=\"%d\" y=\"%d\">%s</text>\n", LEFT - 6, (TOP + BOTTOM) / 2 + 4, y_middle);
    fprintf(f, "<text class=\"y\" x=\"%d\" y=\"%d\">0</text>\n", LEFT - 6, BOTTOM + 4);
    fprintf(f, "<text class=\"what\" x=\"%d\" y=\"%d\">", (LEFT + RIGHT) / 2, CHART_H - 4);
    cr_report__text(f, what);
    fputs("</text>\n", f);
}

/* The x labels: the first bin's start, the middle one's and the last one's end. */
static void x_labels(FILE *f, const cr_histogram *h, double bar)
{
    char a[32], b[32], c[32];
    int mid = h->bins / 2;
    fprintf(f, "<text class=\"x start\" x=\"%d\" y=\"%d\">%s</text>\n", LEFT, BOTTOM + 16,
            cr_report__int(a, h->from[0]));
    if (h->bins > 2)
        fprintf(f, "<text class=\"x\" x=\"%.1f\" y=\"%d\">%s</text>\n", LEFT + bar * (mid + 0.5), BOTTOM + 16,
                cr_report__int(b, h->from[mid]));
    fprintf(f, "<text class=\"x end\" x=\"%d\" y=\"%d\">%s</text>\n", RIGHT, BOTTOM + 16,
            cr_report__int(c, h->to[h->bins - 1]));
}

void cr_report__histogram(FILE *f, const cr_histogram *h, const char *what)
{
    uint64_t top = 1;
    for (int k = 0; k < h->bins; k++)
        if (h->counts[k] > top)
            top = h->counts[k];
    char y_top[32], y_mid[32];
    open_chart(f, CHART_H, what);
    axes(f, cr_report__count(y_top, top), cr_report__count(y_mid, top / 2), what);
    double bar = (double)(RIGHT - LEFT) / (h->bins ? h->bins : 1), scale = (double)(BOTTOM - TOP) / (double)top;
    for (int k = 0; k < h->bins; k++) {
        double height = (double)h->counts[k] * scale;
        char from[32], to[32], count[32];
        fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>",
                LEFT + bar * k + 0.5, BOTTOM - height, bar > 2 ? bar - 1 : bar, height);
        cr_report__int(from, h->from[k]);
        cr_report__int(to, h->to[k]);
        if (h->from[k] == h->to[k])
            fprintf(f, "%s: %s</title></rect>\n", from, cr_report__count(count, h->counts[k]));
        else
            fprintf(f, "%s to %s: %s</title></rect>\n", from, to, cr_report__count(count, h->counts[k]));
    }
    if (h->bins)
        x_labels(f, h, bar);
    fputs("</svg>\n", f);
}

void cr_report__split(FILE *f, const uint64_t *counts, const char *const *classes, const char *const *labels, int count)
{
    uint64_t all = 0;
    for (int k = 0; k < count; k++)
        all += counts[k];
    open_chart(f, 24, "split");
    double x = 0;
    for (int k = 0; k < count && all; k++) {
        double width = (double)CHART_W * (double)counts[k] / (double)all;
        char n[32], pct[16];
        if (counts[k]) {
            fprintf(f,
                    "<rect class=\"%s\" x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"24\"><title>%s: %s "
                    "(%s)</title></rect>\n",
                    classes[k], x, width, labels[k], cr_report__count(n, counts[k]),
                    cr_report__percent(pct, counts[k], all));
        }
        x += width;
    }
    fputs("</svg>\n", f);
}

void cr_report__lines(FILE *f, const cr_histogram *h, const cr_report_series *series, size_t count)
{
    double top = 0;
    for (size_t s = 0; s < count; s++)
        for (int k = 0; k < h->bins; k++)
            if (series[s].has[k] && series[s].y[k] > top)
                top = series[s].y[k];
    if (!(top > 0))
        top = 1e-6;
    char y_top[32], y_mid[32];
    open_chart(f, CHART_H, "mean CPU time by n");
    axes(f, cr_seconds_text(y_top, top), cr_seconds_text(y_mid, top / 2), "n");
    double bar = (double)(RIGHT - LEFT) / (h->bins ? h->bins : 1), scale = (BOTTOM - TOP) / top;
    for (size_t s = 0; s < count; s++) {
        const cr_report_series *r = &series[s];
        fprintf(f, "<g class=\"%s\"><title>", r->css);
        cr_report__text(f, r->label);
        fputs("</title>\n<polyline points=\"", f);
        for (int k = 0; k < h->bins; k++)
            if (r->has[k])
                fprintf(f, "%.1f,%.1f ", LEFT + bar * (k + 0.5), BOTTOM - r->y[k] * scale);
        fputs("\"/>\n", f);
        for (int k = 0; k < h->bins; k++) {
            if (!r->has[k])
                continue;
            char t[32], from[32], to[32];
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>", LEFT + bar * (k + 0.5),
                    BOTTOM - r->y[k] * scale);
            cr_report__text(f, r->label);
            fprintf(f, ", n %s to %s: %s</title></circle>\n", cr_report__int(from, h->from[k]),
                    cr_report__int(to, h->to[k]), cr_seconds_text(t, r->y[k]));
        }
        fputs("</g>\n", f);
    }
    if (h->bins)
        x_labels(f, h, bar);
    fputs("</svg>\n", f);
}

void cr_report__bars(FILE *f, const char *const *labels, const double *seconds, int count)
{
    double top = 0;
    for (int k = 0; k < count; k++)
        if (seconds[k] > top)
            top = seconds[k];
    open_chart(f, 28 * count + 4, "time");
    for (int k = 0; k < count; k++) {
        char t[32];
        double width = top > 0 ? (RIGHT - 160) * seconds[k] / top : 0;
        fprintf(f, "<text class=\"y\" x=\"%d\" y=\"%d\">", LEFT + 36, 28 * k + 18);
        cr_report__text(f, labels[k]);
        fprintf(f, "</text>\n<rect class=\"bar s%d\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"20\"/>\n", k, LEFT + 44,
                28 * k + 4, width);
        fprintf(f, "<text class=\"x start\" x=\"%.1f\" y=\"%d\">%s</text>\n", LEFT + 50 + width, 28 * k + 18,
                cr_seconds_text(t, seconds[k]));
    }
    fputs("</svg>\n", f);
}
