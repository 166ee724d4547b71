#!/bin/sh
# autoscale_knee.sh: Or et al.'s scenario through scripts/autoscale-knee.sh: a
# job whose throughput stops scaling at 8 workers (tests/fixtures/elastic)
# must end at 8 GPUs under autoscale, within 5 % of the fixed 8-GPU run's JCT
# (the trials cost a resize each), with fewer GPU-hours than the fixed 16-GPU
# run; with a straggling node, replacement must keep the JCT within 1 % of the
# run without one, and leaving it in place must cost over 30 %.
set -u
: "${MLSCHED:=./mlsched}"
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
command -v sqlite3 >/dev/null || { echo "SKIP: no sqlite3"; exit 77; }
out=$(MLSCHED="$MLSCHED" sh "$SRCDIR/scripts/autoscale-knee.sh") || { echo "FAIL: script"; exit 1; }
echo "$out"
field() { # row-label column
    echo "$out" | awk -F' \\| ' -v l="| $1" -v c="$2" '$1 == l { print $c }'
}
fail=0
check() {
    if awk "BEGIN { exit !($2) }"; then echo "ok: $1"; else echo "FAIL: $1 ($2)"; fail=1; fi
}
a_gpus=$(field autoscale 2) a_jct=$(field autoscale 3) a_gh=$(field autoscale 4)
f8=$(field "fifo, fixed 8 GPUs" 3) f16gh=$(field "fifo, fixed 16 GPUs" 4)
s_jct=$(field "autoscale, straggler at 2 h" 3)
n_jct=$(field "autoscale straggle=0.01 (no replacement), straggler at 2 h" 3)
check "autoscale ends at the knee (8 GPUs): $a_gpus" "$a_gpus == 8"
check "autoscale JCT $a_jct h within 5 % of fixed 8 GPUs $f8 h" "$a_jct <= 1.05 * $f8"
check "autoscale GPU-hours $a_gh below fixed 16 GPUs $f16gh" "$a_gh < $f16gh"
check "straggler replaced: JCT $s_jct h within 1 % of $a_jct h" "$s_jct <= 1.01 * $a_jct"
check "straggler left in place: JCT $n_jct h over 1.3 x $a_jct h" "$n_jct > 1.3 * $a_jct"
exit $fail
