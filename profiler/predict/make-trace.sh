#!/bin/bash
# make-trace.sh JOBS T_CSV R_CSV [SCALE]: the canonical trace (on stdout) of a
# profiler/predict/*.jobs file, as gpu-predict.sh runs it live and perturb.sh
# simulates it. Each line "id submit_s kind batch solo_s" becomes a one-GPU job
# of T_CSV's workload (kind T) or R_CSV's (kind R) whose work is solo_s seconds
# at that curve's samples/s at the batch, times SCALE (default 1), in whole
# iterations. Exit 1 when a batch has no row in its curve.
set -u
[ $# -ge 3 ] || {
    echo "usage: make-trace.sh JOBS T_CSV R_CSV [SCALE]" >&2
    exit 2
}
curve() { # FILE: "workload local_bsz samples_per_s" per row
    awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { print $c["workload"], $c["local_bsz"], $c["samples_per_s"] }' "$1"
}
{ curve "$2" | sed 's/^/T /'; curve "$3" | sed 's/^/R /'; echo "--"; grep -v '^#' "$1"; } |
    awk -v k="${4:-1}" '
        $0 == "--" { jobs = 1; print "id,submit_time,user,workload,gpus,total_work,batch_size"; next }
        !jobs { w[$1] = $2; r[$1, $3] = $4; next }
        NF == 0 { next }
        {
            if (!(($3, $4) in r)) { printf "make-trace.sh: no %s row at batch %s\n", $3, $4 > "/dev/stderr"; exit 1 }
            printf "%s,%s,u%s,%s,1,%d,%s\n", $1, $2, $1, w[$3], int(r[$3, $4] * $5 * k / $4 + 0.5) * $4, $4
        }'
