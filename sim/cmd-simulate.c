/* cmd-simulate.c: placeholder until the module lands. */
#include "cmd.h"

#include <stdio.h>

static int exec_simulate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mlsched simulate: not built yet\n");
    return MLS_EXIT_FAIL;
}

const cmd_entry_t cmd_simulate_entry = {"simulate", "(not built yet)", exec_simulate};
