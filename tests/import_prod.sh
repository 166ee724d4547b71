#!/bin/sh
# import_prod.sh: `trace import` of production traces (philly, helios, itp):
# every quirk of the fixtures (CRLF, no trailing newline, unsorted, zones, NaN,
# no attempts, end_time None), every malformed input with its exact message,
# filters, presets, mapping, --emit-cluster, the per-VC helios preset, a job
# replayed alone taking its traced duration, a round trip per format through
# `mlsched simulate` under fifo, and the real files of ../shared/data (the
# last part skipped when absent).
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
: "${SHARED_DATA:=$SRCDIR/../shared/data}" # override to test another copy of the data
f="$SRCDIR/tests/fixtures/import_prod"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# cols FILE FIELDS: the rows (no header) of the given columns, ';'-joined
cols() { tail -n +2 "$1" | cut -d, -f"$2" | tr '\n' ';'; }

imp() { "$MLSCHED" trace import "$@" 2>"$tmp/err"; }

# --- quirks -------------------------------------------------------------------------------
imp --format philly -o "$tmp/j.csv" "$f/philly_log.json" || no "philly JSON: $(cat "$tmp/err")"
# no attempts -> never started; end_time None -> no duration; 2 attempts summed (74 + 3600 s)
[ "$(cols "$tmp/j.csv" 2,3,5,7)" = "0,u1,4,3674;9981,u2,4,600;" ] || no "philly JSON rows: $(cols "$tmp/j.csv" 2,3,5,7)"
grep -q "2 jobs from 4 records; dropped: 1 never started, 1 no duration" "$tmp/err" || no "philly report: $(cat "$tmp/err")"
# unsorted Pollux CSV, a CPU-only row
imp --format philly -o "$tmp/p.csv" "$f/pollux_philly.csv" || no "pollux csv: $(cat "$tmp/err")"
[ "$(cols "$tmp/p.csv" 2,5,7)" = "0,2,2951;2932,1,66;6417,4,7200;85617,1,30;" ] || no "pollux rows: $(cols "$tmp/p.csv" 2,5,7)"
grep -q "dropped: 1 CPU-only" "$tmp/err" || no "pollux CPU-only not counted"
# CRLF, interval clock
imp --format philly -o "$tmp/d.csv" "$f/dirlab_crlf.csv" || no "dirlab: $(cat "$tmp/err")"
[ "$(cols "$tmp/d.csv" 2,3,5,7)" = "0,1,1,1000;100,2,8,500;160,3,2,300;" ] || no "dirlab rows: $(cols "$tmp/d.csv" 2,3,5,7)"
# zones: 00:18:22+08:00 is 336 s before 16:23:58+00:00
imp --format helios -o "$tmp/a.csv" "$f/acme_zone.csv" || no "acme: $(cat "$tmp/err")"
[ "$(cols "$tmp/a.csv" 2,5,7)" = "0,8,117;336,2,2693;" ] || no "acme zones: $(cols "$tmp/a.csv" 2,5,7)"
imp --format helios -o "$tmp/h.csv" "$f/helios_log.csv" || no "helios: $(cat "$tmp/err")"
[ "$(cols "$tmp/h.csv" 2,3,5,7)" = "0,uXBbc,1,36848;26,uVMrF,4,249;119,uzqls,8,3600;" ] || no "helios rows: $(cols "$tmp/h.csv" 2,3,5,7)"
# no trailing newline, fractional GPUs rounded up and counted, 64 GPUs filtered
imp --format itp --max-gpus 8 -o "$tmp/i.csv" "$f/itp_raw.csv" || no "itp: $(cat "$tmp/err")"
[ "$(cols "$tmp/i.csv" 2,5,7)" = "0,1,2000;50,1,1000;150,4,600;" ] || no "itp rows: $(cols "$tmp/i.csv" 2,5,7)"
grep -q "dropped: 1 filtered out; adjusted: 1 fractional GPU counts rounded up" "$tmp/err" || no "itp report: $(cat "$tmp/err")"
# ElasticFlow columns: the model kept, iterations = work, deadline rebased
imp --format itp -o "$tmp/e.csv" "$f/itp_ef.csv" || no "elasticflow: $(cat "$tmp/err")"
[ "$(cols "$tmp/e.csv" 2,4,6,9)" = "0,resnet50,5000,1900;50,ResNet-50 (batch size 64),300,2900;" ] || no "elasticflow rows: $(cols "$tmp/e.csv" 2,4,6,9)"

