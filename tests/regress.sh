#!/bin/sh
# regress.sh: every registered policy on a fixed small trace, compared with
# tests/golden/regress.json by `mlsched regress`. The simulator is
# deterministic, so the 0.5 % tolerance only absorbs libm and compiler
# differences: any real change in a policy's numbers fails here, and the
# commit that moves them must update the golden file and say why:
#     tests/regress.sh --update        (from the build directory, or with MLSCHED set)
# Also checks that a perturbed policy is caught: fifo-backfill's numbers
# relabelled as fifo's must fail, naming the metrics that moved.
set -u
: "${MLSCHED:=./mlsched}"
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
golden="$SRCDIR/tests/golden/regress.json"
trace="$SRCDIR/tests/fixtures/regress/mix40.csv"
cluster="v100=2x4,k80=2x4"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in $("$MLSCHED" policies --names); do
    # the trace path is given relative so the key does not depend on the checkout
    (cd "$SRCDIR/tests/fixtures/regress" && "$MLSCHED" simulate --trace mix40.csv \
        --cluster "$cluster" --policy "$p" --seed 1 -q --db "$tmp/r.db" >/dev/null) ||
        { echo "FAIL: simulate $p"; exit 1; }
done
# pollux on its own goodput backend with Pollux's 60 s rounds (tests/pollux_policy.sh)
(cd "$SRCDIR/tests/fixtures/regress" && "$MLSCHED" simulate --trace px12.csv --cluster t4=2x4 \
    --throughputs "$SRCDIR/traces/catalog/pollux.json" --policy pollux --round 60 --seed 1 -q \
    --db "$tmp/r.db" >/dev/null) || { echo "FAIL: simulate pollux on px12.csv"; exit 1; }
# the elastic policies on the same goodput backend, where batch sizes matter (policies/elastic.c)
for p in elastic-dp elastic-fixed-batch autoscale; do
    (cd "$SRCDIR/tests/fixtures/regress" && "$MLSCHED" simulate --trace px12.csv --cluster t4=2x4 \
        --throughputs "$SRCDIR/traces/catalog/pollux.json" --policy "$p" --round 60 --seed 1 -q \
        --db "$tmp/r.db" >/dev/null) || { echo "FAIL: simulate $p on px12.csv"; exit 1; }
done
# sia on the same goodput backend and rounds (its configurations, PolluxAgent's batches)
(cd "$SRCDIR/tests/fixtures/regress" && "$MLSCHED" simulate --trace px12.csv --cluster t4=2x4 \
    --throughputs "$SRCDIR/traces/catalog/pollux.json" --policy sia --round 60 --seed 1 -q \
    --db "$tmp/r.db" >/dev/null) || { echo "FAIL: simulate sia on px12.csv"; exit 1; }
if [ "${1:-}" = "--update" ]; then
    "$MLSCHED" regress --db "$tmp/r.db" --golden "$golden" --update
    exit $?
fi
fail=0
if ! "$MLSCHED" regress --db "$tmp/r.db" --golden "$golden" --tolerance 0.5%; then
    echo "FAIL: policy metrics moved (or a policy has no golden entry)."
    echo "If the change is intended, run tests/regress.sh --update and say why in the commit."
    fail=1
fi
# a perturbed policy: fifo behaving like fifo-backfill must be caught
cp "$tmp/r.db" "$tmp/p.db"
sqlite3 "$tmp/p.db" "DELETE FROM summary WHERE run_id IN (SELECT run_id FROM runs WHERE policy='fifo');
    DELETE FROM runs WHERE policy='fifo'; UPDATE runs SET policy='fifo' WHERE policy='fifo-backfill';"
"$MLSCHED" regress --db "$tmp/p.db" --golden "$golden" --tolerance 0.5% >"$tmp/out" 2>&1
# (fifo-backfill's average JCT is lower: an improvement, signed, and still a failure)
if [ $? -ne 1 ] || ! grep -q "^improved *avg_jct .* -[0-9.]*%" "$tmp/out" ||
    ! grep -q "^regress: .* metrics beyond 0.5% (.* regressed, [1-9][0-9]* improved" "$tmp/out"; then
    echo "FAIL: a perturbed fifo was not reported:"
    cat "$tmp/out"
    fail=1
fi
[ $fail -eq 0 ] && echo "regress.sh: all checks passed"
exit $fail
