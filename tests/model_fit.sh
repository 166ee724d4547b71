#!/bin/sh
# model_fit.sh: `mlsched model fit` and the pollux backend end to end: usage
# errors, a bad profile named by FILE:LINE, a simulation on the shipped catalog
# (deterministic, every job done), and, where ../shared/data is present, that
# the shipped traces/catalog/pollux.json is exactly what the command makes of
# the published profiles.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/test_lib.sh"
test_init modelfit
cat="$SRCDIR/traces/catalog/pollux.json"

"$MLSCHED" model fit >/dev/null 2>&1
[ $? -eq 2 ] || bad "model fit without --pollux must exit 2"
"$MLSCHED" model frob >/dev/null 2>&1
[ $? -eq 2 ] || bad "model frob must exit 2"
"$MLSCHED" model fit --help | grep -q -- "--pollux DIR" || bad "model fit --help"

# a bad profile: the error names the file and line
mkdir -p "$tmp/p/bert"
cp "$SRCDIR/tests/fixtures/pollux/profiles/toy/placements-bad.csv" "$tmp/p/bert/placements.csv"
printf 'progress,iteration,metric,grad_sqr,grad_var\n10,10,0.5,1.0,2.0\n' >"$tmp/p/bert/validation-12.csv"
"$MLSCHED" model fit --pollux "$tmp/p" -o "$tmp/c.json" 2>"$tmp/err"
[ $? -eq 1 ] || bad "a bad profile must exit 1"
grep -q "placements.csv:5: placement" "$tmp/err" || bad "bad profile message: $(cat "$tmp/err")"

# a simulation on the shipped catalog
cat >"$tmp/t.csv" <<'CSV'
id,submit_time,workload,gpus,total_work,batch_size
1,0,cifar10,1,5004800,0
2,0,cifar10,4,5004800,0
3,100,bert,2,177288,0
4,200,imagenet,8,1281200,0
5,300,yolov3,4,827600,0
6,300,ncf,1,49710080,0
7,300,deepspeech2,4,571200,0
CSV
for i in 1 2; do
    "$MLSCHED" simulate --trace "$tmp/t.csv" --cluster t4=4x4,v100=1x8 --throughputs "$cat" \
        --policy las --db "$tmp/r$i.db" -q >"$tmp/s$i.txt" || bad "simulate on pollux.json"
done
grep -q "7 finished" "$tmp/s1.txt" || bad "not every job finished: $(cat "$tmp/s1.txt")"
[ "$(sqlite3 "$tmp/r1.db" 'select * from jobs')" = "$(sqlite3 "$tmp/r2.db" 'select * from jobs')" ] ||
    bad "two runs on the pollux catalog differ"
printf 'id,submit_time,workload,gpus,total_work,mode\n1,0,cifar10,1,5004800,gns\n' >"$tmp/g.csv"
"$MLSCHED" simulate --trace "$tmp/g.csv" --cluster t4=1x4 --throughputs "$cat" --policy fifo \
    -q --db "$tmp/g.db" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "job 1: mode: gns" "$tmp/err" || bad "gns job on pollux: $(cat "$tmp/err")"

data="$SRCDIR/../shared/data"
if [ -d "$data/pollux/profiles" ] && [ -d "$data/sia/profiles" ]; then
    "$MLSCHED" model fit --pollux "$data/pollux/profiles" --sia "$data/sia/profiles" \
        -o "$tmp/fit.json" -q || bad "model fit on the published profiles"
    cmp -s "$tmp/fit.json" "$cat" || bad "traces/catalog/pollux.json is not what model fit makes"
else
    echo "model_fit: SKIP the catalog rebuild: ../shared/data is absent"
fi
[ $fail -eq 0 ] || exit 1
echo "model_fit: ok"
