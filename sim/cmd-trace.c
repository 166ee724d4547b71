/* cmd-trace.c: placeholder until the module lands. */
#include "cmd.h"

#include <stdio.h>

static int exec_trace(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mlsched trace: not built yet\n");
    return MLS_EXIT_FAIL;
}

const cmd_entry_t cmd_trace_entry = {"trace", "(not built yet)", exec_trace};
