#!/bin/sh
# import_readers.sh: `trace import` for pai2020, openb2023, tiresias, pollux and sia:
# the fixtures in tests/fixtures/import_readers (values checked), bad rows (exit 1
# naming FILE:LINE: field; --skip-bad), every real file of these formats in
# ../shared/data (skipped when absent), and a round trip per format: import
# -> canonical trace -> simulate --policy fifo, on the cluster --emit-cluster
# wrote (pai2020, openb2023) or a bundled/inline one.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
f="$SRCDIR/tests/fixtures/import_readers"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
rows() { tail -n +2 "$1" | cut -d, -f"$2" | tr '\n' ';'; }
fifo() { # trace cluster [throughputs] -> "N finished" on stdout
    thr=""
    [ $# -gt 2 ] && thr="--throughputs $3"
    # shellcheck disable=SC2086
    "$MLSCHED" simulate --trace "$1" --cluster "$2" $thr --policy fifo -q --db "$tmp/r.db" |
        sed -n 's/^jobs *\([0-9]*\) finished.*/\1/p'
}

# ---- pai2020: the join, machines, round trip -------------------------------------------
"$MLSCHED" trace import --format pai2020 --emit-cluster "$tmp/pai.json" -o "$tmp/pai.csv" \
    "$f/pai" 2>"$tmp/err" || no "pai2020 fixtures: $(cat "$tmp/err")"
# submit rebased; 1 GPU (2 x 50 %), 8 (800 %), 5 (100 % + 2 x 200 %); durations from the
# first instance/task start; the two running/waiting jobs have none
[ "$(rows "$tmp/pai.csv" 2,5,7)" = "0,1,950;100,8,290;400,5,100;" ] ||
    no "pai2020 jobs: $(rows "$tmp/pai.csv" 2,5,7)"
grep -q "dropped: 2 no duration" "$tmp/err" || no "pai2020 report: $(cat "$tmp/err")"
grep -q '"gpu_type": "v100", "count": 1, "gpus_per_node": 8, "gpu_mem_gb": 32' "$tmp/pai.json" &&
    grep -q '"gpu_type": "k80"' "$tmp/pai.json" || no "pai2020 cluster: $(cat "$tmp/pai.json")"
[ "$(fifo "$tmp/pai.csv" "$tmp/pai.json")" = 3 ] || no "pai2020 round trip"
"$MLSCHED" trace import --format pai2020 -o "$tmp/pai2.csv" "$f/pai/pai_job_table.csv" 2>/dev/null &&
    cmp -s "$tmp/pai.csv" "$tmp/pai2.csv" || no "pai2020: the job table alone differs from the directory"
mkdir "$tmp/bad"
printf 'j1,i,u,Terminated,10,20\nj2,i,u,Terminated,10,20\n' >"$tmp/bad/pai_job_table.csv"
printf 'j1,w,1,Terminated,,,100,1,100,T4\njx,w,1,Terminated,,,100,1,100,T4\nj2,w,1,Terminated,,,100,1,200,T4\n' \
    >"$tmp/bad/pai_task_table.csv"
"$MLSCHED" trace import --format pai2020 -o "$tmp/b.csv" "$tmp/bad" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "pai_task_table.csv:2: field 'job_name': no job 'jx'" "$tmp/err" ||
    no "pai2020 join miss: $(cat "$tmp/err")"
"$MLSCHED" trace import --format pai2020 --skip-bad -o "$tmp/b.csv" "$tmp/bad" 2>"$tmp/err" &&
    grep -q "1 bad rows skipped" "$tmp/err" && [ "$(rows "$tmp/b.csv" 5)" = "1;2;" ] ||
    no "pai2020 --skip-bad: $(cat "$tmp/err")"

# ---- openb2023 ---------------------------------------------------------------------------
"$MLSCHED" trace import --format openb2023 --emit-cluster "$tmp/ob.json" -o "$tmp/ob.csv" \
    "$f/openb/openb_pod_list_default.csv" "$f/openb/openb_node_list_all_node.csv" 2>"$tmp/err" ||
    no "openb2023 fixtures: $(cat "$tmp/err")"
# 0.46 and 0.59 GPU round up to 1; the CPU pod and the pending one are dropped
[ "$(rows "$tmp/ob.csv" 2,5,7)" = "0,1,12537496;427061,1,12475899;9437497,8,1332357;12900505,1,21;" ] ||
    no "openb2023 jobs: $(rows "$tmp/ob.csv" 2,5,7)"
grep -q "1 CPU-only, 1 no duration; adjusted: 2 fractional GPU counts rounded up" "$tmp/err" ||
    no "openb2023 report: $(cat "$tmp/err")"
[ "$(fifo "$tmp/ob.csv" "$tmp/ob.json")" = 4 ] || no "openb2023 round trip"
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\np,1000,1024,1,1500,,LS,Running,0,10,0\n' >"$tmp/pods.csv"
"$MLSCHED" trace import --format openb2023 -o "$tmp/b.csv" "$tmp/pods.csv" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "pods.csv:2: field 'gpu_milli': 1500 with num_gpu 1" "$tmp/err" ||
    no "openb2023 bad row: $(cat "$tmp/err")"

# ---- tiresias ----------------------------------------------------------------------------
thr="$f/tiresias-v100.json"
"$MLSCHED" trace import --format tiresias --throughputs "$thr" -o "$tmp/t.csv" \
    "$f/tiresias-60.csv" "$f/tiresias-tf.csv" 2>"$tmp/err" || no "tiresias fixtures: $(cat "$tmp/err")"
# work = duration x rate at the traced GPUs on v100: 164 x 3.7, 20 x 44.4 (12 GPUs: linear
# from 1), ... (the pipeline rounds work to 12 significant digits); the 60_job and tf_job rows interleave by submit time
want="vgg19,1,606.8;vgg19,12,888;ResNet-50 (batch size 64),2,175.8;"
want="${want}ResNet-50 (batch size 64),8,5168.52;inception3,4,1470;"
[ "$(rows "$tmp/t.csv" 4,5,6)" = "$want" ] ||
    no "tiresias jobs: $(rows "$tmp/t.csv" 4,5,6)"
"$MLSCHED" trace import --format tiresias -o "$tmp/b.csv" "$f/tiresias-60.csv" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "tiresias-60.csv:2: field 'workload': 'vgg19' gives no work" "$tmp/err" ||
    no "tiresias without rates for its models: $(cat "$tmp/err")"
[ "$(fifo "$tmp/t.csv" v100=2x8 "$thr")" = 5 ] || no "tiresias round trip"
printf 'job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n0,1,0,5,vgg19,0,1\n' >"$tmp/t0.csv"
"$MLSCHED" trace import --format tiresias -o "$tmp/b.csv" "$tmp/t0.csv" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "t0.csv:2: field 'duration': 0, must be > 0" "$tmp/err" ||
    no "tiresias bad row: $(cat "$tmp/err")"

# ---- pollux / sia ------------------------------------------------------------------------
"$MLSCHED" trace import --format pollux -o "$tmp/p.csv" "$f/pollux-workload.csv" 2>"$tmp/err" ||
    no "pollux fixture: $(cat "$tmp/err")"
# sorted by time: yolov3 (5 s, 4 replicas, 64 total -> 16 per GPU), bert (90.5 s), cifar10
[ "$(rows "$tmp/p.csv" 2,4,5,10,11,12 | cut -d';' -f1-3)" = "5,yolov3,4,1,64,16;90.5,bert,12,1,64,32;107,cifar10,6,1,64,342" ] ||
    no "pollux jobs: $(rows "$tmp/p.csv" 2,4,5,10,11,12)"
# the exact total batch kept beside it (2048 on 6 GPUs: 342 per GPU, total_batch 2048)
[ "$(head -1 "$tmp/p.csv" | cut -d, -f14)" = total_batch ] &&
    [ "$(rows "$tmp/p.csv" 4,12,14 | cut -d';' -f1-3)" = "yolov3,16,64;bert,32,384;cifar10,342,2048" ] ||
    no "pollux total_batch: $(head -1 "$tmp/p.csv"): $(rows "$tmp/p.csv" 4,12,14)"
printf 'name,time,application,num_replicas,batch_size\na,1,resnet,1,128\n' >"$tmp/w.csv"
"$MLSCHED" trace import --format sia -o "$tmp/b.csv" "$tmp/w.csv" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "w.csv:2: field 'application': 'resnet'" "$tmp/err" ||
    no "pollux bad row: $(cat "$tmp/err")"
[ "$(fifo "$tmp/p.csv" "$SRCDIR/traces/clusters/pollux-64t4.json" "$f/pollux-t4.json")" = 7 ] ||
    no "pollux round trip"

# ---- the real files ----------------------------------------------------------------------
data="${MLS_SHARED_DATA:-$SRCDIR/../shared/data}/traces" # override for worktrees elsewhere
if [ ! -d "$data" ]; then
    echo "import_readers: ../shared/data absent: real traces skipped"
    [ $fail -eq 0 ] && echo "import_readers.sh: fixture checks passed"
    exit $fail
fi
n=0
for w in $(find "$data/generated/pollux" "$data/generated/sia" -name '*.csv' | sort); do
    "$MLSCHED" trace import --format sia -o "$tmp/r.csv" "$w" 2>"$tmp/err" || no "$w: $(cat "$tmp/err")"
    n=$((n + 1))
done
"$MLSCHED" trace import --format pollux -o "$tmp/r.csv" "$data/generated/pollux/workloads/workload-1.csv" 2>/dev/null &&
    [ "$(fifo "$tmp/r.csv" "$SRCDIR/traces/clusters/pollux-64t4.json" "$f/pollux-t4.json")" = 160 ] ||
    no "Pollux workload-1 round trip"
ob="$data/alibaba_gpu_2023"
for p in "$ob"/openb_pod_list_*.csv; do
    if head -1 "$p" | grep -q creation_time; then
        "$MLSCHED" trace import --format openb2023 -o "$tmp/r.csv" "$p" 2>"$tmp/err" ||
            no "$p: $(cat "$tmp/err")"
    else # FGD's multigpuNN lists have no times: records, but nothing to replay
        "$MLSCHED" trace import --format openb2023 -o "$tmp/r.csv" "$p" 2>"$tmp/err"
        [ $? -eq 1 ] && grep -q "no jobs left" "$tmp/err" || no "$p: $(cat "$tmp/err")"
    fi
    n=$((n + 1))
done
"$MLSCHED" trace import --format openb2023 --emit-cluster "$tmp/obr.json" -o "$tmp/obr.csv" \
    "$ob/openb_pod_list_default.csv" "$ob/openb_node_list_all_node.csv" 2>"$tmp/err" &&
    grep -q "1523 machines" "$tmp/err" && grep -q "6203 jobs from 8152 records" "$tmp/err" &&
    [ "$(fifo "$tmp/obr.csv" "$tmp/obr.json")" = 6203 ] || no "openb default round trip: $(cat "$tmp/err")"
ti="$data/generated/tiresias"
"$MLSCHED" trace import --format tiresias --throughputs "$thr" -o "$tmp/r.csv" "$ti/60_job.csv" \
    "$ti/tf_job.csv" 2>"$tmp/err" && [ "$(fifo "$tmp/r.csv" v100=8x8 "$thr")" = 62 ] ||
    no "tiresias real: $(cat "$tmp/err")"
"$MLSCHED" trace import --format tiresias --remap-workloads -o "$tmp/r.csv" "$ti/60_job.csv" \
    2>"$tmp/err" || no "tiresias 60_job --remap-workloads: $(cat "$tmp/err")"
n=$((n + 2))
pai="$data/alibaba_pai_2020"
"$MLSCHED" trace import --format pai2020 --emit-cluster "$tmp/pai.json" -o "$tmp/r.csv" \
    "$pai/pai_machine_spec.csv" 2>"$tmp/err" && grep -q "1897 machines" "$tmp/err" &&
    grep -q '"gpu_type": "p100", "count": 798, "gpus_per_node": 2' "$tmp/pai.json" ||
    no "PAI machine spec: $(cat "$tmp/err")"
# the sample rows are from different jobs: every one is a join miss
"$MLSCHED" trace import --format pai2020 -o "$tmp/r.csv" "$pai/pai_job_table.sample.csv" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "pai_task_table.sample.csv:1: field 'job_name': no job '4f057009a5d481acec67b088'" "$tmp/err" ||
    no "PAI samples: $(cat "$tmp/err")"
n=$((n + 2))
echo "import_readers: $n real files imported"
[ $fail -eq 0 ] && echo "import_readers.sh: all checks passed"
exit $fail
