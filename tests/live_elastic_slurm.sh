#!/bin/sh
# live_elastic_slurm.sh: tests/live_elastic.sh with --executor slurm on a
# private Slurm (elastic-dp, autoscale and sia side by side, two 4-GPU t4
# nodes each); see there. ~65 s.
: "${SRCDIR:=.}"
LIVE_ELASTIC_MODE=slurm exec sh "$SRCDIR/tests/live_elastic.sh"
