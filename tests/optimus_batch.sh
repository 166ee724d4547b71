#!/bin/sh
# optimus_batch.sh: optimus -P batch=total keeps a job's total batch (the trace's
# total_batch) as its GPUs change, and the engine runs it at the rate the policy
# rated (Pollux's Optimus+Oracle; policies/optimus.c). On the pollux catalog, one
# cifar10 job alone:
# - requested 2 GPUs at 1,024 per GPU (total 2,048), elastic to 4 on t4=1x4: it
#   gets 4 GPUs and runs at 512 per GPU, exactly as a rigid 4-GPU job at 512
#   under fifo (the same JCT); per_gpu runs it at 1,024 per GPU (another JCT);
# - requested 6 at 342 per GPU (what the total 2,048 is per GPU on 6, rounded
#   up), total_batch 2048, on t4=2x4: 8 GPUs at 256, as a rigid 8 x 256 job: the
#   exact total, not 6 x 342 = 2,052 (which would be 257 per GPU);
# - `--like pollux` sets batch=total and place=most_free for optimus-oracle (and
#   its whole-second epochs), batch=total not
#   for tiresias-las, and the default stays per_gpu (goldens unchanged).
# A few runs of a second or less.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/test_lib.sh"
test_init optimus_batch sqlite3
cat="$SRCDIR/traces/catalog/pollux.json"
head="id,submit_time,workload,gpus,total_work,min_gpus,max_gpus,batch_size,total_batch"
printf '%s\n0,0,cifar10,2,2000000,1,4,1024,2048\n' "$head" >"$tmp/a.csv"
printf '%s\n0,0,cifar10,4,2000000,4,4,512,\n' "$head" >"$tmp/r4.csv"
printf '%s\n0,0,cifar10,6,2000000,1,8,342,2048\n' "$head" >"$tmp/b.csv"
printf '%s\n0,0,cifar10,8,2000000,8,8,256,\n' "$head" >"$tmp/r8.csv"
jct() { # db trace cluster policy [flags...]: prints the job's JCT (run stored in $tmp/db)
    d=$1 t=$2 c=$3 p=$4
    shift 4
    "$MLSCHED" simulate --trace "$tmp/$t" --cluster "$c" --throughputs "$cat" --policy "$p" \
        --round 60 --restart-overhead 30 --placement spread "$@" -q --db "$tmp/$d" \
        >/dev/null 2>"$tmp/err" || { bad "simulate $t $p $*: $(cat "$tmp/err")"; return; }
    sqlite3 "$tmp/$d" "SELECT printf('%.6f', jct) FROM jobs"
}
same() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > 0 && (a - b) ^ 2 <= (1e-9 * a) ^ 2) }'; }

total=$(jct 1.db a.csv t4=1x4 optimus-oracle -P batch=total)
rigid=$(jct 2.db r4.csv t4=1x4 fifo)
per=$(jct 3.db a.csv t4=1x4 optimus-oracle)
echo "2 -> 4 GPUs, total 2048: batch=total $total s, rigid 4 x 512 $rigid s, per_gpu $per s"
same "$total" "$rigid" || bad "batch=total on 4 GPUs ($total s) is not a 4 x 512 job ($rigid s)"
same "$total" "$per" && bad "per_gpu ($per s) ran the total batch too"
# --like pollux: also the artifact's 60 s steps (--cadence rounds: the job submitted at 0
# starts at the first step's end, 60 s) and whole-second epochs (--epoch-times whole)
like=$(jct 4.db a.csv t4=1x4 optimus-oracle --like pollux)
flags=$(jct 5.db a.csv t4=1x4 optimus-oracle --cadence rounds --epoch-times whole -P batch=total \
    -P place=most_free)
whole=$(jct 10.db a.csv t4=1x4 optimus-oracle --epoch-times whole -P batch=total)
same "$like" "$flags" || bad "--like pollux ($like s) is not its flags ($flags s)"
same "$like" "$(awk -v t="$whole" 'BEGIN { printf "%.6f", t + 60 }')" ||
    bad "--like pollux ($like s) is not batch=total with whole epochs ($whole s) started 60 s later"
params=$(sqlite3 "$tmp/4.db" "SELECT params FROM runs")
case "$params" in *batch=total*place=most_free* | *place=most_free*batch=total*) ;;
*) bad "--like pollux gave optimus-oracle params '$params'" ;; esac

exact=$(jct 6.db b.csv t4=2x4 optimus-oracle -P batch=total)
rigid8=$(jct 7.db r8.csv t4=2x4 fifo)
echo "6 -> 8 GPUs, total_batch 2048 (342 per GPU on 6): batch=total $exact s, rigid 8 x 256 $rigid8 s"
same "$exact" "$rigid8" || bad "batch=total on 8 GPUs ($exact s) is not an 8 x 256 job ($rigid8 s)"

jct 8.db a.csv t4=1x4 tiresias-las --like pollux >/dev/null
params=$(sqlite3 "$tmp/8.db" "SELECT params FROM runs")
case "$params" in *batch=*) bad "tiresias-las got '$params' from --like pollux" ;; esac
[ "$(jct 9.db a.csv t4=1x4 optimus-oracle -P batch=per_gpu)" = "$per" ] ||
    bad "the default is not batch=per_gpu"
[ $fail -eq 0 ] && echo "optimus_batch.sh: all checks passed"
exit $fail
