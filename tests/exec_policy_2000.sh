#!/bin/sh
# exec_policy_2000.sh: the Python fifo and las (examples/policies/) give
# per-job results byte-identical to the C fifo and las on a generated
# 2,000-job trace (Gavel's mix with multi-GPU jobs, 20 jobs/h, seed 3) on
# 96 GPUs of three types: up to ~1,900 jobs active at once, 4,000 (fifo) and
# 18,600 (las) decisions. Takes about 3 minutes on a loaded 2-core machine,
# so it is not part of make check:
#     MLSCHED=./mlsched SRCDIR=. tests/exec_policy_2000.sh
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
if ! command -v python3 >/dev/null 2>&1 || ! command -v sqlite3 >/dev/null 2>&1; then
    echo "SKIP: python3 or sqlite3 is not installed"
    exit 77
fi
tmp=$(mktemp -d /tmp/mls-exec2k-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$MLSCHED" trace generate -n 2000 -r 20 -s 3 -m -o "$tmp/g.csv" >/dev/null || exit 1
for p in fifo las; do
    for q in "$p" "exec:$SRCDIR/examples/policies/$p.py"; do
        "$MLSCHED" simulate --trace "$tmp/g.csv" --cluster v100=4x8,k80=4x8,p100=4x8 \
            --policy "$q" --seed 1 -q --db "$tmp/r.db" --exec-stats >/dev/null ||
            { echo "FAIL: simulate $q"; exit 1; }
        sqlite3 "$tmp/r.db" "SELECT job_id, user, workload, gpus, quote(work), quote(submit),
            quote(first_start), quote(finish), quote(jct), quote(queue_delay), quote(run_time),
            quote(gpu_seconds), preemptions, restarts, quote(isolated_time), quote(contention),
            quote(ftf_rho), quote(deadline), deadline_met, measured
            FROM jobs JOIN runs USING (run_id) WHERE policy = '$q' ORDER BY job_id" >"$tmp/$p-$(echo "$q" | cut -c1-4).txt"
    done
    n=$(wc -l <"$tmp/$p-$p.txt")
    [ "$n" = 2000 ] || { echo "FAIL: $p: $n rows"; fail=1; }
    if cmp -s "$tmp/$p-$p.txt" "$tmp/$p-exec.txt"; then
        echo "$p: the Python policy's 2000 job rows are identical to C's"
    else
        echo "FAIL: $p: Python results differ from C"
        fail=1
    fi
done
exit $fail
