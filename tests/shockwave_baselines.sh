#!/bin/sh
# shockwave_baselines.sh: scripts/shockwave-baselines.sh on Shockwave's 120-job
# dynamic trace (../shared/data/shockwave; skipped when absent) reproduces the
# six baselines of its NSDI 2023 figure, and mlsched's shockwave policy:
# makespan and average JCT each within 10 % of the values read off the figure
# (docs/reproducing.md, "Reproducing Shockwave's baselines"), with batch adaptation and the
# Gavel-code options the script sets.
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
# policy, the paper's makespan and average JCT (s)
for row in min-total-duration:24420:20000 finish-time-fairness:32230:11360 \
    max-min-fairness:33450:11360 allox:32720:10050 max-sum-throughput-perf:32230:9750 \
    gandiva-fair:32500:12700 shockwave:24420:10050; do
    p=${row%%:*} rest=${row#*:}
    line=$(echo "$out" | grep "^$p|") || { echo "FAIL: no row for $p"; fail=1; continue; }
    echo "$line" | awk -F'|' -v m="${rest%%:*}" -v j="${rest#*:}" -v p="$p" '{
        dm = 100 * ($2 / m - 1); dj = 100 * ($3 / j - 1)
        printf "%s: makespan %+.1f %%, avg JCT %+.1f %%\n", p, dm, dj
        exit (dm > 10 || dm < -10 || dj > 10 || dj < -10) }' || { echo "FAIL: $p off by > 10 %"; fail=1; }
done
exit $fail
