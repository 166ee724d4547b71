/* cmd.h: one subcommand of the mlsched binary.
 *
 * As git's builtins and tmux's cmd-*.c: each subcommand is one file
 * (sim/cmd-NAME.c) exporting one `const cmd_entry_t cmd_NAME_entry`, and
 * sim/main.c lists them all in one table. exec() gets argv with argv[0] the
 * subcommand's name and returns the process exit status:
 *   0 success, 1 a failure of the run (bad input, a rejected plan, I/O),
 *   2 a usage error (unknown flag, missing argument). */
#ifndef MLS_CMD_H
#define MLS_CMD_H

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

#endif
