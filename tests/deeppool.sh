#!/bin/sh
# deeppool.sh: DeepPool's comparison through scripts/deeppool.sh (one VGG-16
# foreground at global batch 32 strong-scaled over 2-16 V100s, a backlog of
# ResNet-50 background jobs). Checks, at every size: the simulated cluster
# throughput is within 1 % of the model's (the pair rates the engine used are
# the multiplexing model's); burst parallelism alone beats data parallelism and
# DeepPool (burst + multiplexing) beats both; only DeepPool finishes background
# jobs while the foreground runs; the foreground under multiplexing runs at
# 0.9 x its burst speed (10 % interference); and DeepPool / data parallel lies
# in the paper's 1.2-2.3x at 4 and 8 GPUs.
set -u
: "${MLSCHED:=./mlsched}"
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
MLSCHED="$MLSCHED" OUT="$tmp" sh "$SRCDIR/scripts/deeppool.sh" || { echo "FAIL: script"; exit 1; }
fail=0
check() {
    if awk "BEGIN { exit !($2) }"; then echo "ok: $1"; else echo "FAIL: $1 ($2)"; fail=1; fi
}
# deeppool.dat: run GPUs finish throughput bg_done model idle
val() { awk -v r="$1" -v g="$2" -v c="$3" '$1 == r && $2 == g { print $c }' "$tmp/deeppool.dat"; }
for g in 2 4 8 16; do
    dp=$(val dp $g 4) b=$(val burst $g 4) d=$(val deeppool $g 4)
    for r in dp burst deeppool; do
        x=$(val $r $g 4) m=$(val $r $g 6)
        check "$g GPUs, $r: simulated $x within 1 % of the model $m" \
            "$x > 0 && $x >= 0.99 * $m && $x <= 1.01 * $m"
    done
    check "$g GPUs: dp $dp < burst $b < deeppool $d" "$dp < $b && $b < $d"
    check "$g GPUs: background jobs done only under DeepPool" \
        "$(val dp $g 5) == 0 && $(val burst $g 5) == 0 && $(val deeppool $g 5) > 0"
    check "$g GPUs: foreground time under multiplexing = burst time / 0.9" \
        "$(val deeppool $g 3) >= 0.999 * $(val burst $g 3) / 0.9 && $(val deeppool $g 3) <= 1.001 * $(val burst $g 3) / 0.9"
done
for g in 4 8; do
    check "$g GPUs: DeepPool / data parallel in the paper's 1.2-2.3x" \
        "$(val deeppool $g 4) / $(val dp $g 4) >= 1.2 && $(val deeppool $g 4) / $(val dp $g 4) <= 2.35"
done
exit $fail
