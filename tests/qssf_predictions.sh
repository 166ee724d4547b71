#!/bin/sh
# qssf_predictions.sh: qssf -P predictions=FILE orders its queue by the file's
# predicted durations x GPUs (a negative prediction first), whatever the
# history says; order=helios (set by --like helios) sorts as HeliosArtifact's
# qssf.py does: equal service by fewer GPUs, and jobs that all arrived this
# instant by GPUs alone; a bad file is an error naming the file, line and
# field, and a waiting job the file has no row for is an error naming it.
# On one 4-GPU node (docs/reproducing.md, Helios).
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/test_lib.sh"
test_init qssf_predictions sqlite3
w='ResNet-18 (batch size 128)'
job() { echo "$1,$2,u,$w,$3,20000"; } # id submit gpus
hdr=id,submit_time,user,workload,gpus,total_work
sim() { # trace predictions db [flags]
    t=$1 p=$2 d=$3
    shift 3
    rm -f "$d"
    "$MLSCHED" simulate --trace "$t" --cluster v100=1x4 --policy qssf -P "predictions=$p" \
        -q --db "$d" "$@" >/dev/null 2>"$tmp/err"
}
# job ids in the order they first started (ties by id)
started() { sqlite3 "$1" "SELECT group_concat(job_id, ' ') FROM
    (SELECT job_id FROM jobs ORDER BY first_start, job_id)"; }

# 1. job 0 holds the node; 1-4 queue behind it. Service (prediction x GPUs):
#    1: 300x4, 2: -5x4, 3: 200x4, 4: 100x2 = 200 (2 GPUs). By service: 2 4 3 1
#    (4 alone on the node first, then 3 waits for it: the queue stops).
{
    echo $hdr
    job 0 0 4
    job 1 1 4
    job 2 2 4
    job 3 3 4
    job 4 4 2
} >"$tmp/t1.csv"
printf 'jobname,priority\n0,50\n1,300\n2,-5\n3,200\n4,100\n9,1\n' >"$tmp/p1.csv"
sim "$tmp/t1.csv" "$tmp/p1.csv" "$tmp/a.db" || bad "case 1: $(cat "$tmp/err")"
[ "$(started "$tmp/a.db")" = "0 2 4 3 1" ] || bad "case 1: started $(started "$tmp/a.db"), want 0 2 4 3 1"
# 2. equal service 200: job 3 (4 GPUs x 50) and job 4 (2 GPUs x 100). By
#    service, ties first come first served: 3 first; order=helios: fewer GPUs, 4.
printf 'jobname,priority\n0,50\n1,300\n2,-5\n3,50\n4,100\n' >"$tmp/p2.csv"
sim "$tmp/t1.csv" "$tmp/p2.csv" "$tmp/b.db" || bad "case 2: $(cat "$tmp/err")"
[ "$(started "$tmp/b.db")" = "0 2 3 4 1" ] || bad "case 2: started $(started "$tmp/b.db"), want 0 2 3 4 1"
sim "$tmp/t1.csv" "$tmp/p2.csv" "$tmp/c.db" --like helios || bad "case 2 helios: $(cat "$tmp/err")"
[ "$(started "$tmp/c.db")" = "0 2 4 3 1" ] ||
    bad "case 2, --like helios: started $(started "$tmp/c.db"), want 0 2 4 3 1"
[ "$(sqlite3 "$tmp/c.db" "SELECT params FROM runs")" = "predictions=$tmp/p2.csv,order=helios" ] ||
    bad "--like helios did not give qssf order=helios: $(sqlite3 "$tmp/c.db" "SELECT params FROM runs")"

# 3. three jobs arrive together on the free node: 0 (2 GPUs x 10), 1 (1 GPU x
#    1000), 2 (4 GPUs x 1). By service 2 starts alone; order=helios (none
#    waited before): by GPUs, 1 and 0 start, 2 waits.
printf '%s\n%s\n%s\n%s\n' $hdr "$(job 0 0 2)" "$(job 1 0 1)" "$(job 2 0 4)" >"$tmp/t3.csv"
printf 'jobname,priority\n0,10\n1,1000\n2,1\n' >"$tmp/p3.csv"
sim "$tmp/t3.csv" "$tmp/p3.csv" "$tmp/d.db" || bad "case 3: $(cat "$tmp/err")"
[ "$(sqlite3 "$tmp/d.db" "SELECT group_concat(job_id) FROM jobs WHERE first_start = 0")" = 2 ] ||
    bad "case 3: started at 0: $(sqlite3 "$tmp/d.db" "SELECT job_id, first_start FROM jobs")"
sim "$tmp/t3.csv" "$tmp/p3.csv" "$tmp/e.db" -P order=helios || bad "case 3 helios: $(cat "$tmp/err")"
[ "$(sqlite3 "$tmp/e.db" "SELECT group_concat(job_id) FROM (SELECT job_id FROM jobs
    WHERE first_start = 0 ORDER BY job_id)")" = 0,1 ] ||
    bad "case 3, order=helios: started at 0: $(sqlite3 "$tmp/e.db" "SELECT job_id, first_start FROM jobs")"

# 4. errors: each names the file and line (or the job)
no() { # file want-in-message [flags]
    f=$1 want=$2
    shift 2
    if sim "$tmp/t1.csv" "$f" "$tmp/x.db" "$@"; then
        bad "$f: accepted ($want)"
    elif ! grep -qF -- "$want" "$tmp/err"; then
        bad "$f: message '$(cat "$tmp/err")', want '$want'"
    fi
}
printf 'jobname,priority\n0,50\n1,3.5\n' >"$tmp/bad1.csv"
no "$tmp/bad1.csv" "$tmp/bad1.csv:3: field 'priority': want an integer"
printf 'jobname,priority\n0,50\nx,1\n' >"$tmp/bad2.csv"
no "$tmp/bad2.csv" "$tmp/bad2.csv:3: field 'jobname': want a job id"
printf 'id,priority\n0,50\n' >"$tmp/bad3.csv"
no "$tmp/bad3.csv" "$tmp/bad3.csv:1: want a header with 'jobname' and 'priority' columns"
printf 'jobname,priority\n0,50\n1,2\n0,7\n' >"$tmp/bad4.csv"
no "$tmp/bad4.csv" "$tmp/bad4.csv:4: field 'jobname': job 0 is already on line 2"
printf 'jobname,priority\n' >"$tmp/bad5.csv"
no "$tmp/bad5.csv" "$tmp/bad5.csv: no rows under the header"
no "$tmp/nonexistent.csv" "$tmp/nonexistent.csv: cannot open it"
printf 'jobname,priority\n0,50\n1,300\n2,-5\n4,100\n' >"$tmp/short.csv"
no "$tmp/short.csv" "predictions=$tmp/short.csv has no row for job 3"
no "$tmp/p1.csv" "qssf: order=fifo: want service or helios" -P order=fifo
[ $fail -eq 0 ] && echo "qssf_predictions.sh: all checks passed"
exit $fail