# --- malformed input: exact messages ------------------------------------------------------
bad() { # FORMAT FILE MESSAGE
    "$MLSCHED" trace import --format "$1" -o "$tmp/bad.csv" "$f/$2" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 1 ] && grep -qF "$f/$2:$3" "$tmp/err" || no "$2: rc $rc, wanted '$3', got: $(cat "$tmp/err")"
    [ ! -e "$tmp/bad.csv" ] || no "$2: output written despite the error"
}
bad philly philly_bad_status.json "4: field 'status': 'Done' is not Pass, Killed, Failed or Running"
bad philly philly_bad_time.json "1: field 'submitted_time': 'yesterday' is not a time"
bad philly philly_bad_end.json "1: field 'attempts[0].end_time': '2017-10-07 01:00:00' is before its start_time"
bad philly philly_unclosed.json "1: the job object that starts here is not closed"
bad philly philly_machines_bad.csv "2: field 'number of GPUs': 'eight' is not a GPU count"
bad philly pollux_bad.csv "3: field 'timestamp': '2017-10-09 25:00:00' is not a time"
bad philly dirlab_bad.csv "3: field 'interval': '-100' is below 0"
bad helios helios_nan.csv "3: field 'start_time': 'NaN' is not a time"
bad itp itp_bad.csv "3: field 'submission_time': 'x' is not a number"
bad helios itp_raw.csv "1: header 'job_id,submission_time,duration,num_gpu' is not a helios trace"
# --skip-bad: the bad rows counted, the good ones kept
imp --format itp --skip-bad -o "$tmp/s.csv" "$f/itp_bad.csv" "$f/itp_raw.csv" &&
    grep -q "5 jobs from 5 records; dropped: 2 bad rows skipped;" "$tmp/err" ||
    no "itp --skip-bad: $(cat "$tmp/err")"
# a job above the perf model's largest measured GPU count imports by default, its rate
# extrapolated: Transformer (batch size 16) runs 19.81 it/s on 8 v100 over nodes, so 64
# GPUs over 8 nodes run 158.48 it/s and 900 s are 142632 iterations; the report says so
imp --format itp -o "$tmp/x.csv" "$f/itp_raw.csv" &&
    grep -q "4 jobs from 4 records; adjusted: 1 fractional GPU counts rounded up; extrapolated: 1 jobs above the GPU counts the perf model measured (up to 64 GPUs; 16.0 GPU-hours, 91.4 % of the trace's)" "$tmp/err" ||
    no "itp, a 64-GPU job: $(cat "$tmp/err")"
[ "$(cols "$tmp/x.csv" 2,5,6,7)" = "0,1,46640,2000;50,1,8618,1000;150,4,5671.2,600;250,64,142632,900;" ] ||
    no "itp, a 64-GPU job: $(cols "$tmp/x.csv" 2,5,6,7)"
imp --format helios --skip-bad -o "$tmp/s.csv" "$f/helios_nan.csv" && grep -q "(2 bad rows skipped)" "$tmp/err" ||
    no "helios --skip-bad: $(cat "$tmp/err")"
imp --format philly --skip-bad -o "$tmp/s.csv" "$f/philly_bad_status.json" && grep -q "1 jobs from 1 records" "$tmp/err" ||
    no "philly --skip-bad: $(cat "$tmp/err")"
imp --format philly --workloads "$f/mapping_bad.csv" -o "$tmp/s.csv" "$f/pollux_philly.csv"
[ $? -eq 1 ] && grep -qF "mapping_bad.csv:2: field 'workload': 'NoSuchNet' is not in the perf model" "$tmp/err" ||
    no "bad mapping file: $(cat "$tmp/err")"
