/* cmd-profile.c: placeholder until the module lands. */
#include "cmd.h"

#include <stdio.h>

static int exec_profile(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mlsched profile: not built yet\n");
    return MLS_EXIT_FAIL;
}

const cmd_entry_t cmd_profile_entry = {"profile", "(not built yet)", exec_profile};
