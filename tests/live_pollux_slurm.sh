#!/bin/sh
# live_pollux_slurm.sh: tests/live_pollux.sh with --executor slurm on a
# private Slurm (two 4-GPU t4 nodes); see there. ~80 s.
: "${SRCDIR:=.}"
LIVE_POLLUX_MODE=slurm exec sh "$SRCDIR/tests/live_pollux.sh"