for opt in "--window 5:1" "--window 2017-10-01:100" "--status done" "--preset nosuch" "--min-gpus 0"; do
    # shellcheck disable=SC2086
    "$MLSCHED" trace import --format philly $opt -o "$tmp/u.csv" "$f/pollux_philly.csv" 2>/dev/null
    [ $? -eq 2 ] || no "usage error expected for $opt"
done
"$MLSCHED" trace import --format gavel --vc x -o "$tmp/u.csv" "$f/pollux_philly.csv" 2>/dev/null
[ $? -eq 2 ] || no "gavel takes no filters"
imp --format itp --window 2021-03-04:2021-03-05 -o "$tmp/u.csv" "$f/itp_raw.csv"
[ $? -eq 1 ] && grep -q "not dates" "$tmp/err" || no "date window on a seconds clock: $(cat "$tmp/err")"

# --- filters ------------------------------------------------------------------------------
imp --format philly --window 0:7000 -o "$tmp/w.csv" "$f/pollux_philly.csv" &&
    [ "$(cols "$tmp/w.csv" 2,7)" = "0,2951;2932,66;6417,7200;" ] || no "window in s: $(cols "$tmp/w.csv" 2,7)"
imp --format philly --window "2017-10-09 07:00:00:2017-10-10" -o "$tmp/w.csv" "$f/pollux_philly.csv" &&
    [ "$(cols "$tmp/w.csv" 2,7)" = "0,66;3485,7200;" ] || no "window in dates: $(cols "$tmp/w.csv" 2,7)"
imp --format philly --vc 11cb48 --min-gpus 2 -o "$tmp/w.csv" "$f/pollux_philly.csv" &&
    [ "$(cols "$tmp/w.csv" 5,7)" = "4,7200;" ] || no "--vc --min-gpus: $(cols "$tmp/w.csv" 5,7)"
imp --format philly --status killed,failed --user 2,3 -o "$tmp/w.csv" "$f/dirlab_crlf.csv" &&
    [ "$(cols "$tmp/w.csv" 3,5)" = "2,8;" ] || no "--status --user: $(cols "$tmp/w.csv" 3,5)"

# --- presets and mapping ------------------------------------------------------------------
imp --format philly --preset pollux --jobs 2 --seed 3 -o "$tmp/pp.csv" "$f/pollux_philly.csv" &&
    [ "$(tail -n +2 "$tmp/pp.csv" | wc -l)" -eq 2 ] && grep -q "2 jobs from 5 records; dropped: 1 CPU-only, 2 left out by the preset" "$tmp/err" ||
    no "pollux preset: $(cat "$tmp/err")"
grep -q "warning: preset pollux: 2 of 2 jobs are rigid" "$tmp/err" ||
    no "pollux preset on Gavel's catalog: no warning that its jobs are rigid: $(cat "$tmp/err")"
# on Pollux's catalog, Pollux's applications are elastic (1..max_replicas), trained to completion
imp --format philly --preset pollux --jobs 2 --seed 3 --throughputs "$SRCDIR/traces/catalog/pollux.json" \
    -o "$tmp/pe.csv" "$f/pollux_philly.csv" &&
    grep -q "2 jobs of Pollux's applications made elastic" "$tmp/err" && ! grep -q warning "$tmp/err" ||
    no "pollux preset on Pollux's catalog: $(cat "$tmp/err")"
tail -n +2 "$tmp/pe.csv" | awk -F, '$10 != 1 || ($11 != 64 && !($4 == "ncf" && $11 == 1)) { bad = 1 } END { exit bad }' ||
    no "pollux preset: not elastic from 1 to max_replicas: $(cols "$tmp/pe.csv" 4,5,10,11)"
