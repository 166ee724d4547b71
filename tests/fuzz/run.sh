#!/bin/sh
# run.sh SECONDS SEEDS NAME...: runs each libFuzzer harness fuzz/fuzz_NAME for
# SECONDS on a scratch copy of its seed corpus SEEDS/NAME (the seeds in the
# repository are never rewritten), one job at a time, and prints one line per
# harness: executions, seconds, and "clean" or the saved finding. Exit 1 when
# a harness found something (its input is fuzz/NAME-crash-* / -leak-* /
# -timeout-*: add it to the seeds with its fix and a test).
set -u
secs=$1 seeds=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
for name in "$@"; do
    mkdir -p "$work/$name"
    cp "$seeds/$name"/* "$work/$name"/ 2>/dev/null
    TMPDIR=$work ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "fuzz/fuzz_$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -max_len=8192 -artifact_prefix="fuzz/$name-" "$work/$name" >"$work/$name.log" 2>&1
    rc=$?
    runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 executions in \2 s/p' "$work/$name.log")
    if [ $rc -eq 0 ]; then
        echo "fuzz_$name: ${runs:-?}, clean"
    else
        fail=1
        echo "fuzz_$name: FINDING (exit $rc):"
        grep -E "ERROR|fuzz finding|runtime error|SUMMARY|Test unit written" "$work/$name.log" | head -8
    fi
done
exit $fail
