/* cmd-policies.c: placeholder until the module lands. */
#include "cmd.h"

#include <stdio.h>

static int exec_policies(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mlsched policies: not built yet\n");
    return MLS_EXIT_FAIL;
}

const cmd_entry_t cmd_policies_entry = {"policies", "(not built yet)", exec_policies};
