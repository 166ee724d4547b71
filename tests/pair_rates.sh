#!/bin/sh
# pair_rates.sh: profiler/examples/pair_rates.py, which gpu-predict.sh uses on
# a GPU machine to rate two jobs sharing a GPU, checked without one: two
# stand-in commands (tests/fixtures/live/progress-job.sh, 10 and 20 ms per
# iteration plus the shell's overhead) run side by side for 2 s; each one's
# wall seconds per iteration must be near its own pace, and a bad command line
# is a usage error. ~3 s.
set -u
: "${SRCDIR:=.}"
. "$SRCDIR/tests/test_lib.sh"
test_init pair_rates python3
job="$SRCDIR/tests/fixtures/live/progress-job.sh"
py="$SRCDIR/profiler/examples/pair_rates.py"
python3 "$py" --seconds 2 --skip 0.3 -- "$job" 8 0.01 -- "$job" 8 0.02 >"$tmp/out" 2>&1 ||
    bad "pair_rates.py failed: $(cat "$tmp/out")"
a=$(sed -n 's/^cmd0 iter_time_s=\([^ ]*\) iters=.*/\1/p' "$tmp/out")
b=$(sed -n 's/^cmd1 iter_time_s=\([^ ]*\) iters=.*/\1/p' "$tmp/out")
awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { exit !(a >= 0.01 && a < 0.05 && b >= 0.02 && b < 0.08 && b > a) }' ||
    bad "iteration times '$a' and '$b' (want ~0.01 and ~0.02): $(cat "$tmp/out")"
python3 "$py" --seconds 1 -- "$job" 8 0.01 >"$tmp/out2" 2>&1
[ $? -ne 0 ] && grep -q usage "$tmp/out2" || bad "one command: $(cat "$tmp/out2")"
[ $fail -eq 0 ] || exit 1
echo "pair_rates: ok ($a s and $b s per iteration)"
