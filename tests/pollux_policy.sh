#!/bin/sh
# pollux_policy.sh: the pollux policy end to end on the Pollux goodput backend
# (traces/catalog/pollux.json) with Pollux's 60 s rounds: a fixed 12-job
# trace of the six Pollux applications on 2 x 4 T4 finishes, two runs with the
# same seed give the same numbers (the GA's generator seeded by the run), and
# Pollux's elastic, goodput-aware allocation beats FIFO at the trace's fixed
# GPU counts on average JCT (2109 s; pollux about 1255 s). Its numbers are
# pinned in tests/golden/regress.json by tests/regress.sh.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
trace="$SRCDIR/tests/fixtures/regress/px12.csv"
catalog="$SRCDIR/traces/catalog/pollux.json"

run() { # run POLICY SEED: prints "unfinished avg_jct makespan"
    "$MLSCHED" simulate --trace "$trace" --cluster t4=2x4 --throughputs "$catalog" \
        --policy "$1" --seed "$2" --round 60 -q --db "$tmp/r.db" >/dev/null ||
        { echo "simulate $1 failed"; return 1; }
    sqlite3 "$tmp/r.db" "SELECT s.unfinished, s.avg_jct, s.makespan FROM summary s
        WHERE s.run_id=(SELECT max(run_id) FROM runs)"
}

a=$(run pollux 1) || bad "$a"
b=$(run pollux 1) || bad "$b"
[ "$a" = "$b" ] || bad "same seed, different results: '$a' vs '$b'"
case "$a" in 0\|*) ;; *) bad "pollux left jobs unfinished: $a" ;; esac
f=$(run fifo 1) || bad "$f"
jp=$(echo "$a" | cut -d'|' -f2)
jf=$(echo "$f" | cut -d'|' -f2)
awk -v p="$jp" -v f="$jf" 'BEGIN { exit !(p > 0 && p < f) }' ||
    bad "pollux avg JCT $jp is not below fifo's $jf"
c=$(run pollux 2) || bad "$c"
case "$c" in 0\|*) ;; *) bad "pollux (seed 2) left jobs unfinished: $c" ;; esac

"$MLSCHED" simulate --trace "$trace" --cluster t4=2x4 --throughputs "$catalog" \
    --policy pollux -P p=3 -q --db "$tmp/r.db" >/dev/null 2>"$tmp/err"
st=$?
[ $st -ne 0 ] && grep -q "p=3" "$tmp/err" || bad "p=3 gave status $st and: $(cat "$tmp/err")"
[ $fail -eq 0 ] && echo "pollux_policy.sh: all checks passed"
exit $fail
