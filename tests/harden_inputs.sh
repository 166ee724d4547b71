#!/bin/sh
# harden_inputs.sh: the importers read their inputs exactly as written
# (issue 19), through `mlsched trace import` and `mlsched simulate`: a NUL
# byte names FILE:LINE in every format (philly JSON and CSV, DIR-LAB, helios,
# itp, gavel, pollux, pai, openb, tiresias), Philly JSON with a key twice,
# data after the array, a GPU listed twice or a submit years after its
# attempts is refused, DIR-LAB's node_num 0 with GPUs and a Pollux
# batch_size above its application's limit are refused; `simulate` refuses a
# trace with a NUL, a cluster JSON with trailing data and a spec with a stray
# comma. Each case: exit status 1, the exact message, no output file. The
# input files are written here with printf, so each byte is as shown.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# bad FORMAT FILE MESSAGE: the import fails with exit 1, says FILE:MESSAGE, writes nothing
bad() {
    rm -f "$tmp/out.csv"
    "$MLSCHED" trace import --format "$1" -o "$tmp/out.csv" "$tmp/$2" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 1 ] && grep -qF "$tmp/$2:$3" "$tmp/err" || no "$1 $2: rc $rc, wanted '$3', got: $(cat "$tmp/err")"
    [ ! -e "$tmp/out.csv" ] || no "$1 $2: output written despite the error"
}
good() { # FORMAT FILE: the import succeeds
    "$MLSCHED" trace import --format "$1" -o "$tmp/out.csv" "$tmp/$2" 2>"$tmp/err" ||
        no "$1 $2 should import: $(cat "$tmp/err")"
}

# ---- Philly JSON -------------------------------------------------------------------------
job='{"status":"Pass","vc":"a","jobid":"j1","submitted_time":"2017-10-07 01:11:39","user":"u",
 "attempts":[{"start_time":"2017-10-07 01:12:09","end_time":"2017-10-07 02:00:00",
 "detail":[{"ip":"m1","gpus":["gpu0","gpu1"]}]}]}'
printf '[%s]\n' "$job" >"$tmp/ok.json"
good philly ok.json
printf '[%s]\n\000 GARBAGE' "$job" >"$tmp/nul_after.json"
bad philly nul_after.json "4: a NUL byte"
printf '[{"status":"Pass\000x","vc":"a"}]\n' >"$tmp/nul_in.json"
bad philly nul_in.json "1: a NUL byte"
printf '[%s]\nGARBAGE {{{\n' "$job" >"$tmp/trailing.json"
bad philly trailing.json "4: data after the job array"
printf '[%s]\n' "$(echo "$job" | sed 's/"status":"Pass"/"status":"Pass","status":"Failed"/')" >"$tmp/dupkey.json"
bad philly dupkey.json "1: key 'status' appears twice in the top-level object"
printf '[%s]\n' "$(echo "$job" | sed 's/"user":"u"/"user":"u\\u0000v"/')" >"$tmp/esc.json"
bad philly esc.json "1: a \\u0000 (NUL) in a string"
printf '[%s]\n' "$(echo "$job" | sed 's/"gpu0","gpu1"/"gpu0","gpu0"/')" >"$tmp/dupgpu.json"
bad philly dupgpu.json "1: field 'attempts[0].detail.gpus': 'gpu0' appears twice on one machine"
printf '[%s]\n' "$(echo "$job" | sed 's/"submitted_time":"2017/"submitted_time":"2030/')" >"$tmp/late.json"
bad philly late.json "1: field 'submitted_time': '2030-10-07 01:11:39' is more than a day after the first attempt's start_time"

