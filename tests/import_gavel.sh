#!/bin/sh
# import_gavel.sh: `trace import --format gavel` on the 7-, 10- and 12-column
# layouts (fixtures), on every real Gavel/Shockwave trace in ../shared/data
# (skipped when absent), malformed rows, --skip-bad, and a round trip:
# import -> simulate on Shockwave's cluster and throughputs.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
f="$SRCDIR/tests/fixtures/import"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$MLSCHED" trace import --format gavel -o "$tmp/a.csv" "$f/gavel10.trace" "$f/gavel7.trace" \
    "$f/shockwave12.trace" 2>/dev/null || { echo "FAIL: fixtures"; fail=1; }
# sorted by arrival: 0 (LM 20, 2 GPUs), 0 (LM 10, gns), 6 (7-column), 30 (ResNet-50)
got=$(cut -d, -f2,4,5,13 "$tmp/a.csv" | tail -n +2 | tr '\n' ';')
want="0,LM (batch size 20),2,static;0,LM (batch size 10),1,gns;6,LM (batch size 20),4,static;30,ResNet-50 (batch size 64),1,static;"
[ "$got" = "$want" ] || { echo "FAIL: import gave $got"; fail=1; }
"$MLSCHED" trace import --format gavel -o "$tmp/b.csv" "$f/bad.trace" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "bad.trace:2: field 'total_steps'" "$tmp/err" || { echo "FAIL: bad row: $(cat "$tmp/err")"; fail=1; }
"$MLSCHED" trace import --format gavel --skip-bad -o "$tmp/b.csv" "$f/bad.trace" 2>"$tmp/err" &&
    grep -q "1 bad rows skipped" "$tmp/err" && [ "$(wc -l <"$tmp/b.csv")" -eq 3 ] || { echo "FAIL: --skip-bad"; fail=1; }
"$MLSCHED" trace import --format nosuch -o "$tmp/c.csv" x 2>/dev/null
[ $? -eq 2 ] || { echo "FAIL: unknown format"; fail=1; }
data="$SRCDIR/../shared/data"
if [ -d "$data/shockwave/traces" ]; then
    n=0
    for t in "$data"/shockwave/traces/*.trace "$data"/gavel/traces/physical_cluster/*.trace \
        "$data"/gavel/traces/msr/seed=0/*.trace; do
        "$MLSCHED" trace import --format gavel -o "$tmp/r.csv" "$t" 2>"$tmp/err" ||
            { echo "FAIL: $t: $(cat "$tmp/err")"; fail=1; }
        n=$((n + 1))
    done
    echo "import_gavel: $n real traces imported"
    sw=$(ls "$data"/shockwave/traces/120_*.trace)
    "$MLSCHED" trace import --format gavel -o "$tmp/sw.csv" "$sw" 2>/dev/null &&
        "$MLSCHED" simulate --trace "$tmp/sw.csv" --cluster "$SRCDIR/traces/clusters/shockwave-32v100.json" \
            --throughputs "$data/shockwave/throughputs/tacc_throughputs.json" --round 120 --policy las -q \
            >"$tmp/out" && grep -q "120 finished" "$tmp/out" || { echo "FAIL: Shockwave round trip"; fail=1; }
else
    echo "import_gavel: ../shared/data absent: real traces skipped"
fi
[ $fail -eq 0 ] && echo "import_gavel.sh: all checks passed"
exit $fail