imp --format philly --preset pollux -o "$tmp/pp.csv" "$f/pollux_philly.csv"
[ $? -eq 1 ] && grep -q "3 jobs in the 8-hour window, fewer than the 160" "$tmp/err" || no "pollux preset too few: $(cat "$tmp/err")"
imp --format philly --preset blox -o "$tmp/pb.csv" "$f/philly_log.json" &&
    [ "$(cols "$tmp/pb.csv" 7)" = "3674;" ] || no "blox preset: $(cols "$tmp/pb.csv" 7) $(cat "$tmp/err")"
imp --format philly --preset helios --vc-sizes "$f/vc_sizes.csv" --gpus-per-node 2 -o "$tmp/vc.csv" "$f/pollux_philly.csv" &&
    [ "$(cols "$tmp/vc-11cb48.csv" 5,7)" = "1,66;" ] && [ "$(cols "$tmp/vc-6214e9.csv" 2,5)" = "0,2;85617,1;" ] &&
    grep -q '"count": 2, "gpus_per_node": 2' "$tmp/vc-6214e9.json" || no "helios preset: $(cat "$tmp/err")"
# the same seed gives the same file, another seed another mapping
imp --format philly --seed 7 -o "$tmp/s1.csv" "$f/pollux_philly.csv" && imp --format philly --seed 7 -o "$tmp/s2.csv" "$f/pollux_philly.csv" &&
    cmp -s "$tmp/s1.csv" "$tmp/s2.csv" || no "same seed, different files"
imp --format philly --workloads "$f/mapping.csv" -o "$tmp/m.csv" "$f/pollux_philly.csv" &&
    [ "$(cols "$tmp/m.csv" 4 | tr -d '()' )" = "LM batch size 20;ResNet-18 batch size 64;LM batch size 20;ResNet-18 batch size 64;" ] ||
    no "mapping file: $(cols "$tmp/m.csv" 4)"
imp --format philly --workloads gpu-time-buckets -o "$tmp/b.csv" "$f/pollux_philly.csv" || no "buckets: $(cat "$tmp/err")"
# 66 s on 1 GPU (< 1 GPU-h): cifar10 or ncf -> ResNet-18 or Recommendation; 8 GPU-h: LM or Transformer
sed -n 3p "$tmp/b.csv" | grep -Eq ",(ResNet-18|Recommendation) \(batch size [0-9]+\)," || no "bucket < 1 GPU-h: $(sed -n 3p "$tmp/b.csv")"
sed -n 4p "$tmp/b.csv" | grep -Eq ",(LM|Transformer) \(batch size [0-9]+\)," || no "bucket 1-10 GPU-h: $(sed -n 4p "$tmp/b.csv")"

# --- --emit-cluster, and a job replayed alone takes its traced duration -------------------
imp --format philly --emit-cluster "$tmp/c.json" -o "$tmp/c.csv" "$f/philly_machines.csv" "$f/philly_log.json" &&
    grep -q '"count": 2, "gpus_per_node": 8, "gpu_mem_gb": 24' "$tmp/c.json" || no "emit-cluster: $(cat "$tmp/err")"
"$MLSCHED" simulate --trace "$tmp/c.csv" --cluster "$tmp/c.json" --policy fifo -q >"$tmp/out" &&
    grep -q "2 finished" "$tmp/out" || no "replay on the emitted cluster"
"$MLSCHED" trace sample "$tmp/i.csv" --window 150:151 --rebase -o "$tmp/one.csv" 2>/dev/null
"$MLSCHED" simulate --trace "$tmp/one.csv" --cluster v100=1x4 --policy fifo --round 0 --restart-overhead 0 --json -q |
    grep -q '"avg_jct": 600,' || no "a 4-GPU job alone did not take its traced 600 s"
# the 64-GPU job, extrapolated, placed over 8 nodes of 8, alone takes its traced 900 s
"$MLSCHED" trace sample "$tmp/x.csv" --window 250:251 --rebase -o "$tmp/one.csv" 2>/dev/null
"$MLSCHED" simulate --trace "$tmp/one.csv" --cluster v100=8x8 --policy fifo --round 0 --restart-overhead 0 --json -q |
    grep -q '"avg_jct": 900.0000000000' || no "a 64-GPU job alone did not take its traced 900 s"

