#!/bin/sh
# compare.sh: end to end of the researcher's loop on a tiny generated trace —
# compare (2 policies x 2 seeds: table, 4 runs in the db; a failing run is
# reported, the others merged, exit 1), merge of two databases (and refusal of
# another schema version), report in every format, sweep --dry-run and a
# 2 x 2 sweep with confidence intervals.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
if ! "$MLSCHED" compare --help >/dev/null 2>&1; then
    echo "SKIP: this mlsched has no compare command (not in cli/main.c yet)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { :; }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
q() { sqlite3 "$1" "$2"; }

if ! "$MLSCHED" trace generate --jobs 12 --rate 6/h --seed 1 -o "$tmp/t.csv" >/dev/null 2>&1; then
    echo "SKIP: mlsched trace generate does not work yet"
    exit 77
fi
cl=v100=2x4

# 1. compare: 2 policies x 2 seeds
"$MLSCHED" compare --trace "$tmp/t.csv" --cluster $cl --policies fifo,las --seeds 1,2 -j 2 \
    --db "$tmp/r.db" >"$tmp/out" 2>"$tmp/err" || bad "compare exited $?: $(cat "$tmp/err")"
grep -q "avg JCT" "$tmp/out" && grep -q "^las " "$tmp/out" && grep -q "(1.00x)" "$tmp/out" ||
    bad "compare printed no table: $(cat "$tmp/out")"
[ "$(q "$tmp/r.db" 'SELECT count(*) FROM run_summary')" = 4 ] || bad "compare: db lacks 4 runs"
[ "$(q "$tmp/r.db" 'SELECT count(DISTINCT seed) FROM runs')" = 2 ] || bad "compare: seeds"
[ "$(q "$tmp/r.db" 'SELECT count(*) FROM jobs')" = 48 ] || bad "compare: jobs rows missing"

# 2. a failing run (an invalid policy parameter): reported, the others merged, exit 1
"$MLSCHED" compare --trace "$tmp/t.csv" --cluster $cl --policies fifo,las --seeds 1 -q \
    --param las.no_such_param=1 --db "$tmp/f.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] || bad "compare with a failing run exited $rc, wanted 1"
grep -q "FAILED: las seed 1" "$tmp/err" || bad "failed run not reported: $(cat "$tmp/err")"
grep -q "no_such_param" "$tmp/err" || bad "failed run's stderr not shown: $(cat "$tmp/err")"
[ "$(q "$tmp/f.db" 'SELECT group_concat(policy) FROM runs')" = fifo ] ||
    bad "the successful run was not merged"
"$MLSCHED" compare --trace "$tmp/t.csv" --cluster $cl --policies fifo,nope --db "$tmp/x.db" \
    2>"$tmp/err"
[ $? = 2 ] && grep -q "unknown policy 'nope'" "$tmp/err" || bad "unknown policy: not a usage error"

# 3. merge: two databases into a new one; another schema version refused
"$MLSCHED" merge -o "$tmp/m.db" "$tmp/r.db" "$tmp/f.db" >/dev/null || bad "merge failed"
[ "$(q "$tmp/m.db" 'SELECT count(*) FROM runs')" = 5 ] || bad "merge: wanted 5 runs"
[ "$(q "$tmp/m.db" 'SELECT count(*) FROM jobs')" = 60 ] || bad "merge: wanted 60 job rows"
[ "$(q "$tmp/m.db" 'SELECT count(DISTINCT run_id) FROM timeline')" = 5 ] || bad "merge: timeline"
cp "$tmp/f.db" "$tmp/v.db"
q "$tmp/v.db" "UPDATE meta SET value='99' WHERE key='schema_version'"
"$MLSCHED" merge -o "$tmp/m.db" "$tmp/r.db" "$tmp/v.db" 2>"$tmp/err" >/dev/null
[ $? = 1 ] && grep -q "version 99" "$tmp/err" || bad "merge took another schema version"
[ "$(q "$tmp/m.db" 'SELECT count(*) FROM runs')" = 5 ] || bad "a refused merge changed the output"

# 4. report formats
"$MLSCHED" report --db "$tmp/r.db" | grep -q "^fifo " || bad "report table"
"$MLSCHED" report --db "$tmp/r.db" --format markdown | grep -q "^| las " || bad "report markdown"
[ "$("$MLSCHED" report --db "$tmp/r.db" --format csv | wc -l)" = 3 ] || bad "report csv"
"$MLSCHED" report --db "$tmp/r.db" --format json --policy las | grep -q '"policy":.*"las"' ||
    bad "report json"
"$MLSCHED" report --db "$tmp/nope.db" 2>"$tmp/err"
[ $? = 1 ] && grep -q "nope.db" "$tmp/err" || bad "report of a missing db"

# 5. sweep: dry run, then 2 rates x 2 seeds with CIs
"$MLSCHED" sweep --trace-gen "--jobs 10" --rates 4,8 --cluster $cl --policies fifo,las \
    --seeds 1,2 --grid round=120 --db "$tmp/s.db" --dry-run >"$tmp/out" || bad "sweep --dry-run"
[ "$(grep -c '^mlsched simulate' "$tmp/out")" = 8 ] || bad "sweep --dry-run: wanted 8 runs"
[ "$(grep -c '^mlsched trace generate' "$tmp/out")" = 4 ] || bad "sweep --dry-run: 4 traces"
[ ! -e "$tmp/s.db" ] || bad "sweep --dry-run wrote a database"
"$MLSCHED" sweep --trace-gen "--jobs 10" --rates 4,8 --cluster $cl --policies fifo,las \
    --seeds 1,2 -j 2 -q --db "$tmp/s.db" >"$tmp/out" 2>"$tmp/err" || bad "sweep: $(cat "$tmp/err")"
[ "$(q "$tmp/s.db" 'SELECT count(*) FROM runs')" = 8 ] || bad "sweep: wanted 8 runs"
[ "$(q "$tmp/s.db" "SELECT count(*) FROM runs WHERE label='rate=8'")" = 4 ] || bad "sweep labels"
grep -q "rate=4 .*fifo" "$tmp/out" && grep -q "±" "$tmp/out" || bad "sweep: no CI table: $(cat "$tmp/out")"

[ $fail = 0 ] && echo "compare.sh: all checks passed"
exit $((fail > 0))
