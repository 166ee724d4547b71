#!/bin/sh
# drf_cpus.sh: DRF end to end with host demands. The trace's cpus column
# reaches the policy through the view: user a's jobs ask for 32 of the
# cluster's 64 CPUs (CPU-dominant share 1/2 each), so after a's first job and
# b's four (share 1/8 each) the CPUs are gone and a gets one job at t=0.
# Without the column every job asks for the per-GPU default and DRF is plain
# GPU fairness (4 and 4). A bad cpus value is refused with FILE:LINE: field.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
trace="$SRCDIR/tests/fixtures/drf/drf-cpus.csv"

started() { # started DB USER: jobs of USER that started at t=0 in the last run
    sqlite3 "$1" "SELECT count(*) FROM jobs j JOIN runs r ON j.run_id=r.run_id
        WHERE r.run_id=(SELECT max(run_id) FROM runs) AND j.user='$2' AND j.first_start=0"
}

"$MLSCHED" simulate --trace "$trace" --cluster v100=2x4 --policy drf -q --db "$tmp/r.db" \
    >/dev/null || bad "simulate drf failed"
[ "$(started "$tmp/r.db" a)" = 1 ] || bad "user a started $(started "$tmp/r.db" a) jobs, wanted 1"
[ "$(started "$tmp/r.db" b)" = 4 ] || bad "user b started $(started "$tmp/r.db" b) jobs, wanted 4"

grep -v '^#' "$trace" | cut -d, -f1-6 >"$tmp/plain.csv"
"$MLSCHED" simulate --trace "$tmp/plain.csv" --cluster v100=2x4 --policy drf -q \
    --db "$tmp/r.db" >/dev/null || bad "simulate drf (no cpus column) failed"
[ "$(started "$tmp/r.db" a)" = 4 ] || bad "without cpus, user a started $(started "$tmp/r.db" a)"
[ "$(started "$tmp/r.db" b)" = 4 ] || bad "without cpus, user b started $(started "$tmp/r.db" b)"

sed 's/,32$/,-1/' "$trace" >"$tmp/bad.csv"
"$MLSCHED" simulate --trace "$tmp/bad.csv" --cluster v100=2x4 --policy drf -q \
    --db "$tmp/r.db" >/dev/null 2>"$tmp/err"
st=$?
[ $st -ne 0 ] && grep -q "bad.csv:4: field 'cpus'" "$tmp/err" ||
    bad "a negative cpus gave status $st and: $(cat "$tmp/err")"
[ $fail -eq 0 ] && echo "drf_cpus.sh: all checks passed"
exit $fail