# --- round trip per format: import -> simulate under fifo ---------------------------------
imp --format itp --remap-workloads -o "$tmp/r.csv" "$f/itp_ef.csv" &&
    [ "$(cols "$tmp/r.csv" 6)" != "5000;300;" ] || no "--remap-workloads kept the iterations"
for t in j p d a h i r; do
    "$MLSCHED" simulate --trace "$tmp/$t.csv" --cluster v100=4x8 --policy fifo -q >"$tmp/out" 2>&1 &&
        grep -q "finished" "$tmp/out" || no "round trip $t: $(cat "$tmp/out")"
done

# --- trace stats / sample on an imported trace --------------------------------------------
"$MLSCHED" trace stats "$tmp/p.csv" >"$tmp/st" && grep -q "^GPU-hours        9.7" "$tmp/st" &&
    grep -q "^arrivals per day" "$tmp/st" || no "stats: $(cat "$tmp/st")"
# how much is extrapolated: the 64-GPU job of the ITP fixture, 16 of its 17.5 GPU-hours
"$MLSCHED" trace stats "$tmp/x.csv" >"$tmp/st" &&
    grep -q "^extrapolated     1 jobs (25.0%) above the GPU counts measured on v100 (up to 64 GPUs): 16.0 GPU-hours (91.4%); perf model" "$tmp/st" ||
    no "stats, extrapolated: $(cat "$tmp/st")"
"$MLSCHED" trace stats --json "$tmp/x.csv" | grep -q '"extrapolated": {"jobs": 1, "gpu_hours": 16, "gpu_hours_share": 0.9142857143, "max_gpus": 64,' ||
    no "stats --json, extrapolated: $("$MLSCHED" trace stats --json "$tmp/x.csv")"
"$MLSCHED" trace stats "$tmp/p.csv" | grep -q "^extrapolated     0 jobs (0.0%)" || no "stats, nothing extrapolated"
"$MLSCHED" trace stats --reference-gpu h100 "$tmp/x.csv" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "has no GPU type 'h100'" "$tmp/err" || no "stats --reference-gpu h100: $(cat "$tmp/err")"
"$MLSCHED" trace sample "$tmp/p.csv" --first 2 -o "$tmp/f2.csv" 2>/dev/null &&
    [ "$(cols "$tmp/f2.csv" 2)" = "0;2932;" ] || no "sample --first"

