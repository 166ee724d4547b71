#!/bin/sh
# run.sh SECONDS SEEDS NAME...: runs each libFuzzer harness fuzz/fuzz_NAME for
# SECONDS on a scratch copy of its seed corpus SEEDS/NAME (the seeds in the
# repository are never rewritten), FUZZ_JOBS harnesses at a time (default:
# the number of CPUs; each harness is one process on one core, so this
# changes only the wall time, not how long each one fuzzes), and prints one
# line per harness, in the order named: executions, seconds, and "clean" or
# the saved finding. Exit 1 when a harness found something (its input is
# fuzz/NAME-crash-* / -leak-* / -timeout-*: add it to the seeds with its fix
# and a test).
set -u
secs=$1 seeds=$2
shift 2
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# one NAME: the harness on its scratch corpus, its exit status in NAME.rc
one() {
    mkdir -p "$work/$1"
    cp "$seeds/$1"/* "$work/$1"/ 2>/dev/null
    TMPDIR=$work ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "fuzz/fuzz_$1" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -max_len=8192 -artifact_prefix="fuzz/$1-" "$work/$1" >"$work/$1.log" 2>&1
    echo $? >"$work/$1.rc"
}

# a missing seed corpus (a tarball without it) would fuzz from nothing, silently
for name in "$@"; do
    [ -d "$seeds/$name" ] || { echo "run.sh: no seed corpus $seeds/$name" >&2; exit 2; }
done

# start them in batches of $jobs
running=0
for name in "$@"; do
    one "$name" &
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait

fail=0
for name in "$@"; do
    rc=$(cat "$work/$name.rc" 2>/dev/null || echo "?")
    runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 executions in \2 s/p' "$work/$name.log")
    if [ "$rc" = 0 ]; then
        echo "fuzz_$name: ${runs:-?}, clean"
    else
        fail=1
        echo "fuzz_$name: FINDING (exit $rc):"
        grep -E "ERROR|fuzz finding|runtime error|SUMMARY|Test unit written" "$work/$name.log" | head -8
    fi
done
exit $fail
