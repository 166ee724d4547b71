#!/bin/sh
# slurm_array.sh: compare --backend slurm --wait against a real single-node
# Slurm that this test starts itself (scripts/slurm/start) and always stops
# (trap): 2 policies x 2 seeds become a 4-task job array, the task databases
# are merged, a failing task is reported with its stderr, exit 1.
# Skips (77) when Slurm is not installed, we are not root, or it cannot start.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/slurm_serial.sh"
slurm_test_require sqlite3
if ! "$MLSCHED" compare --help >/dev/null 2>&1; then
    echo "SKIP: this mlsched has no compare command"
    exit 77
fi
. "$SRCDIR/tests/test_lib.sh"
test_init slurm
slurm_test_start "$tmp/slurm"
if ! "$MLSCHED" trace generate --jobs 8 --rate 6/h --seed 1 -o "$tmp/t.csv" >/dev/null 2>&1; then
    echo "SKIP: mlsched trace generate does not work yet"
    exit 77
fi

"$MLSCHED" compare --backend slurm --wait --trace "$tmp/t.csv" --cluster v100=2x4 \
    --policies fifo,las --seeds 1,2 --db "$tmp/r.db" --slurm-dir "$tmp/work" \
    >"$tmp/out" 2>"$tmp/err" || bad "compare --backend slurm exited $?: $(cat "$tmp/err")"
grep -q "submitted Slurm job array" "$tmp/err" || bad "no submission message"
[ "$(sqlite3 "$tmp/r.db" 'SELECT count(*) FROM run_summary')" = 4 ] ||
    bad "wanted 4 runs merged: $(cat "$tmp/err")"
grep -q "^las " "$tmp/out" || bad "no table: $(cat "$tmp/out")"
[ "$(wc -l <"$tmp/work/tasks.tsv")" = 4 ] || bad "task list has not 4 lines"

# a failing task: reported with its stderr, the others merged, exit 1
"$MLSCHED" compare --backend slurm --wait --trace "$tmp/t.csv" --cluster v100=2x4 \
    --policies fifo,las --seeds 1 --param las.no_such_param=1 --db "$tmp/f.db" \
    --slurm-dir "$tmp/work2" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] || bad "a failed task: exit $rc, wanted 1"
grep -q "FAILED: las seed 1" "$tmp/err" && grep -q no_such_param "$tmp/err" ||
    bad "failed task not reported: $(cat "$tmp/err")"
[ "$(sqlite3 "$tmp/f.db" 'SELECT group_concat(policy) FROM runs')" = fifo ] ||
    bad "the successful task was not merged"

[ $fail = 0 ] && echo "slurm_array.sh: all checks passed"
exit $((fail > 0))
