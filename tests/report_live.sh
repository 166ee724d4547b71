#!/bin/sh
# report_live.sh: a live run and a simulated run of the same trace in one
# table and one figure. A daemon runs 3 fake jobs (fifo, time scale 200: ~3 s
# wall); `mlsched report --db live.db` reads its state database (it used to
# say "not an mlsched results database"), `report --db sim.db --db live.db`
# puts both fifo runs in one table (the live one labelled "live"), `plot`
# draws the live run, and the state database is left as it was (read-only).
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init replive sqlite3
TMPDIR=$tmp
export TMPDIR # where report puts its temporary merged database
tp="$SRCDIR/traces/catalog/default-throughputs.json"
head -4 "$SRCDIR/tests/fixtures/live/trace8.csv" >"$tmp/t.csv"
live_run live "$tmp/t.csv" "$tp" --cluster v100=1x4 --throughputs "$tp" --policy fifo \
    --time-scale 200 -q
"$MLSCHED" simulate --trace "$tmp/t.csv" --cluster v100=1x4 --throughputs "$tp" --policy fifo \
    -q --db "$tmp/sim.db" >/dev/null || bad "simulate"
before=$(sqlite3 "$tmp/live.db" "SELECT count(*) FROM sqlite_master")

"$MLSCHED" report --db "$tmp/live.db" --format csv >"$tmp/one.csv" 2>"$tmp/err" ||
    bad "report --db live.db: $(cat "$tmp/err")"
awk -F, '$1 == "live" && $4 == "fifo" { ok = 1 } END { exit !ok }' "$tmp/one.csv" || bad "the live run is not a fifo row labelled live: $(cat "$tmp/one.csv")"
"$MLSCHED" report --db "$tmp/sim.db" --db "$tmp/live.db" --format csv --metrics avg_jct,makespan \
    >"$tmp/both.csv" 2>"$tmp/err" || bad "report --db sim --db live: $(cat "$tmp/err")"
[ "$(awk -F, '$4 == "fifo"' "$tmp/both.csv" | wc -l)" -eq 2 ] || bad "not one simulated and one live fifo row: $(cat "$tmp/both.csv")"
cat "$tmp/both.csv"
# the live run's mean JCT and makespan within 10 % of the simulated ones (the
# same trace; live times start at its first arrival); 50 % in a sanitizer
# build, whose slower processes make a wall-time margin a test of the
# machine's load (live_timing_asserted: 13.5 % there at load 15), while a
# wrong time base would still be far off
lim=0.1
live_timing_asserted || lim=0.5
awk -F, -v l=$lim 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "avg_jct") c = i }
    $4 == "fifo" { v[++n] = $c } END { exit !(n == 2 && v[1] > 0 && (v[2] - v[1]) / v[1] < l && (v[1] - v[2]) / v[1] < l) }' \
    "$tmp/both.csv" || bad "live and simulated avg JCT more than $lim apart (relative)"
awk -F, -v l=$lim 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "makespan") c = i }
    $4 == "fifo" { v[++n] = $c } END { exit !(n == 2 && v[1] > 0 && (v[2] - v[1]) / v[1] < l && (v[1] - v[2]) / v[1] < l) }' \
    "$tmp/both.csv" || bad "live and simulated makespan more than $lim apart (relative)"
if command -v gnuplot >/dev/null 2>&1; then
    "$MLSCHED" plot --db "$tmp/live.db" --out "$tmp/plots" >"$tmp/plot.out" 2>&1 &&
        [ -s "$tmp/plots/jct_cdf.png" ] && grep -q '"fifo"' "$tmp/plots/jct_cdf.gp" ||
        bad "plot --db live.db: $(cat "$tmp/plot.out")"
fi
[ "$(sqlite3 "$tmp/live.db" "SELECT count(*) FROM sqlite_master")" = "$before" ] ||
    bad "the state database was changed"
ls "$tmp"/mlsched-db-* 2>/dev/null | grep -q . && bad "a temporary database was left behind"
[ $fail -eq 0 ] && echo "report_live.sh: all checks passed"
exit $((fail > 0))
