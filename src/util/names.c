/* Names of enumerations read from text: one table-driven parser for the
 * layers above the core (the core has its own, for its own names). */
#include "util/util.h"

#include <string.h>

int cr_name_parse(int *out, const char *const names[], int count, const char *what, const char *text,
                  cr_error *err)
{
    for (int k = 0; text && k < count; k++)
        if (strcmp(text, names[k]) == 0) {
            *out = k;
            return 0;
        }
    /* "(a, b or c)", from the table itself */
    char choices[256];
    size_t len = 0;
    choices[0] = '\0';
    for (int k = 0; k < count && len < sizeof choices; k++)
        len += (size_t)snprintf(choices + len, sizeof choices - len, "%s%s", k == 0 ? "" : k + 1 < count ? ", " : " or ",
                                names[k]);
    return cr_errorf(err, CR_EINVAL, "unknown %s '%s' (%s)", what, text ? text : "", choices);
}
