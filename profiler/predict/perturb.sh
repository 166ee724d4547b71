#!/bin/bash
# perturb.sh DIR JOBS POLICY ROUND: is a prediction trace a coin toss?
#
# Simulates the trace a .jobs file describes (profiler/predict/*.jobs, sized at
# the rates of DIR's curves, builtin-*.csv, by make-trace.sh as gpu-predict.sh
# sizes it) under
# POLICY and --round ROUND with DIR's start costs (overheads.json, written by
# compare.sh), then again with every job's work 5 % smaller or larger and every
# start cost halved or 1.5 times: nine runs, one line each, every job's JCT and
# preemptions. PAIRS=FILE (a pair-rates file, e.g. DIR/pairs-small.csv) is
# fitted into the catalog too, for a packing policy. A trace whose JCTs move in
# proportion tests the simulator's
# model; one where a job jumps (an extra preemption, another order) tests the
# tie-breaking of its decisions, which live jitter decides, e.g.
#   profiler/predict/perturb.sh profiler/predict/runs/2026-11-27-a profiler/predict/mixed.jobs las 10
#   profiler/predict/perturb.sh profiler/predict/runs/2026-11-27-a profiler/predict/slice.jobs las 0
#   PAIRS=profiler/predict/runs/2026-11-27-d/pairs-small.csv profiler/predict/perturb.sh \
#       profiler/predict/runs/2026-11-27-d profiler/predict/packsmall.jobs max-min-fairness-packed 10
# Runs anywhere (no GPU; needs sqlite3).
set -u
[ $# -eq 4 ] || {
    echo "usage: perturb.sh DIR JOBS POLICY ROUND" >&2
    exit 2
}
D=$1 JOBS=$2 POL=$3 ROUND=$4
B=${MLSCHED:-./mlsched}
PAIRS=${PAIRS:-}
for f in "$D/builtin-transformer.csv" "$D/builtin-resnet18.csv" "$D/overheads.json" "$JOBS" ${PAIRS:+"$PAIRS"}; do
    [ -s "$f" ] || {
        echo "perturb.sh: $f is missing (DIR: a gpu-predict.sh run that compare.sh has read)" >&2
        exit 1
    }
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$B" profile fit -q -o "$T/cat.json" "$D/builtin-transformer.csv" "$D/builtin-resnet18.csv" \
    ${PAIRS:+"$PAIRS"} || exit 1
echo "work  cost  JCT/preemptions of each job"
for scale in 0.95 1.0 1.05; do
    for cost in 0.5 1.0 1.5; do
        bash "$(dirname "$0")/make-trace.sh" "$JOBS" "$D/builtin-transformer.csv" \
            "$D/builtin-resnet18.csv" "$scale" >"$T/t.csv" || exit 1
        python3 - "$D/overheads.json" "$cost" >"$T/o.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
for w in d.get("workloads", {}).values():
    for k in w:
        w[k] *= float(sys.argv[2])
json.dump(d, sys.stdout)
PY
        "$B" simulate --trace "$T/t.csv" --cluster h100=1x1 --throughputs "$T/cat.json" \
            --policy "$POL" --round "$ROUND" --overheads "$T/o.json" -q --db "$T/s.db" \
            >/dev/null || exit 1
        echo "$scale  $cost   $(sqlite3 "$T/s.db" \
            "SELECT printf('%.1f/%d', jct, preemptions) FROM jobs ORDER BY job_id" | tr '\n' ' ')"
        rm -f "$T"/s.db*
    done
done
