#!/bin/sh
# shockwave_baselines.sh: scripts/shockwave-baselines.sh on Shockwave's 120-job
# dynamic trace (../shared/data/shockwave; skipped when absent) reproduces the
# six baselines of its NSDI 2023 figure under --like shockwave: makespan and
# average JCT each within 3 % of Shockwave's published simulation pickles; and
# mlsched's shockwave policy within 10 % of the values read off the figure
# (docs/reproducing.md, "Reproducing Shockwave's baselines").
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
data="${DATA:-$SRCDIR/../shared/data/shockwave}" # DATA: elsewhere
if [ ! -d "$data/traces" ]; then
    echo "shockwave_baselines: $data absent: skipped"
    exit 77
fi
case $MLSCHED in /*) ;; *) MLSCHED="$(pwd)/$MLSCHED" ;; esac
SRCDIR=$(cd "$SRCDIR" && pwd)
case $data in /*) ;; *) data="$(pwd)/$data" ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$(cd "$tmp" && MLSCHED="$MLSCHED" DATA="$data" sh "$SRCDIR/scripts/shockwave-baselines.sh" \
    2>/dev/null) || { echo "FAIL: the script failed"; exit 1; }
fail=0
# policy:bound (%):fields of the reference makespan and average JCT: the six
# baselines within 3 % of Shockwave's simulation pickles (fields 7 and 9;
# issue 17), mlsched's own shockwave policy within 10 % of the paper's figure
# (fields 11 and 13)
for row in min-total-duration:3:7:9 finish-time-fairness:3:7:9 max-min-fairness:3:7:9 \
    allox:3:7:9 max-sum-throughput-perf:3:7:9 gandiva-fair:3:7:9 shockwave:10:11:13; do
    p=${row%%:*} rest=${row#*:}
    bound=${rest%%:*} rest=${rest#*:}
    fm=${rest%%:*} fj=${rest#*:}
    line=$(echo "$out" | grep "^$p|") || { echo "FAIL: no row for $p"; fail=1; continue; }
    echo "$line" | awk -F'|' -v b="$bound" -v fm="$fm" -v fj="$fj" -v p="$p" '{
        dm = 100 * ($2 / $fm - 1); dj = 100 * ($3 / $fj - 1)
        printf "%s: makespan %+.1f %%, avg JCT %+.1f %% (bound %s %%)\n", p, dm, dj, b
        exit (dm > b || dm < -b || dj > b || dj < -b) }' || { echo "FAIL: $p off by > $bound %"; fail=1; }
done
exit $fail
