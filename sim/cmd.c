/* cmd.c: what every subcommand's command line shares — the one way a usage
 * error is said: "mlsched WHO: MESSAGE (see mlsched WHO --help)" on stderr,
 * exit status 2. */
#include "cmd.h"

#include <stdio.h>

int cmd_usage_error(const char *who, const char *fmt, const char *arg)
{
    fprintf(stderr, "mlsched %s: ", who);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see mlsched %s --help)\n", who);
    return MLS_EXIT_USAGE;
}
