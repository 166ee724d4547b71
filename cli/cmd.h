/* cmd.h: one subcommand of the mlsched binary.
 *
 * As git's builtins and tmux's cmd-*.c: each subcommand is one file
 * (cli/cmd-NAME.c) exporting one `const cmd_entry_t cmd_NAME_entry`, and
 * cli/main.c lists them all in one table. exec() gets argv with argv[0] the
 * subcommand's name and returns the process exit status. A subcommand (or
 * verb) declares its options in a table and parses them with opt_parse()
 * (cli/opts.h), which also generates its --help. exec() returns:
 *   0 success, 1 a failure of the run (bad input, a rejected plan, I/O),
 *   2 a usage error (unknown flag, missing argument). */
#ifndef MLS_CMD_H
#define MLS_CMD_H

#include <stddef.h>
#include <stdio.h>

typedef struct cmd_entry {
    const char *name;
    const char *summary; /* one line for `mlsched --help` */
    int (*exec)(int argc, char **argv);
} cmd_entry_t;

enum { MLS_EXIT_OK = 0, MLS_EXIT_FAIL = 1, MLS_EXIT_USAGE = 2 };

/* Prints "mlsched WHO: " fmt (with one string argument) " (see mlsched WHO
 * --help)" to stderr; returns MLS_EXIT_USAGE. */
int cmd_usage_error(const char *who, const char *fmt, const char *arg)
    __attribute__((format(printf, 2, 0)));

/* A verb of a command with verbs (`mlsched trace generate`): exec gets argv
 * with argv[0] the verb. */
typedef struct cmd_verb {
    const char *name, *summary;
    int (*exec)(int argc, char **argv);
} cmd_verb_t;

/* Runs the verb argv[1] of command `cmd`: no verb prints help to stderr (exit
 * 2), -h/--help prints it to stdout (exit 0), an unknown verb is a usage error
 * "mlsched CMD: unknown verb 'V' (see mlsched CMD --help)". */
int cmd_run_verb(const char *cmd, const cmd_verb_t *verbs, size_t n, void (*help)(FILE *),
                 int argc, char **argv);
/* "  NAME  summary" per verb, names padded to `width`. */
void cmd_list_verbs(FILE *out, const cmd_verb_t *verbs, size_t n, int width);
/* "mlsched CMD VERB: MSG[ ARG] (see mlsched CMD VERB --help)"; MLS_EXIT_USAGE. */
int cmd_verb_usage_error(const char *cmd, const char *verb, const char *msg, const char *arg);

#endif