# --- the real files -----------------------------------------------------------------------
data="$SHARED_DATA/traces"
if [ -d "$data/philly" ] && [ -d "$data/microsoft_itp" ] && [ -d "$data/helios" ]; then
    real() { # FORMAT OPTIONS... -- FILES
        fmt=$1
        shift
        "$MLSCHED" trace import --format "$fmt" -o "$tmp/r.csv" "$@" 2>"$tmp/err" || no "real $fmt $*: $(cat "$tmp/err")"
    }
    real philly --max-gpus 8 "$data/philly/pollux_philly_jobs.csv"
    grep -q "81958 jobs from 82247 records; dropped: 289 filtered out" "$tmp/err" || no "pollux_philly_jobs: $(cat "$tmp/err")"
    real philly "$data/philly/cluster_job_log.sample.json"
    # the pollux preset gives Pollux's mix: 118-134 of 160 jobs under 1 GPU-hour in its workloads
    real philly --preset pollux "$data/philly/pollux_philly_jobs.csv"
    small=$(grep -cE ',(ResNet-18|Recommendation) \(' "$tmp/r.csv")
    [ "$small" -ge 100 ] && [ "$small" -le 150 ] || no "pollux preset: $small of 160 jobs under 1 GPU-hour"
    real philly --skip-bad "$data/philly/dirlab_philly_last15k.csv"
    real helios --max-gpus 8 "$data/helios/cluster_log.sample.csv" "$data/acme/trace_seren.sample.csv" "$data/acme/trace_kalos.sample.csv"
    real helios --max-gpus 8 "$data/helios/dirlab_helios_last15k.csv"
    real itp "$data"/microsoft_itp/raw/cluster*.csv
    grep -q "69351 jobs from 69351 records; extrapolated: 806 jobs above the GPU counts the perf model measured (up to 64 GPUs; 490466.0 GPU-hours, 30.0 % of the trace's)" "$tmp/err" ||
        no "itp raw: $(cat "$tmp/err")"
    # every Philly job, by default: 289 above 8 GPUs, 13.6 % of the GPU-time
    real philly "$data/philly/pollux_philly_jobs.csv"
    grep -q "82247 jobs from 82247 records; extrapolated: 289 jobs above the GPU counts the perf model measured (up to 128 GPUs; 132664.5 GPU-hours, 13.6 % of the trace's)" "$tmp/err" ||
        no "pollux_philly_jobs, all: $(cat "$tmp/err")"
    real itp "$data"/microsoft_itp/elasticflow_generated/*.csv
    # the helios preset on Philly: one trace and one cluster per VC, every job of the 11 VCs
    # with a size (the 18 jobs of the 4 VCs without one left out); one VC, whose 51 jobs of
    # 32 GPUs span 4 of its 16 nodes, replayed
    "$MLSCHED" trace import --format philly --preset helios \
        --vc-sizes "$data/philly/philly_vc_nodes.csv" -o "$tmp/hv.csv" \
        "$data/philly/pollux_philly_jobs.csv" 2>"$tmp/err" || no "helios preset on Philly: $(cat "$tmp/err")"
    grep -q "82229 jobs from 82247 records; dropped: 18 left out by the preset; extrapolated: 289 jobs" "$tmp/err" ||
        no "helios preset on Philly: $(cat "$tmp/err")"
    [ "$(ls "$tmp"/hv-*.csv | wc -l)" -eq 11 ] || no "helios preset: $(ls "$tmp"/hv-*.csv | wc -l) VC traces, want 11"
    [ "$(cut -d, -f5 "$tmp/hv-2869ce.csv" | grep -c '^32$')" -eq 51 ] || no "VC 2869ce: not 51 jobs of 32 GPUs"
    n=$(($(wc -l <"$tmp/hv-2869ce.csv") - 1))
    "$MLSCHED" simulate --trace "$tmp/hv-2869ce.csv" --cluster "$tmp/hv-2869ce.json" --policy fifo -q \
        >"$tmp/out" 2>&1 && grep -q "$n finished" "$tmp/out" || no "VC 2869ce replay: $(cat "$tmp/out")"
    # the replay of an imported Philly window under fifo, end to end
    "$MLSCHED" trace import --format philly --max-gpus 8 --vc 6214e9 --window "2017-10-03:2017-10-05" \
        --emit-cluster "$tmp/none.json" -o "$tmp/win.csv" "$data/philly/pollux_philly_jobs.csv" 2>"$tmp/err"
    [ $? -eq 1 ] && grep -q "name no GPU machines" "$tmp/err" || no "emit-cluster without machines: $(cat "$tmp/err")"
    "$MLSCHED" trace import --format philly --max-gpus 8 --vc 6214e9 --window "2017-10-03:2017-10-05" \
        -o "$tmp/win.csv" "$data/philly/pollux_philly_jobs.csv" 2>"$tmp/err" || no "philly window: $(cat "$tmp/err")"
    n=$(($(wc -l <"$tmp/win.csv") - 1))
    "$MLSCHED" simulate --trace "$tmp/win.csv" --cluster "$SRCDIR/traces/clusters/2000gpu.json" --policy fifo -q \
        >"$tmp/out" 2>&1 && grep -q "$n finished" "$tmp/out" || no "philly window replay ($n jobs): $(cat "$tmp/out")"
    echo "import_prod: real files imported; Philly window of $n jobs replayed under fifo"
else
    echo "import_prod: ../shared/data/traces absent: real files skipped"
fi
[ $fail -eq 0 ] && echo "import_prod.sh: all checks passed"
exit $fail
