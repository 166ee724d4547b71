/* main.c: the mlsched binary — one table of subcommands (see cmd.h). */
#include "cli/cmd.h"

#include "config.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

extern const cmd_entry_t cmd_simulate_entry;
extern const cmd_entry_t cmd_trace_entry;
extern const cmd_entry_t cmd_policies_entry;
extern const cmd_entry_t cmd_compare_entry;
extern const cmd_entry_t cmd_sweep_entry;
extern const cmd_entry_t cmd_merge_entry;
extern const cmd_entry_t cmd_report_entry;
extern const cmd_entry_t cmd_plot_entry;
extern const cmd_entry_t cmd_regress_entry;
extern const cmd_entry_t cmd_model_entry;
extern const cmd_entry_t cmd_profile_entry;
extern const cmd_entry_t cmd_live_entry;

static const cmd_entry_t *const commands[] = {
    &cmd_simulate_entry,
    &cmd_compare_entry,
    &cmd_sweep_entry,
    &cmd_report_entry,
    &cmd_merge_entry,
    &cmd_plot_entry,
    &cmd_regress_entry,
    &cmd_model_entry,
    &cmd_trace_entry,
    &cmd_policies_entry,
    &cmd_profile_entry,
    &cmd_live_entry,
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: mlsched <command> [options]\n"
                 "       mlsched <command> --help\n\n"
                 "Deep-learning cluster scheduling: simulate policies on job traces.\n\n"
                 "commands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
}

int main(int argc, char **argv)
{
    /* GSL's default handler aborts; every call site checks status codes. */
    gsl_set_error_handler_off();
    if (argc < 2) {
        usage(stderr);
        return MLS_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        usage(stdout);
        return MLS_EXIT_OK;
    }
    if (!strcmp(name, "--version")) {
        printf("mlsched %s\n", PACKAGE_VERSION);
        return MLS_EXIT_OK;
    }
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(commands[i]->name, name))
            return commands[i]->exec(argc - 1, argv + 1);
    fprintf(stderr, "mlsched: unknown command '%s' (see mlsched --help)\n", name);
    return MLS_EXIT_USAGE;
}
