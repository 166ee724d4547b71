#!/bin/sh
# live_elastic_slurm.sh: tests/live_elastic.sh with --executor slurm on a
# private Slurm, in two passes, each its own Slurm (see there): elastic-dp,
# autoscale and sia side by side on tests/fixtures/live/trace-elastic.csv
# (two 4-GPU t4 nodes each; ~65 s), then elastic-fixed-batch and shockwave on
# tests/fixtures/live/trace-elastic-short.csv (3 jobs, 520 and 544 s of
# trace time: 21-22 wall s; ~30 s in all). Not the five side by side: with
# five daemons, ten slurmds and their fake jobs on a 2-core machine at load
# 10-12, Slurm starts slowed enough that autoscale's decisions went otherwise
# in 3 runs of 3 (a job 30 % early, 7.7-10.3 %). LIVE_ELASTIC_POLICIES
# replaces the first pass's list, LIVE_ELASTIC_POLICIES2 the second's (empty:
# no second pass). Fails when either pass fails; skips (77) when the first does.
: "${SRCDIR:=.}"
LIVE_ELASTIC_MODE=slurm sh "$SRCDIR/tests/live_elastic.sh"
rc=$?
[ $rc = 77 ] && exit 77
pass2=${LIVE_ELASTIC_POLICIES2-"elastic-fixed-batch shockwave"}
[ -z "$pass2" ] && exit $rc
LIVE_ELASTIC_MODE=slurm LIVE_ELASTIC_POLICIES="$pass2" \
    LIVE_ELASTIC_TRACE="$SRCDIR/tests/fixtures/live/trace-elastic-short.csv" \
    sh "$SRCDIR/tests/live_elastic.sh"
rc2=$?
[ $rc = 0 ] && [ $rc2 = 77 ] && exit 77
[ $rc = 0 ] && [ $rc2 = 0 ]
