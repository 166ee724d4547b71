#!/bin/sh
# like.sh: --like PEER is its flags. On the regression fixture (mix40.csv,
# v100=2x4,k80=2x4), `--like gavel` gives the same summary as Gavel's flags
# written out (fifo-perf, and allox with its own parameter set); a flag after
# --like overrides one setting and one before it does not; a -P of the same
# key wins; the peer is stored in run_settings; compare passes it on with the
# same rule; `--like tiresias` is round 0, no restart cost, spread placement at
# consolidated rates and within=running_first for its policies, `--like helios`
# hold placement at placed rates and sjf's fill=stop (not fifo's), `--like pollux`
# 60 s rounds at round ends only, 30 s restarts, whole-second epochs, its
# Tiresias's queues and placement, its Pollux's pinned batch of a job of
# one GPU count (rigid_batch=1) and all of pollux's generations
# (patience=0); an unknown peer is a usage error.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/test_lib.sh"
test_init like
tr="$SRCDIR/tests/fixtures/regress/mix40.csv"
cl=v100=2x4,k80=2x4
sim() { "$MLSCHED" simulate --trace "$tr" --cluster $cl -q --json --db "$tmp/r.db" "$@" |
    grep -v -e wall_seconds -e decision_time -e run_id; }
q() { sqlite3 "$tmp/r.db" "$1"; }
gavel="--round 360 --cadence rounds --restart-overhead 0 --placement spread --spread-rate consolidated
    --round-end steps"
gp="-P recompute_interval=1920 -P new_jobs=wait -P received_start=half_round -P rules=gavel"

# shellcheck disable=SC2086 # flag lists are separate words
{
    sim --policy fifo-perf --like gavel >"$tmp/a1"
    sim --policy fifo-perf $gavel $gp >"$tmp/b1"
    sim --policy allox --like gavel >"$tmp/a2"
    sim --policy allox $gavel -P mechanism=gavel -P solver=lsap $gp >"$tmp/b2"
    sim --policy fifo-perf --like gavel --round 120 >"$tmp/a3"
    sim --policy fifo-perf $gavel $gp --round 120 >"$tmp/b3"
}
for i in 1 2 3; do
    [ -s "$tmp/a$i" ] && cmp -s "$tmp/a$i" "$tmp/b$i" ||
        bad "case $i: --like gavel differs from its flags: $(diff "$tmp/a$i" "$tmp/b$i" | head -4)"
done
grep -q '"avg_jct": [0-9]' "$tmp/a1" || bad "no summary: $(head -3 "$tmp/a1")"
cmp -s "$tmp/a1" "$tmp/a3" && bad "--round 120 after --like gavel changed nothing"
[ "$(q "SELECT round_len, cadence, restart_overhead FROM runs WHERE run_id=5")" = "120.0|rounds|0.0" ] ||
    bad "run 5: $(q "SELECT round_len, cadence, restart_overhead FROM runs WHERE run_id=5")"
[ "$(q "SELECT params FROM runs WHERE run_id=3")" = \
    "mechanism=gavel,solver=lsap,recompute_interval=1920,new_jobs=wait,received_start=half_round,rules=gavel" ] ||
    bad "allox's parameters under --like gavel: $(q "SELECT params FROM runs WHERE run_id=3")"
[ "$(q "SELECT group_concat(key || '=' || value) FROM (SELECT * FROM run_settings WHERE run_id=1
    ORDER BY key)")" = "epoch_times=exact,like=gavel,measured_rates=none,placement=spread,policy_rates=model,round_end=steps,spread_rate=consolidated" ] ||
    bad "run 1's settings: $(q "SELECT * FROM run_settings WHERE run_id=1")"
[ "$(q "SELECT value FROM run_settings WHERE run_id=2 AND key='like'")" = none ] ||
    bad "a run without --like is not recorded as like=none"

# a flag before --like is overridden; a -P of the same key wins
sim --policy fifo-perf --round 120 --like gavel >"$tmp/a4"
cmp -s "$tmp/a1" "$tmp/a4" || bad "--round 120 before --like gavel was not overridden"
sim --policy max-min-fairness --like shockwave -P recompute_interval=500 >/dev/null
[ "$(q "SELECT params FROM runs WHERE run_id=8")" = \
    "recompute_interval=500,new_jobs=wait,received_start=half_round,rules=gavel" ] ||
    bad "-P beside --like shockwave: $(q "SELECT params FROM runs WHERE run_id=8")"
[ "$(q "SELECT round_len, restart_overhead FROM runs WHERE run_id=8")" = "120.0|20.0" ] ||
    bad "--like shockwave's round and overhead"

# compare: the same rule
for order in "--like gavel --round 120" "--round 120 --like gavel"; do
    # shellcheck disable=SC2086
    "$MLSCHED" compare --trace "$tr" --cluster $cl --policies fifo-perf --seeds 1 -q $order \
        --db "$tmp/c.db" >/dev/null 2>"$tmp/err" || bad "compare $order: $(cat "$tmp/err")"
done
[ "$(sqlite3 "$tmp/c.db" "SELECT group_concat(round_len) FROM runs")" = "120.0,360.0" ] ||
    bad "compare's order rule: $(sqlite3 "$tmp/c.db" "SELECT round_len FROM runs")"
