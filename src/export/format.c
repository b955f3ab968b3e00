/* The formats export writes, as a table of their descriptors (format.h):
 * the one place that lists them.  A new format is a file of its own with
 * its descriptor, and a row here. */
#include "export/format.h"

#include <stdio.h>

#include "util/util.h"

static const cr_export_format *const formats[] = {
    &cr_export__kattis,
    &cr_export__polygon,
    &cr_export__cms,
    &cr_export__plain,
};

#define FORMAT_COUNT (sizeof formats / sizeof formats[0])

const cr_export_format *cr_export_format_at(size_t k)
{
    return k < FORMAT_COUNT ? formats[k] : NULL;
}

int cr_export_format_parse(const cr_export_format **out, const char *name, cr_error *err)
{
    const char *names[FORMAT_COUNT];
    for (size_t k = 0; k < FORMAT_COUNT; k++)
        names[k] = formats[k]->name;
    int k, rc = cr_name_parse(&k, names, (int)FORMAT_COUNT, "format", name, err);
    if (rc == 0)
        *out = formats[k];
    return rc;
}

const char *cr_export_format_name(const cr_export_format *format)
{
    return format->name;
}

const char *cr_export_format_summary(const cr_export_format *format)
{
    return format->summary;
}

int cr_export_format_supports(const cr_export_format *format, unsigned features)
{
    return (format->supports & features) == features;
}

void cr_export__formats_with(char *out, size_t cap, unsigned feature)
{
    size_t len = 0, count = 0, seen = 0;
    for (size_t k = 0; k < FORMAT_COUNT; k++)
        count += (size_t)cr_export_format_supports(formats[k], feature);
    out[0] = '\0';
    for (size_t k = 0; k < FORMAT_COUNT && len < cap; k++) {
        if (!cr_export_format_supports(formats[k], feature))
            continue;
        seen++;
        int wrote = snprintf(out + len, cap - len, "%s%s", seen == 1 ? "" : seen == count ? " or " : ", ",
                             formats[k]->name);
        len += wrote > 0 ? (size_t)wrote : 0;
    }
}
