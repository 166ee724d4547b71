#!/bin/sh
# plot.sh: `mlsched plot` draws every figure as a valid PNG with its data and
# gnuplot script beside it, including average JCT vs load from rate=R labels,
# gives each policy its fixed style, notes coinciding series, selects runs by
# --policies and --label, and fails clearly on a database that is not there.
set -u
: "${MLSCHED:=./mlsched}"
command -v gnuplot >/dev/null 2>&1 || { echo "plot.sh: SKIP: gnuplot not installed (Debian: gnuplot-nox)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for rate in 4 8; do
    for seed in 1 2; do
        "$MLSCHED" trace generate --jobs 30 --rate $rate/h --seed $seed --multi-gpu -o "$tmp/t.csv" || fail=1
        for p in fifo las; do
            "$MLSCHED" simulate --trace "$tmp/t.csv" --cluster v100=2x4,k80=2x4 --policy $p -q \
                --seed $seed --label "rate=$rate" --db "$tmp/r.db" >/dev/null || fail=1
        done
    done
done
"$MLSCHED" plot --db "$tmp/r.db" --out "$tmp/plots" || fail=1
png_magic=$(printf '\211PNG')
for fig in jct_cdf ftf_cdf timeline relative_bars jct_vs_load user_share; do
    f="$tmp/plots/$fig.png"
    if [ "$(head -c 4 "$f" 2>/dev/null)" != "$png_magic" ]; then
        echo "FAIL: $fig.png missing or not a PNG"
        fail=1
    fi
    [ -f "$tmp/plots/$fig.gp" ] && [ -f "$tmp/plots/$fig.dat" ] || { echo "FAIL: $fig data/script"; fail=1; }
done
# the copied script redraws the figure by itself
(cd "$tmp/plots" && rm jct_cdf.png && gnuplot jct_cdf.gp && [ -s jct_cdf.png ]) || { echo "FAIL: rerun of jct_cdf.gp"; fail=1; }
# confidence band: two seeds per (policy, rate) give lo < mean < hi somewhere
awk 'NF == 4 && $3 < $2 && $2 < $4 { ok = 1 } END { exit !ok }' "$tmp/plots/jct_vs_load.dat" || { echo "FAIL: no CI band"; fail=1; }
"$MLSCHED" plot --db "$tmp/none.db" --out "$tmp/p2" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "none.db" "$tmp/err" || { echo "FAIL: missing db not reported"; fail=1; }
"$MLSCHED" plot --db "$tmp/r.db" --out "$tmp/p3" --format gif 2>/dev/null
[ $? -eq 2 ] || { echo "FAIL: bad format not a usage error"; fail=1; }
# a sweep database: plot says which run of each policy the CDFs show
grep -q "plot: the CDFs and the timeline show each policy's first run" "$tmp/plot.out" 2>/dev/null ||
    "$MLSCHED" plot --db "$tmp/r.db" --out "$tmp/p5" | grep -q "show each policy's first run" ||
    { echo "FAIL: plot did not say which run of a sweep it drew"; fail=1; }
# the baseline's unfair fraction is 0: the relative bars show that metric in
# absolute terms, with a mark for the zeros, and compare still exits 0
"$MLSCHED" trace generate --jobs 30 --rate 2/h --seed 1 -o "$tmp/light.csv" >/dev/null
"$MLSCHED" compare --trace "$tmp/light.csv" --cluster "$SRCDIR/traces/clusters/2000gpu.json" \
    --policies fifo,las,sjf,srtf,fifo-backfill,drf,qssf --db "$tmp/light.db" --plots "$tmp/p4" >"$tmp/out" 2>&1 ||
    { echo "FAIL: compare exited $? when only a figure could not be drawn: $(cat "$tmp/out")"; fail=1; }
grep -q 'mtitle\[4\] = "unfair fraction, absolute (fifo.s is 0)"; mlog\[4\] = 0; mrel\[4\] = 0' "$tmp/p4/relative_bars.gp" &&
    [ -s "$tmp/p4/relative_bars.png" ] || { echo "FAIL: relative bars with a zero baseline: $(cat "$tmp/out")"; fail=1; }
[ -s "$tmp/p4/jct_cdf.png" ] || { echo "FAIL: the other figures were not drawn"; fail=1; }
# one style per policy, the same in every figure and every experiment
for gp in "$tmp/plots/jct_cdf.gp" "$tmp/plots/timeline.gp" "$tmp/p4/ftf_cdf.gp"; do
    grep -q '^set style line [0-9]* lc rgb "#000000" dt 1 pt 7 .*# fifo, queue order$' "$gp" ||
        { echo "FAIL: fifo's fixed style missing in $gp"; fail=1; }
    grep -q '^set style line [0-9]* lc rgb "#D55E00" dt 1 pt 7 .*# las, LAS / Tiresias$' "$gp" ||
        { echo "FAIL: las's fixed style missing in $gp"; fail=1; }
done
# coinciding series are named in the key; more than six policies: one timeline panel each
grep -q '"las (= fifo)"' "$tmp/p4/jct_cdf.gp" || { echo "FAIL: identical series not noted in the key"; fail=1; }
grep -q '^panels = 1$' "$tmp/p4/timeline.gp" && grep -q '^panels = 0$' "$tmp/plots/timeline.gp" ||
    { echo "FAIL: timeline panels"; fail=1; }
# --policies and --label select what is drawn; --log-time
"$MLSCHED" plot --db "$tmp/r.db" --out "$tmp/p6" --policies 'l*' --label 'rate=8' --log-time >/dev/null ||
    { echo "FAIL: plot --policies"; fail=1; }
[ "$(grep -c '^# ' "$tmp/p6/jct_cdf.dat")" = 1 ] && grep -q '^# las run' "$tmp/p6/jct_cdf.dat" &&
    grep -q '^logtime = 1$' "$tmp/p6/timeline.gp" && [ -s "$tmp/p6/timeline.png" ] &&
    grep -q 'label rate=8' "$tmp/p6/jct_cdf.gp" || { echo "FAIL: --policies/--label/--log-time"; fail=1; }
"$MLSCHED" plot --db "$tmp/r.db" --out "$tmp/p7" --policies nosuch 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "none matches the selection" "$tmp/err" || { echo "FAIL: empty selection"; fail=1; }
[ $fail -eq 0 ] && echo "plot.sh: all checks passed"
exit $fail