[ "$(sqlite3 "$tmp/c.db" "SELECT count(*) FROM run_settings WHERE key='like' AND value='gavel'")" = 2 ] ||
    bad "compare did not pass --like"

# --like tiresias and helios: their engine settings and policy parameters
lk() { "$MLSCHED" simulate --trace "$tr" --cluster $cl -q --db "$tmp/l.db" "$@" >/dev/null ||
    bad "simulate $*"; }
ql() { sqlite3 "$tmp/l.db" "$1"; }
lk --policy tiresias-las --like tiresias
lk --policy tiresias-gittins --like tiresias -P within=fifo
lk --policy sjf --like helios
lk --policy fifo --like helios
[ "$(ql "SELECT round_len, restart_overhead, params FROM runs WHERE run_id=1")" = \
    "0.0|0.0|within=running_first" ] || bad "--like tiresias: $(ql "SELECT * FROM runs WHERE run_id=1")"
[ "$(ql "SELECT params FROM runs WHERE run_id=2")" = within=fifo ] || bad "-P within beside --like tiresias"
[ "$(ql "SELECT group_concat(value) FROM (SELECT value FROM run_settings WHERE run_id=1 AND
    key IN ('placement', 'spread_rate') ORDER BY key)")" = spread,consolidated ] ||
    bad "--like tiresias's placement: $(ql "SELECT * FROM run_settings WHERE run_id=1")"
[ "$(ql "SELECT params FROM runs WHERE run_id=3")" = fill=stop ] || bad "--like helios's sjf parameter"
[ -z "$(ql "SELECT params FROM runs WHERE run_id=4")" ] || bad "--like helios gave fifo a parameter"
[ "$(ql "SELECT group_concat(value) FROM (SELECT value FROM run_settings WHERE run_id=4 AND
    key IN ('placement', 'spread_rate') ORDER BY key)")" = hold,placed ] ||
    bad "--like helios's placement: $(ql "SELECT * FROM run_settings WHERE run_id=4")"

lk --policy tiresias-las --like pollux
lk --policy tiresias-las --like pollux --epoch-times exact
[ "$(ql "SELECT round_len, cadence, restart_overhead, params FROM runs WHERE run_id=5")" = \
    "60.0|rounds|30.0|queues=2,limits=57600,place=most_free" ] ||
    bad "--like pollux: $(ql "SELECT * FROM runs WHERE run_id=5")"
[ "$(ql "SELECT group_concat(value) FROM (SELECT value FROM run_settings WHERE run_id IN (5, 6)
    AND key='epoch_times' ORDER BY run_id)")" = whole,exact ] ||
    bad "--like pollux's epoch times: $(ql "SELECT * FROM run_settings WHERE key='epoch_times'")"
# pollux under --like pollux runs all its GA's generations, as Pollux (patience=0, whatever its default)
lk --policy pollux --like pollux -P generations=2
lk --policy pollux --like pollux -P generations=2 -P patience=4
[ "$(ql "SELECT params FROM runs WHERE run_id IN (7, 8) ORDER BY run_id")" = \
    "$(printf 'generations=2,rigid_batch=1,patience=0\ngenerations=2,patience=4,rigid_batch=1')" ] ||
    bad "--like pollux's pollux: $(ql "SELECT run_id, params FROM runs WHERE run_id >= 7")"
# --like pollux pins a job of one GPU count at its trace's total batch
# (rigid_batch=1, as the artifact's ncf at 32,768 on 1 GPU): on the bundled
# Pollux catalog a lone ncf job takes 132 s (170 s at the agent's batches,
# which start from Pollux's default total of 256)
px="$tmp/ncf.csv"
printf '%s\n%s\n' "id,submit_time,user,workload,gpus,total_work,duration,priority,deadline,min_gpus,max_gpus,batch_size,mode,total_batch" \
    "0,25,default,ncf,1,49710080,,1,,1,1,32768,static,32768" >"$px"
pj() { "$MLSCHED" simulate --trace "$px" --cluster "$SRCDIR/traces/clusters/pollux-64t4.json" \
    --throughputs "$SRCDIR/traces/catalog/pollux.json" --policy pollux --like pollux -q --json \
    --db "$tmp/p.db" "$@" | sed -n 's/.*"avg_jct": *\([0-9.]*\).*/\1/p'; }
pin=$(pj) free=$(pj -P rigid_batch=0)
[ "$pin" = 132 ] && [ "$free" = 170 ] ||
    bad "--like pollux's ncf: $pin s pinned (want 132), $free s at the agent's batch (want 170)"
[ "$(sqlite3 "$tmp/p.db" "SELECT params FROM runs WHERE run_id=1")" = rigid_batch=1,patience=0 ] ||
    bad "--like pollux's pollux parameters: $(sqlite3 "$tmp/p.db" "SELECT params FROM runs")"

"$MLSCHED" simulate --trace "$tr" --cluster $cl --policy fifo --like slurm -q >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q -- "--like wants gavel, shockwave, pollux, tiresias or helios" "$tmp/err" ||
    bad "an unknown peer exited $rc: $(cat "$tmp/err")"
[ $fail -eq 0 ] && echo "like.sh: all checks passed"
exit $fail
