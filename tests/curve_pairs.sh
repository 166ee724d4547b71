#!/bin/sh
# curve_pairs.sh: measured pair rates for the curves backend. `profile fit` of two
# tiny curve files plus a pair file (tests/fixtures/curve_pairs) writes the pair
# into the catalog; malformed pair files and pairs of workloads without curves are
# refused naming FILE:LINE: field; a catalog without pairs stays as before; and
# max-min-fairness-packed / gandiva on a 1-GPU cluster pack the two jobs with the
# pair (JCTs differ from the same catalog without it, which cannot pack), exactly as
# the table backend does with the same rates.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
F=$SRCDIR/tests/fixtures/curve_pairs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

expect_error() { # PATTERN CMD...: exit 1 and PATTERN on stderr
    pat=$1
    shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne 1 ]; then
        bad "'$*' exited $got, wanted 1; stderr: $(cat "$tmp/err")"
    elif ! grep -q -- "$pat" "$tmp/err"; then
        bad "'$*' stderr lacks '$pat': $(cat "$tmp/err")"
    else
        ok
    fi
}

# 1. fit: the pair goes into the catalog with its file's metadata; either order of files
"$MLSCHED" profile fit -q -o "$tmp/pair.json" "$F/pairs.csv" "$F/wa.csv" "$F/wb.csv" \
    >"$tmp/fit.txt" 2>&1 || bad "fit with a pair file failed: $(cat "$tmp/fit.txt")"
tr -d ' \t\n' <"$tmp/pair.json" >"$tmp/flat.json" # (spaces inside strings go too)
grep -q '"pairs":\[{"gpu_type":"h100","num_gpus":1,"workload_a":"wa","local_bsz_a":32,"workload_b":"wb","local_bsz_b":16,"iter_time_a_s":0.16,"iter_time_b_s":0.064,"samples_per_s_a":200,"samples_per_s_b":250,"iters":30}\]' \
    "$tmp/flat.json" && ok || bad "pair not in the catalog: $(cat "$tmp/flat.json")"
grep -q '"file":"[^"]*pairs.csv","metadata":{"gpu_type":"h100","gpu_name":"NVIDIAH10080GBHBM3","date":"2026-11-27"' \
    "$tmp/flat.json" && ok || bad "pair file's metadata not in sources"
"$MLSCHED" profile fit -o "$tmp/pair2.json" "$F/wa.csv" "$F/wb.csv" "$F/pairs.csv" >"$tmp/fit.txt" &&
    grep -q '^h100  *1 wa@32  *wb@16  *200.00  *250.00 0.625 + 0.781 = 1.406$' "$tmp/fit.txt" && ok ||
    bad "fit's pair table: $(cat "$tmp/fit.txt")"
"$MLSCHED" profile fit -q -o "$tmp/nopair.json" "$F/wa.csv" "$F/wb.csv" || bad "fit failed"
grep -q '"pairs"' "$tmp/nopair.json" && bad "a catalog without pairs has \"pairs\"" || ok

# 2. bad pair files: FILE:LINE: field
expect_error 'bad_pairs.csv:5: iter_time_b_s: must be > 0' "$MLSCHED" profile fit \
    -o "$tmp/x.json" "$F/wa.csv" "$F/wb.csv" "$F/bad_pairs.csv"
expect_error "unknown_pairs.csv:3: workload_b: 'wz' has no curve rows on h100" \
    "$MLSCHED" profile fit -o "$tmp/x.json" "$F/wa.csv" "$F/wb.csv" "$F/unknown_pairs.csv"
printf '# mlsched-pairs v1\ngpu_type,num_gpus,workload_a,local_bsz_a,workload_b,iter_time_a_s,iter_time_b_s\n' \
    >"$tmp/nob.csv"
expect_error "nob.csv:2: header: missing column 'local_bsz_b'" "$MLSCHED" profile fit \
    -o "$tmp/x.json" "$F/wa.csv" "$tmp/nob.csv"
