/* exec_slurm.c: the Slurm executor (not built out yet: see README, Live). */
#include "executor.h"

int live_exec_slurm(live_exec_t *x, const char *partition, mls_err_t *err)
{
    (void)x;
    (void)partition;
    return mls_fail(err, "--executor slurm: not implemented yet");
}
