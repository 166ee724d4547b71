#!/bin/sh
# live_exec_slurm.sh: the Python las (examples/policies/las.py, an exec:
# policy) runs live on Slurm (issue 20): a private Slurm with 4 fake GPUs
# (scripts/slurm/start; the Slurm tests take turns, tests/slurm_serial.sh),
# the 4 fake jobs of trace4.csv at time scale 40 with --restart-overhead 60
# (a start through Slurm costs ~0.2-1.5 wall s), as live_slurm.sh runs the
# C las. Each job's JCT is compared with `mlsched simulate` of the C las with
# the same overhead: the mean per-job difference must stay under 10 %, as
# for the C las on Slurm (not asserted in a sanitizer build); every job
# finishes exactly once, preemptions go through Slurm (checkpoint exit 143)
# and restarts release the job's held Slurm job. ~60 s.
# Skips (77) when Slurm, python3 or sqlite3 is not installed, we are not
# root, or Slurm cannot start.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/slurm_serial.sh"
slurm_test_require sqlite3 python3
. "$SRCDIR/tests/live_lib.sh"
live_sanitizer_skip "the exec policy runs live under the sanitizers in live_exec.sh, the Slurm executor in live_slurm.sh"
test_init lxslurm
MLS_SLURM_GPUS=4 slurm_test_start "$tmp/slurm"
node=$(sinfo -h -N -o %N | head -n 1)
trace="$SRCDIR/tests/fixtures/live/trace4.csv"
tp="$SRCDIR/traces/catalog/default-throughputs.json"
# LIVE_EXEC_POLICY=las runs the C las the same way, for reference
pol=${LIVE_EXEC_POLICY:-"exec:python3 $SRCDIR/examples/policies/las.py"}
live_run live "$trace" "$tp" --cluster v100=1x4 --throughputs "$tp" --policy "$pol" \
    --executor slurm --slurm-nodes "$node" --time-scale 40 --restart-overhead 60 -q
"$MLSCHED" simulate --trace "$trace" --cluster v100=1x4 --throughputs "$tp" --policy las \
    --restart-overhead 60 -q --db "$tmp/sim.db" >/dev/null || bad "simulate las failed"
q() { sqlite3 "$tmp/live.db" "$1"; }
want=$(grep -c '^[0-9]' "$trace")
n=$(q "SELECT count(*) FROM jobs WHERE state = 'done' AND completions = 1")
[ "$n" = "$want" ] || bad "$n of $want jobs done exactly once: $(q 'SELECT id, state, exit_code FROM jobs')"
n=$(q "SELECT count(*) FROM jobs WHERE ext_id = '' OR ext_id IS NULL")
[ "$n" = 0 ] || bad "$n jobs without a Slurm job id"
n=$(q "SELECT count(*) FROM events WHERE event = 'stop' AND detail LIKE 'exit 143%'")
[ "$n" -gt 0 ] || bad "no job was preempted through Slurm (checkpoint exit 143)"
n=$(q "SELECT count(*) FROM events WHERE event = 'exec' AND detail LIKE '%released'")
[ "$n" -gt 0 ] || [ "${MLSCHED_SLURM_RESUME:-}" = sbatch ] ||
    bad "no job was restarted by releasing its held Slurm job"
echo "$(q "SELECT count(*) FROM decisions") decisions by $pol, $(q "SELECT count(*) FROM events
    WHERE event = 'stop'") preemptions"
if slurm_accuracy_asserted; then
    live_jct_compare "Python las live on Slurm vs C las simulated" "$tmp/live.db" "$tmp/sim.db" 10
else
    live_jct_compare "Python las live on Slurm vs C las simulated (not asserted: sanitizer build)" \
        "$tmp/live.db" "$tmp/sim.db" 1000
fi
[ $fail -eq 0 ] || { echo "daemon log:"; cat "$tmp/live.log"; exit 1; }
echo "live_exec_slurm: ok"