# ---- CSV formats: a NUL byte on line 3 -----------------------------------------------------
printf 'u_id,user,gpu_num,cpu_num,node_num,interval,run_time,wall_time,new_status\r\n0,1,1,0,1,0,100,0,Pass\r\n1,2,8,0,4,10\000,500,0,Failed\r\n' >"$tmp/dirlab_nul.csv"
bad philly dirlab_nul.csv "3: a NUL byte"
printf 'u_id,user,gpu_num,cpu_num,node_num,interval,run_time,wall_time,new_status\r\n0,1,1,0,1,0,100,0,Pass\r\n1,2,8,0,0,10,500,0,Failed\r\n' >"$tmp/dirlab_nodes.csv"
bad philly dirlab_nodes.csv "3: field 'node_num': '0' is 0, but the job has GPUs (gpu_num > 0)"
printf 'job_id,submission_time,duration,num_gpu\n1,0,700,1\n2,10,700\000,1\n' >"$tmp/itp_nul.csv"
bad itp itp_nul.csv "3: a NUL byte"
printf 'job_id,submission_time,duration,num_gpu\n1,0,700,1\n2,0x10,700,1\n' >"$tmp/itp_hex.csv"
bad itp itp_hex.csv "3: field 'submission_time': '0x10' is not a decimal number"
printf 'name,time,application,num_replicas,batch_size\ncifar10-0,107,cifar10,6,2048\nncf-1,1\000,ncf,1,32768\n' >"$tmp/pollux_nul.csv"
bad pollux pollux_nul.csv "3: a NUL byte"
printf 'name,time,application,num_replicas,batch_size\ncifar10-0,107,cifar10,6,99999999\n' >"$tmp/pollux_batch.csv"
bad pollux pollux_batch.csv "2: field 'batch_size': 99999999 is above cifar10's largest validated total batch (4096)"
printf 'name,time,application,num_replicas,batch_size\ncifar10-0,1e30,cifar10,6,4096\n' >"$tmp/pollux_time.csv"
bad pollux pollux_time.csv "2: field 'time': 1e+30 s is above the largest time accepted"
printf 'job_id,submission_time,duration,num_gpu\n1,0,700,1\n2,10,1e30,1\n' >"$tmp/itp_big.csv"
bad itp itp_big.csv "3: a submit time or duration above 1e+12 s"
printf 'ResNet-50 (batch size 64)\tpython3 main.py\timagenet\t--steps\t1\t2931\t1\t1\t-1\t1e13\n' >"$tmp/gavel_big.trace"
bad gavel gavel_big.trace "1: field 'arrival_time': 1e+13 s is above the largest time accepted"
printf 'ResNet-50 (batch size 64)\tpython3 main.py\timagenet\t--steps\t1\t0x10\t1\t1\t-1\t0\n' >"$tmp/gavel_hex.trace"
bad gavel gavel_hex.trace "1: field 'total_steps': '0x10' is not a decimal number"
printf 'name,time,application,num_replicas,batch_size\ncifar10-0,107,cifar10,6,4096\n' >"$tmp/pollux_ok.csv"
good pollux pollux_ok.csv
printf 'job_id,num_gpu,submit_time,duration,model_name\n1,1,0,100,resnet50\n2,1,5,100,resnet50\000\n' >"$tmp/tiresias_nul.csv"
bad tiresias tiresias_nul.csv "3: a NUL byte"

# ---- simulate ------------------------------------------------------------------------------
printf 'id,submit_time,workload,gpus,total_work,mode\n0,0,A3C,1,100,static\n1,5,A3C,1,100,static\000,GARBAGE\n' >"$tmp/t_nul.csv"
printf 'id,submit_time,workload,gpus,total_work,mode\n0,0,A3C,1,100,static\n' >"$tmp/t.csv"
sim() { "$MLSCHED" simulate --policy fifo -q "$@" >/dev/null 2>"$tmp/err"; }
sim --trace "$tmp/t_nul.csv" --cluster v100=1x4
[ $? -eq 1 ] && grep -qF "t_nul.csv:3: a NUL byte" "$tmp/err" || no "simulate NUL: $(cat "$tmp/err")"
printf '{"node_groups":[{"gpu_type":"v100","count":1,"gpus_per_node":4}]}\000{"x":1}' >"$tmp/c_nul.json"
sim --trace "$tmp/t.csv" --cluster "$tmp/c_nul.json"
[ $? -eq 1 ] && grep -qF "c_nul.json:1: a NUL byte" "$tmp/err" || no "cluster NUL: $(cat "$tmp/err")"
sim --trace "$tmp/t.csv" --cluster "v100=1x4,"
[ $? -eq 1 ] && grep -qF "cluster spec: 'v100=1x4,': an empty group" "$tmp/err" || no "spec comma: $(cat "$tmp/err")"
sim --trace "$tmp/t.csv" --cluster v100=1x4 || no "the good trace should run: $(cat "$tmp/err")"
# errors about a job the cluster or the perf model cannot run name its line
printf 'id,submit_time,workload,gpus,total_work\n0,0,A3C,1,10\n1,0,NoSuchNet,1,10\n' >"$tmp/t_wl.csv"
sim --trace "$tmp/t_wl.csv" --cluster v100=1x4
[ $? -eq 1 ] && grep -qF "t_wl.csv:3: job 1: workload 'NoSuchNet': unknown" "$tmp/err" ||
    no "unknown workload: $(cat "$tmp/err")"
printf 'id,submit_time,workload,gpus,total_work\n0,0,A3C,1,10\n1,0,A3C,64,10\n' >"$tmp/t_big.csv"
sim --trace "$tmp/t_big.csv" --cluster v100=1x4
[ $? -eq 1 ] && grep -qF "t_big.csv:3: job 1: gpus: needs 64 GPUs" "$tmp/err" ||
    no "oversize job: $(cat "$tmp/err")"

[ $fail -eq 0 ] && echo "harden_inputs: all passed"
exit $fail