sed 's/200,250,30$/200,150,30/' "$F/pairs.csv" >"$tmp/rate.csv"
expect_error 'rate.csv:7: samples_per_s_b: 150' "$MLSCHED" profile fit -o "$tmp/x.json" \
    "$F/wa.csv" "$F/wb.csv" "$tmp/rate.csv"
{ cat "$F/pairs.csv"; echo 'H100,1,wb,8,wa,8,0.1,0.1,80,80,30'; } >"$tmp/dup.csv"
expect_error 'dup.csv:8: duplicate pair: wb with wa on H100, 1 GPU(s) is already at .*dup.csv:7' \
    "$MLSCHED" profile fit -o "$tmp/x.json" "$F/wa.csv" "$F/wb.csv" "$tmp/dup.csv"
[ ! -e "$tmp/x.json" ] && ok || bad "a failed fit wrote its catalog"

# 3. a catalog's pairs are checked on load too (a pair of a workload without curves)
sed 's/"workload_b":[[:space:]]*"wb"/"workload_b": "wq"/' "$tmp/pair.json" >"$tmp/badcat.json"
expect_error "badcat.json: pairs\[0\]: workload_b: 'wq' has no curve rows on h100" \
    "$MLSCHED" simulate --trace "$F/trace.csv" --cluster h100=1x1 --policy fifo \
    --throughputs "$tmp/badcat.json"

# 4. packing: 1 GPU, two 1-GPU jobs. Alone wa runs 320 samples/s, wb 320; together
#    wa 200, wb 250 (0.625 and 0.78 of alone, 1.41 together), so packing pays.
sim() { # CATALOG POLICY -> avg JCT
    "$MLSCHED" simulate --trace "$F/trace.csv" --cluster h100=1x1 --policy "$2" --quiet \
        --throughputs "$1" 2>&1 | awk '/^avg JCT/ { print $3 }'
}
for p in max-min-fairness-packed gandiva; do
    with=$(sim "$tmp/pair.json" $p) without=$(sim "$tmp/nopair.json" $p)
    [ -n "$with" ] && [ -n "$without" ] || bad "$p: no avg JCT ('$with', '$without')"
    awk -v a="$with" -v b="$without" 'BEGIN { exit !(a + 0 < b - 1) }' && ok ||
        bad "$p: avg JCT with the pair $with s, without $without s: no packing"
done
plain=$(sim "$tmp/pair.json" max-min-fairness) unpacked=$(sim "$tmp/nopair.json" max-min-fairness-packed)
[ "$plain" = "$unpacked" ] && ok ||
    bad "max-min-fairness-packed without pairs ($unpacked s) is not max-min-fairness ($plain s)"

# 5. the same as the table backend given the same rates in iterations (table.json:
#    wa 32 samples/iteration, 320 samples/s = 10 it/s alone, 200 = 6.25 together; wb
#    16 per iteration, 20 and 15.625 it/s; trace_iters.csv: the same work in iterations)
for p in max-min-fairness-packed gandiva max-min-fairness; do
    "$MLSCHED" simulate --trace "$F/trace.csv" --cluster h100=1x1 --policy $p --quiet \
        --throughputs "$tmp/pair.json" 2>&1 | grep -E '^(avg|p99) JCT|^makespan' >"$tmp/c.txt"
    "$MLSCHED" simulate --trace "$F/trace_iters.csv" --cluster h100=1x1 --policy $p --quiet \
        --throughputs "$F/table.json" 2>&1 | grep -E '^(avg|p99) JCT|^makespan' >"$tmp/t.txt"
    [ -s "$tmp/c.txt" ] && cmp -s "$tmp/c.txt" "$tmp/t.txt" && ok ||
        bad "$p: curves with pairs $(cat "$tmp/c.txt") vs table $(cat "$tmp/t.txt")"
done

echo "curve_pairs.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
