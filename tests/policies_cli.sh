#!/bin/sh
# policies_cli.sh: end-to-end check of `mlsched policies` (table, details,
# --names, exit codes). Needs only the binary.
set -u
M=${MLSCHED:-./mlsched}
[ -x "$M" ] || { echo "SKIP: $M not built"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

out=$("$M" policies) || fail "policies exited non-zero"
echo "$out" | head -1 | grep -q '^NAME  *ORACLE  *PAPER  *SUMMARY$' || fail "header: $out"
for p in $("$M" policies --names); do
    echo "$out" | grep -q "^$p  " || fail "$p missing from the table"
    "$M" policies "$p" | grep -q "^name: *$p\$" || fail "details of $p"
done
echo "$out" | grep -q '^srtf  *yes ' || fail "srtf should be oracle"
echo "$out" | grep -q '^fifo  *no ' || fail "fifo should not be oracle"
"$M" policies fifo-backfill | grep -q '^  easy=1' || fail "fifo-backfill parameters"
"$M" policies --help | grep -q '^usage: mlsched policies' || fail "--help"
"$M" policies no-such-policy 2>/dev/null; [ $? -eq 1 ] || fail "unknown policy must exit 1"
"$M" policies --bogus 2>/dev/null; [ $? -eq 2 ] || fail "unknown flag must exit 2"
"$M" policies a b 2>/dev/null; [ $? -eq 2 ] || fail "two names must exit 2"
echo "ok"
