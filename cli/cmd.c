/* cmd.c: what every subcommand's command line shares — the one way a usage
 * error is said: "mlsched WHO: MESSAGE (see mlsched WHO --help)" on stderr,
 * exit status 2 — and the dispatch of commands that have verbs. */
#include "cli/cmd.h"

#include <string.h>

int cmd_usage_error(const char *who, const char *fmt, const char *arg)
{
    fprintf(stderr, "mlsched %s: ", who);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see mlsched %s --help)\n", who);
    return MLS_EXIT_USAGE;
}

int cmd_verb_usage_error(const char *cmd, const char *verb, const char *msg, const char *arg)
{
    fprintf(stderr, "mlsched %s %s: %s%s%s (see mlsched %s %s --help)\n", cmd, verb, msg,
            arg ? " " : "", arg ? arg : "", cmd, verb);
    return MLS_EXIT_USAGE;
}

void cmd_list_verbs(FILE *out, const cmd_verb_t *verbs, size_t n, int width)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "  %-*s %s\n", width, verbs[i].name, verbs[i].summary);
}

int cmd_run_verb(const char *cmd, const cmd_verb_t *verbs, size_t n, void (*help)(FILE *),
                 int argc, char **argv)
{
    if (argc < 2) {
        help(stderr);
        return MLS_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        help(stdout);
        return MLS_EXIT_OK;
    }
    for (size_t i = 0; i < n; i++)
        if (!strcmp(argv[1], verbs[i].name))
            return verbs[i].exec(argc - 1, argv + 1);
    fprintf(stderr, "mlsched %s: unknown verb '%s' (see mlsched %s --help)\n", cmd, argv[1], cmd);
    return MLS_EXIT_USAGE;
}
